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
    /// The machine's memory pools with what every plan charges them
    /// ([`crate::advisor::pools::pools`]): a unified pool that overflows only with every plan
    /// charged together is what the buying advice must size for.
    pub pools: &'a [crate::advisor::pools::Pool],
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
        self.size_for_the_pool(&mut out, usable_share);
        out
    }

    /// On a unified machine whose one pool doesn't fit with every plan charged together, each
    /// plan charged to it doesn't fit either, and needs the whole pool's charge (its consumers
    /// summed): what each plan needs alone can fit while together they don't.
    fn size_for_the_pool(&self, out: &mut [WorkNeed], usable_share: f64) {
        let Some(pool) = self
            .pools
            .iter()
            .find(|p| p.kind == crate::advisor::pools::PoolKind::Unified && p.fits == Some(false))
        else {
            return;
        };
        let total = pool
            .consumers
            .iter()
            .map(|c| c.bytes)
            .fold(0u64, u64::saturating_add);
        for n in out.iter_mut().filter(|n| pool.charged_by(n.subject)) {
            n.fits = Some(false);
            if total > n.needed_bytes {
                n.needed_bytes = total;
                n.installed_bytes =
                    installed_needed(super::headroom::ram_to_hold(total), usable_share);
            }
        }
    }
}
