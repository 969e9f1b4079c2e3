//! Levers on the DataLoader's own memory when the working set doesn't fit: `pin_memory=False`
//! alone, and the three settings searched together (a smaller batch, a smaller
//! `prefetch_factor`, `pin_memory=False`), each judged by running the simulator again.
//!
//! The search keeps what costs the user most for last: the batch (it changes the training
//! itself and slows each step's share of the GPU), then pinned memory (a slower copy), then
//! the queue's depth (`prefetch_factor`, which costs nothing while the loader keeps up). The
//! first combination that fits, in that order, is offered when it changes more than one of the
//! three; a change of one alone is the single levers' (`levers`).

use super::lever_base::Base;
use super::{MachineRates, Workload, WorkloadResult, simulate_only};
use crate::advisor::findings::Quantity;
use crate::advisor::knobs::KnobId as K;
use crate::advisor::recommend::{AdviceId, Recommendation};

/// `v`, `v / 2`, `v / 4`, … down to 1: the values a halving search tries.
fn halvings(v: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut x = v.max(1);
    loop {
        out.push(x);
        if x == 1 {
            return out;
        }
        x /= 2;
    }
}

/// The DataLoader settings (batch, `pin_memory`, `prefetch_factor`) closest to `w`'s whose
/// working set fits on `m` with its margin, with the simulator's result; `None` when none
/// does. The batch is kept as large as possible first, then `pin_memory`, then the prefetch.
pub fn fitting_loader(w: &Workload, m: &MachineRates) -> Option<(Workload, WorkloadResult)> {
    let pins: Vec<bool> = if w.pin_memory {
        vec![true, false]
    } else {
        vec![false]
    };
    // Without workers there is no queue: prefetch_factor plays no part.
    let prefetches = if w.num_workers > 0 {
        halvings(w.prefetch_factor)
    } else {
        vec![w.prefetch_factor]
    };
    for batch_size in halvings(w.batch_size) {
        for &pin_memory in &pins {
            for &prefetch_factor in &prefetches {
                let changed = Workload {
                    batch_size,
                    pin_memory,
                    prefetch_factor,
                    ..w.clone()
                };
                if changed == *w {
                    continue;
                }
                let r = simulate_only(&changed, m);
                if super::lever_base::ram_fits(&r) {
                    return Some((changed, r));
                }
            }
        }
    }
    None
}

/// The loader levers for workload `r` (which doesn't fit) on `m`: `pin_memory=False` when it
/// is on, and the fitting combination when it changes two or three of the settings.
pub(super) fn recommendations(
    r: &WorkloadResult,
    base: &Base<'_>,
    m: &MachineRates,
    out: &mut Vec<Recommendation>,
) {
    let w = &r.workload;
    if w.pin_memory {
        let after = simulate_only(
            &Workload {
                pin_memory: false,
                ..w.clone()
            },
            m,
        );
        out.push(base.rec(AdviceId::UnpinMemory, &after));
    }
    let Some((fit, after)) = fitting_loader(w, m) else {
        return;
    };
    let changed = [
        fit.batch_size != w.batch_size,
        fit.pin_memory != w.pin_memory,
        fit.prefetch_factor != w.prefetch_factor,
    ];
    if changed.iter().filter(|c| **c).count() < 2 {
        return;
    }
    let mut rec = base
        .rec(AdviceId::FitLoaderSettings, &after)
        .with_knob(K::BatchSize, Quantity::Count(u64::from(fit.batch_size)))
        .with_knob(
            K::PrefetchFactor,
            Quantity::Count(u64::from(fit.prefetch_factor)),
        );
    // Recorded only when it changes (the title names it then: `title_unpinned`).
    if fit.pin_memory != w.pin_memory {
        rec = rec.with_knob(K::PinMemory, Quantity::Text("False".to_string()));
    }
    out.push(rec);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_halving_search_ends_at_one() {
        assert_eq!(halvings(64), [64, 32, 16, 8, 4, 2, 1]);
        assert_eq!(halvings(3), [3, 1]);
        assert_eq!(halvings(0), [1]);
    }
}
