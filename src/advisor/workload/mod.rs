//! Workload simulator: a data-loading scenario (dataset, samples, DataLoader settings, GPU
//! demand) on a machine → the RAM working set, whether the dataset fits in the page cache, the
//! throughput of each pipeline stage in samples/s, the bottleneck and the predicted GPU
//! utilisation, with computed recommendations. Every constant names its source or is marked
//! as an assumption; `docs/model.md` § "Workload simulator" lists them.

mod budget;
mod checks;
pub mod costs;
mod findings;
mod kinds;
pub mod knob_values;
mod lever_base;
pub mod levers;
mod loader_levers;
mod pause;
mod pipeline;
mod pipeline_levers;
pub mod presets;
mod rates;
mod result;
mod simulate;
mod simulator;
mod validate;
pub mod view;

use serde::{Deserialize, Serialize};

pub use budget::{
    BudgetItem, BudgetItemId, MAIN_PROCESS_BYTES, MemoryBudget, OS_BYTES, ShmNeed,
    WORKER_SPAWN_BASE_BYTES, recommended_shm,
};
pub use checks::{Consistency, Inert, InertInput, inert_inputs};
pub use costs::DEFAULT_DECODE_MPIX_PER_CORE;
pub use findings::{SWAP_RISK_SHARE, findings, shm_finding, shm_flag};
pub use kinds::{Augmentation, CacheMode, CacheScope, DataFormat, DecodeOn, Dtype, StoredFormat};
pub use pause::{EvaluationPause, LoaderPause, LoaderRole, evaluation_pause};
pub use pipeline::{DecodeAssumption, Pipeline, Stage, StageId};
pub use rates::{MachineRates, typical_storage, usable_cores};
pub use result::WorkloadResult;
pub use simulate::simulate;
pub use simulator::simulate_only;

/// Bytes of Python objects per sample in an ImageFolder-style index when not given: 190.
/// Measured with `tracemalloc` on CPython 3.11: a list of 200,000 `(path, class)` tuples with
/// ImageNet-length paths (`/data/imagenet/train/n01440764/n01440764_10026.JPEG`, 52
/// characters) and 1,000 classes took 189 bytes per sample: the list slot (8), the tuple (56),
/// the path string (101) and the class integer (28; small integers are shared).
pub const DEFAULT_INDEX_BYTES_PER_SAMPLE: u64 = 190;

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
    /// What the training script caches in RAM.
    #[serde(default)]
    pub cache: CacheMode,
    /// Width of a cached decoded image, pixels: the training size after resize or letterbox,
    /// not the stored one (0: the crop side).
    #[serde(default)]
    pub cache_width: u32,
    /// Height of a cached decoded image, pixels (0: the crop side).
    #[serde(default)]
    pub cache_height: u32,
    /// Element type of the cached decoded images (uint8 unless the script stores floats).
    #[serde(default = "u8_dtype")]
    pub cache_dtype: Dtype,
    /// Which processes hold a copy of the cache.
    #[serde(default)]
    pub cache_scope: CacheScope,
    /// Bytes of Python objects per sample in the dataset's index (`None`:
    /// [`DEFAULT_INDEX_BYTES_PER_SAMPLE`]).
    #[serde(default)]
    pub index_bytes_per_sample: Option<u64>,
    /// A second DataLoader that runs while training pauses (validation), with its own
    /// settings; `None`: only the training loader.
    #[serde(default)]
    pub validation: Option<Loader>,
}

/// A DataLoader's own settings, for a loader besides the training one (a validation loader
/// over samples of the same kind: its batch's samples are [`Workload::tensor_bytes`] each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loader {
    /// `batch_size`.
    pub batch_size: u32,
    /// `num_workers`.
    pub num_workers: u32,
    /// `prefetch_factor` (PyTorch default 2).
    #[serde(default = "two")]
    pub prefetch_factor: u32,
    /// `pin_memory`.
    #[serde(default)]
    pub pin_memory: bool,
}

