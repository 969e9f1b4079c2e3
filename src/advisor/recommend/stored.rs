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
