//! The machine profile: what detection found, in a versioned JSON format (`docs/profile.md`).
//!
//! Everything is in bytes (`u64`) and plain counts. A value that was not detected is `None`
//! and serialises as `null`, never `0`: "unknown is not zero".

mod channels;
pub mod dir;
mod gpu_process;
mod gpu_status;
mod io;
pub mod json;
pub mod limits;
mod macos;
mod measurements;
mod os;
mod platform;
mod problem;
mod provenance;
pub mod redact;
mod redact_shapes;
pub mod strings;
mod validate;
mod validate_pools;
mod windows;

pub use channels::{ChannelLayout, infer_channels};
pub use gpu_process::{GpuProcess, MAX_GPU_PROCESSES};
pub use gpu_status::{FieldStatus, GpuStatus};
pub use io::{
    LoadedProfile, ParseProblem, ProfileError, load_profile, parse_document, parse_profile,
    save_profile,
};
pub use limits::{MAX_RAM_BYTES, MAX_VRAM_BYTES};
pub use macos::{CoreLevel, MacOs, MemoryPressure};
pub use measurements::{Dimm, Measurements, MemoryBandwidth, StorageBandwidth};
pub use os::{OsFamily, StartMethod, is_windows, os_family, start_method};
pub use platform::{
    CloudProvider, MAX_INSTANCE_TYPE_CHARS, Platform, PlatformKind, Wsl, WslConfigState,
    hosted_notebook,
};
pub use problem::Problem;
pub use provenance::Provenance;
pub use windows::{
    DriverModel, GpuDriverModel, GraphicsAdapter, MAX_WINDOWS_ITEMS, MAX_WINDOWS_TEXT_CHARS,
    PageFile, PageFileSizing, SysmemFallback, WindowsMemory,
};

use serde::{Deserialize, Serialize};

/// The profile format written by this version. Readers accept this version and older ones;
/// see `docs/profile.md` for the history.
pub const SCHEMA_VERSION: u32 = 1;

/// One machine: detected here, loaded from another machine's `ramvram detect --json`, or written
/// by hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineProfile {
    /// Format version of this document ([`SCHEMA_VERSION`] when written by this build).
    pub schema_version: u32,
    /// The program that wrote the profile, e.g. `"ramvram 0.1.0"`, or a note for fixtures.
    #[serde(default)]
    pub generated_by: Option<String>,
    /// Host identity.
    pub host: Host,
    /// Processor.
    pub cpu: Cpu,
    /// System memory, swap and kernel memory settings.
    pub memory: Memory,
    /// Every GPU found, in index order. Empty when none was found.
    #[serde(default)]
    pub gpus: Vec<Gpu>,
    /// Mounted file systems that can hold a dataset (pseudo file systems are left out).
    #[serde(default)]
    pub disks: Vec<Disk>,
    /// What detection could not do, and why (NVML missing, a mount that timed out, …).
    #[serde(default)]
    pub notes: Vec<Note>,
    /// What the benchmarks measured (left out of the JSON while empty).
    #[serde(default, skip_serializing_if = "Measurements::is_empty")]
    pub measurements: Measurements,
    /// Windows' own view of memory, page files and graphics adapters, in a profile detected on
    /// Windows (left out of the JSON elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub windows: Option<WindowsMemory>,
    /// A Mac's own figures (`sysctl`); only in profiles detected on macOS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub macos: Option<MacOs>,
    /// True only for the machine ramvram is running on, detected just now (`advise` without
    /// `--profile`): then a GPU's memory in use and the processes holding it are today's, and an
    /// inference plan is judged against the free memory. Written to JSON when true (an
    /// assessment says so) but never read from a file: a saved profile is a record, judged by
    /// its nominal totals.
    #[serde(skip_deserializing, skip_serializing_if = "std::ops::Not::not")]
    pub live: bool,
}

/// Host identity; every field may be unknown.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// Host name as the OS reports it.
    pub hostname: Option<String>,
    /// Operating system name and version, e.g. `"Debian GNU/Linux 12 (bookworm)"`.
    pub os: Option<String>,
    /// Kernel version, e.g. `"6.1.0-18-amd64"`.
    pub kernel: Option<String>,
    /// CPU architecture as Rust names it: `x86_64`, `aarch64`.
    pub arch: Option<String>,
    /// What kind of machine this is (desktop, laptop, server, cloud instance, …); `None` when
    /// it could not be told.
    #[serde(default)]
    pub platform: Option<Platform>,
}

