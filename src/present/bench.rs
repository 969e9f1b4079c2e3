//! Words for benchmark results and errors, shared by the terminal and the window.

use crate::bench::{BenchError, PathProblem};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::{MemoryBandwidth, StorageBandwidth};

/// The warning when another process shared the core during the one-thread pass (`contended`),
/// with the share of the time the thread ran as a percentage; `None` otherwise.
/// The terminal's `bench decode` and the Data loading page say it.
pub fn decode_contended(lang: Lang, r: &crate::bench::decode::DecodeRate) -> Option<String> {
    let share = r.single_thread_cpu_share.filter(|_| r.contended)?;
    Some(trf(
        lang,
        Msg::DataloaderDecodeContended,
        &[("share", &crate::format::percent(share))],
    ))
}

/// The line `bench memory` says before it runs: threads, the arrays and why that size (STREAM's
/// 4× the last-level cache, or the caps of [`crate::bench::memory::array_bytes_for`], or
/// `--array-bytes`), and the time budget it keeps to. `llc` is the cache read from sysfs
/// (`None`: unreadable, 32 MiB assumed); `given` when the user set the size.
pub fn memory_running(
    lang: Lang,
    config: &crate::bench::memory::MemoryBenchConfig,
    llc: Option<u64>,
    given: bool,
) -> String {
    use crate::bench::memory::{DEFAULT_LLC_BYTES, meets_cache_rule};
    let array = 8 * config.array_elements as u64;
    let llc_text = format::gib(llc.unwrap_or(DEFAULT_LLC_BYTES));
    let source = tr(
        lang,
        if llc.is_some() {
            Msg::BenchMemoryLlcRead
        } else {
            Msg::BenchMemoryLlcAssumed
        },
    );
    let sizing = if given {
        tr(lang, Msg::BenchMemorySizingGiven).to_string()
    } else if meets_cache_rule(array, llc) {
        trf(
            lang,
            Msg::BenchMemorySizingRule,
            &[("llc", &llc_text), ("llc_source", source)],
        )
    } else {
        trf(
            lang,
            Msg::BenchMemorySizingCapped,
            &[
                ("cap", &format::gib(3 * array)),
                ("llc", &llc_text),
                ("llc_source", source),
            ],
        )
    };
    trf(
        lang,
        Msg::BenchMemoryRunning,
        &[
            ("threads", &config.threads.to_string()),
            ("array", &format::gib(array)),
            ("sizing", &sizing),
            (
                "seconds",
                &format!("{:.1}", config.time_budget.as_secs_f64()),
            ),
        ],
    )
}

/// "The measurement took 1.3 s." (wall time of the run, measured).
pub fn memory_took(lang: Lang, seconds: f64) -> String {
    trf(
        lang,
        Msg::BenchMemoryTook,
        &[("seconds", &format!("{seconds:.1}"))],
    )
}

/// The four STREAM kernels' rows: ("Copy", "41.2 GB/s"), … in STREAM's order.
pub fn memory_rows(m: &MemoryBandwidth) -> Vec<(&'static str, String)> {
    vec![
        ("Copy", format::gbps(m.copy_bytes_per_s)),
        ("Scale", format::gbps(m.scale_bytes_per_s)),
        ("Add", format::gbps(m.add_bytes_per_s)),
        ("Triad", format::gbps(m.triad_bytes_per_s)),
    ]
}

/// A decode rate in megapixels per second: "263 MP/s" (10^6 pixels/s).
pub fn mpix(mpix_per_s: f64) -> String {
    if mpix_per_s >= 100.0 {
        format!("{mpix_per_s:.0}{}MP/s", format::NBSP)
    } else {
        format!("{mpix_per_s:.1}{}MP/s", format::NBSP)
    }
}

/// The generated image and the decoder of a decode measurement.
pub fn decode_image(lang: Lang, r: &crate::bench::decode::DecodeRate) -> String {
    trf(
        lang,
        Msg::BenchDecodeImage,
        &[
            ("width", &r.width.to_string()),
            ("height", &r.height.to_string()),
            ("size", &format::size(r.file_bytes)),
            ("quality", &r.quality.to_string()),
            ("decoder", &r.decoder),
        ],
    )
}

/// How the memory figure was taken (threads, arrays, passes, spread).
pub fn memory_details(lang: Lang, m: &MemoryBandwidth) -> String {
    trf(
        lang,
        // One pass has no spread to report.
        if m.repetitions < 2 {
            Msg::BenchMemoryDetailsOnePass
        } else {
            Msg::BenchMemoryDetails
        },
        &[
            ("threads", &m.threads.to_string()),
            (
                "pinned",
                tr(
                    lang,
                    if m.pinned {
                        Msg::BenchPinnedYes
                    } else {
                        Msg::BenchPinnedNo
                    },
                ),
            ),
            ("array", &format::gib(m.array_bytes)),
            ("reps", &m.repetitions.to_string()),
            ("spread", &format::percent(m.spread)),
        ],
    )
}

/// The storage result as label/value rows.
pub fn storage_rows(lang: Lang, s: &StorageBandwidth) -> Vec<(String, String)> {
    let seq = match s.sequential_read_bytes_per_s {
        Some(v) => super::names::aside(
            lang,
            &format::gbps(v),
            tr(
                lang,
                if s.direct_io {
                    Msg::BenchSeqDirect
                } else {
                    Msg::BenchSeqCached
                },
            ),
        ),
        None => format::unknown(lang),
    };
    let small = match (s.random_read_files_per_s, s.random_read_bytes_per_s) {
        (Some(f), Some(b)) => trf(
            lang,
            Msg::BenchSmallFilesValue,
            &[("files", &format!("{f:.0}")), ("rate", &format::mbps(b))],
        ),
        _ => format::unknown(lang),
    };
    vec![
        (tr(lang, Msg::BenchSeqRead).to_string(), seq),
        (tr(lang, Msg::BenchSmallFiles).to_string(), small),
    ]
}

/// A benchmark error in words.
pub fn error(lang: Lang, e: &BenchError) -> String {
    match e {
        BenchError::Cancelled => tr(lang, Msg::BenchCancelled).to_string(),
        BenchError::OutOfMemory { bytes } => {
            trf(lang, Msg::BenchOom, &[("bytes", &format::gib(*bytes))])
        }
        BenchError::Verification(d) => trf(lang, Msg::BenchVerification, &[("detail", d)]),
        BenchError::Path { path, kind, detail } => {
            let path = path.display().to_string();
            let detail = detail.clone().unwrap_or_default();
            let msg = match kind {
                PathProblem::Missing => Msg::BenchPathMissing,
                PathProblem::NotADirectory => Msg::BenchPathNotDir,
                PathProblem::NotWritable => Msg::BenchPathNotWritable,
                PathProblem::Full => Msg::BenchPathFull,
            };
            trf(lang, msg, &[("path", &path), ("detail", &detail)])
        }
        BenchError::ImageTooLarge { width, height } => trf(
            lang,
            Msg::BenchImageTooLarge,
            &[
                ("width", &width.to_string()),
                ("height", &height.to_string()),
            ],
        ),
        BenchError::Implausible { what, value } => trf(
            lang,
            Msg::BenchImplausible,
            &[("what", what), ("value", &value.to_string())],
        ),
        BenchError::Io { path, source } => trf(
            lang,
            Msg::BenchIo,
            &[
                ("path", &path.display().to_string()),
                ("detail", &source.to_string()),
            ],
        ),
    }
}
