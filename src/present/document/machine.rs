//! The machine document: an [`Assessment`] (with its plans and, when given, a watched run) laid
//! out as blocks of localised text, tables and charts. Builds words through [`crate::present`];
//! computes no advice of its own.

use super::machine_sections::{
    appendix, bandwidth, findings, hardware, pools, ratio, recommendations, rules,
};
use super::plan_sections::{inference, procurement, training, workload};
use super::types::{Block, MonitorReport, ReportLang, ReportMeta, Section};
use crate::advisor::Assessment;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;

/// Builds the report's blocks for `a` (already redacted when `meta.redacted`).
pub fn build(a: &Assessment, meta: &ReportMeta, langs: ReportLang) -> Vec<Block> {
    build_with_monitor(a, meta, langs, None)
}

/// [`build`], with a watched run's live diagnosis before the appendix when one is given. Each
/// section is written in every language of `langs` before the next one starts.
pub fn build_with_monitor(
    a: &Assessment,
    meta: &ReportMeta,
    langs: ReportLang,
    monitor: Option<&MonitorReport>,
) -> Vec<Block> {
    let langs = langs.langs();
    let mut blocks = Vec::new();
    for &lang in &langs {
        title(&mut blocks, lang, a, meta);
    }
    for s in Section::ALL {
        for &lang in &langs {
            blocks.extend(section(s, lang, a));
        }
    }
    if let Some(m) = monitor {
        for &lang in &langs {
            super::monitor::section(&mut blocks, lang, m, meta.redacted);
        }
    }
    for &lang in &langs {
        appendix(&mut blocks, lang, a);
    }
    blocks
}

/// The machine document after its title in one language: every section of [`Section::ALL`] in
/// its order, then the appendix of assumptions and sources. A view with a title of its own
/// renders this (the terminal's `advise`), so its sections are the report's, titled alike and in
/// the same order.
pub fn body(lang: Lang, a: &Assessment) -> Vec<Block> {
    let mut blocks: Vec<Block> = Section::ALL
        .into_iter()
        .flat_map(|s| section(s, lang, a))
        .collect();
    appendix(&mut blocks, lang, a);
    blocks
}

/// One section of the machine document in `lang`, for a view that shows sections apart (the
/// terminal's `detect`, the window's pages); empty when `a` has nothing for it (no plan, no
/// recommendation).
pub fn section(s: Section, lang: Lang, a: &Assessment) -> Vec<Block> {
    let mut b = Vec::new();
    let build: fn(&mut Vec<Block>, Lang, &Assessment) = match s {
        Section::Verdict => verdict,
        Section::Inputs => inputs,
        Section::Order => order,
        Section::Hardware => hardware,
        Section::Ratio => ratio,
        Section::Rules => rules,
        Section::Bandwidth => bandwidth,
        Section::Pools => pools,
        Section::Findings => findings,
        Section::Recommendations => recommendations,
        Section::Workload => workload,
        Section::Training => training,
        Section::Inference => inference,
        Section::Procurement => procurement,
    };
    build(&mut b, lang, a);
    b
}

fn title(b: &mut Vec<Block>, lang: Lang, a: &Assessment, meta: &ReportMeta) {
    let host = a.profile.host.hostname.clone().unwrap_or_else(|| {
        if meta.redacted {
            tr(lang, Msg::ReportRedactedHost).to_string()
        } else {
            format::unknown(lang)
        }
    });
    b.push(Block::Title(trf(
        lang,
        Msg::ReportTitle,
        &[("host", &host)],
    )));
    let mut line = trf(
        lang,
        Msg::ReportMeta,
        &[("date", &meta.date), ("generator", &meta.generator)],
    );
    // A redacted report names no file (a file name often is the host name).
    if !meta.redacted {
        line.push_str(" · ");
        line.push_str(&match &meta.source_file {
            Some(f) => trf(lang, Msg::ReportSourceFile, &[("file", f)]),
            None => tr(lang, Msg::ReportSourceDetected).to_string(),
        });
    }
    b.push(Block::Meta(line));
    if meta.redacted {
        b.push(Block::Note(tr(lang, Msg::ReportRedactedNote).to_string()));
    }
}

fn verdict(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    // What the user asked first: each plan's verdict with its figures, then the headline.
    let answers = present::inputs::answers(lang, a);
    if !answers.is_empty() {
        b.push(Block::Subheading(tr(lang, Msg::AnswerSection).to_string()));
        for (standing, title) in answers {
            b.push(Block::Verdict {
                standing,
                title,
                body: String::new(),
            });
        }
    }
    let h = present::headline::headline(lang, a);
    b.push(Block::Callout {
        lang,
        severity: h.severity,
        label: present::severity(lang, h.severity).to_string(),
        title: h.title,
        body: h.detail,
    });
}

/// Page 1's purchase line: what to buy, in a line a purchasing office can act on, and why.
fn order(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    let Some(o) = present::purchase::order::order(lang, a) else {
        return;
    };
    b.push(Block::Subheading(tr(lang, Msg::OrderSection).to_string()));
    let buy = if o.more_sets {
        o.buy + tr(lang, Msg::OrderOthers)
    } else {
        o.buy
    };
    let mut rows = vec![
        (tr(lang, Msg::OrderBuy).to_string(), buy),
        (tr(lang, Msg::OrderWhy).to_string(), o.basis),
    ];
    // The cheapest purchase that ends the problem, beside what the rules ask.
    if let Some(fix) = present::purchase::lab::fix_line(lang, a) {
        rows.push((tr(lang, Msg::LabOrderChoiceFix).to_string(), fix));
    }
    b.push(Block::KeyValues(rows));
}

/// What the report covers: the training plan and the workload the user set up, or the machine
/// alone. Built from the assessment, so it can't disagree with the sections below.
fn inputs(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.push(Block::Subheading(tr(lang, Msg::InputsSection).to_string()));
    let lines = present::inputs::included(lang, a);
    if lines.is_empty() {
        b.push(Block::Paragraph(
            tr(lang, Msg::InputsMachineOnly).to_string(),
        ));
    } else {
        b.push(Block::Bullets(lines));
    }
}
