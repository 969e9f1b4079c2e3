//! A plan judged against a machine: per-GPU and per-node checks on the peak of the loading and
//! training phases, the RAM that would fit, and the plans tried when it doesn't.

use serde::{Deserialize, Serialize};

use super::breakdown::Estimate;
use super::estimate;
use super::plan::{PlanError, PlanWarning, TrainingPlan};
use crate::advisor::capacity::{RamSizes, VramTotals};
use crate::advisor::headroom::{self, LimitKind};
use crate::advisor::recommend::Recommendation;
use crate::profile::{DiskKind, MachineProfile};

/// One capacity compared with the machine, with the margin a need must leave
/// ([`crate::advisor::headroom`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapacityCheck {
    /// Bytes needed.
    pub needed_bytes: u64,
    /// Bytes the machine has (`None`: unknown).
    pub available_bytes: Option<u64>,
    /// Bytes the need must leave free to count as fitting ([`headroom::margin`]); 0 when the
    /// capacity is unknown.
    #[serde(default)]
    pub margin_bytes: u64,
    /// `available − needed`, bytes (negative when it doesn't fit at all; `None`: unknown).
    #[serde(default)]
    pub headroom_bytes: Option<i64>,
    /// `needed + margin ≤ available`, or `None` when unknown.
    pub fits: Option<bool>,
}

/// A change worth showing: it fits (`next_fits`), or it lowers a need that didn't fit without
/// breaking one that did. `now` and `next` are the same checks (GPU, CPU) before and after.
pub(crate) fn helps(
    now: &[&CapacityCheck],
    next: &[&CapacityCheck],
    next_fits: Option<bool>,
) -> bool {
    if next_fits == Some(true) {
        return true;
    }
    let pairs = || now.iter().zip(next.iter());
    if pairs().any(|(a, b)| a.fits == Some(true) && b.fits == Some(false)) {
        return false;
    }
    pairs().any(|(a, b)| a.fits == Some(false) && b.needed_bytes < a.needed_bytes)
}

impl CapacityCheck {
    /// `needed` bytes against `available` of a limit of `kind`, with that kind's margin
    /// (unknown: `fits` is `None`).
    pub(crate) fn new(kind: LimitKind, needed: u64, available: Option<u64>) -> CapacityCheck {
        let margin = available.map_or(0, |a| headroom::margin(kind, a));
        CapacityCheck {
            needed_bytes: needed,
            available_bytes: available,
            margin_bytes: margin,
            headroom_bytes: available.map(|a| crate::units::signed_diff(a, needed)),
            fits: available.map(|a| needed.saturating_add(margin) <= a),
        }
    }

    /// True when the need fits the capacity but not its margin: `plan-tight`.
    pub fn tight(&self) -> bool {
        self.fits == Some(false) && self.available_bytes.is_some_and(|a| self.needed_bytes <= a)
    }

    /// Bytes missing (0 when it fits or is unknown).
    pub fn missing_bytes(&self) -> u64 {
        self.available_bytes
            .map_or(0, |a| self.needed_bytes.saturating_sub(a))
    }
}

/// The planner's result for one plan on one machine (`training_memory` in `advise --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingMemory {
    /// The plan as given.
    pub plan: TrainingPlan,
    /// What it needs.
    #[serde(flatten)]
    pub estimate: Estimate,
    /// Per-GPU need (the larger phase: model states, plus activations when estimated) against
    /// the smallest GPU.
    pub gpu: CapacityCheck,
    /// Per-node CPU need (the larger phase, runtime included) against usable RAM (for unified
    /// memory: GPU and CPU together).
    pub cpu: CapacityCheck,
    /// NVMe need against the largest free NVMe mount (`None` without NVMe offload).
    pub nvme: Option<CapacityCheck>,
    /// Everything fits (`None`: something can't be checked).
    pub fits: Option<bool>,
    /// Installed RAM that would fit the CPU need (`capacity::installed_for`: the need over the
    /// machine's usable share, rounded up to a common capacity), when CPU doesn't fit and
    /// nothing else does (`None` when the GPUs or the NVMe space fall short too: RAM alone
    /// won't make the plan fit).
    pub ram_to_fit_bytes: Option<u64>,
    /// The installed RAM the CPU need asks for before rounding (`capacity::installed_needed`),
    /// when [`Self::ram_to_fit_bytes`] is given: what procurement calls "at least".
    #[serde(default)]
    pub ram_needed_installed_bytes: Option<u64>,
}

impl TrainingMemory {
    /// True when the plan fits every limit but not its margin (`plan-tight`): every check that
    /// fails is [`CapacityCheck::tight`].
    pub fn tight(&self) -> bool {
        let checks = [Some(&self.gpu), Some(&self.cpu), self.nvme.as_ref()];
        let failing: Vec<&CapacityCheck> = checks
            .into_iter()
            .flatten()
            .filter(|c| c.fits == Some(false))
            .collect();
        !failing.is_empty() && failing.iter().all(|c| c.tight())
    }
}

