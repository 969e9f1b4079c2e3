//! What the data pipeline can move on a machine, one function per figure: the PCIe links (every
//! GPU's), the storage the dataset is on (its measurement, else its kind's typical figures) and
//! the memory bandwidth (measured, else theoretical). The workload simulator and the Bandwidth
//! page both take their stages from here, so they can't disagree.

use crate::advisor::RamSizes;
use crate::advisor::bandwidth_views::{MemoryBandwidthView, PcieView, StorageView};
use crate::profile::{DiskKind, MachineProfile, Provenance};

/// Where each machine figure of [`MachineRates`] came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sources {
    /// Memory bandwidth: measured, else the provenance of the theoretical peak's inputs.
    pub memory_bandwidth: Provenance,
    /// True when the memory bandwidth is the theoretical peak (channels × speed × bus width),
    /// not a measurement.
    pub memory_theoretical: bool,
    /// Storage read speed: measured or typical.
    pub storage: Provenance,
    /// The measured folder the storage figure describes, when measured.
    pub storage_path: Option<String>,
    /// PCIe: detected links (always a theoretical figure, generation × width) or unknown.
    pub pcie: Provenance,
}

/// What the simulator needs to know about the machine. Rates in bytes/s; `None` = unknown.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineRates {
    /// Usable RAM, bytes: [`RamSizes::usable_bytes`] (the cgroup limit when it is lower than
    /// `MemTotal`).
    pub usable_ram_bytes: Option<u64>,
    /// Usable ÷ installed RAM on this machine (1 when unknown): a RAM need in usable bytes
    /// divided by it is the installed RAM to buy.
    pub usable_share: f64,
    /// A cgroup limit caps usable RAM below what is installed: buying RAM gives the job none.
    pub ram_capped: bool,
    /// Physical cores.
    pub physical_cores: Option<u32>,
    /// Memory bandwidth (measured, else theoretical), bytes/s.
    pub memory_bandwidth: Option<f64>,
    /// Where the dataset lives.
    pub storage_kind: DiskKind,
    /// Sequential read, bytes/s (measured, else the kind's typical figure).
    pub storage_read: f64,
    /// Per-request latency, seconds (1 ÷ the measured small-file rate, else the kind's typical
    /// figure).
    pub storage_latency: f64,
    /// Host-to-device bandwidth of every GPU's link together, bytes/s (theoretical, per
    /// direction).
    pub pcie_bytes_per_s: Option<f64>,
    /// Discrete GPUs.
    pub gpus: u32,
    /// Where the figures came from.
    pub sources: Sources,
    /// How DataLoader workers start on this machine's OS (`profile::start_method`): fork
    /// shares the training process's pages, spawn gives every worker its own.
    pub start_method: crate::profile::StartMethod,
    /// The OS's and each process's memory on this machine
    /// ([`crate::advisor::overhead::overheads`]; [`crate::advisor::overhead::Overheads::TYPICAL`]
    /// when the machine is unknown).
    pub overheads: crate::advisor::overhead::Overheads,
}

impl Default for MachineRates {
    /// Nothing known: RAM, cores, bandwidth and PCIe unknown, storage of unknown kind at its
    /// typical figures, no GPU.
    fn default() -> MachineRates {
        let (read, latency) = typical_storage(DiskKind::Unknown);
        MachineRates {
            overheads: crate::advisor::overhead::Overheads::TYPICAL,
            usable_ram_bytes: None,
            usable_share: 1.0,
            ram_capped: false,
            physical_cores: None,
            memory_bandwidth: None,
            storage_kind: DiskKind::Unknown,
            storage_read: read,
            storage_latency: latency,
            pcie_bytes_per_s: None,
            gpus: 0,
            sources: Sources {
                storage: Provenance::Typical,
                ..Sources::default()
            },
            start_method: crate::profile::StartMethod::Fork,
        }
    }
}

/// Typical sequential read and request latency by storage kind, when not measured.
/// Assumptions: NVMe 3 GB/s and 0.1 ms (PCIe Gen3/Gen4 consumer drives); SATA SSD 0.5 GB/s
/// (SATA 6 Gb/s ceiling) and 0.2 ms; HDD 0.18 GB/s and 8 ms (7200 rpm seek + rotation);
/// NFS over 10 GbE 1.1 GB/s and 1 ms (a round trip plus metadata per file).
pub fn typical_storage(kind: DiskKind) -> (f64, f64) {
    match kind {
        DiskKind::Nvme => (3.0e9, 1e-4),
        DiskKind::Ssd => (0.5e9, 2e-4),
        DiskKind::Hdd => (0.18e9, 8e-3),
        DiskKind::Network => (1.1e9, 1e-3),
        DiskKind::Unknown => (0.5e9, 2e-4),
    }
}

/// Host→GPU bandwidth of every GPU's link together: the sum of each link's
/// [`PcieView::effective_bytes_per_s`] (its current width; an idle GPU's link at its maximum
/// generation, since it speeds up under load). `None` when no link is known or any is unknown.
pub fn pcie_figure(pcie: &[PcieView]) -> Option<f64> {
    (!pcie.is_empty() && pcie.iter().all(|p| p.effective_bytes_per_s.is_some()))
        .then(|| pcie.iter().filter_map(|p| p.effective_bytes_per_s).sum())
}

