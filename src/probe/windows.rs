//! Windows detection: the thin calls whose results the pure parsers in
//! [`super::windows_data`] check. Every call that fails leaves its values unknown with a note.
//!
//! - RAM: `GlobalMemoryStatusEx` (usable, available, commit limit and charge) and
//!   `GetPhysicallyInstalledSystemMemory` (installed, per the firmware).
//! - Memory modules: `GetSystemFirmwareTable('RSMB')`, through the SMBIOS parser Linux uses.
//! - Page files: the `PagingFiles` / `ExistingPageFiles` registry values and
//!   `NtQuerySystemInformation(SystemPageFileInformation)` (sizes and use).
//! - Disks: sysinfo (volumes, NTFS/ReFS, SSD or HDD from the seek-penalty query).
//! - GPUs: NVML (`nvml.dll`) as elsewhere, plus each NVIDIA GPU's driver model; every adapter's
//!   dedicated and shared memory from DXGI (`dxgi.dll`, loaded at run time).

use std::ffi::c_void;

use windows_sys::Win32::Foundation::{ERROR_SUCCESS, HMODULE};
use windows_sys::Win32::Storage::FileSystem::{
    GetDiskFreeSpaceExW, GetDriveTypeW, GetLogicalDriveStringsW, GetVolumeInformationW,
};
use windows_sys::Win32::System::LibraryLoader::{
    GetProcAddress, LOAD_LIBRARY_SEARCH_SYSTEM32, LoadLibraryExW,
};
use windows_sys::Win32::System::Registry::{
    HKEY_LOCAL_MACHINE, RRF_RT_REG_MULTI_SZ, RRF_RT_REG_SZ, RegGetValueW,
};
use windows_sys::Win32::System::SystemInformation::{
    GetPhysicallyInstalledSystemMemory, GetSystemFirmwareTable, GetSystemInfo,
    GlobalMemoryStatusEx, MEMORYSTATUSEX, SYSTEM_INFO,
};

use super::windows_data as data;
use crate::profile::{
    Disk, DiskKind, DriverModel, GpuDriverModel, GpuVendor, MachineProfile, Note, NoteId,
    WindowsMemory,
};

/// Largest SMBIOS table read (real ones are a few KiB; DSP0134 caps a 3.x table at 4 GiB).
const MAX_SMBIOS_BYTES: u32 = 16 << 20;
/// Largest `SystemPageFileInformation` buffer tried.
const MAX_PAGEFILE_INFO_BYTES: usize = 1 << 20;
/// Most DXGI adapters enumerated.
const MAX_ADAPTERS: u32 = 64;

const MEMORY_MANAGEMENT: &str =
    r"SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management";

fn wide(s: &str) -> Vec<u16> {
    s.encode_utf16().chain(std::iter::once(0)).collect()
}

fn unreadable(what: &str) -> Note {
    Note {
        id: NoteId::SourceUnreadable,
        detail: Some(what.into()),
    }
}

