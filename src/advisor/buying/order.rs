//! What a report's order line names for one machine, and what a lab's machines need bought in
//! all: the numbers behind the first page's "What to buy" and the lab comparison's purchase
//! table. Pure: from assessments only.

use serde::{Deserialize, Serialize};

use super::procurement::{Basis, Procurement};
use super::purchase::Purchase;
use super::purchase::modules::ModuleSpec;
use crate::advisor::fleet::FleetMachine;

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

/// What one machine's order takes, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineOrder {
    /// Modules to buy for this machine: the spec and how many.
    pub modules: Option<(ModuleSpec, u32)>,
    /// Installed RAM it adds, bytes (after minus now); `None` when not a module purchase.
    pub ram_added_bytes: Option<u64>,
    /// The order is a move to a larger cloud instance.
    pub instance_move: bool,
    /// The order is a new machine (soldered memory, a full board) or a full set for a board
    /// that can't be read: counted apart, its modules not added to the totals.
    pub new_set: bool,
    /// Something else to do (a VM's allocation, a notebook runtime, WSL's cap, an instance the
    /// catalogue lacks): see the machine's own report.
    pub other: bool,
}

/// Counts the order of one machine, from its assessment's procurement.
pub fn machine_order(procurement: &Procurement) -> MachineOrder {
    let Some((buy, _)) = to_buy(procurement) else {
        return MachineOrder::default();
    };
    match buy {
        Purchase::AddModules(plan) | Purchase::ReplaceModules(plan) => MachineOrder {
            modules: Some((plan.module.clone(), plan.buy)),
            ram_added_bytes: procurement
                .current_ram_bytes
                .map(|now| plan.installed_after_bytes.saturating_sub(now)),
            ..MachineOrder::default()
        },
        Purchase::LargerInstance { .. } => MachineOrder {
            instance_move: true,
            ..MachineOrder::default()
        },
        Purchase::Generic { dimm_sets, .. } if !dimm_sets.is_empty() => MachineOrder {
            new_set: true,
            ..MachineOrder::default()
        },
        Purchase::Soldered { alternative, .. } | Purchase::BoardLimit { alternative, .. }
            if !alternative.is_empty() =>
        {
            MachineOrder {
                new_set: true,
                ..MachineOrder::default()
            }
        }
        Purchase::NotNeeded { .. } => MachineOrder::default(),
        _ => MachineOrder {
            other: true,
            ..MachineOrder::default()
        },
    }
}

/// A lab's orders added up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FleetOrder {
    /// Machines with something to buy or do.
    pub machines: u32,
    /// Modules by spec (type, speed, size, form), in the order first met: one line of a
    /// purchase request each.
    pub modules: Vec<(ModuleSpec, u32)>,
    /// Installed RAM the module purchases add, bytes.
    pub ram_added_bytes: u64,
    /// Moves to a larger cloud instance.
    pub instance_moves: u32,
    /// New machines or full sets for unknown boards.
    pub new_sets: u32,
    /// Other changes (see each machine).
    pub other: u32,
}

/// Adds up the orders of `machines`.
pub fn fleet_order<'a>(machines: impl IntoIterator<Item = &'a FleetMachine>) -> FleetOrder {
    let mut t = FleetOrder::default();
    for m in machines {
        let o = machine_order(&m.assessment.procurement);
        let any = o.modules.is_some() || o.instance_move || o.new_set || o.other;
        t.machines += u32::from(any);
        if let Some((spec, n)) = o.modules {
            match t.modules.iter_mut().find(|(s, _)| *s == spec) {
                Some((_, count)) => *count += n,
                None => t.modules.push((spec, n)),
            }
        }
        t.ram_added_bytes += o.ram_added_bytes.unwrap_or(0);
        t.instance_moves += u32::from(o.instance_move);
        t.new_sets += u32::from(o.new_set);
        t.other += u32::from(o.other);
    }
    t
}
