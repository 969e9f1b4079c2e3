//! Terminal rendering of the training-memory planner's result.

use std::fmt::Write as _;

use super::layout::{pad, section};

use crate::advisor::training::{CapacityCheck, TrainingMemory};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::training as words;
use crate::present::training::{fits_word, plan_summary};

/// The planner section of `ramvram advise`.
pub fn training(lang: Lang, t: &TrainingMemory) -> String {
    let mut out = String::new();
    section(&mut out, tr(lang, Msg::TrainSection));
    let (model, plan) = plan_summary(lang, t);
    let _ = writeln!(out, "  {}  {model}", pad(tr(lang, Msg::TrainPreset), 18));
    let _ = writeln!(out, "  {}  {plan}\n", pad(tr(lang, Msg::TrainStrategy), 18));
    let _ = writeln!(
        out,
        "  {}  {}  {}",
        pad("", 18),
        pad(tr(lang, Msg::TrainNeeded), 12),
        tr(lang, Msg::TrainAvailable)
    );
    let row = |out: &mut String, label: Msg, c: &CapacityCheck| {
        let _ = writeln!(
            out,
            "  {}  {}  {}  {}",
            pad(tr(lang, label), 18),
            pad(&format::gib(c.needed_bytes), 12),
            pad(&format::gib_or_unknown(lang, c.available_bytes), 12),
            fits_word(lang, c.fits)
        );
    };
    row(&mut out, Msg::TrainNeedGpu, &t.gpu);
    row(&mut out, Msg::TrainNeedCpu, &t.cpu);
    if let Some(n) = &t.nvme {
        row(&mut out, Msg::TrainNeedNvme, n);
    }
    if let Some(a) = t.estimate.activation_bytes_per_gpu {
        let _ = writeln!(
            out,
            "  ({}: {})",
            tr(lang, Msg::TrainActivationsRow),
            format::gib(a)
        );
    }
    let verdict = match t.fits {
        Some(true) => Msg::TrainVerdictFits,
        Some(false) => Msg::TrainVerdictDoesNotFit,
        None => Msg::TrainVerdictUnknown,
    };
    let _ = writeln!(out, "\n  {}", tr(lang, verdict));
    if let Some(r) = t.ram_to_fit_bytes {
        let _ = writeln!(
            out,
            "  {}",
            trf(lang, Msg::TrainRamToFit, &[("ram", &format::gib(r))])
        );
    }
    let _ = writeln!(out, "\n  {}", tr(lang, Msg::TrainBreakdown));
    for i in &t.estimate.breakdown {
        let _ = writeln!(
            out,
            "    {}  {}  {}  {:.2}",
            pad(words::state_kind(lang, i.kind), 28),
            pad(words::location(lang, i.location), 18),
            pad(&format::gib(i.bytes), 11),
            i.bytes_per_param
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
    if !t.alternatives.is_empty() {
        let _ = writeln!(out, "\n  {}", tr(lang, Msg::TrainAlternatives));
        for a in &t.alternatives {
            let mut line = format!(
                "    {}: GPU {} · CPU {}",
                words::alternative(lang, a.id),
                format::gib(a.gpu_bytes_per_gpu),
                format::gib(a.cpu_bytes_per_node)
            );
            if a.nvme_bytes > 0 {
                let _ = write!(line, " · NVMe {}", format::gib(a.nvme_bytes));
            }
            let _ = writeln!(out, "{line} → {}", fits_word(lang, a.fits));
        }
    }
    for w in &t.estimate.warnings {
        let _ = writeln!(out, "  ! {}", words::plan_warning(lang, *w));
    }
    let _ = writeln!(out, "\n  {}", words::source(lang, t.estimate.source));
    let _ = writeln!(out, "  {}", tr(lang, Msg::TrainUnitsNote));
    out
}
