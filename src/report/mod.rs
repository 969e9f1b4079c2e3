//! Reports: one [`Assessment`] as a PDF for procurement, Markdown for wikis, or JSON for
//! scripts, in Chinese, English or both. The content is [`crate::present::document`]'s; the
//! renderers here (terminal, Markdown, PDF) only lay it out. Writing is atomic ([`crate::fsutil::write_atomic`]).

pub mod clean;
pub mod fleet_stream;
pub mod markdown;
pub mod monitor;
pub mod pdf;
pub mod terminal;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::advisor::Assessment;
use crate::advisor::fleet::FleetMachine;
use crate::i18n::{Lang, Msg};
use crate::present::document::{self, Block};
pub use crate::present::document::{ReportLang, ReportMeta};
use crate::profile::dir::Skip;
use crate::sanitize::UnsafeInJson;
pub use pdf::page_label;

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A4 PDF with the CJK font embedded as a subset and vector charts.
    Pdf,
    /// Markdown.
    Markdown,
    /// The assessment as JSON (same keys as `advise --json`).
    Json,
}

impl Format {
    /// The format a file's name asks for: `.pdf`, `.md` or `.markdown`, `.json`, in any case;
    /// `None` for another extension or none. The command line and the window's save dialogs
    /// read names the same way.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pdf" => Some(Format::Pdf),
            "md" | "markdown" => Some(Format::Markdown),
            "json" => Some(Format::Json),
            _ => None,
        }
    }

    /// The file name extension it writes, without the dot: `pdf`, `md`, `json`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Markdown => "md",
            Format::Json => "json",
        }
    }
}

/// Report settings chosen by the user (and the date, which the caller reads from the clock).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    /// Output format.
    pub format: Format,
    /// Languages.
    pub lang: ReportLang,
    /// Remove host name, user names, UUIDs.
    pub redact: bool,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Where the profile came from (file path), `None` for this machine.
    pub source_file: Option<String>,
}

/// Today's date in UTC as `YYYY-MM-DD`.
pub fn today() -> String {
    let d = time::OffsetDateTime::now_utc().date();
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
}

/// Renders a report. When `options.redact`, `a` is already the assessment of the redacted
/// profile ([`crate::advisor::redacted`]): the renderers only lay it out, and the option adds the
/// redaction note and leaves out the file name and the watched trace's path.
///
/// # Errors
/// The PDF writer's error text.
pub fn render(a: &Assessment, options: &ReportOptions) -> Result<Vec<u8>, String> {
    render_with_monitor(a, options, None)
}

/// [`render`], with a watched run's live diagnosis (timeline, diagnoses, peaks) when given. In
/// JSON it is the `live_diagnosis` member beside the assessment's.
///
/// # Errors
/// The PDF writer's error text.
pub fn render_with_monitor(
    a: &Assessment,
    options: &ReportOptions,
    monitor: Option<&monitor::MonitorReport>,
) -> Result<Vec<u8>, String> {
    let meta = ReportMeta {
        date: options.date.clone(),
        generator: format!("ramvram {}", env!("CARGO_PKG_VERSION")),
        source_file: options.source_file.clone(),
        redacted: options.redact,
    };
    match options.format {
        Format::Json => {
            #[derive(serde::Serialize)]
            struct WithMonitor<'a> {
                #[serde(flatten)]
                assessment: &'a Assessment,
                #[serde(skip_serializing_if = "Option::is_none")]
                live_diagnosis: Option<monitor::MonitorJson<'a>>,
            }
            let doc = WithMonitor {
                assessment: a,
                live_diagnosis: monitor.map(|m| m.json(options.redact)),
            };
            let mut text = crate::sanitize::json_pretty(&doc, UnsafeInJson::Escape)
                .map_err(|e| e.to_string())?;
            text.push('\n');
            Ok(text.into_bytes())
        }
        Format::Markdown => {
            Ok(markdown::render(&built_blocks(a, &meta, options.lang, monitor)).into_bytes())
        }
        Format::Pdf => {
            let blocks = built_blocks(a, &meta, options.lang, monitor);
            let title = blocks.iter().find_map(|b| match b {
                Block::Title(t) => Some(t.clone()),
                _ => None,
            });
            pdf::render(
                &blocks,
                title.as_deref().unwrap_or("ramvram"),
                &options.lang.langs(),
            )
        }
    }
}

