//! The ranking rule, in one function ([`rank`]): what solves before what only helps; among what
//! solves, what keeps the user's plan at a usable speed before what changes it, with money as a
//! path of its own beside the plan changes; then the predicted speed, then the effort. Stated
//! in `docs/model.md` § "Ranking: what solves first".

use std::cmp::Ordering;

use super::{AdviceId, GivesUp, RecKind, Recommendation};

/// A change that keeps the plan but runs it at less than half its speed (`relative_speed`
/// below 0.5) is ranked with the changes of plan, not before them: many times slower is not
/// the plan the user had (partial `-ngl` offload, parameters streamed over PCIe every step).
/// Assumption: half the speed is where a user would rather change the plan.
pub const SLOW: f64 = 0.5;

/// Where a recommendation stands in the ranking, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// Every limit holds and no critical finding remains, with the same model, data and
    /// precision, at least [`SLOW`] of the speed.
    SolvesKeepingThePlan,
    /// Solves, by changing the plan (the model trained, the data, the precision), by keeping it
    /// much slower, or with money (modules, an instance, a machine): the two paths side by side.
    SolvesOtherwise,
    /// Helps (lowers a need that was too high) without solving.
    Helps,
}

/// True when the change changes the user's plan: the model that is trained (LoRA, QLoRA: other
/// weights are trained), the data (images stored or cached smaller) or the precision (4-bit
/// weights, an 8-bit KV cache). A shorter context, offload, fewer workers or a loading method
/// keep model, data and precision.
pub fn changes_the_plan(id: AdviceId) -> bool {
    use AdviceId as R;
    matches!(
        id,
        R::Lora
            | R::Qlora
            | R::ShardedQlora
            | R::PreResize
            | R::SmallerCacheImages
            | R::QuantizeWeights
            | R::KvCacheFp8
    )
}

/// The seed's advice (§ Offload: "with little RAM prefer LoRA/QLoRA to full-parameter CPU
/// offload"): the parameters themselves offloaded cross PCIe (or NVMe) on every forward and
/// backward pass, so where the model can't price it, it counts as slower than [`SLOW`].
fn seed_slow(id: AdviceId) -> bool {
    matches!(id, AdviceId::OffloadParamsToCpu | AdviceId::OffloadToNvme)
}

/// True when the change is much slower than the plan ([`SLOW`]; the seed's full-parameter
/// offload when its speed can't be priced).
fn too_slow(r: &Recommendation) -> bool {
    match r.result.relative_speed {
        Some(s) => s < SLOW,
        None => seed_slow(r.id),
    }
}

/// True when every limit holds with its margin and no critical finding of the plan remains.
pub fn solves(r: &Recommendation) -> bool {
    r.result.fits == Some(true) && r.result.critical_cleared != Some(false)
}

/// The recommendation's [`Tier`].
pub fn tier(r: &Recommendation) -> Tier {
    if !solves(r) {
        Tier::Helps
    } else if r.gives_up == GivesUp::Money || changes_the_plan(r.id) || too_slow(r) {
        Tier::SolvesOtherwise
    } else {
        Tier::SolvesKeepingThePlan
    }
}

/// Effort: a setting, then an OS or container setting, then code or software, then hardware
/// or a cloud instance.
fn effort(kind: RecKind) -> u8 {
    match kind {
        RecKind::Setting => 0,
        RecKind::Os => 1,
        RecKind::Software => 2,
        RecKind::Hardware | RecKind::Cloud => 3,
    }
}

/// Orders recommendations by the rule of `docs/model.md` § "Ranking: what solves first":
/// 1. [`Tier`]: what solves (every limit holds, no critical finding remains) before what only
///    helps; among what solves, what keeps the plan (same model, data, precision, at least
///    [`SLOW`] of its speed) before the plan changes and the money path, which stand side by
///    side;
/// 2. within a tier that solves, the predicted `relative_speed`, fastest first (a change whose
///    speed can't be known after those that can; the seed's full-parameter offload last);
/// 3. then, among changes that give up nothing, those that need no other files of the model
///    (safetensors that may not be published, a re-saved checkpoint) first;
/// 4. then the effort ([`RecKind`]: a setting, an OS setting, software, hardware), then the
///    smaller swap file a change comes with (a one-off peak spilled to disk: less is faster and
///    safer; none smallest), then the most headroom among changes that give up nothing (whole
///    per cent of its limit).
///
/// What only helps keeps the order of what it gives up ([`GivesUp`]), then the modules' own
/// order (the smaller sacrifice first). Of two recommendations with one id and subject, the
/// better ranked is kept. The sort is stable: ties keep the modules' order.
pub fn rank(mut recs: Vec<Recommendation>) -> Vec<Recommendation> {
    recs.sort_by(compare);
    let mut seen = std::collections::HashSet::new();
    recs.retain(|r| seen.insert((r.id, r.subject)));
    recs
}

fn compare(a: &Recommendation, b: &Recommendation) -> Ordering {
    let t = tier(a).cmp(&tier(b));
    if t != Ordering::Equal {
        return t;
    }
    if tier(a) == Tier::Helps {
        return a.gives_up.cmp(&b.gives_up);
    }
    // Known speeds first, fastest first; then unknown; the seed's offload last.
    let speed_class = |r: &Recommendation| match r.result.relative_speed {
        Some(_) => 0,
        None if seed_slow(r.id) => 2,
        None => 1,
    };
    let speed = |r: &Recommendation| quantised(r.result.relative_speed.unwrap_or(0.0));
    let nothing = |r: &Recommendation| r.gives_up == GivesUp::Nothing;
    let files = |r: &Recommendation| {
        nothing(r) && matches!(r.id, AdviceId::UseSafetensors | AdviceId::ReshardCheckpoint)
    };
    // A swap file, or on Windows a larger page file.
    let swap = |r: &Recommendation| match r.changes.get("swap").or(r.changes.get("page_file")) {
        Some(crate::advisor::Quantity::Bytes(b)) => *b,
        _ => 0,
    };
    let room = |r: &Recommendation| {
        if nothing(r) {
            quantised(r.result.headroom_share.unwrap_or(f64::NEG_INFINITY))
        } else {
            0.0
        }
    };
    speed_class(a)
        .cmp(&speed_class(b))
        .then_with(|| speed(b).total_cmp(&speed(a)))
        .then_with(|| files(a).cmp(&files(b)))
        .then_with(|| effort(a.kind).cmp(&effort(b.kind)))
        .then_with(|| swap(a).cmp(&swap(b)))
        .then_with(|| room(b).total_cmp(&room(a)))
}

