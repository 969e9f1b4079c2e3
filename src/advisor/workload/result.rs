//! What the simulator found for one workload on one machine.

use serde::{Deserialize, Serialize};

use super::{Consistency, MemoryBudget, Pipeline, ShmNeed, Workload};

/// What the simulator found for one workload on one machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadResult {
    /// The workload as used (clamped).
    pub workload: Workload,
    /// The RAM budget (`memory_budget` in `advise --json`).
    pub memory_budget: MemoryBudget,
    /// The simulator's pipeline, samples/s per stage: what the advisor's own checks and the
    /// simulator's tests read. Not written in the assessment JSON, and no view reads it: the
    /// one pipeline there is `bandwidth.pipeline` ([`view::pipeline_view`](super::view::pipeline_view) of this one, with the
    /// machine's capacities in bytes/s besides; [`crate::advisor::Assessment::pipeline`]).
    #[serde(skip)]
    pub pipeline: Pipeline,
    /// /dev/shm this workload needs, bytes: [`ShmNeed::bytes`].
    pub shm_needed_bytes: u64,
    /// How the /dev/shm need is made up, with the size to give it.
    #[serde(default)]
    pub shm: Option<ShmNeed>,
    /// Usable RAM that would hold the working set and the whole dataset in the page cache,
    /// bytes, exact; the installed size to buy for it is `capacity::installed_for` of it.
    pub ram_to_cache_dataset_bytes: u64,
    /// The stored bytes per sample the dataset size implies, against what the format and
    /// image size usually take (`None` for non-image samples).
    #[serde(default)]
    pub consistency: Option<Consistency>,
    /// The evaluation pause: every loader's queue full ([`super::evaluation_pause`]).
    #[serde(default)]
    pub evaluation_pause: Option<super::EvaluationPause>,
    /// How the workers were modelled to start (the machine's OS: spawn on Windows and macOS).
    #[serde(default = "fork")]
    pub start_method: crate::profile::StartMethod,
}

impl WorkloadResult {
    /// What the loaders hold beyond their steady working set while the training loop pauses
    /// with every loader's queue full: the evaluation pause's working set
    /// ([`super::evaluation_pause`], the one computation) less the steady budget's
    /// (`memory_budget`), bytes. `Some` only when there is a validation loader: a training
    /// plan then carries the pause as a phase of its own, its CPU RAM this much above the
    /// training phase (the pools charge the steady working set beside the plan).
    pub fn evaluation_pause_extra_bytes(&self) -> Option<u64> {
        self.workload.validation?;
        let p = self.evaluation_pause.as_ref()?;
        Some(
            p.working_set_bytes
                .saturating_sub(self.memory_budget.working_set_bytes),
        )
    }
}

fn fork() -> crate::profile::StartMethod {
    crate::profile::StartMethod::Fork
}