/// The report's blocks, every string cleaned ([`clean::clean_blocks`]).
fn built_blocks(
    a: &Assessment,
    meta: &ReportMeta,
    lang: ReportLang,
    monitor: Option<&monitor::MonitorReport>,
) -> Vec<Block> {
    let mut blocks = document::machine::build_with_monitor(a, meta, lang, monitor);
    clean::clean_blocks(&mut blocks);
    blocks
}

/// Why a report was not written.
#[derive(Debug)]
pub enum ReportError {
    /// It could not be rendered (the PDF writer's words).
    Render(String),
    /// The file could not be written (worded by [`ReportError::text`]).
    Write {
        /// The file as given.
        path: std::path::PathBuf,
        /// The OS error or the write path's refusal.
        error: std::io::Error,
    },
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::Render(text) => f.write_str(text),
            ReportError::Write { path, error } => write!(
                f,
                "{}: {}",
                path.display(),
                crate::fsutil::IoProblem::of(error)
            ),
        }
    }
}

impl std::error::Error for ReportError {}

impl ReportError {
    /// The error in `lang`, naming the file as the user gave it (never a temporary file).
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        match self {
            ReportError::Render(text) => text.clone(),
            ReportError::Write { path, error } => {
                crate::present::errors::write_failed(lang, path, error)
            }
        }
    }
}

/// Renders and writes a report atomically: a failure leaves no file and never replaces an
/// existing report with a broken one.
///
/// # Errors
/// [`ReportError::Render`], or [`ReportError::Write`] (permission denied, a full disk, a
/// folder that doesn't exist).
pub fn write(a: &Assessment, options: &ReportOptions, path: &Path) -> Result<(), ReportError> {
    write_with_monitor(a, options, None, path)
}

/// [`write`] with a watched run's live diagnosis (see [`render_with_monitor`]).
///
/// # Errors
/// As [`write`].
pub fn write_with_monitor(
    a: &Assessment,
    options: &ReportOptions,
    monitor: Option<&monitor::MonitorReport>,
    path: &Path,
) -> Result<(), ReportError> {
    let bytes = render_with_monitor(a, options, monitor).map_err(ReportError::Render)?;
    crate::fsutil::write_atomic(path, &bytes).map_err(|error| ReportError::Write {
        path: path.to_path_buf(),
        error,
    })
}

/// Renders the fleet comparison (PDF or Markdown; JSON is the machines' assessments). When
/// `options.redact`, the machines are already redacted
/// ([`crate::advisor::fleet::AssessedFleet`], [`crate::advisor::fleet::redacted_fleet`]); the
/// option numbers the skipped files and adds the redaction note.
///
/// # Errors
/// The PDF writer's error text.
pub fn render_fleet(
    machines: &[crate::advisor::fleet::FleetMachine],
    skipped: &[(String, Skip)],
    options: &ReportOptions,
) -> Result<Vec<u8>, String> {
    render_fleet_sorted(machines, skipped, options, None)
}

/// [`render_fleet`] with the machines in the window's order (`sort`; by name without one).
///
/// # Errors
/// The PDF writer's error text.
pub fn render_fleet_sorted(
    machines: &[crate::advisor::fleet::FleetMachine],
    skipped: &[(String, Skip)],
    options: &ReportOptions,
    sort: Option<crate::present::fleet::FleetSort>,
) -> Result<Vec<u8>, String> {
    let prices = crate::advisor::buying::lab::typical_prices();
    render_fleet_priced(machines, skipped, options, sort, &prices)
}

