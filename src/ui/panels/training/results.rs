//! The planner's results: the document's Training section ([`machine::section`]: the verdict in
//! its standing's colour, what the plan needs against what the machine has with each check
//! coloured, the phases, the breakdown, the plan's warnings and its notes), drawn by the
//! window's block renderer, then the plan's own recommendations. All numbers and judgements come
//! from the assessment.

use egui::{RichText, Ui};

use crate::advisor::Assessment;
use crate::advisor::recommend::Subject;
use crate::i18n::{Lang, Msg, trf};
use crate::present::document::{Section, advice_blocks, machine};
use crate::present::training as words;
use crate::ui::theme;

/// Draws what the plan needs and whether it fits, or why the plan can't be estimated.
pub(super) fn outputs(ui: &mut Ui, lang: Lang, a: &Assessment) {
    if let Some(e) = a.training_error {
        let text = trf(
            lang,
            Msg::TrainInvalid,
            &[("error", &words::plan_error(lang, e))],
        );
        ui.label(
            RichText::new(text)
                .color(theme::severity(crate::advisor::Severity::Critical))
                .strong(),
        );
        return;
    }
    // The page has its own heading over the inputs: the section's starts at its verdict.
    let mut blocks = machine::section(Section::Training, lang, a);
    if matches!(
        blocks.first(),
        Some(crate::present::document::Block::Heading(_))
    ) {
        blocks.remove(0);
    }
    blocks.extend(advice_blocks::recommendations(
        lang,
        &a.recommendations,
        Some(Subject::Training),
    ));
    crate::ui::blocks::show(ui, lang, "training", &blocks);
}
