//! Memory module sizes that exist, per memory type and form factor
//! (`assets/catalog/modules.csv`, every row with its source): what can be bought to add to or
//! replace a machine's modules.

use serde::{Deserialize, Serialize};

/// How a module is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormFactor {
    /// Unbuffered DIMM (desktops).
    #[serde(rename = "UDIMM")]
    Udimm,
    /// Registered DIMM (servers, workstations).
    #[serde(rename = "RDIMM")]
    Rdimm,
    /// Small-outline DIMM (laptops, small desktops).
    #[serde(rename = "SODIMM")]
    Sodimm,
    /// Soldered to the board (LPDDR): nothing to buy.
    #[serde(rename = "soldered")]
    Soldered,
}

/// One module size of one memory type and form factor.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ModuleSize {
    /// Memory type ("DDR4", "DDR5", "LPDDR5").
    pub memory_type: String,
    /// Form factor.
    pub form_factor: FormFactor,
    /// Size as sold, GB (module sizes are binary: a "32 GB" module holds 32 GiB); empty for
    /// soldered memory.
    pub size_gb: Option<u64>,
    /// Where it comes from.
    pub source: String,
}

/// The sizes, bytes, that exist for `memory_type` (compared ignoring case) in `form`, smallest
/// first; empty when the catalogue has none.
pub fn sizes(modules: &[ModuleSize], memory_type: &str, form: FormFactor) -> Vec<u64> {
    let mut out: Vec<u64> = modules
        .iter()
        .filter(|m| m.form_factor == form && m.memory_type.eq_ignore_ascii_case(memory_type))
        .filter_map(|m| m.size_gb)
        .map(|g| g << 30)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// True when the catalogue lists `memory_type` as soldered memory (LPDDR).
pub fn soldered(modules: &[ModuleSize], memory_type: &str) -> bool {
    modules.iter().any(|m| {
        m.form_factor == FormFactor::Soldered && m.memory_type.eq_ignore_ascii_case(memory_type)
    })
}
