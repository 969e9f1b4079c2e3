//! The lab's order: for every machine, the cheapest purchase that ends its problem and the one
//! the published rules ask for, side by side ([`machine_lines`]); each line priced from a price
//! list ([`price_of`]) and everything added up ([`LabTotals::add`]), every module of every
//! set counted. Pure: from assessments and a price list already read.
//!
//! - **The fix.** RAM below the GPUs' memory leaves the GPUs waiting for data (the
//!   `ram-below-vram` finding): the smallest purchase reaching the GPUs' total memory
//!   ([`crate::advisor::buying::procurement::Procurement::fix_purchase`]). When what was set
//!   up doesn't fit, its need is the fix instead.
//! - **The rules.** 2× the GPUs' memory (the seed article's tier, Puget Systems), or the
//!   largest GPU's memory: the purchase the procurement section sizes
//!   ([`crate::advisor::buying::order::to_buy`]).
//! - When both are the same purchase, one line says so ([`Choice::FixAndRules`]).

mod types;

pub use types::{
    Amount, Choice, CurrencyTotal, Item, ItemKind, LabTotals, OrderLine, Price, PriceList,
    PriceSource, Why,
};

use super::procurement::{Basis, Procurement, RamReason};
use super::purchase::{ModuleSpec, Purchase};
use crate::advisor::buying::dimm_sets::DimmSet;
use crate::catalog::modules::FormFactor;

/// A form factor as item names write it.
fn form_name(f: FormFactor) -> &'static str {
    match f {
        FormFactor::Udimm => "UDIMM",
        FormFactor::Rdimm => "RDIMM",
        FormFactor::Sodimm => "SODIMM",
        FormFactor::Soldered => "soldered",
    }
}

/// A module's item name: `32 GB DDR4-3200 UDIMM` (size in binary GB, as modules are sold; the
/// speed and form factor when known).
pub fn module_name(
    size_bytes: u64,
    memory_type: &str,
    speed: Option<u32>,
    form: Option<FormFactor>,
) -> String {
    let mut s = format!("{} GB {memory_type}", size_bytes >> 30);
    if let Some(speed) = speed {
        s.push_str(&format!("-{speed}"));
    }
    if let Some(f) = form {
        s.push(' ');
        s.push_str(form_name(f));
    }
    s
}

fn module_item(m: &ModuleSpec) -> Item {
    Item {
        kind: ItemKind::Module,
        name: module_name(m.size_bytes, &m.memory_type, m.speed_mts, m.form_factor),
    }
}

fn set_item(s: &DimmSet) -> Item {
    Item {
        kind: ItemKind::Module,
        name: module_name(s.dimm_bytes, &s.memory_type, None, Some(s.form_factor)),
    }
}

/// What one purchase buys: the item, how many, [`OrderLine::new_machine`],
/// [`OrderLine::full_set`], the channels filled `(before, after)` when more, and RAM
/// afterwards.
type Bought = (Item, u32, bool, bool, Option<(u32, u32)>, Option<u64>);

fn bought(channels_before: Option<u32>, buy: &Purchase) -> Option<Bought> {
    Some(match buy {
        Purchase::NotNeeded { .. } => return None,
        Purchase::AddModules(plan) | Purchase::ReplaceModules(plan) => {
            let channels = match (channels_before, plan.channels_after) {
                (Some(b), Some(after)) if after > b => Some((b, after)),
                _ => None,
            };
            (
                module_item(&plan.module),
                plan.buy,
                false,
                false,
                channels,
                Some(plan.installed_after_bytes),
            )
        }
        Purchase::LargerInstance { target, .. } => (
            Item {
                kind: ItemKind::Instance,
                name: target.instance_type.clone(),
            },
            1,
            false,
            false,
            None,
            Some(target.ram_bytes),
        ),
        Purchase::Generic { dimm_sets, .. } if !dimm_sets.is_empty() => {
            let s = &dimm_sets[0];
            (
                set_item(s),
                s.modules(),
                false,
                true,
                None,
                Some(s.total_bytes),
            )
        }
        Purchase::Soldered { alternative, .. } | Purchase::BoardLimit { alternative, .. }
            if !alternative.is_empty() =>
        {
            let s = &alternative[0];
            (
                set_item(s),
                s.modules(),
                true,
                false,
                None,
                Some(s.total_bytes),
            )
        }
        _ => (
            Item {
                kind: ItemKind::Other,
                name: String::new(),
            },
            1,
            false,
            false,
            None,
            None,
        ),
    })
}

/// Why the rules' option: the largest published rule current RAM doesn't meet.
fn rules_why(p: &Procurement) -> Why {
    let target = p.rules_ram_bytes.unwrap_or(0);
    let largest_gpu = p
        .targets
        .iter()
        .any(|t| t.reason == RamReason::LargestGpu && Some(t.required_bytes) == p.rules_ram_bytes);
    if largest_gpu {
        Why::LargestGpu {
            target_bytes: target,
        }
    } else {
        Why::TwiceVram {
            target_bytes: target,
        }
    }
}

