//! `advise --profile-dir DIR` and `advise --slurm FILE`: many machines at once.

use std::path::Path;
use std::process::ExitCode;

use unicode_width::UnicodeWidthStr;

use crate::advisor::fleet::{FleetDocument, FleetMachine, assess_fleet};
use crate::i18n::{Lang, Msg, tr};
use crate::present::fleet::{header, row};
use crate::profile::fleet_inputs::{self, SkippedFiles};

/// Loads a folder of profiles and/or a Slurm inventory; `Err` is the error text.
pub fn load(
    dir: Option<&Path>,
    slurm_file: Option<&Path>,
) -> Result<(Vec<FleetMachine>, SkippedFiles), String> {
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    if let Some(dir) = dir {
        let (i, s) = fleet_inputs::from_dir(dir)?;
        inputs.extend(i);
        skipped.extend(s);
    }
    if let Some(file) = slurm_file {
        inputs.extend(fleet_inputs::from_slurm(file)?);
    }
    if inputs.is_empty() {
        let place = dir
            .or(slurm_file)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        return Err(format!(
            "{place}: no machine profiles found (*.json from `ramvram detect --out`, or Slurm nodes)"
        ));
    }
    Ok((assess_fleet(inputs), skipped))
}

/// Prints the fleet as text or JSON.
pub fn print(
    lang: Lang,
    machines: &[FleetMachine],
    skipped: &[(String, String)],
    json: bool,
) -> ExitCode {
    let text = if json {
        let doc = FleetDocument::new(machines, skipped);
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
            out.push_str(&format!("\n{}: {f}: {r}", tr(lang, Msg::FleetSkipped)));
        }
        out.push('\n');
        out
    };
    super::print(&text)
}
