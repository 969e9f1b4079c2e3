//! Fleet reports written as they are built (`report --slurm`/`--profile-dir`, Markdown and
//! JSON): each machine is assessed, written and dropped before the next, so a 100,000-node
//! inventory never holds 100,000 assessments (docs/benchmarks.md). The bytes are those of
//! [`super::render_fleet`] for the same machines (tests/fleet.rs compares them).
//!
//! JSON keeps the order read. Markdown lists machines by name, and each language repeats the
//! machine table, the purchase table and the verdicts: the machines are taken once in that
//! order, each section's lines go to an anonymous temporary file, and the sections are copied
//! into the report at the end, part by part in the fleet document's order
//! ([`crate::present::document::fleet::FleetPart`], the order its blocks are built in). A redacted report first reads every profile once to learn the
//! names to remove (as [`super::render_fleet`] does).

use std::cell::RefCell;
use std::collections::HashSet;
use std::io::{self, Seek, Write};

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use super::{ReportOptions, SkippedFile, clean, markdown};
use crate::advisor::buying::order::{FleetOrder, fleet_order};
use crate::advisor::fleet::{FleetAssessor, FleetInput, FleetMachine};
use crate::present::document::Block;
use crate::present::document::fleet::{
    self, FleetPart, head, name_key, purchase_header, purchase_row, purchases_heading,
    skipped_files, verdict_blocks,
};
use crate::profile::dir::Skip;
use crate::profile::redact::Scrubber;
use crate::sanitize::UnsafeInJson;

/// The machines of a fleet, built one at a time and in any order.
pub trait FleetInputs {
    /// How many machines there are.
    fn count(&self) -> usize;
    /// Machine `i` (from 0, in the order read; `i` < [`FleetInputs::count`]), built now.
    fn input(&mut self, i: usize) -> FleetInput;
}

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
/// time, in the order read; `duplicates` are the host names met more than once
/// ([`crate::advisor::fleet::duplicate_names`]).
///
/// # Errors
/// The writer's error.
pub fn write_json(
    inputs: &mut dyn FleetInputs,
    duplicates: &HashSet<String>,
    skipped: &[(String, Skip)],
    options: &ReportOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let first = options.lang.langs()[0];
    let skipped = SkippedFile::worded(first, &super::fleet_skipped(skipped, options.redact));
    let scrubber = options.redact.then(|| learn(inputs));
    let n = inputs.count();
    let mut assessor = FleetAssessor::new();
    let machines =
        (0..n).map(move |i| machine(&mut assessor, inputs, i, duplicates, scrubber.as_ref()));
    let doc = StreamedDocument::new(machines, &skipped);
    crate::sanitize::write_json_pretty(out, &doc, UnsafeInJson::Escape).map_err(io::Error::from)
}

/// Writes the fleet report as Markdown (the bytes of [`super::render_fleet`]), taking each
/// machine once, by name; see the module's notes.
///
/// # Errors
/// The writer's error, or one creating or reading the temporary files.
pub fn write_markdown(
    inputs: &mut dyn FleetInputs,
    duplicates: &HashSet<String>,
    skipped: &[(String, Skip)],
    options: &ReportOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let langs = options.lang.langs();
    let skipped = super::fleet_skipped(skipped, options.redact);
    let meta = super::fleet_meta(options);
    let scrubber = options.redact.then(|| learn(inputs));
    let mut order: Vec<((String, String, String), usize)> = (0..inputs.count())
        .map(|i| {
            let (mut label, mut origin, ..) = inputs.input(i);
            if let Some(s) = &scrubber {
                super::redact_label(&mut label, &mut origin, i, s);
            }
            (name_key(&label, &origin), i)
        })
        .collect();
    order.sort_unstable();
    let mut sections = langs
        .iter()
        .map(|_| Sections::new())
        .collect::<io::Result<Vec<_>>>()?;
    let mut totals = FleetOrder::default();
    let mut line = String::new();
    let mut assessor = FleetAssessor::new();
    for (_, i) in order {
        let m = machine(&mut assessor, inputs, i, duplicates, scrubber.as_ref());
        add_order(&mut totals, &m);
        for (&lang, s) in langs.iter().zip(&mut sections) {
            line.clear();
            markdown::table_row(&mut line, &cleaned(crate::present::fleet::row(lang, &m)));
            s.table.write_all(line.as_bytes())?;
            line.clear();
            markdown::table_row(&mut line, &cleaned(purchase_row(lang, &m)));
            s.purchases.write_all(line.as_bytes())?;
            s.verdicts
                .write_all(rendered(verdict_blocks(lang, &m)).as_bytes())?;
        }
    }
    for (&lang, s) in langs.iter().zip(sections) {
        let Sections {
            table,
            purchases,
            verdicts,
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
                FleetPart::Purchases => {
                    let heading = rendered(vec![purchases_heading(lang)]);
                    let header = cleaned(purchase_header(lang));
                    spilled_table(out, heading, &header, purchases.take())?;
                }
                FleetPart::Totals => {
                    out.write_all(rendered(vec![fleet::totals(lang, &totals)]).as_bytes())?
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
}

impl Sections {
    fn new() -> io::Result<Sections> {
        let spill = || tempfile::tempfile().map(io::BufWriter::new);
        Ok(Sections {
            table: spill()?,
            purchases: spill()?,
            verdicts: spill()?,
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

/// A scrubber that learned every machine's profile.
fn learn(inputs: &mut dyn FleetInputs) -> Scrubber {
    let mut scrubber = Scrubber::new();
    for i in 0..inputs.count() {
        scrubber.learn(&inputs.input(i).2);
    }
    scrubber
}

/// Machine `i` assessed (and redacted when there is a scrubber).
fn machine(
    assessor: &mut FleetAssessor,
    inputs: &mut dyn FleetInputs,
    i: usize,
    duplicates: &HashSet<String>,
    scrubber: Option<&Scrubber>,
) -> FleetMachine {
    let mut m = assessor.marked(inputs.input(i), duplicates);
    if let Some(s) = scrubber {
        super::redact_fleet_machine(&mut m, i, s);
    }
    m
}

/// Adds one machine's order to the fleet's totals, as [`fleet_order`] adds them up.
fn add_order(t: &mut FleetOrder, m: &FleetMachine) {
    let o = fleet_order(std::iter::once(m));
    t.machines += o.machines;
    for (spec, n) in o.modules {
        match t.modules.iter_mut().find(|(s, _)| *s == spec) {
            Some((_, count)) => *count += n,
            None => t.modules.push((spec, n)),
        }
    }
    t.ram_added_bytes += o.ram_added_bytes;
    t.instance_moves += o.instance_moves;
    t.new_sets += o.new_sets;
    t.other += o.other;
}
