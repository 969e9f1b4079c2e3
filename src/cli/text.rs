//! What `detect` and `advise` print: the machine document's sections
//! ([`crate::present::document::machine`]) drawn by the terminal renderer
//! ([`crate::report::terminal`]). The sections, their titles and their order are the report's.

use std::path::Path;

use crate::advisor::Assessment;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::document::{Section, machine};
use crate::report::terminal;

/// The hardware summary (`ramvram detect`): the document's hardware section, with the notes
/// on what detection could not read, laid out for [`terminal::WIDTH`] columns.
pub fn hardware(lang: Lang, a: &Assessment) -> String {
    hardware_at(lang, a, terminal::WIDTH)
}

/// [`hardware`] laid out for a terminal `width` columns wide ([`terminal::width_for`]).
pub fn hardware_at(lang: Lang, a: &Assessment, width: usize) -> String {
    terminal::render_width(&machine::section(Section::Hardware, lang, a), width)
}

/// The full assessment (`ramvram advise`): a line naming the profile, then the machine
/// document's sections and appendix ([`machine::body`]), laid out for [`terminal::WIDTH`].
pub fn assessment(lang: Lang, a: &Assessment, profile_path: Option<&Path>) -> String {
    assessment_at(lang, a, profile_path, terminal::WIDTH)
}

/// [`assessment`] laid out for a terminal `width` columns wide ([`terminal::width_for`]).
pub fn assessment_at(
    lang: Lang,
    a: &Assessment,
    profile_path: Option<&Path>,
    width: usize,
) -> String {
    let source = match profile_path {
        Some(p) => trf(lang, Msg::SourceFile, &[("file", &p.display().to_string())]),
        None => tr(lang, Msg::SourceDetected).to_string(),
    };
    let title = trf(
        lang,
        Msg::JoinTitleSource,
        &[
            ("title", tr(lang, Msg::CommonAppTitle)),
            ("source", &source),
        ],
    );
    let mut out = String::new();
    terminal::wrap_hanging(&mut out, "", "  ", &title, width);
    out.push_str(&terminal::render_width(&machine::body(lang, a), width));
    out
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
