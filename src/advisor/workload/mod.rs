//! Workload simulator: a data-loading scenario (dataset, samples, DataLoader settings, GPU
//! demand) on a machine → the RAM working set, whether the dataset fits in the page cache, the
//! throughput of each pipeline stage in samples/s, the bottleneck and the predicted GPU
//! utilisation, with computed recommendations. Every constant names its source or is marked
//! as an assumption; `docs/model.md` § "Workload simulator" lists them.

mod budget;
mod pipeline;
pub mod presets;

use serde::{Deserialize, Serialize};

use crate::profile::Problem;

pub use budget::{BudgetItem, BudgetItemId, MAIN_PROCESS_BYTES, MemoryBudget, OS_BYTES};
pub use pipeline::{Pipeline, Stage, StageId, typical_storage};

/// How samples are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum StoredFormat {
    /// JPEG files.
    #[default]
    Jpeg,
    /// PNG files.
    Png,
    /// Raw arrays (`.npy`, tensors): no decoding.
    Raw,
}

/// How the dataset is laid out on storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DataFormat {
    /// One file per sample (an ImageFolder).
    #[default]
    Files,
    /// Sequential shards (WebDataset, TFRecord).
    Shards,
    /// Memory-mapped (LMDB, HDF5, Arrow).
    Mmap,
    /// Loaded fully into RAM before training.
    InRam,
}

/// Where samples are decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DecodeOn {
    /// DataLoader workers on the CPU.
    #[default]
    Cpu,
    /// The GPU (NVIDIA DALI / nvJPEG).
    Gpu,
}

/// Online augmentation cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Augmentation {
    /// None (resize/crop only).
    None,
    /// Flips, crops, colour jitter.
    #[default]
    Light,
    /// Multi-scale crops, rotations, blur, mixing: several full-resolution float passes.
    Heavy,
}

impl Augmentation {
    /// CPU cost multiplier on decoding. Assumption: light augmentation adds half a decode's
    /// work, heavy adds two (torchvision transform timings relative to libjpeg-turbo decode).
    pub fn cpu_factor(self) -> f64 {
        match self {
            Augmentation::None => 1.0,
            Augmentation::Light => 1.5,
            Augmentation::Heavy => 3.0,
        }
    }

    /// Full-resolution float32 copies of the decoded image an augmentation makes before the
    /// crop, per sample being prepared. Light pipelines (RandomResizedCrop, flip, ToTensor) crop
    /// first and convert only the crop: 0, as measured (docs/validation.md). Heavy pipelines
    /// (multi-scale, rotation, blur on the full image) are assumed to convert to float and chain
    /// two ops: 2 (not measured).
    pub fn float_copies(self) -> f64 {
        match self {
            Augmentation::None => 0.0,
            Augmentation::Light => 0.0,
            Augmentation::Heavy => 2.0,
        }
    }
}

/// Tensor element type of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Dtype {
    /// uint8.
    U8,
    /// float16 / bfloat16.
    F16,
    /// float32.
    #[default]
    F32,
}

impl Dtype {
    /// Bytes per element.
    pub fn bytes(self) -> u64 {
        match self {
            Dtype::U8 => 1,
            Dtype::F16 => 2,
            Dtype::F32 => 4,
        }
    }
}

/// A data-loading scenario. Sizes in bytes; images in pixels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// Preset id it came from, if any.
    #[serde(default)]
    pub preset: Option<String>,
    /// Dataset size on storage, bytes.
    pub dataset_bytes: u64,
    /// Number of samples.
    pub samples: u64,
    /// Image width, pixels (0 for non-image data; then `sample_bytes` is used).
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// Channels (3 for RGB).
    pub channels: u32,
    /// Stored format.
    #[serde(default)]
    pub stored: StoredFormat,
    /// For non-image data (video, point clouds, tokens): bytes of one decoded sample. Ignored
    /// for images.
    #[serde(default)]
    pub sample_bytes: Option<u64>,
    /// Training crop side, pixels (the tensor the GPU sees is crop × crop × channels).
    pub crop: u32,
    /// Batch tensor dtype.
    #[serde(default)]
    pub dtype: Dtype,
    /// Batch size.
    pub batch_size: u32,
    /// DataLoader `num_workers`.
    pub num_workers: u32,
    /// DataLoader `prefetch_factor` (PyTorch default 2).
    pub prefetch_factor: u32,
    /// DataLoader `pin_memory`.
    pub pin_memory: bool,
    /// DataLoader `persistent_workers`.
    #[serde(default)]
    pub persistent_workers: bool,
    /// Augmentation.
    #[serde(default)]
    pub augmentation: Augmentation,
    /// Dataset layout.
    #[serde(default)]
    pub format: DataFormat,
    /// Where decoding happens.
    #[serde(default)]
    pub decode_on: DecodeOn,
    /// Samples per second the GPU(s) can consume (measured by the user, or a preset's
    /// assumption).
    pub gpu_demand_samples_per_s: f64,
    /// Experiments running at once on the machine.
    pub concurrent_experiments: u32,
    /// Where the dataset lives; `None` takes the machine's largest local disk.
    #[serde(default)]
    pub storage: Option<crate::profile::DiskKind>,
    /// Per-core JPEG decode rate measured on this machine, megapixels/s (`None`: the default
    /// assumption, [`DEFAULT_DECODE_MPIX_PER_CORE`]).
    #[serde(default)]
    pub measured_decode_mpix_per_core: Option<f64>,
}

