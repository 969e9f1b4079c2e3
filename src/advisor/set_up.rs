//! What the user set up (a training plan, a model to serve, a data-loading workload), read from
//! the assessment's parts as the RAM each needs: the input of the buying advice
//! ([`crate::advisor::buying::procurement`]). It reads every planner's result, so it sits above
//! them and the buying folder, which reads only its output.

use super::buying::procurement::WorkNeed;
use super::capacity::{installed_for, installed_needed};
use super::inference::InferenceMemory;
use super::recommend::Subject;
use super::training::TrainingMemory;
use super::workload::{StageId, WorkloadResult};

/// What the user set up, from the assessment's parts: the training plan's and the model
/// served's host RAM at their peak, the workload's working set. Each with its fit against usable
/// RAM, as its own model judged it.
pub struct SetUp<'a> {
    /// The training plan's result.
    pub training: Option<&'a TrainingMemory>,
    /// The model served.
    pub inference: Option<&'a InferenceMemory>,
    /// The data-loading workload.
    pub workload: Option<&'a WorkloadResult>,
    /// Every GPU shares the RAM (Apple Silicon, GB10, Jetson, an AMD APU): the GPUs' need is
    /// charged to the same pool, and more (unified) memory fixes a GPU that falls short.
    pub unified: bool,
}

impl SetUp<'_> {
    /// Each part's need; `usable_share` turns usable bytes into installed ones.
    pub fn needs(&self, usable_share: f64) -> Vec<WorkNeed> {
        let need = |subject, needed: u64, fits, others_fit| WorkNeed {
            subject,
            needed_bytes: needed,
            installed_bytes: installed_needed(super::headroom::ram_to_hold(needed), usable_share),
            fits,
            page_cache_bytes: None,
            others_fit,
        };
        let mut out = Vec::new();
        if let Some(t) = self.training {
            let nvme = t.nvme.map(|n| n.fits);
            let others = crate::advisor::check::all_fit(&[Some(t.gpu.fits), nvme]);
            // A plan whose loading peak the configured swap takes fits as it is: nothing to
            // buy for it (`training::plan_against`).
            let fits = if t.fits == Some(true) {
                Some(true)
            } else {
                t.cpu.fits
            };
            if self.unified {
                // One pool: the host part and every GPU's part together.
                let gpus = u64::from(t.plan.gpus_per_node.max(1));
                let pool = t
                    .cpu
                    .needed_bytes
                    .saturating_add(t.gpu.needed_bytes.saturating_mul(gpus));
                let fits = crate::advisor::check::all_fit(&[Some(fits), Some(t.gpu.fits)]);
                let others = crate::advisor::check::all_fit(&[nvme]);
                out.push(need(Subject::Training, pool, fits, others));
            } else {
                out.push(need(Subject::Training, t.cpu.needed_bytes, fits, others));
            }
        }
        if let Some(m) = self.inference {
            if self.unified {
                let gpus = u64::from(m.plan.gpus.max(1));
                let pool = m
                    .cpu
                    .needed_bytes
                    .saturating_add(m.gpu.needed_bytes.saturating_mul(gpus));
                let fits = crate::advisor::check::all_fit(&[Some(m.cpu.fits), Some(m.gpu.fits)]);
                out.push(need(Subject::Inference, pool, fits, Some(true)));
            } else {
                out.push(need(
                    Subject::Inference,
                    m.cpu.needed_bytes,
                    m.cpu.fits,
                    m.gpu.fits,
                ));
            }
        }
        if let Some(w) = self.workload {
            let b = &w.memory_budget;
            let storage_bound = w.pipeline.bottleneck == Some(StageId::StorageRead)
                && b.dataset_cached_fraction < 1.0;
            out.push(WorkNeed {
                page_cache_bytes: storage_bound.then(|| {
                    installed_for(
                        super::headroom::ram_to_hold(w.ram_to_cache_dataset_bytes),
                        usable_share,
                    )
                }),
                ..need(
                    Subject::Workload,
                    b.working_set_bytes,
                    b.headroom_bytes.map(|h| h >= 0),
                    Some(true),
                )
            });
        }
        out
    }
}
