//! The fleet document (the lab comparison report's blocks): the table of machines, the RAM:VRAM chart, and each
//! machine's verdict with its plan's problems, in each language.

use super::types::{Block, Chart, FleetPoint, ReportLang, ReportMeta};
use crate::format::GIB;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;
use crate::profile::dir::Skip;

/// Builds the fleet comparison report: the table, the chart, and each planned machine's
/// problems, in each language.
pub fn build(
    machines: &[crate::advisor::fleet::FleetMachine],
    skipped: &[(String, Option<crate::profile::dir::Skip>)],
    meta: &ReportMeta,
    langs: ReportLang,
    sort: Option<crate::present::fleet::FleetSort>,
) -> Vec<Block> {
    use crate::present::fleet::{header, row};
    // The window's order when it sent one; else by host name (then by where they came from),
    // as a reader looks them up.
    let machines: Vec<&crate::advisor::fleet::FleetMachine> = match sort {
        Some(sort) => crate::present::fleet::order(langs.langs()[0], machines, sort)
            .into_iter()
            .map(|i| &machines[i])
            .collect(),
        None => {
            let mut by_name: Vec<_> = machines.iter().collect();
            by_name.sort_by_cached_key(|m| name_key(&m.label, &m.origin));
            by_name
        }
    };
    let mut b = Vec::new();
    for lang in langs.langs() {
        for part in FleetPart::ALL {
            match part {
                FleetPart::Head => b.extend(head(lang, meta)),
                FleetPart::Machines => b.push(Block::Table {
                    header: header(lang).iter().map(|h| h.to_string()).collect(),
                    rows: machines.iter().map(|m| row(lang, m).to_vec()).collect(),
                    widths: TABLE_WIDTHS.to_vec(),
                }),
                FleetPart::Purchases => {
                    b.push(purchases_heading(lang));
                    b.push(Block::Table {
                        header: purchase_header(lang),
                        rows: machines.iter().map(|m| purchase_row(lang, m)).collect(),
                        widths: vec![2.2, 10.6],
                    });
                }
                FleetPart::Totals => b.push(totals(
                    lang,
                    &crate::advisor::buying::order::fleet_order(machines.iter().copied()),
                )),
                FleetPart::Chart => b.push(chart(lang, &machines)),
                FleetPart::Skipped => b.extend(skipped_files(
                    lang,
                    skipped.iter().map(|(f, r)| (f.as_str(), r.as_ref())),
                )),
                FleetPart::Verdicts => {
                    for m in &machines {
                        b.extend(verdict_blocks(lang, m));
                    }
                }
            }
        }
    }
    b
}

/// The parts of the fleet document in one language, in its order: what [`build`] fills with
/// blocks and what the Markdown written a machine at a time
/// ([`crate::report::fleet_stream`]) writes part by part, so the two can't differ in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FleetPart {
    /// The title, the date line and (when redacted) the redaction note ([`head`]).
    Head,
    /// The table of machines, one row each ([`crate::present::fleet::row`]).
    Machines,
    /// The purchase sub-heading and table, one row each ([`purchase_row`]).
    Purchases,
    /// What the lab buys in all ([`totals`]).
    Totals,
    /// The machines' RAM against their VRAM (a chart: Markdown has none).
    Chart,
    /// The files that were not machine profiles ([`skipped_files`]).
    Skipped,
    /// Each machine's verdict ([`verdict_blocks`]).
    Verdicts,
}

impl FleetPart {
    /// Every part, in the document's order.
    pub const ALL: [FleetPart; 7] = [
        FleetPart::Head,
        FleetPart::Machines,
        FleetPart::Purchases,
        FleetPart::Totals,
        FleetPart::Chart,
        FleetPart::Skipped,
        FleetPart::Verdicts,
    ];
}

/// The machines as points of RAM against VRAM, with the 1×, 1.5× and 2× lines.
fn chart(lang: Lang, machines: &[&crate::advisor::fleet::FleetMachine]) -> Block {
    let points = chart_points(machines.iter().copied());
    let data: Vec<(f64, f64)> = points.iter().map(|p| (p.vram_gib, p.ram_gib)).collect();
    let log = crate::chart::fleet_axes(&data).0.log;
    let axis = |msg: Msg| present::fleet::axis_title(lang, msg, log);
    let line = |factor: &str| present::fleet::rule_line(lang, factor);
    Block::Chart(Chart::FleetScatter {
        points,
        x_label: axis(Msg::FleetVramAxis),
        y_label: axis(Msg::FleetRamAxis),
        line_labels: [line("1×"), line("1.5×"), line("2×")],
        lang,
    })
}