/// JPEG decode rate per core when not measured: 250 megapixels/s. Measured: Pillow 13 with
/// libjpeg-turbo 3.2 decodes 259–264 MP/s per core (quality 90, 4:2:0) on a current AMD EPYC
/// core (docs/validation.md). Older or lower-clocked server cores are slower; `--decode-rate`
/// replaces it with a figure measured on the machine.
pub const DEFAULT_DECODE_MPIX_PER_CORE: f64 = 250.0;

/// Share of the isolated decode rate that DataLoader workers deliver to the training process
/// (pickling, shared-memory hand-off, collation): 0.7, measured 0.67–0.76 with Pillow and a
/// torchvision pipeline (docs/validation.md). Applies when `num_workers` ≥ 1.
pub const WORKER_TRANSFER_EFFICIENCY: f64 = 0.7;

/// PNG decodes several times slower than JPEG (zlib inflate plus filters). Assumption: 30 %
/// of the JPEG rate.
pub const PNG_DECODE_FACTOR: f64 = 0.3;

impl Workload {
    /// Pixels of one stored image (width × height), or 0 for non-image data.
    pub fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }

    /// Bytes of one decoded sample: width × height × channels (uint8), or `sample_bytes`.
    pub fn decoded_bytes(&self) -> u64 {
        if self.width > 0 && self.height > 0 {
            self.pixels() * u64::from(self.channels.max(1))
        } else {
            self.sample_bytes.unwrap_or(0)
        }
    }

    /// Bytes of one sample as the GPU receives it: crop² × channels × dtype (images), else the
    /// decoded sample.
    pub fn tensor_bytes(&self) -> u64 {
        if self.width > 0 && self.crop > 0 {
            u64::from(self.crop)
                * u64::from(self.crop)
                * u64::from(self.channels.max(1))
                * self.dtype.bytes()
        } else {
            self.decoded_bytes()
        }
    }

    /// Average stored file size, bytes.
    pub fn file_bytes(&self) -> u64 {
        self.dataset_bytes / self.samples.max(1)
    }

    /// Changes the dataset's size on storage and the sample count with it, keeping the average
    /// file size: a larger dataset of the same images has more of them. The window's slider and
    /// `--dataset-size` both use it; `--samples` (or the samples slider) then sets the count.
    pub fn set_dataset_size(&mut self, bytes: u64) {
        let file = self.file_bytes().max(1);
        self.dataset_bytes = bytes;
        self.samples = (bytes / file).max(1);
    }

    /// Checks every field against the range the model handles. Returns the field's name (as in
    /// a scenario file) and what is wrong. Sliders can't leave these ranges; files and flags can.
    pub fn validate(&self) -> Result<(), (&'static str, Problem)> {
        fn range<T: PartialOrd + ToString>(
            field: &'static str,
            v: T,
            lo: T,
            hi: T,
        ) -> Result<(), (&'static str, Problem)> {
            if v < lo || v > hi {
                Err((field, Problem::out_of_range(v, lo, hi)))
            } else {
                Ok(())
            }
        }
        range("dataset_bytes", self.dataset_bytes, 1 << 20, 1 << 50)?;
        range("samples", self.samples, 1, 1 << 40)?;
        range("width", self.width, 0, 65_536)?;
        range("height", self.height, 0, 65_536)?;
        if (self.width == 0) != (self.height == 0) {
            return Err(("width", Problem::WidthHeightPair));
        }
        if self.width == 0 && self.sample_bytes.unwrap_or(0) == 0 {
            return Err(("sample_bytes", Problem::NeedsSampleBytes));
        }
        range("channels", self.channels, 1, 16)?;
        if self.width > 0 {
            range("crop", self.crop, 1, 16_384)?;
        }
        range("batch_size", self.batch_size, 1, 65_536)?;
        range("num_workers", self.num_workers, 0, 1024)?;
        range("prefetch_factor", self.prefetch_factor, 1, 64)?;
        range("concurrent_experiments", self.concurrent_experiments, 1, 64)?;
        let demand = self.gpu_demand_samples_per_s;
        if !(demand.is_finite() && demand > 0.0 && demand <= 1e7) {
            return Err((
                "gpu_demand_samples_per_s",
                Problem::AboveZeroAtMost {
                    value: demand.to_string(),
                    hi: "10000000".into(),
                },
            ));
        }
        if let Some(r) = self.measured_decode_mpix_per_core {
            if !(r.is_finite() && r > 0.0 && r <= 1e5) {
                return Err((
                    "measured_decode_mpix_per_core",
                    Problem::AboveZeroAtMost {
                        value: r.to_string(),
                        hi: "100000".into(),
                    },
                ));
            }
        }
        Ok(())
    }

    /// Clamps every field into a range the model handles (no zeros where they would divide,
    /// no absurd sizes), so sliders and files can't produce NaN or ∞.
    pub fn clamped(&self) -> Workload {
        let mut w = self.clone();
        w.dataset_bytes = w.dataset_bytes.clamp(1 << 20, 1 << 50);
        w.samples = w.samples.clamp(1, 1 << 40);
        w.width = w.width.min(65_536);
        w.height = w.height.min(65_536);
        w.channels = w.channels.clamp(1, 16);
        w.crop = w.crop.min(16_384);
        w.batch_size = w.batch_size.clamp(1, 65_536);
        w.num_workers = w.num_workers.min(1024);
        w.prefetch_factor = w.prefetch_factor.clamp(1, 64);
        w.concurrent_experiments = w.concurrent_experiments.clamp(1, 64);
        w.gpu_demand_samples_per_s = if w.gpu_demand_samples_per_s.is_finite() {
            w.gpu_demand_samples_per_s.clamp(0.1, 1e7)
        } else {
            100.0
        };
        w.measured_decode_mpix_per_core = w
            .measured_decode_mpix_per_core
            .filter(|r| r.is_finite() && *r > 0.0);
        w
    }
}

