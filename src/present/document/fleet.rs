//! The fleet document (the lab comparison report's blocks): the table of machines, the RAM:VRAM chart, and each
//! machine's verdict with its plan's problems, in each language.

use super::types::{Block, Chart, FleetPoint, ReportLang, ReportMeta};
use crate::format::GIB;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;
use crate::profile::dir::Skip;

/// Builds the fleet comparison report: the table, the chart, and each planned machine's
/// problems, in each language; the lab's order priced with the catalogue of typical prices
/// ([`build_priced`]).
pub fn build(
    machines: &[crate::advisor::fleet::FleetMachine],
    skipped: &[(String, Option<crate::profile::dir::Skip>)],
    meta: &ReportMeta,
    langs: ReportLang,
    sort: Option<crate::present::fleet::FleetSort>,
) -> Vec<Block> {
    let prices = crate::advisor::buying::lab::typical_prices();
    build_priced(machines, skipped, meta, langs, sort, &prices)
}

/// [`build`] with the lab's order priced from `prices` (the lab's price list, or the typical
/// prices): first the order (what to buy across the lab, with its totals), then the machines'
/// table, the chart, the skipped files and each machine's verdict.
pub fn build_priced(
    machines: &[crate::advisor::fleet::FleetMachine],
    skipped: &[(String, Option<crate::profile::dir::Skip>)],
    meta: &ReportMeta,
    langs: ReportLang,
    sort: Option<crate::present::fleet::FleetSort>,
    prices: &crate::advisor::buying::lab::PriceList,
) -> Vec<Block> {
    use crate::advisor::buying::lab::LabTotals;
    use crate::present::fleet::{header, row};
    use crate::present::purchase::lab;
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
        let mut rows = Vec::new();
        let mut totals = LabTotals::default();
        for m in &machines {
            let (r, lines) = lab::machine_rows(lang, m, prices);
            rows.extend(r);
            totals.add(&lines, prices);
        }
        let mut rows = Some(rows);
        for part in FleetPart::ALL {
            match part {
                FleetPart::Head => b.extend(head(lang, meta)),
                FleetPart::Machines => b.push(Block::Table {
                    header: header(lang).iter().map(|h| h.to_string()).collect(),
                    rows: machines.iter().map(|m| row(lang, m).to_vec()).collect(),
                    widths: TABLE_WIDTHS.to_vec(),
                }),
                FleetPart::Totals => {
                    b.extend(order_summary(lang, &totals, prices, &meta.date));
                }
                FleetPart::Purchases => {
                    b.extend(order_table(lang, rows.take().unwrap_or_default()));
                }
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
    /// What to buy across the lab, summed: the sub-heading, the totals and where the prices
    /// come from, or a sentence when nothing is to be bought
    /// ([`order_summary`]).
    Totals,
    /// The order's table, a row per line
    /// ([`crate::present::purchase::lab::machine_rows`]); nothing when nothing is to be bought.
    Purchases,
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
        FleetPart::Totals,
        FleetPart::Purchases,
        FleetPart::Machines,
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

/// The lab's order summed, first on the page: the sub-heading, then the totals
/// ([`crate::present::purchase::lab::totals_rows`]) and where the prices come from; or a
/// sentence when no machine has anything to buy.
pub fn order_summary(
    lang: Lang,
    t: &crate::advisor::buying::lab::LabTotals,
    prices: &crate::advisor::buying::lab::PriceList,
    date: &str,
) -> Vec<Block> {
    use crate::present::purchase::lab;
    let mut b = vec![Block::Subheading(
        tr(lang, Msg::LabOrderHeading).to_string(),
    )];
    if t.machines == 0 {
        b.push(Block::Paragraph(tr(lang, Msg::LabOrderNothing).to_string()));
        return b;
    }
    b.push(Block::KeyValues(lab::totals_rows(lang, t)));
    b.push(Block::Note(lab::prices_note(lang, prices, date)));
    b
}

/// The lab's order as a table of `rows` ([`crate::present::purchase::lab::machine_rows`]);
/// nothing when there are none.
pub fn order_table(lang: Lang, rows: Vec<Vec<String>>) -> Vec<Block> {
    use crate::present::purchase::lab;
    if rows.is_empty() {
        return Vec::new();
    }
    vec![Block::Table {
        header: lab::header(lang),
        rows,
        widths: lab::WIDTHS.to_vec(),
    }]
}
