//! The window's files: profiles and dmidecode text read, the profile saved, reports exported and
//! scenarios opened and saved, each with its error shown in the window.

use std::path::Path;

use super::{Message, Purpose, RamvramApp, Source};
use crate::i18n::{Msg, tr, trf};
use crate::present::errors::profile_error;
use crate::probe;
use crate::profile;
use crate::ui::panels::export::ExportForm;
use crate::ui::panels::training::TrainingForm;

impl RamvramApp {
    /// Reads `dmidecode -t memory` output from `path` and uses its modules.
    pub fn load_dmidecode(&mut self, path: &Path) {
        let file = path.display().to_string();
        let (dimms, slots) =
            match crate::fsutil::read_input_string(path, crate::fsutil::MAX_INPUT_BYTES) {
                Ok(text) => (
                    probe::dimm::parse_dmidecode(&text),
                    probe::dimm::dmidecode_slots(&text),
                ),
                Err(e) => {
                    self.bench_view.message = Some(trf(
                        self.lang,
                        Msg::UiLoadFailed,
                        &[("error", &format!("{file}: {e}"))],
                    ));
                    return;
                }
            };
        if dimms.is_empty() {
            self.bench_view.message =
                Some(trf(self.lang, Msg::CliDmidecodeEmpty, &[("file", &file)]));
            return;
        }
        if let Some(p) = &mut self.profile {
            let before = p.memory.clone();
            // Modules read from the machine replace a typed configuration.
            p.memory.memory_type = None;
            p.memory.speed_mts = None;
            p.memory.theoretical_bandwidth_source = None;
            p.memory.channels_populated = None;
            p.memory.channels_source = None;
            probe::dimm::apply_dimms(&mut p.memory, dimms);
            probe::dimm::apply_slots(&mut p.memory, slots);
            if let Err((field, problem)) = profile::limits::check(p) {
                p.memory = before;
                let e = profile::ProfileError::Invalid {
                    path: path.to_path_buf(),
                    field,
                    problem: Box::new(problem),
                };
                self.bench_view.message = Some(trf(
                    self.lang,
                    Msg::UiLoadFailed,
                    &[("error", &profile_error(self.lang, &e))],
                ));
                return;
            }
        }
        self.bench_view.message = None;
        self.reassess();
    }

    /// Saves the shown profile, measurements included, to `path` (atomically).
    pub fn save_profile(&mut self, path: &Path) {
        let Some(p) = &self.profile else { return };
        let lang = self.lang;
        self.bench_view.message = Some(match profile::save_profile(p, path) {
            Ok(()) => trf(lang, Msg::BwSaved, &[("file", &path.display().to_string())]),
            Err(e) => trf(
                lang,
                Msg::BwSaveFailed,
                &[("error", &profile_error(lang, &e))],
            ),
        });
    }

    /// Loads a profile file and shows it; on error keeps what was shown and says why.
    pub fn load_profile(&mut self, path: &Path) {
        match profile::load_profile(path) {
            Ok(loaded) => {
                self.show_profile(&loaded.profile, Source::File(path.to_path_buf()));
                self.message = match loaded.newer_schema {
                    Some(v) => Some(Message::NewerSchema(v)),
                    None => (!loaded.ignored_fields.is_empty())
                        .then_some(Message::IgnoredFields(loaded.ignored_fields)),
                };
            }
            Err(e) => self.message = Some(Message::LoadFailed(e)),
        }
    }

    pub(super) fn choose_export_file(&mut self) {
        let Some(form) = self.export else { return };
        let host = self
            .assessment
            .as_ref()
            .and_then(|a| a.profile.host.hostname.clone());
        let stem = match (&host, form.redact) {
            (Some(h), false) => format!("ramvram-{h}"),
            _ => "ramvram-report".to_string(),
        };
        let mut request = self.request(Purpose::ExportReport);
        request.title = tr(self.lang, Msg::ExportOpen)
            .trim_end_matches('…')
            .to_string();
        request.file_name = Some(format!("{stem}.{}", form.extension()));
        let ext = form.extension();
        request.filters = vec![(ext.to_uppercase(), vec![ext.to_string()])];
        self.ask_file(Purpose::ExportReport, request);
    }

