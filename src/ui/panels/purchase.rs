//! What to buy for this kind of machine: a larger instance, modules that exist for it, or why
//! nothing can be added. Shown on the Machine page when more RAM is needed.

use egui::Ui;

use crate::advisor::Assessment;
use crate::i18n::{Lang, Msg, tr};
use crate::present::purchase as words;

/// Draws the purchase advice; nothing when no more RAM is needed.
pub fn purchase(ui: &mut Ui, lang: Lang, a: &Assessment) {
    let Some((p, needed)) = words::of(a) else {
        return;
    };
    super::heading(ui, tr(lang, Msg::PurchaseSection));
    for line in words::lines(lang, p, needed) {
        ui.add(crate::ui::paragraph::Paragraph::new(line));
    }
    ui.add_space(4.0);
}
