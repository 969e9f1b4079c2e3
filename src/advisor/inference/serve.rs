//! Serving a plan on a machine: judges it ([`super::estimate`]) and, when it doesn't fit,
//! asks the advice for what to change ([`super::advice`]); the one file that calls both.

use super::{InferenceError, InferenceMemory, InferencePlan};
use crate::advisor::capacity::{RamSizes, VramTotals};
use crate::advisor::recommend::Recommendation;
use crate::profile::MachineProfile;

/// Judges `p` on the machine (the smallest discrete GPU, or an Apple GPU's working-set limit;
/// usable RAM) and, when it doesn't fit,
/// computes what to change.
///
/// # Errors
/// An [`InferenceError`] for an input that can't be right.
pub fn serve_against(
    p: &InferencePlan,
    profile: &MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
) -> Result<(InferenceMemory, Vec<Recommendation>), InferenceError> {
    // Apple Silicon: the GPU's share of the unified memory is capped by Metal's working-set
    // limit (crate::advisor::unified), the figure llama.cpp checks its Metal buffers against.
    let cap = crate::advisor::training::capacity(profile, ram, vram);
    let gpu_total = cap.gpu.or(cap.gpu_working_set);
    let m = super::estimate::judge(p, gpu_total, ram.usable_bytes)?;
    let recs = if m.fits == Some(false) {
        super::advice::advice(&m, gpu_total, profile, ram)
    } else {
        Vec::new()
    };
    Ok((m, recs))
}
