//! Pure parsers of what Windows' APIs return, compiled and tested on every platform
//! (`probe/windows.rs` makes the calls, on Windows only). Every buffer, count and string here
//! came from the OS and may be garbage: a bad one becomes unknown with a note, never a panic.
//!
//! Sources: `GetSystemFirmwareTable` and `RawSMBIOSData` (Microsoft Learn, "GetSystemFirmwareTable
//! function"); `MEMORYSTATUSEX` and `GetPhysicallyInstalledSystemMemory` (Microsoft Learn);
//! the `PagingFiles` and `ExistingPageFiles` values under
//! `HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management` (Microsoft Learn,
//! "How to determine the appropriate page file size"); `SYSTEM_PAGEFILE_INFORMATION` (class 18
//! of `NtQuerySystemInformation`, as documented by Geoff Chappell's "SYSTEM_PAGEFILE_INFORMATION"
//! and used by Process Hacker); `DXGI_ADAPTER_DESC1` (Microsoft Learn).

use crate::profile::{Dimm, GraphicsAdapter, Note, NoteId, PageFile, PageFileSizing};

use super::dimm::Slots;

/// Most memory devices a profile may list (`memory.slots_total` is checked against it on
/// load): a table with more is garbage and its modules are left unknown.
pub const MAX_MEMORY_DEVICES: usize = 1024;

/// `RawSMBIOSData`'s header: the four version bytes and the table's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawSmbiosHeader {
    /// `Used20CallingMethod`.
    pub used_20_calling_method: u8,
    /// `SMBIOSMajorVersion`.
    pub major: u8,
    /// `SMBIOSMinorVersion`.
    pub minor: u8,
    /// `DmiRevision`.
    pub dmi_revision: u8,
    /// `Length` of `SMBIOSTableData`, bytes, as the header states it.
    pub length: u32,
}

/// Splits `GetSystemFirmwareTable('RSMB', 0, …)`'s buffer into its header and the structure
/// table (`SMBIOSTableData`), which is what `/sys/firmware/dmi/tables/DMI` holds on Linux.
///
/// # Errors
/// A note (`source-malformed`) when the buffer is shorter than the 8-byte header, when the
/// stated length is 0, or when it runs past the buffer (a truncated copy): then nothing is
/// taken from it.
pub fn split_raw_smbios(buf: &[u8]) -> Result<(RawSmbiosHeader, &[u8]), Note> {
    let bad = |why: String| Note {
        id: NoteId::SourceMalformed,
        detail: Some(format!("GetSystemFirmwareTable('RSMB'): {why}")),
    };
    let Some((head, table)) = buf.split_first_chunk::<8>() else {
        return Err(bad(format!("{} bytes, shorter than its header", buf.len())));
    };
    let header = RawSmbiosHeader {
        used_20_calling_method: head[0],
        major: head[1],
        minor: head[2],
        dmi_revision: head[3],
        length: u32::from_le_bytes([head[4], head[5], head[6], head[7]]),
    };
    let length = header.length as usize;
    if length == 0 {
        return Err(bad("an empty table".into()));
    }
    match table.get(..length) {
        Some(t) => Ok((header, t)),
        None => Err(bad(format!(
            "the header states {length} bytes, {} follow",
            table.len()
        ))),
    }
}

/// The memory modules and slots of an SMBIOS structure table, through the parser Linux uses
/// ([`super::smbios`]).
///
/// # Errors
/// A note (`source-malformed`) when the table lists more than [`MAX_MEMORY_DEVICES`] memory
/// devices: then neither modules nor slots are taken.
pub fn smbios_memory(table: &[u8], source: &str) -> Result<(Vec<Dimm>, Option<Slots>), Note> {
    let slots = super::smbios::type17_slots(table);
    if let Some(s) = slots.filter(|s| s.total as usize > MAX_MEMORY_DEVICES) {
        return Err(Note {
            id: NoteId::SourceMalformed,
            detail: Some(format!(
                "{source}: {} memory devices, more than a board has",
                s.total
            )),
        });
    }
    Ok((super::smbios::parse_type17(table), slots))
}

/// `GetPhysicallyInstalledSystemMemory`'s KiB as bytes; `None` for 0 or an overflow.
pub fn installed_kib_to_bytes(kib: u64) -> Option<u64> {
    kib.checked_mul(1024).filter(|b| *b > 0)
}

