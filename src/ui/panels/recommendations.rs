//! The ranked recommendations: what to change, cheapest first, each with what the model says
//! after the change and the arguments that apply it (copyable). The Machine page lists them
//! all; the Training and Data loading pages list their own. Drawn by the window's block
//! renderer from the document's recommendation blocks.

use egui::Ui;

use crate::advisor::recommend::{Recommendation, Subject};
use crate::i18n::Lang;
use crate::present::document::advice_blocks;

/// Draws the recommendations about `subject` (all of them for `None`), in rank order; nothing
/// when there are none.
pub fn recommendations(ui: &mut Ui, lang: Lang, recs: &[Recommendation], subject: Option<Subject>) {
    let blocks = advice_blocks::recommendations(lang, recs, subject);
    crate::ui::blocks::show(ui, lang, "recommendations", &blocks);
}
