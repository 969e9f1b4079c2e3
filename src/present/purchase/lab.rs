//! The lab's order in words, built once for the PDF's first page, the Markdown report and the
//! window's Lab machines page: one table of everything to buy across the machines (the machine,
//! which option, the item, how many, the unit, the price each, the cost, why in one plain
//! sentence), the totals (every module of every set counted, the cost of the cheapest fixes and
//! of what the rules ask, what has no price) and where the prices come from; the document's
//! blocks are [`crate::present::document::fleet::order_summary`]'s. Computes nothing: the lines
//! and sums are [`crate::advisor::buying::lab`]'s.

use crate::advisor::Assessment;
use crate::advisor::buying::lab::{
    Amount, Choice, CurrencyTotal, ItemKind, LabTotals, OrderLine, PriceList, PriceSource, Why,
    line_cost, machine_lines, price_of,
};
use crate::advisor::fleet::FleetMachine;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

/// The table's columns' widths (PDF units): machine, option, buy, qty, unit, price each, cost,
/// why.
pub const WIDTHS: [f32; 8] = [1.8, 1.3, 2.1, 0.5, 1.0, 1.3, 1.3, 4.9];

/// A price as written on the page: `USD 1.212`, `CNY 899.00` (two decimals, more when the price
/// has them).
pub fn money(currency: &str, a: Amount) -> String {
    let units = a.0 / Amount::SCALE;
    let frac = a.0 % Amount::SCALE;
    let mut f = format!("{frac:04}");
    while f.len() > 2 && f.ends_with('0') {
        f.pop();
    }
    format!("{currency}{}{units}.{f}", format::NBSP)
}

/// The table's header, matching [`rows`].
pub fn header(lang: Lang) -> Vec<String> {
    [
        Msg::FleetMachine,
        Msg::LabOrderColOption,
        Msg::LabOrderColItem,
        Msg::LabOrderColQty,
        Msg::LabOrderColUnit,
        Msg::LabOrderColPrice,
        Msg::LabOrderColCost,
        Msg::LabOrderColWhy,
    ]
    .iter()
    .map(|m| tr(lang, *m).to_string())
    .collect()
}

fn choice(lang: Lang, c: Choice) -> &'static str {
    tr(
        lang,
        match c {
            Choice::Fix => Msg::LabOrderChoiceFix,
            Choice::Rules => Msg::LabOrderChoiceRules,
            Choice::FixAndRules => Msg::LabOrderChoiceBoth,
        },
    )
}

/// Why a line of `a`'s order is bought, in one plain sentence (with the channels and the new
/// machine after).
pub fn why(lang: Lang, a: &Assessment, l: &OrderLine) -> String {
    let mut s = match l.why {
        Why::BelowVram {
            ram_bytes,
            vram_bytes,
        } => trf(
            lang,
            Msg::LabOrderWhyBelowVram,
            &[
                ("ram", &format::gib(ram_bytes)),
                ("vram", &format::gib(vram_bytes)),
            ],
        ),
        Why::TwiceVram { target_bytes } => trf(
            lang,
            Msg::LabOrderWhyTwiceVram,
            &[("target", &format::gib(target_bytes))],
        ),
        Why::LargestGpu { target_bytes } => trf(
            lang,
            Msg::LabOrderWhyLargestGpu,
            &[("target", &format::gib(target_bytes))],
        ),
        Why::Work { .. } => trf(
            lang,
            Msg::LabOrderWhyWork,
            &[("work", &super::work_names(lang, &a.procurement.work))],
        ),
    };
    if let Some((before, after)) = l.channels {
        s.push_str(&trf(
            lang,
            Msg::LabOrderWhyChannels,
            &[
                ("before", &before.to_string()),
                ("after", &after.to_string()),
            ],
        ));
    }
    if l.new_machine {
        s.push_str(tr(lang, Msg::LabOrderWhyNewMachine));
    } else if l.full_set {
        s.push_str(tr(lang, Msg::LabOrderWhyFullSet));
    }
    s
}

