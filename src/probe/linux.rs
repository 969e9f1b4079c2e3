//! Linux detection: reads the files the pure parsers understand.

use std::path::Path;

use super::{cgroup, dimm, disks, edac, meminfo, mounts, numa, smbios, statfs, vm, wsl};
use crate::profile::{MachineProfile, Note, NoteId};

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Fills memory, kernel settings, /dev/shm and disks from /proc and /sys.
pub fn detect_linux(profile: &mut MachineProfile) {
    match read(Path::new("/proc/meminfo")) {
        Some(text) => {
            let m = meminfo::parse_meminfo(&text);
            profile.memory.total_bytes = m.total.filter(|v| *v > 0);
            profile.memory.available_bytes = m.available;
            profile.memory.swap_total_bytes = m.swap_total;
            profile.memory.swap_used_bytes = m.swap_used();
        }
        None => profile.notes.push(Note {
            id: NoteId::SourceUnreadable,
            detail: Some("/proc/meminfo".into()),
        }),
    }
    let mountinfo = read(Path::new("/proc/self/mountinfo")).unwrap_or_default();
    let mount_list = mounts::parse_mountinfo(&mountinfo);
    if let Some(cg) = read(Path::new("/proc/self/cgroup")) {
        profile.memory.limit_bytes = cgroup::memory_limit(&cg, &mount_list, &read);
    }
    profile.memory.numa_nodes = numa::read_nodes(Path::new("/sys/devices/system/node"));
    profile.memory.swappiness = read(Path::new("/proc/sys/vm/swappiness"))
        .as_deref()
        .and_then(vm::parse_swappiness);
    profile.memory.transparent_hugepages =
        read(Path::new("/sys/kernel/mm/transparent_hugepage/enabled"))
            .as_deref()
            .and_then(vm::parse_thp);
    // Only a real mount counts: without one, /dev/shm is a folder on the root file system.
    let shm_mounted = mount_list.iter().any(|m| m.mount_point == "/dev/shm");
    profile.memory.shm_bytes = match shm_mounted
        .then(|| statfs::statvfs_with_timeout(Path::new("/dev/shm"), super::MOUNT_TIMEOUT))
    {
        Some(statfs::StatOutcome::Space(s)) => Some(s.total),
        _ => None,
    };
    // Memory modules as systemd's udev stored them from SMBIOS (readable without root).
    if let Some(text) = read(Path::new("/run/udev/data/+dmi:id")) {
        dimm::apply_dimms(&mut profile.memory, dimm::parse_udev_dmi(&text));
        dimm::apply_slots(&mut profile.memory, dimm::udev_slots(&text));
    }
    // The raw SMBIOS table, readable by root only.
    if profile.memory.dimms.is_empty() {
        if let Ok(table) = std::fs::read("/sys/firmware/dmi/tables/DMI") {
            dimm::apply_dimms(&mut profile.memory, smbios::parse_type17(&table));
            dimm::apply_slots(&mut profile.memory, smbios::type17_slots(&table));
        }
    }
    // Windows Subsystem for Linux: the RAM Linux sees is WSL's cap.
    profile.memory.wsl = wsl::detect(profile.memory.total_bytes, &mut profile.notes);
    // ECC servers: the EDAC driver knows each module's channel (but not its speed).
    let edac_entries = edac::read_edac(Path::new("/sys/devices/system/edac/mc"));
    if profile.memory.dimms.is_empty() {
        dimm::apply_dimms(&mut profile.memory, edac::dimms(&edac_entries));
    }
    if profile.memory.channels_populated.is_none() {
        if let Some(n) = edac::channels(&edac_entries) {
            profile.memory.channels_populated = Some(n);
            profile.memory.channels_source = Some(crate::profile::Provenance::Estimated);
        }
    }
    let (disk_list, notes) =
        disks::list_disks(&mount_list, Path::new("/sys"), super::MOUNT_TIMEOUT);
    profile.disks = disk_list;
    profile.notes.extend(notes);
}
