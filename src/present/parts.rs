//! Memory modules as a part list, the same in every language: "1 × 32 GB DDR4-3200",
//! "4 × 64 GB DDR5-4800 RDIMM" (sizes as modules are sold: binary GB).

use crate::advisor::buying::purchase::{ModulePlan, ModuleSpec};
use crate::catalog::modules::FormFactor;

/// The modules of `p` to buy as a part list: "1 × 32 GB DDR4-3200".
pub fn modules_text(p: &ModulePlan) -> String {
    spec_text(p.buy, &p.module)
}

/// `count` modules of `m` as a part list: "4 × 64 GB DDR5-4800 RDIMM" ([`modules_text`]).
pub fn spec_text(count: u32, m: &ModuleSpec) -> String {
    part_list(
        count,
        m.size_bytes,
        &m.memory_type,
        m.speed_mts,
        m.form_factor,
    )
}

/// `count` modules of `size_bytes` each (shown in whole binary GB), of `memory_type` at
/// `speed_mts`, of `form_factor` (RDIMM and SODIMM are named; UDIMM and unknown are not).
pub fn part_list(
    count: u32,
    size_bytes: u64,
    memory_type: &str,
    speed_mts: Option<u32>,
    form_factor: Option<FormFactor>,
) -> String {
    let speed = speed_mts.map(|s| format!("-{s}")).unwrap_or_default();
    let form = match form_factor {
        Some(FormFactor::Rdimm) => " RDIMM",
        Some(FormFactor::Sodimm) => " SODIMM",
        _ => "",
    };
    format!(
        "{} × {}{}GB {}{speed}{form}",
        count,
        size_bytes >> 30,
        crate::format::NBSP,
        memory_type
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_list_names_count_size_type_speed_and_form() {
        // Written out by hand: one 32 GiB DDR4 module at 3200 MT/s, an unbuffered DIMM.
        assert_eq!(
            part_list(1, 32 << 30, "DDR4", Some(3200), None),
            "1 × 32\u{a0}GB DDR4-3200"
        );
        assert_eq!(
            part_list(4, 64 << 30, "DDR5", Some(4800), Some(FormFactor::Rdimm)),
            "4 × 64\u{a0}GB DDR5-4800 RDIMM"
        );
        assert_eq!(
            part_list(2, 16 << 30, "DDR5", None, Some(FormFactor::Sodimm)),
            "2 × 16\u{a0}GB DDR5 SODIMM"
        );
    }
}
