//! What to buy for this kind of machine: a larger instance, modules that exist for it, or why
//! nothing can be added; or that what was set up needs none. Shown on the Machine page.

use egui::Ui;

use crate::advisor::Assessment;
use crate::i18n::{Lang, Msg, tr};
use crate::present::purchase as words;

/// Draws the purchase advice ([`words::section`]); nothing when there is nothing to say.
pub fn purchase(ui: &mut Ui, lang: Lang, a: &Assessment) {
    let lines = words::section_lines(lang, a);
    if lines.is_empty() {
        return;
    }
    super::heading(ui, tr(lang, Msg::PurchaseSection));
    for line in lines {
        ui.add(crate::ui::paragraph::Paragraph::new(line));
    }
    ui.add_space(4.0);
}
