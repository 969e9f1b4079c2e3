//! Throughput of each data-pipeline stage in samples/s: storage → RAM → CPU decode → PCIe →
//! GPU. The narrowest stage sets the pace; predicted GPU utilisation = min(1, supply / demand).

use serde::{Deserialize, Serialize};

use super::budget::{MemoryBudget, budget};
use super::costs;
use super::{CacheMode, DataFormat, DecodeOn, MachineRates, Workload};
use crate::profile::{DiskKind, Provenance};

/// Share of STREAM-class bandwidth the data pipeline reaches. Assumption: its copies and
/// decodes are not pure streams; 0.5.
pub const PIPELINE_BANDWIDTH_SHARE: f64 = 0.5;
/// Share of a PCIe link's theoretical rate reached by host-to-device copies: 0.8 from pinned
/// memory, 0.5 from pageable memory (an extra staging copy). Assumptions from CUDA's
/// bandwidthTest behaviour.
pub const PCIE_EFFICIENCY_PINNED: f64 = 0.8;
/// See [`PCIE_EFFICIENCY_PINNED`].
pub const PCIE_EFFICIENCY_PAGEABLE: f64 = 0.5;

/// Pipeline stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

/// The decode rate the prediction rests on, and what the utilisation would be at half and
/// double that rate when it is the built-in default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecodeAssumption {
    /// JPEG decode rate per core used, megapixels/s.
    pub mpix_per_core: f64,
    /// [`Provenance::Default`] (the built-in rate, an assumption) or [`Provenance::Entered`]
    /// (given by the user).
    pub source: Provenance,
    /// Predicted utilisation with half the rate (default rate only).
    #[serde(default)]
    pub utilization_at_half: Option<f64>,
    /// Predicted utilisation with twice the rate (default rate only).
    #[serde(default)]
    pub utilization_at_double: Option<f64>,
}

/// The simulator's pipeline. In the assessment JSON through its view,
/// `bandwidth.pipeline` ([`super::view::PipelineView`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pipeline {
    /// Stages in data-flow order, GPU demand last.
    pub stages: Vec<Stage>,
    /// The narrowest supply stage when it is below the GPUs' demand.
    pub bottleneck: Option<StageId>,
    /// The narrowest supply stage, whether or not it limits.
    #[serde(default)]
    pub narrowest: Option<StageId>,
    /// min(1, narrowest supply / demand); `None` when a rate is unknown or when the working
    /// set exceeds usable RAM ([`Pipeline::exceeds_ram`]): then the run swaps (every stage
    /// waits for the disk) or is killed, and no rate of the model holds.
    pub predicted_gpu_utilization: Option<f64>,
    /// The working set exceeds usable RAM: the utilisation the stages would allow can't be
    /// reached (the views say so instead of showing it).
    #[serde(default)]
    pub exceeds_ram: bool,
    /// The `num_workers` the advisor recommends: the fewest that meet demand with the working
    /// set in RAM, else the fastest that fits; `None` when decoding isn't on CPU workers or no
    /// count fits.
    pub recommended_num_workers: Option<u32>,
    /// The CPU decode rate used (`None` when the samples aren't decoded on the CPU).
    #[serde(default)]
    pub decode: Option<DecodeAssumption>,
}

impl Pipeline {
    /// The rate of stage `id`, samples/s, when it has one.
    pub fn rate(&self, id: StageId) -> Option<f64> {
        self.stages
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| s.samples_per_s)
    }

    /// True when the GPUs wait for data (the narrowest supply is below demand).
    pub fn data_bound(&self) -> bool {
        self.bottleneck.is_some()
    }
}

/// Bytes each sample moves through memory: the file copied from the page cache, the decoded
/// image written and read, then the tensor collated, passed through /dev/shm and pinned.
pub fn bytes_touched_per_sample(w: &Workload) -> f64 {
    let file = if w.cache == CacheMode::DecodedInRam {
        0.0
    } else {
        w.file_bytes() as f64
    };
    let image = if w.cache == CacheMode::DecodedInRam && w.width > 0 {
        (w.cache_pixels() * u64::from(w.channels.max(1))) as f64
    } else {
        w.decoded_bytes() as f64
    };
    file + 2.0 * image + 3.0 * w.tensor_bytes() as f64
}

fn storage_rate(w: &Workload, b: &MemoryBudget, m: &MachineRates) -> Option<f64> {
    let uncached = 1.0 - b.dataset_cached_fraction;
    if w.cache != CacheMode::None || w.format == DataFormat::InRam || uncached <= 1e-9 {
        return None;
    }
    let file = w.file_bytes().max(1) as f64;
    let read = m.storage_read.max(1.0);
    let latency = m.storage_latency.max(1e-9);
    let files_per_s = match (w.format, m.storage_kind) {
        // Shards and memory-mapped files stream sequentially.
        (DataFormat::Shards | DataFormat::Mmap, _) => read / file,
        // A disk head serves one request at a time.
        (_, DiskKind::Hdd) => 1.0 / (latency + file / read),
        // Flash and network file systems overlap the workers' requests.
        _ => (read / file).min(f64::from(w.num_workers.max(1)) / latency),
    };
    Some(files_per_s / uncached)
}

