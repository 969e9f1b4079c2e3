//! Terminal rendering of inference memory.

use std::fmt::Write as _;

use super::layout::{pad, section, wrap};
use crate::advisor::inference::InferenceMemory;
use crate::format;
use crate::i18n::{Lang, Msg, tr};
use crate::present::inference as words;
use crate::present::training::fits_word;

/// The inference section of `ramvram advise`.
pub fn inference(lang: Lang, m: &InferenceMemory) -> String {
    let mut out = String::new();
    section(&mut out, tr(lang, Msg::InferenceSection));
    wrap(&mut out, "  ", &words::summary(lang, m));
    wrap(&mut out, "  ", &words::weights_and_cache(lang, m));
    out.push('\n');
    let _ = writeln!(
        out,
        "  {}  {}  {}",
        pad("", 18),
        pad(tr(lang, Msg::TrainNeeded), 12),
        tr(lang, Msg::TrainAvailable)
    );
    for (label, c) in [(Msg::TrainNeedGpu, &m.gpu), (Msg::TrainNeedCpu, &m.cpu)] {
        let _ = writeln!(
            out,
            "  {}  {}  {}  {}",
            pad(tr(lang, label), 18),
            pad(&format::gib(c.needed_bytes), 12),
            pad(&format::gib_or_unknown(lang, c.available_bytes), 12),
            fits_word(lang, c.fits)
        );
    }
    let (header, rows) = words::phase_table(lang, m);
    out.push('\n');
    let _ = writeln!(
        out,
        "  {}  {}  {}",
        pad(&header[0], 22),
        pad(&header[1], 16),
        header[2]
    );
    for r in rows {
        let _ = writeln!(out, "  {}  {}  {}", pad(&r[0], 22), pad(&r[1], 16), r[2]);
    }
    for line in words::host_lines(lang, m) {
        wrap(&mut out, "  ", &line);
    }
    out
}