/// The lab chart's points: each machine whose total VRAM and RAM as sized are both known, in
/// GiB, with its name and its ratio's tier (the colour). The report's chart and the window's
/// draw these same points.
pub fn chart_points<'a>(
    machines: impl IntoIterator<Item = &'a crate::advisor::fleet::FleetMachine>,
) -> Vec<FleetPoint> {
    machines
        .into_iter()
        .filter_map(|m| {
            Some(FleetPoint {
                label: m.label.clone(),
                vram_gib: m.assessment.vram.nominal_total_bytes? as f64 / GIB,
                ram_gib: m.assessment.memory.sizing_bytes? as f64 / GIB,
                tier: m.assessment.ratio.tier,
            })
        })
        .collect()
}

/// The widths of the machine table's columns (PDF units).
pub const TABLE_WIDTHS: [f32; 7] = [2.2, 2.4, 1.2, 1.2, 1.0, 1.8, 3.0];

/// The order of a report's machines without the window's: by host name, case folded, then as
/// written, then by where they came from (as a reader looks them up).
pub fn name_key(label: &str, origin: &crate::advisor::fleet::Origin) -> (String, String, String) {
    (
        label.to_lowercase(),
        label.to_string(),
        format!("{origin:?}"),
    )
}

/// The report's title, date line and (when redacted) the redaction note, in `lang`.
pub fn head(lang: crate::i18n::Lang, meta: &ReportMeta) -> Vec<Block> {
    let mut b = vec![
        Block::Title(tr(lang, Msg::FleetReportTitle).to_string()),
        Block::Meta(trf(
            lang,
            Msg::ReportMeta,
            &[("date", &meta.date), ("generator", &meta.generator)],
        )),
    ];
    if meta.redacted {
        b.push(Block::Note(tr(lang, Msg::ReportRedactedNote).to_string()));
    }
    b
}

/// One machine's verdict; when the ratio can't be judged, what detection could not read (the
/// notes its verdict points to); and its plan's problems when it has any.
pub fn verdict_blocks(
    lang: crate::i18n::Lang,
    m: &crate::advisor::fleet::FleetMachine,
) -> Vec<Block> {
    let (title, body) = present::verdict(lang, &m.assessment);
    let mut b = vec![Block::Callout {
        lang,
        severity: m.assessment.verdict.severity(),
        label: String::new(),
        title: present::names::host_line(lang, &m.label, &title),
        body,
    }];
    // A ratio that can't be judged says to see what detection could not read: the notes.
    let notes = &m.assessment.profile.notes;
    if m.assessment.verdict == crate::advisor::Verdict::CannotJudge && !notes.is_empty() {
        b.push(Block::Bullets(
            notes.iter().map(|n| present::note(lang, n)).collect(),
        ));
    }
    if !m.plan_issues.is_empty() {
        b.push(Block::Bullets(
            m.plan_issues
                .iter()
                .map(|i| present::fleet::plan_issue(lang, i))
                .collect(),
        ));
    }
    b
}

/// The purchase table's header: machine, what to buy.
pub fn purchase_header(lang: crate::i18n::Lang) -> Vec<String> {
    vec![
        tr(lang, Msg::FleetMachine).to_string(),
        tr(lang, Msg::OrderBuy).to_string(),
    ]
}

/// One machine's line of the purchase table: its label and what to buy (or "nothing").
pub fn purchase_row(
    lang: crate::i18n::Lang,
    m: &crate::advisor::fleet::FleetMachine,
) -> Vec<String> {
    let buy = present::purchase::order::order(lang, &m.assessment)
        .map_or_else(|| tr(lang, Msg::OrderNothing).to_string(), |o| o.buy);
    vec![m.label.clone(), buy]
}

/// The files that were not machine profiles: a "Skipped" sub-heading and one "file: reason"
/// line each (a `None` reason was redacted); nothing when there are none. The report and the
/// window's fleet page show this list.
pub fn skipped_files<'a>(
    lang: Lang,
    skipped: impl IntoIterator<Item = (&'a str, Option<&'a Skip>)>,
) -> Vec<Block> {
    let lines: Vec<String> = skipped
        .into_iter()
        .map(|(f, r)| present::fleet::skipped_line(lang, f, r))
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Subheading(tr(lang, Msg::FleetSkipped).to_string()),
        Block::Bullets(lines),
    ]
}

/// The purchase table's sub-heading ("What to buy").
pub fn purchases_heading(lang: Lang) -> Block {
    Block::Subheading(tr(lang, Msg::OrderSection).to_string())
}

/// What the lab buys in all: modules by spec, RAM added, instance moves, new machines.
pub fn totals(lang: Lang, order: &crate::advisor::buying::order::FleetOrder) -> Block {
    Block::KeyValues(present::purchase::order::totals(lang, order))
}
