//! Channel-filling sets of equal memory modules for the catalogue's kinds of platform: the
//! generic "what to buy" when nothing better can be said about the machine's own board.

use serde::{Deserialize, Serialize};

use crate::catalog::Platform;
use crate::catalog::modules::{FormFactor, ModuleSize};

/// A way to build a RAM size from equal modules on one kind of platform: every channel of one
/// socket filled with one module, or with two where the platform has two slots per channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimmSet {
    /// Memory channels of one socket, all filled.
    pub channels: u32,
    /// Modules in each channel (1, or 2 where the platform has two slots per channel).
    pub dimms_per_channel: u32,
    /// Memory type ("DDR5").
    pub memory_type: String,
    /// UDIMM (desktops) or RDIMM (workstations, servers).
    pub form_factor: FormFactor,
    /// Size of each module, bytes (module sizes are binary: a "32 GB" DIMM is 32 GiB).
    pub dimm_bytes: u64,
    /// channels × dimms_per_channel × dimm_bytes.
    pub total_bytes: u64,
    /// The catalogue's platforms of this kind that hold the set (`platforms.csv` names).
    pub platforms: Vec<String>,
}

impl DimmSet {
    /// Modules in the set: channels × modules per channel.
    pub fn modules(&self) -> u32 {
        self.channels * self.dimms_per_channel
    }
}

/// Memory type of the sets for a planned machine, or when the machine's own type has no
/// platform in the catalogue: DDR5, what the catalogue's current desktop, workstation and
/// server platforms take (`assets/catalog/platforms.csv`).
pub const PLANNED_MEMORY_TYPE: &str = "DDR5";

/// The memory type the sets are built for: `memory_type` when the catalogue has platforms for
/// it, else [`PLANNED_MEMORY_TYPE`].
fn set_memory_type<'a>(memory_type: Option<&'a str>, platforms: &[Platform]) -> &'a str {
    memory_type
        .filter(|t| platforms.iter().any(|p| p.memory.eq_ignore_ascii_case(t)))
        .unwrap_or(PLANNED_MEMORY_TYPE)
}

/// The kinds of platform for `memory_type`: the catalogue's platforms grouped by channels per
/// socket and form factor, fewest channels first, each with the most slots per channel any of
/// them has.
fn platform_kinds<'a>(
    memory_type: &str,
    platforms: &'a [Platform],
) -> Vec<(u32, FormFactor, u32, Vec<&'a Platform>)> {
    let mut kinds: Vec<(u32, FormFactor, u32, Vec<&Platform>)> = Vec::new();
    for p in platforms
        .iter()
        .filter(|p| p.memory.eq_ignore_ascii_case(memory_type))
    {
        let dpc = p.dimms_per_channel.max(1);
        match kinds
            .iter_mut()
            .find(|k| k.0 == p.channels_per_socket && k.1 == p.form_factor)
        {
            Some(k) => {
                k.2 = k.2.max(dpc);
                k.3.push(p);
            }
            None => kinds.push((p.channels_per_socket, p.form_factor, dpc, vec![p])),
        }
    }
    kinds.sort_by_key(|k| (k.0, k.1 != FormFactor::Udimm));
    kinds
}

/// For each kind of platform in `platforms` with `memory_type` memory (channels per socket and
/// form factor; see [`set_memory_type`]), the smallest set of equal modules that fills every
/// channel of one socket evenly and reaches `target` bytes: module sizes `modules` sells for
/// that type and form factor, one module per channel, or two where a platform of that kind has
/// two slots per channel. Smallest total first, then fewest modules (one per channel runs
/// faster than two: vendors' memory matrices, e.g. 4800 MT/s at 1 DPC, 4400 at 2 DPC). Kinds no
/// set reaches are left out; fewest channels first.
pub fn dimm_sets_from(
    target: u64,
    memory_type: Option<&str>,
    platforms: &[Platform],
    modules: &[ModuleSize],
) -> Vec<DimmSet> {
    let memory = set_memory_type(memory_type, platforms);
    platform_kinds(memory, platforms)
        .into_iter()
        .filter_map(|(channels, form, max_dpc, kind)| {
            let sizes = crate::catalog::modules::sizes(modules, memory, form);
            let (_, dpc, dimm) = (1..=max_dpc)
                .flat_map(|dpc| {
                    sizes.iter().map(move |&size| {
                        let count = u64::from(channels * dpc);
                        (size.saturating_mul(count), dpc, size)
                    })
                })
                .filter(|(total, _, _)| *total >= target)
                .min_by_key(|(total, dpc, _)| (*total, *dpc))?;
            Some(kind_set(channels, dpc, memory, form, dimm, &kind))
        })
        .collect()
}

