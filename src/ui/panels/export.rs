//! The export dialog: format, languages and redaction, then a save dialog.

use egui::Ui;

use super::Command;
use crate::i18n::{Lang, Msg, tr};
use crate::report::{Format, ReportLang};

/// The choices in the export dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportForm {
    /// Output format.
    pub format: Format,
    /// Languages.
    pub lang: ReportLang,
    /// Remove identifying details.
    pub redact: bool,
}

impl ExportForm {
    /// PDF in the window's language, not redacted.
    pub fn new(lang: Lang) -> ExportForm {
        ExportForm {
            format: Format::Pdf,
            lang: ReportLang::One(lang),
            redact: false,
        }
    }

    /// File name extension of the format.
    pub fn extension(&self) -> &'static str {
        self.format.extension()
    }
}

/// Draws the dialog's contents; `contents` is what the report will contain
/// ([`crate::present::inputs::report_contents`]). Returns `ChooseExportFile` or `CloseExport`
/// when pressed.
pub fn export(
    ui: &mut Ui,
    lang: Lang,
    form: &mut ExportForm,
    contents: &[String],
) -> Option<Command> {
    let mut command = None;
    ui.label(egui::RichText::new(tr(lang, Msg::ExportContains)).strong());
    for line in contents {
        ui.label(format!("• {line}"));
    }
    ui.add_space(8.0);
    egui::Grid::new("export")
        .num_columns(2)
        .spacing([12.0, 8.0])
        .show(ui, |ui| {
            ui.label(tr(lang, Msg::ExportFormat));
            ui.horizontal(|ui| {
                ui.radio_value(&mut form.format, Format::Pdf, "PDF");
                ui.radio_value(&mut form.format, Format::Markdown, "Markdown");
                ui.radio_value(&mut form.format, Format::Json, "JSON");
            });
            ui.end_row();
            ui.label(tr(lang, Msg::ExportLanguage));
            ui.horizontal(|ui| {
                ui.radio_value(
                    &mut form.lang,
                    ReportLang::One(Lang::Zh),
                    Lang::Zh.native_name(),
                );
                ui.radio_value(
                    &mut form.lang,
                    ReportLang::One(Lang::En),
                    Lang::En.native_name(),
                );
                ui.radio_value(&mut form.lang, ReportLang::Both, tr(lang, Msg::ExportBoth));
            });
            ui.end_row();
            ui.label("");
            ui.checkbox(&mut form.redact, tr(lang, Msg::ExportRedact));
            ui.end_row();
        });
    ui.horizontal(|ui| {
        if ui.button(tr(lang, Msg::ExportSave)).clicked() {
            command = Some(Command::ChooseExportFile);
        }
        if ui.button(tr(lang, Msg::ExportCancel)).clicked() {
            command = Some(Command::CloseExport);
        }
    });
    command
}
