//! The report model: an [`Assessment`] laid out as blocks of localised text, tables and charts.
//! Builds words through [`crate::present`]; computes no advice of its own.

pub use super::fleet_model::build_fleet;
use super::machine_sections::{
    appendix, bandwidth, findings, hardware, ratio, recommendations, rules,
};
use super::plan_sections::{inference, procurement, training, workload};
use crate::advisor::{Assessment, Severity};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;

/// A chart, drawn as vectors by the PDF writer (and omitted from Markdown).
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    /// The RAM:VRAM gauge with the seed's tier bands.
    RatioGauge {
        /// The ratio.
        ratio: f64,
        /// Tier names, lowest first.
        tier_labels: [String; 4],
    },
    /// RAM each rule requires against this machine's RAM, GiB.
    RulesBars {
        /// (rule name, required GiB).
        rules: Vec<(String, f64)>,
        /// This machine's effective RAM, GiB.
        actual_gib: f64,
        /// Legend for the actual line.
        actual_label: String,
        /// Axis title.
        axis_label: String,
    },
    /// A watched run's charts on one time axis, each diagnosis shaded.
    Timeline {
        /// The charts, top to bottom.
        panels: Vec<crate::present::timeline::TimelinePanel>,
        /// The shaded ranges.
        spans: Vec<crate::present::timeline::TimelineSpan>,
        /// Time axis title (empty: no title, a chart continued by the next one).
        x_label: String,
        /// First and last sample's time, seconds.
        x_range: (f64, f64),
        /// Name the shaded ranges (in the first chart of a stack).
        label_spans: bool,
    },
    /// Machines as points of RAM against VRAM, with the 1×, 1.5× and 2× lines.
    FleetScatter {
        /// The machines with both numbers known.
        points: Vec<FleetPoint>,
        /// X axis title.
        x_label: String,
        /// Y axis title.
        y_label: String,
        /// Names of the lines RAM = 1×, 1.5× and 2× VRAM.
        line_labels: [String; 3],
    },
}

/// A machine on the fleet chart.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetPoint {
    /// Name.
    pub label: String,
    /// Total VRAM, GiB.
    pub vram_gib: f64,
    /// Usable RAM, GiB.
    pub ram_gib: f64,
    /// Tier, for the colour.
    pub tier: Option<crate::advisor::Tier>,
}

/// One block of the report.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Document title.
    Title(String),
    /// Line under the title (date, version, source).
    Meta(String),
    /// Section heading.
    Heading(String),
    /// Sub-heading.
    Subheading(String),
    /// Running text.
    Paragraph(String),
    /// A coloured box with a title and text (the verdict).
    Callout {
        /// Colour.
        severity: Severity,
        /// Bold line.
        title: String,
        /// Text.
        body: String,
    },
    /// Two-column label/value list.
    KeyValues(Vec<(String, String)>),
    /// A table; `widths` are relative column widths.
    Table {
        /// Header row.
        header: Vec<String>,
        /// Body rows.
        rows: Vec<Vec<String>>,
        /// Relative widths, one per column.
        widths: Vec<f32>,
    },
    /// A bulleted list.
    Bullets(Vec<String>),
    /// A numbered list, 1 first (the ranked recommendations: the rank is the point).
    Numbered(Vec<String>),
    /// A finding: severity label, title, explanation, recommendations.
    Finding {
        /// The language it is written in (how a renderer joins the label and the title).
        lang: Lang,
        /// Colour.
        severity: Severity,
        /// "Critical" / "严重".
        label: String,
        /// Title.
        title: String,
        /// Explanation.
        explanation: String,
        /// What to do.
        recommendations: Vec<String>,
    },
    /// A chart.
    Chart(Chart),
    /// Small print.
    Note(String),
}

/// Which languages a report is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportLang {
    /// One language.
    One(Lang),
    /// Each section in Chinese, then in English.
    Both,
}

impl ReportLang {
    /// The languages, in the order sections repeat.
    pub fn langs(self) -> Vec<Lang> {
        match self {
            ReportLang::One(l) => vec![l],
            ReportLang::Both => vec![Lang::Zh, Lang::En],
        }
    }
}

/// Facts about the report itself (not advice): when, by what, and whether it was redacted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportMeta {
    /// Date the report was made, `YYYY-MM-DD`.
    pub date: String,
    /// `ramvram 0.1.0`.
    pub generator: String,
    /// The profile file reported on; `None` for this machine (detected).
    pub source_file: Option<String>,
    /// Identifiers removed.
    pub redacted: bool,
}

/// Builds the report's blocks for `a` (already redacted when `meta.redacted`).
pub fn build(a: &Assessment, meta: &ReportMeta, langs: ReportLang) -> Vec<Block> {
    build_with_monitor(a, meta, langs, None)
}

/// [`build`], with a watched run's live diagnosis before the appendix when one is given.
pub fn build_with_monitor(
    a: &Assessment,
    meta: &ReportMeta,
    langs: ReportLang,
    monitor: Option<&super::monitor::MonitorReport>,
) -> Vec<Block> {
    let langs = langs.langs();
    let mut blocks = Vec::new();
    type Section = fn(&mut Vec<Block>, Lang, &Assessment, &ReportMeta);
    let sections: [Section; 14] = [
        title,
        verdict,
        inputs,
        order,
        hardware,
        ratio,
        rules,
        bandwidth,
        findings,
        recommendations,
        workload,
        training,
        inference,
        procurement,
    ];
    for section in sections {
        for &lang in &langs {
            section(&mut blocks, lang, a, meta);
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

fn verdict(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    let h = present::headline::headline(lang, a);
    b.push(Block::Callout {
        severity: h.severity,
        title: h.title,
        body: h.detail,
    });
}

/// What the report covers: the training plan and the workload the user set up, or the machine
/// alone. Built from the assessment, so it can't disagree with the sections below.
/// Page 1's purchase line: what to buy, in a line a purchasing office can act on, and why.
fn order(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    let Some(o) = present::purchase::order::order(lang, a) else {
        return;
    };
    b.push(Block::Subheading(tr(lang, Msg::OrderSection).to_string()));
    let buy = if o.more_sets {
        o.buy + tr(lang, Msg::OrderOthers)
    } else {
        o.buy
    };
    b.push(Block::KeyValues(vec![
        (tr(lang, Msg::OrderBuy).to_string(), buy),
        (tr(lang, Msg::OrderWhy).to_string(), o.basis),
    ]));
}

fn inputs(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
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
