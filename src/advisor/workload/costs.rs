//! The CPU time one sample costs on one core, and what DataLoader workers deliver: decoding
//! (proportional to the stored pixels), resizing (proportional to the pixels resampled) and the
//! transforms after the crop (proportional to the output pixels). docs/validation.md measured
//! each term on its own and checked the sum on configurations it was not fitted on.

use super::{Augmentation, CacheMode, DecodeOn, StoredFormat, Workload};
use crate::profile::Provenance;

/// JPEG decode rate per core when not measured: 250 megapixels/s. Measured: Pillow 13 with
/// libjpeg-turbo 3.2 decodes 259–264 MP/s per core (quality 90, 4:2:0) on a current AMD EPYC
/// core (docs/validation.md). Older or lower-clocked server cores are slower; `--decode-rate`
/// or `ramvram bench decode` replaces it with a figure measured on the machine.
pub const DEFAULT_DECODE_MPIX_PER_CORE: f64 = 250.0;

/// Share of the single-core rate that DataLoader workers deliver to the training process
/// (pickling, shared-memory hand-off, collation, the training process's own share of the
/// cores): 0.7, measured 0.67–0.76 in the first benchmark and 0.60–0.81 in fitting runs f2,
/// f3, f5 and f6 of docs/validation.md. Applies when `num_workers` ≥ 1.
pub const WORKER_TRANSFER_EFFICIENCY: f64 = 0.7;

/// PNG decodes slower than JPEG per pixel (zlib inflate plus filters): 0.3 of the JPEG rate.
/// Assumption, not fitted: Pillow 13 decoded docs/validation.md's 1024² PNGs at 92 MP/s
/// against 265–277 MP/s for its JPEGs (0.34); compression level and content change it.
pub const PNG_DECODE_FACTOR: f64 = 0.3;

/// Raw arrays need no decode; reading them costs about a tenth of a JPEG decode of the same
/// pixels (a memory copy and a dtype conversion). Assumption.
pub const RAW_DECODE_FACTOR: f64 = 10.0;

/// Non-image samples (tokens, point clouds): parsing rate per core, bytes/s. Assumption 1 GB/s.
pub const PARSE_BYTES_PER_CORE: f64 = 1e9;

/// GPU JPEG decoding with NVIDIA DALI / nvJPEG: 2000 megapixels/s per GPU. Assumption from
/// NVIDIA's published nvJPEG figures (A100 hardware decoder, ~4,000 ImageNet images/s of
/// ~0.5 MP); the seed's "3–5× for high resolution" is a claim this does not rely on.
pub const GPU_DECODE_MPIX: f64 = 2000.0;

/// The crop side the transform costs below were measured at: 224 pixels.
pub const MEASURED_CROP: f64 = 224.0;

impl Augmentation {
    /// Seconds per stored pixel that the transform spends resampling the image before (or
    /// while) cropping, on one core. Light (`Resize(256)` resamples the whole image): 3.0 ns
    /// per pixel; heavy (`RandomResizedCrop` resamples a random 8–100 % of it): 0.4 ns; none:
    /// 0. Fitted with [`Augmentation::post_crop_s`] as a + b × pixels on the one-thread costs
    /// at 640×480 and 1920×1080 (light 1.42 and 6.66 ms, heavy 10.51 and 11.24 ms;
    /// docs/validation.md); checked at 1280×720, 2560×1440 and on 1024² PNGs.
    pub fn resize_s_per_input_pixel(self) -> f64 {
        match self {
            Augmentation::None => 0.0,
            Augmentation::Light => 3.0e-9,
            Augmentation::Heavy => 0.4e-9,
        }
    }

