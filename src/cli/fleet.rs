//! `advise --profile-dir DIR`, `advise --slurm FILE` and `advise --prometheus URL --fleet`: many
//! machines at once.
//!
//! The text table and the JSON (`--json`, [`super::fleet_json`]) are built one machine at a
//! time (profile, assessment, row or JSON object, then dropped), so a 100,000-node Slurm
//! inventory is printed without holding every assessment (docs/benchmarks.md). Markdown and
//! JSON reports are written the same way ([`super::fleet_report`]); the PDF and the window
//! hold every assessment ([`load`]).

use std::collections::HashSet;
use std::path::Path;
use std::process::ExitCode;

use crate::advisor::fleet::FleetInputs;
use crate::advisor::fleet::{
    FleetAssessor, FleetInput, FleetMachine, Origin, assess_fleet, duplicate_names,
};
use crate::i18n::{Lang, Msg, trf};
use crate::import::slurm;
use crate::inputs::fleet::{self as fleet_inputs, SkippedFiles};
use crate::present::errors::profile_error;
use crate::present::fleet::{header, row};
use crate::report::FleetDocument;

/// A Prometheus server to read the machines from, and the mapping file to use.
#[derive(Clone, Copy, Debug)]
pub struct PrometheusSource<'a> {
    /// The server's URL, as given.
    pub url: &'a str,
    /// A mapping file (`--mapping`), else the defaults.
    pub mapping: Option<&'a Path>,
}

/// The machines of a folder of profiles, a Slurm inventory and a Prometheus server, not yet
/// assessed.
pub(super) struct Sources {
    files: Vec<FleetInput>,
    pub(super) skipped: SkippedFiles,
    inventory: Option<(slurm::Inventory, String)>,
}

/// Reads the folder, the inventory and the server; `Err` is the error text in `lang`.
pub(super) fn sources(
    lang: Lang,
    dir: Option<&Path>,
    slurm_file: Option<&Path>,
    prometheus: Option<PrometheusSource<'_>>,
) -> Result<Sources, String> {
    let mut out = Sources {
        files: Vec::new(),
        skipped: Vec::new(),
        inventory: None,
    };
    if let Some(dir) = dir {
        (out.files, out.skipped) =
            fleet_inputs::from_dir(dir).map_err(|e| profile_error(lang, &e))?;
    }
    if let Some(file) = slurm_file {
        let inventory = slurm::read_inventory(file).map_err(|e| profile_error(lang, &e))?;
        out.inventory = Some((inventory, file.display().to_string()));
    }
    if let Some(p) = prometheus {
        out.files
            .extend(super::prometheus::fleet_inputs(lang, p.url, p.mapping)?);
    }
    if out.files.is_empty() && out.inventory.as_ref().is_none_or(|(i, _)| i.is_empty()) {
        let place = dir
            .or(slurm_file)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        return Err(trf(lang, Msg::ErrorNoMachines, &[("place", &place)]));
    }
    Ok(out)
}

impl Sources {
    /// Every machine assessed, in order (folder first), each built and assessed as it is
    /// taken; a host name seen more than once is marked on each machine that has it.
    pub(super) fn assessed(self) -> impl Iterator<Item = FleetMachine> {
        let duplicates = self.duplicates();
        let mut assessor = FleetAssessor::new();
        self.inputs()
            .map(move |input| assessor.marked(input, &duplicates))
    }

    /// The host names that more than one machine has.
    pub(super) fn duplicates(&self) -> HashSet<String> {
        let names = self
            .files
            .iter()
            .filter_map(|i| i.2.host.hostname.as_deref())
            .chain(self.inventory.iter().flat_map(|(i, _)| i.hostnames()));
        duplicate_names(names)
    }

    /// How many machines there are.
    pub(super) fn count(&self) -> usize {
        self.files.len() + self.inventory.as_ref().map_or(0, |(i, _)| i.len())
    }

    /// The machines, to be built one at a time in any order (a report lists them by name).
    pub(super) fn indexed(self) -> Indexed {
        Indexed {
            files: self.files,
            inventory: self
                .inventory
                .map(|(inventory, file)| (inventory, Origin::Slurm(file))),
            models: slurm::GpuModels::default(),
        }
    }

