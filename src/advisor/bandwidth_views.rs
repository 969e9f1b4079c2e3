//! What the bandwidth section shows of one machine, as data: memory bandwidth, the seed's rule,
//! PCIe per GPU and the measured folders. Computed by `bandwidth`, read by the workload
//! simulator's rates; apart from both.

use serde::{Deserialize, Serialize};

use super::rules::RuleStatus;
use crate::profile::{DiskKind, PcieLink, Provenance};

/// Memory bandwidth: what the hardware allows and what was measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryBandwidthView {
    /// `DDR4`, `DDR5`, … (entered, else the modules').
    pub memory_type: Option<String>,
    /// Transfer rate, MT/s (entered, else the slowest module's configured speed).
    pub speed_mts: Option<u32>,
    /// Populated channels.
    pub channels: Option<u32>,
    /// Where the channel count came from.
    pub channels_source: Option<Provenance>,
    /// Modules installed.
    pub modules: u32,
    /// True when channels hold different amounts or numbers of modules.
    pub uneven_channels: bool,
    /// Theoretical peak, bytes/s.
    pub theoretical_bytes_per_s: Option<f64>,
    /// Where the theoretical figure came from (`estimated` when the channel count was).
    pub theoretical_source: Option<Provenance>,
    /// Measured STREAM Triad, bytes/s.
    pub measured_triad_bytes_per_s: Option<f64>,
    /// True when the measurement was flagged noisy.
    pub measured_noisy: bool,
    /// True when only one timed pass ran: no spread to judge by (it is flagged noisy too).
    #[serde(default)]
    pub measured_single_pass: bool,
    /// Measured / theoretical.
    pub efficiency: Option<f64>,
}

/// Which memory figure a judgement used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BandwidthBasis {
    /// The theoretical peak (the seed's examples are theoretical).
    Theoretical,
    /// The measured Triad (when the peak is unknown).
    Measured,
}

/// The seed's bandwidth rule, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedBandwidthRule {
    /// Total discrete VRAM, bytes.
    pub vram_bytes: Option<u64>,
    /// 2 × 10^9 bytes/s per GiB of VRAM.
    pub required_bytes_per_s: Option<f64>,
    /// The memory bandwidth judged.
    pub actual_bytes_per_s: Option<f64>,
    /// Which figure `actual` is.
    pub basis: Option<BandwidthBasis>,
    /// VRAM (bytes) that `actual` covers under the rule.
    pub covers_vram_bytes: Option<u64>,
    /// pass / fail / can't check / not applicable (no discrete GPU).
    pub status: RuleStatus,
}

/// One GPU's PCIe link in bytes/s per direction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PcieView {
    /// GPU index.
    pub gpu: u32,
    /// The link as detected.
    pub link: PcieLink,
    /// At the current generation and width.
    pub current_bytes_per_s: Option<f64>,
    /// At the highest generation (GPU and slot together) and width.
    pub max_bytes_per_s: Option<f64>,
    /// Host → GPU traffic measured at detection time (NVML), bytes/s.
    #[serde(default)]
    pub rx_bytes_per_s: Option<f64>,
    /// GPU → host traffic measured at detection time, bytes/s.
    #[serde(default)]
    pub tx_bytes_per_s: Option<f64>,
    /// True when the link runs below its maximum generation while the GPU is idle (power
    /// saving: it speeds up under load), so the current figure understates the link.
    #[serde(default)]
    pub idle_slowdown: bool,
    /// What host→device copies get: the current width at the maximum generation when the GPU
    /// is idle (an idle link slows down to save power and speeds up under load), else the
    /// current generation and width.
    pub effective_bytes_per_s: Option<f64>,
}

/// A measured folder and the mount it lives on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StorageView {
    /// The folder measured.
    pub path: String,
    /// The mount point holding it (the longest mount point that contains the path).
    pub mount_point: Option<String>,
    /// What that mount is stored on.
    pub kind: Option<DiskKind>,
    /// Sequential read, bytes/s.
    pub sequential_read_bytes_per_s: Option<f64>,
    /// Small (4 KiB) files read per second.
    pub random_read_files_per_s: Option<f64>,
}