/// Memory bandwidth for the pipeline: the measured STREAM Triad, else the theoretical peak
/// (then with its inputs' provenance, detected when the view names none). The `bool` is true
/// for the theoretical peak.
pub fn memory_figure(m: &MemoryBandwidthView) -> (Option<f64>, Provenance, bool) {
    match (m.measured_triad_bytes_per_s, m.theoretical_bytes_per_s) {
        (Some(v), _) => (Some(v), Provenance::Measured, false),
        (None, Some(v)) => (
            Some(v),
            m.theoretical_source.unwrap_or(Provenance::Detected),
            true,
        ),
        _ => (None, Provenance::Unknown, false),
    }
}

/// The storage the dataset is on and what it reads.
#[derive(Clone, Debug, PartialEq)]
pub struct StorageFigure {
    /// Its kind.
    pub kind: DiskKind,
    /// Sequential read, bytes/s.
    pub read_bytes_per_s: f64,
    /// Per-file latency, seconds.
    pub latency_s: f64,
    /// Measured or typical.
    pub source: Provenance,
    /// The measured folder, when measured.
    pub path: Option<String>,
}

/// The storage the dataset is on: with `kind` given (the workload's storage), the latest
/// measured folder on that kind of storage, else the kind's typical figures; without, the
/// latest measured folder (the Bandwidth page measures "the dataset folder"), else the
/// machine's largest local disk at its kind's typical figures. A measured folder's latency is
/// 1 ÷ its small-file rate (one 4 KiB file opened, read and closed at a time).
pub fn storage_figure(
    profile: &MachineProfile,
    measured: &[StorageView],
    kind: Option<DiskKind>,
) -> StorageFigure {
    let found = measured
        .iter()
        .filter(|s| s.sequential_read_bytes_per_s.is_some())
        .find(|s| kind.is_none() || s.kind == kind);
    let kind = kind
        .or_else(|| found.map(|s| s.kind.unwrap_or(DiskKind::Unknown)))
        .unwrap_or_else(|| {
            profile
                .disks
                .iter()
                .filter(|d| d.kind != DiskKind::Network)
                .max_by_key(|d| d.total_bytes.unwrap_or(0))
                .map_or(DiskKind::Unknown, |d| d.kind)
        });
    let (typical_read, typical_latency) = typical_storage(kind);
    match found.and_then(|s| Some((s, s.sequential_read_bytes_per_s?))) {
        Some((s, read)) if read > 0.0 => StorageFigure {
            kind,
            read_bytes_per_s: read,
            latency_s: s
                .random_read_files_per_s
                .filter(|f| *f > 0.0)
                .map_or(typical_latency, |f| 1.0 / f),
            source: Provenance::Measured,
            path: Some(s.path.clone()),
        },
        _ => StorageFigure {
            kind,
            read_bytes_per_s: typical_read,
            latency_s: typical_latency,
            source: Provenance::Typical,
            path: None,
        },
    }
}

/// The cores DataLoader workers can use: the physical cores, or fewer when this process may use
/// fewer CPUs (a Slurm job's cpuset, a container's quota: `logical_cpus` is what it may use).
pub fn usable_cores(profile: &MachineProfile) -> Option<u32> {
    match (profile.cpu.physical_cores, profile.cpu.logical_cpus) {
        (Some(p), Some(l)) => Some(p.min(l)),
        (p, l) => p.or(l),
    }
}

impl MachineRates {
    /// The simulator's view of a profiled machine: usable RAM, physical cores, and the figures
    /// of [`memory_figure`], [`storage_figure`] (for the workload's `storage`) and
    /// [`pcie_figure`] from the bandwidth view's parts (`memory`, `pcie` and the `measured`
    /// folders of [`crate::advisor::bandwidth::Bandwidth`]).
    pub fn from_profile(
        profile: &MachineProfile,
        ram: &RamSizes,
        storage: Option<DiskKind>,
        memory: &MemoryBandwidthView,
        pcie: &[PcieView],
        measured: &[StorageView],
    ) -> MachineRates {
        let disk = storage_figure(profile, measured, storage);
        let (memory_bandwidth, memory_source, memory_theoretical) = memory_figure(memory);
        let pcie = pcie_figure(pcie);
        MachineRates {
            overheads: crate::advisor::overhead::overheads(profile),
            usable_ram_bytes: ram.usable_bytes,
            usable_share: ram.usable_share(),
            ram_capped: ram.limited_by_cgroup,
            // Workers can only use the CPUs this process may use (a Slurm job's cpuset, a
            // container's quota): fewer than the machine's cores there.
            physical_cores: usable_cores(profile),
            memory_bandwidth,
            storage_kind: disk.kind,
            storage_read: disk.read_bytes_per_s,
            storage_latency: disk.latency_s,
            pcie_bytes_per_s: pcie,
            gpus: profile.gpus.iter().filter(|g| !g.unified_memory).count() as u32,
            sources: Sources {
                memory_bandwidth: memory_source,
                memory_theoretical,
                storage: disk.source,
                storage_path: disk.path,
                pcie: if pcie.is_some() {
                    Provenance::Detected
                } else {
                    Provenance::Unknown
                },
            },
            start_method: crate::profile::start_method(crate::profile::os_family(profile)),
        }
    }
}
