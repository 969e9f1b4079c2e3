//! The Machine page: the machine document's sections ([`machine::section`]), in the report's
//! order and under its titles, drawn by the window's block renderer ([`crate::ui::blocks`]).
//! Where the window needs a widget the document's blocks can't give, its own stands in: the
//! rules' table (each rule's source on hover, its result coloured) and the recommendations
//! (a copy button for the arguments that apply each).

use egui::Ui;

use crate::advisor::Assessment;
use crate::i18n::Lang;
use crate::present::document::{Section, machine};

/// The document's sections on the Machine page, in the report's order. The hardware has the
/// panel on the left; bandwidth, the workload, the training plan and the served model have
/// their own pages.
pub const SECTIONS: [Section; 8] = [
    Section::Verdict,
    Section::Inputs,
    Section::Order,
    Section::Ratio,
    Section::Rules,
    Section::Findings,
    Section::Recommendations,
    Section::Procurement,
];

/// Draws the Machine page for `a` in `lang`; `restored` when a plan or workload it includes is
/// as restored from the last session (said under the verdict on it, so a plan carried over
/// from an earlier run of the window is never hidden where it changes the page).
pub fn machine(ui: &mut Ui, lang: Lang, a: &Assessment, restored: bool) {
    for s in SECTIONS {
        match s {
            Section::Verdict => {
                crate::ui::blocks::show(ui, lang, "machine-Verdict", &machine::section(s, lang, a));
                super::restored_note(ui, lang, restored);
                // A unified pool as one bar: every consumer, CPU and GPU side, and its limits.
                for bar in crate::present::pools::unified_bars(lang, a) {
                    crate::ui::pool_bar::pool_bar(ui, &bar);
                }
            }
            Section::Rules => super::rules::rules(ui, lang, a),
            Section::Recommendations => {
                super::recommendations::recommendations(ui, lang, &a.recommendations, None)
            }
            s => {
                let id = format!("machine-{s:?}");
                crate::ui::blocks::show(ui, lang, &id, &machine::section(s, lang, a));
            }
        }
    }
}
