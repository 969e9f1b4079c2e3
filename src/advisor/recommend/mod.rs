//! Recommendations: what to change when a plan, a workload or the machine falls short, each one
//! computed by re-running the advisor's own model with that change applied (every limit at
//! once, with headroom), and ranked by what the user gives up ([`GivesUp`]): nothing, then
//! speed, then fidelity, then money. Each carries the command-line arguments that apply it
//! ([`Recommendation::apply`]). The words are in the locale files (`advice.<id>.title`,
//! `advice.cost.<id>`); this module holds data.

pub use crate::advisor::advice_id::{AdviceId, GivesUp, RecKind};

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::findings::Quantity;

/// A limit a plan is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// One GPU's memory.
    Vram,
    /// Host RAM (or the cgroup / WSL cap, or the unified pool).
    Ram,
    /// `/dev/shm`.
    Shm,
    /// NVMe space for offload.
    Nvme,
}

impl Limit {
    /// The limit's id as the JSON writes it (`"vram"`, `"shm"`).
    pub fn id(self) -> &'static str {
        match self {
            Limit::Vram => "vram",
            Limit::Ram => "ram",
            Limit::Shm => "shm",
            Limit::Nvme => "nvme",
        }
    }

    /// The limit an id names ([`Limit::id`]).
    pub fn from_id(id: &str) -> Option<Limit> {
        [Limit::Vram, Limit::Ram, Limit::Shm, Limit::Nvme]
            .into_iter()
            .find(|l| l.id() == id)
    }
}

/// What the model says once a change is applied. Each field is `None` when it doesn't apply
/// to the change's subject (a workload has no per-GPU peak).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Peak CPU RAM per node, bytes (training, inference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_peak_bytes_per_node: Option<u64>,
    /// Peak VRAM per GPU, bytes (training, inference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_peak_bytes_per_gpu: Option<u64>,
    /// The data-loading working set, bytes (workloads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_set_bytes: Option<u64>,
    /// Predicted GPU utilisation, 0–1 (workloads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_gpu_utilization: Option<f64>,
    /// `/dev/shm` the DataLoader needs, bytes (workloads with worker processes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shm_needed_bytes: Option<u64>,
    /// The smallest headroom over every limit checked (available − needed, bytes; negative when
    /// short), `None` when no limit could be checked.
    #[serde(default)]
    pub headroom_bytes: Option<i64>,
    /// The limit with that smallest headroom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tightest: Option<Limit>,
    /// That headroom as a share of the limit (for ranking: the most headroom first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headroom_share: Option<f64>,
    /// Every limit holds with its margin after the change (`None`: can't tell).
    pub fits: Option<bool>,
}

impl Outcome {
    /// Records the headroom of the checks given, keeping the one with the smallest share of its
    /// limit.
    pub fn with_headroom(
        mut self,
        checks: &[(Limit, &crate::advisor::check::CapacityCheck)],
    ) -> Self {
        for (limit, c) in checks {
            let (Some(h), Some(a)) = (c.headroom_bytes, c.available_bytes) else {
                continue;
            };
            let share = h as f64 / a.max(1) as f64;
            if self.headroom_share.is_none_or(|s| share < s) {
                self.headroom_bytes = Some(h);
                self.headroom_share = Some(share);
                self.tightest = Some(*limit);
            }
        }
        self
    }
}

/// What a recommendation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Subject {
    /// The training plan.
    Training,
    /// The inference plan.
    Inference,
    /// The data-loading workload.
    Workload,
    /// The machine itself.
    Machine,
}