/// What the simulator found for one workload on one machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadResult {
    /// The workload as used (clamped).
    pub workload: Workload,
    /// The RAM budget (`memory_budget` in `advise --json`).
    pub memory_budget: MemoryBudget,
    /// The pipeline (`pipeline` in `advise --json`).
    pub pipeline: Pipeline,
    /// /dev/shm this workload needs, bytes.
    pub shm_needed_bytes: u64,
    /// RAM that would hold the working set and the whole dataset in the page cache, rounded
    /// up to a common capacity.
    pub ram_to_cache_dataset_bytes: u64,
}

/// Runs the simulator for `w` on the machine described by `m`.
pub fn simulate(w: &Workload, m: &pipeline::MachineRates) -> WorkloadResult {
    let w = w.clamped();
    let budget = budget::budget(&w, m.effective_ram_bytes);
    let pipeline = pipeline::pipeline(&w, &budget, m);
    let shm_needed_bytes = budget::shm_needed(&w);
    let working = budget
        .items
        .iter()
        .filter(|i| i.id != BudgetItemId::PageCache)
        .map(|i| i.bytes)
        .sum::<u64>();
    let ram_to_cache_dataset_bytes =
        super::training::round_up_ram(working.saturating_add(w.dataset_bytes));
    WorkloadResult {
        workload: w,
        memory_budget: budget,
        pipeline,
        shm_needed_bytes,
        ram_to_cache_dataset_bytes,
    }
}

pub use pipeline::MachineRates;

impl MachineRates {
    /// The simulator's view of a profiled machine: effective RAM, physical cores, memory
    /// bandwidth (measured Triad, else the theoretical peak), the dataset disk's measured read
    /// speed or its kind's typical rates, and the first GPU's PCIe link at its maximum (GPUs
    /// raise an idle link under load).
    pub fn from_profile(
        profile: &crate::profile::MachineProfile,
        ram: &super::EffectiveRam,
        storage: Option<crate::profile::DiskKind>,
        bandwidth: Option<&super::bandwidth::Bandwidth>,
    ) -> MachineRates {
        use crate::profile::DiskKind;
        let kind = storage.unwrap_or_else(|| {
            profile
                .disks
                .iter()
                .filter(|d| d.kind != DiskKind::Network)
                .max_by_key(|d| d.total_bytes.unwrap_or(0))
                .map_or(DiskKind::Unknown, |d| d.kind)
        });
        let (typical_read, latency) = pipeline::typical_storage(kind);
        let measured_read = bandwidth
            .and_then(|b| b.storage.iter().find(|s| s.kind == Some(kind)))
            .and_then(|s| s.sequential_read_bytes_per_s);
        let discrete: Vec<_> = profile.gpus.iter().filter(|g| !g.unified_memory).collect();
        let pcie = discrete.first().and_then(|g| g.pcie).and_then(|l| {
            super::bandwidth::pcie_bytes_per_s(
                l.gen_max.or(l.gen_current),
                l.width_max.or(l.width_current),
            )
        });
        let memory_bandwidth = bandwidth.and_then(|b| {
            b.memory
                .measured_triad_bytes_per_s
                .or(b.memory.theoretical_bytes_per_s)
        });
        MachineRates {
            effective_ram_bytes: ram.effective_bytes,
            // Workers can only use the CPUs this process may use (a Slurm job's cpuset, a
            // container's quota): fewer than the machine's cores there.
            physical_cores: match (profile.cpu.physical_cores, profile.cpu.logical_cpus) {
                (Some(p), Some(l)) => Some(p.min(l)),
                (p, l) => p.or(l),
            },
            memory_bandwidth,
            storage_kind: kind,
            storage_read: measured_read.unwrap_or(typical_read),
            storage_latency: latency,
            pcie_bytes_per_s: pcie,
            gpus: discrete.len() as u32,
        }
    }
}
