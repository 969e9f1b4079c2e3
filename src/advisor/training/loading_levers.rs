//! The lighter way to load a checkpoint that a plan's stack offers, and whether loading is the
//! plan's peak: what both the single advice and the paired changes ask.

use super::memory::Judged;
use super::plan::{LoadingMethod, Strategy, TrainingPlan};

/// The loading method as a configuration names it.
pub(super) fn method_name(m: LoadingMethod) -> &'static str {
    match m {
        LoadingMethod::EveryRank => "every-rank",
        LoadingMethod::Rank0Broadcast => "rank0-broadcast",
        LoadingMethod::MetaDevice => "meta-device",
        LoadingMethod::LowCpuMemUsage => "low_cpu_mem_usage",
        LoadingMethod::Mmap => "mmap",
    }
}

/// True when the CPU RAM doesn't fit and a one-off phase (loading, a checkpoint save, a
/// resume) needs more of it than the training phase: a peak a swap file can absorb.
pub(super) fn loading_is_the_peak(j: &Judged) -> bool {
    use super::breakdown::{PhaseId, phase_cpu};
    let training = phase_cpu(&j.estimate.phases, PhaseId::Training);
    j.cpu.fits == Some(false)
        && j.estimate
            .phases
            .iter()
            .any(|p| p.phase != PhaseId::Training && p.cpu_bytes_per_node > training)
}

/// The lighter loading a plan's stack offers, as the changed plan and its name: DeepSpeed's
/// `zero.Init` under ZeRO-3, the meta device under FSDP, `low_cpu_mem_usage` otherwise. `None`
/// when the plan already loads that way or lighter, and when it names another method than
/// every-rank loading (which it may name to say what its script does).
pub(super) fn lighter_loading(plan: &TrainingPlan) -> Option<(TrainingPlan, &'static str)> {
    let method = plan
        .loading
        .unwrap_or_else(|| super::loading::default_method(plan));
    if plan.strategy == Strategy::Zero3 {
        return (!plan.zero_init && method == LoadingMethod::EveryRank).then(|| {
            let mut p = plan.clone();
            p.zero_init = true;
            p.loading = None;
            (p, "zero.Init")
        });
    }
    if method != LoadingMethod::EveryRank {
        return None;
    }
    let method = if plan.strategy == Strategy::FsdpFullShard {
        LoadingMethod::MetaDevice
    } else {
        LoadingMethod::LowCpuMemUsage
    };
    let mut p = plan.clone();
    p.loading = Some(method);
    Some((p, method_name(method)))
}
