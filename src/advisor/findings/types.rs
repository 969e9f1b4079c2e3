//! The findings vocabulary: severities, finding ids (advice ids: [`AdviceId`]), the quantities behind a
//! finding, and the finding itself. Data only; `super` builds them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::advisor::advice_id::AdviceId;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Will slow training or break some setups.
    Warning,
    /// Will starve the GPUs or kill jobs.
    Critical,
}

/// Stable finding ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingId {
    /// Sizing RAM ([`crate::advisor::RamSizes::sizing_bytes`]) < total discrete nominal VRAM.
    RamBelowVram,
    /// Sizing RAM < the largest single GPU's nominal VRAM (multi-GPU machines; with one GPU this is
    /// the same as `ram-below-vram` and only that one is raised).
    RamBelowLargestGpu,
    /// 1.0 ≤ ratio < 1.5: enough without offload, not for CPU offload.
    RamBelowOffloadTier,
    /// A cgroup limit caps memory below physical RAM.
    ContainerLimitBelowRam,
    /// The GPU shares system RAM; the ratio does not apply.
    UnifiedMemory,
    /// A memory pool's consumers together overflow one of its limits (`pool`, `limit`,
    /// `needed`, `available`; [`crate::advisor::pools`]).
    PoolOverLimit,
    /// Apple Silicon: the GPU may wire at most macOS's default share of the unified memory
    /// (estimated; `gpu_limit`, `ram`).
    GpuWiredLimitDefault,
    /// Apple Silicon: `iogpu.wired_limit_mb` sets the GPU's share (`gpu_limit`, `ram`).
    GpuWiredLimitSet,
    /// No GPU found.
    NoGpu,
    /// A discrete GPU's VRAM is unknown, so the ratio can't be computed.
    VramUnknown,
    /// Physical RAM unknown.
    RamUnknown,
    /// No swap configured.
    SwapAbsent,
    /// Swap in use at detection time.
    SwapInUse,
    /// `vm.swappiness` above 20.
    SwappinessHigh,
    /// `/dev/shm` smaller than DataLoader workers need.
    ShmSmall,
    /// A GPU's PCIe link runs narrower or slower than it can.
    PcieLinkDegraded,
    /// A GPU's link runs below its maximum generation while idle (power saving, normal).
    PcieLinkIdle,
    /// The training plan's model states don't fit this machine's RAM or VRAM.
    TrainingDoesNotFit,
    /// A plan (training or inference) fits its limits only inside the margin it must leave
    /// (`advisor::headroom`): it would run out of memory in practice.
    PlanTight,
    /// The training plan runs more ranks per node than this machine has GPUs: its figures are
    /// for another machine.
    TrainingMoreGpusThanMachine,
    /// The workload's working set exceeds effective RAM: swapping, then the OOM killer.
    WorkloadRamExceeded,
    /// The workload leaves under 10 % of RAM free.
    WorkloadSwapRisk,
    /// The workload fits while training steps, but not while the loop pauses (evaluation, a
    /// checkpoint) and every loader's queue fills (`evaluation_pause`).
    EvaluationPauseExceedsRam,
    /// The dataset doesn't fit in the page cache: every epoch reads (part of) it from storage,
    /// and storage delivers fewer samples/s than the GPUs want (it limits them, or would once
    /// the narrower stage is fixed).
    DatasetNotCached,
    /// The dataset doesn't fit in the page cache, but storage delivers at least what the GPUs
    /// want: it streams fast enough, and more RAM to cache it wouldn't speed training.
    DatasetStreamsFromStorage,
    /// GPUs wait for storage.
    StarvedByStorage,
    /// GPUs wait for memory bandwidth.
    StarvedByRamBandwidth,
    /// GPUs wait for decoding and augmentation.
    StarvedByDecode,
    /// GPUs wait for host-to-device copies.
    StarvedByPcie,
    /// Only one memory channel is populated.
    SingleChannelMemory,
    /// Memory channels hold different amounts or numbers of modules.
    UnevenChannels,
    /// Memory bandwidth is below the seed's 2 GB/s per GiB of VRAM: the data path, not the
    /// GPU, sets the pace.
    MemoryBandwidthBound,
    /// A measured dataset folder is on a network file system.
    DatasetOnNetworkStorage,
    /// A measured dataset folder is on a rotating disk.
    DatasetOnHdd,
    /// WSL2 caps the RAM Linux sees below what Windows has (`advisor::wsl`).
    WslMemoryCapped,
    /// The workload's RAM cache (decoded images, or the stored files) is what pushes its
    /// working set past RAM.
    CacheDoesNotFit,
    /// Every DataLoader worker copies the dataset's index (Python objects touched by reference
    /// counting), and the copies are a noticeable part of RAM.
    DatasetIndexCopied,
    /// More DataLoader workers than usable cores: they time-share the cores, adding memory
    /// without adding decode speed.
    WorkersOversubscribed,
    /// The dataset size, sample count, format and image size don't agree (the implied file size
    /// is far outside what the format takes at that size).
    DatasetSizeInconsistent,
    /// Windows: no page file, so the commit limit is the RAM alone (`advisor::windows`).
    PageFileAbsent,
    /// Windows: much of the page file in use at detection time.
    PageFileInUse,
    /// Windows: an NVIDIA GPU under WDDM, where CUDA may spill into shared GPU memory (the
    /// sysmem fallback policy of drivers 536.40+).
    WddmSysmemFallback,
}

