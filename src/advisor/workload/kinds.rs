//! The workload's categorical inputs: how samples are stored, laid out, decoded, augmented,
//! batched and cached.

use serde::{Deserialize, Serialize};

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

impl StoredFormat {
    /// Bytes per pixel a stored file of this format usually takes, `(low, typical, high)`.
    /// JPEG at quality 75–95 with 4:2:0 chroma: about 0.1–0.5 byte per pixel for photographs
    /// (the figure; the benchmark's photograph-like files took 0.37 at quality 90,
    /// docs/validation.md), typical 0.3 (assumption). PNG (lossless, deflate): 1–3 bytes per
    /// pixel for RGB photographs, typical 2 (assumption). Raw uint8 arrays: exactly 3 for RGB,
    /// up to 12 for float32 (`channels × 1` to `channels × 4`; typical `channels`).
    pub fn bytes_per_pixel(self, channels: u32) -> (f64, f64, f64) {
        let c = f64::from(channels.max(1));
        match self {
            StoredFormat::Jpeg => (0.1, 0.3, 0.5),
            StoredFormat::Png => (1.0, 2.0, 3.0),
            StoredFormat::Raw => (c, c, 4.0 * c),
        }
    }
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
    /// Loaded fully into RAM before training. Kept so that scenario files written before the
    /// cache input still read: [`super::Workload::clamped`] turns it into one file per sample
    /// with [`CacheMode::StoredInRam`].
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

/// Online augmentation, as the torchvision pipelines docs/validation.md measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Augmentation {
    /// None: the stored images are already at the training size (ToTensor only).
    None,
    /// Resize and crop (flip): `Resize(256)`, `CenterCrop(224)`, `ToTensor` — the whole image
    /// is resampled once.
    #[default]
    Light,
    /// Crop first, then work on the crop: `RandomResizedCrop`, flip, `ColorJitter`,
    /// `GaussianBlur(23)`, `ToTensor`, `Normalize`.
    Heavy,
}

/// Tensor element type of a batch (or of a cache).
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

/// What a training script keeps in RAM besides the page cache (object-detection trainers'
/// "cache images" option, or a Dataset that loads everything in `__init__`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CacheMode {
    /// Nothing: every epoch reads the files (through the page cache).
    #[default]
    None,
    /// The stored files' bytes (JPEG/PNG as on disk) held in RAM: the dataset's size.
    StoredInRam,
    /// Decoded images held in RAM at the cached size: width × height × channels × dtype per
    /// sample — a JPEG's 10–30× its file size.
    DecodedInRam,
}

/// Which processes hold a copy of the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CacheScope {
    /// One copy, filled by the training process before the workers start (they share its
    /// pages): YOLO-style `cache="ram"` on one GPU.
    #[default]
    Shared,
    /// Each training process (DDP rank) fills its own copy: one per GPU.
    PerRank,
    /// Each DataLoader worker fills its own copy as it loads samples: with
    /// `persistent_workers` every worker ends up holding the whole cache; without, the workers
    /// are restarted each epoch and hold one copy between them.
    PerWorker,
}
