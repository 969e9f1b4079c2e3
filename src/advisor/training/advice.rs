//! What to change when a training plan doesn't fit: each candidate is the plan with one change,
//! estimated and judged again on the same machine, kept when it fits or lowers a peak that was
//! too high. Ranking happens once for the whole assessment (`advisor::recommend::rank`).

use super::loading_levers::{lighter_loading, loading_is_the_peak, method_name};
use super::memory::{Judged, MachineCapacity, judge};
use super::plan::{FineTune, LoadingMethod, OffloadTarget, Strategy, TrainingPlan};
use crate::advisor::buying::ram_advice::{self, RamNeed};
use crate::advisor::capacity::RamSizes;
use crate::advisor::findings::Quantity;
use crate::advisor::recommend::{AdviceId as R, Limit, Outcome, RecKind, Recommendation, Subject};
use crate::profile::MachineProfile;

/// A change worth showing ([`super::memory::helps`] on the GPU and CPU checks).
fn helps(current: &Judged, next: &Judged) -> bool {
    super::memory::helps(
        &[&current.gpu, &current.cpu],
        &[&next.gpu, &next.cpu],
        next.fits,
    )
}

/// What the plan judged as `j` gives, with the headroom of every limit it was checked against.
pub(crate) fn outcome(j: &Judged) -> Outcome {
    outcome_parts(&j.estimate, &j.gpu, &j.cpu, j.nvme.as_ref(), j.fits)
}

/// The same for a judged plan (a pair re-run).
pub(super) fn outcome_of_judged(j: &Judged) -> Outcome {
    outcome(j)
}

/// The same for a planner's result (a plan re-assessed on a changed machine).
pub fn outcome_of(t: &super::TrainingMemory) -> Outcome {
    outcome_parts(&t.estimate, &t.gpu, &t.cpu, t.nvme.as_ref(), t.fits)
}

fn outcome_parts(
    e: &super::breakdown::Estimate,
    gpu: &super::CapacityCheck,
    cpu: &super::CapacityCheck,
    nvme: Option<&super::CapacityCheck>,
    fits: Option<bool>,
) -> Outcome {
    let mut checks = vec![(Limit::Vram, gpu), (Limit::Ram, cpu)];
    if let Some(n) = nvme {
        checks.push((Limit::Nvme, n));
    }
    Outcome {
        cpu_peak_bytes_per_node: Some(e.cpu_peak_bytes_per_node),
        gpu_peak_bytes_per_gpu: Some(e.gpu_peak_bytes_per_gpu),
        peak_phase: e.cpu_peak_phase,
        fits,
        ..Outcome::default()
    }
    .with_headroom(&checks)
}

fn text(s: &str) -> Quantity {
    Quantity::Text(s.to_string())
}