/// The fields of `MEMORYSTATUSEX` this program uses, bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryStatus {
    /// `ullTotalPhys`: RAM Windows manages.
    pub total_phys: u64,
    /// `ullAvailPhys`.
    pub avail_phys: u64,
    /// `ullTotalPageFile`: the commit limit (RAM + page files).
    pub total_page_file: u64,
    /// `ullAvailPageFile`: what may still be committed.
    pub avail_page_file: u64,
}

/// What `MEMORYSTATUSEX` says, checked: usable RAM, available RAM, commit limit and commit in
/// use. A value that contradicts another (available above total, a commit limit below RAM) is
/// left unknown.
pub fn memory_status(s: MemoryStatus) -> [Option<u64>; 4] {
    let total = Some(s.total_phys).filter(|t| *t > 0);
    let avail = total.and(Some(s.avail_phys)).filter(|a| *a <= s.total_phys);
    let limit = Some(s.total_page_file).filter(|l| *l > 0 && total.is_none_or(|t| *l >= t));
    let used = limit
        .filter(|l| s.avail_page_file <= *l)
        .map(|l| l - s.avail_page_file);
    [total, avail, limit, used]
}

/// One line of the `PagingFiles` registry value: a path, then the initial and maximum size in
/// MB (`0 0`, or no sizes, for a system-managed file). `?:\pagefile.sys` means "on whichever
/// drive Windows picks" (automatic management for all drives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PagingFileSetting {
    /// The path as written.
    pub path: String,
    /// System-managed or fixed.
    pub sizing: PageFileSizing,
    /// Initial size, bytes (fixed only).
    pub initial_bytes: Option<u64>,
    /// Maximum size, bytes (fixed only).
    pub maximum_bytes: Option<u64>,
}

/// Most page-file entries read from one registry value or one information buffer (Windows
/// allows one per volume).
pub const MAX_PAGE_FILES: usize = 26;

/// Most UTF-16 units read from one registry value (64 KiB): a longer value is cut there.
pub const MAX_REGISTRY_UNITS: usize = 32 * 1024;

/// Splits a `REG_MULTI_SZ` value (UTF-16 strings, each ended by NUL, the list by one more NUL)
/// into its strings. A value without the final NULs (the registry does not enforce them) ends
/// where the data ends; at most [`MAX_REGISTRY_UNITS`] units are read.
pub fn split_multi_sz(units: &[u16]) -> Vec<String> {
    let units = &units[..units.len().min(MAX_REGISTRY_UNITS)];
    let mut out = Vec::new();
    for part in units.split(|u| *u == 0) {
        if part.is_empty() {
            break;
        }
        out.push(String::from_utf16_lossy(part));
    }
    out
}

/// Parses `PagingFiles` (`REG_MULTI_SZ`, one string per file). Empty strings (an empty value
/// means "no paging file") and lines that don't parse are skipped; at most
/// [`MAX_PAGE_FILES`].
pub fn parse_paging_files(lines: &[String]) -> Vec<PagingFileSetting> {
    let mb = |s: &str| s.parse::<u64>().ok().and_then(|v| v.checked_mul(1 << 20));
    lines
        .iter()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let path = clean_text(parts.next()?)?;
            let sizes: Vec<&str> = parts.collect();
            let (sizing, initial, maximum) = match sizes.as_slice() {
                [] | ["0", "0"] => (PageFileSizing::SystemManaged, None, None),
                [a, b] => (PageFileSizing::Fixed, Some(mb(a)?), Some(mb(b)?)),
                _ => return None,
            };
            Some(PagingFileSetting {
                path,
                sizing,
                initial_bytes: initial,
                maximum_bytes: maximum,
            })
        })
        .take(MAX_PAGE_FILES)
        .collect()
}

/// Parses `ExistingPageFiles` (`REG_MULTI_SZ` of NT paths, `\??\C:\pagefile.sys`): the files
/// in use since boot, as DOS paths.
pub fn parse_existing_page_files(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| clean_text(nt_to_dos(l.trim())))
        .take(MAX_PAGE_FILES)
        .collect()
}