/// Fills memory, modules, page files, disks and Windows' own section. GPUs come later
/// (`probe::detect_with`); [`detect_windows_gpus`] adds their Windows side.
pub fn detect_windows(profile: &mut MachineProfile) {
    let mut w = WindowsMemory::default();
    let notes = &mut profile.notes;
    // SAFETY: MEMORYSTATUSEX is plain data; dwLength must be set before the call.
    let status = unsafe {
        let mut s: MEMORYSTATUSEX = std::mem::zeroed();
        s.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
        (GlobalMemoryStatusEx(&mut s) != 0).then_some(s)
    };
    match status {
        Some(s) => {
            let [total, avail, limit, used] = data::memory_status(data::MemoryStatus {
                total_phys: s.ullTotalPhys,
                avail_phys: s.ullAvailPhys,
                total_page_file: s.ullTotalPageFile,
                avail_page_file: s.ullAvailPageFile,
            });
            profile.memory.total_bytes = total;
            profile.memory.available_bytes = avail;
            w.commit_limit_bytes = limit;
            w.commit_used_bytes = used;
        }
        None => notes.push(unreadable("GlobalMemoryStatusEx")),
    }
    let mut kib = 0u64;
    // SAFETY: one out-parameter.
    if unsafe { GetPhysicallyInstalledSystemMemory(&mut kib) } != 0 {
        w.installed_ram_bytes = data::installed_kib_to_bytes(kib);
    } else {
        notes.push(unreadable("GetPhysicallyInstalledSystemMemory"));
    }
    match raw_smbios() {
        Some(buf) => match data::split_raw_smbios(&buf)
            .and_then(|(_, table)| data::smbios_memory(table, "GetSystemFirmwareTable('RSMB')"))
        {
            Ok((dimms, slots)) => {
                super::dimm::apply_dimms(&mut profile.memory, dimms);
                super::dimm::apply_slots(&mut profile.memory, slots);
                // The kind of machine from the same table (Linux reads /sys/class/dmi/id).
                if profile.host.platform.is_none() {
                    let ids = data::split_raw_smbios(&buf)
                        .map(|(_, t)| super::smbios::dmi_ids(t))
                        .unwrap_or_default();
                    profile.host.platform =
                        super::platform::classify(&ids, profile.cpu.model.as_deref());
                }
            }
            Err(note) => notes.push(note),
        },
        None => notes.push(unreadable("GetSystemFirmwareTable('RSMB')")),
    }
    w.page_files = page_files(notes);
    profile.memory.swap_total_bytes = w.page_file_total_bytes();
    profile.memory.swap_used_bytes = w.page_file_used_bytes();
    profile.windows = Some(w);
    match disks() {
        Some(d) => profile.disks = d,
        None => profile.notes.push(unreadable("volumes (sysinfo)")),
    }
}

fn raw_smbios() -> Option<Vec<u8>> {
    const RSMB: u32 = u32::from_be_bytes(*b"RSMB");
    // SAFETY: a null buffer of size 0 asks for the size; the second call writes at most `size`
    // bytes into a buffer of that size.
    unsafe {
        let size = GetSystemFirmwareTable(RSMB, 0, std::ptr::null_mut(), 0);
        if size == 0 || size > MAX_SMBIOS_BYTES {
            return None;
        }
        let mut buf = vec![0u8; size as usize];
        let got = GetSystemFirmwareTable(RSMB, 0, buf.as_mut_ptr(), size);
        (got > 0 && got <= size).then(|| {
            buf.truncate(got as usize);
            buf
        })
    }
}

/// A `REG_MULTI_SZ` value under Memory Management; `None` when absent or unreadable.
fn multi_sz(value: &str) -> Option<Vec<String>> {
    let (key, name) = (wide(MEMORY_MANAGEMENT), wide(value));
    let mut bytes = 0u32;
    // SAFETY: the first call asks for the size; the second writes at most `bytes` bytes into a
    // buffer of at least that many.
    unsafe {
        // REG_SZ too: one string is a list of one (Wine writes PagingFiles so).
        let flags = RRF_RT_REG_MULTI_SZ | RRF_RT_REG_SZ;
        let status = RegGetValueW(
            HKEY_LOCAL_MACHINE,
            key.as_ptr(),
            name.as_ptr(),
            flags,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut bytes,
        );
        if status != ERROR_SUCCESS || bytes as usize > data::MAX_REGISTRY_UNITS * 2 {
            return None;
        }
        let mut buf = vec![0u16; (bytes as usize).div_ceil(2) + 1];
        let mut len = (buf.len() * 2) as u32;
        let status = RegGetValueW(
            HKEY_LOCAL_MACHINE,
            key.as_ptr(),
            name.as_ptr(),
            flags,
            std::ptr::null_mut(),
            buf.as_mut_ptr().cast(),
            &mut len,
        );
        if status != ERROR_SUCCESS {
            return None;
        }
        buf.truncate((len as usize / 2).min(buf.len()));
        Some(data::split_multi_sz(&buf))
    }
}

type NtQuerySystemInformation = unsafe extern "system" fn(u32, *mut c_void, u32, *mut u32) -> i32;

