//! A recommendation as its JSON holds it: every field but the typed `settings`, which reading
//! it back rebuilds from `apply` ([`crate::advisor::knobs::settings_of`]), so an assessment read
//! back from its JSON equals the one written.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{AdviceId, GivesUp, Native, Outcome, RecKind, Recommendation, Subject};
use crate::advisor::findings::Quantity;

/// [`Recommendation`]'s JSON fields.
#[derive(Deserialize)]
pub(super) struct Stored {
    id: AdviceId,
    kind: RecKind,
    subject: Subject,
    changes: BTreeMap<String, Quantity>,
    result: Outcome,
    gives_up: GivesUp,
    #[serde(default)]
    apply: Vec<String>,
    #[serde(default)]
    native: Vec<Native>,
    #[serde(default)]
    machine_change: Option<crate::advisor::whatif::MachineChange>,
    #[serde(default)]
    also: Vec<AdviceId>,
}

impl From<Stored> for Recommendation {
    fn from(s: Stored) -> Self {
        Recommendation {
            settings: crate::advisor::knobs::settings_of(&s.apply),
            id: s.id,
            kind: s.kind,
            subject: s.subject,
            changes: s.changes,
            result: s.result,
            gives_up: s.gives_up,
            apply: s.apply,
            native: s.native,
            machine_change: s.machine_change,
            also: s.also,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::knobs::{KnobId, KnobValue, Setting};

    /// Two recommendations that differ only in their typed settings are not equal (the
    /// hand-written equality before issue 34 skipped them), and one read back from its JSON
    /// equals the one written: the settings come back from `apply`.
    #[test]
    fn settings_count_in_equality_and_come_back_from_apply() {
        let set = |n: u64, shm: u64| {
            Recommendation::new(
                AdviceId::IncreaseNumWorkers,
                Subject::Workload,
                Outcome::default(),
            )
            .sets(vec![Setting {
                knob: KnobId::NumWorkers,
                value: KnobValue::Whole(n),
            }])
            .on_machine(crate::advisor::whatif::MachineChange {
                shm_bytes: Some(shm),
                ..Default::default()
            })
        };
        let a = set(8, 4 << 30);
        let mut b = a.clone();
        b.settings[0].value = KnobValue::Whole(9);
        assert_ne!(a, b);
        assert_eq!(a.apply, ["--num-workers", "8", "--shm-size", "4GiB"]);
        let back: Recommendation =
            serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back.settings, a.settings);
        assert_eq!(back, a);
    }
}
