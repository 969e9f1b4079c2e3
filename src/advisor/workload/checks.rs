//! Checks on a workload's inputs before they are believed: inputs that can't change the result
//! given the others (a flag for them is a mistake worth saying), and a dataset size that
//! doesn't match the sample count, format and image size.

use serde::{Deserialize, Serialize};

use super::{CacheMode, CacheScope, DecodeOn, Workload};

/// An input of the workload, as the command line and the window name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InertInput {
    /// `sample_bytes`.
    SampleBytes,
    /// `crop`.
    Crop,
    /// `dtype`.
    Dtype,
    /// `stored`.
    Stored,
    /// `augmentation`.
    Augmentation,
    /// `measured_decode_mpix_per_core`.
    DecodeRate,
    /// `prefetch_factor`.
    PrefetchFactor,
    /// `persistent_workers`.
    PersistentWorkers,
    /// `cache_width` and `cache_height`.
    CacheSize,
    /// `cache_dtype`.
    CacheDtype,
    /// `cache_scope`.
    CacheScope,
    /// `index_bytes_per_sample`.
    IndexBytes,
    /// `storage`.
    Storage,
}

/// Why an input can't change the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Inert {
    /// The samples are images: their size comes from width × height × channels.
    ImagesHaveASize,
    /// The samples aren't images (no width × height): no crop, dtype, format or decoding.
    NotImages,
    /// `num_workers` is 0: no worker prefetches, copies the index or persists.
    NoWorkers,
    /// Decoding runs on the GPU: the CPU decode rate and augmentation don't count.
    GpuDecode,
    /// Decoded images come from the RAM cache: nothing is decoded.
    DecodedCache,
    /// Only a decoded-image cache has a size and a dtype.
    NoDecodedCache,
    /// There is no cache.
    NoCache,
    /// Only a cache each worker fills itself depends on `persistent_workers`.
    NotPerWorkerCache,
    /// The dataset is cached in RAM: storage is read once, not every epoch.
    CachedInRam,
}

/// The inputs of `w` that can't change what the simulator says, with the reason for each.
pub fn inert_inputs(w: &Workload) -> Vec<(InertInput, Inert)> {
    use InertInput as I;
    let mut out = Vec::new();
    let image = w.width > 0 && w.height > 0;
    if image {
        out.push((I::SampleBytes, Inert::ImagesHaveASize));
    } else {
        for i in [I::Crop, I::Dtype, I::Stored, I::Augmentation, I::DecodeRate] {
            out.push((i, Inert::NotImages));
        }
    }
    if image && w.decode_on == DecodeOn::Gpu {
        out.push((I::DecodeRate, Inert::GpuDecode));
        out.push((I::Augmentation, Inert::GpuDecode));
    }
    if image && w.cache == CacheMode::DecodedInRam && w.decode_on == DecodeOn::Cpu {
        out.push((I::DecodeRate, Inert::DecodedCache));
    }
    if w.num_workers == 0 {
        for i in [I::PrefetchFactor, I::IndexBytes, I::PersistentWorkers] {
            out.push((i, Inert::NoWorkers));
        }
    } else if w.cache_scope != CacheScope::PerWorker || w.cache == CacheMode::None {
        out.push((I::PersistentWorkers, Inert::NotPerWorkerCache));
    }
    if w.cache != CacheMode::DecodedInRam || !image {
        out.push((I::CacheSize, Inert::NoDecodedCache));
        out.push((I::CacheDtype, Inert::NoDecodedCache));
    }
    if w.cache == CacheMode::None {
        out.push((I::CacheScope, Inert::NoCache));
    } else {
        out.push((I::Storage, Inert::CachedInRam));
    }
    // One reason per input: the first found.
    let mut seen = std::collections::HashSet::new();
    out.retain(|(i, _)| seen.insert(*i));
    out
}

