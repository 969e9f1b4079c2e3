//! Fleet reports written as they are built (`report --slurm`/`--profile-dir`, Markdown and
//! JSON): each machine is taken assessed ([`AssessedFleet`]), written and dropped before the
//! next, so a 100,000-node inventory never holds 100,000 assessments (docs/benchmarks.md). The
//! bytes are those of [`super::render_fleet`] for the same machines (tests/fleet.rs compares
//! them).
//!
//! JSON keeps the order read. Markdown lists machines by name, and each language repeats the
//! machine table, the purchase table and the verdicts: the machines are taken once in that
//! order, each section's lines go to an anonymous temporary file, and the sections are copied
//! into the report at the end, part by part in the fleet document's order
//! ([`crate::present::document::fleet::FleetPart`], the order its blocks are built in). The
//! machines come assessed, and redacted for a redacted report, from
//! [`AssessedFleet`]: this file only renders.

use std::cell::RefCell;
use std::io::{self, Seek, Write};

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use super::{ReportOptions, SkippedFile, clean, markdown};
use crate::advisor::buying::lab::{LabTotals, PriceList};
use crate::advisor::fleet::{AssessedFleet, FleetMachine};
use crate::present::document::Block;
use crate::present::document::fleet::{
    FleetPart, head, name_key, order_summary, skipped_files, verdict_blocks,
};
use crate::present::purchase::lab;
use crate::profile::dir::Skip;
use crate::sanitize::UnsafeInJson;

/// A JSON array serialised from an iterator, taken once (a second serialisation writes `[]`).
pub struct Streamed<I>(RefCell<Option<I>>);

impl<I> Streamed<I> {
    /// The array of what `items` yields.
    pub fn new(items: I) -> Streamed<I> {
        Streamed(RefCell::new(Some(items)))
    }
}

impl<I: Iterator<Item = FleetMachine>> Serialize for Streamed<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        if let Some(machines) = self.0.borrow_mut().take() {
            for m in machines {
                seq.serialize_element(&m)?;
            }
        }
        seq.end()
    }
}

/// [`super::FleetDocument`]'s fields, in its order, with the machines streamed: the same JSON.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct StreamedDocument<'a, I: Iterator<Item = FleetMachine>> {
    machines: Streamed<I>,
    skipped: &'a [SkippedFile],
}