/// The set of `channels × dpc` modules of `dimm` bytes on a kind of platform, naming the
/// platforms of that kind whose boards have `dpc` slots per channel.
fn kind_set(
    channels: u32,
    dpc: u32,
    memory: &str,
    form: FormFactor,
    dimm: u64,
    kind: &[&Platform],
) -> DimmSet {
    DimmSet {
        channels,
        dimms_per_channel: dpc,
        memory_type: memory.to_string(),
        form_factor: form,
        dimm_bytes: dimm,
        total_bytes: dimm.saturating_mul(u64::from(channels * dpc)),
        platforms: kind
            .iter()
            .filter(|p| p.dimms_per_channel >= dpc)
            .map(|p| p.platform.clone())
            .collect(),
    }
}

/// [`dimm_sets_from`] with the embedded catalogue.
pub fn dimm_sets(target: u64, memory_type: Option<&str>) -> Vec<DimmSet> {
    let c = crate::catalog::catalog();
    dimm_sets_from(target, memory_type, &c.platforms, &c.modules)
}

/// The largest set any kind of platform for `memory_type` holds (every slot of one socket with
/// the largest module sold for it); `None` when the catalogue has none.
pub fn largest_dimm_set(memory_type: Option<&str>) -> Option<DimmSet> {
    let c = crate::catalog::catalog();
    largest_dimm_set_from(memory_type, &c.platforms, &c.modules)
}