fn two() -> u32 {
    2
}

fn u8_dtype() -> Dtype {
    Dtype::U8
}

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

    /// Pixels of one cached decoded image: the cached size, else crop × crop.
    pub fn cache_pixels(&self) -> u64 {
        let (w, h) = self.cache_size();
        u64::from(w) * u64::from(h)
    }

    /// The cached image's width and height (the crop side for a size not given).
    pub fn cache_size(&self) -> (u32, u32) {
        if self.cache_width > 0 && self.cache_height > 0 {
            (self.cache_width, self.cache_height)
        } else {
            (self.crop, self.crop)
        }
    }

    /// Copies of the cache the processes hold, per experiment: one shared; one per DDP rank
    /// (`gpus`); one per worker with `persistent_workers` (without, the restarted workers hold
    /// one copy between them).
    pub fn cache_copies(&self, gpus: u32) -> u64 {
        match self.cache_scope {
            CacheScope::Shared => 1,
            CacheScope::PerRank => u64::from(gpus.max(1)),
            CacheScope::PerWorker if self.persistent_workers => u64::from(self.num_workers.max(1)),
            CacheScope::PerWorker => 1,
        }
    }

    /// Bytes of one copy of the cache: the dataset's stored size, or samples × cached pixels ×
    /// channels × dtype for decoded images (non-image samples: their decoded size); 0 without a
    /// cache.
    pub fn cache_bytes_per_copy(&self) -> u64 {
        match self.cache {
            CacheMode::None => 0,
            CacheMode::StoredInRam => self.dataset_bytes,
            CacheMode::DecodedInRam => {
                let per_sample = if self.width > 0 {
                    self.cache_pixels()
                        .saturating_mul(u64::from(self.channels.max(1)))
                        .saturating_mul(self.cache_dtype.bytes())
                } else {
                    self.decoded_bytes()
                };
                per_sample.saturating_mul(self.samples)
            }
        }
    }

    /// Bytes of Python objects per sample in the dataset index.
    pub fn index_bytes(&self) -> u64 {
        self.index_bytes_per_sample
            .unwrap_or(DEFAULT_INDEX_BYTES_PER_SAMPLE)
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

    /// Changes the stored image size and the dataset's size with it, keeping the sample count
    /// and the bytes per pixel: the same kind of files at another resolution. The command line
    /// uses it when `--image-size` is given without `--dataset-size`.
    pub fn set_image_size(&mut self, width: u32, height: u32) {
        let before = self.pixels();
        let after = u64::from(width) * u64::from(height);
        if before > 0 && after > 0 {
            let scaled = self.file_bytes() as f64 * after as f64 / before as f64;
            self.dataset_bytes =
                crate::units::saturating_bytes(scaled * self.samples as f64).max(1);
        }
        self.width = width;
        self.height = height;
    }

    /// Clamps every field into a range the model handles (no zeros where they would divide,
    /// no absurd sizes), so sliders and files can't produce NaN or ∞.
    pub fn clamped(&self) -> Workload {
        let mut w = self.clone();
        w.dataset_bytes = w.dataset_bytes.clamp(1, 1 << 50);
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
        // Scenario files written before the cache input said "loaded fully into RAM" this way.
        if w.format == DataFormat::InRam {
            w.format = DataFormat::Files;
            if w.cache == CacheMode::None {
                w.cache = CacheMode::StoredInRam;
            }
        }
        w.cache_width = w.cache_width.min(65_536);
        w.cache_height = w.cache_height.min(65_536);
        w.index_bytes_per_sample = w.index_bytes_per_sample.map(|b| b.min(1 << 20));
        w.validation = w.validation.map(|v| Loader {
            batch_size: v.batch_size.clamp(1, 65_536),
            num_workers: v.num_workers.min(1024),
            prefetch_factor: v.prefetch_factor.clamp(1, 64),
            pin_memory: v.pin_memory,
        });
        w
    }
}
