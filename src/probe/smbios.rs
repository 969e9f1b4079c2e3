//! Memory modules from the raw SMBIOS structure table: `/sys/firmware/dmi/tables/DMI` on Linux
//! (readable by root), the same bytes Windows returns from `GetSystemFirmwareTable('RSMB')`
//! after its 8-byte header. Pure parser of type 17 ("Memory Device") structures, following
//! DMTF DSP0134 (SMBIOS 3.x), §7.18:
//!
//! | offset | field | notes |
//! |---|---|---|
//! | 0x00 | type (17), length, handle | header |
//! | 0x0A | Data Width (WORD, bits) | 0xFFFF unknown |
//! | 0x0C | Size (WORD) | 0 = empty slot, 0xFFFF unknown, 0x7FFF → Extended Size; bit 15 set = KiB, else MiB |
//! | 0x0E | Form Factor (BYTE) | 0x09 DIMM, 0x0D SODIMM, 0x0B Row of chips |
//! | 0x10 | Device Locator (STRING) | |
//! | 0x11 | Bank Locator (STRING) | |
//! | 0x12 | Memory Type (BYTE) | 0x1A DDR4, 0x22 DDR5, 0x1E LPDDR4, 0x23 LPDDR5, … |
//! | 0x15 | Speed (WORD, MT/s) | 0xFFFF → Extended Speed (0x54, DWORD) |
//! | 0x1A | Part Number (STRING) | |
//! | 0x1C | Extended Size (DWORD, MiB, bits 0–30) | |
//! | 0x20 | Configured Memory Speed (WORD, MT/s) | 0xFFFF → 0x58 (DWORD) |
//!
//! Strings are numbered from 1 in the string set after the formatted area (0 = none); the set
//! ends with two NUL bytes. Fields beyond a structure's length (older SMBIOS) are unknown.

use crate::profile::Dimm;

/// SMBIOS memory type byte → name (DSP0134 Table 76).
pub fn memory_type_name(code: u8) -> Option<&'static str> {
    Some(match code {
        0x12 => "DDR",
        0x13 => "DDR2",
        0x18 => "DDR3",
        0x1A => "DDR4",
        0x1B => "LPDDR",
        0x1C => "LPDDR2",
        0x1D => "LPDDR3",
        0x1E => "LPDDR4",
        0x20 => "HBM",
        0x21 => "HBM2",
        0x22 => "DDR5",
        0x23 => "LPDDR5",
        0x24 => "HBM3",
        _ => return None,
    })
}

/// SMBIOS form factor byte → name (DSP0134 Table 75), as dmidecode prints it.
pub fn form_factor_name(code: u8) -> Option<&'static str> {
    Some(match code {
        0x09 => "DIMM",
        0x0B => "Row Of Chips",
        0x0D => "SODIMM",
        0x0F => "FB-DIMM",
        0x10 => "Die",
        0x11 => "CAMM",
        _ => return None,
    })
}

/// One structure: (formatted area, strings).
struct Structure<'a> {
    data: &'a [u8],
    strings: Vec<&'a [u8]>,
}

impl Structure<'_> {
    fn byte(&self, off: usize) -> Option<u8> {
        self.data.get(off).copied()
    }
    fn word(&self, off: usize) -> Option<u16> {
        Some(u16::from_le_bytes([self.byte(off)?, self.byte(off + 1)?]))
    }
    fn dword(&self, off: usize) -> Option<u32> {
        Some(u32::from_le_bytes([
            self.byte(off)?,
            self.byte(off + 1)?,
            self.byte(off + 2)?,
            self.byte(off + 3)?,
        ]))
    }
    fn string(&self, off: usize) -> Option<String> {
        let n = self.byte(off)? as usize;
        let s = self.strings.get(n.checked_sub(1)?)?;
        let s = String::from_utf8_lossy(s).trim().to_string();
        let placeholder = ["", "Unknown", "Not Specified", "NO DIMM", "None"];
        (!placeholder.iter().any(|p| s.eq_ignore_ascii_case(p))).then_some(s)
    }
}

