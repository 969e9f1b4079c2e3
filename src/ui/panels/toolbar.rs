//! Top bar: title, where the shown machine comes from, open/detect buttons, language switch.

use egui::{RichText, Ui};

use super::{Command, Tab};
use crate::i18n::{Lang, Msg, tr};

/// Draws the toolbar. `source` describes the machine shown ("This machine (detected)",
/// "Profile: dgx.json").
pub fn toolbar(
    ui: &mut Ui,
    lang: Lang,
    source: &str,
    source_detail: Option<&str>,
    detecting: bool,
    tab: Tab,
) -> Vec<Command> {
    let mut commands = Vec::new();
    // Title on the left, the language switch on the right of the same line.
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(tr(lang, Msg::CommonAppTitle))
                .heading()
                .strong(),
        );
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            for l in Lang::ALL.iter().rev() {
                if ui.selectable_label(*l == lang, l.native_name()).clicked() && *l != lang {
                    commands.push(Command::SetLang(*l));
                }
            }
            ui.label(tr(lang, Msg::UiLanguage));
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                ui.add(
                    egui::Label::new(RichText::new(tr(lang, Msg::CommonAppSubtitle)).weak())
                        .truncate(),
                );
            });
        });
    });
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr(lang, Msg::UiOpenProfile)).clicked() {
            commands.push(Command::OpenProfileDialog);
        }
        if ui
            .add_enabled(!detecting, egui::Button::new(tr(lang, Msg::UiThisMachine)))
            .clicked()
        {
            commands.push(Command::DetectThisMachine);
        }
        if ui.button(tr(lang, Msg::ExportOpen)).clicked() {
            commands.push(Command::OpenExport);
        }
        ui.separator();
        for (t, msg) in [
            (Tab::Machine, Msg::TrainMachineTab),
            (Tab::Training, Msg::TrainTab),
            (Tab::Bandwidth, Msg::BwTab),
            (Tab::Workload, Msg::WorkTab),
            (Tab::Fleet, Msg::FleetTab),
            (Tab::Monitor, Msg::MonitorTab),
        ] {
            if ui.selectable_label(tab == t, tr(lang, msg)).clicked() && tab != t {
                commands.push(Command::SetTab(t));
            }
        }
        ui.separator();
        // The source gets what is left of the line, cut short with "…" (the whole text, with
        // the full path, on hover).
        ui.add(egui::Label::new(source).truncate())
            .on_hover_text(source_detail.unwrap_or(source));
    });
    commands
}
