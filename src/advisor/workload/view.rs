//! The pipeline as the Bandwidth page shows it: each stage's capacity on this machine in bytes/s
//! (from [`super::rates`]), and, once a workload is set up, the simulator's samples/s for that
//! stage with the bytes each sample moves there. There is one pipeline model, the simulator's:
//! this view only converts its numbers.

use serde::{Deserialize, Serialize};

use super::costs;
use super::pipeline::bytes_touched_per_sample;
use super::{CacheMode, MachineRates, StageId, WorkloadResult};
use crate::profile::Provenance;

/// Bytes of one decoded pixel the CPU decode capacity is counted in: 3 (RGB, uint8).
pub const DECODED_BYTES_PER_PIXEL: f64 = 3.0;

/// One stage as the Bandwidth page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageView {
    /// Which stage.
    pub id: StageId,
    /// What the machine can move at this stage, bytes/s: storage read, memory bandwidth, JPEG
    /// decode output of every core (decoded RGB bytes), every GPU's PCIe link; for GPU
    /// demand, what the workload's GPUs take.
    pub capacity_bytes_per_s: Option<f64>,
    /// Where the capacity comes from: measured, the provenance of a theoretical peak's inputs
    /// (detected, entered, estimated), typical (storage), default or entered (the decode
    /// rate), entered (GPU demand, from the workload), unknown when the capacity is.
    pub source: Provenance,
    /// True when the capacity is a theoretical peak computed from the hardware's
    /// specification (memory channels × speed, PCIe generation × width), not a measured or
    /// assumed rate.
    #[serde(default)]
    pub theoretical: bool,
    /// With a workload: the samples/s the simulator gives this stage (`None`: it doesn't limit,
    /// or a figure is unknown).
    pub samples_per_s: Option<f64>,
    /// With a workload: bytes each sample moves at this stage (the file read, the bytes
    /// touched in RAM, the decoded image, the tensor sent to the GPU).
    pub bytes_per_sample: Option<u64>,
}

impl StageView {
    /// With a workload, the stage's pace in bytes/s: samples/s × bytes per sample.
    pub fn workload_bytes_per_s(&self) -> Option<f64> {
        Some(self.samples_per_s? * self.bytes_per_sample? as f64)
    }
}

/// The pipeline storage → RAM → CPU decode → PCIe → GPU: the one pipeline of the assessment
/// JSON (`bandwidth.pipeline`), with or without a workload.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PipelineView {
    /// The stages in order; the last is GPU demand.
    pub stages: Vec<StageView>,
    /// With a workload, the narrowest supplying stage in samples/s (the simulator's); without,
    /// `None`: stages that move different bytes per sample can't be compared in bytes/s.
    /// `narrowest_stage` in JSON.
    #[serde(rename = "narrowest_stage")]
    pub narrowest: Option<StageId>,
    /// With a workload, true when the narrowest stage is below what the GPUs want; `None` also
    /// when the GPUs' demand isn't known ([`Self::demand_given`]).
    pub starves_gpus: Option<bool>,
    /// With a workload, whether the GPUs' demand is known (given, or a preset's figure for that
    /// kind of model), [`super::presets::demand_given`]; false for the generic preset's
    /// placeholder, against which nothing is predicted. `demand_given` in JSON.
    #[serde(default)]
    pub demand_given: bool,
    /// With a workload, the simulator's min(1, narrowest supply / demand); `None` when the
    /// working set exceeds usable RAM ([`Self::exceeds_ram`]).
    #[serde(default)]
    pub predicted_gpu_utilization: Option<f64>,
    /// With a workload whose working set exceeds usable RAM: no utilisation is reachable (the
    /// run swaps or is killed).
    #[serde(default)]
    pub exceeds_ram: bool,
    /// With a workload, the `num_workers` the advisor recommends
    /// ([`super::levers::recommended_workers`]); `None` when decoding isn't on CPU workers or no
    /// count fits.
    #[serde(default)]
    pub recommended_num_workers: Option<u32>,
    /// With a workload on the built-in decode rate: the predicted utilisation at half and at
    /// twice that rate (how much the prediction leans on the assumption).
    #[serde(default)]
    pub utilization_at_half_decode_rate: Option<f64>,
    /// See [`Self::utilization_at_half_decode_rate`].
    #[serde(default)]
    pub utilization_at_double_decode_rate: Option<f64>,
    /// True when a workload was simulated.
    pub with_workload: bool,
    /// Physical cores behind the CPU decode capacity.
    pub decode_cores: Option<u32>,
    /// JPEG decode rate per core behind it, megapixels/s.
    pub decode_mpix_per_core: f64,
    /// Where the decode rate came from: [`Provenance::Default`] or [`Provenance::Entered`].
    /// With a workload whose samples aren't decoded by CPU workers (GPU decode, no images),
    /// `None`: the rate plays no part in its prediction.
    pub decode_source: Option<Provenance>,
    /// The measured storage folder, when the storage figure is measured.
    pub storage_path: Option<String>,
    /// The kind of storage the dataset is on.
    pub storage_kind: Option<crate::profile::DiskKind>,
}

