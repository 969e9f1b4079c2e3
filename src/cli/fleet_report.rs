//! `report --profile-dir/--slurm/--prometheus --out FILE`: the fleet report. Markdown and JSON
//! are written one machine at a time into the report's temporary file
//! ([`crate::report::fleet_stream`], [`crate::fsutil::write_atomic_with`]), so memory does not
//! grow with the fleet; a PDF lays out every page at once, so it is refused above
//! [`MAX_PDF_MACHINES`] machines with a message that names the other formats.

use std::path::Path;
use std::process::ExitCode;

use super::fleet::{PrometheusSource, sources};
use super::{EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, fail, say};
use crate::advisor::buying::lab::{self, PriceList};
use crate::advisor::fleet::AssessedFleet;
use crate::i18n::{Lang, Msg, trf};
use crate::report::{self, Format, ReportOptions, fleet_stream};

/// The most machines a fleet PDF takes. 10,000 machines made a 1,840-page PDF in 165 MB and
/// 4.6–4.9 s of CPU (docs/benchmarks.md); Markdown and JSON have no such limit.
pub const MAX_PDF_MACHINES: usize = 10_000;

/// The machines read from the folder, the inventory and the server.
#[derive(Clone, Copy)]
pub(super) struct FleetSources<'a> {
    pub(super) dir: Option<&'a Path>,
    pub(super) slurm: Option<&'a Path>,
    pub(super) prometheus: Option<PrometheusSource<'a>>,
}

/// The lab's price list to read (`--prices`) and where to write the template
/// (`--prices-template`).
#[derive(Clone, Copy, Default)]
pub(super) struct Prices<'a> {
    pub(super) list: Option<&'a Path>,
    pub(super) template: Option<&'a Path>,
}

/// Reads the price list at `file`, or the typical prices without one; the error worded.
fn price_list(lang: Lang, file: Option<&Path>) -> Result<PriceList, String> {
    let Some(file) = file else {
        return Ok(crate::advisor::buying::lab::typical_prices());
    };
    crate::inputs::prices::read(file).map_err(|e| {
        crate::present::price_errors::price_file(lang, &crate::inputs::fleet::shown(file), &e)
    })
}

/// Writes the items `fleet`'s order prices to `file` (the template) and says so.
fn write_template(lang: Lang, fleet: &mut AssessedFleet<'_>, file: &Path) -> Result<(), String> {
    let mut items = Vec::new();
    for i in 0..fleet.count() {
        let m = fleet.machine(i);
        let a = &m.assessment;
        let lines = lab::machine_lines(
            &m.label,
            &a.procurement,
            a.profile.memory.channels_populated,
        );
        for item in lab::items_to_price(&lines) {
            if !items.contains(&item) {
                items.push(item);
            }
        }
    }
    let text = crate::inputs::prices::template(&items);
    crate::fsutil::write_atomic(file, text.as_bytes())
        .map_err(|e| crate::present::errors::write_failed(lang, file, &e))?;
    let shown = file.display().to_string();
    say(&trf(
        lang,
        Msg::LabOrderTemplateWritten,
        &[("file", &shown)],
    ));
    Ok(())
}

/// Writes the fleet report to `out` (its order priced from `prices.list`, or the typical
/// prices), and the price template when asked; says so on stderr.
pub(super) fn write(
    lang: Lang,
    from: FleetSources<'_>,
    options: &ReportOptions,
    prices: Prices<'_>,
    out: &Path,
) -> ExitCode {
    let price_list = match price_list(lang, prices.list) {
        Ok(p) => p,
        Err(e) => return fail(lang, EXIT_BAD_INPUT, &e),
    };
    let mut sources = match sources(lang, from.dir, from.slurm, from.prometheus) {
        Ok(s) => s,
        Err(e) => return fail(lang, EXIT_BAD_INPUT, &e),
    };
    let count = sources.count();
    if options.format == Format::Pdf && count > MAX_PDF_MACHINES {
        let message = trf(
            lang,
            Msg::ReportFleetPdfTooMany,
            &[
                ("count", &count.to_string()),
                ("max", &MAX_PDF_MACHINES.to_string()),
            ],
        );
        return fail(lang, EXIT_BAD_INPUT, &message);
    }
    let skipped = std::mem::take(&mut sources.skipped);
    let duplicates = sources.duplicates();
    let mut inputs = sources.indexed();
    // Assessed (and for a redacted report redacted first) as the report takes them.
    let mut fleet = AssessedFleet::new(&mut inputs, &duplicates, options.redact);
    if let Some(file) = prices.template {
        if let Err(e) = write_template(lang, &mut fleet, file) {
            return fail(lang, EXIT_OUTPUT_FAILED, &e);
        }
    }
    let written = match options.format {
        Format::Pdf => {
            let machines: Vec<_> = (0..fleet.count()).map(|i| fleet.machine(i)).collect();
            report::render_fleet_priced(&machines, &skipped, options, None, &price_list).and_then(
                |bytes| {
                    crate::fsutil::write_atomic(out, &bytes)
                        .map_err(|e| crate::present::errors::write_failed(lang, out, &e))
                },
            )
        }
        Format::Json => crate::fsutil::write_atomic_with(out, &mut |w| {
            fleet_stream::write_json(&mut fleet, &skipped, options, w)
        })
        .map_err(|e| crate::present::errors::write_failed(lang, out, &e)),
        Format::Markdown => crate::fsutil::write_atomic_with(out, &mut |w| {
            fleet_stream::write_markdown_priced(&mut fleet, &skipped, options, &price_list, w)
        })
        .map_err(|e| crate::present::errors::write_failed(lang, out, &e)),
    };
    match written {
        Ok(()) => {
            let file = out.display().to_string();
            say(&trf(lang, Msg::CliReportWritten, &[("file", &file)]));
            ExitCode::SUCCESS
        }
        Err(e) => fail(lang, EXIT_OUTPUT_FAILED, &e),
    }
}
