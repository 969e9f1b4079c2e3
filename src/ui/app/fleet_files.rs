//! The window's lab machines: profiles added from files, a folder, a Slurm export or the planner,
//! assessed together, and the comparison exported.

use std::path::{Path, PathBuf};

use super::{Message, Purpose, RamvramApp};
use crate::advisor::fleet::{FleetInput, FleetMachine, Origin, assess_fleet};
use crate::catalog::planner::PlannedMachine;
use crate::ui::panels::Tab;

impl RamvramApp {
    /// Adds profile files to the fleet (unreadable ones are listed as skipped).
    pub fn add_fleet_files(&mut self, paths: &[PathBuf]) {
        let (inputs, skipped) = crate::inputs::fleet::from_files(paths);
        self.extend_fleet(inputs, skipped);
    }

    /// Adds every profile in a folder to the fleet.
    pub fn add_fleet_dir(&mut self, dir: &Path) {
        match crate::inputs::fleet::from_dir(dir) {
            Ok((inputs, skipped)) => self.extend_fleet(inputs, skipped),
            Err(e) => self.message = Some(Message::LoadFailed(e)),
        }
    }

    /// Adds every node of a Slurm inventory to the fleet.
    pub fn import_slurm(&mut self, file: &Path) {
        match crate::inputs::fleet::from_slurm(file) {
            Ok(inputs) => self.extend_fleet(inputs, Vec::new()),
            Err(e) => self.message = Some(Message::LoadFailed(e)),
        }
    }

    /// Adds a planned machine to the fleet.
    pub fn add_planned(&mut self, plan: PlannedMachine) {
        let (profile, issues) = crate::catalog::planner::build(&plan);
        self.extend_fleet(
            vec![(plan.name.clone(), Origin::Planned, profile, issues)],
            Vec::new(),
        );
    }

    pub(super) fn extend_fleet(
        &mut self,
        inputs: Vec<FleetInput>,
        skipped: crate::inputs::fleet::SkippedFiles,
    ) {
        self.fleet_inputs.extend(inputs);
        self.fleet_skipped.extend(skipped);
        self.fleet = assess_fleet(self.fleet_inputs.clone());
        self.tab = Tab::Fleet;
    }

    /// Prices the lab's order from the price list at `path`; a list that can't be used is
    /// reported (file, line, field) and the prices in use are kept.
    pub fn open_prices(&mut self, path: &Path) {
        let shown = crate::inputs::fleet::shown(path);
        match crate::inputs::prices::read(path) {
            Ok(list) => {
                self.lab_prices = list;
                self.lab_prices_file = Some(shown);
                self.tab = Tab::Fleet;
            }
            Err(e) => {
                let text = crate::present::price_errors::price_file(self.lang, &shown, &e);
                self.message = Some(Message::PricesFailed(text));
            }
        }
    }

    /// The machines in the fleet view.
    pub fn fleet(&self) -> &[FleetMachine] {
        &self.fleet
    }

    pub(super) fn choose_fleet_export_file(&mut self) {
        self.ask_file(Purpose::ExportFleet, self.request(Purpose::ExportFleet));
    }

    /// Writes the fleet comparison to `path`; the format follows the extension (pdf, md, json).
    pub fn export_fleet_to(&mut self, path: &Path) {
        // PDF when the name says nothing (the dialog adds `.pdf` to a bare name).
        let format = crate::report::Format::from_path(path).unwrap_or(crate::report::Format::Pdf);
        let options = crate::report::ReportOptions {
            format,
            lang: crate::report::ReportLang::One(self.lang),
            redact: false,
            date: crate::report::today(),
            source_file: None,
        };
        // The report follows the table's order on screen.
        let sort = Some(self.fleet_sort);
        let result = crate::report::render_fleet_priced(
            &self.fleet,
            &self.fleet_skipped,
            &options,
            sort,
            &self.lab_prices,
        )
        .and_then(|bytes| {
            crate::fsutil::write_atomic(path, &bytes)
                .map_err(|e| crate::present::errors::write_failed(self.lang, path, &e))
        });
        self.message = Some(match result {
            Ok(()) => Message::Exported(path.to_path_buf()),
            Err(e) => Message::ExportFailed(e),
        });
    }
}