    /// Every machine to assess, in order (folder first), built as it is taken.
    fn inputs(self) -> impl Iterator<Item = FleetInput> {
        let slurm = self.inventory.into_iter().flat_map(|(inventory, file)| {
            let origin = Origin::Slurm(file);
            inventory.into_profiles().map(move |p| {
                let label = p.host.hostname.clone().unwrap_or_default();
                (label, origin.clone(), p, Vec::new())
            })
        });
        self.files.into_iter().chain(slurm)
    }
}

/// The machines of [`Sources`] by number: the folder's first, then the inventory's.
pub(super) struct Indexed {
    files: Vec<FleetInput>,
    inventory: Option<(slurm::Inventory, Origin)>,
    models: slurm::GpuModels,
}

impl FleetInputs for Indexed {
    fn count(&self) -> usize {
        self.files.len() + self.inventory.as_ref().map_or(0, |(i, _)| i.len())
    }

    fn input(&mut self, i: usize) -> FleetInput {
        if let Some(file) = self.files.get(i) {
            return file.clone();
        }
        let (inventory, origin) = self
            .inventory
            .as_ref()
            .expect("a machine past the folder's is the inventory's");
        let p = inventory.profile(i - self.files.len(), &mut self.models);
        let label = p.host.hostname.clone().unwrap_or_default();
        (label, origin.clone(), p, Vec::new())
    }
}

/// Loads and assesses a folder of profiles and/or a Slurm inventory; `Err` is the error text in
/// `lang`.
pub fn load(
    lang: Lang,
    dir: Option<&Path>,
    slurm_file: Option<&Path>,
    prometheus: Option<PrometheusSource<'_>>,
) -> Result<(Vec<FleetMachine>, SkippedFiles), String> {
    let mut sources = sources(lang, dir, slurm_file, prometheus)?;
    let skipped = std::mem::take(&mut sources.skipped);
    Ok((assess_fleet(sources.inputs().collect()), skipped))
}

/// Prints the fleet of a folder, a Slurm inventory and/or a Prometheus server as a text table,
/// assessing one machine at a time.
pub fn print_table(
    lang: Lang,
    dir: Option<&Path>,
    slurm_file: Option<&Path>,
    prometheus: Option<PrometheusSource<'_>>,
) -> ExitCode {
    let mut sources = match sources(lang, dir, slurm_file, prometheus) {
        Ok(s) => s,
        Err(e) => return super::fail(lang, super::EXIT_BAD_INPUT, &e),
    };
    let skipped = std::mem::take(&mut sources.skipped);
    let duplicates = sources.duplicates();
    let mut assessor = FleetAssessor::new();
    let rows: Vec<[String; 7]> = sources
        .inputs()
        .map(|input| assessor.marked_with(input, &duplicates, |m| row(lang, m)))
        .collect();
    super::print_text(&table(lang, &rows, &skipped))
}

/// Prints assessed machines as text or JSON.
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
        crate::codespan::plain(&table(lang, &rows, skipped))
    };
    super::print(&text)
}

/// The table, fitted to the terminal's width ([`super::output::columns`]): columns padded to
/// their widest cell, the widest wrapping when the table is too wide; when even that is too
/// wide, the tier (the ratio beside it says it) and then the VRAM and RAM columns are left out.
/// Then the skipped files.
fn table(lang: Lang, rows: &[[String; 7]], skipped: &SkippedFiles) -> String {
    let head: Vec<String> = header(lang).iter().map(|h| h.to_string()).collect();
    let body: Vec<Vec<String>> = rows.iter().map(|r| r.to_vec()).collect();
    let fit = crate::report::terminal::Fit {
        drop: &[5, 2, 3],
        whole: &[0],
    };
    let mut out =
        crate::report::terminal::fit_table("", &head, &body, super::output::columns(), fit);
    for (f, r) in skipped {
        out.push('\n');
        out.push_str(&crate::present::fleet::skipped_sentence(lang, f, Some(r)));
    }
    out.push('\n');
    out
}
