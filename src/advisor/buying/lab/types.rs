//! The lab's order as data: one line per thing to buy for one machine (an item, how many, the
//! machine it goes into, why, and which option it is: the cheapest that ends the problem or
//! the size the published rules ask for), prices with where each comes from, and the totals.
//! Types only: [`super`] builds the lines and prices them.

use serde::{Deserialize, Serialize};

use crate::advisor::recommend::Subject;

/// What kind of thing a line buys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ItemKind {
    /// Memory modules, bought once; counted one by one.
    Module,
    /// A cloud instance, paid by the hour on demand.
    Instance,
    /// Something else (a WSL setting, a VM's allocation, a runtime, an instance the catalogue
    /// lacks): see the machine's own report; never priced.
    Other,
}

/// An item as a price list names it: `DDR4-3200 UDIMM 32 GB` (type, speed when known, form
/// factor when known, size), an instance type (`g5.2xlarge`). `--prices` files and
/// `--prices-template` use these names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Item {
    /// Module, instance or other.
    pub kind: ItemKind,
    /// The name a price list gives it; empty for [`ItemKind::Other`].
    pub name: String,
}

/// Which of a machine's options a line belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    /// The cheapest purchase that ends the machine's problem (RAM below its GPUs' memory, or
    /// what was set up not fitting).
    Fix,
    /// The size the published rules ask for (2× the GPUs' memory; the largest GPU's memory).
    Rules,
    /// One purchase that does both.
    FixAndRules,
}

impl Choice {
    /// Whether the line counts toward the total of the cheapest fixes.
    pub fn in_fix_total(self) -> bool {
        matches!(self, Choice::Fix | Choice::FixAndRules)
    }

    /// Whether the line counts toward the total of what the rules ask for.
    pub fn in_rules_total(self) -> bool {
        matches!(self, Choice::Rules | Choice::FixAndRules)
    }
}

/// Why a line is bought, as data the words are built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "reason")]
pub enum Why {
    /// RAM is below the GPUs' memory: the GPUs wait for data. `ram_bytes` is what the machine
    /// has (as the rules size it), `vram_bytes` its GPUs' memory.
    BelowVram {
        /// RAM now, bytes.
        ram_bytes: u64,
        /// The GPUs' memory, bytes.
        vram_bytes: u64,
    },
    /// Twice the GPUs' memory, as the published rules ask (room to hold part of a model in
    /// RAM and to run several jobs).
    TwiceVram {
        /// The rules' size, bytes.
        target_bytes: u64,
    },
    /// At least the largest GPU's memory (multi-GPU machines).
    LargestGpu {
        /// The rules' size, bytes.
        target_bytes: u64,
    },
    /// What the user set up needs.
    Work {
        /// The training plan, the model served or the data-loading workload.
        subject: Subject,
    },
}

/// One line of the lab's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderLine {
    /// The machine it goes into (its label in the fleet).
    pub machine: String,
    /// The fix, the rules' size, or both.
    pub choice: Choice,
    /// What to buy.
    pub item: Item,
    /// How many: modules, instances (one), changes (one).
    pub quantity: u32,
    /// Why.
    pub why: Why,
    /// The modules go into a new machine (soldered memory, a board that can't hold more).
    pub new_machine: bool,
    /// The modules are a full set replacing the installed ones, for a board that couldn't be
    /// read (check its manual first).
    pub full_set: bool,
    /// Memory channels holding a module before and after, when the purchase fills more of
    /// them (more memory bandwidth): `(before, after)`.
    pub channels: Option<(u32, u32)>,
    /// Installed RAM (or the instance's) after the purchase, bytes; `None` when not known.
    pub ram_after_bytes: Option<u64>,
}

/// An amount of money in ten-thousandths of the currency's unit (`1.212` USD is `12_120`):
/// exact for every price a provider or a lab writes with up to four decimals.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Amount(pub u64);

impl Amount {
    /// Ten-thousandths per unit of currency.
    pub const SCALE: u64 = 10_000;
}

/// Where a price comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum PriceSource {
    /// The lab's price file, with the line it is on (from 1).
    File {
        /// The file as given.
        file: String,
        /// Its line.
        line: u64,
    },
    /// ramvram's catalogue of typical prices ([`crate::catalog::prices`]).
    Typical {
        /// Where the figure was published.
        source: String,
        /// When it was read, `YYYY-MM-DD`.
        date: String,
    },
}

/// One price: an item's price, its currency and where it comes from. A module's price is
/// per module, bought once; an instance's is per hour on demand (the line's item kind says
/// which).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Price {
    /// The item's name ([`Item::name`]).
    pub item: String,
    /// The price of one.
    pub amount: Amount,
    /// The currency as written (`USD`, `CNY`, `EUR`).
    pub currency: String,
    /// Where it comes from.
    pub source: PriceSource,
}

/// A price list: the lab's, or the catalogue of typical prices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceList {
    /// The prices, in the order read.
    pub prices: Vec<Price>,
    /// True for the catalogue of typical prices (the report says so), false for the lab's file.
    pub typical: bool,
}

/// What one currency adds up to for one option.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrencyTotal {
    /// The currency.
    pub currency: String,
    /// Bought once (modules), summed.
    pub once: Amount,
    /// Per hour (instances), summed.
    pub per_hour: Amount,
}

/// The lab's order added up: modules and sets counted one by one, cost by option and
/// currency, and what has no price.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabTotals {
    /// Machines with at least one line.
    pub machines: u32,
    /// Modules by item name, for the rules' option (every line with modules that is
    /// [`Choice::Rules`] or [`Choice::FixAndRules`]), in the order first met.
    pub modules_rules: Vec<(String, u32)>,
    /// Modules by item name for the cheapest fixes.
    pub modules_fix: Vec<(String, u32)>,
    /// Instances to move to, for the rules' option / for the fixes.
    pub instances_rules: u32,
    /// Instances for the fixes.
    pub instances_fix: u32,
    /// Costs of the cheapest fixes, by currency.
    pub cost_fix: Vec<CurrencyTotal>,
    /// Costs of the rules' option, by currency.
    pub cost_rules: Vec<CurrencyTotal>,
    /// Lines with a price-able item but no price.
    pub unpriced: u32,
    /// Lines that are other changes (never priced).
    pub other: u32,
}
