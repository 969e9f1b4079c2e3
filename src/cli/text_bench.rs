//! Terminal rendering of benchmark results.

use std::fmt::Write as _;

use crate::report::terminal::{heading, label_width, pad};

use crate::bench::decode::{DecodeBenchConfig, DecodeRate};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::bench as words;
use crate::profile::{MemoryBandwidth, StorageBandwidth};

/// `ramvram bench memory`.
pub fn memory(lang: Lang, m: &MemoryBandwidth) -> String {
    let mut out = String::new();
    heading(&mut out, tr(lang, Msg::BenchMemoryTitle));
    for (kernel, value) in words::memory_rows(m) {
        let _ = writeln!(out, "  {}{value:>12}", pad(kernel, 8));
    }
    let _ = writeln!(out, "\n  {}", words::memory_details(lang, m));
    if m.repetitions < 2 {
        let _ = writeln!(out, "  {}", tr(lang, Msg::BenchSinglePass));
    } else if m.noisy {
        let _ = writeln!(out, "  {}", tr(lang, Msg::BenchNoisy));
    }
    out
}

/// `ramvram bench storage FOLDER`.
pub fn storage(lang: Lang, s: &StorageBandwidth) -> String {
    let mut out = String::new();
    heading(
        &mut out,
        &trf(lang, Msg::BenchStorageTitle, &[("path", &s.path)]),
    );
    let rows = words::storage_rows(lang, s);
    let w = label_width(rows.iter().map(|(l, _)| l.as_str()));
    for (label, value) in rows {
        let _ = writeln!(out, "  {}{value}", pad(&label, w));
    }
    out
}

/// The line printed while `ramvram bench decode` runs.
pub fn decode_running(lang: Lang, c: &DecodeBenchConfig) -> String {
    let passes = if c.threads > 1 { 2 } else { 1 };
    trf(
        lang,
        Msg::BenchDecodeRunning,
        &[
            ("width", &c.width.to_string()),
            ("height", &c.height.to_string()),
            ("threads", &c.threads.to_string()),
            ("seconds", &(c.time_per_pass.as_secs() * passes).to_string()),
        ],
    )
}

/// `ramvram bench decode`.
pub fn decode(lang: Lang, r: &DecodeRate) -> String {
    let mut out = String::new();
    heading(&mut out, tr(lang, Msg::BenchDecodeTitle));
    let _ = writeln!(out, "  {}\n", words::decode_image(lang, r));
    let mut rows = vec![(
        tr(lang, Msg::BenchDecodeOne).to_string(),
        r.single_thread_mpix_per_s,
    )];
    if r.threads > 1 {
        rows.push((
            trf(
                lang,
                Msg::BenchDecodeAll,
                &[("threads", &r.threads.to_string())],
            ),
            r.all_threads_mpix_per_s,
        ));
    }
    let w = label_width(rows.iter().map(|(l, _)| l.as_str()));
    for (label, v) in rows {
        let _ = writeln!(out, "  {}{:>10}", pad(&label, w), words::mpix(v));
    }
    if let Some(warning) = words::decode_contended(lang, r) {
        let _ = writeln!(out, "\n  {warning}");
    }
    let _ = writeln!(
        out,
        "\n  {}",
        trf(
            lang,
            Msg::BenchDecodeUse,
            &[("rate", &format!("{:.0}", r.per_core_mpix_per_s))]
        )
    );
    out
}