/// The candidate changes of `plan`, each judged on `machine`, in the order they are preferred
/// within their kind (a setting before a technique, before the OS). Among techniques, those
/// that train the same model come first (ZeRO-3, NVMe offload, checkpointing), then those that
/// change what is trained, the smallest change first (LoRA, QLoRA, then QLoRA sharded by FSDP).
pub(super) fn advice(
    plan: &TrainingPlan,
    current: &Judged,
    machine: &MachineCapacity,
    profile: &MachineProfile,
    ram: &RamSizes,
) -> Vec<Recommendation> {
    let mut out = Vec::new();
    // Each listed change with the plan it re-ran, for pairs.
    let mut tried: Vec<(usize, TrainingPlan)> = Vec::new();
    let mut consider = |id: R, changed: TrainingPlan, changes: &[(&str, Quantity)]| {
        let kind = id.kind();
        if changed == *plan {
            return;
        }
        let Ok(mut next) = judge(&changed, machine) else {
            return;
        };
        let mut applied = changed.clone();
        let mut extra = None;
        // A change that fails only on its loading peak is shown with the loading setting
        // that makes it fit (QLoRA loaded shard by shard, not QLoRA that can't start;
        // optimizer offload under ZeRO-3 with zero.Init).
        if next.fits == Some(false) && loading_is_the_peak(&next) {
            if let Some((lighter, name)) = lighter_loading(&changed) {
                if let Ok(j) = judge(&lighter, machine) {
                    if j.fits == Some(true)
                        || super::swap_lever::swap_to_finish(&j, profile, ram).is_some()
                    {
                        next = j;
                        extra = Some(name);
                        applied = lighter;
                    }
                }
            }
        }
        // Still short only while loading, by no more than a swap file absorbs: the change
        // with that swap file (the setting that nearly fits, not 500 GiB of swap alone).
        let mut swap = None;
        if next.fits == Some(false) && loading_is_the_peak(&next) {
            swap = super::swap_lever::swap_to_finish(&next, profile, ram);
        }
        let mut result = outcome(&next);
        if swap.is_some() {
            result = ram_advice::without_headroom(result);
            result.fits = Some(true);
        }
        // Two techniques with the same figures read as one: the first (preferred) stays.
        // Settings stay side by side (rank 0 or the meta device: whichever the code uses).
        let same = kind == RecKind::Software
            && out
                .iter()
                .any(|r: &Recommendation| r.kind == kind && r.result == result);
        if (helps(current, &next) || swap.is_some()) && !same {
            let mut r = Recommendation::new(id, Subject::Training, result)
                .with_kind(kind)
                .sets(super::knob_values::changes(plan, &applied));
            for (name, q) in changes {
                r = r.with(name, q.clone());
            }
            if let Some(m) = extra {
                r = r.with("loading", text(m));
            }
            if let Some(s) = swap {
                r = super::swap_lever::with_swap(r, s, profile);
            }
            tried.push((out.len(), applied.clone()));
            out.push(r);
        }
    };
    let with = |f: &dyn Fn(&mut TrainingPlan)| {
        let mut p = plan.clone();
        f(&mut p);
        p
    };
    let method = plan
        .loading
        .unwrap_or_else(|| super::loading::default_method(plan));
    let deepspeed = matches!(
        plan.strategy,
        Strategy::Zero1 | Strategy::Zero2 | Strategy::Zero3
    );
    // Settings: an offload the GPUs don't need. The same plan with the states on the GPUs is
    // faster (no optimizer step on the CPU, no transfers over PCIe) and uses less host RAM;
    // parameters first (keeping the optimizer's offload), then both.
    if plan.offload_param != OffloadTarget::None && plan.offload_optimizer != OffloadTarget::None {
        consider(
            R::DropOffload,
            with(&|p| p.offload_param = OffloadTarget::None),
            &[("offload_param", text("none"))],
        );
    }
    if plan.offload_optimizer != OffloadTarget::None || plan.offload_param != OffloadTarget::None {
        consider(
            R::DropOffload,
            with(&|p| {
                p.offload_optimizer = OffloadTarget::None;
                p.offload_param = OffloadTarget::None;
            }),
            &[
                ("offload_optimizer", text("none")),
                ("offload_param", text("none")),
            ],
        );
    }
    // Settings: how the checkpoint is loaded. Rank 0 loading and broadcasting is FSDP's
    // `sync_module_states`; DeepSpeed's counterparts are `zero.Init` (ZeRO-3) and loading shard
    // by shard, considered below.
    if plan.gpus_per_node > 1
        && plan.strategy == Strategy::FsdpFullShard
        && method == LoadingMethod::EveryRank
    {
        consider(
            R::LoadOnRank0,
            with(&|p| p.loading = Some(LoadingMethod::Rank0Broadcast)),
            &[("loading", text(method_name(LoadingMethod::Rank0Broadcast)))],
        );
    }
    if plan.strategy == Strategy::FsdpFullShard && method != LoadingMethod::MetaDevice {
        consider(
            R::MetaDeviceInit,
            with(&|p| p.loading = Some(LoadingMethod::MetaDevice)),
            &[("loading", text(method_name(LoadingMethod::MetaDevice)))],
        );
    }
    if plan.strategy == Strategy::Zero3 && !plan.zero_init {
        consider(
            R::ZeroInit,
            with(&|p| p.zero_init = true),
            &[("zero_init", text("true"))],
        );
    }
    if !matches!(plan.strategy, Strategy::Zero3 | Strategy::FsdpFullShard)
        && !matches!(
            method,
            LoadingMethod::LowCpuMemUsage | LoadingMethod::MetaDevice
        )
    {
        consider(
            R::LowCpuMemUsage,
            with(&|p| p.loading = Some(LoadingMethod::LowCpuMemUsage)),
            &[("loading", text(method_name(LoadingMethod::LowCpuMemUsage)))],
        );
    }
    // Settings: how the state is saved and read back, when that is the peak.
    for (id, changed) in super::lifecycle_levers::candidates(plan, current) {
        let name = match id {
            R::ResumePerRank => ("resume_load", text("per-rank")),
            R::SaveOnRank0Only => ("save_state_dict", text("full")),
            _ => ("save_state_dict", text("sharded")),
        };
        consider(id, changed, &[name]);
    }
    // Settings: offloading to CPU RAM where the GPUs can't hold the states. DeepSpeed moves the
    // optimizer states alone (ZeRO-Offload), then the parameters too (ZeRO-3); FSDP's
    // CPUOffload moves both together.
    if plan.finetune == FineTune::Full
        && plan.offload_optimizer == OffloadTarget::None
        && matches!(plan.strategy, Strategy::Zero2 | Strategy::Zero3)
    {
        consider(
            R::OffloadOptimizerToCpu,
            with(&|p| p.offload_optimizer = OffloadTarget::Cpu),
            &[("offload_optimizer", text("cpu"))],
        );
    }
    if plan.finetune == FineTune::Full
        && plan.offload_param == OffloadTarget::None
        && matches!(plan.strategy, Strategy::Zero3 | Strategy::FsdpFullShard)
    {
        consider(
            R::OffloadParamsToCpu,
            with(&|p| {
                p.offload_optimizer = OffloadTarget::Cpu;
                p.offload_param = OffloadTarget::Cpu;
            }),
            &[
                ("offload_optimizer", text("cpu")),
                ("offload_param", text("cpu")),
            ],
        );
    }
    // Software: other techniques in the same stack.
    if plan.finetune == FineTune::Full && plan.strategy < Strategy::Zero3 {
        consider(
            R::Zero3InsteadOfZero2,
            with(&|p| {
                p.strategy = Strategy::Zero3;
                // DeepSpeed's `offload_param` needs ZeRO-3; keep the optimizer's.
            }),
            &[("strategy", text("zero3"))],
        );
    }
    if plan.finetune == FineTune::Full && machine.nvme.is_some() && deepspeed {
        consider(
            R::OffloadToNvme,
            with(&|p| {
                p.strategy = Strategy::Zero3;
                p.offload_optimizer = OffloadTarget::Nvme;
                p.offload_param = OffloadTarget::Nvme;
                p.zero_init = true;
            }),
            &[("offload", text("nvme"))],
        );
    }
    if let Some(a) = plan.activations.filter(|a| !a.checkpointing) {
        let mut a = a;
        a.checkpointing = true;
        consider(
            R::GradientCheckpointing,
            with(&|p| p.activations = Some(a)),
            &[("checkpointing", text("true"))],
        );
    }
    if plan.finetune == FineTune::Full {
        consider(
            R::Lora,
            with(&|p| p.finetune = FineTune::Lora),
            &[("finetune", text("lora"))],
        );
    }
    if plan.finetune != FineTune::Qlora {
        consider(
            R::Qlora,
            with(&|p| p.finetune = FineTune::Qlora),
            &to_qlora(plan),
        );
    }
    if plan.gpus_per_node > 1
        && !(plan.finetune == FineTune::Qlora && plan.strategy == Strategy::FsdpFullShard)
    {
        let sharded = with(&|p| {
            p.finetune = FineTune::Qlora;
            p.strategy = Strategy::FsdpFullShard;
            p.offload_optimizer = OffloadTarget::None;
            p.offload_param = OffloadTarget::None;
        });
        let fits_gpu = judge(&sharded, machine).is_ok_and(|j| j.gpu.fits != Some(false));
        let sharded = if fits_gpu {
            sharded
        } else {
            TrainingPlan {
                offload_optimizer: OffloadTarget::Cpu,
                offload_param: OffloadTarget::Cpu,
                ..sharded
            }
        };
        let offload = sharded.offload_param == OffloadTarget::Cpu;
        let mut changes = vec![("cpu_offload", text(if offload { "true" } else { "false" }))];
        changes.extend(to_qlora(plan));
        if plan.strategy != Strategy::FsdpFullShard {
            changes.push(("strategy", text("fsdp")));
        }
        consider(R::ShardedQlora, sharded, &changes);
    }
    // No single change fits: pairs of those that helped, each re-run (`pairs`).
    if !out.iter().any(|r| r.result.fits == Some(true)) {
        let singles: Vec<(&Recommendation, &TrainingPlan)> =
            tried.iter().map(|(i, p)| (&out[*i], p)).collect();
        let found = super::pairs::pairs(plan, &singles, machine, profile, ram);
        out.extend(found);
    }
    out.extend(ram_advice::recommendations(
        profile,
        ram,
        &ram_need(current),
    ));
    out
}

