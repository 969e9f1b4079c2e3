//! Throughput of each data-pipeline stage in samples/s: storage → RAM → CPU decode → PCIe →
//! GPU. The narrowest stage sets the pace; predicted GPU utilisation = min(1, supply / demand).

use serde::{Deserialize, Serialize};

use super::budget::{MemoryBudget, budget};
use super::{
    DEFAULT_DECODE_MPIX_PER_CORE, DataFormat, DecodeOn, PNG_DECODE_FACTOR, StoredFormat,
    WORKER_TRANSFER_EFFICIENCY, Workload,
};
use crate::profile::DiskKind;

/// What the simulator needs to know about the machine. Rates in bytes/s; `None` = unknown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MachineRates {
    /// Effective RAM.
    pub effective_ram_bytes: Option<u64>,
    /// Physical cores.
    pub physical_cores: Option<u32>,
    /// Memory bandwidth (measured, else theoretical), bytes/s.
    pub memory_bandwidth: Option<f64>,
    /// Where the dataset lives.
    pub storage_kind: DiskKind,
    /// Sequential read, bytes/s (measured, else the kind's typical figure).
    pub storage_read: f64,
    /// Per-request latency, seconds (the kind's typical figure).
    pub storage_latency: f64,
    /// Host-to-device bandwidth of one GPU's link, bytes/s (theoretical, per direction).
    pub pcie_bytes_per_s: Option<f64>,
    /// Discrete GPUs (PCIe links feeding them in parallel).
    pub gpus: u32,
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

/// GPU JPEG decoding with NVIDIA DALI / nvJPEG: 2000 megapixels/s per GPU. Assumption from
/// NVIDIA's published nvJPEG figures (A100 hardware decoder, ~4,000 ImageNet images/s of
/// ~0.5 MP); the seed's "3–5× for high resolution" is a claim this does not rely on.
pub const GPU_DECODE_MPIX: f64 = 2000.0;
/// Share of STREAM-class bandwidth the data pipeline reaches. Assumption: its copies and
/// decodes are not pure streams; 0.5.
pub const PIPELINE_BANDWIDTH_SHARE: f64 = 0.5;
/// Share of a PCIe link's theoretical rate reached by host-to-device copies: 0.8 from pinned
/// memory, 0.5 from pageable memory (an extra staging copy). Assumptions from CUDA's
/// bandwidthTest behaviour.
pub const PCIE_EFFICIENCY_PINNED: f64 = 0.8;
/// See [`PCIE_EFFICIENCY_PINNED`].
pub const PCIE_EFFICIENCY_PAGEABLE: f64 = 0.5;
/// Non-image samples (tokens, point clouds): parsing rate per core, bytes/s. Assumption 1 GB/s.
pub const PARSE_BYTES_PER_CORE: f64 = 1e9;
/// Raw arrays need no decode; their augmentation runs 10× faster than a JPEG decode of the same
/// pixels. Assumption.
pub const RAW_DECODE_FACTOR: f64 = 10.0;

/// Pipeline stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageId {
    /// Reading what the page cache doesn't hold.
    StorageRead,
    /// Memory bandwidth for the bytes each sample moves.
    RamBandwidth,
    /// Decode and augmentation (CPU workers, or the GPU with DALI).
    Decode,
    /// Host-to-GPU copies over PCIe.
    PcieHostToDevice,
    /// What the GPUs consume.
    GpuDemand,
}

/// One stage's rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stage {
    /// Which stage.
    pub id: StageId,
    /// Samples per second it can deliver; `None` when it can't be computed (a rate unknown)
    /// or doesn't limit (the dataset is fully cached).
    pub samples_per_s: Option<f64>,
}

/// The pipeline (`pipeline` in `advise --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pipeline {
    /// Stages in data-flow order, GPU demand last.
    pub stages: Vec<Stage>,
    /// The narrowest supply stage.
    pub bottleneck: Option<StageId>,
    /// min(1, narrowest supply / demand).
    pub predicted_gpu_utilization: Option<f64>,
    /// The `num_workers` that meets demand without exceeding RAM or cores (or the best
    /// possible when nothing meets it).
    pub recommended_num_workers: Option<u32>,
}

impl Pipeline {
    /// The rate of stage `id`, samples/s, when it has one.
    pub fn rate(&self, id: StageId) -> Option<f64> {
        self.stages
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| s.samples_per_s)
    }
}