/// The processor(s).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cpu {
    /// Model name, e.g. `"AMD EPYC 7742 64-Core Processor"`.
    pub model: Option<String>,
    /// Physical cores over all sockets.
    pub physical_cores: Option<u32>,
    /// Logical CPUs (hardware threads) this process may use: its affinity mask, capped by its
    /// cgroup's CPU quota (a container's `--cpus`, a Slurm job's cpuset).
    pub logical_cpus: Option<u32>,
}

/// System memory. Sizes in bytes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// RAM the OS manages (`MemTotal` in `/proc/meminfo`): what is installed less what the
    /// firmware and the kernel reserve, typically 1–5 % below the installed size.
    pub total_bytes: Option<u64>,
    /// RAM installed, when typed by the user or known from the vendor (a cloud instance's
    /// published size, a planned machine). Detection leaves it `null`: the modules in
    /// [`Memory::dimms`] give the installed size when SMBIOS could be read, and the advisor
    /// estimates it from `MemTotal` otherwise (`advisor::capacity::installed_ram`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub installed_bytes: Option<u64>,
    /// Memory available for new work without swapping (`MemAvailable`).
    pub available_bytes: Option<u64>,
    /// Swap space configured.
    pub swap_total_bytes: Option<u64>,
    /// Swap space in use.
    pub swap_used_bytes: Option<u64>,
    /// Memory limit of the cgroup this process runs in (container, Slurm job, systemd slice);
    /// `None` when there is no limit or it could not be read.
    pub limit_bytes: Option<u64>,
    /// NUMA nodes (`/sys/devices/system/node/node*/meminfo`); empty when unread.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numa_nodes: Vec<NumaNode>,
    /// The NUMA node this job's memory is bound to (`numactl -m NODE`, a Slurm job's
    /// `--mem-bind`): only that node's RAM is its to use. `None`: not bound (or not known);
    /// entered with `advise --numa-bind NODE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub numa_bind: Option<u32>,
    /// `vm.swappiness` (0–200).
    pub swappiness: Option<u32>,
    /// Transparent huge pages mode.
    pub transparent_hugepages: Option<ThpMode>,
    /// Size of the `/dev/shm` tmpfs, which DataLoader workers use to hand batches to the main
    /// process.
    pub shm_bytes: Option<u64>,
    /// Memory modules, one per populated slot (empty when they could not be read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dimms: Vec<Dimm>,
    /// Memory channels with at least one module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels_populated: Option<u32>,
    /// Where `channels_populated` came from (`estimated` when inferred from slot names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels_source: Option<Provenance>,
    /// Memory type for the whole machine when entered by hand (`"DDR4"`); else the modules'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_type: Option<String>,
    /// Transfer rate in MT/s when entered by hand; else the modules' configured speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mts: Option<u32>,
    /// Theoretical peak bandwidth in bytes/s when given directly (a vendor's figure, e.g.
    /// unified-memory machines); else the advisor computes channels × MT/s × 8 bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theoretical_bandwidth_bytes_per_s: Option<f64>,
    /// Where `theoretical_bandwidth_bytes_per_s` (or the type/speed above) came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theoretical_bandwidth_source: Option<Provenance>,
    /// Memory slots on the board (SMBIOS memory devices, populated or empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots_total: Option<u32>,
    /// Slots holding a module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots_populated: Option<u32>,
    /// Memory channels the slots belong to, inferred from every slot's name (estimated, like
    /// `channels_populated`); `None` when a slot name has no channel in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels_total: Option<u32>,
    /// Windows Subsystem for Linux, when the profile comes from inside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wsl: Option<Wsl>,
}

/// One NUMA node's memory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumaNode {
    /// Node number.
    pub id: u32,
    /// `MemTotal`, bytes.
    pub total_bytes: Option<u64>,
}

/// `/sys/kernel/mm/transparent_hugepage/enabled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThpMode {
    /// Huge pages for every eligible mapping.
    Always,
    /// Only for mappings that ask with `madvise(MADV_HUGEPAGE)`.
    Madvise,
    /// Disabled.
    Never,
}

