//! The window's file dialogs: every "Open…", "Save…" and "Export…" asks through here, which
//! shows the system's dialog or, where there is none, the in-window path field, and then does
//! what the dialog was for. Never nothing: a dialog without a backend turns into the field.

use std::path::PathBuf;

use super::RamvramApp;
use super::file_dialog_state::Purpose;
use crate::i18n::{Msg, tr};
use crate::ui::file_dialog::{self, Backend, Kind, Request, TOO_FAST};
use crate::ui::path_prompt::{PathPrompt, PromptAnswer};

fn filter(name: &str, exts: &[&str]) -> (String, Vec<String>) {
    (
        name.to_string(),
        exts.iter().map(|e| e.to_string()).collect(),
    )
}

impl RamvramApp {
    /// Uses `backend` for file dialogs from now on instead of looking for one (tests; a window
    /// that found its dialog has no backend after all).
    pub fn use_file_dialogs(&mut self, backend: Backend) {
        self.files.backend = Some(backend);
    }

    /// The dialog for `purpose` with its title, filters and suggested name (the report's own
    /// dialog is built by [`RamvramApp::choose_export_file`]).
    pub(super) fn request(&self, purpose: Purpose) -> Request {
        let lang = self.lang;
        let profiles = filter(tr(lang, Msg::UiProfileFilter), &["json"]);
        let json = filter("JSON", &["json"]);
        let (kind, title, filters, name) = match purpose {
            Purpose::OpenProfile => (Kind::Open, Msg::UiOpenProfile, vec![profiles], None),
            Purpose::AddProfiles => (Kind::OpenMany, Msg::FleetOpenProfiles, vec![profiles], None),
            Purpose::AddFolder => (Kind::Folder, Msg::FleetOpenFolder, vec![], None),
            Purpose::ImportSlurm => (Kind::Open, Msg::FleetImportSlurm, vec![json], None),
            Purpose::ExportFleet => (
                Kind::Save,
                Msg::FleetExport,
                vec![
                    filter("PDF", &["pdf"]),
                    filter("Markdown", &["md"]),
                    filter("JSON", &["json"]),
                ],
                Some("ramvram-lab-machines.pdf"),
            ),
            Purpose::OpenScenario => (Kind::Open, Msg::WorkOpenScenario, vec![json], None),
            Purpose::SaveScenario => (
                Kind::Save,
                Msg::WorkSaveScenario,
                vec![json],
                Some("scenario.json"),
            ),
            Purpose::OpenDmidecode => (
                Kind::Open,
                Msg::BwOpenDmidecode,
                vec![filter(tr(lang, Msg::BwDmidecodeFilter), &["txt", "log"])],
                None,
            ),
            Purpose::SaveProfile => (
                Kind::Save,
                Msg::BwSaveProfile,
                vec![profiles],
                Some("profile.json"),
            ),
            Purpose::ExportReport => (Kind::Save, Msg::ExportSave, vec![], None),
            Purpose::OpenModelFile => (
                Kind::Open,
                Msg::ModelOpenFile,
                vec![filter("safetensors, GGUF", &["safetensors", "gguf"])],
                None,
            ),
            Purpose::OpenModelFolder => (Kind::Folder, Msg::ModelOpenFolder, vec![], None),
            Purpose::OpenDataset => (Kind::Folder, Msg::DatasetOpenFolder, vec![], None),
            Purpose::OpenPrices => (
                Kind::Open,
                Msg::LabOrderOpenPrices,
                vec![filter("CSV", &["csv"])],
                None,
            ),
            Purpose::OpenTrace => (
                Kind::Open,
                Msg::MonitorUiOpenTrace,
                vec![filter(
                    tr(lang, Msg::MonitorUiTraceFilter),
                    &["jsonl", "json"],
                )],
                None,
            ),
        };
        Request {
            kind,
            title: tr(lang, title).trim_end_matches('…').to_string(),
            filters,
            file_name: name.map(str::to_string),
        }
    }

    /// Asks for a file for `purpose` with `request`: the system's dialog where there is one,
    /// else (or when it turns out to have no backend) the path field in the window.
    pub(super) fn ask_file(&mut self, purpose: Purpose, request: Request) {
        let backend = *self.files.backend.get_or_insert_with(file_dialog::detect);
        if backend == Backend::Native {
            let (paths, took) = request.run_native();
            if !paths.is_empty() {
                self.file_chosen(purpose, paths);
                return;
            }
            if took >= TOO_FAST {
                return; // The user cancelled.
            }
            // rfd gave up at once: no portal and no zenity after all.
            self.files.backend = Some(Backend::InWindow);
        }
        self.files.prompt = Some((purpose, PathPrompt::new(request)));
    }

    /// Does what the dialog was for with the chosen paths.
    fn file_chosen(&mut self, purpose: Purpose, paths: Vec<PathBuf>) {
        let Some(first) = paths.first().cloned() else {
            return;
        };
        match purpose {
            Purpose::OpenProfile => self.load_profile(&first),
            Purpose::ExportReport => self.export_to(&first),
            Purpose::AddProfiles => self.add_fleet_files(&paths),
            Purpose::AddFolder => self.add_fleet_dir(&first),
            Purpose::ImportSlurm => self.import_slurm(&first),
            Purpose::ExportFleet => self.export_fleet_to(&first),
            Purpose::OpenScenario => self.open_scenario(&first),
            Purpose::SaveScenario => self.save_scenario(&first),
            Purpose::OpenDmidecode => self.load_dmidecode(&first),
            Purpose::SaveProfile => self.save_profile(&first),
            Purpose::OpenTrace => self.open_trace(&first),
            Purpose::OpenModelFile | Purpose::OpenModelFolder => self.open_model(&first),
            Purpose::OpenDataset => self.open_dataset(&first),
            Purpose::OpenPrices => self.open_prices(&first),
        }
    }

    /// Draws the path field while it is open and acts on its answer.
    pub(super) fn path_prompt_ui(&mut self, ctx: &egui::Context) {
        let lang = self.lang;
        let Some((purpose, prompt)) = self.files.prompt.as_mut() else {
            return;
        };
        let purpose = *purpose;
        match prompt.show(ctx, lang) {
            None => {}
            Some(PromptAnswer::Cancelled) => self.files.prompt = None,
            Some(PromptAnswer::Chosen(paths)) => {
                self.files.prompt = None;
                self.file_chosen(purpose, paths);
            }
        }
    }
}