fn nt_to_dos(path: &str) -> &str {
    path.strip_prefix(r"\??\")
        .or_else(|| path.strip_prefix(r"\DosDevices\"))
        .unwrap_or(path)
}

/// One entry of `NtQuerySystemInformation(SystemPageFileInformation)`: sizes in pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageFileUsage {
    /// The file's path (NT form turned into a DOS path).
    pub path: String,
    /// `TotalSize`, pages.
    pub total_pages: u32,
    /// `TotalInUse`, pages.
    pub in_use_pages: u32,
    /// `PeakUsage`, pages.
    pub peak_pages: u32,
}

/// Size of one `SYSTEM_PAGEFILE_INFORMATION` on 64-bit Windows: four ULONGs, then a
/// `UNICODE_STRING` (two USHORTs, 4 bytes of padding, a pointer).
pub const PAGEFILE_ENTRY_BYTES: usize = 32;

/// Parses the `SystemPageFileInformation` buffer of a 64-bit process. `base` is the address
/// the buffer was at: each entry's name is a pointer into it, turned back into an offset and
/// checked. Entries chain by `NextEntryOffset` (0 ends the list); a chain that goes backwards,
/// leaves the buffer or runs past [`MAX_PAGE_FILES`] ends the list there.
pub fn parse_pagefile_information(buf: &[u8], base: u64) -> Vec<PageFileUsage> {
    let u32_at = |o: usize| {
        buf.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut out = Vec::new();
    let mut pos = 0usize;
    while out.len() < MAX_PAGE_FILES {
        let Some(entry) = buf.get(pos..pos + PAGEFILE_ENTRY_BYTES) else {
            break;
        };
        let next = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) as usize;
        let (total, in_use, peak) = (
            u32_at(pos + 4).unwrap_or(0),
            u32_at(pos + 8).unwrap_or(0),
            u32_at(pos + 12).unwrap_or(0),
        );
        let name_len = usize::from(u16::from_le_bytes([entry[16], entry[17]]));
        let mut ptr = [0u8; 8];
        ptr.copy_from_slice(&entry[24..32]);
        let name = u64::from_le_bytes(ptr)
            .checked_sub(base)
            .and_then(|off| usize::try_from(off).ok())
            .and_then(|off| buf.get(off..off.checked_add(name_len)?))
            .map(|bytes| {
                let units: Vec<u16> = bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect();
                String::from_utf16_lossy(&units)
            });
        if let Some(path) = name.as_deref().and_then(|n| clean_text(nt_to_dos(n))) {
            if in_use <= total {
                out.push(PageFileUsage {
                    path,
                    total_pages: total,
                    in_use_pages: in_use,
                    peak_pages: peak,
                });
            }
        }
        if next < PAGEFILE_ENTRY_BYTES {
            break;
        }
        match pos.checked_add(next) {
            Some(p) => pos = p,
            None => break,
        }
    }
    out
}

/// The page files: every file in use (`usage`, else `existing`) with its configured sizing
/// when `settings` names it (a `?:\` setting applies to every file), sizes from `usage` in
/// pages of `page_size` bytes. Files configured but not in use are left out.
pub fn page_files(
    settings: &[PagingFileSetting],
    existing: &[String],
    usage: &[PageFileUsage],
    page_size: u64,
) -> Vec<PageFile> {
    let same = |a: &str, b: &str| {
        a.eq_ignore_ascii_case(b)
            || (a.starts_with("?:")
                && a.get(1..)
                    .zip(b.get(1..))
                    .is_some_and(|(x, y)| x.eq_ignore_ascii_case(y)))
    };
    let mut paths: Vec<String> = usage.iter().map(|u| u.path.clone()).collect();
    for e in existing {
        if !paths.iter().any(|p| p.eq_ignore_ascii_case(e)) {
            paths.push(e.clone());
        }
    }
    let pages = |n: u32| u64::from(n).checked_mul(page_size);
    paths
        .into_iter()
        .take(MAX_PAGE_FILES)
        .map(|path| {
            let setting = settings.iter().find(|s| same(&s.path, &path));
            let use_ = usage.iter().find(|u| u.path.eq_ignore_ascii_case(&path));
            PageFile {
                sizing: setting.map(|s| s.sizing),
                initial_bytes: setting.and_then(|s| s.initial_bytes),
                maximum_bytes: setting.and_then(|s| s.maximum_bytes),
                size_bytes: use_.and_then(|u| pages(u.total_pages)),
                used_bytes: use_.and_then(|u| pages(u.in_use_pages)),
                peak_bytes: use_.and_then(|u| pages(u.peak_pages)),
                path,
            }
        })
        .collect()
}

/// A `DXGI_ADAPTER_DESC1` as plain numbers (the COM call copies it out; `probe/windows.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterDesc {
    /// `Description`, UTF-16, NUL-terminated within its 128 units (or not, when garbage).
    pub description: Vec<u16>,
    /// `VendorId`.
    pub vendor_id: u32,
    /// `DeviceId`.
    pub device_id: u32,
    /// `DedicatedVideoMemory` (a `SIZE_T`).
    pub dedicated_video: u64,
    /// `DedicatedSystemMemory`.
    pub dedicated_system: u64,
    /// `SharedSystemMemory`.
    pub shared_system: u64,
    /// `Flags` (`DXGI_ADAPTER_FLAG_SOFTWARE` = 2).
    pub flags: u32,
}

/// `DXGI_ADAPTER_FLAG_SOFTWARE`: the Microsoft Basic Render Driver (WARP), not a GPU.
pub const DXGI_ADAPTER_FLAG_SOFTWARE: u32 = 2;

/// Largest memory size believed from DXGI: [`crate::profile::MAX_RAM_BYTES`] (a `SIZE_T` of
/// `2^64 − 1` is a driver's "unknown", not memory).
pub const MAX_ADAPTER_BYTES: u64 = crate::profile::MAX_RAM_BYTES;

/// Turns DXGI's descriptor of adapter `position` into a profile adapter: `None` for the
/// software adapter. A memory size of 0 (for dedicated video memory) or beyond
/// [`MAX_ADAPTER_BYTES`] is unknown, with a note naming the field and the value.
pub fn adapter(position: usize, d: &AdapterDesc) -> Option<(GraphicsAdapter, Vec<Note>)> {
    if d.flags & DXGI_ADAPTER_FLAG_SOFTWARE != 0 {
        return None;
    }
    let units: Vec<u16> = d
        .description
        .iter()
        .take(128)
        .copied()
        .take_while(|u| *u != 0)
        .collect();
    let name = clean_text(&String::from_utf16_lossy(&units));
    let mut notes = Vec::new();
    let mut size = |field: &str, v: u64, zero_ok: bool| {
        if (v == 0 && !zero_ok) || v > MAX_ADAPTER_BYTES {
            notes.push(Note {
                id: NoteId::SourceMalformed,
                detail: Some(format!(
                    "DXGI adapter {position} ({}): {field} = {v}",
                    name.as_deref().unwrap_or("?")
                )),
            });
            None
        } else {
            Some(v)
        }
    };
    let dedicated_video_bytes = size("DedicatedVideoMemory", d.dedicated_video, false);
    let dedicated_system_bytes = size("DedicatedSystemMemory", d.dedicated_system, true);
    let shared_system_bytes = size("SharedSystemMemory", d.shared_system, false);
    Some((
        GraphicsAdapter {
            name,
            vendor_id: Some(d.vendor_id).filter(|v| *v != 0 && *v <= 0xFFFF),
            device_id: Some(d.device_id).filter(|v| *v != 0 && *v <= 0xFFFF),
            dedicated_video_bytes,
            dedicated_system_bytes,
            shared_system_bytes,
        },
        notes,
    ))
}

/// `GetDriveTypeW`'s `DRIVE_FIXED` (winbase.h).
pub const DRIVE_FIXED: u32 = 3;
/// `GetDriveTypeW`'s `DRIVE_REMOTE` (winbase.h).
pub const DRIVE_REMOTE: u32 = 4;

/// What a drive letter is stored on: a network share for `DRIVE_REMOTE`; for a fixed drive the
/// kind sysinfo told from the seek-penalty query (SSD or HDD), else unknown. `None` for drives
/// that can't hold a dataset for training (removable, optical, RAM disks, unknown types).
pub fn drive_kind(
    drive_type: u32,
    seek_kind: Option<crate::profile::DiskKind>,
) -> Option<crate::profile::DiskKind> {
    use crate::profile::DiskKind;
    match drive_type {
        DRIVE_REMOTE => Some(DiskKind::Network),
        DRIVE_FIXED => Some(seek_kind.unwrap_or(DiskKind::Unknown)),
        _ => None,
    }
}

/// A string from the OS with control characters removed and spaces trimmed, at most
/// [`crate::profile::MAX_WINDOWS_TEXT_CHARS`] characters; `None` when nothing is left.
pub fn clean_text(s: &str) -> Option<String> {
    let t: String = s
        .chars()
        .filter(|c| !c.is_control())
        .take(crate::profile::MAX_WINDOWS_TEXT_CHARS)
        .collect();
    let t = t.trim();
    (!t.is_empty()).then(|| t.to_string())
}

#[cfg(test)]
#[path = "windows_data_tests.rs"]
mod tests;
