//! Memory modules and channels from the kernel's EDAC sysfs entries, present on servers with ECC
//! memory and an EDAC driver (`/sys/devices/system/edac/mc/mc<N>/dimm<M>/`, or `rank<M>/` on
//! drivers that count ranks). The kernel creates an entry only for populated modules
//! (`drivers/edac/edac_mc_sysfs.c` skips those with no pages) and writes:
//!
//! - `dimm_location`: the module's position in the controller's layers, e.g.
//!   `"channel 1 slot 0 "`, `"branch 0 channel 1 slot 0 "`, `"csrow 2 channel 0 "`;
//! - `size`: MiB;
//! - `dimm_mem_type`: e.g. `"Registered-DDR4"`, `"Unbuffered-DDR5"`;
//! - `dimm_label`: the slot name the driver or firmware gave, e.g. `"CPU_SrcID#0_MC#0_Chan#1_DIMM#0"`.
//!
//! EDAC has no speed; channels counted here are the distinct (controller, branch, channel)
//! triples, an estimate (drivers differ in what they call a channel).

use std::collections::BTreeSet;

use crate::profile::Dimm;

/// One EDAC entry as read from sysfs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdacDimm {
    /// The memory controller's directory name, e.g. `"mc0"`.
    pub controller: String,
    /// `dimm_location`.
    pub location: String,
    /// `size` (MiB).
    pub size_mib: Option<u64>,
    /// `dimm_mem_type`.
    pub mem_type: Option<String>,
    /// `dimm_label`.
    pub label: Option<String>,
}

/// Parses a `dimm_location` into (branch, channel): `"branch 0 channel 1 slot 0"` →
/// `(Some(0), Some(1))`.
pub fn parse_location(location: &str) -> (Option<u32>, Option<u32>) {
    let words: Vec<&str> = location.split_whitespace().collect();
    let layer = |name: &str| {
        words
            .windows(2)
            .find(|w| w[0] == name)
            .and_then(|w| w[1].parse::<u32>().ok())
    };
    (layer("branch"), layer("channel"))
}

/// `"Registered-DDR4"` → `"DDR4"`; `"Unbuffered-DDR5"` → `"DDR5"`; `"Unknown"` → `None`.
pub fn parse_mem_type(s: &str) -> Option<String> {
    let t = s.trim();
    let t = t.rsplit('-').next().unwrap_or(t);
    (!t.is_empty() && t != "Unknown" && t.chars().any(|c| c.is_ascii_digit()))
        .then(|| t.to_string())
}

/// Populated channels: distinct (controller, branch, channel); `None` when an entry has no
/// channel in its location or there are no entries.
pub fn channels(entries: &[EdacDimm]) -> Option<u32> {
    if entries.is_empty() {
        return None;
    }
    let mut set = BTreeSet::new();
    for e in entries {
        let (branch, channel) = parse_location(&e.location);
        set.insert((e.controller.clone(), branch, channel?));
    }
    Some(set.len() as u32)
}

/// The entries as modules (size and type; EDAC knows no speed).
pub fn dimms(entries: &[EdacDimm]) -> Vec<Dimm> {
    entries
        .iter()
        .filter(|e| e.size_mib.is_some_and(|s| s > 0))
        .map(|e| Dimm {
            locator: e
                .label
                .clone()
                .filter(|l| !l.trim().is_empty())
                .or_else(|| Some(format!("{} {}", e.controller, e.location.trim()))),
            bank_locator: None,
            size_bytes: e.size_mib.map(|m| m << 20),
            memory_type: e.mem_type.as_deref().and_then(parse_mem_type),
            ..Dimm::default()
        })
        .collect()
}

