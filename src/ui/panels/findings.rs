//! Findings: severity, title, explanation and what to do, in cards the Monitor page's
//! diagnoses share: the machine document's findings section, drawn by the window's block
//! renderer ([`crate::ui::blocks`]).

use egui::Ui;

use crate::advisor::Assessment;
use crate::i18n::Lang;
use crate::present::document::{Section, machine};

pub(super) use crate::ui::blocks::{Card, card};

/// Draws every finding, most severe first.
pub fn findings(ui: &mut Ui, lang: Lang, a: &Assessment) {
    let blocks = machine::section(Section::Findings, lang, a);
    crate::ui::blocks::show(ui, "findings", &blocks);
}
