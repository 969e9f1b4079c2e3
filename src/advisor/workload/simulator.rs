//! The simulator: a workload on a machine → its RAM budget and pipeline.

use super::{CacheMode, MachineRates, Workload, WorkloadResult, budget, checks, pipeline};

/// The simulator without the worker recommendation (which re-runs it): what every lever is
/// judged with.
pub fn simulate_only(w: &Workload, m: &MachineRates) -> WorkloadResult {
    let w = w.clamped();
    let (budget, pipeline) = pipeline::simulate(&w, m);
    let working = budget.working_set_bytes;
    let cached_dataset = if w.cache == CacheMode::None {
        w.dataset_bytes
    } else {
        0
    };
    let ram_to_cache_dataset_bytes = working.saturating_add(cached_dataset);
    let shm = budget::shm_need(&w);
    let pause =
        super::evaluation_pause(&w, m.usable_ram_bytes, m.gpus, m.start_method, &m.overheads);
    WorkloadResult {
        evaluation_pause: Some(pause),
        start_method: m.start_method,
        shm_needed_bytes: shm.bytes,
        shm: Some(shm),
        consistency: checks::consistency(&w),
        workload: w,
        memory_budget: budget,
        pipeline,
        ram_to_cache_dataset_bytes,
    }
}
