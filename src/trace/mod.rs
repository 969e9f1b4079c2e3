//! Traces: a run watched over time, as samples. One shape whatever the source: the live sampler
//! ([`crate::probe::live`]), a recorded JSON Lines file ([`jsonl`], `docs/trace.md`), or a
//! metrics server. The recognisers ([`crate::advisor::diagnose`]) read only this.
//!
//! Units as everywhere: bytes as `u64`, rates per second as `f64`, percentages 0–100, time in
//! seconds since the first sample's clock start. Every value may be unknown (`None`, `null` in
//! the file): a counter the kernel lacks, a GPU without NVML, a process not watched.

pub mod invalid;
pub mod jsonl;
pub mod metric;
pub mod synthetic;

use serde::{Deserialize, Serialize};

use crate::profile::MachineProfile;

/// The `schema` value of a trace's first line.
pub const TRACE_SCHEMA: &str = "ramvram-trace";

/// The trace format version written by this build; readers accept this version only (a newer
/// file is refused with a message rather than misread).
pub const TRACE_VERSION: u32 = 1;

/// A trace's first line: what was watched and how often.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceHeader {
    /// Always [`TRACE_SCHEMA`].
    pub schema: String,
    /// [`TRACE_VERSION`].
    pub version: u32,
    /// The machine the samples come from, as `ramvram detect` saw it when watching began
    /// (total RAM, the cgroup limit and the GPUs' PCIe links are read from it); `null` when
    /// unknown.
    #[serde(default)]
    pub profile: Option<MachineProfile>,
    /// Seconds between samples as asked for (the actual spacing is in the samples' `t`).
    pub interval_s: f64,
}

impl TraceHeader {
    /// A header for samples taken every `interval_s` seconds on `profile`.
    pub fn new(profile: Option<MachineProfile>, interval_s: f64) -> TraceHeader {
        TraceHeader {
            schema: TRACE_SCHEMA.to_string(),
            version: TRACE_VERSION,
            profile,
            interval_s,
        }
    }
}

/// A watched run: the header and the samples, oldest first (`t` never decreases).
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// What was watched.
    pub header: TraceHeader,
    /// The samples.
    pub samples: Vec<Sample>,
}

impl Trace {
    /// An empty trace.
    pub fn new(header: TraceHeader) -> Trace {
        Trace {
            header,
            samples: Vec::new(),
        }
    }

    /// Seconds from the first to the last sample plus one interval (each sample stands for the
    /// interval before it); 0 without samples.
    pub fn duration_s(&self) -> f64 {
        match (self.samples.first(), self.samples.last()) {
            (Some(a), Some(b)) => b.t - a.t + self.header.interval_s,
            _ => 0.0,
        }
    }

