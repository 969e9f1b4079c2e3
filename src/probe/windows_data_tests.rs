//! Tests of the Windows parsers on the byte fixtures in `tests/fixtures/windows/` (built by
//! `make_fixtures.py` from the documented layouts; see its README).

use super::*;
use crate::profile::{NoteId, PageFileSizing};

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/windows")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn utf16(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

#[test]
fn raw_smbios_reads_as_dmidecode_printed_the_same_machine() {
    let blob = fixture("rsmb-workstation-ddr4-4x32.bin");
    let (header, table) = split_raw_smbios(&blob).unwrap();
    // "SMBIOS 3.1.1 present." in the dmidecode text.
    assert_eq!((header.major, header.minor, header.dmi_revision), (3, 1, 1));
    assert_eq!(header.length as usize, blob.len() - 8);
    let (dimms, slots) = smbios_memory(table, "RSMB").unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/dmi/dmidecode-workstation-ddr4-4x32.txt"),
    )
    .unwrap();
    // The same modules and slots as dmidecode's text of that machine gives, through the
    // Linux parser of that text.
    assert_eq!(dimms, crate::probe::dimm::parse_dmidecode(&text));
    assert_eq!(slots, crate::probe::dimm::dmidecode_slots(&text));
    // And by hand from the text: four 32768 MB registered DDR4-3200 modules in eight slots.
    assert_eq!(dimms.len(), 4);
    assert!(dimms.iter().all(|d| d.size_bytes == Some(32 << 30)));
    assert_eq!(dimms[2].locator.as_deref(), Some("DIMM_C1"));
    assert_eq!(dimms[0].registered, Some(true));
    assert_eq!(slots.map(|s| (s.total, s.populated)), Some((8, 4)));
}

#[test]
fn truncated_or_lying_smbios_headers_are_notes() {
    let blob = fixture("rsmb-workstation-ddr4-4x32.bin");
    for cut in [0, 3, 7] {
        let note = split_raw_smbios(&blob[..cut]).unwrap_err();
        assert_eq!(note.id, NoteId::SourceMalformed);
    }
    // The copy is cut short of the length the header states.
    let note = split_raw_smbios(&blob[..blob.len() - 1]).unwrap_err();
    assert!(
        note.detail
            .unwrap()
            .contains("states 823 bytes, 822 follow")
    );
    // Length 0.
    let mut empty = blob[..8].to_vec();
    empty[4..8].copy_from_slice(&0u32.to_le_bytes());
    assert!(split_raw_smbios(&empty).is_err());
    // A length of 4 GiB on an 831-byte buffer: refused, nothing allocated.
    let mut huge = blob.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(split_raw_smbios(&huge).is_err());
    // A structure whose length runs past the table's end: the modules before it are kept.
    let (_, table) = split_raw_smbios(&blob).unwrap();
    let mut bad = table.to_vec();
    let end = bad.len();
    bad[end - 6] = 17; // the end-of-table structure becomes a type 17 …
    bad[end - 5] = 200; // … of 200 bytes in a 6-byte tail
    let (dimms, _) = smbios_memory(&bad, "RSMB").unwrap();
    assert_eq!(dimms.len(), 4);
}

#[test]
fn a_table_of_100000_memory_devices_is_refused_quickly() {
    // 10^5 minimal type 17 structures (4-byte header, no strings) then the end marker.
    let mut table = Vec::with_capacity(100_000 * 6 + 6);
    for i in 0..100_000u32 {
        table.extend_from_slice(&[17, 4]);
        table.extend_from_slice(&(i as u16).to_le_bytes());
        table.extend_from_slice(&[0, 0]);
    }
    table.extend_from_slice(&[127, 4, 0xFF, 0xFF, 0, 0]);
    let start = std::time::Instant::now();
    let note = smbios_memory(&table, "RSMB").unwrap_err();
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(note.id, NoteId::SourceMalformed);
    assert!(note.detail.unwrap().contains("100000 memory devices"));
}

