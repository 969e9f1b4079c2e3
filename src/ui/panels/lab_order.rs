//! The Lab machines page's order: what to buy across the lab, summed and priced, with the
//! cheapest fix beside what the rules ask, and the button that opens the lab's price list. The
//! words, sums and table are [`crate::present::purchase::lab`]'s; this file only draws them.

use egui::{RichText, Ui};

use super::Command;
use crate::advisor::buying::lab::{LabTotals, PriceList};
use crate::advisor::fleet::FleetMachine;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::fleet::{FleetSort, order};
use crate::present::purchase::lab;

/// Each column's share of the page's width (machine, option, buy, qty, unit, price each, cost,
/// why): every cell wraps within its column.
const SHARES: [f32; 8] = [1.5, 1.2, 1.8, 0.5, 0.9, 1.1, 1.1, 3.6];

/// Draws the order for `machines` (in the table's order, `sort`), priced from `prices`
/// (`prices_file`: the lab's price list as shown, `None` for the typical prices); returns what
/// the user asked for.
pub fn lab_order(
    ui: &mut Ui,
    lang: Lang,
    machines: &[FleetMachine],
    sort: FleetSort,
    prices: &PriceList,
    prices_file: Option<&str>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    super::heading(ui, tr(lang, Msg::LabOrderHeading));
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr(lang, Msg::LabOrderOpenPrices)).clicked() {
            commands.push(Command::OpenPricesDialog);
        }
        if let Some(file) = prices_file {
            ui.label(trf(lang, Msg::LabOrderPricesLoaded, &[("file", file)]));
            if ui.button(tr(lang, Msg::LabOrderTypicalPrices)).clicked() {
                commands.push(Command::UseTypicalPrices);
            }
        }
    });
    let mut rows = Vec::new();
    let mut totals = LabTotals::default();
    for i in order(lang, machines, sort) {
        let (r, lines) = lab::machine_rows(lang, &machines[i], prices);
        rows.extend(r);
        totals.add(&lines, prices);
    }
    let summary = crate::present::document::fleet::order_summary(
        lang,
        &totals,
        prices,
        &crate::report::today(),
    );
    // The summary's own heading is drawn above, with the button.
    crate::ui::blocks::show(ui, lang, "lab-order-summary", &summary[1..]);
    if rows.is_empty() {
        return commands;
    }
    let gap = 10.0;
    let usable = (ui.available_width() - gap * SHARES.len() as f32).max(480.0);
    let sum: f32 = SHARES.iter().sum();
    let widths = SHARES.map(|s| usable * s / sum);
    egui::Grid::new("lab-order-table")
        .num_columns(SHARES.len())
        .striped(true)
        .spacing([gap, 6.0])
        .show(ui, |ui| {
            for (h, w) in lab::header(lang).iter().zip(widths) {
                ui.scope(|ui| {
                    ui.set_max_width(w);
                    ui.add(egui::Label::new(RichText::new(h).strong()).wrap());
                });
            }
            ui.end_row();
            for row in &rows {
                for (cell, w) in row.iter().zip(widths) {
                    ui.scope(|ui| {
                        ui.set_max_width(w);
                        ui.add(egui::Label::new(crate::codespan::plain(cell)).wrap());
                    });
                }
                ui.end_row();
            }
        });
    commands
}