/// A number behind a finding, with its unit. Serialises as `{"unit": "bytes", "value": 1}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "unit", content = "value", rename_all = "lowercase")]
pub enum Quantity {
    /// Bytes.
    Bytes(u64),
    /// A dimensionless ratio (RAM/VRAM).
    Ratio(f64),
    /// A count (GPU index, lanes, a kernel setting).
    Count(u64),
    /// A rate in samples per second.
    Rate(f64),
    /// A share, 0–1, shown as a percentage.
    Share(f64),
    /// Bandwidth in bytes per second (shown as GB/s, 10^9 bytes/s).
    #[serde(rename = "bytes_per_s")]
    BytesPerSecond(f64),
    /// A setting's value as written in a configuration (`"rank0"`, `"g5.2xlarge"`): shown as
    /// it is, untranslated.
    Text(String),
    /// A plain number without a unit of its own (bytes per pixel); `present` words it.
    Number(f64),
    /// An image size, pixels: `{"unit": "pixels", "value": {"width": 640, "height": 480}}`.
    Pixels {
        /// Width, pixels.
        width: u32,
        /// Height, pixels.
        height: u32,
    },
    /// Memory modules to buy: `count` modules of one kind (`present` writes the part list,
    /// "4 × 64 GB DDR5-4800 RDIMM").
    Modules {
        /// How many modules.
        count: u32,
        /// Size of one module, bytes (a "32 GB" module is 32 GiB).
        size_bytes: u64,
        /// Memory type as SMBIOS names it ("DDR4").
        memory_type: String,
        /// Rated speed, MT/s; `None` when unknown.
        speed_mts: Option<u32>,
        /// UDIMM, RDIMM or SODIMM; `None` when unknown.
        form_factor: Option<crate::catalog::modules::FormFactor>,
    },
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable id.
    pub id: FindingId,
    /// Severity.
    pub severity: Severity,
    /// The numbers behind it, by name; the locale texts use the same names as placeholders.
    pub values: BTreeMap<String, Quantity>,
    /// What to do, most useful first.
    pub recommendations: Vec<AdviceId>,
}

impl Finding {
    pub(crate) fn new(id: FindingId, severity: Severity, recs: &[AdviceId]) -> Finding {
        Finding {
            id,
            severity,
            values: BTreeMap::new(),
            recommendations: recs.to_vec(),
        }
    }

    pub(crate) fn with(mut self, name: &str, q: Quantity) -> Finding {
        self.values.insert(name.to_string(), q);
        self
    }
}
