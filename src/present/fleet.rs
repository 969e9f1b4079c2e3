//! Words for the fleet table, shared by the terminal, the window and reports.

use crate::advisor::fleet::{FleetMachine, Origin};
use crate::format;
use crate::i18n::{Lang, Msg, tr};
use crate::profile::dir::Skip;

/// A short GPU description: "8 × H100 SXM5 80GB", "2 × A100 + 1 × V100", "none".
pub fn gpu_summary(lang: Lang, m: &FleetMachine) -> String {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for g in &m.assessment.profile.gpus {
        let name = g.name.clone().unwrap_or_else(|| format::unknown(lang));
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, c)) => *c += 1,
            None => groups.push((name, 1)),
        }
    }
    if groups.is_empty() {
        return tr(lang, Msg::HwNoGpus).to_string();
    }
    groups
        .iter()
        .map(|(n, c)| format!("{c} × {n}"))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The fleet table's cells for one machine: name, GPUs, VRAM, usable RAM, ratio, tier, worst
/// finding. Shared by the terminal, the window and reports.
pub fn row(lang: Lang, m: &FleetMachine) -> [String; 7] {
    let a = &m.assessment;
    let mut name = m.label.clone();
    if m.duplicate_hostname {
        // The file tells two profiles of one host name apart.
        let dup = tr(lang, Msg::FleetDuplicate);
        match &m.origin {
            Origin::File(f) => {
                let file = std::path::Path::new(f)
                    .file_name()
                    .map_or_else(|| f.clone(), |n| n.to_string_lossy().into_owned());
                name = super::names::aside(lang, &name, &super::names::labelled(lang, dup, &file));
            }
            _ => name = super::names::aside(lang, &name, dup),
        }
    }
    if m.origin == Origin::Planned {
        name = super::names::aside(lang, &name, tr(lang, Msg::FleetPlanned));
    }
    let tier = if a.vram.discrete_gpus == 0 && a.vram.unified_gpus > 0 {
        tr(lang, Msg::HwUnified).to_string()
    } else {
        a.ratio.tier.map_or_else(
            || format::unknown(lang),
            |t| super::tier(lang, t).to_string(),
        )
    };
    [
        name,
        gpu_summary(lang, m),
        format::gib_or_unknown(lang, a.vram.nominal_total_bytes),
        format::gib_or_unknown(lang, a.memory.sizing_bytes),
        format::ratio_or_unknown(lang, a.ratio.ram_to_vram_total),
        tier,
        m.worst_finding().map_or_else(
            || tr(lang, Msg::FindingsNone).to_string(),
            |f| super::finding_title(lang, f),
        ),
    ]
}

/// The header cells matching [`row`].
pub fn header(lang: Lang) -> [&'static str; 7] {
    [
        Msg::FleetMachine,
        Msg::HwGpus,
        Msg::FleetVram,
        Msg::FleetRam,
        Msg::FleetRatio,
        Msg::RatioTier,
        Msg::FleetWorst,
    ]
    .map(|m| tr(lang, m))
}

/// A planned configuration's problem, in words.
pub fn plan_issue(lang: Lang, issue: &crate::catalog::planner::PlanIssue) -> String {
    use crate::catalog::planner::PlanIssue as P;
    use crate::i18n::trf;
    match issue {
        P::UnknownGpu => tr(lang, Msg::PlannerIssueUnknownGpu).into(),
        P::UnknownPlatform => tr(lang, Msg::PlannerIssueUnknownPlatform).into(),
        P::UnknownMemoryType => tr(lang, Msg::PlannerIssueUnknownMemory).into(),
        P::TooManySockets { sockets, max } => trf(
            lang,
            Msg::PlannerIssueSockets,
            &[("sockets", &sockets.to_string()), ("max", &max.to_string())],
        ),
        P::MoreDimmsThanSlots { dimms, slots } => trf(
            lang,
            Msg::PlannerIssueSlots,
            &[("dimms", &dimms.to_string()), ("slots", &slots.to_string())],
        ),
        P::ChannelsEmpty {
            populated,
            channels,
        } => trf(
            lang,
            Msg::PlannerIssueEmptyChannels,
            &[
                ("populated", &populated.to_string()),
                ("channels", &channels.to_string()),
            ],
        ),
        P::UnevenChannels { dimms, channels } => trf(
            lang,
            Msg::PlannerIssueUneven,
            &[
                ("dimms", &dimms.to_string()),
                ("channels", &channels.to_string()),
            ],
        ),
        P::WrongMemoryType => tr(lang, Msg::PlannerIssueWrongMemory).into(),
    }
}