/// One recommendation with its computed result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Recommendation {
    /// Stable id.
    pub id: AdviceId,
    /// What it costs.
    pub kind: RecKind,
    /// What it is about.
    pub subject: Subject,
    /// The values it sets, by name (`num_workers`, `ram_bytes`, `instance_type`, …); the
    /// locale texts use the same names as placeholders.
    pub changes: BTreeMap<String, Quantity>,
    /// The model re-run with the change.
    pub result: Outcome,
    /// What the change costs the user ([`gives_up`]).
    pub gives_up: GivesUp,
    /// The command-line arguments that, added to the same `advise` command, give the plan with
    /// this change (`["--num-workers", "4", "--shm-size", "1g"]`); empty when the change is
    /// outside what a flag can say (buy modules, move to another instance). Written from
    /// [`Recommendation::settings`] through the knob table ([`crate::advisor::knobs::args`]).
    #[serde(default)]
    pub apply: Vec<String>,
    /// The knobs this change sets, with their values: the plan's, then the machine's. What
    /// code reads to tell what a recommendation changes (`apply` is their text). Not in the
    /// JSON, which has `apply`; two recommendations are equal when everything else is (their
    /// `apply` says the same), so an assessment read back from its JSON equals the one written.
    #[serde(skip)]
    pub settings: Vec<crate::advisor::knobs::Setting>,
    /// The machine-level change this recommendation makes, which the assessment re-assesses on
    /// the changed profile ([`crate::advisor::whatif`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_change: Option<crate::advisor::whatif::MachineChange>,
    /// Further changes this one is paired with (none changes enough alone): their values are
    /// under `also.<name>` in `changes`, and `apply` sets them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<AdviceId>,
}

impl PartialEq for Recommendation {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.kind == other.kind
            && self.subject == other.subject
            && self.changes == other.changes
            && self.result == other.result
            && self.gives_up == other.gives_up
            && self.apply == other.apply
            && self.machine_change == other.machine_change
            && self.also == other.also
    }
}

impl Recommendation {
    /// A recommendation with no changes recorded yet, of its id's kind ([`AdviceId::kind`])
    /// and cost ([`AdviceId::gives_up`]).
    pub fn new(id: AdviceId, subject: Subject, result: Outcome) -> Self {
        Recommendation {
            id,
            kind: id.kind(),
            subject,
            changes: BTreeMap::new(),
            result,
            gives_up: id.gives_up(),
            apply: Vec::new(),
            settings: Vec::new(),
            machine_change: None,
            also: Vec::new(),
        }
    }

    /// Counts the change as of another kind than its id's: a training setting that needs a swap
    /// file for its loading peak is an OS change (`training::advice`), and a pair is listed
    /// under its main part's kind (`training::pairs`).
    pub fn with_kind(mut self, kind: RecKind) -> Self {
        self.kind = kind;
        self
    }

    /// Records a machine-level change, its settings and the arguments that apply it.
    pub fn on_machine(mut self, c: crate::advisor::whatif::MachineChange) -> Self {
        let settings = crate::advisor::knobs::machine_settings(&c);
        self.apply.extend(crate::advisor::knobs::args(&settings));
        self.settings.extend(settings);
        self.machine_change = Some(c);
        self
    }

    /// Records the plan's settings this change makes, and the arguments that apply them.
    pub fn sets(mut self, settings: Vec<crate::advisor::knobs::Setting>) -> Self {
        self.settings.splice(0..0, settings);
        self.apply = crate::advisor::knobs::args(&self.settings);
        self
    }

    /// True when the change sets only the machine's knobs (`/dev/shm`, WSL's cap, RAM), no
    /// plan's.
    pub fn changes_only_the_machine(&self) -> bool {
        self.settings.iter().all(|s| {
            crate::advisor::knobs::knob(s.knob).plan == crate::advisor::knobs::Plan::Machine
        })
    }

    /// Records the new value of knob `id` under its field's name (`num_workers`), the name the
    /// locale texts' placeholders use.
    pub fn with_knob(self, id: crate::advisor::knobs::KnobId, q: Quantity) -> Self {
        let k = crate::advisor::knobs::knob(id);
        let name = k.fields.first().copied().unwrap_or(k.flag);
        self.with(name, q)
    }

    /// Records one changed value.
    pub fn with(mut self, name: &str, q: Quantity) -> Self {
        self.changes.insert(name.to_string(), q);
        self
    }
}