#[test]
fn page_files_from_the_registry_and_the_kernel() {
    let settings = parse_paging_files(&split_multi_sz(&utf16(&fixture(
        "pagingfiles-c-managed-d-fixed.bin",
    ))));
    assert_eq!(settings.len(), 2);
    assert_eq!(settings[0].path, r"C:\pagefile.sys");
    assert_eq!(settings[0].sizing, PageFileSizing::SystemManaged);
    assert_eq!(settings[1].sizing, PageFileSizing::Fixed);
    // 4096 and 8192 MB.
    assert_eq!(settings[1].initial_bytes, Some(4096 << 20));
    assert_eq!(settings[1].maximum_bytes, Some(8192 << 20));
    let existing = parse_existing_page_files(&split_multi_sz(&utf16(&fixture(
        "existingpagefiles-c-d.bin",
    ))));
    assert_eq!(existing, [r"C:\pagefile.sys", r"D:\pagefile.sys"]);
    let usage =
        parse_pagefile_information(&fixture("pagefile-information-base-1f0000.bin"), 0x1F_0000);
    assert_eq!(usage.len(), 2);
    assert_eq!(usage[0].path, r"C:\pagefile.sys");
    // 2^20 pages of 4 KiB: 4 GiB, 2^18 in use: 1 GiB.
    let files = page_files(&settings, &existing, &usage, 4096);
    assert_eq!(files[0].size_bytes, Some(4 << 30));
    assert_eq!(files[0].used_bytes, Some(1 << 30));
    assert_eq!(files[0].peak_bytes, Some(3 << 29));
    assert_eq!(files[0].sizing, Some(PageFileSizing::SystemManaged));
    assert_eq!(files[1].used_bytes, Some(64 << 20));
    assert_eq!(files[1].maximum_bytes, Some(8 << 30));
}

#[test]
fn odd_page_file_settings() {
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // Automatic management for all drives, and "no paging file" (an empty value).
    let auto = parse_paging_files(&lines(&[r"?:\pagefile.sys"]));
    assert_eq!(auto[0].sizing, PageFileSizing::SystemManaged);
    assert!(parse_paging_files(&split_multi_sz(&[0, 0])).is_empty());
    // Garbage sizes and a third number are skipped, not guessed.
    assert!(parse_paging_files(&lines(&[r"C:\pagefile.sys x 1", r"C:\p 1 2 3"])).is_empty());
    // `?:` applies to the file Windows put on C:.
    let usage = [PageFileUsage {
        path: r"C:\pagefile.sys".into(),
        total_pages: 10,
        in_use_pages: 1,
        peak_pages: 2,
    }];
    let f = page_files(&auto, &[], &usage, 4096);
    assert_eq!(f[0].sizing, Some(PageFileSizing::SystemManaged));
    // A multi-string without its final NULs, and one past the unit cap.
    assert_eq!(
        split_multi_sz(&utf16(
            &"A\0B"
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<_>>()
        )),
        ["A", "B"]
    );
    let long = vec![u16::from(b'x'); MAX_REGISTRY_UNITS * 2];
    assert_eq!(split_multi_sz(&long)[0].len(), MAX_REGISTRY_UNITS);
}