/// Splits the table into structures; stops at the end-of-table structure (type 127) or at
/// the first malformed one.
fn structures(table: &[u8]) -> Vec<(u8, Structure<'_>)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos + 4 <= table.len() {
        let kind = table[pos];
        let len = table[pos + 1] as usize;
        if len < 4 || pos + len > table.len() {
            break;
        }
        let data = &table[pos..pos + len];
        // The string set: NUL-terminated strings, ended by an extra NUL.
        let mut strings = Vec::new();
        let mut p = pos + len;
        if table.get(p) == Some(&0) && table.get(p + 1) == Some(&0) {
            p += 2;
        } else {
            loop {
                let Some(end) = table[p.min(table.len())..].iter().position(|b| *b == 0) else {
                    return out;
                };
                strings.push(&table[p..p + end]);
                p += end + 1;
                if table.get(p) == Some(&0) {
                    p += 1;
                    break;
                }
            }
        }
        out.push((kind, Structure { data, strings }));
        if kind == 127 {
            break;
        }
        pos = p;
    }
    out
}

/// The populated memory devices (type 17) in the table, in order.
pub fn parse_type17(table: &[u8]) -> Vec<Dimm> {
    structures(table)
        .into_iter()
        .filter(|(kind, _)| *kind == 17)
        .filter_map(|(_, s)| {
            let size = match s.word(0x0C)? {
                0 | 0xFFFF => return None,
                0x7FFF => u64::from(s.dword(0x1C)? & 0x7FFF_FFFF) << 20,
                w if w & 0x8000 != 0 => u64::from(w & 0x7FFF) << 10,
                w => u64::from(w) << 20,
            };
            if size == 0 {
                return None;
            }
            let speed = |word_off: usize, ext_off: usize| match s.word(word_off) {
                Some(0xFFFF) => s.dword(ext_off).filter(|v| *v > 0),
                Some(0) | None => None,
                Some(v) => Some(u32::from(v)),
            };
            Some(Dimm {
                locator: s.string(0x10),
                bank_locator: s.string(0x11),
                size_bytes: Some(size),
                memory_type: s.byte(0x12).and_then(memory_type_name).map(String::from),
                speed_mts: speed(0x15, 0x54),
                configured_speed_mts: speed(0x20, 0x58),
                data_width_bits: s
                    .word(0x0A)
                    .filter(|w| *w != 0 && *w != 0xFFFF)
                    .map(u32::from),
                form_factor: s.byte(0x0E).and_then(form_factor_name).map(String::from),
                part_number: s.string(0x1A),
                registered: s.word(0x13).and_then(type_detail_registered),
            })
        })
        .collect()
}

/// The identity strings of SMBIOS types 0 (BIOS: Vendor 0x04, BIOS Version 0x05), 1 (System:
/// Manufacturer 0x04, Product Name 0x05, Version 0x06), 2 (Baseboard: Manufacturer 0x04) and 3
/// (Chassis: Type 0x05, bits 6–0; Asset Tag 0x08), DSP0134 §7.1–7.4: what Linux exposes as
/// `/sys/class/dmi/id`, for [`super::platform::classify`] on Windows, where only the raw table
/// is at hand. Placeholders are `None` ([`super::platform::dmi_text`]); the first structure of
/// each type counts.
pub fn dmi_ids(table: &[u8]) -> super::platform::DmiIds {
    let text = |s: &Structure<'_>, off: usize| {
        let n = s.byte(off)? as usize;
        super::platform::dmi_text(s.strings.get(n.checked_sub(1)?)?)
    };
    let mut ids = super::platform::DmiIds::default();
    let mut seen = [false; 4];
    for (kind, s) in structures(table) {
        let Some(first) = seen.get_mut(kind as usize).filter(|f| !**f) else {
            continue;
        };
        *first = true;
        match kind {
            0 => {
                ids.bios_vendor = text(&s, 0x04);
                ids.bios_version = text(&s, 0x05);
            }
            1 => {
                ids.sys_vendor = text(&s, 0x04);
                ids.product_name = text(&s, 0x05);
                ids.product_version = text(&s, 0x06);
            }
            2 => ids.board_vendor = text(&s, 0x04),
            _ => {
                ids.chassis_type = s.byte(0x05).map(|t| u32::from(t & 0x7F)).filter(|t| *t > 2);
                ids.chassis_asset_tag = text(&s, 0x08);
            }
        }
    }
    ids
}

/// Type Detail (WORD at 0x13, DSP0134 Table 77): bit 13 Registered (Buffered), bit 15 LRDIMM →
/// registered; bit 14 Unbuffered (Unregistered) → not; neither → `None`.
fn type_detail_registered(detail: u16) -> Option<bool> {
    if detail & 0x4000 != 0 {
        Some(false)
    } else if detail & 0xA000 != 0 {
        Some(true)
    } else {
        None
    }
}

