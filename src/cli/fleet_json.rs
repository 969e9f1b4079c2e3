//! `advise --profile-dir/--slurm/--prometheus --fleet --json`, written as it is built: each
//! machine is assessed, written and dropped before the next, so a 100,000-node inventory never
//! holds 100,000 assessments. The text is the same as [`crate::report::FleetDocument`] written
//! with `serde_json::to_string_pretty`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use super::fleet::{PrometheusSource, sources};
use crate::i18n::Lang;
use crate::report::SkippedFile;
use crate::report::fleet_stream::StreamedDocument;
use crate::sanitize::{UnsafeInJson, write_json_pretty};

/// Prints the fleet as JSON, one machine at a time.
pub fn print(
    lang: Lang,
    dir: Option<&Path>,
    slurm_file: Option<&Path>,
    prometheus: Option<PrometheusSource<'_>>,
) -> ExitCode {
    let mut sources = match sources(lang, dir, slurm_file, prometheus) {
        Ok(s) => s,
        Err(e) => return super::fail(lang, super::EXIT_BAD_INPUT, &e),
    };
    let skipped: Vec<SkippedFile> = std::mem::take(&mut sources.skipped)
        .into_iter()
        .map(|(file, why)| SkippedFile {
            file,
            reason: crate::report::skip_reason(lang, Some(&why)),
        })
        .collect();
    let doc = StreamedDocument::new(sources.assessed(), &skipped);
    let stdout = std::io::stdout().lock();
    // Unsafe characters dropped, as `print` does with every other output of the command line.
    let mut out = std::io::BufWriter::new(stdout);
    let written = write_json_pretty(&mut out, &doc, UnsafeInJson::Drop)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`… --json | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => super::fail(lang, super::EXIT_OUTPUT_FAILED, &format!("stdout: {e}")),
    }
}