    /// Writes the report for the machine on screen to `path` with the export dialog's choices
    /// (PDF in the window's language when the dialog was never opened), and says how it went.
    pub fn export_to(&mut self, path: &Path) {
        let Some(a) = &self.assessment else { return };
        let form = self.export.unwrap_or_else(|| ExportForm::new(self.lang));
        // A name that asks for another format (a PDF named report.md) is refused, as the
        // command line refuses `--format pdf --out report.md`.
        if crate::report::Format::from_path(path).is_some_and(|n| n != form.format) {
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default();
            self.message = Some(Message::ExportFailed(trf(
                self.lang,
                Msg::ExportFormatMismatch,
                &[
                    ("file", &path.display().to_string()),
                    ("ext", &ext),
                    ("format_ext", form.extension()),
                ],
            )));
            return;
        }
        let options = crate::report::ReportOptions {
            format: form.format,
            lang: form.lang,
            redact: form.redact,
            date: crate::report::today(),
            source_file: match &self.source {
                Source::File(p) => Some(p.display().to_string()),
                Source::Detected => None,
            },
        };
        // Only the shown machine's own run (another machine's is left out).
        let live = self.monitor_report_for(&a.profile);
        // A redacted report is rendered from the assessment of the redacted profile.
        let redacted = form.redact.then(|| crate::advisor::redacted::redacted(a));
        let a = redacted.as_ref().unwrap_or(a);
        self.message = Some(
            match crate::report::write_with_monitor(a, &options, live.as_ref(), path) {
                Ok(()) => Message::Exported(path.to_path_buf()),
                Err(e) => Message::ExportFailed(e.text(self.lang)),
            },
        );
        self.export = None;
    }

    /// Loads a scenario file's workload and training plan.
    pub fn open_scenario(&mut self, path: &Path) {
        match crate::inputs::scenario::load_scenario(path) {
            Ok((s, _)) => {
                self.scenario.open(s);
                self.reassess();
            }
            Err(e) => self.message = Some(Message::ScenarioFailed(e)),
        }
    }

    /// Reads a model folder or file (headers only) and plans for it: its exact parameter
    /// count, its largest tensor and, when activations are estimated, its shape; the user's
    /// strategy and other choices stay. The figures' source shows under the buttons.
    pub fn open_model(&mut self, path: &Path) {
        match crate::inputs::model_files::read(path) {
            Ok(r) => {
                let Some(params) = r.params() else {
                    let e = crate::inputs::model_files::ModelFileError {
                        file: path.to_path_buf(),
                        problem: crate::inputs::model_files::ModelProblem::NoModel,
                    };
                    self.message = Some(Message::ModelFailed(e));
                    return;
                };
                let mut plan = self.scenario.training.plan.clone();
                plan.preset = None;
                plan.params = params;
                plan.largest_layer_params = r.largest_tensor.as_ref().map(|t| t.elements);
                if let Some(a) = plan.activations.as_mut() {
                    a.shape = r.shape().or(a.shape);
                }
                self.scenario.training = TrainingForm::new(plan);
                self.scenario.training.read = Some(Box::new(r));
                self.scenario.include.training = true;
                self.reassess();
            }
            Err(e) => self.message = Some(Message::ModelFailed(e)),
        }
    }

    /// Scans a dataset folder (names, sizes, a sample of image headers) and sets the workload's
    /// dataset size, samples, image size, stored format and layout from it; the scan's summary
    /// shows in the message banner.
    pub fn open_dataset(&mut self, path: &Path) {
        match crate::inputs::dataset::scan(path) {
            Ok(scan) => {
                let v = scan.workload_values();
                let w = &mut self.scenario.workload;
                if let Some(d) = v.dataset_size {
                    w.set_dataset_size(d);
                }
                if let Some(n) = v.samples {
                    w.samples = n;
                }
                if let Some((width, height)) = v.image_size {
                    w.width = width;
                    w.height = height;
                }
                w.stored = v.stored.unwrap_or(w.stored);
                w.format = v.format.unwrap_or(w.format);
                self.scenario.include.workload = true;
                self.message = Some(Message::DatasetScanned(Box::new(scan)));
                self.reassess();
            }
            Err(problem) => {
                self.message = Some(Message::DatasetFailed(path.to_path_buf(), problem));
            }
        }
    }

    /// Saves the workload and training plan on screen as a scenario file.
    pub fn save_scenario(&mut self, path: &Path) {
        let s = self.scenario.on_pages();
        self.message = Some(match crate::inputs::scenario::save_scenario(&s, path) {
            Ok(()) => Message::Exported(path.to_path_buf()),
            Err(e) => Message::ExportFailed(profile_error(self.lang, &e)),
        });
    }
}
