//! The Training page: the plan's inputs on the left, what it needs and whether it fits on the
//! right, each column scrolling on its own.

use egui::{RichText, Ui};

use super::form::{TrainingForm, inputs};
use super::results::outputs;
use crate::advisor::Assessment;
use crate::i18n::{Lang, Msg, tr};
use crate::ui::panels::Command;

/// Draws the planner for the plan in `form`; `a` is the machine assessed with that plan, and
/// `included` says whether the plan is part of the assessment and the report, `restored` whether
/// it is as restored from the last session. Returns `SetPlan`
/// when the form describes a new plan, `IncludeTraining` when the switch is flipped.
pub fn training(
    ui: &mut Ui,
    lang: Lang,
    form: &mut TrainingForm,
    a: &Assessment,
    (included, restored): (bool, bool),
) -> Vec<Command> {
    let before = form.plan.clone();
    let mut commands = Vec::new();
    // Each column scrolls on its own, both ways: nothing is cut on a small window (800 × 560).
    crate::ui::paragraph::columns(ui, 2, |cols| {
        let (left, right) = cols.split_at_mut(1);
        egui::ScrollArea::both()
            .id_salt("training-in")
            .show(&mut left[0], |ui| {
                crate::ui::panels::heading(ui, tr(lang, Msg::TrainSection));
                if let Some(on) = crate::ui::panels::include_switch(
                    ui,
                    tr(lang, Msg::IncludeTraining),
                    tr(lang, Msg::IncludeHint),
                    included,
                ) {
                    commands.push(Command::IncludeTraining(on));
                }
                crate::ui::panels::restored_note(ui, lang, restored);
                ui.horizontal_wrapped(|ui| {
                    if ui.button(tr(lang, Msg::ModelOpenFile)).clicked() {
                        commands.push(Command::OpenModelFileDialog);
                    }
                    if ui.button(tr(lang, Msg::ModelOpenFolder)).clicked() {
                        commands.push(Command::OpenModelFolderDialog);
                    }
                });
                if let Some(r) = &form.read {
                    ui.label(RichText::new(crate::present::model::read_note(lang, r)).small());
                }
                inputs(ui, lang, form);
            });
        egui::ScrollArea::both()
            .id_salt("training-out")
            .show(&mut right[0], |ui| {
                outputs(ui, lang, a);
            });
    });
    if form.plan != before {
        commands.push(Command::SetPlan(form.plan.clone()));
    }
    commands
}
