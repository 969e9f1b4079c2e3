//! Detection: the only code, with `bench/`, that touches the machine. It returns data, never
//! text; what it could not read becomes a [`Note`](crate::profile::Note).
//!
//! Parsers of `/proc` and `/sys` text are pure functions tested on captured files; the
//! functions that read the files are thin.

pub mod cgroup;
pub mod cgroup_cpu;
pub mod dimm;
pub mod disks;
pub mod edac;
pub mod gpu;
pub mod live;
pub mod meminfo;
pub mod mounts;
pub mod numa;
pub mod platform;
pub mod smbios;
pub mod statfs;
pub mod sysctl;
pub mod vm;
pub mod windows_data;
pub mod wsl;

#[cfg(windows)]
mod windows;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;

pub use cgroup::{cgroup_memory_limit, proc_cgroup_path};
pub use statfs::MOUNT_TIMEOUT;

use crate::profile::{Cpu, Host, MachineProfile};
use gpu::GpuSource;

/// Detects this machine with the platform's GPU sources.
pub fn detect() -> MachineProfile {
    detect_with(&gpu::SystemGpus)
}

/// Detects this machine, taking GPUs from `gpus` (tests pass a fake scenario).
pub fn detect_with(gpus: &dyn GpuSource) -> MachineProfile {
    let mut profile = MachineProfile::unknown();
    profile.generated_by = Some(format!("ramvram {}", env!("CARGO_PKG_VERSION")));
    profile.host = host();
    profile.cpu = cpu();
    profile.host.platform = platform::detect(profile.cpu.model.as_deref());
    // A hosted notebook (Colab, Kaggle) runs on a cloud VM, but what its user can change is the
    // runtime, not the instance: its environment says which.
    if crate::profile::hosted_notebook(|name| std::env::var(name).ok()) {
        let p = profile.host.platform.get_or_insert_with(Default::default);
        p.kind = Some(crate::profile::PlatformKind::HostedNotebook);
        p.provider = None;
        p.instance_type = None;
    }
    platform(&mut profile);
    let found = gpus.probe();
    profile.gpus = found.gpus;
    profile.notes.extend(found.notes);
    #[cfg(windows)]
    windows::detect_windows_gpus(&mut profile);
    profile
}

/// Memory available for new work right now, for sizing benchmark arrays: `MemAvailable`, or
/// this process's cgroup limit when that is lower (a container or Slurm job that allows less
/// would kill a benchmark sized for the whole machine).
pub fn detect_available_memory() -> Option<u64> {
    let available = sysinfo::System::new_with_specifics(
        sysinfo::RefreshKind::nothing().with_memory(sysinfo::MemoryRefreshKind::everything()),
    )
    .ok()
    .map(|s| s.available_memory())
    .filter(|v| *v > 0);
    match (available, cgroup_memory_limit(None)) {
        (Some(a), Some(l)) => Some(a.min(l)),
        (a, l) => a.or(l),
    }
}

fn host() -> Host {
    Host {
        hostname: sysinfo::System::host_name().ok(),
        os: sysinfo::System::long_os_version().ok(),
        kernel: sysinfo::System::kernel_version().ok(),
        arch: Some(std::env::consts::ARCH.to_string()),
        platform: None,
    }
}

fn cpu() -> Cpu {
    let system = sysinfo::System::new_with_specifics(
        sysinfo::RefreshKind::nothing().with_cpu(sysinfo::CpuRefreshKind::nothing()),
    )
    .ok();
    let model = system
        .as_ref()
        .and_then(|s| s.cpus().first().map(|c| c.brand().trim().to_string()))
        .filter(|b| !b.is_empty());
    let listed = system
        .as_ref()
        .map(|s| s.cpus().len() as u32)
        .filter(|n| *n > 0);
    Cpu {
        model,
        physical_cores: sysinfo::System::physical_core_count()
            .ok()
            .map(|n| n as u32)
            .filter(|n| *n > 0),
        logical_cpus: usable_cpus().or(listed),
    }
}

/// CPUs this process can use: the scheduler affinity mask (what `nproc` prints), capped by the
/// cgroup CPU quota ([`cgroup_cpu::usable_cpus`]).
#[cfg(target_os = "linux")]
fn usable_cpus() -> Option<u32> {
    // SAFETY: cpu_set_t is a plain bit set; sched_getaffinity fills it for this process (pid 0).
    let affinity = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0 {
            u32::try_from(libc::CPU_COUNT(&set)).ok().filter(|n| *n > 0)
        } else {
            None
        }
    };
    let read = |p: &std::path::Path| std::fs::read_to_string(p).ok();
    let quota = read(std::path::Path::new("/proc/self/cgroup")).and_then(|cg| {
        let mountinfo = read(std::path::Path::new("/proc/self/mountinfo")).unwrap_or_default();
        cgroup_cpu::cpu_quota(&cg, &mounts::parse_mountinfo(&mountinfo), &read)
    });
    cgroup_cpu::usable_cpus(affinity, quota)
}

#[cfg(not(target_os = "linux"))]
fn usable_cpus() -> Option<u32> {
    None
}

#[cfg(target_os = "linux")]
fn platform(profile: &mut MachineProfile) {
    linux::detect_linux(profile);
}

#[cfg(windows)]
fn platform(profile: &mut MachineProfile) {
    windows::detect_windows(profile);
}

#[cfg(target_os = "macos")]
fn platform(profile: &mut MachineProfile) {
    macos::detect_macos(profile);
}

/// Other systems (the BSDs): memory and swap from sysinfo; no cgroups, /dev/shm or disk kinds.
#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
fn platform(profile: &mut MachineProfile) {
    use crate::profile::{Note, NoteId};
    if let Ok(s) = sysinfo::System::new_with_specifics(
        sysinfo::RefreshKind::nothing().with_memory(sysinfo::MemoryRefreshKind::everything()),
    ) {
        let m = &mut profile.memory;
        m.total_bytes = Some(s.total_memory()).filter(|v| *v > 0);
        m.available_bytes = Some(s.available_memory()).filter(|v| *v > 0);
        m.swap_total_bytes = Some(s.total_swap());
        m.swap_used_bytes = Some(s.used_swap());
    }
    profile.notes.push(Note {
        id: NoteId::PlatformPartial,
        detail: Some(std::env::consts::OS.into()),
    });
}