/// The page files the kernel has in use (`SystemPageFileInformation`); `None` when ntdll
/// refuses.
fn pagefile_information() -> Option<Vec<data::PageFileUsage>> {
    const SYSTEM_PAGE_FILE_INFORMATION: u32 = 18;
    const STATUS_INFO_LENGTH_MISMATCH: i32 = 0xC000_0004_u32 as i32;
    let lib = Library::system32("ntdll.dll")?;
    let f = lib.symbol(c"NtQuerySystemInformation")?;
    // SAFETY: the symbol is ntdll's NtQuerySystemInformation, whose signature this is.
    let query: NtQuerySystemInformation = unsafe { std::mem::transmute(f) };
    let mut size = 4096usize;
    while size <= MAX_PAGEFILE_INFO_BYTES {
        let mut buf = vec![0u64; size / 8];
        let mut returned = 0u32;
        // SAFETY: the buffer holds `size` bytes, 8-aligned as the structure needs.
        let status = unsafe {
            query(
                SYSTEM_PAGE_FILE_INFORMATION,
                buf.as_mut_ptr().cast(),
                size as u32,
                &mut returned,
            )
        };
        if status == STATUS_INFO_LENGTH_MISMATCH {
            size *= 4;
            continue;
        }
        if status < 0 {
            return None;
        }
        let base = buf.as_ptr() as u64;
        // SAFETY: the u64 buffer viewed as its bytes.
        let bytes = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), buf.len() * 8) };
        let used = (returned as usize).min(bytes.len());
        return Some(data::parse_pagefile_information(&bytes[..used], base));
    }
    None
}

fn page_files(notes: &mut Vec<Note>) -> Option<Vec<crate::profile::PageFile>> {
    let settings = multi_sz("PagingFiles").map(|l| data::parse_paging_files(&l));
    let existing = multi_sz("ExistingPageFiles").map(|l| data::parse_existing_page_files(&l));
    let usage = pagefile_information();
    if usage.is_none() {
        notes.push(unreadable(
            "NtQuerySystemInformation(SystemPageFileInformation)",
        ));
    }
    // Without the kernel's list, the registry's list of files in use stands alone (sizes
    // unknown), else the configured files; without any of them, the page files are unknown.
    let configured: Option<Vec<String>> = (usage.is_none() && existing.is_none())
        .then(|| {
            settings
                .as_ref()
                .map(|s| s.iter().map(|s| s.path.clone()).collect())
        })
        .flatten();
    let existing = existing.or(configured);
    if usage.is_none() && existing.is_none() {
        return None;
    }
    // SAFETY: SYSTEM_INFO is plain data filled by the call.
    let page_size = unsafe {
        let mut si: SYSTEM_INFO = std::mem::zeroed();
        GetSystemInfo(&mut si);
        u64::from(si.dwPageSize).max(4096)
    };
    Some(data::page_files(
        settings.as_deref().unwrap_or(&[]),
        existing.as_deref().unwrap_or(&[]),
        usage.as_deref().unwrap_or(&[]),
        page_size,
    ))
}

/// The drive letters (`GetLogicalDriveStringsW`) that are fixed or network drives, with their
/// file system (`GetVolumeInformationW`), size and free space (`GetDiskFreeSpaceExW`); the kind
/// of a fixed drive from sysinfo's seek-penalty query of the same mount point. `None` when
/// Windows lists no drive.
fn disks() -> Option<Vec<Disk>> {
    let seek = sysinfo_disks().unwrap_or_default();
    let mut buf = vec![0u16; 4096];
    // SAFETY: the buffer holds `buf.len()` units; the call writes at most that many.
    let n = unsafe { GetLogicalDriveStringsW(buf.len() as u32, buf.as_mut_ptr()) } as usize;
    if n == 0 || n > buf.len() {
        return (!seek.is_empty()).then_some(seek);
    }
    let mut out = Vec::new();
    for root in data::split_multi_sz(&buf[..n]).into_iter().take(26) {
        let w = wide(&root);
        // SAFETY: NUL-terminated root path; out-parameters of the documented sizes.
        let (kind, fs, total, free) = unsafe {
            let found = seek
                .iter()
                .find(|d| d.mount_point.eq_ignore_ascii_case(&root))
                .map(|d| d.kind);
            let Some(kind) = data::drive_kind(GetDriveTypeW(w.as_ptr()), found) else {
                continue;
            };
            let mut fs = [0u16; 64];
            let fs_ok = GetVolumeInformationW(
                w.as_ptr(),
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                fs.as_mut_ptr(),
                fs.len() as u32,
            ) != 0;
            let (mut avail, mut total) = (0u64, 0u64);
            let space_ok =
                GetDiskFreeSpaceExW(w.as_ptr(), &mut avail, &mut total, std::ptr::null_mut()) != 0;
            let fs = fs_ok.then(|| {
                let end = fs.iter().position(|u| *u == 0).unwrap_or(fs.len());
                String::from_utf16_lossy(&fs[..end])
            });
            let space = (space_ok && total > 0 && avail <= total).then_some((total, avail));
            (kind, fs, space.map(|s| s.0), space.map(|s| s.1))
        };
        out.push(Disk {
            mount_point: root,
            file_system: fs.as_deref().and_then(data::clean_text),
            kind,
            device: None,
            total_bytes: total,
            available_bytes: free,
        });
    }
    (!out.is_empty()).then_some(out)
}