impl<'a, I: Iterator<Item = FleetMachine>> StreamedDocument<'a, I> {
    /// The document of `machines` (taken as it is written) and `skipped`.
    pub fn new(machines: I, skipped: &'a [SkippedFile]) -> StreamedDocument<'a, I> {
        StreamedDocument {
            machines: Streamed::new(machines),
            skipped,
        }
    }
}

/// Writes the fleet report as JSON (the bytes of [`super::render_fleet`]), one machine at a
/// time, in the order read (`fleet` redacted when `options.redact`).
///
/// # Errors
/// The writer's error.
pub fn write_json(
    fleet: &mut AssessedFleet<'_>,
    skipped: &[(String, Skip)],
    options: &ReportOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let first = options.lang.langs()[0];
    let skipped = SkippedFile::worded(first, &super::fleet_skipped(skipped, options.redact));
    let machines = (0..fleet.count()).map(move |i| fleet.machine(i));
    let doc = StreamedDocument::new(machines, &skipped);
    crate::sanitize::write_json_pretty(out, &doc, UnsafeInJson::Escape).map_err(io::Error::from)
}

/// Writes the fleet report as Markdown (the bytes of [`super::render_fleet`]), taking each
/// machine once, by name (`fleet` redacted when `options.redact`); see the module's notes. The
/// lab's order is priced with the typical prices ([`write_markdown_priced`]).
///
/// # Errors
/// The writer's error, or one creating or reading the temporary files.
pub fn write_markdown(
    fleet: &mut AssessedFleet<'_>,
    skipped: &[(String, Skip)],
    options: &ReportOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let prices = crate::advisor::buying::lab::typical_prices();
    write_markdown_priced(fleet, skipped, options, &prices, out)
}

/// [`write_markdown`] with the lab's order priced from `prices` (the bytes of
/// [`super::render_fleet_priced`]).
///
/// # Errors
/// As [`write_markdown`].
pub fn write_markdown_priced(
    fleet: &mut AssessedFleet<'_>,
    skipped: &[(String, Skip)],
    options: &ReportOptions,
    prices: &PriceList,
    out: &mut dyn Write,
) -> io::Result<()> {
    let langs = options.lang.langs();
    let skipped = super::fleet_skipped(skipped, options.redact);
    let meta = super::fleet_meta(options);
    let mut order: Vec<((String, String, String), usize)> = (0..fleet.count())
        .map(|i| {
            let (label, origin) = fleet.label(i);
            (name_key(&label, &origin), i)
        })
        .collect();
    order.sort_unstable();
    let mut sections = langs
        .iter()
        .map(|_| Sections::new())
        .collect::<io::Result<Vec<_>>>()?;
    let mut line = String::new();
    for (_, i) in order {
        let m = fleet.machine(i);
        for (&lang, s) in langs.iter().zip(&mut sections) {
            line.clear();
            markdown::table_row(&mut line, &cleaned(crate::present::fleet::row(lang, &m)));
            s.table.write_all(line.as_bytes())?;
            let (rows, lines) = lab::machine_rows(lang, &m, prices);
            s.totals.add(&lines, prices);
            for row in rows {
                line.clear();
                markdown::table_row(&mut line, &cleaned(row));
                s.purchases.write_all(line.as_bytes())?;
                s.order_rows += 1;
            }
            s.verdicts
                .write_all(rendered(verdict_blocks(lang, &m)).as_bytes())?;
        }
    }
    for (&lang, s) in langs.iter().zip(sections) {
        let Sections {
            table,
            purchases,
            verdicts,
            totals,
            order_rows,
        } = s;
        let (mut table, mut purchases, mut verdicts) =
            (Some(table), Some(purchases), Some(verdicts));
        for part in FleetPart::ALL {
            match part {
                FleetPart::Head => out.write_all(rendered(head(lang, &meta)).as_bytes())?,
                FleetPart::Machines => {
                    let header = cleaned(crate::present::fleet::header(lang));
                    spilled_table(out, String::new(), &header, table.take())?;
                }
                FleetPart::Totals => {
                    let blocks = order_summary(lang, &totals, prices, &meta.date);
                    out.write_all(rendered(blocks).as_bytes())?
                }
                // No table when nothing is to be bought.
                FleetPart::Purchases if order_rows == 0 => {}
                FleetPart::Purchases => {
                    let header = cleaned(lab::header(lang));
                    spilled_table(out, String::new(), &header, purchases.take())?;
                }
                // Markdown has no charts.
                FleetPart::Chart => {}
                FleetPart::Skipped => {
                    let blocks =
                        skipped_files(lang, skipped.iter().map(|(f, r)| (f.as_str(), r.as_ref())));
                    out.write_all(rendered(blocks).as_bytes())?;
                }
                FleetPart::Verdicts => {
                    if let Some(v) = verdicts.take() {
                        copy(v, out)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// A table written as [`markdown::render`] writes one: `before` (a heading), the header, the
/// rows spilled to `rows`, then a blank line.
fn spilled_table(
    out: &mut dyn Write,
    mut before: String,
    header: &[String],
    rows: Option<io::BufWriter<std::fs::File>>,
) -> io::Result<()> {
    markdown::table_head(&mut before, header);
    out.write_all(before.as_bytes())?;
    if let Some(rows) = rows {
        copy(rows, out)?;
    }
    out.write_all(b"\n")
}

/// One language's sections, each in an anonymous temporary file until the report is put
/// together.
struct Sections {
    table: io::BufWriter<std::fs::File>,
    purchases: io::BufWriter<std::fs::File>,
    verdicts: io::BufWriter<std::fs::File>,
    /// The lab's order added up, as its rows are written.
    totals: LabTotals,
    /// The order's rows written to `purchases`.
    order_rows: u64,
}

impl Sections {
    fn new() -> io::Result<Sections> {
        let spill = || tempfile::tempfile().map(io::BufWriter::new);
        Ok(Sections {
            table: spill()?,
            purchases: spill()?,
            verdicts: spill()?,
            totals: LabTotals::default(),
            order_rows: 0,
        })
    }
}

/// Appends what was written to `spill` to `out`.
fn copy(spill: io::BufWriter<std::fs::File>, out: &mut dyn Write) -> io::Result<()> {
    let mut file = spill.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.rewind()?;
    io::copy(&mut file, out)?;
    Ok(())
}

/// Blocks cleaned ([`clean::clean_blocks`]) and rendered as Markdown.
fn rendered(mut blocks: Vec<Block>) -> String {
    clean::clean_blocks(&mut blocks);
    markdown::render(&blocks)
}

/// Table cells cleaned as [`clean::clean_blocks`] cleans a table's.
fn cleaned<S: Into<String>>(cells: impl IntoIterator<Item = S>) -> Vec<String> {
    cells
        .into_iter()
        .map(|c| {
            let mut c = c.into();
            clean::fix(&mut c);
            c
        })
        .collect()
}