/// Decode (and augmentation) rate with `workers` processes.
fn decode_rate(w: &Workload, workers: u32, cores: Option<u32>) -> f64 {
    if w.decode_on == DecodeOn::Gpu && w.width > 0 {
        return GPU_DECODE_MPIX * 1e6 / w.pixels().max(1) as f64;
    }
    // Worker processes beyond the physical cores add nothing; with none, the training process
    // decodes. Workers hand batches over at WORKER_TRANSFER_EFFICIENCY of their decode rate.
    // Measured: 2 workers on 2 cores ran 1.7–1.8× one worker (docs/validation.md), so all
    // cores count.
    let usable = match cores {
        Some(c) => workers.clamp(1, c.max(1)),
        None => workers.max(1),
    } as f64
        * if workers >= 1 {
            WORKER_TRANSFER_EFFICIENCY
        } else {
            1.0
        };
    if w.width == 0 || w.height == 0 {
        return usable * PARSE_BYTES_PER_CORE / w.decoded_bytes().max(1) as f64;
    }
    let per_core = w
        .measured_decode_mpix_per_core
        .unwrap_or(DEFAULT_DECODE_MPIX_PER_CORE)
        * 1e6;
    let format = match w.stored {
        StoredFormat::Jpeg => 1.0,
        StoredFormat::Png => PNG_DECODE_FACTOR,
        StoredFormat::Raw => RAW_DECODE_FACTOR,
    };
    usable * per_core * format / (w.pixels().max(1) as f64 * w.augmentation.cpu_factor())
}

fn storage_rate(w: &Workload, b: &MemoryBudget, m: &MachineRates) -> Option<f64> {
    let uncached = 1.0 - b.dataset_cached_fraction;
    if w.format == DataFormat::InRam || uncached <= 1e-9 {
        return None;
    }
    let file = w.file_bytes().max(1) as f64;
    let files_per_s = match (w.format, m.storage_kind) {
        // Shards and memory-mapped files stream sequentially.
        (DataFormat::Shards | DataFormat::Mmap, _) => m.storage_read / file,
        // A disk head serves one request at a time.
        (_, DiskKind::Hdd) => 1.0 / (m.storage_latency + file / m.storage_read),
        // Flash and network file systems overlap the workers' requests.
        _ => (m.storage_read / file).min(f64::from(w.num_workers.max(1)) / m.storage_latency),
    };
    Some(files_per_s / uncached)
}

fn bandwidth_rate(w: &Workload, m: &MachineRates) -> Option<f64> {
    let bw = m.memory_bandwidth?;
    let float_bytes =
        (w.pixels() * u64::from(w.channels) * 4) as f64 * w.augmentation.float_copies();
    // Copy from the page cache, write and read the decoded image, write and read each float
    // intermediate, then collate, pass through shared memory and pin the tensor.
    let touched = w.file_bytes() as f64
        + 2.0 * w.decoded_bytes() as f64
        + 2.0 * float_bytes
        + 3.0 * w.tensor_bytes() as f64;
    Some(bw * PIPELINE_BANDWIDTH_SHARE / touched.max(1.0))
}

fn pcie_rate(w: &Workload, m: &MachineRates) -> Option<f64> {
    let link = m.pcie_bytes_per_s?;
    let eff = if w.pin_memory {
        PCIE_EFFICIENCY_PINNED
    } else {
        PCIE_EFFICIENCY_PAGEABLE
    };
    Some(link * eff * f64::from(m.gpus.max(1)) / w.tensor_bytes().max(1) as f64)
}

/// The pipeline of `w` with RAM budget `b` on machine `m`.
pub fn pipeline(w: &Workload, b: &MemoryBudget, m: &MachineRates) -> Pipeline {
    let stages = vec![
        Stage {
            id: StageId::StorageRead,
            samples_per_s: storage_rate(w, b, m),
        },
        Stage {
            id: StageId::RamBandwidth,
            samples_per_s: bandwidth_rate(w, m),
        },
        Stage {
            id: StageId::Decode,
            samples_per_s: Some(decode_rate(w, w.num_workers, m.physical_cores)),
        },
        Stage {
            id: StageId::PcieHostToDevice,
            samples_per_s: pcie_rate(w, m),
        },
        Stage {
            id: StageId::GpuDemand,
            samples_per_s: Some(w.gpu_demand_samples_per_s),
        },
    ];
    let supply = stages
        .iter()
        .filter(|s| s.id != StageId::GpuDemand)
        .filter_map(|s| s.samples_per_s.map(|r| (s.id, r)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let utilization = supply.map(|(_, r)| (r / w.gpu_demand_samples_per_s).min(1.0));
    Pipeline {
        stages,
        bottleneck: supply
            .filter(|(_, r)| *r < w.gpu_demand_samples_per_s)
            .map(|(id, _)| id),
        predicted_gpu_utilization: utilization,
        recommended_num_workers: recommend_workers(w, m),
    }
}

/// The smallest `num_workers` whose decode rate meets GPU demand while the working set still
/// fits in RAM; when none does, the largest that fits (more workers only add memory beyond the
/// cores). `None` when decoding happens on the GPU.
fn recommend_workers(w: &Workload, m: &MachineRates) -> Option<u32> {
    if w.decode_on == DecodeOn::Gpu {
        return None;
    }
    let max = m.physical_cores.map_or(32, |c| c.max(1));
    let fits = |n: u32| {
        let trial = Workload {
            num_workers: n,
            ..w.clone()
        };
        m.effective_ram_bytes
            .is_none_or(|r| budget(&trial, Some(r)).working_set_bytes <= r)
    };
    let mut best = None;
    for n in 1..=max {
        if !fits(n) {
            break;
        }
        best = Some(n);
        if decode_rate(w, n, m.physical_cores) >= w.gpu_demand_samples_per_s {
            return Some(n);
        }
    }
    best.or(Some(1))
}
