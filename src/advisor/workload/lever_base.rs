//! What every workload lever is judged by: the simulator's [`Outcome`] of a workload on a
//! machine, whether it improves on another, and [`Base`], which turns a changed workload into a
//! [`Recommendation`]. Shared by `levers` and `pipeline_levers`, apart from both.

use crate::advisor::findings::Quantity;
use crate::advisor::headroom::{LimitKind, margin};
use crate::advisor::recommend::{AdviceId, Limit, Outcome, Recommendation, Subject};
use crate::advisor::whatif::MachineChange;

use super::findings::shm_flag;
use super::{Workload, WorkloadResult};

/// What the simulator says about `r` on a machine with `shm` bytes of `/dev/shm` (`None`:
/// unknown): working set, utilisation (only against a demand that is known,
/// [`super::presets::demand_given`]; then also whether the GPUs are fed above
/// [`crate::advisor::standing::STARVED_CRITICAL`]), the `/dev/shm` need, and whether every limit holds
/// with its margin — the working set in usable RAM ([`ram_fits`]) and the shared-memory
/// batches in `/dev/shm` (`None` when RAM is unknown).
pub fn outcome(r: &WorkloadResult, shm: Option<u64>) -> Outcome {
    let b = &r.memory_budget;
    let shm_need = r.shm.map(|s| s.bytes).filter(|b| *b > 0);
    let shm_fits = match (shm, shm_need) {
        (Some(have), Some(need)) => Some(need <= have),
        _ => Some(true),
    };
    let ram_fits = b.usable_ram_bytes.map(|_| ram_fits(r));
    // Against a demand nobody gave (the generic preset's), the utilisation is invented: none.
    let util = r
        .pipeline
        .predicted_gpu_utilization
        .filter(|_| super::presets::demand_given(&r.workload));
    let mut o = Outcome {
        working_set_bytes: Some(b.working_set_bytes),
        predicted_gpu_utilization: util,
        critical_cleared: util.map(|u| u >= crate::advisor::standing::STARVED_CRITICAL),
        shm_needed_bytes: shm_need,
        fits: crate::advisor::check::all_fit(&[Some(ram_fits), Some(shm_fits)]),
        ..Outcome::default()
    };
    let ram_check = b.usable_ram_bytes.map(|ram| {
        crate::advisor::training::CapacityCheck::new(LimitKind::Ram, b.working_set_bytes, Some(ram))
    });
    let shm_check = match (shm, shm_need) {
        (Some(have), Some(need)) => Some(crate::advisor::training::CapacityCheck::new(
            LimitKind::Space,
            need,
            Some(have),
        )),
        _ => None,
    };
    let mut checks = Vec::new();
    if let Some(c) = &ram_check {
        checks.push((Limit::Ram, c));
    }
    if let Some(c) = &shm_check {
        checks.push((Limit::Shm, c));
    }
    o = o.with_headroom(&checks);
    o
}

/// The working set fits usable RAM with its margin ([`crate::advisor::headroom`]); true when
/// RAM is unknown (nothing to check against).
pub fn ram_fits(r: &WorkloadResult) -> bool {
    let b = &r.memory_budget;
    match (b.usable_ram_bytes, b.headroom_bytes) {
        (Some(ram), Some(h)) => h >= 0 && h.unsigned_abs() >= margin(LimitKind::Ram, ram),
        _ => true,
    }
}

/// The workload as the user gave it and the machine's `/dev/shm`, for every lever's result
/// and `apply` arguments.
pub(super) struct Base<'a> {
    /// The workload as given.
    pub given: &'a Workload,
    /// `/dev/shm`, bytes (`None`: unknown).
    pub shm: Option<u64>,
}

impl Base<'_> {
    /// A recommendation for the changed workload `after` (the simulator's result of it). When
    /// the change puts more in `/dev/shm` than the machine has, the size that holds it comes
    /// with the change (a pair: the change and `--shm-size`), so no change that "fits" makes a
    /// Bus error worse.
    pub(super) fn rec(&self, id: AdviceId, after: &WorkloadResult) -> Recommendation {
        match shm_to_give(after, self.shm) {
            Some(give) => self
                .rec_with_shm(id, after, Some(give))
                .with("shm", Quantity::Bytes(give))
                .with("shm_flag", Quantity::Text(shm_flag(give)))
                .on_machine(MachineChange {
                    shm_bytes: Some(give),
                    ..Default::default()
                }),
            None => self.rec_with_shm(id, after, self.shm),
        }
    }

    /// The same on a machine whose `/dev/shm` holds `shm` bytes.
    pub(super) fn rec_with_shm(
        &self,
        id: AdviceId,
        after: &WorkloadResult,
        shm: Option<u64>,
    ) -> Recommendation {
        Recommendation::new(id, Subject::Workload, outcome(after, shm))
            .sets(super::knob_values::changes(self.given, &after.workload))
    }
}

/// The `/dev/shm` size to give a workload whose loader needs `r`'s, when the machine's
/// (`shm`) is known and smaller: the recommended size ([`super::ShmNeed::recommended_bytes`]).
fn shm_to_give(r: &WorkloadResult, shm: Option<u64>) -> Option<u64> {
    let need = r.shm.filter(|s| s.bytes > 0)?;
    (shm? < need.bytes).then_some(need.recommended_bytes)
}

/// True when `after` does better than `before`: it fits where `before` didn't (or couldn't be
/// told), or it feeds the GPUs better.
pub fn improves(before: &Outcome, after: &Outcome) -> bool {
    let fits = after.fits == Some(true) && before.fits != Some(true);
    let busier = match (
        before.predicted_gpu_utilization,
        after.predicted_gpu_utilization,
    ) {
        (Some(b), Some(a)) => a > b + 1e-9,
        (None, Some(_)) => true,
        _ => false,
    };
    fits || busier
}