impl PipelineView {
    /// The simulator's rate of stage `id`, samples/s; `None` without a workload, or when the
    /// stage has none (cached storage, an unknown figure).
    pub fn rate(&self, id: StageId) -> Option<f64> {
        self.stages
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| s.samples_per_s)
    }

    /// The stage that starves the GPUs: the narrowest one when it is below their demand
    /// ([`Self::starves_gpus`]); `None` without a workload or when the GPUs are fed.
    pub fn bottleneck(&self) -> Option<StageId> {
        self.narrowest.filter(|_| self.starves_gpus == Some(true))
    }
}

/// The pipeline view of machine `m`, with workload result `r` when one is set up.
pub fn pipeline_view(m: &MachineRates, r: Option<&WorkloadResult>) -> PipelineView {
    let decode = r.and_then(|r| r.pipeline.decode);
    let (rate, source) = match r {
        Some(r) => costs::decode_rate_per_core(&r.workload),
        None => (costs::DEFAULT_DECODE_MPIX_PER_CORE, Provenance::Default),
    };
    let decode_capacity = m
        .physical_cores
        .map(|c| f64::from(c) * rate * 1e6 * DECODED_BYTES_PER_PIXEL);
    let rate_of = |id| r.and_then(|r| r.pipeline.rate(id));
    let per_sample = |id| {
        r.map(|r| {
            let w = &r.workload;
            match id {
                StageId::StorageRead => w.file_bytes(),
                StageId::RamBandwidth => bytes_touched_per_sample(w) as u64,
                StageId::Decode if w.cache == CacheMode::DecodedInRam && w.width > 0 => {
                    w.cache_pixels() * u64::from(w.channels.max(1))
                }
                StageId::Decode => w.decoded_bytes(),
                StageId::PcieHostToDevice | StageId::GpuDemand => w.tensor_bytes(),
            }
        })
    };
    let known = |v: Option<f64>, s: Provenance| {
        if v.is_some() { s } else { Provenance::Unknown }
    };
    let demand = r.map(|r| r.workload.gpu_demand_samples_per_s * r.workload.tensor_bytes() as f64);
    // The generic preset's demand is a placeholder, not the user's figure
    // ([`super::presets::demand_given`]): an assumption, said as one.
    let given = r.is_some_and(|r| super::presets::demand_given(&r.workload));
    let demand_source = if r.is_some() && !given {
        Provenance::Default
    } else {
        Provenance::Entered
    };
    let judged = r.filter(|_| given);
    let stage = |id, capacity: Option<f64>, source, theoretical: bool| StageView {
        id,
        capacity_bytes_per_s: capacity,
        source: known(capacity, source),
        theoretical: theoretical && capacity.is_some(),
        samples_per_s: rate_of(id),
        bytes_per_sample: per_sample(id),
    };
    let stages = vec![
        stage(
            StageId::StorageRead,
            Some(m.storage_read),
            m.sources.storage,
            false,
        ),
        stage(
            StageId::RamBandwidth,
            m.memory_bandwidth,
            m.sources.memory_bandwidth,
            m.sources.memory_theoretical,
        ),
        stage(StageId::Decode, decode_capacity, source, false),
        stage(
            StageId::PcieHostToDevice,
            m.pcie_bytes_per_s,
            m.sources.pcie,
            true,
        ),
        stage(StageId::GpuDemand, demand, demand_source, false),
    ];
    PipelineView {
        stages,
        narrowest: r.and_then(|r| r.pipeline.narrowest),
        // Against a placeholder demand no utilisation is predicted and no starvation judged:
        // unknown stays unknown ([`super::presets::demand_given`]).
        starves_gpus: judged.map(|r| r.pipeline.bottleneck.is_some()),
        predicted_gpu_utilization: judged.and_then(|r| r.pipeline.predicted_gpu_utilization),
        demand_given: given,
        exceeds_ram: r.is_some_and(|r| r.pipeline.exceeds_ram),
        recommended_num_workers: r.and_then(|r| r.pipeline.recommended_num_workers),
        utilization_at_half_decode_rate: decode.and_then(|d| d.utilization_at_half),
        utilization_at_double_decode_rate: decode.and_then(|d| d.utilization_at_double),
        with_workload: r.is_some(),
        decode_cores: m.physical_cores,
        decode_mpix_per_core: rate,
        decode_source: match r {
            Some(_) => decode.map(|d| d.source),
            None => Some(source),
        },
        storage_path: m.sources.storage_path.clone(),
        storage_kind: Some(m.storage_kind),
    }
}