/// What the machine offers a plan: the smallest GPU's VRAM, usable RAM, the largest free NVMe
/// mount. Bytes; `None` when unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MachineCapacity {
    /// The smallest discrete GPU's VRAM as reported.
    pub gpu: Option<u64>,
    /// Usable RAM per node.
    pub cpu: Option<u64>,
    /// Free space on the largest NVMe mount.
    pub nvme: Option<u64>,
    /// Only unified-memory GPUs: GPU and CPU share the RAM.
    pub unified: bool,
    /// Apple Silicon: the most of the unified pool the GPU may use
    /// ([`crate::advisor::unified::apple_gpu_working_set`]); `None` elsewhere.
    pub gpu_working_set: Option<u64>,
    /// GPUs.
    pub gpus: u32,
}

/// The machine's [`MachineCapacity`].
pub fn capacity(profile: &MachineProfile, ram: &RamSizes, vram: &VramTotals) -> MachineCapacity {
    let smallest_gpu = profile
        .gpus
        .iter()
        .filter(|g| !g.unified_memory)
        .filter_map(|g| g.vram_total_bytes)
        .min();
    let nvme = profile
        .disks
        .iter()
        .filter(|d| d.kind == DiskKind::Nvme)
        .filter_map(|d| d.available_bytes)
        .max();
    MachineCapacity {
        gpu: if vram.unknown_vram_gpus > 0 {
            None
        } else {
            smallest_gpu
        },
        cpu: ram.usable_bytes,
        nvme,
        unified: vram.discrete_gpus == 0 && vram.unified_gpus > 0,
        gpu_working_set: crate::advisor::unified::apple_gpu_working_set(profile).map(|w| w.bytes),
        gpus: vram.discrete_gpus + vram.unified_gpus,
    }
}

/// A plan's estimate checked against a machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The estimate.
    pub estimate: Estimate,
    /// Per-GPU check.
    pub gpu: CapacityCheck,
    /// Per-node CPU check.
    pub cpu: CapacityCheck,
    /// NVMe check, with NVMe offload.
    pub nvme: Option<CapacityCheck>,
    /// Everything fits (`None`: can't tell).
    pub fits: Option<bool>,
}

/// Estimates `plan` and checks it against `m`.
///
/// # Errors
/// The plan's [`PlanError`].
pub fn judge(plan: &TrainingPlan, m: &MachineCapacity) -> Result<Judged, PlanError> {
    let estimate = estimate(plan)?;
    let (gpu, cpu, nvme, fits) = checks(&estimate, m);
    Ok(Judged {
        estimate,
        gpu,
        cpu,
        nvme,
        fits,
    })
}

fn checks(
    e: &Estimate,
    m: &MachineCapacity,
) -> (
    CapacityCheck,
    CapacityCheck,
    Option<CapacityCheck>,
    Option<bool>,
) {
    // The peaks of the loading and training phases (activations in when estimated, the
    // runtime in the CPU figure).
    let gpu_need = e.gpu_peak_bytes_per_gpu;
    let (gpu, cpu) = if m.unified {
        // One pool: the GPU's share and the CPU's share both come out of system RAM.
        let together = gpu_need
            .saturating_mul(u64::from(m.gpus.max(1)))
            .saturating_add(e.cpu_peak_bytes_per_node);
        // On Apple Silicon the GPU's share is capped by Metal's working-set limit as well.
        let gpu = match m.gpu_working_set {
            Some(limit) => CapacityCheck::new(LimitKind::Vram, gpu_need, Some(limit)),
            None => CapacityCheck::new(LimitKind::Ram, gpu_need, m.cpu),
        };
        (gpu, CapacityCheck::new(LimitKind::Ram, together, m.cpu))
    } else {
        (
            CapacityCheck::new(LimitKind::Vram, gpu_need, m.gpu),
            CapacityCheck::new(LimitKind::Ram, e.cpu_peak_bytes_per_node, m.cpu),
        )
    };
    let nvme =
        (e.nvme_bytes > 0).then(|| CapacityCheck::new(LimitKind::Space, e.nvme_bytes, m.nvme));
    let fits = crate::advisor::recommend::machine::all_fit(&[
        Some(gpu.fits),
        Some(cpu.fits),
        nvme.map(|n| n.fits),
    ]);
    (gpu, cpu, nvme, fits)
}

/// Estimates `plan`, judges it against `profile`, and, when it doesn't fit, computes what to
/// change ([`super::advice::advice`]): the recommendations are returned apart, for the
/// assessment's one ranked list.
///
/// # Errors
/// A [`PlanError`] naming the input that can't be right.
pub fn plan_against(
    plan: &TrainingPlan,
    profile: &MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
) -> Result<(TrainingMemory, Vec<Recommendation>), PlanError> {
    let machine = capacity(profile, ram, vram);
    let mut j = judge(plan, &machine)?;
    if machine.gpus > 0 && plan.gpus_per_node > machine.gpus {
        j.estimate.warnings.push(PlanWarning::MoreGpusThanMachine);
    }
    let recommendations = if j.fits == Some(false) {
        super::advice::advice(plan, &j, &machine, profile, ram)
    } else {
        Vec::new()
    };
    // The installed size to reach, as the add-RAM item states it: the need over the share of
    // installed RAM Linux gets here, rounded up to a common capacity.
    // Only when RAM is what falls short: with GPUs too small, no amount of RAM fits the plan.
    let others_fit =
        crate::advisor::recommend::machine::all_fit(&[Some(j.gpu.fits), j.nvme.map(|n| n.fits)]);
    let ram_needed_installed_bytes =
        (j.cpu.fits == Some(false) && others_fit != Some(false)).then(|| {
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