/// Every memory device (type 17) in the table as a slot, populated when its Size is neither 0
/// (empty) nor absent; see [`super::dimm::Slots`].
pub fn type17_slots(table: &[u8]) -> Option<super::dimm::Slots> {
    let list: Vec<_> = structures(table)
        .into_iter()
        .filter(|(kind, _)| *kind == 17)
        .map(|(_, s)| {
            let populated = s.word(0x0C).is_some_and(|w| w != 0);
            (s.string(0x10), s.string(0x11), populated)
        })
        .collect();
    super::dimm::slots_from(&list)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a type 17 structure of SMBIOS 3.2 length (0x54 bytes) the way DSP0134 lays it
    /// out (constructed, not captured).
    fn type17(size: u16, ext_size: u32, speed: u16, configured: u16, strings: &[&str]) -> Vec<u8> {
        let mut d = vec![0u8; 0x54];
        d[0] = 17;
        d[1] = 0x54;
        d[2..4].copy_from_slice(&0x0040u16.to_le_bytes());
        d[0x08..0x0A].copy_from_slice(&72u16.to_le_bytes()); // total width (ECC)
        d[0x0A..0x0C].copy_from_slice(&64u16.to_le_bytes()); // data width
        d[0x0C..0x0E].copy_from_slice(&size.to_le_bytes());
        d[0x0E] = 0x09; // DIMM
        d[0x10] = 1; // locator: string 1
        d[0x11] = 2; // bank locator: string 2
        d[0x12] = 0x1A; // DDR4
        d[0x15..0x17].copy_from_slice(&speed.to_le_bytes());
        d[0x1A] = 3; // part number: string 3
        d[0x1C..0x20].copy_from_slice(&ext_size.to_le_bytes());
        d[0x20..0x22].copy_from_slice(&configured.to_le_bytes());
        for s in strings {
            d.extend_from_slice(s.as_bytes());
            d.push(0);
        }
        if strings.is_empty() {
            d.push(0);
        }
        d.push(0);
        d
    }

    fn end_of_table() -> Vec<u8> {
        vec![127, 4, 0xFF, 0xFE, 0, 0]
    }

    #[test]
    fn populated_and_empty_slots() {
        let mut table = Vec::new();
        // A BIOS structure first (type 0, no strings) to be skipped.
        table.extend_from_slice(&[0, 4, 0, 0, 0, 0]);
        // 16 GiB (16384 MiB) DDR4-3200 in DIMM_A1. (32 GiB and more must use Extended Size:
        // 32768 in the WORD would set bit 15, the KiB flag.)
        table.extend(type17(
            16384,
            0,
            3200,
            3200,
            &["DIMM_A1", "P0 CHANNEL A", "M393A2K40DB3"],
        ));
        // Empty slot: size 0.
        table.extend(type17(0, 0, 0, 0, &["DIMM_A2", "P0 CHANNEL A", "NO DIMM"]));
        // 128 GiB through Extended Size (0x7FFF → 131072 MiB), 4800 MT/s running at 4400.
        table.extend(type17(
            0x7FFF,
            131_072,
            4800,
            4400,
            &["DIMM_B1", "P0 CHANNEL B"],
        ));
        table.extend(end_of_table());
        let d = parse_type17(&table);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].size_bytes, Some(16 << 30));
        assert_eq!(d[0].locator.as_deref(), Some("DIMM_A1"));
        assert_eq!(d[0].bank_locator.as_deref(), Some("P0 CHANNEL A"));
        assert_eq!(d[0].memory_type.as_deref(), Some("DDR4"));
        assert_eq!(d[0].form_factor.as_deref(), Some("DIMM"));
        assert_eq!(d[0].part_number.as_deref(), Some("M393A2K40DB3"));
        assert_eq!(d[0].data_width_bits, Some(64));
        assert_eq!(d[1].size_bytes, Some(128 << 30));
        assert_eq!(d[1].speed_mts, Some(4800));
        assert_eq!(d[1].configured_speed_mts, Some(4400));
        assert_eq!(d[1].part_number, None);
        // Two channels (A and B) from the bank locators.
        assert_eq!(crate::profile::infer_channels(&d).unwrap().count(), 2);
        // Three slots listed, two holding modules, over channels A and B.
        assert_eq!(
            type17_slots(&table),
            Some(super::super::dimm::Slots {
                total: 3,
                populated: 2,
                channels: Some(2)
            })
        );
        assert_eq!(d[0].registered, None, "Type Detail left 0");
    }

    #[test]
    fn identity_strings_for_the_platform() {
        // Built from DSP0134's layouts: type 1 (27 bytes) "Dell Inc." / "Precision 7865 Tower",
        // type 3 (21 bytes) chassis type 0x87 (Tower, 7, with the lock bit) and a placeholder
        // asset tag; a second type 1 is ignored.
        let mut t = vec![1, 27, 1, 0, 1, 2, 3, 0];
        t.resize(27, 0);
        t.extend_from_slice(b"Dell Inc.\0Precision 7865 Tower\0To Be Filled By O.E.M.\0\0");
        let mut c = vec![3, 21, 2, 0, 1, 0x87, 0, 0, 2];
        c.resize(21, 0);
        c.extend_from_slice(b"Dell Inc.\0Not Specified\0\0");
        t.extend(c);
        t.extend_from_slice(&[1, 8, 3, 0, 1, 0, 0, 0]);
        t.extend_from_slice(b"Other\0\0");
        t.extend(end_of_table());
        let ids = dmi_ids(&t);
        assert_eq!(ids.sys_vendor.as_deref(), Some("Dell Inc."));
        assert_eq!(ids.product_name.as_deref(), Some("Precision 7865 Tower"));
        assert_eq!(ids.product_version, None);
        assert_eq!(ids.chassis_type, Some(7));
        assert_eq!(ids.chassis_asset_tag, None);
        assert_eq!(dmi_ids(&[]), super::super::platform::DmiIds::default());
    }

    #[test]
    fn type_detail_bits() {
        // DSP0134 Table 77: 0x0080 Synchronous, 0x2000 Registered, 0x4000 Unbuffered.
        assert_eq!(type_detail_registered(0x0080 | 0x2000), Some(true));
        assert_eq!(type_detail_registered(0x0080 | 0x4000), Some(false));
        assert_eq!(type_detail_registered(0x8000), Some(true));
        assert_eq!(type_detail_registered(0x0080), None);
        assert_eq!(type17_slots(&[]), None);
    }

    #[test]
    fn kib_sizes_extended_speeds_and_truncated_tables() {
        // Bit 15 set: size in KiB (0x8000 | 512 = 512 KiB); speed 0xFFFF → Extended Speed.
        let s = type17(0x8000 | 512, 0, 0xFFFF, 0xFFFF, &["X"]);
        // An SMBIOS 3.3 structure (length 0x5C) carries Extended Speed and Extended
        // Configured Memory Speed as DWORDs at 0x54 and 0x58.
        let mut long = vec![0u8; 0x5C];
        long[..0x54].copy_from_slice(&s[..0x54]);
        long[1] = 0x5C;
        long[0x54..0x58].copy_from_slice(&8800u32.to_le_bytes());
        long[0x58..0x5C].copy_from_slice(&8000u32.to_le_bytes());
        long.extend_from_slice(b"X\0\0");
        let d = parse_type17(&long);
        assert_eq!(d[0].size_bytes, Some(512 << 10));
        assert_eq!(d[0].speed_mts, Some(8800));
        assert_eq!(d[0].configured_speed_mts, Some(8000));
        // A table cut in the middle of a structure yields what came before it.
        let mut t = type17(16384, 0, 3200, 3200, &["A"]);
        let whole = t.len();
        t.extend(type17(16384, 0, 3200, 3200, &["B"]));
        t.truncate(whole + 10);
        assert_eq!(parse_type17(&t).len(), 1);
        assert!(parse_type17(&[]).is_empty());
    }

    #[test]
    fn the_same_module_reads_the_same_as_dmidecode_prints_it() {
        // tests/fixtures/dmi/dmidecode-laptop-ddr4-1x16.txt describes one 16 GiB DDR4 SODIMM,
        // 3200 MT/s rated, 2666 configured, in ChannelA-DIMM0 / BANK 0.
        let mut s = type17(
            16384,
            0,
            3200,
            2666,
            &["ChannelA-DIMM0", "BANK 0", "M471A2K43DB1-CWE"],
        );
        s[0x0E] = 0x0D; // SODIMM
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/dmi/dmidecode-laptop-ddr4-1x16.txt"),
        )
        .unwrap();
        assert_eq!(parse_type17(&s), super::super::dimm::parse_dmidecode(&text));
    }
}