/// What moving `plan` to QLoRA sets: `finetune: qlora` from a full fine-tune, `base: 4-bit`
/// from LoRA (the adapters stay; the base is quantised); nothing when it is QLoRA already.
fn to_qlora(plan: &TrainingPlan) -> Vec<(&'static str, Quantity)> {
    match plan.finetune {
        FineTune::Full => vec![("finetune", text("qlora"))],
        FineTune::Lora => vec![("base", text("4-bit"))],
        FineTune::Qlora => Vec::new(),
    }
}

/// What the plan asks of the machine's RAM: its peak, the training phase when loading is the
/// peak, and whether the rest fits.
fn ram_need(j: &Judged) -> RamNeed {
    use super::breakdown::{PhaseId, phase_cpu};
    let cpu = |id| phase_cpu(&j.estimate.phases, id);
    // The phases that come back (the steps, and the evaluation pause with its pinned queue):
    // swap can take only a one-off peak above them, as `swap_lever::swap_to_finish` rules.
    let steady = cpu(PhaseId::Training).max(cpu(PhaseId::EvaluationPause));
    let others_fit = crate::advisor::check::all_fit(&[Some(j.gpu.fits), j.nvme.map(|n| n.fits)]);
    RamNeed {
        subject: Subject::Training,
        peak: j.cpu.needed_bytes,
        steady: (j.estimate.cpu_peak_bytes_per_node > steady).then_some(steady),
        others_fit,
        outcome: outcome(j),
    }
}