/// The lines of one machine's order (labelled `label`, its procurement section `p`, the memory
/// channels holding a module now `channels_populated`), fix first, then the rules' option; one
/// line marked [`Choice::FixAndRules`] when the two are the same purchase. Empty when there
/// is nothing to buy.
pub fn machine_lines(
    label: &str,
    p: &Procurement,
    channels_populated: Option<u32>,
) -> Vec<OrderLine> {
    let to_buy = super::order::to_buy(p).map(|(b, _)| b);
    let (fix, rules) = match p.basis {
        // What was set up doesn't fit: its need is the fix; the rules aren't sized then.
        Basis::Work => (
            to_buy.map(|b| {
                let subject = p
                    .work
                    .iter()
                    .find(|w| w.ram_would_fix())
                    .map_or(crate::advisor::recommend::Subject::Training, |w| w.subject);
                (b, Why::Work { subject })
            }),
            None,
        ),
        _ => (
            p.fix_purchase.as_ref().map(|b| {
                (
                    b,
                    Why::BelowVram {
                        ram_bytes: p.current_ram_bytes.unwrap_or(0),
                        vram_bytes: p.vram_bytes.unwrap_or(0),
                    },
                )
            }),
            to_buy.map(|b| (b, rules_why(p))),
        ),
    };
    let mut out = Vec::new();
    let mut push = |buy: &Purchase, choice, why| {
        if let Some((item, quantity, new_machine, full_set, channels, ram_after_bytes)) =
            bought(channels_populated, buy)
        {
            out.push(OrderLine {
                machine: label.to_string(),
                choice,
                item,
                quantity,
                why,
                new_machine,
                full_set,
                channels,
                ram_after_bytes,
            });
        }
    };
    match (fix, rules) {
        (Some((f, why)), Some((r, _))) if f == r => push(f, Choice::FixAndRules, why),
        (f, r) => {
            if let Some((b, why)) = f {
                push(b, Choice::Fix, why);
            }
            if let Some((b, why)) = r {
                push(b, Choice::Rules, why);
            }
        }
    }
    out
}

/// The price `list` gives `item` (names compared trimmed, case ignored); `None` for
/// [`ItemKind::Other`] or an item the list lacks.
pub fn price_of<'a>(list: &'a PriceList, item: &Item) -> Option<&'a Price> {
    if item.kind == ItemKind::Other {
        return None;
    }
    list.prices.iter().find(|p| same_item(&p.item, &item.name))
}

/// Whether two item names are the same item: trimmed, ASCII case ignored (how a lab's price
/// list is matched to the purchase lines).
fn same_item(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// `price` × `quantity`; `None` on overflow (a hostile price file).
pub fn line_cost(price: &Price, quantity: u32) -> Option<Amount> {
    price.amount.0.checked_mul(u64::from(quantity)).map(Amount)
}

fn count(list: &mut Vec<(String, u32)>, name: &str, n: u32) {
    match list.iter_mut().find(|(s, _)| s == name) {
        Some((_, c)) => *c = c.saturating_add(n),
        None => list.push((name.to_string(), n)),
    }
}

fn add_cost(list: &mut Vec<CurrencyTotal>, price: &Price, kind: ItemKind, cost: Amount) {
    let i = match list.iter().position(|t| t.currency == price.currency) {
        Some(i) => i,
        None => {
            list.push(CurrencyTotal {
                currency: price.currency.clone(),
                ..CurrencyTotal::default()
            });
            list.len() - 1
        }
    };
    let t = &mut list[i];
    let sum = match kind {
        ItemKind::Instance => &mut t.per_hour,
        _ => &mut t.once,
    };
    sum.0 = sum.0.saturating_add(cost.0);
}

impl LabTotals {
    /// Adds one machine's lines, priced from `prices`.
    pub fn add(&mut self, lines: &[OrderLine], prices: &PriceList) {
        if lines.is_empty() {
            return;
        }
        self.machines += 1;
        for l in lines {
            match l.item.kind {
                ItemKind::Other => {
                    self.other += 1;
                    continue;
                }
                ItemKind::Module => {
                    if l.choice.in_fix_total() {
                        count(&mut self.modules_fix, &l.item.name, l.quantity);
                    }
                    if l.choice.in_rules_total() {
                        count(&mut self.modules_rules, &l.item.name, l.quantity);
                    }
                }
                ItemKind::Instance => {
                    self.instances_fix += u32::from(l.choice.in_fix_total());
                    self.instances_rules += u32::from(l.choice.in_rules_total());
                }
            }
            let priced =
                price_of(prices, &l.item).and_then(|p| Some((p, line_cost(p, l.quantity)?)));
            let Some((price, cost)) = priced else {
                self.unpriced += 1;
                continue;
            };
            if l.choice.in_fix_total() {
                add_cost(&mut self.cost_fix, price, l.item.kind, cost);
            }
            if l.choice.in_rules_total() {
                add_cost(&mut self.cost_rules, price, l.item.kind, cost);
            }
        }
    }
}

/// The items `lines` would price, each once, in the order first met (what
/// `--prices-template` writes).
pub fn items_to_price<'a>(lines: impl IntoIterator<Item = &'a OrderLine>) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for l in lines {
        if l.item.kind != ItemKind::Other && !out.contains(&l.item) {
            out.push(l.item.clone());
        }
    }
    out
}

/// The lab's `list` with the catalogue's typical price ([`typical_prices`]) added for each item
/// it doesn't price, each keeping its own source: a lab's price wins, and a line the lab left
/// out is still priced, said as typical, rather than silently dropped from the totals.
pub fn with_typical(list: PriceList) -> PriceList {
    let mut out = list;
    for t in typical_prices().prices {
        if !out.prices.iter().any(|p| same_item(&p.item, &t.item)) {
            out.prices.push(t);
        }
    }
    out
}

/// The catalogue of typical prices ([`crate::catalog::prices::TYPICAL`]) as a price list, each
/// price with its published source and the date it was read.
pub fn typical_prices() -> PriceList {
    PriceList {
        prices: crate::catalog::prices::TYPICAL
            .iter()
            .map(|t| Price {
                item: t.item.to_string(),
                amount: Amount(t.amount_e4),
                currency: t.currency.to_string(),
                source: PriceSource::Typical {
                    source: t.source.to_string(),
                    date: t.date.to_string(),
                },
            })
            .collect(),
        typical: true,
    }
}