/// Reads every `mc*/dimm*` and `mc*/rank*` entry under `edac_mc` (normally
/// `/sys/devices/system/edac/mc`).
pub fn read_edac(edac_mc: &std::path::Path) -> Vec<EdacDimm> {
    let mut out = Vec::new();
    let Ok(mcs) = std::fs::read_dir(edac_mc) else {
        return out;
    };
    let mut mcs: Vec<_> = mcs.flatten().collect();
    mcs.sort_by_key(|e| e.file_name());
    for mc in mcs {
        let controller = mc.file_name().to_string_lossy().into_owned();
        if !controller.starts_with("mc") {
            continue;
        }
        let Ok(children) = std::fs::read_dir(mc.path()) else {
            continue;
        };
        let mut children: Vec<_> = children.flatten().collect();
        children.sort_by_key(|e| e.file_name());
        for d in children {
            let name = d.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("dimm") || name.starts_with("rank")) {
                continue;
            }
            let read = |f: &str| {
                std::fs::read_to_string(d.path().join(f))
                    .ok()
                    .map(|s| s.trim().to_string())
            };
            let Some(location) = read("dimm_location") else {
                continue;
            };
            out.push(EdacDimm {
                controller: controller.clone(),
                location,
                size_mib: read("size").and_then(|s| s.parse().ok()),
                mem_type: read("dimm_mem_type"),
                label: read("dimm_label"),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(mc: &str, location: &str) -> EdacDimm {
        EdacDimm {
            controller: mc.into(),
            location: location.into(),
            size_mib: Some(32768),
            mem_type: Some("Registered-DDR4".into()),
            label: None,
        }
    }

    #[test]
    fn locations_and_types() {
        assert_eq!(parse_location("channel 1 slot 0 "), (None, Some(1)));
        assert_eq!(
            parse_location("branch 1 channel 0 slot 1"),
            (Some(1), Some(0))
        );
        assert_eq!(parse_location("memory 0 "), (None, None));
        assert_eq!(parse_mem_type("Registered-DDR4"), Some("DDR4".into()));
        assert_eq!(parse_mem_type("Unbuffered-DDR5\n"), Some("DDR5".into()));
        assert_eq!(parse_mem_type("Unknown"), None);
    }

    #[test]
    fn channels_are_distinct_controller_channel_pairs() {
        // Two controllers (sockets or dies) with channels 0–1 each, one module per channel, and
        // a second module in mc0's channel 0: four channels.
        let e = [
            entry("mc0", "channel 0 slot 0 "),
            entry("mc0", "channel 0 slot 1 "),
            entry("mc0", "channel 1 slot 0 "),
            entry("mc1", "channel 0 slot 0 "),
            entry("mc1", "channel 1 slot 0 "),
        ];
        assert_eq!(channels(&e), Some(4));
        let d = dimms(&e);
        assert_eq!(d.len(), 5);
        assert_eq!(d[0].size_bytes, Some(32 << 30));
        assert_eq!(d[0].memory_type.as_deref(), Some("DDR4"));
        assert_eq!(d[0].locator.as_deref(), Some("mc0 channel 0 slot 0"));
        assert_eq!(channels(&[entry("mc0", "memory 0 ")]), None);
        assert_eq!(channels(&[]), None);
    }

    #[test]
    fn reads_a_sysfs_tree() {
        // A tree laid out as the kernel does (constructed, not captured).
        let dir = tempfile::tempdir().unwrap();
        for (mc, dimm, loc) in [
            ("mc0", "dimm0", "channel 0 slot 0 "),
            ("mc0", "dimm2", "channel 1 slot 0 "),
        ] {
            let p = dir.path().join(mc).join(dimm);
            std::fs::create_dir_all(&p).unwrap();
            std::fs::write(p.join("dimm_location"), format!("{loc}\n")).unwrap();
            std::fs::write(p.join("size"), "16384\n").unwrap();
            std::fs::write(p.join("dimm_mem_type"), "Unbuffered-DDR4\n").unwrap();
            std::fs::write(p.join("dimm_label"), "mc#0memory#0\n").unwrap();
        }
        std::fs::create_dir_all(dir.path().join("power")).unwrap();
        let e = read_edac(dir.path());
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].location, "channel 1 slot 0");
        assert_eq!(e[0].size_mib, Some(16384));
        assert_eq!(channels(&e), Some(2));
    }
}
