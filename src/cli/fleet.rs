//! `advise --profile-dir DIR` and `advise --slurm FILE`: many machines at once.

use std::path::Path;
use std::process::ExitCode;

use unicode_width::UnicodeWidthStr;

use crate::advisor::fleet::{FleetMachine, assess_fleet};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::inputs::fleet::{self as fleet_inputs, SkippedFiles};
use crate::present::errors::profile_error;
use crate::present::fleet::{header, row};
use crate::report::FleetDocument;

/// Loads a folder of profiles and/or a Slurm inventory; `Err` is the error text in `lang`.
pub fn load(
    lang: Lang,
    dir: Option<&Path>,
    slurm_file: Option<&Path>,
) -> Result<(Vec<FleetMachine>, SkippedFiles), String> {
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    if let Some(dir) = dir {
        let (i, s) = fleet_inputs::from_dir(dir).map_err(|e| profile_error(lang, &e))?;
        inputs.extend(i);
        skipped.extend(s);
    }
    if let Some(file) = slurm_file {
        inputs.extend(fleet_inputs::from_slurm(file).map_err(|e| profile_error(lang, &e))?);
    }
    if inputs.is_empty() {
        let place = dir
            .or(slurm_file)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        return Err(trf(lang, Msg::ErrorNoMachines, &[("place", &place)]));
    }
    Ok((assess_fleet(inputs), skipped))
}

/// Prints the fleet as text or JSON.
pub fn print(
    lang: Lang,
    machines: &[FleetMachine],
    skipped: &SkippedFiles,
    json: bool,
) -> ExitCode {
    let text = if json {
        let skipped: Vec<_> = skipped
            .iter()
            .map(|(f, s)| (f.clone(), Some(s.clone())))
            .collect();
        let doc = FleetDocument::new(lang, machines, &skipped);
        serde_json::to_string_pretty(&doc).expect("fleet serialises") + "\n"
    } else {
        let rows: Vec<[String; 7]> = machines.iter().map(|m| row(lang, m)).collect();
        let head = header(lang);
        let mut widths = head.map(UnicodeWidthStr::width);
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r.iter()).take(6) {
                *w = (*w).max(UnicodeWidthStr::width(c.as_str()));
            }
        }
        let pad = |s: &str, w: usize| {
            format!(
                "{s}{}",
                " ".repeat(w.saturating_sub(UnicodeWidthStr::width(s)))
            )
        };
        let mut out = String::new();
        let line = |cells: Vec<&str>| {
            let mut l = String::new();
            for (i, c) in cells.iter().enumerate() {
                if i < 6 {
                    l.push_str(&pad(c, widths[i] + 2));
                } else {
                    l.push_str(c);
                }
            }
            l.trim_end().to_string() + "\n"
        };
        out.push_str(&line(head.to_vec()));
        for r in &rows {
            out.push_str(&line(r.iter().map(String::as_str).collect()));
        }
        for (f, r) in skipped {
            let reason = crate::present::errors::skip(lang, r);
            out.push_str(&format!("\n{}: {f}: {reason}", tr(lang, Msg::FleetSkipped)));
        }
        out.push('\n');
        out
    };
    super::print(&text)
}
