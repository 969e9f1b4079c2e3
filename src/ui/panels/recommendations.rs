//! The ranked recommendations: what to change, cheapest first, each with what the model says
//! after the change. The Machine page lists them all; the Training and Data loading pages list
//! their own.

use egui::{RichText, Ui};

use crate::advisor::recommend::{Recommendation, Subject};
use crate::i18n::{Lang, Msg, tr};
use crate::present::recommend as words;
use crate::ui::theme;

/// Draws the recommendations about `subject` (all of them for `None`), in rank order; nothing
/// when there are none.
pub fn recommendations(ui: &mut Ui, lang: Lang, recs: &[Recommendation], subject: Option<Subject>) {
    let shown: Vec<&Recommendation> = recs
        .iter()
        .filter(|r| subject.is_none_or(|s| r.subject == s))
        .collect();
    if shown.is_empty() {
        return;
    }
    super::heading(ui, tr(lang, Msg::RecommendationSection));
    for (i, r) in shown.iter().enumerate() {
        let colour = match r.result.fits {
            Some(true) => theme::tier(crate::advisor::Tier::LargeModel),
            Some(false) => theme::severity(crate::advisor::Severity::Warning),
            None => ui.visuals().weak_text_color(),
        };
        // The number and the kind, then the title wrapping beside them. A title may name a
        // command (`docker run --shm-size=…`): set as code, unbroken.
        ui.horizontal_top(|ui| {
            ui.label(RichText::new(format!("{}.", i + 1)).strong());
            ui.label(RichText::new(words::kind_tag(lang, r.kind)).weak());
            ui.add(crate::ui::paragraph::Paragraph::new(
                RichText::new(words::title(lang, r)).strong(),
            ));
        });
        ui.add(crate::ui::paragraph::Paragraph::new(
            RichText::new(words::result(lang, &r.result)).color(colour),
        ));
        ui.add(crate::ui::paragraph::Paragraph::new(
            RichText::new(words::cost(lang, r)).weak(),
        ));
        // The arguments that apply it, copyable: added to the same `advise` command.
        if !r.apply.is_empty() {
            let args = r.apply.join(" ");
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(tr(lang, Msg::AdviceApplyLabel)).weak());
                ui.add(egui::Label::new(RichText::new(&args).monospace()).selectable(true));
                if ui.small_button(tr(lang, Msg::AdviceCopy)).clicked() {
                    ui.ctx().copy_text(args.clone());
                }
            });
        }
        ui.add_space(4.0);
    }
}
