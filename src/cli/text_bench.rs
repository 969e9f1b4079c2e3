//! Terminal rendering of benchmark results.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthStr;

use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::bench as words;
use crate::profile::{MemoryBandwidth, StorageBandwidth};

fn heading(out: &mut String, title: &str) {
    let _ = writeln!(
        out,
        "{title}\n{}",
        "─".repeat(UnicodeWidthStr::width(title).max(8))
    );
}

fn pad(s: &str, width: usize) -> String {
    format!(
        "{s}{}",
        " ".repeat(width.saturating_sub(UnicodeWidthStr::width(s)))
    )
}

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
    let w = rows
        .iter()
        .map(|(l, _)| UnicodeWidthStr::width(l.as_str()))
        .max()
        .unwrap_or(0)
        + 2;
    for (label, value) in rows {
        let _ = writeln!(out, "  {}{value}", pad(&label, w));
    }
    out
}