/// [`largest_dimm_set`] among `platforms`, with module sizes from `modules`.
pub fn largest_dimm_set_from(
    memory_type: Option<&str>,
    platforms: &[Platform],
    modules: &[ModuleSize],
) -> Option<DimmSet> {
    let memory = set_memory_type(memory_type, platforms);
    platform_kinds(memory, platforms)
        .into_iter()
        .filter_map(|(channels, form, dpc, kind)| {
            let dimm = *crate::catalog::modules::sizes(modules, memory, form).last()?;
            Some(kind_set(channels, dpc, memory, form, dimm, &kind))
        })
        .max_by_key(|s| s.total_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    const GIB: u64 = 1 << 30;

    /// (channels, modules per channel, GB per module, total GiB) of each set.
    fn shape(sets: &[DimmSet]) -> Vec<(u32, u32, u64, u64)> {
        sets.iter()
            .map(|s| {
                (
                    s.channels,
                    s.dimms_per_channel,
                    s.dimm_bytes / GIB,
                    s.total_bytes / GIB,
                )
            })
            .collect()
    }

    #[test]
    fn g5_needs_48_gib_built_from_modules_sold_for_each_platform() {
        // 2 × 24 GiB = 48 GiB of DDR5. Desktop UDIMMs come in 8/16/24/32/48/64 GB: 2 × 24 = 48.
        // Workstation and server RDIMMs in 16/32/64/128/256 GB: 4 × 16 = 64, 8 × 16 = 128,
        // 12 × 16 = 192 (no 8 GB RDIMM to make 8 × 8 or 12 × 8).
        let sets = dimm_sets(48 * GIB, None);
        assert_eq!(
            shape(&sets),
            [
                (2, 1, 24, 48),
                (4, 1, 16, 64),
                (8, 1, 16, 128),
                (12, 1, 16, 192)
            ]
        );
        assert_eq!(sets[0].form_factor, FormFactor::Udimm);
        assert!(sets[1..].iter().all(|s| s.form_factor == FormFactor::Rdimm));
        assert!(sets.iter().all(|s| s.memory_type == "DDR5"));
    }

    #[test]
    fn a_desktop_reaches_192_gib_with_four_48_gb_udimms_not_two_96s() {
        // The tryout's case: 192 GiB. No 96 GB UDIMM exists; one per channel tops out at
        // 2 × 64 = 128, so a four-slot desktop takes 4 × 48 = 192 (two per channel).
        // 4 channels: 4 × 64 = 256 ties 8 × 32 = 256, one per channel wins. 8: 8 × 32 = 256
        // (ties 16 × 16). 12: 12 × 16 = 192.
        let sets = dimm_sets(192 * GIB, None);
        assert_eq!(
            shape(&sets),
            [
                (2, 2, 48, 192),
                (4, 1, 64, 256),
                (8, 1, 32, 256),
                (12, 1, 16, 192)
            ]
        );
        assert_eq!(sets[0].modules(), 4);
        assert_eq!(sets[0].platforms, ["Desktop (AM5 / LGA1700 / LGA1851)"]);
        // 4 × 64 = 256 GiB is the most a desktop holds; 257 GiB has no desktop set.
        assert_eq!(shape(&dimm_sets(256 * GIB, None))[0], (2, 2, 64, 256));
        assert!(dimm_sets(257 * GIB, None).iter().all(|s| s.channels > 2));
    }

    #[test]
    fn two_per_channel_only_on_platforms_with_two_slots_per_channel() {
        // 8 channels: 8 × 256 = 2048 GiB one per channel; 3 TiB needs 16 × 256 = 4096, which
        // Threadripper PRO's WRX90 (one slot per channel) can't hold.
        let sets = dimm_sets(3072 * GIB, None);
        let eight = sets.iter().find(|s| s.channels == 8).unwrap();
        assert_eq!((eight.dimms_per_channel, eight.dimm_bytes), (2, 256 * GIB));
        assert!(
            eight.platforms.iter().all(|p| !p.contains("WRX90")) && !eight.platforms.is_empty(),
            "{:?}",
            eight.platforms
        );
        let one = dimm_sets(2048 * GIB, None);
        let eight = one.iter().find(|s| s.channels == 8).unwrap();
        assert!(eight.platforms.iter().any(|p| p.contains("WRX90")));
    }

    #[test]
    fn every_set_can_be_bought_and_installed() {
        // Each set: a catalogue platform with that many channels, that form factor and enough
        // slots per channel, and a module of that size sold for its type and form factor.
        let c = catalog();
        for gib in (8..=6144).step_by(8) {
            for memory in [None, Some("DDR4"), Some("DDR5"), Some("LPDDR5")] {
                for s in dimm_sets(gib * GIB, memory) {
                    assert!(s.total_bytes >= gib * GIB);
                    assert_eq!(
                        s.total_bytes,
                        s.dimm_bytes * u64::from(s.channels * s.dimms_per_channel)
                    );
                    assert!(
                        crate::catalog::modules::sizes(&c.modules, &s.memory_type, s.form_factor)
                            .contains(&s.dimm_bytes),
                        "{s:?}"
                    );
                    assert!(!s.platforms.is_empty(), "{s:?}");
                    for name in &s.platforms {
                        let p = c.platform(name).unwrap();
                        assert_eq!(p.channels_per_socket, s.channels);
                        assert_eq!(p.form_factor, s.form_factor);
                        assert!(p.dimms_per_channel >= s.dimms_per_channel);
                        assert_eq!(p.memory, s.memory_type);
                    }
                }
            }
        }
    }

    #[test]
    fn ddr4_sets_use_ddr4_platforms_and_anything_else_plans_ddr5() {
        // DDR4 UDIMMs stop at 32 GB: 48 GiB on a desktop is 2 × 32 = 64 (4 × 16 = 64 ties, one
        // per channel wins); Intel's X299 Core X-series, 4 UDIMM channels: 4 × 16 = 64; EPYC
        // 7003's 8 RDIMM channels: 8 × 16 = 128.
        assert_eq!(
            shape(&dimm_sets(48 * GIB, Some("DDR4"))),
            [(2, 1, 32, 64), (4, 1, 16, 64), (8, 1, 16, 128)]
        );
        // LPDDR5 is soldered: no platform takes it, so a planned machine is DDR5.
        assert_eq!(
            dimm_sets(48 * GIB, Some("LPDDR5")),
            dimm_sets(48 * GIB, None)
        );
    }

    #[test]
    fn huge_targets_have_no_set_beyond_the_catalogue() {
        // 12 channels × 2 per channel × 256 GB = 6144 GiB is the largest DDR5 set of one socket.
        let largest = largest_dimm_set(None).unwrap();
        assert_eq!(
            (largest.channels, largest.modules(), largest.total_bytes),
            (12, 24, 6144 * GIB)
        );
        assert!(dimm_sets(6145 * GIB, None).is_empty());
        assert_eq!(dimm_sets(6144 * GIB, None).len(), 1);
    }
}