    /// Seconds per sample of the transforms after the crop, on one core, at a 224² crop
    /// ([`MEASURED_CROP`]; scaled by crop² elsewhere). Light (`CenterCrop`, `ToTensor`):
    /// 0.5 ms; heavy (flip, `ColorJitter`, `GaussianBlur(23)`, `ToTensor`, `Normalize`):
    /// 10.4 ms, whatever the stored size, since they work on the crop (the issue measured
    /// 17–20 ms on its machine); none: 0.5 ms (assumption: light's `ToTensor` part). Fitted as
    /// for [`Augmentation::resize_s_per_input_pixel`].
    pub fn post_crop_s(self) -> f64 {
        match self {
            Augmentation::None => 0.5e-3,
            Augmentation::Light => 0.5e-3,
            Augmentation::Heavy => 10.4e-3,
        }
    }
}

/// Share of the one-core rate the training process reaches when it loads batches itself
/// (`num_workers=0`): 0.85, measured 0.79 and 0.94 at 640×480 and 1920×1080 (collation and
/// Python overhead per sample; docs/validation.md, fitting runs f1 and f4).
pub const MAIN_PROCESS_LOADER_EFFICIENCY: f64 = 0.85;

/// The decode rate per core the workload uses, megapixels/s, and where it came from:
/// [`Provenance::Entered`] when given (`--decode-rate`, a scenario file, or measured in the
/// window and kept in the workload), else [`DEFAULT_DECODE_MPIX_PER_CORE`] as
/// [`Provenance::Default`] (an assumption).
pub fn decode_rate_per_core(w: &Workload) -> (f64, Provenance) {
    match w.measured_decode_mpix_per_core {
        Some(r) => (r, Provenance::Entered),
        None => (DEFAULT_DECODE_MPIX_PER_CORE, Provenance::Default),
    }
}

/// CPU seconds one sample costs on one core with a decode rate of `mpix_per_core`: decoding
/// the stored image (none when decoded images come from a RAM cache), resampling it and the
/// transforms after the crop. Non-image samples parse at [`PARSE_BYTES_PER_CORE`].
pub fn seconds_per_sample(w: &Workload, mpix_per_core: f64) -> f64 {
    if w.width == 0 || w.height == 0 {
        return w.decoded_bytes().max(1) as f64 / PARSE_BYTES_PER_CORE;
    }
    let (input_pixels, decode) = if w.cache == CacheMode::DecodedInRam {
        (w.cache_pixels() as f64, 0.0)
    } else {
        let format = match w.stored {
            StoredFormat::Jpeg => 1.0,
            StoredFormat::Png => PNG_DECODE_FACTOR,
            StoredFormat::Raw => RAW_DECODE_FACTOR,
        };
        let pixels = w.pixels() as f64;
        (pixels, pixels / (mpix_per_core.max(1e-6) * 1e6 * format))
    };
    let crop = f64::from(w.crop.max(1)) / MEASURED_CROP;
    decode
        + w.augmentation.resize_s_per_input_pixel() * input_pixels
        + w.augmentation.post_crop_s() * crop * crop
}

/// Samples/s that `workers` DataLoader workers (0: the training process itself) decode and
/// augment with `mpix_per_core` per core, on `cores` physical cores (`None`: unknown, every
/// worker counted); on the GPU, [`GPU_DECODE_MPIX`] per GPU.
pub fn decode_rate(
    w: &Workload,
    workers: u32,
    cores: Option<u32>,
    gpus: u32,
    mpix_per_core: f64,
) -> f64 {
    if w.decode_on == DecodeOn::Gpu && w.width > 0 {
        return GPU_DECODE_MPIX * 1e6 * f64::from(gpus.max(1)) / w.pixels().max(1) as f64;
    }
    // Worker processes beyond the physical cores add nothing; with none, the training process
    // decodes. Measured: 2 workers on 2 cores ran 1.7–1.8× one worker (docs/validation.md), so
    // every core counts.
    let usable = match cores {
        Some(c) => workers.clamp(1, c.max(1)),
        None => workers.max(1),
    } as f64;
    let efficiency = if workers >= 1 {
        WORKER_TRANSFER_EFFICIENCY
    } else {
        MAIN_PROCESS_LOADER_EFFICIENCY
    };
    usable * efficiency / seconds_per_sample(w, mpix_per_core)
}
