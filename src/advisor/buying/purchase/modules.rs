//! Memory modules to buy for a machine with DIMM slots: fill the free slots with modules like
//! the installed ones, or replace them all with larger ones that exist for that memory type.
//! Pure; the sizes that exist come from the catalogue (`assets/catalog/modules.csv`).

use serde::{Deserialize, Serialize};

use crate::catalog::modules::{FormFactor, ModuleSize, sizes};
use crate::profile::{Dimm, PlatformKind};

/// A module to buy: type, speed, size, form factor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleSpec {
    /// Memory type as SMBIOS names it ("DDR4").
    pub memory_type: String,
    /// Rated speed of the installed modules, MT/s (buy the same); `None` when unknown.
    pub speed_mts: Option<u32>,
    /// Size of one module, bytes (a "32 GB" module is 32 GiB).
    pub size_bytes: u64,
    /// UDIMM, RDIMM or SODIMM; `None` when the modules don't say and the kind of machine
    /// doesn't tell.
    pub form_factor: Option<FormFactor>,
}

/// Modules to buy, and what the machine holds afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModulePlan {
    /// The module to buy.
    pub module: ModuleSpec,
    /// How many to buy.
    pub buy: u32,
    /// Installed modules kept.
    pub keep: u32,
    /// Installed modules taken out (all of them when replacing).
    pub remove: u32,
    /// Why the installed modules are replaced (`None` when they are kept).
    pub replace_reason: Option<ReplaceReason>,
    /// Modules installed afterwards.
    pub modules_after: u32,
    /// Installed RAM afterwards, bytes.
    pub installed_after_bytes: u64,
    /// Slots on the board.
    pub slots_total: u32,
    /// Channels the slots span (estimated from slot names); `None` when unknown.
    pub channels_total: Option<u32>,
    /// Channels holding a module afterwards, when modules go one per channel first (the order
    /// board manuals give); `None` when the channel count is unknown.
    pub channels_after: Option<u32>,
    /// True when every channel holds the same modules afterwards (module count a multiple of
    /// the channel count); `None` when unknown.
    pub balanced: Option<bool>,
}

/// Why every installed module is replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReplaceReason {
    /// No slot is free.
    SlotsFull,
    /// The free slots filled with the installed size don't reach the need.
    FreeSlotsNotEnough,
}

/// What module planning concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModuleOutcome {
    /// A plan.
    Plan(ModulePlan),
    /// Even the largest module that exists, in every slot, doesn't reach the need.
    BoardLimit {
        /// The largest module of that type.
        module: ModuleSpec,
        /// Slots.
        slots: u32,
        /// slots × the largest size.
        max_bytes: u64,
    },
    /// Can't plan: the modules or the sizes that exist for them are unknown.
    Unknown,
}

/// The installed modules' common memory type, size (the most frequent; the larger on a tie)
/// and rated speed; `None` when a module's size or type is unknown or the types differ.
fn installed_module(dimms: &[Dimm], form: Option<FormFactor>) -> Option<ModuleSpec> {
    let memory_type = dimms.first()?.memory_type.clone()?;
    if dimms
        .iter()
        .any(|d| d.memory_type.as_deref() != Some(memory_type.as_str()) || d.size_bytes.is_none())
    {
        return None;
    }
    let mut by_size: Vec<(u64, usize)> = Vec::new();
    for d in dimms {
        let s = d.size_bytes?;
        match by_size.iter_mut().find(|(size, _)| *size == s) {
            Some(e) => e.1 += 1,
            None => by_size.push((s, 1)),
        }
    }
    let size = by_size.iter().max_by_key(|(s, n)| (*n, *s))?.0;
    let speed_mts = dimms
        .iter()
        .filter(|d| d.size_bytes == Some(size))
        .filter_map(|d| d.speed_mts.or(d.configured_speed_mts))
        .min();
    Some(ModuleSpec {
        memory_type,
        speed_mts,
        size_bytes: size,
        form_factor: form,
    })
}

