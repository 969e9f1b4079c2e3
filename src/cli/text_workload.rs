//! Terminal rendering of the workload simulator's result.

use std::fmt::Write as _;

use super::layout::{pad, section};

use crate::advisor::workload::WorkloadResult;
use crate::advisor::workload::view::PipelineView;
use crate::format;
use crate::i18n::{Lang, Msg, tr};
use crate::present::workload as words;

/// The simulator section of `ramvram advise`: RAM budget, stages, bottleneck, utilisation.
/// `r` is the simulator's result, `p` the assessment's one pipeline
/// ([`crate::advisor::Assessment::pipeline`]).
pub fn workload(lang: Lang, r: &WorkloadResult, p: &PipelineView) -> String {
    let mut out = String::new();
    section(&mut out, tr(lang, Msg::WorkTitle));
    let w = &r.workload;
    let _ = writeln!(out, "  {}", words::summary(lang, w));
    let _ = writeln!(out, "\n  {}", tr(lang, Msg::WorkRamBudget));
    for (item, size) in words::budget_rows(lang, r) {
        let _ = writeln!(out, "    {}  {size}", pad(item, 36));
    }
    if let Some(note) = words::spawn_note(lang, r) {
        super::layout::wrap(&mut out, "  ", &note);
    }
    let _ = writeln!(out, "  {}", words::ram_bar_label(lang, r));
    let _ = writeln!(out, "\n  {}", tr(lang, Msg::WorkPipeline));
    for (s, (name, rate)) in p.stages.iter().zip(words::stage_rows(lang, p)) {
        let mark = if Some(s.id) == p.bottleneck() {
            "  ◀"
        } else {
            ""
        };
        let _ = writeln!(out, "    {}  {rate}{mark}", pad(name, 24));
    }
    let _ = writeln!(out, "  {}", words::bottleneck_sentence(lang, p));
    if let Some(u) = p.predicted_gpu_utilization {
        let _ = writeln!(
            out,
            "  {}",
            crate::present::names::labelled(
                lang,
                tr(lang, Msg::WorkUtilization),
                &format::percent(u)
            )
        );
    }
    if let Some(note) = words::decode_assumption(lang, w, p) {
        super::layout::wrap(&mut out, "  ", &note);
    }
    out
}
