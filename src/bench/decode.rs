//! JPEG decode rate on this machine, for the workload simulator's decode stage ("Measure decode
//! speed"). Encodes one synthetic photograph-like image at the scenario's resolution (quality 90,
//! 4:2:0, as ImageNet-style datasets are stored), then decodes it over and over with the `image`
//! crate's JPEG decoder (zune-jpeg) on one thread and on every core, and reports megapixels per
//! second; the per-core figure is the one-thread rate, flagged when another process shared that
//! thread's core. DataLoader workers usually decode with Pillow and libjpeg-turbo, a different decoder:
//! docs/validation.md measured 259–264 MP/s per core with Pillow on a CPU where this benchmark's
//! figure is recorded in docs/benchmarks.md; the figure describes this machine's cores, not
//! Pillow itself.

use std::io::Cursor;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::BenchError;

/// JPEG quality of the generated image: 90, torchvision/Pillow users' common choice and the
/// quality docs/validation.md generated its dataset with.
pub const QUALITY: u8 = 90;

/// Largest image side: 65,535 pixels, the most a JPEG frame header's 16-bit width and height
/// can hold (ITU-T T.81 § B.2.2).
pub const MAX_SIDE: u32 = 65_535;

/// What to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeBenchConfig {
    /// Image width, pixels (at least 16; at most [`MAX_SIDE`]).
    pub width: u32,
    /// Image height, pixels (at least 16; at most [`MAX_SIDE`]).
    pub height: u32,
    /// Threads for the all-cores pass (the physical cores; 1 skips it).
    pub threads: u32,
    /// Time for each pass.
    pub time_per_pass: Duration,
}

impl DecodeBenchConfig {
    /// `width × height` on every physical core this process may use (else every usable logical
    /// CPU), one second per pass.
    pub fn for_this_machine(width: u32, height: u32) -> DecodeBenchConfig {
        // The physical cores, but no more than this process may use (affinity and cgroup
        // quota, which `available_parallelism` counts).
        let usable = std::thread::available_parallelism().ok().map(|n| n.get());
        let threads = sysinfo::System::physical_core_count()
            .ok()
            .filter(|n| *n > 0)
            .map(|p| usable.map_or(p, |u| p.min(u)))
            .or(usable)
            .unwrap_or(1)
            .max(1);
        DecodeBenchConfig {
            width,
            height,
            threads: threads as u32,
            time_per_pass: Duration::from_secs(1),
        }
    }
}

/// The measured decode rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecodeRate {
    /// Decoded image width, pixels.
    pub width: u32,
    /// Decoded image height, pixels.
    pub height: u32,
    /// Size of the generated JPEG, bytes.
    pub file_bytes: u64,
    /// Its JPEG quality.
    pub quality: u8,
    /// The decoder measured.
    pub decoder: String,
    /// Megapixels/s (10^6 pixels/s) on one thread.
    pub single_thread_mpix_per_s: f64,
    /// Threads in the all-cores pass.
    pub threads: u32,
    /// Megapixels/s of all threads together.
    pub all_threads_mpix_per_s: f64,
    /// The per-core rate the simulator uses: the one-thread rate (one decoder on one core, as
    /// each DataLoader worker runs). Dividing the all-threads rate by the threads would count a
    /// core another process uses as a slow core.
    pub per_core_mpix_per_s: f64,
    /// Share of the one-thread pass's wall time its thread spent on a CPU (`None` where the
    /// thread's CPU time can't be read): below [`CONTENDED_CPU_SHARE`] another process took
    /// part of the core and the per-core figure is low.
    #[serde(default)]
    pub single_thread_cpu_share: Option<f64>,
    /// True when the one-thread pass was contended (see `single_thread_cpu_share`).
    #[serde(default)]
    pub contended: bool,
}