/// The form factor of the installed modules: SMBIOS "SODIMM", or "DIMM" made UDIMM or RDIMM
/// by the Type Detail; a "DIMM" without one is taken as UDIMM on a desktop or laptop and RDIMM
/// on a server or workstation (assumption: those boards take registered modules).
pub fn form_factor(dimms: &[Dimm], kind: Option<PlatformKind>) -> Option<FormFactor> {
    let first = dimms.first()?;
    let same = |f: fn(&Dimm) -> Option<String>| dimms.iter().all(|d| f(d) == f(first));
    if !same(|d| d.form_factor.clone()) {
        return None;
    }
    match first.form_factor.as_deref()? {
        "SODIMM" => Some(FormFactor::Sodimm),
        "DIMM" => {
            let reg: Vec<Option<bool>> = dimms.iter().map(|d| d.registered).collect();
            match reg.first().copied().flatten() {
                Some(r) if reg.iter().all(|x| *x == Some(r)) => Some(if r {
                    FormFactor::Rdimm
                } else {
                    FormFactor::Udimm
                }),
                Some(_) => None,
                None => match kind? {
                    PlatformKind::Desktop | PlatformKind::Laptop => Some(FormFactor::Udimm),
                    PlatformKind::Server | PlatformKind::Workstation => Some(FormFactor::Rdimm),
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

/// Plans modules to reach `needed` bytes installed, from the installed `dimms`, the board's
/// `slots` and `channels`, and the sizes in `catalogue`:
///
/// 1. the fewest modules like the installed ones (type, speed, size) in free slots whose sum
///    reaches the need, raised to the next count that fills every channel evenly when the free
///    slots allow (bandwidth grows with populated channels: seed §四.1);
/// 2. else all installed modules replaced by equal modules of one size that exists for the type
///    and form factor, in a count that fills every channel evenly, smallest total first, then
///    fewest modules (free slots left for later);
/// 3. else the board's limit.
pub fn plan(
    dimms: &[Dimm],
    slots: u32,
    channels: Option<u32>,
    kind: Option<PlatformKind>,
    needed: u64,
    catalogue: &[ModuleSize],
) -> ModuleOutcome {
    let form = form_factor(dimms, kind);
    let Some(module) = installed_module(dimms, form) else {
        return ModuleOutcome::Unknown;
    };
    let n = u32::try_from(dimms.len()).unwrap_or(u32::MAX);
    let slots = slots.max(n);
    let installed: u64 = dimms.iter().filter_map(|d| d.size_bytes).sum();
    let free = slots - n;
    let even = |count: u32| channels.map(|c| c > 0 && count % c == 0);
    let mk = |module: ModuleSpec, buy, keep, remove, reason| {
        let after = keep + buy;
        ModulePlan {
            installed_after_bytes: module.size_bytes.saturating_mul(u64::from(buy))
                + if keep > 0 { installed } else { 0 },
            module,
            buy,
            keep,
            remove,
            replace_reason: reason,
            modules_after: after,
            slots_total: slots,
            channels_total: channels,
            channels_after: channels.map(|c| after.min(c)),
            balanced: even(after),
        }
    };
    let reaches =
        |k: u32| installed.saturating_add(module.size_bytes.saturating_mul(u64::from(k))) >= needed;
    if let Some(k) = (1..=free).find(|k| reaches(*k)) {
        let k = (k..=free).find(|k| even(n + k) == Some(true)).unwrap_or(k);
        return ModuleOutcome::Plan(mk(module, k, n, 0, None));
    }
    let reason = if free == 0 {
        ReplaceReason::SlotsFull
    } else {
        ReplaceReason::FreeSlotsNotEnough
    };
    let Some(form) = form else {
        return ModuleOutcome::Unknown;
    };
    let options = sizes(catalogue, &module.memory_type, form);
    let Some(&largest) = options.last() else {
        return ModuleOutcome::Unknown;
    };
    let step = channels.filter(|c| *c > 0 && *c <= slots).unwrap_or(1);
    let best = options
        .iter()
        .flat_map(|&size| {
            (step..=slots)
                .step_by(step as usize)
                .map(move |count| (size.saturating_mul(u64::from(count)), count, size))
        })
        .filter(|(total, _, _)| *total >= needed)
        .min_by_key(|(total, count, _)| (*total, *count));
    match best {
        Some((_, count, size)) => {
            let spec = ModuleSpec {
                size_bytes: size,
                ..module
            };
            ModuleOutcome::Plan(mk(spec, count, 0, n, Some(reason)))
        }
        None => ModuleOutcome::BoardLimit {
            max_bytes: largest.saturating_mul(u64::from(slots)),
            module: ModuleSpec {
                size_bytes: largest,
                ..module
            },
            slots,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    const GIB: u64 = 1 << 30;

    fn ddr4(size_gib: u64, slot: &str, bank: &str) -> Dimm {
        Dimm {
            locator: Some(slot.into()),
            bank_locator: Some(bank.into()),
            size_bytes: Some(size_gib * GIB),
            memory_type: Some("DDR4".into()),
            speed_mts: Some(3200),
            configured_speed_mts: Some(3200),
            form_factor: Some("DIMM".into()),
            registered: Some(false),
            ..Dimm::default()
        }
    }

    fn plan_of(o: ModuleOutcome) -> ModulePlan {
        match o {
            ModuleOutcome::Plan(p) => p,
            other => panic!("no plan: {other:?}"),
        }
    }

    #[test]
    fn one_module_in_four_slots_gets_its_twin() {
        // 1 × 32 GB DDR4-3200 in a 4-slot, 2-channel board; a 24 GB GPU asks 2 × 24 = 48 GiB.
        // One more 32 GB module: 32 + 32 = 64 ≥ 48, and 2 modules fill both channels.
        let d = [ddr4(32, "DIMM_A2", "P0 CHANNEL A")];
        let p = plan_of(plan(&d, 4, Some(2), None, 48 * GIB, &catalog().modules));
        assert_eq!((p.buy, p.keep, p.remove), (1, 1, 0));
        assert_eq!(p.module.size_bytes, 32 * GIB);
        assert_eq!(p.module.speed_mts, Some(3200));
        assert_eq!(p.module.form_factor, Some(FormFactor::Udimm));
        assert_eq!(p.installed_after_bytes, 64 * GIB);
        assert_eq!((p.channels_after, p.balanced), (Some(2), Some(true)));
    }

    #[test]
    fn the_count_is_raised_to_fill_the_channels_evenly() {
        // 1 × 16 GB in a 4-channel, 8-slot workstation; need 40 GiB: 2 more reach 48, but 3
        // modules leave one channel empty, so buy 3 (4 × 16 = 64, one per channel).
        let mut d = ddr4(16, "DIMM_A1", "NODE 1");
        d.registered = Some(true);
        let p = plan_of(plan(&[d], 8, Some(4), None, 40 * GIB, &catalog().modules));
        assert_eq!(p.buy, 3);
        assert_eq!(p.installed_after_bytes, 64 * GIB);
        assert_eq!((p.channels_after, p.balanced), (Some(4), Some(true)));
        assert_eq!(p.module.form_factor, Some(FormFactor::Rdimm));
    }

    #[test]
    fn full_slots_are_replaced_with_sizes_that_exist() {
        // 4 × 16 GB DDR4 UDIMM fill a 2-channel board; need 96 GiB. DDR4 UDIMMs come in 8, 16
        // and 32 GB (no 24 GB): 4 × 32 = 128 is the smallest even set reaching 96.
        let d = [
            ddr4(16, "DIMM_A1", "P0 CHANNEL A"),
            ddr4(16, "DIMM_A2", "P0 CHANNEL A"),
            ddr4(16, "DIMM_B1", "P0 CHANNEL B"),
            ddr4(16, "DIMM_B2", "P0 CHANNEL B"),
        ];
        let p = plan_of(plan(&d, 4, Some(2), None, 96 * GIB, &catalog().modules));
        assert_eq!((p.buy, p.keep, p.remove), (4, 0, 4));
        assert_eq!(p.module.size_bytes, 32 * GIB);
        assert_eq!(p.installed_after_bytes, 128 * GIB);
        assert_eq!(p.replace_reason, Some(ReplaceReason::SlotsFull));
        // 160 GiB is beyond 4 × 32 GB: the board's limit is 128 GiB.
        assert_eq!(
            plan(&d, 4, Some(2), None, 160 * GIB, &catalog().modules),
            ModuleOutcome::BoardLimit {
                module: ModuleSpec {
                    memory_type: "DDR4".into(),
                    speed_mts: Some(3200),
                    size_bytes: 32 * GIB,
                    form_factor: Some(FormFactor::Udimm),
                },
                slots: 4,
                max_bytes: 128 * GIB,
            }
        );
    }

    #[test]
    fn free_slots_that_cant_reach_lead_to_a_replacement() {
        // 2 × 8 GB DDR5 in 4 slots; need 90 GiB. Filling: 4 × 8 = 32 < 90. DDR5 UDIMMs: 2 × 48
        // = 96 is the smallest even total ≥ 90 (2 × 64 = 128, 4 × 24 = 96 with more modules).
        let mut a = ddr4(8, "DIMM_A2", "P0 CHANNEL A");
        a.memory_type = Some("DDR5".into());
        a.speed_mts = Some(5600);
        let mut b = a.clone();
        b.locator = Some("DIMM_B2".into());
        let p = plan_of(plan(
            &[a, b],
            4,
            Some(2),
            None,
            90 * GIB,
            &catalog().modules,
        ));
        assert_eq!((p.buy, p.module.size_bytes), (2, 48 * GIB));
        assert_eq!(p.replace_reason, Some(ReplaceReason::FreeSlotsNotEnough));
        assert_eq!(p.module.speed_mts, Some(5600));
    }

    #[test]
    fn unknowns_plan_nothing() {
        // A module of unknown size, mixed types, or a replacement without a form factor.
        let mut d = ddr4(16, "A", "B");
        d.size_bytes = None;
        let m = &catalog().modules;
        assert_eq!(plan(&[d], 4, None, None, GIB, m), ModuleOutcome::Unknown);
        let mut e = ddr4(16, "A", "B");
        e.registered = None;
        e.form_factor = None;
        assert_eq!(
            plan(&[e.clone()], 1, None, None, 64 * GIB, m),
            ModuleOutcome::Unknown
        );
        // Filling free slots needs no form factor: the same module is bought.
        let p = plan_of(plan(&[e], 2, None, None, 32 * GIB, m));
        assert_eq!((p.buy, p.channels_after, p.balanced), (1, None, None));
    }
}
