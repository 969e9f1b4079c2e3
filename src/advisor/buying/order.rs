//! What a report's order line names for one machine: the purchase behind the first page's
//! "What to buy" (a lab's order, counted and priced, is [`super::lab`]'s). Pure: from
//! assessments only.

use super::procurement::{Basis, Procurement};
use super::purchase::Purchase;

/// The purchase the procurement section shows and the installed RAM it reaches for: what to
/// buy for what was set up, or, when that fits (or nothing was set up), what the published
/// rules' target would take; `None` when there is neither.
pub fn shown(p: &Procurement) -> Option<(&Purchase, u64)> {
    match (&p.purchase, p.recommended_ram_bytes) {
        (Some(buy), Some(r)) => Some((buy, r)),
        _ => Some((p.rules_purchase.as_ref()?, p.rules_ram_bytes?)),
    }
}

/// The purchase an order line names: [`shown`], except where more RAM can't fix what was set
/// up ([`Basis::RamWontFix`]) or installed RAM already reaches the target
/// ([`Purchase::NotNeeded`]): `None`, nothing to buy.
pub fn to_buy(p: &Procurement) -> Option<(&Purchase, u64)> {
    if p.basis == Basis::RamWontFix {
        return None;
    }
    shown(p).filter(|(buy, _)| !matches!(buy, Purchase::NotNeeded { .. }))
}