fn bandwidth_rate(w: &Workload, m: &MachineRates) -> Option<f64> {
    let bw = m.memory_bandwidth?;
    Some(bw * PIPELINE_BANDWIDTH_SHARE / bytes_touched_per_sample(w).max(1.0))
}

fn pcie_rate(w: &Workload, m: &MachineRates) -> Option<f64> {
    let links = m.pcie_bytes_per_s?;
    let eff = if w.pin_memory {
        PCIE_EFFICIENCY_PINNED
    } else {
        PCIE_EFFICIENCY_PAGEABLE
    };
    Some(links * eff / w.tensor_bytes().max(1) as f64)
}

/// The stages of `w` with budget `b` on `m`, decoding at `mpix_per_core`.
fn stages(w: &Workload, b: &MemoryBudget, m: &MachineRates, mpix_per_core: f64) -> Vec<Stage> {
    vec![
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
            samples_per_s: Some(costs::decode_rate(
                w,
                w.num_workers,
                m.physical_cores,
                m.gpus,
                mpix_per_core,
            )),
        },
        Stage {
            id: StageId::PcieHostToDevice,
            samples_per_s: pcie_rate(w, m),
        },
        Stage {
            id: StageId::GpuDemand,
            samples_per_s: Some(w.gpu_demand_samples_per_s),
        },
    ]
}

/// The narrowest supply stage and its rate.
fn narrowest(stages: &[Stage]) -> Option<(StageId, f64)> {
    stages
        .iter()
        .filter(|s| s.id != StageId::GpuDemand)
        .filter_map(|s| s.samples_per_s.map(|r| (s.id, r)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

fn assemble(w: &Workload, stages: Vec<Stage>) -> Pipeline {
    let supply = narrowest(&stages);
    let demand = w.gpu_demand_samples_per_s;
    Pipeline {
        bottleneck: supply.filter(|(_, r)| *r < demand).map(|(id, _)| id),
        narrowest: supply.map(|(id, _)| id),
        predicted_gpu_utilization: supply.map(|(_, r)| (r / demand).min(1.0)),
        exceeds_ram: false,
        stages,
        recommended_num_workers: None,
        decode: None,
    }
}

/// The budget and the pipeline of `w` on `m` at a decode rate of `mpix_per_core`, in steady
/// state: when the loader keeps up, the queue holds `num_workers × prefetch_factor` batches;
/// when the training loop waits for data, it is empty (measured: 0–4 batches waiting,
/// docs/validation.md). The full-queue budget (less page cache) decides first; the empty queue
/// is kept only if the loop still waits for data with the page cache it frees.
fn steady_state(w: &Workload, m: &MachineRates, mpix_per_core: f64) -> (MemoryBudget, Pipeline) {
    let full = u64::from(w.num_workers) * u64::from(w.prefetch_factor);
    let gpus = m.gpus;
    let b_full = budget(
        w,
        m.usable_ram_bytes,
        full,
        gpus,
        m.start_method,
        &m.overheads,
    );
    let p_full = assemble(w, stages(w, &b_full, m, mpix_per_core));
    if full == 0 || !p_full.data_bound() {
        return (b_full, p_full);
    }
    let b_empty = budget(w, m.usable_ram_bytes, 0, gpus, m.start_method, &m.overheads);
    let p_empty = assemble(w, stages(w, &b_empty, m, mpix_per_core));
    if p_empty.data_bound() {
        (b_empty, p_empty)
    } else {
        (b_full, p_full)
    }
}

/// The budget and the pipeline of `w` (clamped) on `m`, with the decode rate it rests on; when
/// that rate is the built-in default, the utilisation at half and double it too.
pub fn simulate(w: &Workload, m: &MachineRates) -> (MemoryBudget, Pipeline) {
    let (rate, source) = costs::decode_rate_per_core(w);
    let (b, mut p) = steady_state(w, m, rate);
    if b.headroom_bytes.is_some_and(|h| h < 0) {
        // Past RAM the kernel swaps the loader's buffers: the stages' rates no longer hold
        // (assumption: paging runs at disk speed, far below any stage here), so no
        // utilisation is predicted; the RAM finding says why.
        p.exceeds_ram = true;
        p.predicted_gpu_utilization = None;
    }
    let cpu_images = w.decode_on == DecodeOn::Cpu && w.width > 0;
    if cpu_images {
        let at = |r: f64| steady_state(w, m, r).1.predicted_gpu_utilization;
        let default = source == Provenance::Default && !p.exceeds_ram;
        p.decode = Some(DecodeAssumption {
            mpix_per_core: rate,
            source,
            utilization_at_half: if default { at(rate / 2.0) } else { None },
            utilization_at_double: if default { at(rate * 2.0) } else { None },
        });
    }
    (b, p)
}
