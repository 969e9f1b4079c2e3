//! The published-rules table.

use egui::{RichText, Ui};

use crate::advisor::{Assessment, RuleStatus};
use crate::i18n::{Lang, Msg, tr};
use crate::present;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

/// Draws one row per rule: name, formula, required, actual, result; the source on hover and
/// in a collapsible list below.
pub fn rules(ui: &mut Ui, lang: Lang, a: &Assessment) {
    super::heading(ui, tr(lang, Msg::RulesSection));
    // A page narrower than the table (800 points, Chinese) scrolls it sideways; the findings
    // below keep the page's width and wrap.
    egui::ScrollArea::horizontal()
        .id_salt("rules-table-scroll")
        .show(ui, |ui| rules_table(ui, lang, a));
    egui::CollapsingHeader::new(tr(lang, Msg::RulesSources))
        .id_salt("rule-sources")
        .show(ui, |ui| {
            for source in present::names::rule_sources(lang, &a.rules) {
                ui.add(Paragraph::new(format!("• {source}")));
            }
        });
}

fn rules_table(ui: &mut Ui, lang: Lang, a: &Assessment) {
    egui::Grid::new("rules")
        .num_columns(5)
        .striped(true)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
            for h in present::rule_header(lang) {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for r in &a.rules {
                let [name, formula, required, actual, status] = present::rule_row(lang, r);
                ui.label(name)
                    .on_hover_text(crate::codespan::plain(present::names::rule_source(
                        lang, r.id,
                    )));
                ui.label(formula);
                ui.label(required);
                ui.label(actual);
                let standing = crate::advisor::standing::rule(r.status);
                let colour = theme::standing(standing, ui.visuals().weak_text_color());
                let text = RichText::new(match r.status {
                    RuleStatus::Pass => format!("✓ {status}"),
                    RuleStatus::Fail => format!("× {status}"),
                    _ => status,
                })
                .color(colour);
                ui.label(text.strong());
                ui.end_row();
            }
        });
}