/// How far a dataset's implied bytes per sample may sit outside the format's usual range
/// before it is flagged: 4× either way. Assumption: wider than any quality setting or image
/// content moves a JPEG or PNG, narrow enough to catch a dataset size off by an order of
/// magnitude (a sample count for a subset, a size in GB for GiB is not caught).
pub const CONSISTENCY_TOLERANCE: f64 = 4.0;

/// The stored bytes per sample that the dataset size and sample count imply, against what the
/// format and image size usually take.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Consistency {
    /// dataset bytes ÷ samples.
    pub implied_bytes_per_sample: u64,
    /// ÷ width × height.
    pub implied_bytes_per_pixel: f64,
    /// The format's usual range, bytes per pixel ([`super::StoredFormat::bytes_per_pixel`]).
    pub low_bytes_per_pixel: f64,
    /// See `low_bytes_per_pixel`.
    pub high_bytes_per_pixel: f64,
    /// A typical file of this format and size, bytes.
    pub typical_bytes_per_sample: u64,
    /// False when the implied size is more than [`CONSISTENCY_TOLERANCE`] outside the range.
    pub plausible: bool,
}

/// The consistency of `w`'s dataset size with its samples, format and image size; `None` for
/// non-image samples (nothing to compare with).
pub fn consistency(w: &Workload) -> Option<Consistency> {
    let pixels = w.pixels();
    if pixels == 0 {
        return None;
    }
    let (low, typical, high) = w.stored.bytes_per_pixel(w.channels);
    let implied = w.file_bytes();
    let per_pixel = implied as f64 / pixels as f64;
    Some(Consistency {
        implied_bytes_per_sample: implied,
        implied_bytes_per_pixel: per_pixel,
        low_bytes_per_pixel: low,
        high_bytes_per_pixel: high,
        typical_bytes_per_sample: (typical * pixels as f64).round() as u64,
        plausible: per_pixel * CONSISTENCY_TOLERANCE >= low
            && per_pixel <= high * CONSISTENCY_TOLERANCE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::workload::presets;

    #[test]
    fn a_4k_jpeg_of_150_mb_is_flagged_and_one_of_3_mb_is_not() {
        let seed = presets::preset("seed-4k-medical").unwrap();
        // 2,000 GB over 666,667 files: 2,999,998 bytes per 3840 × 2160 image = 0.362 B/px,
        // inside JPEG's 0.1–0.5.
        let c = consistency(&seed).unwrap();
        assert_eq!(c.implied_bytes_per_sample, 2_999_998);
        assert!((c.implied_bytes_per_pixel - 2_999_998.0 / 8_294_400.0).abs() < 1e-12);
        assert!(c.plausible);
        // 100,000 GB over the same files: 150 MB per JPEG = 18.1 B/px, above 0.5 × 4 = 2.
        let big = Workload {
            dataset_bytes: 100_000_000_000_000,
            ..seed.clone()
        };
        let c = consistency(&big).unwrap();
        assert_eq!(c.implied_bytes_per_sample, 149_999_925);
        assert!(!c.plausible);
        // A typical 4K JPEG is 0.3 × 8,294,400 = 2,488,320 bytes.
        assert_eq!(c.typical_bytes_per_sample, 2_488_320);
        // 1,000 bytes per 4K image (0.00012 B/px) is far below 0.1 ÷ 4.
        let tiny = Workload {
            dataset_bytes: 666_667_000,
            ..seed
        };
        assert!(!consistency(&tiny).unwrap().plausible);
    }

    #[test]
    fn prefetch_factor_means_nothing_without_workers() {
        let mut w = presets::preset("imagenet-resnet50").unwrap();
        w.num_workers = 0;
        let inert = inert_inputs(&w);
        assert!(inert.contains(&(InertInput::PrefetchFactor, Inert::NoWorkers)));
        w.num_workers = 4;
        assert!(
            !inert_inputs(&w)
                .iter()
                .any(|(i, _)| *i == InertInput::PrefetchFactor)
        );
        // Images have a size of their own: sample_bytes is for other samples.
        assert!(inert_inputs(&w).contains(&(InertInput::SampleBytes, Inert::ImagesHaveASize)));
    }
}
