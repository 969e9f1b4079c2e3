//! Languages and message lookup.
//!
//! The texts live in `locales/en/*.toml` and `locales/zh-CN/*.toml` (one file per feature); `build.rs`
//! checks that both languages have the same keys and placeholders and generates [`Msg`]. The language
//! is always passed explicitly (no process-wide global), so tests can run in parallel.

use serde::{Deserialize, Serialize};

include!(concat!(env!("OUT_DIR"), "/messages.rs"));

/// A user interface language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Lang {
    /// English.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese (`zh-CN`).
    #[serde(rename = "zh")]
    Zh,
}

impl Lang {
    /// Both languages, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// Short code used on the command line and in settings: `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language's own name, for a language switch ("English", "中文").
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "中文",
        }
    }

    /// Parses a code or a BCP 47 tag: `en`, `en-US`, `zh`, `zh-CN`, `zh_CN.UTF-8`, `zh-Hans`.
    /// Returns `None` for any other language.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let lower = tag.trim().to_ascii_lowercase();
        let primary = lower.split(['-', '_', '.', '@']).next().unwrap_or("");
        match primary {
            "en" | "c" | "posix" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// `RAMVRAM_LANG`, when set to a known tag: overrides saved settings and the system.
    pub fn from_override() -> Option<Lang> {
        std::env::var("RAMVRAM_LANG")
            .ok()
            .and_then(|v| Lang::from_tag(&v))
    }

    /// The value of `RAMVRAM_LANG` when it is set but names no language of ours (e.g. `fr`), so
    /// that the caller can say the setting was ignored.
    pub fn unknown_override() -> Option<String> {
        std::env::var("RAMVRAM_LANG")
            .ok()
            .filter(|v| !v.trim().is_empty() && Lang::from_tag(v).is_none())
    }

    /// The system locale's language (via `sys-locale`), when it is one of ours.
    pub fn from_system() -> Option<Lang> {
        sys_locale::get_locale().and_then(|t| Lang::from_tag(&t))
    }

    /// The language to start with: `RAMVRAM_LANG` if set to a known tag, else the system locale,
    /// else English.
    pub fn from_environment() -> Lang {
        Lang::from_override()
            .or_else(Lang::from_system)
            .unwrap_or_default()
    }
}

impl Msg {
    /// The message whose key is `key` (`"clihelp.ui.usage"`), if there is one: for texts looked
    /// up by a name built at run time, such as a command-line flag's help.
    pub fn from_key(key: &str) -> Option<Msg> {
        KEYS.binary_search(&key).ok().map(|i| Msg::ALL[i])
    }
}

/// The text of `msg` in `lang`, with placeholders left as written.
pub fn tr(lang: Lang, msg: Msg) -> &'static str {
    match lang {
        Lang::En => EN[msg as usize],
        Lang::Zh => ZH[msg as usize],
    }
}

/// The text of `msg` in `lang` with each `{name}` replaced by its value from `args`.
///
/// A placeholder written `{name:one|other}` (English counts) becomes the value, a space, and
/// `one` when the value is 1, else `other`: `{gpus:GPU|GPUs}` gives "1 GPU" and "8 GPUs".
/// Chinese needs no plural and writes `{gpus} 块 GPU`; both languages name the same
/// placeholders (`build.rs` compares the names before any `:`).
///
/// A placeholder with no value in `args` is left as `{name}` so that a mistake shows rather than
/// disappearing; `tests/i18n.rs` checks the call sites' argument names against the locale files.
pub fn trf(lang: Lang, msg: Msg, args: &[(&str, &str)]) -> String {
    let template = tr(lang, msg);
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                let inner = &after[..end];
                let (name, forms) = match inner.split_once(':') {
                    Some((name, forms)) => (name, forms.split_once('|')),
                    None => (inner, None),
                };
                match args.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => {
                        out.push_str(v);
                        if let Some((one, other)) = forms {
                            out.push(' ');
                            out.push_str(if is_one(v) { one } else { other });
                        }
                    }
                    None => {
                        out.push('{');
                        out.push_str(inner);
                        out.push('}');
                    }
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether a formatted count is exactly one ("1", "1.0"), for English plurals.
fn is_one(value: &str) -> bool {
    value.trim().parse::<f64>().is_ok_and(|n| n == 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_parse() {
        assert_eq!(Lang::from_tag("zh_CN.UTF-8"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("zh-Hans-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("en-GB"), Some(Lang::En));
        assert_eq!(Lang::from_tag("C.UTF-8"), Some(Lang::En));
        assert_eq!(Lang::from_tag("de-DE"), None);
    }

    #[test]
    fn messages_are_found_by_key() {
        assert_eq!(Msg::from_key("common.unknown"), Some(Msg::CommonUnknown));
        assert_eq!(Msg::from_key("no.such.key"), None);
        for m in Msg::ALL {
            assert_eq!(Msg::from_key(m.key()), Some(m));
        }
    }

    #[test]
    fn english_counts_take_the_singular_only_for_one() {
        let m = Msg::TrainGpusNodes;
        let one = trf(Lang::En, m, &[("gpus", "1"), ("nodes", "1")]);
        assert_eq!(one, "1 GPU × 1 node");
        let many = trf(Lang::En, m, &[("gpus", "8"), ("nodes", "2")]);
        assert_eq!(many, "8 GPUs × 2 nodes");
        assert_eq!(
            trf(Lang::Zh, m, &[("gpus", "8"), ("nodes", "2")]),
            "8 块 GPU × 2 个节点"
        );
        assert_eq!(m.placeholders(), ["gpus", "nodes"]);
    }

    #[test]
    fn numbers_and_units_never_part() {
        // build.rs joins "64 MB", "{size} GiB" with a no-break space; no message keeps a plain
        // space between a digit or a placeholder and a unit.
        for msg in Msg::ALL {
            for lang in Lang::ALL {
                let text = tr(lang, msg);
                for unit in [" GiB", " MiB", " KiB", " GB", " MB", " GB/s", " MT/s", " %"] {
                    for (i, _) in text.match_indices(unit) {
                        let before = text[..i].chars().last();
                        assert!(
                            !before.is_some_and(|c| c.is_ascii_digit() || c == '}'),
                            "{} ({lang:?}) breaks before {unit}: {text}",
                            msg.key()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_message_is_non_empty_in_both_languages() {
        for msg in Msg::ALL {
            for lang in Lang::ALL {
                assert!(
                    !tr(lang, msg).trim().is_empty(),
                    "{} empty in {lang:?}",
                    msg.key()
                );
            }
        }
    }

    #[test]
    fn chinese_differs_from_english_where_it_has_words() {
        // A Chinese entry that is byte-for-byte the English one was probably never translated.
        // Entries made only of symbols, numbers, units or proper names may legitimately agree.
        let untranslated: Vec<&str> = Msg::ALL
            .iter()
            .filter(|m| {
                let en = tr(Lang::En, **m);
                en == tr(Lang::Zh, **m)
                    && en
                        .split_whitespace()
                        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase()))
                        .count()
                        >= 2
            })
            .map(|m| m.key())
            .collect();
        assert!(untranslated.is_empty(), "untranslated: {untranslated:?}");
    }
}
