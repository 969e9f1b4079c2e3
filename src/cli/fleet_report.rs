//! `report --profile-dir/--slurm/--prometheus --out FILE`: the fleet report. Markdown and JSON
//! are written one machine at a time into the report's temporary file
//! ([`crate::report::fleet_stream`], [`crate::fsutil::write_atomic_with`]), so memory does not
//! grow with the fleet; a PDF lays out every page at once, so it is refused above
//! [`MAX_PDF_MACHINES`] machines with a message that names the other formats.

use std::path::Path;
use std::process::ExitCode;

use super::fleet::{PrometheusSource, sources};
use super::{EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, fail, say};
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

/// Writes the fleet report to `out` and says so on stderr.
pub(super) fn write(
    lang: Lang,
    from: FleetSources<'_>,
    options: &ReportOptions,
    out: &Path,
) -> ExitCode {
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
    let written = match options.format {
        Format::Pdf => {
            let machines: Vec<_> = (0..fleet.count()).map(|i| fleet.machine(i)).collect();
            report::render_fleet(&machines, &skipped, options).and_then(|bytes| {
                crate::fsutil::write_atomic(out, &bytes)
                    .map_err(|e| crate::present::errors::write_failed(lang, out, &e))
            })
        }
        Format::Markdown | Format::Json => {
            let stream = match options.format {
                Format::Json => fleet_stream::write_json,
                _ => fleet_stream::write_markdown,
            };
            crate::fsutil::write_atomic_with(out, &mut |w| stream(&mut fleet, &skipped, options, w))
                .map_err(|e| crate::present::errors::write_failed(lang, out, &e))
        }
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
