//! Memory modules (SMBIOS type 17 "Memory Device") from the two sources readable without root:
//!
//! - `/run/udev/data/+dmi:id`, where systemd (248+, `udev-dmi-memory-id`) stores one
//!   `E:MEMORY_DEVICE_<n>_<FIELD>=value` line per field: `PRESENT` (0 for an empty slot),
//!   `SIZE` (bytes), `TYPE`, `SPEED_MTS`, `CONFIGURED_SPEED_MTS`, `LOCATOR`, `BANK_LOCATOR`,
//!   `FORM_FACTOR`, `DATA_WIDTH`, `PART_NUMBER`, …; `udevadm info` prints the same lines as
//!   `E: KEY=value`;
//! - the text of `dmidecode -t memory`, which the user runs as root and passes in.
//!
//! Both parsers are pure. Channels are then inferred from slot names
//! ([`crate::profile::infer_channels`]), which is an estimate: SMBIOS has no "channel" field.

use std::collections::BTreeMap;

use crate::profile::{Dimm, Memory, Provenance, infer_channels};

/// Puts modules into a profile's memory section: the modules, and the channel count inferred
/// from their slot names (labelled [`Provenance::Estimated`]), or none when it can't be told.
/// Does nothing when `dimms` is empty.
pub fn apply_dimms(memory: &mut Memory, dimms: Vec<Dimm>) {
    if dimms.is_empty() {
        return;
    }
    match infer_channels(&dimms) {
        Some(layout) => {
            memory.channels_populated = Some(layout.count());
            memory.channels_source = Some(Provenance::Estimated);
        }
        None => {
            memory.channels_populated = None;
            memory.channels_source = None;
        }
    }
    memory.dimms = dimms;
}

/// Parses the udev database entry for `dmi:id` (or `udevadm info` output). Returns populated
/// modules only, in device-number order.
pub fn parse_udev_dmi(text: &str) -> Vec<Dimm> {
    let devices = udev_devices(text);
    devices
        .values()
        .filter(|f| f.get("PRESENT").map(String::as_str) != Some("0"))
        .filter_map(|f| {
            let size = f
                .get("SIZE")
                .and_then(|s| s.parse::<u64>().ok())
                .filter(|s| *s > 0)?;
            Some(Dimm {
                locator: text_field(f.get("LOCATOR")),
                bank_locator: text_field(f.get("BANK_LOCATOR")),
                size_bytes: Some(size),
                memory_type: text_field(f.get("TYPE")),
                speed_mts: f.get("SPEED_MTS").and_then(|s| positive(s)),
                configured_speed_mts: f.get("CONFIGURED_SPEED_MTS").and_then(|s| positive(s)),
                data_width_bits: f.get("DATA_WIDTH").and_then(|s| positive(s)),
                form_factor: text_field(f.get("FORM_FACTOR")),
                part_number: text_field(f.get("PART_NUMBER")),
                registered: f.get("TYPE_DETAIL").and_then(|t| registered(t)),
            })
        })
        .collect()
}

/// The `MEMORY_DEVICE_<n>_<FIELD>=value` lines of a udev entry, grouped by device number.
fn udev_devices(text: &str) -> BTreeMap<u32, BTreeMap<String, String>> {
    let mut devices: BTreeMap<u32, BTreeMap<String, String>> = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("E:") else {
            continue;
        };
        let Some((key, value)) = rest.trim_start().split_once('=') else {
            continue;
        };
        let Some(after) = key.strip_prefix("MEMORY_DEVICE_") else {
            continue;
        };
        let Some((index, field)) = after.split_once('_') else {
            continue;
        };
        let Ok(index) = index.parse::<u32>() else {
            continue;
        };
        devices
            .entry(index)
            .or_default()
            .insert(field.to_string(), value.trim().to_string());
    }
    devices
}

/// SMBIOS "Type Detail" as udev and dmidecode print it: "Registered (Buffered)" or "LRDIMM" →
/// registered; "Unbuffered (Unregistered)" → not; anything else (e.g. only "Synchronous") →
/// `None`.
pub fn registered(type_detail: &str) -> Option<bool> {
    if type_detail.contains("Unbuffered") || type_detail.contains("Unregistered") {
        Some(false)
    } else if type_detail.contains("Registered") || type_detail.contains("LRDIMM") {
        Some(true)
    } else {
        None
    }
}

fn positive(s: &str) -> Option<u32> {
    s.trim().parse::<u32>().ok().filter(|v| *v > 0)
}

