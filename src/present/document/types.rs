//! The document's types: blocks of localised text, tables and charts, and the facts about a
//! report (its languages, date, source). Builders live beside this file ([`super::machine`],
//! [`super::fleet`], [`super::monitor`]); renderers in [`crate::report`] (terminal, Markdown,
//! PDF) and the window draw them.

use crate::advisor::Severity;
use crate::advisor::diagnose::Summary;
use crate::i18n::Lang;
use crate::trace::Trace;

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
        /// The language the chart is in: machines drawn at one point share a label, their
        /// names joined as it joins a list ([`crate::present::fleet::same_point`]).
        lang: crate::i18n::Lang,
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
        /// The language it is written in (how a renderer joins the label and the title).
        lang: Lang,
        /// Colour.
        severity: Severity,
        /// The severity's word ("Critical" / "严重"), empty for none: renderers without colour
        /// (the terminal, Markdown, a PDF printed in black and white) lead the title with it;
        /// the window says it with the frame's colour.
        label: String,
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
    /// One ranked recommendation. `text` and `apply_text` are what every printed view gives it
    /// (a numbered item, then the arguments that apply it on a line of their own); the other
    /// fields are its parts, for a view that lays it out and acts on it (the window: a copy
    /// button for `apply`, the result in its standing's colour).
    Recommendation {
        /// The language it is written in (the window's "Apply:" label).
        lang: Lang,
        /// Its rank, 1 first.
        rank: usize,
        /// The numbered item's line: the change, what the model says after it (ending in the
        /// verdict `standing` judges: "fits", "still does not fit", "can't tell whether it
        /// fits") and what it costs.
        text: String,
        /// The line under it that applies it ("Apply: add `--num-workers 4` to the `ramvram
        /// advise` command"); empty when `apply` is.
        apply_text: String,
        /// The kind as a tag: "[setting]" / "【设置】".
        kind: String,
        /// The change.
        title: String,
        /// What the model says after the change.
        result: String,
        /// How that result stands (the advisor's judgement, for the colour).
        standing: crate::advisor::standing::Standing,
        /// What it costs the user, in words and in speed ("slower: …; speed 0.75× the plan as
        /// it stands (…)").
        cost: String,
        /// The `advise` arguments that apply it; empty when no flag says it.
        apply: Vec<String>,
        /// The change in the user's own tools: each tool's label ("In deepspeed:") and its
        /// text (a DeepSpeed fragment, `llama-server` flags), printed under `apply_text`; the
        /// window gives each a copy button.
        native: Vec<(String, String)>,
    },
    /// A plan's verdict, in the colour of how it stands (the advisor's judgement): "This plan
    /// fits this machine" and the line on RAM under it. Printed views give it as running text.
    Verdict {
        /// How the plan stands, for the colour.
        standing: crate::advisor::standing::Standing,
        /// The verdict.
        title: String,
        /// What RAM would make it fit, or why more RAM alone wouldn't; empty when nothing.
        body: String,
    },
    /// A table of checks: each row with how it stands (its last cell says it in words: "fits",
    /// "no headroom", "does not fit"), so that a view with colour colours it. Printed views give
    /// it as a [`Block::Table`].
    Checks {
        /// Header row.
        header: Vec<String>,
        /// Body rows, each with its standing.
        rows: Vec<(Vec<String>, crate::advisor::standing::Standing)>,
        /// Relative widths, one per column.
        widths: Vec<f32>,
    },
}

/// The sections of the machine document after its title, in the order a report gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The verdict in a coloured box.
    Verdict,
    /// What the report assesses: the plan and the workload, or the machine alone.
    Inputs,
    /// Page 1's purchase line.
    Order,
    /// The hardware rows and the profile's notes.
    Hardware,
    /// The RAM:VRAM ratio: gauge and rows.
    Ratio,
    /// The published rules' table and bars.
    Rules,
    /// Memory bandwidth, the pipeline, PCIe and storage.
    Bandwidth,
    /// The memory pools the plans charge, with their limits.
    Pools,
    /// The findings, most serious first.
    Findings,
    /// The ranked recommendations.
    Recommendations,
    /// The data-loading workload.
    Workload,
    /// The training plan.
    Training,
    /// The served model.
    Inference,
    /// What to buy.
    Procurement,
}

impl Section {
    /// Every section, in the report's order.
    pub const ALL: [Section; 14] = [
        Section::Verdict,
        Section::Inputs,
        Section::Order,
        Section::Hardware,
        Section::Ratio,
        Section::Rules,
        Section::Bandwidth,
        Section::Pools,
        Section::Findings,
        Section::Recommendations,
        Section::Workload,
        Section::Training,
        Section::Inference,
        Section::Procurement,
    ];
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

/// A watched run to put in a report.
#[derive(Clone, Debug, PartialEq)]
pub struct MonitorReport {
    /// The trace file it was read from; `None` when watched in the window.
    pub source: Option<String>,
    /// The samples.
    pub trace: Trace,
    /// Its diagnosis.
    pub summary: Summary,
}

impl Block {
    /// A callout's title as renderers without colour print it: led by its severity's word
    /// `label` ("Critical: RAM is smaller…"), or `title` alone when `label` is empty.
    pub fn callout_title(lang: Lang, label: &str, title: &str) -> String {
        if label.is_empty() {
            title.to_string()
        } else {
            crate::present::names::labelled(lang, label, title)
        }
    }
}
