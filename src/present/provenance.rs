//! Where a figure came from, in words: the one wording of [`Provenance`] that the window, the
//! terminal and the reports all use ("25.6 GB/s (estimated)"). Phrases that say more than the
//! provenance (which folder was measured, what kind of storage is typical, that a channel
//! count came from slot names) are built on top of [`word`] by their own pages.

use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::Provenance;

/// The word for `p` in `lang`: "measured", "detected", "read from a file", "entered",
/// "estimated", "typical, an assumption", "the default, an assumption", "unknown" (English);
/// the `provenance` keys of `locales/*/words.toml`.
pub fn word(lang: Lang, p: Provenance) -> &'static str {
    tr(
        lang,
        match p {
            Provenance::Measured => Msg::ProvenanceMeasured,
            Provenance::Detected => Msg::ProvenanceDetected,
            Provenance::FromFile => Msg::ProvenanceFromFile,
            Provenance::Entered => Msg::ProvenanceEntered,
            Provenance::Estimated => Msg::ProvenanceEstimated,
            Provenance::Typical => Msg::ProvenanceTypical,
            Provenance::Default => Msg::ProvenanceDefault,
            Provenance::Unknown => Msg::ProvenanceUnknown,
        },
    )
}

/// The word for a theoretical peak (memory channels × speed, PCIe generation × width), said
/// instead of its provenance where the kind of figure matters more: "theoretical" / "理论值".
pub fn theoretical(lang: Lang) -> &'static str {
    tr(lang, Msg::ProvenanceTheoretical)
}

/// `value` followed by where it came from: "25.6 GB/s (estimated)"; `value` alone when the
/// provenance isn't known.
pub fn with_word(lang: Lang, value: String, p: Option<Provenance>) -> String {
    match p {
        Some(p) => aside(lang, value, word(lang, p)),
        None => value,
    }
}

/// `value` followed by `note` in parentheses, in `lang`'s punctuation: "25.6 GB/s (estimated
/// from slot names)".
pub fn aside(lang: Lang, value: String, note: &str) -> String {
    trf(
        lang,
        Msg::BwWithSource,
        &[("value", &value), ("source", note)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provenance_has_its_own_word_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            let words: std::collections::BTreeSet<&str> =
                Provenance::ALL.iter().map(|p| word(lang, *p)).collect();
            assert_eq!(words.len(), Provenance::ALL.len(), "{lang:?}: {words:?}");
        }
        assert_eq!(word(Lang::En, Provenance::Estimated), "estimated");
        assert_eq!(word(Lang::Zh, Provenance::Entered), "手动输入");
        assert_eq!(
            with_word(Lang::En, "25.6 GB/s".into(), Some(Provenance::Detected)),
            "25.6 GB/s (detected)"
        );
        assert_eq!(with_word(Lang::En, "8".into(), None), "8");
    }
}