/// A share rounded down to whole per cent: two changes within a per cent of each other (in
/// speed or headroom) keep their modules' order.
fn quantised(share: f64) -> f64 {
    (share * 100.0).floor()
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, Subject};
    use super::*;
    use AdviceId as R;

    /// A hand-made case: the id, whether every limit holds, whether a critical finding stays,
    /// the relative speed.
    fn rec(id: R, fits: Option<bool>, critical_stays: bool, speed: Option<f64>) -> Recommendation {
        Recommendation::new(
            id,
            Subject::Training,
            Outcome {
                fits,
                critical_cleared: Some(!critical_stays),
                relative_speed: speed,
                ..Outcome::default()
            },
        )
    }

    /// Each row: the recommendations as the modules push them, and the order the rule gives,
    /// worked by hand from the rule's four keys.
    #[test]
    fn the_ranking_rule_on_hand_made_cases() {
        let y = Some(true);
        let n = Some(false);
        let table: Vec<(&str, Vec<Recommendation>, Vec<R>)> = vec![
            (
                // The X-ray case: GPU decode leaves the GPU at 37 % (critical stays); stored
                // pre-resized feeds it fully. Solving beats giving up nothing.
                "solving first",
                vec![
                    rec(R::GpuDecode, y, true, Some(1.6)),
                    rec(R::PreResize, y, false, Some(2.7)),
                ],
                vec![R::PreResize, R::GpuDecode],
            ),
            (
                // The 64k case: 66 layers on the GPUs solve but run at 0.12 of the speed; the
                // shorter context keeps model, data and precision at full speed.
                "many times slower ranks with the plan changes",
                vec![
                    rec(R::GpuLayers, y, false, Some(0.12)),
                    rec(R::QuantizeWeights, y, false, Some(1.4)),
                    rec(R::ReduceContext, y, false, Some(1.1)),
                ],
                // ReduceContext keeps the plan (tier 1); QuantizeWeights changes the precision
                // and GpuLayers is below SLOW (tier 2: 1.4 before 0.12).
                vec![R::ReduceContext, R::QuantizeWeights, R::GpuLayers],
            ),
            (
                // Keeping the plan beats a faster plan change; money stands beside the plan
                // changes, ordered by speed then effort (RAM at 1.0 before LoRA, unknown).
                "keep the plan, then plan changes and money side by side",
                vec![
                    rec(R::Lora, y, false, None),
                    rec(R::AddRam, y, false, Some(1.0)),
                    rec(R::GradientCheckpointing, y, false, Some(0.75)),
                    rec(R::LoadOnRank0, y, false, Some(1.0)),
                ],
                vec![R::LoadOnRank0, R::GradientCheckpointing, R::AddRam, R::Lora],
            ),
            (
                // The seed: full-parameter offload unpriced counts as too slow, and comes
                // after LoRA among the changes that solve otherwise.
                "the seed's advice: LoRA before full-parameter offload",
                vec![
                    rec(R::OffloadParamsToCpu, y, false, None),
                    rec(R::Lora, y, false, None),
                    rec(R::OffloadOptimizerToCpu, y, false, None),
                ],
                vec![R::OffloadOptimizerToCpu, R::Lora, R::OffloadParamsToCpu],
            ),
            (
                // Same speed: the effort decides (a setting, an OS setting, software).
                "then effort",
                vec![
                    rec(R::IndexAsArrays, y, false, Some(1.0)),
                    rec(R::GrowShm, y, false, Some(1.0)),
                    rec(R::IncreaseNumWorkers, y, false, Some(1.0)),
                ],
                vec![R::IncreaseNumWorkers, R::GrowShm, R::IndexAsArrays],
            ),
            (
                // What doesn't solve keeps the order of what it gives up; "can't tell" doesn't
                // solve.
                "what only helps, by what it gives up",
                vec![
                    rec(R::Qlora, None, false, None),
                    rec(R::Zero3InsteadOfZero2, n, false, None),
                    rec(R::AddSwap, y, false, Some(1.0)),
                ],
                vec![R::AddSwap, R::Zero3InsteadOfZero2, R::Qlora],
            ),
        ];
        for (name, recs, want) in table {
            let got: Vec<R> = rank(recs).iter().map(|r| r.id).collect();
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn within_a_tier_the_most_headroom_comes_first_and_duplicates_go() {
        let with_room = |id, share: f64| {
            let mut r = rec(id, Some(true), false, Some(1.0));
            r.result.headroom_share = Some(share);
            r
        };
        let ranked = rank(vec![
            with_room(R::LoadOnRank0, 0.06),
            with_room(R::MetaDeviceInit, 0.30),
            with_room(R::LoadOnRank0, 0.50),
        ]);
        let ids: Vec<R> = ranked.iter().map(|r| r.id).collect();
        assert_eq!(ids, [R::LoadOnRank0, R::MetaDeviceInit]);
        assert_eq!(ranked[0].result.headroom_share, Some(0.50));
    }
}