#[test]
fn hostile_pagefile_buffers_end_the_list() {
    let good = fixture("pagefile-information-base-1f0000.bin");
    // A wrong base: the name pointers leave the buffer, so no entry has a name.
    assert!(parse_pagefile_information(&good, 0x10_0000_0000).is_empty());
    // NextEntryOffset pointing at itself (0 < 32 ends) or far away.
    let mut looped = good.clone();
    looped[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(parse_pagefile_information(&looped, 0x1F_0000).len(), 1);
    // In use above the size: dropped.
    let mut lying = good.clone();
    lying[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(parse_pagefile_information(&lying, 0x1F_0000).len(), 1);
    for cut in 0..good.len() {
        let _ = parse_pagefile_information(&good[..cut], 0x1F_0000);
    }
}

/// DXGI descriptors shaped like a desktop with an RTX 4070 and an Intel UHD 770 on 32 GiB
/// (constructed; `SharedSystemMemory` is half of the RAM Windows manages, as WDDM sets it).
fn desc(name: &str, vendor: u32, video: u64, system: u64, shared: u64, flags: u32) -> AdapterDesc {
    let mut description: Vec<u16> = name.encode_utf16().collect();
    description.resize(128, 0);
    AdapterDesc {
        description,
        vendor_id: vendor,
        device_id: 0x2786,
        dedicated_video: video,
        dedicated_system: system,
        shared_system: shared,
        flags,
    }
}

#[test]
fn dxgi_adapters_and_their_memory() {
    let shared = 16_999_993_344; // half of 33,999,986,688 bytes ullTotalPhys
    let (nv, notes) = adapter(
        0,
        &desc(
            "NVIDIA GeForce RTX 4070",
            0x10DE,
            12_878_610_432,
            0,
            shared,
            0,
        ),
    )
    .unwrap();
    assert!(notes.is_empty());
    assert_eq!(nv.name.as_deref(), Some("NVIDIA GeForce RTX 4070"));
    assert_eq!(nv.vendor_id, Some(0x10DE));
    assert_eq!(nv.dedicated_video_bytes, Some(12_878_610_432));
    assert_eq!(nv.dedicated_system_bytes, Some(0));
    assert_eq!(nv.shared_system_bytes, Some(shared));
    // The Microsoft Basic Render Driver is software: left out.
    assert!(
        adapter(
            2,
            &desc("Microsoft Basic Render Driver", 0x1414, 0, 0, shared, 2)
        )
        .is_none()
    );
}

#[test]
fn dxgi_zero_and_all_ones_sizes_are_unknown_with_a_note() {
    for bad in [0, u64::MAX, 1 << 63] {
        let (a, notes) = adapter(
            1,
            &desc("Intel(R) UHD Graphics 770", 0x8086, bad, 0, bad, 0),
        )
        .unwrap();
        assert_eq!(
            (a.dedicated_video_bytes, a.shared_system_bytes),
            (None, None)
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0]
                .detail
                .as_deref()
                .unwrap()
                .contains("DedicatedVideoMemory")
        );
    }
    // A description without its NUL and with control characters; a vendor id beyond 16 bits.
    let mut d = desc("", 0x1_0000, 1 << 30, 0, 1 << 30, 0);
    d.description = vec![u16::from(b'A'); 128];
    d.description[3] = 0x1B;
    d.description.extend([u16::from(b'Z'); 1000]);
    let (a, _) = adapter(0, &d).unwrap();
    assert_eq!(a.name.as_ref().map(String::len), Some(127));
    assert_eq!(a.vendor_id, None);
}

#[test]
fn memory_status_contradictions_are_unknown() {
    let s = MemoryStatus {
        total_phys: 33_999_986_688,
        avail_phys: 20 << 30,
        total_page_file: 38_294_953_984,
        avail_page_file: 18 << 30,
    };
    let [total, avail, limit, used] = memory_status(s);
    assert_eq!(total, Some(33_999_986_688));
    assert_eq!(avail, Some(20 << 30));
    assert_eq!(limit, Some(38_294_953_984));
    assert_eq!(used, Some(38_294_953_984 - (18 << 30)));
    let lying = MemoryStatus {
        total_phys: 8 << 30,
        avail_phys: 9 << 30,
        total_page_file: 4 << 30,
        avail_page_file: 5 << 30,
    };
    assert_eq!(memory_status(lying), [Some(8 << 30), None, None, None]);
    assert_eq!(
        memory_status(MemoryStatus::default()),
        [None, None, None, None]
    );
    assert_eq!(installed_kib_to_bytes(33_554_432), Some(32 << 30));
    assert_eq!(installed_kib_to_bytes(0), None);
    assert_eq!(installed_kib_to_bytes(u64::MAX), None);
}