/// sysinfo's volumes, for the SSD/HDD kind of each mount point.
fn sysinfo_disks() -> Option<Vec<Disk>> {
    let list = sysinfo::Disks::new_with_refreshed_list().ok()?;
    let found = list
        .iter()
        .take(data::MAX_PAGE_FILES * 2)
        .filter_map(|d| {
            let mount_point = data::clean_text(&d.mount_point().to_string_lossy())?;
            let kind = match d.kind() {
                sysinfo::DiskKind::SSD => DiskKind::Ssd,
                sysinfo::DiskKind::HDD => DiskKind::Hdd,
                _ => DiskKind::Unknown,
            };
            Some(Disk {
                mount_point,
                file_system: data::clean_text(&d.file_system().to_string_lossy()),
                kind,
                device: data::clean_text(&d.name().to_string_lossy()),
                total_bytes: Some(d.total_space()).filter(|t| *t > 0),
                available_bytes: Some(d.available_space()).filter(|_| d.total_space() > 0),
            })
        })
        .collect();
    Some(found)
}

/// Adds what Windows knows of the GPUs found: each NVIDIA GPU's driver model (NVML), every
/// DXGI adapter, and the sysmem fallback policy (unknown, with a note naming the driver).
pub fn detect_windows_gpus(profile: &mut MachineProfile) {
    let Some(w) = profile.windows.as_mut() else {
        return;
    };
    if let Ok(nvml) = super::gpu::nvml::nvml() {
        for g in profile
            .gpus
            .iter()
            .filter(|g| g.vendor == GpuVendor::Nvidia)
        {
            let device = match &g.pci_bus_id {
                Some(bus) => nvml.device_by_pci_bus_id(bus.as_str()),
                None => nvml.device_by_index(g.index),
            };
            let model = device.and_then(|d| d.driver_model()).map(|s| s.current);
            if let Ok(m) = model {
                w.driver_models.push(GpuDriverModel {
                    gpu: g.index,
                    model: match m {
                        nvml_wrapper::enum_wrappers::device::DriverModel::WDDM => DriverModel::Wddm,
                        nvml_wrapper::enum_wrappers::device::DriverModel::WDM => DriverModel::Tcc,
                    },
                });
            }
        }
    }
    match dxgi_adapters() {
        Some(list) => {
            for (i, d) in list.iter().enumerate() {
                if let Some((a, notes)) = data::adapter(i, d) {
                    w.adapters.push(a);
                    profile.notes.extend(notes);
                }
            }
        }
        None => profile.notes.push(unreadable("DXGI: CreateDXGIFactory1")),
    }
    if let Some(g) = profile.gpus.iter().find(|g| g.vendor == GpuVendor::Nvidia) {
        profile.notes.push(Note {
            id: NoteId::SysmemFallbackUnknown,
            detail: g.driver_version.clone(),
        });
    }
}

/// A DLL loaded from System32 only (never the current folder). Never freed: ntdll is always
/// loaded, and DXGI may keep threads of its own.
struct Library(HMODULE);

impl Library {
    fn system32(name: &str) -> Option<Library> {
        let name = wide(name);
        // SAFETY: a NUL-terminated name; the search is restricted to System32.
        let h = unsafe {
            LoadLibraryExW(
                name.as_ptr(),
                std::ptr::null_mut(),
                LOAD_LIBRARY_SEARCH_SYSTEM32,
            )
        };
        (!h.is_null()).then_some(Library(h))
    }

