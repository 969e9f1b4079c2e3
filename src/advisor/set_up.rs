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
    /// Each part's need; `usable_share` turns usable bytes into installed ones. On a unified
    /// machine each part's need is what it charges the one pool ([`Self::pool_need`]), so the
    /// purchase is sized for the pool as [`crate::advisor::pools`] judged it.
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
            out.push(match self.pool_need(Subject::Training) {
                // One pool: the host part and every GPU's part together.
                Some((pool, fits)) => need(
                    Subject::Training,
                    pool,
                    fits,
                    crate::advisor::check::all_fit(&[nvme]),
                ),
                None => need(Subject::Training, t.cpu.needed_bytes, fits, others),
            });
        }
        if let Some(m) = self.inference {
            out.push(match self.pool_need(Subject::Inference) {
                Some((pool, fits)) => need(Subject::Inference, pool, fits, Some(true)),
                None => need(
                    Subject::Inference,
                    m.cpu.needed_bytes,
                    m.cpu.fits,
                    m.gpu.fits,
                ),
            });
        }
        if let Some(w) = self.workload {
            let b = &w.memory_budget;
            let storage_bound = w.pipeline.bottleneck == Some(StageId::StorageRead)
                && b.dataset_cached_fraction < 1.0;
            let (needed, fits) = self
                .pool_need(Subject::Workload)
                .unwrap_or((b.working_set_bytes, b.headroom_bytes.map(|h| h >= 0)));
            out.push(WorkNeed {
                page_cache_bytes: storage_bound.then(|| {
                    installed_for(
                        super::headroom::ram_to_hold(w.ram_to_cache_dataset_bytes),
                        usable_share,
                    )
                }),
                ..need(Subject::Workload, needed, fits, Some(true))
            });
        }
        out
    }

    /// On a unified machine, what `subject` needs of the one pool, with the pool's verdict: what
    /// its own consumers charge when the pool fits; the whole pool's charge (every consumer's
    /// bytes) when it doesn't, since a plan that fits alone but not beside the others needs room
    /// for all of them. `None` on a machine with discrete GPUs, or when `subject` charges no
    /// unified pool.
    fn pool_need(&self, subject: Subject) -> Option<(u64, Option<bool>)> {
        if !self.unified {
            return None;
        }
        let pool = self.pools.iter().find(|p| {
            p.kind == crate::advisor::pools::PoolKind::Unified && p.charged_by(subject)
        })?;
        let sum = |of: &dyn Fn(&crate::advisor::pools::Consumer) -> bool| {
            pool.consumers
                .iter()
                .filter(|c| of(c))
                .map(|c| c.bytes)
                .fold(0u64, u64::saturating_add)
        };
        let own = sum(&|c| c.subject == subject);
        Some(match pool.fits {
            Some(false) => (sum(&|_| true), Some(false)),
            fits => (own, fits),
        })
    }
}
