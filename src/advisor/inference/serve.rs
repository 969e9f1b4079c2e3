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
    let gpu_total = gpu_total(profile, ram, vram);
    let m = super::estimate::judge(p, gpu_total, ram.usable_bytes)?;
    let recs = if m.fits == Some(false) {
        super::advice::advice(&m, gpu_total, profile, ram)
    } else {
        Vec::new()
    };
    Ok((m, recs))
}

/// The GPU memory a plan is judged against: the smallest discrete GPU, or on Apple Silicon the
/// GPU's share of the unified memory (Metal's working-set limit, [`crate::advisor::unified`],
/// the figure llama.cpp checks its Metal buffers against).
///
/// On the machine itself ([`MachineProfile::live`]) a discrete GPU counts only its free memory,
/// total − used (NVML's `nvmlDeviceGetMemoryInfo`, what other processes hold included): the
/// figure llama.cpp's `--fit` (`llama_params_fit` in `src/llama.cpp`, from each device's free
/// bytes, `llama_get_device_memory_data`) and Ollama's scheduler (`server/sched.go`, the GPUs'
/// `FreeMemory`) place a model against. A GPU whose
/// use wasn't read counts its total. A profile file or a catalogue machine (procurement) keeps
/// the nominal totals.
fn gpu_total(profile: &MachineProfile, ram: &RamSizes, vram: &VramTotals) -> Option<u64> {
    let cap = crate::advisor::training::capacity(profile, ram, vram);
    let free = profile
        .gpus
        .iter()
        .filter(|g| !g.unified_memory)
        .filter_map(|g| {
            let total = g.vram_total_bytes?;
            Some(total.saturating_sub(g.vram_used_bytes.unwrap_or(0)))
        })
        .min();
    match cap.gpu {
        Some(_) if profile.live => free,
        _ => cap.gpu.or(cap.gpu_working_set),
    }
}

/// Judges `p` on the machine, as [`serve_against`] does, without asking for advice: what a
/// recommendation's plan is priced from ([`crate::advisor::speed`]).
///
/// # Errors
/// An [`InferenceError`] for an input that can't be right.
pub fn judged(
    p: &InferencePlan,
    profile: &MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
) -> Result<InferenceMemory, InferenceError> {
    super::estimate::judge(p, gpu_total(profile, ram, vram), ram.usable_bytes)
}