/// What a line buys, in words: the module's name, the instance with its RAM, or (another
/// change) the purchase line of `a`'s own report.
pub fn item_text(lang: Lang, a: &Assessment, l: &OrderLine) -> String {
    match l.item.kind {
        ItemKind::Module => l.item.name.clone(),
        ItemKind::Instance => trf(
            lang,
            Msg::LabOrderInstanceItem,
            &[
                ("instance", &l.item.name),
                ("ram", &format::gib_or_unknown(lang, l.ram_after_bytes)),
            ],
        ),
        ItemKind::Other => {
            let text = super::order::order(lang, a).map_or_else(String::new, |o| o.buy);
            trf(lang, Msg::LabOrderOtherItem, &[("text", &text)])
        }
    }
}

/// A machine's cheapest fix in one line, when it differs from what the rules ask (a
/// g5.xlarge's g5.2xlarge beside the rules' g5.4xlarge): the item, then why; `None`
/// otherwise. A machine's own report shows it beside its purchase line.
pub fn fix_line(lang: Lang, a: &Assessment) -> Option<String> {
    let lines = machine_lines("", &a.procurement, a.profile.memory.channels_populated);
    let fix = lines.iter().find(|l| l.choice == Choice::Fix)?;
    if !lines.iter().any(|l| l.choice == Choice::Rules) {
        return None;
    }
    let item = match fix.item.kind {
        ItemKind::Module => format!("{} × {}", fix.quantity, fix.item.name),
        _ => item_text(lang, a, fix),
    };
    Some(super::super::words::sentences(
        lang,
        &trf(lang, Msg::LabOrderFixItem, &[("item", &item)]),
        &why(lang, a, fix),
    ))
}

/// One line as table cells ([`header`]'s columns).
pub fn line_cells(lang: Lang, m: &FleetMachine, l: &OrderLine, prices: &PriceList) -> Vec<String> {
    let dash = "—".to_string();
    let item = item_text(lang, &m.assessment, l);
    let (qty, unit) = match l.item.kind {
        ItemKind::Module => (
            l.quantity.to_string(),
            tr(lang, Msg::LabOrderUnitModule).to_string(),
        ),
        ItemKind::Instance => (
            l.quantity.to_string(),
            tr(lang, Msg::LabOrderUnitInstance).to_string(),
        ),
        ItemKind::Other => (dash.clone(), tr(lang, Msg::LabOrderUnitOther).to_string()),
    };
    let hourly = |s: String| match l.item.kind {
        ItemKind::Instance => trf(lang, Msg::LabOrderPerHour, &[("price", &s)]),
        _ => s,
    };
    let (each, cost) = match (l.item.kind, price_of(prices, &l.item)) {
        (ItemKind::Other, _) => (dash.clone(), dash),
        (_, None) => {
            let none = tr(lang, Msg::LabOrderUnpriced).to_string();
            (none.clone(), none)
        }
        (_, Some(p)) => (
            hourly(money(&p.currency, p.amount)),
            line_cost(p, l.quantity).map_or_else(
                || tr(lang, Msg::LabOrderUnpriced).to_string(),
                |c| hourly(money(&p.currency, c)),
            ),
        ),
    };
    vec![
        m.label.clone(),
        choice(lang, l.choice).to_string(),
        item,
        qty,
        unit,
        each,
        cost,
        why(lang, &m.assessment, l),
    ]
}

/// The rows of one machine (none when it has nothing to buy) and its lines, for the totals.
pub fn machine_rows(
    lang: Lang,
    m: &FleetMachine,
    prices: &PriceList,
) -> (Vec<Vec<String>>, Vec<OrderLine>) {
    let a = &m.assessment;
    let lines = machine_lines(
        &m.label,
        &a.procurement,
        a.profile.memory.channels_populated,
    );
    let rows = lines
        .iter()
        .map(|l| line_cells(lang, m, l, prices))
        .collect();
    (rows, lines)
}

fn modules_value(lang: Lang, list: &[(String, u32)]) -> String {
    let parts: Vec<String> = list.iter().map(|(n, c)| format!("{c} × {n}")).collect();
    let count: u32 = list.iter().map(|(_, c)| *c).sum();
    trf(
        lang,
        Msg::LabOrderTotalModulesValue,
        &[
            ("list", &super::super::join(lang, &parts)),
            ("count", &count.to_string()),
        ],
    )
}

