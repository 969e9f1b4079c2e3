//! Top bar: title, where the shown machine comes from, open/detect buttons, language switch.

use egui::{RichText, Ui};

use super::{Command, Tab};
use crate::i18n::{Lang, Msg, tr};

/// Draws the toolbar. `source` describes the machine shown ("This machine (detected)",
/// "Profile: dgx.json").
pub fn toolbar(ui: &mut Ui, lang: Lang, source: &str, detecting: bool, tab: Tab) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(tr(lang, Msg::CommonAppTitle))
                .heading()
                .strong(),
        );
        ui.label(RichText::new(tr(lang, Msg::CommonAppSubtitle)).weak());
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
        ] {
            if ui.selectable_label(tab == t, tr(lang, msg)).clicked() && tab != t {
                commands.push(Command::SetTab(t));
            }
        }
        ui.separator();
        ui.label(source);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            for l in Lang::ALL.iter().rev() {
                if ui.selectable_label(*l == lang, l.native_name()).clicked() && *l != lang {
                    commands.push(Command::SetLang(*l));
                }
            }
            ui.label(tr(lang, Msg::UiLanguage));
        });
    });
    commands
}