/// SMBIOS strings that mean "nothing here".
fn text_field(v: Option<&String>) -> Option<String> {
    let v = v?.trim();
    let placeholder = [
        "",
        "Unknown",
        "Not Specified",
        "Not Provided",
        "None",
        "Other",
        "NO DIMM",
        "Undefined",
    ];
    (!placeholder.iter().any(|p| v.eq_ignore_ascii_case(p))).then(|| v.to_string())
}

/// Parses the text of `dmidecode -t memory` (or `dmidecode -t 17`, or a full `dmidecode`).
/// Returns populated modules only, in the order printed.
pub fn parse_dmidecode(text: &str) -> Vec<Dimm> {
    dmidecode_records(text)
        .iter()
        .filter_map(dmidecode_device)
        .collect()
}

/// The "Memory Device" records of dmidecode's text, one field map each, in the order printed.
fn dmidecode_records(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut out = Vec::new();
    let mut fields: Option<BTreeMap<String, String>> = None;
    for line in text.lines() {
        if line.starts_with("Handle ") {
            out.extend(fields.take());
            continue;
        }
        let trimmed = line.trim();
        if trimmed == "Memory Device" && !line.starts_with(char::is_whitespace) {
            out.extend(fields.take());
            fields = Some(BTreeMap::new());
            continue;
        }
        if let Some(f) = fields.as_mut() {
            if let Some((k, v)) = trimmed.split_once(':') {
                // Multi-line values (e.g. "Type Detail") keep their first line only.
                f.entry(k.trim().to_string())
                    .or_insert_with(|| v.trim().to_string());
            }
        }
    }
    out.extend(fields.take());
    out
}

fn dmidecode_device(f: &BTreeMap<String, String>) -> Option<Dimm> {
    let size = parse_dmidecode_size(f.get("Size")?)?;
    let speed = |key: &str| f.get(key).and_then(|s| parse_dmidecode_speed(s));
    Some(Dimm {
        locator: text_field(f.get("Locator")),
        bank_locator: text_field(f.get("Bank Locator")),
        size_bytes: Some(size),
        memory_type: text_field(f.get("Type")),
        speed_mts: speed("Speed"),
        // dmidecode 3.2 and later say "Configured Memory Speed"; older ones "Configured Clock
        // Speed" (in "MHz", which for DDR meant MT/s).
        configured_speed_mts: speed("Configured Memory Speed")
            .or_else(|| speed("Configured Clock Speed")),
        data_width_bits: f
            .get("Data Width")
            .and_then(|s| s.split_whitespace().next())
            .and_then(positive),
        form_factor: text_field(f.get("Form Factor")),
        part_number: text_field(f.get("Part Number")),
        registered: f.get("Type Detail").and_then(|t| registered(t)),
    })
}

/// `"16 GB"`, `"16384 MB"`, `"512 kB"`, `"1 TB"` → bytes (SMBIOS units are binary);
/// `"No Module Installed"`, `"Unknown"` → `None`.
pub fn parse_dmidecode_size(s: &str) -> Option<u64> {
    let mut parts = s.split_whitespace();
    let n: u64 = parts.next()?.parse().ok()?;
    let shift = match parts.next()? {
        "bytes" => 0,
        "kB" | "KB" => 10,
        "MB" => 20,
        "GB" => 30,
        "TB" => 40,
        _ => return None,
    };
    n.checked_mul(1 << shift).filter(|b| *b > 0)
}

/// `"3200 MT/s"`, `"2400 MHz"` → 3200, 2400; `"Unknown"` → `None`.
pub fn parse_dmidecode_speed(s: &str) -> Option<u32> {
    let mut parts = s.split_whitespace();
    let n = positive(parts.next()?)?;
    matches!(parts.next(), Some("MT/s" | "MHz")).then_some(n)
}

/// The memory slots an SMBIOS table lists (type 17 "Memory Device" structures, populated or
/// empty), for purchase advice: how many are free, and how many channels they span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots {
    /// Slots listed.
    pub total: u32,
    /// Slots holding a module.
    pub populated: u32,
    /// Channels the slots belong to, inferred from every slot's name (estimated); `None` when a
    /// slot name has no channel in it.
    pub channels: Option<u32>,
}

/// Slots from names and presence: `(locator, bank locator, populated)` per slot. `None` when
/// the list is empty.
pub fn slots_from(list: &[(Option<String>, Option<String>, bool)]) -> Option<Slots> {
    if list.is_empty() {
        return None;
    }
    let named: Vec<Dimm> = list
        .iter()
        .map(|(locator, bank, _)| Dimm {
            locator: locator.clone(),
            bank_locator: bank.clone(),
            ..Dimm::default()
        })
        .collect();
    Some(Slots {
        total: u32::try_from(list.len()).unwrap_or(u32::MAX),
        populated: list.iter().filter(|(_, _, p)| *p).count() as u32,
        channels: infer_channels(&named).map(|l| l.count()),
    })
}

