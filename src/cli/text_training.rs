//! Terminal rendering of the training-memory planner's result.

use std::fmt::Write as _;

use super::layout::{label_width, pad, section, wrap};

use crate::advisor::training::{CapacityCheck, TrainingMemory};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::training as words;
use crate::present::training::plan_summary;

/// The "needed / this machine / fits" table of a plan's checks (training and inference).
pub(super) fn capacity_table(out: &mut String, lang: Lang, checks: &[(Msg, &CapacityCheck)]) {
    let _ = writeln!(
        out,
        "  {}  {}  {}",
        pad("", 18),
        pad(tr(lang, Msg::TrainNeeded), 12),
        tr(lang, Msg::TrainAvailable)
    );
    for (label, c) in checks {
        let [name, needed, available, fits] = words::check_row(lang, *label, c);
        let _ = writeln!(
            out,
            "  {}  {}  {}  {fits}",
            pad(&name, 18),
            pad(&needed, 12),
            pad(&available, 12),
        );
    }
}

/// A plan's phase table (loading, then training or serving, then the peak) under its header,
/// after a blank line.
pub(super) fn phase_rows(out: &mut String, (header, rows): ([String; 3], Vec<[String; 3]>)) {
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
}

/// The planner section of `ramvram advise`.
pub fn training(lang: Lang, t: &TrainingMemory) -> String {
    let mut out = String::new();
    section(&mut out, tr(lang, Msg::TrainSection));
    let (model, plan) = plan_summary(lang, t);
    let _ = writeln!(out, "  {}  {model}", pad(tr(lang, Msg::TrainPreset), 18));
    let _ = writeln!(out, "  {}  {plan}\n", pad(tr(lang, Msg::TrainStrategy), 18));
    let mut checks = vec![(Msg::TrainNeedGpu, &t.gpu), (Msg::TrainNeedCpu, &t.cpu)];
    if let Some(n) = &t.nvme {
        checks.push((Msg::TrainNeedNvme, n));
    }
    capacity_table(&mut out, lang, &checks);
    // Next to the VRAM figure: what it includes of activations.
    wrap(&mut out, "  ", &words::activations_line(lang, t));
    phase_rows(&mut out, words::phase_table(lang, t));
    wrap(&mut out, "  ", &words::loading_line(lang, t));
    wrap(&mut out, "  ", &words::runtime_note(lang, t));
    if let Some(d) = words::deepspeed_line(lang, t) {
        wrap(&mut out, "  ", &d);
    }
    let verdict = crate::present::training::verdict_msg(t);
    let _ = writeln!(out, "\n  {}", tr(lang, verdict));
    if let Some(line) = crate::present::training::ram_line(lang, t) {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(out, "\n  {}", tr(lang, Msg::TrainBreakdown));
    // What each row is, where it lives, its size and bytes per parameter, under a header.
    let (header, rows) = words::breakdown_table(lang, t);
    let widths: Vec<usize> = (0..3)
        .map(|c| {
            label_width(
                std::iter::once(header[c].as_str()).chain(rows.iter().map(|r| r[c].as_str())),
            )
        })
        .collect();
    for row in std::iter::once(&header).chain(&rows) {
        let _ = writeln!(
            out,
            "    {}{}{}{}",
            pad(&row[0], widths[0]),
            pad(&row[1], widths[1]),
            pad(&row[2], widths[2]),
            row[3]
        );
    }
    if let Some(traffic) = t.estimate.nvme_traffic_per_step_bytes {
        let _ = writeln!(
            out,
            "  {}",
            trf(
                lang,
                Msg::TrainNvmeTraffic,
                &[("bytes", &format::gib(traffic))]
            )
        );
    }
    for w in &t.estimate.warnings {
        let _ = writeln!(out, "  ! {}", words::plan_warning(lang, *w));
    }
    let _ = writeln!(out, "\n  {}", words::source(lang, t.estimate.formula));
    let _ = writeln!(out, "  {}", tr(lang, Msg::TrainUnitsNote));
    out
}