    fn symbol(&self, name: &std::ffi::CStr) -> Option<unsafe extern "system" fn() -> isize> {
        // SAFETY: the module is loaded; the name is NUL-terminated.
        unsafe { GetProcAddress(self.0, name.as_ptr().cast()) }
    }
}

/// `IID_IDXGIFactory1` {770aae78-f26f-4dba-a829-253c83d1b387}.
#[repr(C)]
struct Guid(u32, u16, u16, [u8; 8]);
const IID_IDXGI_FACTORY1: Guid = Guid(
    0x770a_ae78,
    0xf26f,
    0x4dba,
    [0xa8, 0x29, 0x25, 0x3c, 0x83, 0xd1, 0xb3, 0x87],
);

/// `DXGI_ADAPTER_DESC1` (dxgi.h).
#[repr(C)]
struct DxgiAdapterDesc1 {
    description: [u16; 128],
    vendor_id: u32,
    device_id: u32,
    sub_sys_id: u32,
    revision: u32,
    dedicated_video_memory: usize,
    dedicated_system_memory: usize,
    shared_system_memory: usize,
    adapter_luid: (u32, i32),
    flags: u32,
}

type CreateFactory1 = unsafe extern "system" fn(*const Guid, *mut *mut c_void) -> i32;
type Release = unsafe extern "system" fn(*mut c_void) -> u32;
type EnumAdapters1 = unsafe extern "system" fn(*mut c_void, u32, *mut *mut c_void) -> i32;
type GetDesc1 = unsafe extern "system" fn(*mut c_void, *mut DxgiAdapterDesc1) -> i32;

/// Slot `n` of a COM object's vtable.
///
/// # Safety
/// `obj` must be a live COM interface pointer whose vtable has more than `n` entries.
unsafe fn vtable_slot(obj: *mut c_void, n: usize) -> *const c_void {
    // SAFETY: by the caller's contract; a COM object starts with its vtable pointer.
    unsafe { *(*(obj as *const *const *const c_void)).add(n) }
}

/// Every adapter's descriptor, through `IDXGIFactory1::EnumAdapters1` (vtable slot 12) and
/// `IDXGIAdapter1::GetDesc1` (slot 10), IUnknown's `Release` at slot 2; `None` when DXGI
/// can't be loaded or gives no factory.
fn dxgi_adapters() -> Option<Vec<data::AdapterDesc>> {
    let lib = Library::system32("dxgi.dll")?;
    let create = lib.symbol(c"CreateDXGIFactory1")?;
    // SAFETY: the symbol is dxgi's CreateDXGIFactory1; the vtable slots are those dxgi.h
    // declares for IDXGIFactory1 and IDXGIAdapter1; every object obtained is released once.
    unsafe {
        let create: CreateFactory1 = std::mem::transmute(create);
        let mut factory: *mut c_void = std::ptr::null_mut();
        if create(&IID_IDXGI_FACTORY1, &mut factory) < 0 || factory.is_null() {
            return None;
        }
        let enum_adapters: EnumAdapters1 = std::mem::transmute(vtable_slot(factory, 12));
        let release_factory: Release = std::mem::transmute(vtable_slot(factory, 2));
        let mut out = Vec::new();
        for i in 0..MAX_ADAPTERS {
            let mut adapter: *mut c_void = std::ptr::null_mut();
            if enum_adapters(factory, i, &mut adapter) < 0 || adapter.is_null() {
                break; // DXGI_ERROR_NOT_FOUND after the last one
            }
            let get_desc: GetDesc1 = std::mem::transmute(vtable_slot(adapter, 10));
            let release: Release = std::mem::transmute(vtable_slot(adapter, 2));
            let mut d: DxgiAdapterDesc1 = std::mem::zeroed();
            if get_desc(adapter, &mut d) >= 0 {
                out.push(data::AdapterDesc {
                    description: d.description.to_vec(),
                    vendor_id: d.vendor_id,
                    device_id: d.device_id,
                    dedicated_video: d.dedicated_video_memory as u64,
                    dedicated_system: d.dedicated_system_memory as u64,
                    shared_system: d.shared_system_memory as u64,
                    flags: d.flags,
                });
            }
            release(adapter);
        }
        release_factory(factory);
        Some(out)
    }
}