/// GPU vendor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GpuVendor {
    /// NVIDIA.
    Nvidia,
    /// AMD.
    Amd,
    /// Intel.
    Intel,
    /// Apple (Apple Silicon integrated GPU).
    Apple,
    /// Anything else.
    Other,
}

/// One GPU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gpu {
    /// Index as the vendor's tools number it (`nvidia-smi`'s index for NVIDIA).
    pub index: u32,
    /// Vendor.
    pub vendor: GpuVendor,
    /// Marketing name, e.g. `"NVIDIA H100 80GB HBM3"`.
    pub name: Option<String>,
    /// Dedicated memory in bytes. `None` when unknown or when the GPU has none of its own.
    pub vram_total_bytes: Option<u64>,
    /// Dedicated memory in use, bytes.
    pub vram_used_bytes: Option<u64>,
    /// True when the GPU shares system RAM instead of having its own (Apple Silicon, NVIDIA GB10
    /// / DGX Spark): then RAM and "VRAM" are one pool. Set only from a positive signal (a part
    /// known to be unified), never because the memory size could not be read.
    #[serde(default)]
    pub unified_memory: bool,
    /// An APU's BIOS carve-out, bytes: amdgpu's `mem_info_vram_total` on a GPU with unified memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carveout_bytes: Option<u64>,
    /// System RAM the GPU may map through the GTT, bytes: amdgpu's `mem_info_gtt_total` (bounded by `ttm.pages_limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gtt_bytes: Option<u64>,
    /// PCIe link, when the GPU sits on PCIe and the link could be read.
    #[serde(default)]
    pub pcie: Option<PcieLink>,
    /// Driver version, e.g. `"550.54.15"`.
    #[serde(default)]
    pub driver_version: Option<String>,
    /// GPU utilisation in percent at detection time (NVML's sample), used to tell an idle link
    /// from a degraded one.
    #[serde(default)]
    pub utilization_percent: Option<u32>,
    /// PCI bus id, e.g. `"00000000:17:00.0"`.
    #[serde(default)]
    pub pci_bus_id: Option<String>,
    /// Vendor UUID (removed by report redaction).
    #[serde(default)]
    pub uuid: Option<String>,
    /// PCIe traffic from the GPU to the host at detection time, bytes/s (NVML's 20 ms
    /// throughput counter); `None` when not available.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcie_tx_bytes_per_s: Option<f64>,
    /// PCIe traffic from the host to the GPU at detection time, bytes/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcie_rx_bytes_per_s: Option<f64>,
    /// How each driver reading went (value, unsupported, error), for GPUs read through NVML;
    /// left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "GpuStatus::is_empty")]
    pub status: GpuStatus,
    /// Processes holding memory on this GPU at detection time (NVML's compute processes, at
    /// most [`MAX_GPU_PROCESSES`]): `Some(vec![])` when the driver listed none, `None` when
    /// the list could not be read (never taken as "none"). Left out of the JSON when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processes: Option<Vec<GpuProcess>>,
}

impl Gpu {
    /// GPU 0 of an unknown vendor with nothing known: what every other constructor and
    /// literal starts from (`Gpu { vram_total_bytes: …, ..Gpu::unknown() }`), so a new field
    /// is written once. Its memory, link, driver and processes are all unknown (`None`), not
    /// zero.
    pub fn unknown() -> Gpu {
        Gpu {
            index: 0,
            vendor: GpuVendor::Other,
            name: None,
            vram_total_bytes: None,
            vram_used_bytes: None,
            unified_memory: false,
            carveout_bytes: None,
            gtt_bytes: None,
            pcie: None,
            driver_version: None,
            utilization_percent: None,
            pci_bus_id: None,
            uuid: None,
            pcie_tx_bytes_per_s: None,
            pcie_rx_bytes_per_s: None,
            status: GpuStatus::default(),
            processes: None,
        }
    }

    /// An integrated GPU with no memory of its own (Apple Silicon, a Jetson): GPU 0 of
    /// `vendor`, named `name`, sharing system RAM, with nothing else known.
    pub fn integrated(vendor: GpuVendor, name: Option<String>) -> Gpu {
        Gpu {
            index: 0,
            vendor,
            name,
            unified_memory: true,
            ..Gpu::unknown()
        }
    }
}