/// Orders recommendations: those that make every limit fit (with headroom) first, then those
/// that only help; within each, by what the user gives up ([`GivesUp`]). Among changes that
/// fit, the highest predicted GPU utilisation comes first (workloads), and among those that
/// give up nothing, those that need no other files of the model come before those that do
/// (safetensors files that may not be published, a checkpoint re-saved — which itself needs one
/// load), then by effort (a setting, then an OS or container setting, then code), then the most
/// headroom (as a share of its limit): they cost the same, so the safest wins. Within the other classes the modules' own order stays, which puts the smaller
/// sacrifice first (optimizer offload before parameter offload, LoRA before QLoRA, the smaller
/// purchase first). Of two recommendations with one id and subject, the better ranked is kept.
pub fn rank(mut recs: Vec<Recommendation>) -> Vec<Recommendation> {
    recs.sort_by(|a, b| {
        let key = |r: &Recommendation| (r.result.fits != Some(true), r.gives_up);
        key(a).cmp(&key(b)).then_with(|| {
            if a.result.fits != Some(true) {
                return std::cmp::Ordering::Equal;
            }
            let util = |r: &Recommendation| r.result.predicted_gpu_utilization.unwrap_or(-1.0);
            let nothing = |r: &Recommendation| r.gives_up == GivesUp::Nothing;
            let files = |r: &Recommendation| {
                nothing(r) && matches!(r.id, AdviceId::UseSafetensors | AdviceId::ReshardCheckpoint)
            };
            let room = |r: &Recommendation| {
                if nothing(r) {
                    quantised(r.result.headroom_share.unwrap_or(f64::NEG_INFINITY))
                } else {
                    0.0
                }
            };
            // Then by effort: a setting, then an OS or container setting, then a change of code.
            let kind = |r: &Recommendation| match (nothing(r), r.kind) {
                (false, _) => 0,
                (true, RecKind::Setting) => 0,
                (true, RecKind::Os) => 1,
                (true, _) => 2,
            };
            util(b)
                .total_cmp(&util(a))
                .then_with(|| files(a).cmp(&files(b)))
                .then_with(|| kind(a).cmp(&kind(b)))
                .then_with(|| room(b).total_cmp(&room(a)))
        })
    });
    let mut seen = std::collections::HashSet::new();
    recs.retain(|r| seen.insert((r.id, r.subject)));
    recs
}

/// A headroom share rounded to whole per cent: two changes within a per cent of each other keep
/// their modules' order.
fn quantised(share: f64) -> f64 {
    (share * 100.0).floor()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: AdviceId, fits: Option<bool>) -> Recommendation {
        Recommendation::new(
            id,
            Subject::Training,
            Outcome {
                fits,
                ..Outcome::default()
            },
        )
    }

    #[test]
    fn fitting_changes_come_first_by_what_they_give_up_and_money_last_among_them() {
        use AdviceId as R;
        let ranked = rank(vec![
            rec(R::AddRam, Some(true)),
            rec(R::Zero3InsteadOfZero2, Some(false)),
            rec(R::Lora, Some(true)),
            rec(R::AddSwap, Some(true)),
            rec(R::LoadOnRank0, Some(true)),
            rec(R::LoadOnRank0, Some(true)),
            rec(R::Qlora, None),
        ]);
        let ids: Vec<R> = ranked.iter().map(|r| r.id).collect();
        // Nothing (rank 0 loading), speed (a swap file), fidelity (LoRA), money (RAM); then
        // what doesn't fit: speed (ZeRO-3) before fidelity (QLoRA).
        assert_eq!(
            ids,
            [
                R::LoadOnRank0,
                R::AddSwap,
                R::Lora,
                R::AddRam,
                R::Zero3InsteadOfZero2,
                R::Qlora
            ]
        );
    }

    #[test]
    fn within_a_class_the_most_headroom_comes_first() {
        use AdviceId as R;
        let with_room = |id, share: f64| {
            let mut r = rec(id, Some(true));
            r.result.headroom_share = Some(share);
            r
        };
        let ranked = rank(vec![
            with_room(R::LoadOnRank0, 0.06),
            with_room(R::MetaDeviceInit, 0.30),
        ]);
        assert_eq!(ranked[0].id, R::MetaDeviceInit);
    }
}