/// Slots in a udev `dmi:id` entry: every `MEMORY_DEVICE_<n>`, populated unless `PRESENT=0` or
/// without a size.
pub fn udev_slots(text: &str) -> Option<Slots> {
    let list: Vec<_> = udev_devices(text)
        .values()
        .map(|f| {
            let present = f.get("PRESENT").map(String::as_str) != Some("0")
                && f.get("SIZE")
                    .and_then(|s| s.parse::<u64>().ok())
                    .unwrap_or(0)
                    > 0;
            (
                text_field(f.get("LOCATOR")),
                text_field(f.get("BANK_LOCATOR")),
                present,
            )
        })
        .collect();
    slots_from(&list)
}

/// Slots in dmidecode's text: every "Memory Device", populated unless its size is "No Module
/// Installed" (or not a size).
pub fn dmidecode_slots(text: &str) -> Option<Slots> {
    let list: Vec<_> = dmidecode_records(text)
        .iter()
        .map(|f| {
            (
                text_field(f.get("Locator")),
                text_field(f.get("Bank Locator")),
                f.get("Size")
                    .and_then(|s| parse_dmidecode_size(s))
                    .is_some(),
            )
        })
        .collect();
    slots_from(&list)
}

/// Puts slot counts into a profile's memory section (nothing when `slots` is `None`).
pub fn apply_slots(memory: &mut Memory, slots: Option<Slots>) {
    if let Some(s) = slots {
        memory.slots_total = Some(s.total);
        memory.slots_populated = Some(s.populated);
        memory.channels_total = s.channels;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/dmi")
            .join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn dimm(bank: &str, locator: &str) -> Dimm {
        Dimm {
            bank_locator: Some(bank.into()),
            locator: Some(locator.into()),
            size_bytes: Some(16 << 30),
            ..Dimm::default()
        }
    }

    #[test]
    fn udev_desktop_two_of_four_slots() {
        let d = parse_udev_dmi(&fixture("udev-dmi-id-ryzen-ddr4-2x16.txt"));
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].locator.as_deref(), Some("DIMM_A2"));
        assert_eq!(d[0].bank_locator.as_deref(), Some("P0 CHANNEL A"));
        assert_eq!(d[0].size_bytes, Some(17_179_869_184));
        assert_eq!(d[0].memory_type.as_deref(), Some("DDR4"));
        assert_eq!(d[0].speed_mts, Some(3600));
        assert_eq!(d[0].configured_speed_mts, Some(3200));
        assert_eq!(d[1].bank_locator.as_deref(), Some("P0 CHANNEL B"));
        let layout = infer_channels(&d).unwrap();
        assert_eq!(layout.count(), 2);
        assert!(!layout.uneven());
    }

    #[test]
    fn slots_free_channels_and_registered_modules() {
        // The desktop board: DIMM_A1 and DIMM_B1 empty (PRESENT=0), A2 and B2 hold 16 GiB
        // unbuffered modules; channels A and B.
        let text = fixture("udev-dmi-id-ryzen-ddr4-2x16.txt");
        assert_eq!(
            udev_slots(&text),
            Some(Slots {
                total: 4,
                populated: 2,
                channels: Some(2)
            })
        );
        assert!(
            parse_udev_dmi(&text)
                .iter()
                .all(|d| d.registered == Some(false))
        );
        // The laptop: ChannelA-DIMM0 holds a SODIMM, ChannelB-DIMM0 says "No Module Installed".
        assert_eq!(
            dmidecode_slots(&fixture("dmidecode-laptop-ddr4-1x16.txt")),
            Some(Slots {
                total: 2,
                populated: 1,
                channels: Some(2)
            })
        );
        // The workstation: DIMM_A1…D1 hold registered modules, A2…D2 are empty.
        let ws = fixture("dmidecode-workstation-ddr4-4x32.txt");
        assert_eq!(
            dmidecode_slots(&ws),
            Some(Slots {
                total: 8,
                populated: 4,
                channels: Some(4)
            })
        );
        assert!(
            parse_dmidecode(&ws)
                .iter()
                .all(|d| d.registered == Some(true))
        );
        assert_eq!(registered("Synchronous"), None);
        assert_eq!(udev_slots("E:ID_VENDOR=x\n"), None);
        let mut m = Memory::default();
        apply_slots(&mut m, dmidecode_slots(&ws));
        assert_eq!(
            (m.slots_total, m.slots_populated, m.channels_total),
            (Some(8), Some(4), Some(4))
        );
    }

    #[test]
    fn udevadm_info_format_is_understood_too() {
        let text = "P: /devices/virtual/dmi/id\nE: MEMORY_DEVICE_0_SIZE=8589934592\n\
                    E: MEMORY_DEVICE_0_LOCATOR=ChannelA-DIMM0\nE: MEMORY_DEVICE_0_TYPE=DDR4\n";
        let d = parse_udev_dmi(text);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].size_bytes, Some(8 << 30));
        assert_eq!(d[0].locator.as_deref(), Some("ChannelA-DIMM0"));
    }

    #[test]
    fn dmidecode_laptop_single_channel() {
        let d = parse_dmidecode(&fixture("dmidecode-laptop-ddr4-1x16.txt"));
        assert_eq!(d.len(), 1, "the empty slot is not a module");
        assert_eq!(d[0].locator.as_deref(), Some("ChannelA-DIMM0"));
        assert_eq!(d[0].size_bytes, Some(16 << 30));
        assert_eq!(d[0].configured_speed_mts, Some(2666));
        assert_eq!(d[0].speed_mts, Some(3200));
        assert_eq!(d[0].data_width_bits, Some(64));
        assert_eq!(d[0].form_factor.as_deref(), Some("SODIMM"));
        assert_eq!(infer_channels(&d).unwrap().count(), 1);
    }

    #[test]
    fn dmidecode_workstation_quad_channel_and_old_units() {
        let d = parse_dmidecode(&fixture("dmidecode-workstation-ddr4-4x32.txt"));
        assert_eq!(d.len(), 4);
        assert!(d.iter().all(|m| m.size_bytes == Some(32 << 30)));
        assert!(d.iter().all(|m| m.effective_speed_mts() == Some(3200)));
        let layout = infer_channels(&d).unwrap();
        assert_eq!(layout.count(), 4);
        assert!(!layout.uneven());
    }

    #[test]
    fn sizes_and_speeds() {
        assert_eq!(parse_dmidecode_size("16 GB"), Some(17_179_869_184));
        assert_eq!(parse_dmidecode_size("16384 MB"), Some(17_179_869_184));
        assert_eq!(parse_dmidecode_size("No Module Installed"), None);
        assert_eq!(parse_dmidecode_size("0 MB"), None);
        assert_eq!(parse_dmidecode_speed("3200 MT/s"), Some(3200));
        assert_eq!(parse_dmidecode_speed("2400 MHz"), Some(2400));
        assert_eq!(parse_dmidecode_speed("Unknown"), None);
    }

    #[test]
    fn channel_names_from_common_boards() {
        // Intel client boards: controller and channel in the locator.
        let intel = [
            dimm("BANK 0", "Controller0-ChannelA-DIMM0"),
            dimm("BANK 0", "Controller1-ChannelA-DIMM0"),
        ];
        assert_eq!(infer_channels(&intel).unwrap().count(), 2);
        // Two modules in one channel (DIMM0 and DIMM1 of channel A) are one channel.
        let same = [
            dimm("BANK 0", "ChannelA-DIMM0"),
            dimm("BANK 1", "ChannelA-DIMM1"),
        ];
        assert_eq!(infer_channels(&same).unwrap().count(), 1);
        // Dual-socket server: CPU1_DIMM_A1 and CPU2_DIMM_A1 are different channels.
        let server = [
            dimm("P0_Node0_Channel0_Dimm0", "CPU1_DIMM_A1"),
            dimm("P1_Node1_Channel0_Dimm0", "CPU2_DIMM_A1"),
        ];
        assert_eq!(infer_channels(&server).unwrap().count(), 2);
        // Supermicro style.
        let smc = [
            dimm("P0_Node0_Channel0_Dimm0", "P1-DIMMA1"),
            dimm("P0_Node0_Channel1_Dimm0", "P1-DIMMB1"),
            dimm("P0_Node0_Channel2_Dimm0", "P1-DIMMC1"),
        ];
        assert_eq!(infer_channels(&smc).unwrap().count(), 3);
        // No channel in the name: unknown, not a guess.
        assert_eq!(infer_channels(&[dimm("BANK 0", "DIMM 0")]), None);
    }

    #[test]
    fn uneven_channels_are_noticed() {
        let mut big = dimm("P0 CHANNEL B", "DIMM_B2");
        big.size_bytes = Some(32 << 30);
        let layout = infer_channels(&[dimm("P0 CHANNEL A", "DIMM_A2"), big]).unwrap();
        assert_eq!(layout.count(), 2);
        assert!(layout.uneven());
    }
}