/// How the table is sorted: column index and direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FleetSort {
    /// Column (see [`header`]).
    pub column: usize,
    /// Smallest first.
    pub ascending: bool,
}

/// Sort key of a machine for a column: numbers for the numeric columns (`None` when unknown),
/// else text.
fn key(lang: Lang, m: &FleetMachine, column: usize) -> (Option<f64>, String) {
    let a = &m.assessment;
    match column {
        2 => (a.vram.nominal_total_bytes.map(|b| b as f64), String::new()),
        3 => (a.memory.sizing_bytes.map(|b| b as f64), String::new()),
        4 | 5 => (a.ratio.ram_to_vram_total, String::new()),
        6 => (
            Some(-(m.worst_finding().map_or(0, |f| f.severity as i32 + 1) as f64)),
            String::new(),
        ),
        c => (Some(0.0), row(lang, m)[c].clone()),
    }
}

/// The display order of `machines` under `sort`; machines whose value is unknown come last
/// in either direction.
pub fn order(lang: Lang, machines: &[FleetMachine], sort: FleetSort) -> Vec<usize> {
    use std::cmp::Ordering;
    let mut idx: Vec<usize> = (0..machines.len()).collect();
    idx.sort_by(|&a, &b| {
        let (ka, kb) = (
            key(lang, &machines[a], sort.column),
            key(lang, &machines[b], sort.column),
        );
        match (ka.0, kb.0) {
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (x, y) => {
                let o = x
                    .unwrap_or(0.0)
                    .total_cmp(&y.unwrap_or(0.0))
                    .then_with(|| ka.1.cmp(&kb.1));
                if sort.ascending { o } else { o.reverse() }
            }
        }
    });
    idx
}

/// Why a file was not a machine profile, in `lang`; "[redacted]" when a redacted report
/// removed the reason (`why` is `None`).
pub fn skip_reason(lang: Lang, why: Option<&Skip>) -> String {
    why.map_or_else(
        || crate::profile::redact::REDACTED.to_string(),
        |w| super::errors::skip(lang, w),
    )
}

/// A skipped file as one line under a "Skipped" heading: "file: reason" / "文件：原因". `file`
/// is the name as shown ([`crate::inputs::fleet::shown`]: on one line, escaped).
pub fn skipped_line(lang: Lang, file: &str, why: Option<&Skip>) -> String {
    super::names::labelled(lang, file, &skip_reason(lang, why))
}

/// A skipped file as a line of its own, with no heading above it: "Skipped: file: reason" /
/// "已跳过：文件：原因" (the terminal's fleet table, the window's fleet page).
pub fn skipped_sentence(lang: Lang, file: &str, why: Option<&Skip>) -> String {
    super::names::labelled(
        lang,
        tr(lang, Msg::FleetSkipped),
        &skipped_line(lang, file, why),
    )
}

/// A fleet chart's axis title (`axis`: [`Msg::FleetVramAxis`] or [`Msg::FleetRamAxis`]), with
/// ", log scale" when the axis is logarithmic ([`crate::chart::fleet_axes`] decides).
pub fn axis_title(lang: Lang, axis: Msg, log: bool) -> String {
    if log {
        crate::i18n::trf(lang, Msg::FleetChartLogAxis, &[("axis", tr(lang, axis))])
    } else {
        tr(lang, axis).to_string()
    }
}

/// A rule line's name on the fleet chart: "RAM = 1.5× VRAM" (`factor` as written, "1.5×").
pub fn rule_line(lang: Lang, factor: &str) -> String {
    crate::i18n::trf(lang, Msg::FleetRuleLine, &[("factor", factor)])
}

/// The machines drawn at one point of the fleet chart, as the language joins a list.
pub fn same_point(lang: Lang, labels: &[&str]) -> String {
    super::join(lang, labels)
}
