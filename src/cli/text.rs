//! Plain-text rendering of a profile and an assessment for the terminal.

use std::fmt::Write as _;
use std::path::Path;

use super::layout::{label_width, pad, section, wrap, wrap_hanging};

use crate::advisor::Assessment;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;
use crate::present::document::{self, Section};
use crate::report::terminal;

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

    // The ratio (gauge, then its rows) and the rules' table: the report's sections, drawn for
    // the terminal.
    let doc = |s: Section| terminal::render(&document::machine::section(s, lang, a));
    out.push_str(&doc(Section::Ratio));
    out.push_str(&doc(Section::Rules));
    let _ = writeln!(out, "\n  {}", tr(lang, Msg::RulesSources));
    for source in present::names::rule_sources(lang, &a.rules) {
        wrap_hanging(&mut out, "  · ", "    ", source);
    }

    if let Some(b) = &a.bandwidth {
        bandwidth(&mut out, lang, b);
    }

    out.push_str(&doc(Section::Findings));
    let purchase = present::purchase::section_lines(lang, a);
    if !purchase.is_empty() {
        section(&mut out, tr(lang, Msg::PurchaseSection));
        for line in purchase {
            wrap_hanging(&mut out, "  ", "    ", &line);
        }
    }
    // The plans: the report's sections, drawn for the terminal (each empty when not set up).
    out.push_str(&doc(Section::Workload));
    out.push_str(&doc(Section::Training));
    out.push_str(&doc(Section::Inference));
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
fn bandwidth(out: &mut String, lang: Lang, b: &crate::advisor::bandwidth::Bandwidth) {
    use crate::present::bandwidth as words;
    section(out, tr(lang, Msg::BwTab));
    wrap(out, "  ", &words::pipeline_sentence(lang, &b.pipeline));
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
        let a = crate::advisor::assess(&profile, &crate::advisor::Scenario::NONE);
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
