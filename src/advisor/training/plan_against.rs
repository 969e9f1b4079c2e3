//! A training plan against a machine: estimated and judged ([`super::memory`]) and, when it
//! doesn't fit, the changes that would make it fit ([`super::advice`]); the one file that calls
//! both.

use super::memory::{TrainingMemory, capacity, judge};
use super::plan::{PlanError, PlanWarning, TrainingPlan};
use crate::advisor::capacity::{RamSizes, VramTotals};
use crate::advisor::headroom;
use crate::advisor::recommend::Recommendation;
use crate::profile::MachineProfile;

/// Estimates `plan`, judges it against `profile`, and, when it doesn't fit, computes what to
/// change ([`super::advice::advice`]): the recommendations are returned apart, for the
/// assessment's one ranked list. `evaluation_pause_bytes`: what the scenario's loaders add at
/// the evaluation pause beyond their steady working set
/// ([`crate::advisor::workload::WorkloadResult::evaluation_pause_extra_bytes`]), for the
/// plan's `evaluation-pause` phase and every change's re-run.
///
/// # Errors
/// A [`PlanError`] naming the input that can't be right.
pub fn plan_against(
    plan: &TrainingPlan,
    profile: &MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
    evaluation_pause_bytes: Option<u64>,
) -> Result<(TrainingMemory, Vec<Recommendation>), PlanError> {
    let machine = super::memory::MachineCapacity {
        evaluation_pause_bytes,
        ..capacity(profile, ram, vram)
    };
    let mut j = judge(plan, &machine)?;
    if machine.gpus > 0 && plan.gpus_per_node > machine.gpus {
        j.estimate.warnings.push(PlanWarning::MoreGpusThanMachine);
    }
    // A one-time peak (loading, a checkpoint save, a resume) the swap configured here absorbs
    // (detected, or `--swap`): the plan fits, by the rule its recommendations' swap files use;
    // the RAM check still shows the peak past RAM, and no RAM is needed to fit it.
    let swap_absorbs = j.fits == Some(false)
        && matches!(
            super::swap_lever::swap_to_finish(&j, profile, ram),
            Some((0, _))
        );
    if swap_absorbs {
        j.fits = Some(true);
    }
    let recommendations = if j.fits == Some(false) {
        super::advice::advice(plan, &j, &machine, profile, ram)
    } else {
        Vec::new()
    };
    // The installed size to reach, as the add-RAM item states it: the need over the share of
    // installed RAM Linux gets here, rounded up to a common capacity.
    // Only when RAM is what falls short: with GPUs too small, no amount of RAM fits the plan.
    let others_fit = crate::advisor::check::all_fit(&[Some(j.gpu.fits), j.nvme.map(|n| n.fits)]);
    let ram_needed_installed_bytes =
        (j.cpu.fits == Some(false) && others_fit != Some(false) && !swap_absorbs).then(|| {
            crate::advisor::capacity::installed_needed(
                headroom::ram_to_hold(j.cpu.needed_bytes),
                ram.usable_share(),
            )
        });
    let ram_to_fit_bytes =
        ram_needed_installed_bytes.map(crate::advisor::capacity::round_up_installed);
    let memory = TrainingMemory {
        plan: plan.clone(),
        estimate: j.estimate,
        gpu: j.gpu,
        cpu: j.cpu,
        nvme: j.nvme,
        fits: j.fits,
        ram_to_fit_bytes,
        ram_needed_installed_bytes,
    };
    Ok((memory, recommendations))
}