fn cost_value(lang: Lang, list: &[CurrencyTotal]) -> String {
    let mut parts = Vec::new();
    for t in list {
        if t.once.0 > 0 {
            parts.push(trf(
                lang,
                Msg::LabOrderCostOnce,
                &[("amount", &money(&t.currency, t.once))],
            ));
        }
        if t.per_hour.0 > 0 {
            parts.push(trf(
                lang,
                Msg::LabOrderCostHourly,
                &[("amount", &money(&t.currency, t.per_hour))],
            ));
        }
    }
    if parts.is_empty() {
        return tr(lang, Msg::LabOrderCostNone).to_string();
    }
    super::super::join(lang, &parts)
}

/// The totals as rows: machines, modules for each option (every module of every set), instance
/// moves, the cost of each option by currency, the lines without a price, other changes.
pub fn totals_rows(lang: Lang, t: &LabTotals) -> Vec<(String, String)> {
    let mut rows = vec![(
        tr(lang, Msg::OrderTotalMachines).to_string(),
        t.machines.to_string(),
    )];
    let mut push = |msg, value: String| rows.push((tr(lang, msg).to_string(), value));
    if !t.modules_fix.is_empty() {
        push(
            Msg::LabOrderTotalModulesFix,
            modules_value(lang, &t.modules_fix),
        );
    }
    if !t.modules_rules.is_empty() {
        push(
            Msg::LabOrderTotalModulesRules,
            modules_value(lang, &t.modules_rules),
        );
    }
    if t.instances_fix > 0 {
        push(Msg::LabOrderTotalInstancesFix, t.instances_fix.to_string());
    }
    if t.instances_rules > 0 {
        push(
            Msg::LabOrderTotalInstancesRules,
            t.instances_rules.to_string(),
        );
    }
    push(Msg::LabOrderTotalCostFix, cost_value(lang, &t.cost_fix));
    push(Msg::LabOrderTotalCostRules, cost_value(lang, &t.cost_rules));
    if t.unpriced > 0 {
        push(
            Msg::LabOrderTotalUnpriced,
            trf(
                lang,
                Msg::LabOrderTotalUnpricedValue,
                &[("count", &t.unpriced.to_string())],
            ),
        );
    }
    if t.other > 0 {
        push(Msg::OrderTotalOther, t.other.to_string());
    }
    rows
}

/// Where the prices come from, in one note: the catalogue's source and date, or the lab's file
/// and the day it was read (`date`, the report's).
pub fn prices_note(lang: Lang, prices: &PriceList, date: &str) -> String {
    let file = prices.prices.iter().find_map(|p| match &p.source {
        PriceSource::File { file, .. } => Some(file.clone()),
        PriceSource::Typical { .. } => None,
    });
    let from_file = (!prices.typical).then(|| {
        trf(
            lang,
            Msg::LabOrderPricesFile,
            &[("file", &file.unwrap_or_default()), ("date", date)],
        )
    });
    let (source, read) = prices
        .prices
        .iter()
        .find_map(|p| match &p.source {
            PriceSource::Typical { source, date } => Some((source.clone(), date.clone())),
            PriceSource::File { .. } => None,
        })
        .unwrap_or_default();
    // A lab's file with no typical price behind it: its note alone.
    if source.is_empty() {
        return from_file.unwrap_or_default();
    }
    let source = match source.as_str() {
        crate::catalog::prices::AWS_SOURCE => tr(lang, Msg::LabOrderSourceAwsUsEast1).to_string(),
        other => other.to_string(),
    };
    let typical = trf(
        lang,
        if from_file.is_some() {
            Msg::LabOrderPricesTypicalRest
        } else {
            Msg::LabOrderPricesTypical
        },
        &[("source", &source), ("date", &read)],
    );
    match from_file {
        // Lines the lab's file doesn't price take the typical price: both notes.
        Some(f) => format!("{f} {typical}"),
        None => typical,
    }
}
