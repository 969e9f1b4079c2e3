//! Plain-text rendering of a profile and an assessment for the terminal.

use std::fmt::Write as _;
use std::path::Path;

use unicode_width::UnicodeWidthStr;

use super::layout::{label_width, pad, section, wrap, wrap_hanging};

use crate::advisor::Assessment;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;

/// The hardware summary (`ramvram detect`).
pub fn hardware(lang: Lang, a: &Assessment) -> String {
    let mut out = String::new();
    section(&mut out, tr(lang, Msg::HwSection));
    let rows = present::hardware_rows(lang, a);
    let w = label_width(rows.iter().map(|(l, _)| l.as_str()));
    for (label, value) in rows {
        let _ = writeln!(out, "  {}{value}", pad(&label, w));
    }
    notes(&mut out, lang, a);
    out
}

fn notes(out: &mut String, lang: Lang, a: &Assessment) {
    if a.profile.notes.is_empty() {
        return;
    }
    section(out, tr(lang, Msg::NotesSection));
    for n in &a.profile.notes {
        wrap_hanging(out, "  · ", "    ", &present::note(lang, n));
    }
}

/// A text gauge of the ratio on 0–[`present::GAUGE_MAX_RATIO`]×, with the tier boundaries
/// ([`crate::advisor::Tier::BOUNDS`]) marked `|` and the machine's value marked `▲`.
pub fn gauge(ratio: f64) -> String {
    const MAX: f64 = present::GAUGE_MAX_RATIO;
    const COLS: usize = 56;
    let col = |v: f64| ((v.clamp(0.0, MAX) / MAX) * (COLS - 1) as f64).round() as usize;
    let mut bar: Vec<char> = vec!['─'; COLS];
    for b in crate::advisor::Tier::BOUNDS {
        bar[col(b)] = '|';
    }
    let mut marker = vec![' '; COLS];
    marker[col(ratio)] = '▲';
    // Each label starts under its mark ("1.5" starts at the 1.5 mark), the last one ends at
    // the scale's end.
    let mut scale: Vec<char> = vec![' '; COLS + 2];
    let mut put = |at: usize, text: &str| {
        for (i, c) in text.chars().enumerate() {
            if let Some(slot) = scale.get_mut(at + i) {
                *slot = c;
            }
        }
    };
    put(0, "0");
    for b in crate::advisor::Tier::BOUNDS {
        put(col(b), &format!("{b}"));
    }
    let end = format!("{MAX}×");
    put(COLS + 1 - end.chars().count(), &end);
    format!(
        "  [{}]\n   {}\n   {}\n",
        bar.iter().collect::<String>(),
        marker.iter().collect::<String>().trim_end(),
        scale.iter().collect::<String>().trim_end()
    )
}