    /// GPU indices seen in any sample, ascending.
    pub fn gpu_indices(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .samples
            .iter()
            .flat_map(|s| s.gpus.iter().map(|g| g.index))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// One moment of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Seconds since watching began.
    pub t: f64,
    /// The machine.
    #[serde(default)]
    pub host: HostSample,
    /// Each GPU, by index.
    #[serde(default)]
    pub gpus: Vec<GpuSample>,
    /// The watched process tree; `null` when none is watched or it has ended.
    #[serde(default)]
    pub process: Option<ProcessSample>,
}

impl Sample {
    /// The GPU with this index. GPUs are kept in index order (the sampler and the importers
    /// write them so, and the trace reader sorts them), so this is a binary search; an
    /// out-of-order list still finds every GPU, by a linear search after the binary one missed.
    /// Recognisers look up every GPU in every sample: a linear search each time would make a
    /// trace of many GPUs quadratic.
    pub fn gpu(&self, index: u32) -> Option<&GpuSample> {
        match self.gpus.binary_search_by_key(&index, |g| g.index) {
            Ok(i) => Some(&self.gpus[i]),
            Err(_) => self.gpus.iter().find(|g| g.index == index),
        }
    }
}

/// The machine at one moment. Rates are averages over the interval that ends at the sample
/// (unknown in the first sample, which has no interval before it).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostSample {
    /// `MemAvailable`: memory usable for new work without swapping, bytes.
    #[serde(default)]
    pub mem_available_bytes: Option<u64>,
    /// File-backed page cache, `Active(file) + Inactive(file)`, bytes.
    #[serde(default)]
    pub page_cache_bytes: Option<u64>,
    /// `SwapTotal − SwapFree`, bytes.
    #[serde(default)]
    pub swap_used_bytes: Option<u64>,
    /// Pages read back from swap per second (`pswpin`).
    #[serde(default)]
    pub swap_in_pages_per_s: Option<f64>,
    /// Pages written to swap per second (`pswpout`).
    #[serde(default)]
    pub swap_out_pages_per_s: Option<f64>,
    /// Major page faults per second (`pgmajfault`: pages that had to come from disk or swap).
    #[serde(default)]
    pub major_faults_per_s: Option<f64>,
    /// `/proc/pressure/memory` "some" avg10: share of the last 10 s in which some task waited
    /// for memory, percent. `null` on kernels without PSI.
    #[serde(default)]
    pub psi_memory_some_avg10: Option<f64>,
    /// `/proc/pressure/memory` "full" avg10: all non-idle tasks waited, percent.
    #[serde(default)]
    pub psi_memory_full_avg10: Option<f64>,
    /// `/proc/pressure/io` "some" avg10, percent.
    #[serde(default)]
    pub psi_io_some_avg10: Option<f64>,
    /// CPU time not idle (user, nice, system, irq, softirq, steal) over all CPUs, percent.
    #[serde(default)]
    pub cpu_busy_percent: Option<f64>,
    /// CPU time idle while waiting for I/O over all CPUs, percent.
    #[serde(default)]
    pub iowait_percent: Option<f64>,
    /// CPU used by the kernel's `kswapd*` threads, percent of one core (summed over them).
    #[serde(default)]
    pub kswapd_cpu_percent: Option<f64>,
    /// Processes the kernel's OOM killer has killed since boot (`/proc/vmstat` `oom_kill`).
    #[serde(default)]
    pub oom_kills_total: Option<u64>,
    /// OOM kills in the watched process's cgroup (ramvram's own when watching the machine):
    /// `memory.events` `oom_kill` (v2) or `memory.oom_control` (v1); `null` when unreadable.
    #[serde(default)]
    pub cgroup_oom_kills_total: Option<u64>,
    /// Memory charged to the watched process's cgroup (ramvram's own when watching the
    /// machine): `memory.current` or `memory.usage_in_bytes`, bytes; compared with the
    /// header profile's `memory.limit_bytes`, which `watch --pid` sets to that cgroup's limit.
    #[serde(default)]
    pub cgroup_mem_used_bytes: Option<u64>,
    /// `/dev/shm` in use, bytes.
    #[serde(default)]
    pub shm_used_bytes: Option<u64>,
    /// `/dev/shm` size, bytes.
    #[serde(default)]
    pub shm_total_bytes: Option<u64>,
    /// Bytes read per second from the physical disks (`/proc/diskstats`, whole disks only).
    #[serde(default)]
    pub disk_read_bytes_per_s: Option<f64>,
}

/// One GPU at one moment (NVML, or a metrics exporter).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GpuSample {
    /// Index as `nvidia-smi` numbers it.
    pub index: u32,
    /// Share of the last sample period in which a kernel ran, percent.
    #[serde(default)]
    pub util_percent: Option<f64>,
    /// Memory in use, bytes.
    #[serde(default)]
    pub mem_used_bytes: Option<u64>,
    /// Power draw, watts.
    #[serde(default)]
    pub power_w: Option<f64>,
    /// PCIe traffic host → GPU, bytes/s.
    #[serde(default)]
    pub pcie_rx_bytes_per_s: Option<f64>,
    /// PCIe traffic GPU → host, bytes/s.
    #[serde(default)]
    pub pcie_tx_bytes_per_s: Option<f64>,
}

/// The watched process and everything it started, at one moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProcessSample {
    /// The root process.
    pub pid: u32,
    /// Resident memory summed over the tree, bytes (shared pages counted once per process).
    #[serde(default)]
    pub rss_bytes: Option<u64>,
    /// Proportional set size summed over the tree, bytes (shared pages split between their
    /// users: what the tree really costs).
    #[serde(default)]
    pub pss_bytes: Option<u64>,
    /// CPU used by the tree, percent of one core (400 = four cores busy).
    #[serde(default)]
    pub cpu_percent: Option<f64>,
    /// Processes in the tree besides the root (DataLoader workers and the like).
    #[serde(default)]
    pub workers: Option<u32>,
}

impl ProcessSample {
    /// Processes in the tree, root included.
    pub fn processes(&self) -> Option<u32> {
        self.workers.map(|w| w + 1)
    }
}