/// [`render_fleet_sorted`] with the lab's order priced from `prices` (the lab's price list, or
/// [`crate::advisor::buying::lab::typical_prices`]).
///
/// # Errors
/// The PDF writer's error text.
pub fn render_fleet_priced(
    machines: &[crate::advisor::fleet::FleetMachine],
    skipped: &[(String, Skip)],
    options: &ReportOptions,
    sort: Option<crate::present::fleet::FleetSort>,
    prices: &crate::advisor::buying::lab::PriceList,
) -> Result<Vec<u8>, String> {
    let skipped = fleet_skipped(skipped, options.redact);
    let meta = fleet_meta(options);
    let first = options.lang.langs()[0];
    match options.format {
        Format::Json => {
            let doc = FleetDocument::new(first, machines, &skipped);
            let text = crate::sanitize::json_pretty(&doc, UnsafeInJson::Escape)
                .map_err(|e| e.to_string())?;
            Ok(text.into_bytes())
        }
        Format::Markdown | Format::Pdf => {
            let mut blocks = document::fleet::build_priced(
                machines,
                &skipped,
                &meta,
                options.lang,
                sort,
                prices,
            );
            clean::clean_blocks(&mut blocks);
            if options.format == Format::Markdown {
                Ok(markdown::render(&blocks).into_bytes())
            } else {
                pdf::render(
                    &blocks,
                    crate::i18n::tr(first, Msg::FleetReportTitle),
                    &options.lang.langs(),
                )
            }
        }
    }
}

/// The skipped files as a fleet report lists them: a redacted report numbers them and gives no
/// reason (both name paths).
fn fleet_skipped(skipped: &[(String, Skip)], redact: bool) -> Vec<(String, Option<Skip>)> {
    skipped
        .iter()
        .enumerate()
        .map(|(i, (file, why))| match redact {
            true => (format!("#{}", i + 1), None),
            false => (file.clone(), Some(why.clone())),
        })
        .collect()
}

/// The fleet report's date line and generator.
fn fleet_meta(options: &ReportOptions) -> ReportMeta {
    ReportMeta {
        date: options.date.clone(),
        generator: format!("ramvram {}", env!("CARGO_PKG_VERSION")),
        source_file: None,
        redacted: options.redact,
    }
}

/// A file that was not a machine profile, and why (in the report's first language; a redacted
/// report says only that it was removed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    /// The file.
    pub file: String,
    /// Why it was skipped.
    pub reason: String,
}

impl SkippedFile {
    /// The skipped files of a fleet report as its JSON lists them (from
    /// [`fleet_skipped`]'s list; `None`: the reason was redacted), reasons worded in `lang`.
    pub fn worded(lang: Lang, skipped: &[(String, Option<Skip>)]) -> Vec<SkippedFile> {
        skipped
            .iter()
            .map(|(file, why)| SkippedFile {
                file: file.clone(),
                reason: skip_reason(lang, why.as_ref()),
            })
            .collect()
    }
}

/// A skipped file's reason (built in [`crate::present::fleet`]).
pub use crate::present::fleet::skip_reason;

/// Many machines as one JSON document: `advise --profile-dir --json` and the fleet report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FleetDocument {
    /// The machines.
    pub machines: Vec<FleetMachine>,
    /// Files that were not profiles.
    pub skipped: Vec<SkippedFile>,
}

impl FleetDocument {
    /// Builds the document from machines and skipped files (`None`: the reason was redacted),
    /// wording the reasons in `lang`.
    pub fn new(
        lang: Lang,
        machines: &[FleetMachine],
        skipped: &[(String, Option<Skip>)],
    ) -> FleetDocument {
        FleetDocument {
            machines: machines.to_vec(),
            skipped: SkippedFile::worded(lang, skipped),
        }
    }
}