/// The full assessment (`ramvram advise`): verdict, hardware, ratio gauge, rules, findings.
pub fn assessment(lang: Lang, a: &Assessment, profile_path: Option<&Path>) -> String {
    let mut out = String::new();
    let source = match profile_path {
        Some(p) => trf(lang, Msg::SourceFile, &[("file", &p.display().to_string())]),
        None => tr(lang, Msg::SourceDetected).to_string(),
    };
    let _ = writeln!(
        out,
        "{}",
        trf(
            lang,
            Msg::JoinTitleSource,
            &[
                ("title", tr(lang, Msg::CommonAppTitle)),
                ("source", &source)
            ]
        )
    );
    let h = present::headline::headline(lang, a);
    let _ = writeln!(
        out,
        "\n[{}] {}",
        present::severity(lang, h.severity).to_uppercase(),
        h.title
    );
    wrap(&mut out, "  ", &h.detail);
    out.push_str(&hardware(lang, a));

    section(&mut out, tr(lang, Msg::RatioSection));
    let rows = present::ratio::rows(lang, a);
    // The label column as wide as its widest label in terminal columns (a CJK character
    // takes two), at least the 28 the other tables use.
    let w = label_width(rows.iter().map(|(l, _)| *l)).max(28);
    for (label, value) in rows {
        let _ = writeln!(out, "  {}{value}", pad(label, w));
    }
    if let Some(r) = a.ratio.ram_to_vram_total {
        out.push_str(&gauge(r));
    }

    section(&mut out, tr(lang, Msg::RulesSection));
    let header = present::rule_header(lang);
    let table: Vec<[String; 5]> = a.rules.iter().map(|r| present::rule_row(lang, r)).collect();
    let mut widths = header.map(UnicodeWidthStr::width);
    for row in &table {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(UnicodeWidthStr::width(cell.as_str()));
        }
    }
    let line = |cells: [&str; 5]| {
        let mut s = String::from(" ");
        for (cell, w) in cells.iter().zip(widths) {
            s.push(' ');
            s.push_str(&pad(cell, w + 1));
        }
        s.trim_end().to_string() + "\n"
    };
    out.push_str(&line(header));
    for row in &table {
        out.push_str(&line([&row[0], &row[1], &row[2], &row[3], &row[4]]));
    }
    let _ = writeln!(out, "\n  {}", tr(lang, Msg::RulesSources));
    for source in present::names::rule_sources(lang, &a.rules) {
        wrap_hanging(&mut out, "  · ", "    ", source);
    }

    if let Some(b) = &a.bandwidth {
        bandwidth(&mut out, lang, b, a.workload.as_ref());
    }

    section(&mut out, tr(lang, Msg::FindingsSection));
    if a.findings.is_empty() {
        let _ = writeln!(out, "  {}", tr(lang, Msg::FindingsNone));
    }
    for f in &a.findings {
        let _ = writeln!(
            out,
            "  [{}] {}",
            present::severity(lang, f.severity),
            present::finding_title(lang, f)
        );
        wrap(&mut out, "      ", &present::finding_explanation(lang, f));
        for rec in present::finding_recommendations(lang, f) {
            wrap_hanging(&mut out, "      → ", "        ", &rec);
        }
        out.push('\n');
    }
    let purchase = present::purchase::section_lines(lang, a);
    if !purchase.is_empty() {
        section(&mut out, tr(lang, Msg::PurchaseSection));
        for line in purchase {
            wrap_hanging(&mut out, "  ", "    ", &line);
        }
    }
    if let Some(w) = &a.workload {
        out.push_str(&super::text_workload::workload(lang, w));
    }
    if let Some(t) = &a.training_memory {
        out.push_str(&super::text_training::training(lang, t));
    }
    if let Some(m) = &a.inference_memory {
        out.push_str(&super::text_inference::inference(lang, m));
    }
    if !a.recommendations.is_empty() {
        section(&mut out, tr(lang, Msg::RecommendationSection));
        for (i, r) in a.recommendations.iter().enumerate() {
            wrap_hanging(
                &mut out,
                &format!("  {}. ", i + 1),
                "     ",
                &present::recommend::line(lang, r),
            );
            wrap_hanging(
                &mut out,
                "     ",
                "     ",
                &present::recommend::detail(lang, r),
            );
        }
    }
    out
}

/// The bandwidth section: pipeline sentence, memory bandwidth, the seed's rule, PCIe.
fn bandwidth(
    out: &mut String,
    lang: Lang,
    b: &crate::advisor::bandwidth::Bandwidth,
    workload: Option<&crate::advisor::workload::WorkloadResult>,
) {
    use crate::present::bandwidth as words;
    section(out, tr(lang, Msg::BwTab));
    wrap(out, "  ", &words::pipeline_sentence(lang, workload));
    out.push('\n');
    for line in words::stage_lines(lang, b) {
        wrap_hanging(out, "  · ", "    ", &line);
    }
    let rows = words::memory_rows(lang, b);
    out.push('\n');
    let w = label_width(rows.iter().map(|(l, _)| *l)).max(28);
    for (label, value) in rows {
        let _ = writeln!(out, "  {}{value}", pad(label, w));
    }
    out.push('\n');
    wrap(out, "  ", &words::seed_rule_text(lang, b));
    for p in &b.pcie {
        wrap(out, "  ", &words::pcie_line(lang, p));
    }
    for s in &b.storage {
        if let Some(place) = words::storage_location(lang, s) {
            wrap(out, "  ", &place);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    /// The rows of the bandwidth table as printed: each label, then its value starting in one
    /// column for every row, at least two columns after the widest label, in both languages.
    #[test]
    fn bandwidth_labels_never_run_into_their_values() {
        let profile: crate::profile::MachineProfile = serde_json::from_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/profiles/seed-4090-32g.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let a = crate::advisor::assess(&profile);
        let b = a.bandwidth.as_ref().expect("bandwidth");
        for lang in Lang::ALL {
            let rows = crate::present::bandwidth::memory_rows(lang, b);
            let text = assessment(lang, &a, None);
            let widest = rows.iter().map(|(l, _)| l.width()).max().unwrap();
            let mut columns = Vec::new();
            for (label, value) in &rows {
                let line = text
                    .lines()
                    .find(|l| l.starts_with(&format!("  {label}")) && l.ends_with(value.as_str()))
                    .unwrap_or_else(|| panic!("{label}: no line in\n{text}"));
                let gap = &line[2 + label.len()..line.len() - value.len()];
                assert!(gap.chars().all(|c| c == ' ') && gap.len() >= 2, "{line:?}");
                columns.push(2 + label.width() + gap.len());
            }
            assert!(columns.iter().all(|c| *c == columns[0]), "{columns:?}");
            assert!(columns[0] >= 2 + widest + 2, "{columns:?}");
        }
    }
}
