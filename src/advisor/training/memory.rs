//! A plan judged against a machine: per-GPU and per-node checks on the peak of the loading and
//! training phases, the RAM that would fit, and the plans tried when it doesn't.

use serde::{Deserialize, Serialize};

use super::breakdown::Estimate;
use super::plan::{PlanError, TrainingPlan};
use crate::advisor::capacity::{RamSizes, VramTotals};
pub use crate::advisor::check::CapacityCheck;
pub(crate) use crate::advisor::check::helps;
use crate::advisor::headroom::LimitKind;
use crate::profile::{DiskKind, MachineProfile};

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

/// The one-off phase (loading, a checkpoint save, a resume) whose peak breaks the plan judged
/// as `t`: the CPU peak's phase when CPU RAM doesn't fit, else the GPU peak's when VRAM doesn't;
/// `None` when the plan fits or what breaks is the training phase itself.
pub fn breaking_phase(t: &TrainingMemory) -> Option<super::PhaseId> {
    let phase = if t.cpu.fits == Some(false) {
        t.estimate.cpu_peak_phase
    } else if t.gpu.fits == Some(false) {
        t.estimate.gpu_peak_phase
    } else {
        None
    }?;
    (phase != super::PhaseId::Training).then_some(phase)
}

/// The phases of the plan judged as `t` that break, whichever they are (training included):
/// the CPU peak's phase when CPU RAM doesn't fit (or a shared pool doesn't), else the GPU
/// peak's; and, second, the GPU peak's when VRAM breaks too at another phase. `(None, None)`
/// when the plan fits or can't be told. What a change that makes the plan fit fixes
/// (`Outcome::fixes_phase`, `fixes_gpu_phase`).
pub fn failing_phase(t: &TrainingMemory) -> (Option<super::PhaseId>, Option<super::PhaseId>) {
    if t.fits != Some(false) {
        return (None, None);
    }
    let gpu = (t.gpu.fits == Some(false))
        .then_some(t.estimate.gpu_peak_phase)
        .flatten();
    if t.cpu.fits != Some(false) && gpu.is_some() {
        return (gpu, None);
    }
    let cpu = t.estimate.cpu_peak_phase;
    (cpu, gpu.filter(|g| Some(*g) != cpu))
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
    /// The OS's and each process's memory on this machine
    /// ([`crate::advisor::overhead::overheads`]).
    pub overheads: crate::advisor::overhead::Overheads,
    /// What the scenario's DataLoaders add beyond their steady working set at the evaluation
    /// pause, every loader's queue full
    /// ([`crate::advisor::workload::WorkloadResult::evaluation_pause_extra_bytes`]), bytes per
    /// node; `None` without a validation loader. The plan then has an `evaluation-pause`
    /// phase, this much above its training phase.
    pub evaluation_pause_bytes: Option<u64>,
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
        overheads: crate::advisor::overhead::overheads(profile),
        evaluation_pause_bytes: None,
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
    let mut estimate = super::estimate::estimate_with(plan, &m.overheads)?;
    if let Some(extra) = m.evaluation_pause_bytes {
        with_evaluation_pause(&mut estimate, extra);
    }
    let (gpu, cpu, nvme, fits) = checks(&estimate, m);
    Ok(Judged {
        estimate,
        gpu,
        cpu,
        nvme,
        fits,
    })
}

/// `e` with its `evaluation-pause` phase, after the training phase: the training phase's CPU
/// RAM plus `extra` (the loaders' queues full beyond their steady working set), its VRAM (the
/// step stops; nothing on the GPUs grows); the peaks and their phases recomputed.
fn with_evaluation_pause(e: &mut super::breakdown::Estimate, extra: u64) {
    use super::breakdown::{Phase, PhaseId, peak_cpu, peak_gpu, peak_phase};
    let Some(at) = e.phases.iter().position(|p| p.phase == PhaseId::Training) else {
        return;
    };
    let training = e.phases[at];
    e.phases.insert(
        at + 1,
        Phase {
            phase: PhaseId::EvaluationPause,
            cpu_bytes_per_node: training.cpu_bytes_per_node.saturating_add(extra),
            gpu_bytes_per_gpu: training.gpu_bytes_per_gpu,
        },
    );
    e.cpu_peak_bytes_per_node = peak_cpu(&e.phases);
    e.gpu_peak_bytes_per_gpu = peak_gpu(&e.phases);
    e.cpu_peak_phase = peak_phase(&e.phases, true);
    e.gpu_peak_phase = peak_phase(&e.phases, false);
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
    let fits =
        crate::advisor::check::all_fit(&[Some(gpu.fits), Some(cpu.fits), nvme.map(|n| n.fits)]);
    (gpu, cpu, nvme, fits)
}
