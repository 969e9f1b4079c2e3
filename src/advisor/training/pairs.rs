//! Pairs of changes, for a training plan no single change makes fit: two changes that each
//! helped (lowered a need that was too high), applied together and re-run. A pair is listed
//! under its costlier part (what it gives up is the more of the two) and names both.

use super::memory::{MachineCapacity, judge};
use super::plan::TrainingPlan;
use crate::advisor::recommend::Recommendation;

/// At most this many pairs are listed (the ones that fit, in the singles' order): more would
/// bury the list. Assumption.
pub const MAX_PAIRS: usize = 3;

/// `a` with every field `b` changed from `original` taken from `b`: the two changes together.
/// `None` when a field both change is set differently (the pair contradicts itself) or the
/// plans can't be read back.
pub fn merge(original: &TrainingPlan, a: &TrainingPlan, b: &TrainingPlan) -> Option<TrainingPlan> {
    let (o, a, b) = (
        serde_json::to_value(original).ok()?,
        serde_json::to_value(a).ok()?,
        serde_json::to_value(b).ok()?,
    );
    let (o, mut a, b) = (
        o.as_object()?.clone(),
        a.as_object()?.clone(),
        b.as_object()?.clone(),
    );
    for (key, bv) in &b {
        if o.get(key) == Some(bv) {
            continue;
        }
        if a.get(key) != o.get(key) && a.get(key) != Some(bv) {
            return None;
        }
        a.insert(key.clone(), bv.clone());
    }
    serde_json::from_value(serde_json::Value::Object(a)).ok()
}

/// The pairs of `singles` (each listed change with the plan it re-ran) that fit together on
/// `machine`, each re-run — with a swap file where one absorbs the pair's one-time peak on
/// `profile` with `ram`; unranked.
pub(super) fn pairs(
    plan: &TrainingPlan,
    singles: &[(&Recommendation, &TrainingPlan)],
    machine: &MachineCapacity,
    profile: &crate::profile::MachineProfile,
    ram: &crate::advisor::capacity::RamSizes,
) -> Vec<Recommendation> {
    let mut out = Vec::new();
    for (i, (ra, pa)) in singles.iter().enumerate() {
        for (rb, pb) in &singles[i + 1..] {
            if out.len() >= MAX_PAIRS || ra.id == rb.id {
                continue;
            }
            let Some(both) = merge(plan, pa, pb) else {
                continue;
            };
            if both == **pa || both == **pb {
                continue;
            }
            let Ok(mut j) = judge(&both, machine) else {
                continue;
            };
            // Short only while loading: with the stack's lighter loading, as for single changes.
            let mut both = both;
            if j.fits == Some(false) && super::loading_levers::loading_is_the_peak(&j) {
                if let Some((lighter, _)) = super::loading_levers::lighter_loading(&both) {
                    if let Ok(l) = judge(&lighter, machine) {
                        (both, j) = (lighter, l);
                    }
                }
            }
            // Still short only at a one-time peak, by what a swap file absorbs: the pair with
            // that file, as for single changes (`swap_lever::swap_to_finish`).
            let swap = if j.fits == Some(false) && super::loading_levers::loading_is_the_peak(&j) {
                super::swap_lever::swap_to_finish(&j, profile, ram)
            } else {
                None
            };
            if j.fits != Some(true) && swap.is_none() {
                continue;
            }
            // Listed under the part that gives up more; the other rides along.
            let (main, other) = if rb.gives_up >= ra.gives_up {
                (rb, ra)
            } else {
                (ra, rb)
            };
            let mut r = Recommendation::new(main.id, main.subject, super::outcome_of_judged(&j))
                .with_kind(main.kind)
                .sets(super::knob_values::changes(plan, &both));
            r.changes = main.changes.clone();
            r.gives_up = main.gives_up.max(other.gives_up);
            r.also = vec![other.id];
            for (k, v) in &other.changes {
                r.changes
                    .entry(format!("also.{k}"))
                    .or_insert_with(|| v.clone());
            }
            if let Some(s) = swap {
                r = super::swap_lever::with_swap(r, s, profile);
            }
            out.push(r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::training::{OffloadTarget, Strategy};

    #[test]
    fn two_changes_merge_field_by_field_and_a_contradiction_is_refused() {
        let o = TrainingPlan::new(7_000_000_000);
        let a = TrainingPlan {
            strategy: Strategy::Zero3,
            ..o.clone()
        };
        let b = TrainingPlan {
            offload_optimizer: OffloadTarget::Cpu,
            ..o.clone()
        };
        let both = merge(&o, &a, &b).unwrap();
        assert_eq!(both.strategy, Strategy::Zero3);
        assert_eq!(both.offload_optimizer, OffloadTarget::Cpu);
        let c = TrainingPlan {
            strategy: Strategy::FsdpFullShard,
            ..o.clone()
        };
        assert!(merge(&o, &a, &c).is_none());
    }
}
