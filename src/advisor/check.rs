//! One capacity checked against a machine ([`CapacityCheck`]) and checks combined
//! ([`all_fit`]): the vocabulary every planner (training, inference, workload), the recommender
//! and the buying advice share, apart from all of them.

use serde::{Deserialize, Serialize};

use crate::advisor::headroom::{self, LimitKind};

/// One capacity compared with the machine, with the margin a need must leave
/// ([`crate::advisor::headroom`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapacityCheck {
    /// Bytes needed.
    pub needed_bytes: u64,
    /// Bytes the machine has (`None`: unknown).
    pub available_bytes: Option<u64>,
    /// Bytes the need must leave free to count as fitting ([`headroom::margin`]); 0 when the
    /// capacity is unknown.
    #[serde(default)]
    pub margin_bytes: u64,
    /// `available − needed`, bytes (negative when it doesn't fit at all; `None`: unknown).
    #[serde(default)]
    pub headroom_bytes: Option<i64>,
    /// `needed + margin ≤ available`, or `None` when unknown.
    pub fits: Option<bool>,
}

/// A change worth showing: it fits (`next_fits`), or it lowers a need that didn't fit without
/// breaking one that did. `now` and `next` are the same checks (GPU, CPU) before and after.
pub(crate) fn helps(
    now: &[&CapacityCheck],
    next: &[&CapacityCheck],
    next_fits: Option<bool>,
) -> bool {
    if next_fits == Some(true) {
        return true;
    }
    let pairs = || now.iter().zip(next.iter());
    if pairs().any(|(a, b)| a.fits == Some(true) && b.fits == Some(false)) {
        return false;
    }
    pairs().any(|(a, b)| a.fits == Some(false) && b.needed_bytes < a.needed_bytes)
}

impl CapacityCheck {
    /// `needed` bytes against `available` of a limit of `kind`, with that kind's margin
    /// (unknown: `fits` is `None`).
    pub(crate) fn new(kind: LimitKind, needed: u64, available: Option<u64>) -> CapacityCheck {
        let margin = available.map_or(0, |a| headroom::margin(kind, a));
        CapacityCheck {
            needed_bytes: needed,
            available_bytes: available,
            margin_bytes: margin,
            headroom_bytes: available.map(|a| crate::units::signed_diff(a, needed)),
            fits: available.map(|a| needed.saturating_add(margin) <= a),
        }
    }

    /// The same check with the engine's own `margin` instead of the limit kind's (llama.cpp's
    /// fit leaves a flat 1 GiB per device, `FIT_MARGIN_BYTES`).
    pub(crate) fn with_margin(mut self, margin: u64) -> CapacityCheck {
        self.margin_bytes = margin;
        self.fits = self
            .available_bytes
            .map(|a| self.needed_bytes.saturating_add(margin) <= a);
        self
    }

    /// True when the need fits the capacity but not its margin: `plan-tight`.
    pub fn tight(&self) -> bool {
        self.fits == Some(false) && self.available_bytes.is_some_and(|a| self.needed_bytes <= a)
    }

    /// Bytes missing (0 when it fits or is unknown).
    pub fn missing_bytes(&self) -> u64 {
        self.available_bytes
            .map_or(0, |a| self.needed_bytes.saturating_sub(a))
    }
}

/// Whether every check in `checks` fits: `Some(false)` when one doesn't, `None` when one can't
/// be told and none fails; a check that doesn't apply is `None` in the list's outer option.
pub fn all_fit(checks: &[Option<Option<bool>>]) -> Option<bool> {
    let applying = checks.iter().flatten();
    if applying.clone().any(|f| *f == Some(false)) {
        Some(false)
    } else if applying.clone().all(|f| *f == Some(true)) {
        Some(true)
    } else {
        None
    }
}
