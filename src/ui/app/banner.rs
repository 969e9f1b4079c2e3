//! The toolbar's line about the machine shown and the banner under it: a message (a file that
//! could not be read, a report written, settings not saved) in its severity's colour.

use egui::{RichText, Ui};

use super::message::Message;
use super::source::Source;
use super::state::RamvramApp;
use super::trace_origin::TraceOrigin;
use crate::advisor::Severity;
use crate::i18n::{Msg, tr, trf};
use crate::present::errors::{profile_error, scenario_error};
use crate::ui::panels::{Command, Tab};
use crate::ui::theme;

impl RamvramApp {
    /// What the toolbar says about the machine shown: "This machine (detected)", or "Profile:"
    /// and the file's name; with the full path for the hover text.
    pub(super) fn source_text(&self) -> (String, Option<String>) {
        // The Monitor page shows a trace, which may not be this machine's: name where it is from.
        if self.tab == Tab::Monitor {
            match &self.monitor.origin {
                Some(TraceOrigin::File(p)) => {
                    let name = p
                        .file_name()
                        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
                    let text =
                        |file: &str| trf(self.lang, Msg::MonitorUiSourceTrace, &[("file", file)]);
                    return (text(&name), Some(text(&p.display().to_string())));
                }
                Some(TraceOrigin::Prometheus { node, .. }) => {
                    let node = crate::sanitize::clean(node);
                    let text = trf(
                        self.lang,
                        Msg::MonitorUiSourcePrometheus,
                        &[("node", &node)],
                    );
                    return (text, None);
                }
                _ => {}
            }
        }
        match &self.source {
            Source::Detected => (tr(self.lang, Msg::SourceDetected).to_string(), None),
            Source::File(p) => {
                let name = p
                    .file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
                let text = |file: &str| trf(self.lang, Msg::SourceFile, &[("file", file)]);
                (text(&name), Some(text(&p.display().to_string())))
            }
        }
    }

    pub(super) fn message_ui(&self, ui: &mut Ui) -> Option<Command> {
        let lang = self.lang;
        let (severity, text) = match self.message.as_ref()? {
            Message::LoadFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[("error", &profile_error(lang, e))],
                ),
            ),
            Message::ScenarioFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[("error", &scenario_error(lang, e))],
                ),
            ),
            Message::DatasetScanned(s) => (
                Severity::Info,
                crate::present::dataset::scan_note(lang, s, &[]),
            ),
            Message::DatasetFailed(path, p) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[(
                        "error",
                        &crate::present::model::value_error(
                            &crate::inputs::model_files::ModelFileError {
                                file: path.clone(),
                                problem: crate::inputs::model_files::ModelProblem::Io(p.clone()),
                            },
                        )
                        .text(lang),
                    )],
                ),
            ),
            Message::ModelFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[("error", &crate::present::model::value_error(e).text(lang))],
                ),
            ),
            Message::IgnoredFields(f) => (
                Severity::Warning,
                trf(
                    lang,
                    Msg::UiIgnoredFields,
                    &[("fields", &crate::present::join(lang, f))],
                ),
            ),
            Message::NewerSchema(v) => (
                Severity::Warning,
                trf(
                    lang,
                    Msg::UiNewerSchema,
                    &[
                        ("version", &v.to_string()),
                        ("ours", &crate::profile::SCHEMA_VERSION.to_string()),
                    ],
                ),
            ),
            Message::Exported(path) => {
                let text = trf(
                    lang,
                    Msg::ExportDone,
                    &[("file", &path.display().to_string())],
                );
                let mut command = None;
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(text).color(theme::good()));
                    if ui.small_button(tr(lang, Msg::ExportOpenFolder)).clicked() {
                        command = Some(Command::RevealFile(path.clone()));
                    }
                    if ui.small_button(tr(lang, Msg::UiDismiss)).clicked() {
                        command = Some(Command::DismissMessage);
                    }
                });
                return command;
            }
            Message::ExportFailed(e) => (
                Severity::Critical,
                trf(lang, Msg::ExportFailed, &[("error", e)]),
            ),
            Message::PricesFailed(e) => (Severity::Critical, e.clone()),
            Message::DetectionFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiTaskFailed,
                    &[("task", tr(lang, Msg::UiTaskDetection)), ("error", e)],
                ),
            ),
            Message::Settings(p) => {
                let msg = if p.writing {
                    Msg::UiSettingsNotSaved
                } else {
                    Msg::UiSettingsUnreadable
                };
                let mut text = trf(lang, msg, &[("file", &p.file), ("error", &p.error)]);
                if let Some(bad) = &p.kept_as {
                    text.push(' ');
                    text.push_str(&trf(lang, Msg::UiSettingsKept, &[("file", bad)]));
                }
                (Severity::Warning, text)
            }
        };
        let mut dismiss = None;
        // A message may name a field or a command as code (`schema_version`): a paragraph
        // sets it apart, then the button to dismiss it.
        ui.add(crate::ui::paragraph::Paragraph::new(
            RichText::new(text).color(theme::severity(severity)),
        ));
        if ui.small_button(tr(lang, Msg::UiDismiss)).clicked() {
            dismiss = Some(Command::DismissMessage);
        }
        dismiss
    }
}