/// A PCIe link. Generations 1–6; widths are lane counts (1, 2, 4, 8, 16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcieLink {
    /// Generation the link runs at now (GPUs drop it when idle to save power).
    pub gen_current: Option<u32>,
    /// Highest generation this GPU and slot can reach together.
    pub gen_max: Option<u32>,
    /// Highest generation the GPU itself supports (NVML `nvmlDeviceGetGpuMaxPcieLinkGeneration`);
    /// above `gen_max` when the slot or a riser holds it back.
    #[serde(default)]
    pub gen_gpu_max: Option<u32>,
    /// Lanes in use now.
    pub width_current: Option<u32>,
    /// Highest lane count this GPU and slot can reach together.
    pub width_max: Option<u32>,
}

/// What a mount is stored on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DiskKind {
    /// NVMe SSD.
    Nvme,
    /// SATA/SAS SSD (non-rotational, not NVMe).
    Ssd,
    /// Rotating disk.
    Hdd,
    /// Network or cluster file system (NFS, SMB, Lustre, GPFS, BeeGFS, CephFS, …).
    Network,
    /// Could not be told (virtual disks, overlay roots, unknown drivers).
    Unknown,
}

/// A mounted file system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Disk {
    /// Where it is mounted.
    pub mount_point: String,
    /// File system type as the kernel names it (`ext4`, `nfs4`, …).
    pub file_system: Option<String>,
    /// What it is stored on.
    pub kind: DiskKind,
    /// Block device or remote source, e.g. `/dev/nvme0n1p2`, `server:/export`.
    #[serde(default)]
    pub device: Option<String>,
    /// Size in bytes (`None` when the mount did not answer in time).
    pub total_bytes: Option<u64>,
    /// Free space available to this user, bytes.
    pub available_bytes: Option<u64>,
}

/// Something detection could not do. `id` names the message in the locale files
/// (`note.<id>`); `detail` carries the system's own words (an error string, a path).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Stable id, e.g. `nvml-unavailable`.
    pub id: NoteId,
    /// The underlying error or path, untranslated.
    #[serde(default)]
    pub detail: Option<String>,
}

/// Kinds of detection notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoteId {
    /// NVML (libnvidia-ml) could not be loaded or initialised; NVIDIA GPUs may be missing or
    /// incomplete.
    NvmlUnavailable,
    /// NVML worked but one GPU could not be read.
    GpuQueryFailed,
    /// The driver does not report the GPU's memory size ("not supported"): its VRAM is unknown
    /// (not taken as unified memory).
    GpuMemoryUnsupported,
    /// A GPU is runtime-suspended (power saving); it was not opened, so as not to wake it.
    GpuSuspended,
    /// A mount did not answer `statvfs` in time (dead network share?).
    MountTimedOut,
    /// A source file could not be read (e.g. `/proc/meminfo`).
    SourceUnreadable,
    /// Detection on this operating system is best effort.
    PlatformPartial,
    /// A GPU type (Slurm GRES, a plan) is not in the catalogue; its VRAM is unknown.
    GpuTypeUnknown,
    /// `.wslconfig` could not be understood and was ignored (WSL ignores it too).
    WslConfigMalformed,
    /// What the operating system returned was garbage (a truncated table, a size of 0 or
    /// 2^64 − 1) and was left unknown; `detail` names the source and the value.
    SourceMalformed,
    /// Windows: NVIDIA's CUDA sysmem fallback policy is not readable through NVML; it is
    /// unknown, and `detail` gives the driver version (the policy exists from 536.40).
    SysmemFallbackUnknown,
    /// A value the system reported is impossible (a `sysctl` out of range): left unknown.
    ValueOutOfRange,
    /// A GPU is split into MIG instances: a job sees only its instance's share of the VRAM
    /// detection reports for the whole GPU.
    GpuMigEnabled,
}

impl MachineProfile {
    /// An empty profile: schema version set, everything unknown.
    pub fn unknown() -> MachineProfile {
        MachineProfile {
            schema_version: SCHEMA_VERSION,
            generated_by: None,
            host: Host::default(),
            cpu: Cpu::default(),
            memory: Memory::default(),
            gpus: Vec::new(),
            disks: Vec::new(),
            notes: Vec::new(),
            measurements: Measurements::default(),
            windows: None,
            macos: None,
            live: false,
        }
    }
}