/// A one-thread pass whose thread ran on a CPU for less than this share of its wall time was
/// contended: 0.9. Assumption: an unshared core runs a busy thread more than 95 % of the time;
/// the margin absorbs timer and scheduler noise.
pub const CONTENDED_CPU_SHARE: f64 = 0.9;

/// CPU time of the calling thread, seconds (Linux `CLOCK_THREAD_CPUTIME_ID`); `None` elsewhere.
fn thread_cpu_s() -> Option<f64> {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec; the clock id is a constant Linux defines.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        (rc == 0).then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Bytes the benchmark holds at once for a `width × height` image on `threads` threads: the
/// RGB source, its JPEG (at most as large), the check decode and one decoded image per thread,
/// `(3 + threads) × width × height × 3`. `None` when that overflows 64 bits.
pub fn bytes_needed(width: u32, height: u32, threads: u32) -> Option<u64> {
    u64::from(width)
        .checked_mul(u64::from(height))?
        .checked_mul(3)?
        .checked_mul(3 + u64::from(threads))
}

/// A photograph-like RGB image: smooth colour gradients, mid-frequency texture and fine noise
/// (a deterministic xorshift), which compresses to roughly 0.3–0.6 bytes per pixel at quality
/// 90, as natural photographs do. Returns `width × height × 3` bytes, row-major.
///
/// # Errors
/// [`BenchError::OutOfMemory`] when the pixels can't be allocated (never an abort).
pub fn synthetic_image(width: u32, height: u32) -> Result<Vec<u8>, BenchError> {
    let (w, h) = (width as usize, height as usize);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Texture at 1/6 of the resolution, repeated over 6 × 6 blocks.
    let (tw, th) = (w.div_ceil(6), h.div_ceil(6));
    let oom = |bytes: usize| BenchError::OutOfMemory {
        bytes: bytes as u64,
    };
    let mut texture: Vec<i32> = Vec::new();
    texture
        .try_reserve_exact(tw * th)
        .map_err(|_| oom(tw * th * 4))?;
    texture.extend((0..tw * th).map(|_| (rand() % 41) as i32 - 20));
    let bytes = w
        .checked_mul(h)
        .and_then(|p| p.checked_mul(3))
        .ok_or(oom(usize::MAX))?;
    let mut out = Vec::new();
    out.try_reserve_exact(bytes).map_err(|_| oom(bytes))?;
    for y in 0..h {
        for x in 0..w {
            let t = texture[(y / 6) * tw + x / 6];
            let fine = (rand() % 9) as i32 - 4;
            let r = (x * 200 / w.max(1)) as i32 + 30;
            let g = (y * 200 / h.max(1)) as i32 + 30;
            let b = ((x + y) * 120 / (w + h).max(1)) as i32 + 60;
            for c in [r, g, b] {
                out.push((c + t + fine).clamp(0, 255) as u8);
            }
        }
    }
    Ok(out)
}

/// Encodes `rgb` (`width × height × 3`) as a JPEG of [`QUALITY`].
///
/// # Errors
/// [`BenchError::Verification`] when the encoder rejects the image.
pub fn encode(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, BenchError> {
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, QUALITY)
        .encode(rgb, width, height, image::ExtendedColorType::Rgb8)
        .map_err(|e| BenchError::Verification(format!("JPEG encoder: {e}")))?;
    Ok(jpeg)
}

/// Decodes `jpeg` to RGB pixels.
///
/// # Errors
/// [`BenchError::Verification`] when the data is not a JPEG the decoder reads.
pub fn decode(jpeg: &[u8]) -> Result<image::RgbImage, BenchError> {
    // No `image` allocation limit (512 MiB by default): `run` has checked the memory needed.
    let mut reader = image::ImageReader::with_format(Cursor::new(jpeg), image::ImageFormat::Jpeg);
    reader.no_limits();
    reader
        .decode()
        .map(|i| i.into_rgb8())
        .map_err(|e| BenchError::Verification(format!("JPEG decoder: {e}")))
}

/// Decodes `jpeg` on `threads` threads until `time` has passed; returns decodes per second and
/// the share of the wall time the first thread spent on a CPU (when readable).
fn pass(
    jpeg: &[u8],
    threads: u32,
    time: Duration,
    cancel: &AtomicBool,
    tick: &dyn Fn(f64),
) -> Result<(f64, Option<f64>), BenchError> {
    let decodes = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let start = Instant::now();
    let first_cpu = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for i in 0..threads {
            let (decodes, failed, first_cpu) = (&decodes, &failed, &first_cpu);
            s.spawn(move || {
                let (t0, c0) = (Instant::now(), thread_cpu_s());
                while start.elapsed() < time && !cancel.load(Ordering::Relaxed) {
                    if decode(jpeg).is_err() {
                        failed.store(true, Ordering::Relaxed);
                        return;
                    }
                    decodes.fetch_add(1, Ordering::Relaxed);
                }
                if i == 0 {
                    let share = c0
                        .zip(thread_cpu_s())
                        .map(|(a, b)| (b - a) / t0.elapsed().as_secs_f64().max(1e-9));
                    if let Ok(mut slot) = first_cpu.lock() {
                        *slot = share;
                    }
                }
            });
        }
        while start.elapsed() < time && !cancel.load(Ordering::Relaxed) {
            tick(start.elapsed().as_secs_f64() / time.as_secs_f64().max(1e-9));
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    if cancel.load(Ordering::Relaxed) {
        return Err(BenchError::Cancelled);
    }
    if failed.load(Ordering::Relaxed) {
        return Err(BenchError::Verification("JPEG decoder failed".into()));
    }
    // Threads finish the decode they started after `time`: divide by the real elapsed time.
    let rate = decodes.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64();
    Ok((rate, first_cpu.into_inner().ok().flatten()))
}

/// Runs the benchmark. `progress` gets 0–1.
///
/// # Errors
/// [`BenchError::ImageTooLarge`] past [`MAX_SIDE`]; [`BenchError::OutOfMemory`] when
/// [`bytes_needed`] exceeds the memory available now (or an allocation fails);
/// [`BenchError::Cancelled`] when `cancel` is set; [`BenchError::Verification`] when the decoded
/// image doesn't have the encoded size; [`BenchError::Implausible`] for a rate that can't be
/// right.
pub fn run(
    config: &DecodeBenchConfig,
    cancel: &AtomicBool,
    progress: &dyn Fn(f32),
) -> Result<DecodeRate, BenchError> {
    if config.width > MAX_SIDE || config.height > MAX_SIDE {
        return Err(BenchError::ImageTooLarge {
            width: config.width,
            height: config.height,
        });
    }
    let (w, h) = (config.width.max(16), config.height.max(16));
    let threads = config.threads.max(1);
    let need = bytes_needed(w, h, threads).unwrap_or(u64::MAX);
    if crate::probe::detect_available_memory().is_some_and(|avail| need > avail) {
        return Err(BenchError::OutOfMemory { bytes: need });
    }
    let jpeg = encode(&synthetic_image(w, h)?, w, h)?;
    let check = decode(&jpeg)?;
    if check.dimensions() != (w, h) {
        return Err(BenchError::Verification(format!(
            "decoded {}×{}, encoded {w}×{h}",
            check.width(),
            check.height()
        )));
    }
    let passes = if threads > 1 { 2.0 } else { 1.0 };
    let (single, cpu_share) = pass(&jpeg, 1, config.time_per_pass, cancel, &|f| {
        progress((f / passes) as f32)
    })?;
    let all = if threads > 1 {
        pass(&jpeg, threads, config.time_per_pass, cancel, &|f| {
            progress(((1.0 + f) / passes) as f32)
        })?
        .0
    } else {
        single
    };
    progress(1.0);
    let mpix = f64::from(w) * f64::from(h) / 1e6;
    // Assumption: no core decodes 10^6 megapixels/s (a fast core does a few hundred).
    let single = super::plausible("single_thread_mpix_per_s", single * mpix, 1e6)? / mpix;
    let all = super::plausible("all_threads_mpix_per_s", all * mpix, 1e9)? / mpix;
    Ok(DecodeRate {
        width: w,
        height: h,
        file_bytes: jpeg.len() as u64,
        quality: QUALITY,
        decoder: "zune-jpeg (image 0.25)".into(),
        single_thread_mpix_per_s: single * mpix,
        threads,
        all_threads_mpix_per_s: all * mpix,
        per_core_mpix_per_s: single * mpix,
        single_thread_cpu_share: cpu_share,
        contended: cpu_share.is_some_and(|s| s < CONTENDED_CPU_SHARE),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_image_compresses_like_a_photograph_and_decodes_back() {
        let (w, h) = (640, 480);
        let rgb = synthetic_image(w, h).unwrap();
        assert_eq!(rgb.len(), 640 * 480 * 3);
        let jpeg = encode(&rgb, w, h).unwrap();
        // ImageNet's JPEGs average ~110 KB for ~0.19 MP at quality ~90: about 0.5 byte/pixel;
        // a flat image would be a few KB and white noise over 1.5 byte/pixel.
        let per_pixel = jpeg.len() as f64 / f64::from(w * h);
        assert!((0.2..1.0).contains(&per_pixel), "{per_pixel} B/px");
        // Lossy, but close: PSNR above 30 dB (quality 90 typically gives 35–40 dB).
        let back = decode(&jpeg).unwrap();
        let mse = rgb
            .iter()
            .zip(back.as_raw())
            .map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2))
            .sum::<f64>()
            / rgb.len() as f64;
        let psnr = 10.0 * (255.0f64.powi(2) / mse).log10();
        assert!(psnr > 30.0, "{psnr} dB");
    }

    #[test]
    fn a_short_run_reports_the_one_thread_rate_as_per_core() {
        let config = DecodeBenchConfig {
            width: 64,
            height: 48,
            threads: 2,
            time_per_pass: Duration::from_millis(100),
        };
        let r = run(&config, &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!((r.width, r.height, r.threads), (64, 48, 2));
        assert!(r.single_thread_mpix_per_s > 0.0);
        assert_eq!(r.per_core_mpix_per_s, r.single_thread_mpix_per_s);
        #[cfg(target_os = "linux")]
        {
            let share = r.single_thread_cpu_share.unwrap();
            assert!(share > 0.0 && share <= 1.05, "{share}");
            assert_eq!(r.contended, share < CONTENDED_CPU_SHARE);
        }
        assert!(matches!(
            run(&config, &AtomicBool::new(true), &|_| {}),
            Err(BenchError::Cancelled)
        ));
    }

    #[test]
    fn sizes_past_jpeg_or_memory_are_errors_not_aborts() {
        let config = |width, height, threads| DecodeBenchConfig {
            width,
            height,
            threads,
            time_per_pass: Duration::from_millis(10),
        };
        let never = AtomicBool::new(false);
        assert!(matches!(
            run(&config(65_536, 100, 1), &never, &|_| {}),
            Err(BenchError::ImageTooLarge {
                width: 65_536,
                height: 100
            })
        ));
        // 65,535² × 3 bytes × (3 + 1,024 threads) = 13.2 TB: more than any machine has free.
        let e = run(&config(65_535, 65_535, 1024), &never, &|_| {}).unwrap_err();
        let need = 65_535u64 * 65_535 * 3 * 1027;
        assert!(
            matches!(e, BenchError::OutOfMemory { bytes } if bytes == need),
            "{e}"
        );
        assert_eq!(bytes_needed(u32::MAX, u32::MAX, u32::MAX), None);
        assert_eq!(bytes_needed(1920, 1080, 8), Some(1920 * 1080 * 3 * 11));
    }
}
