//! Parsing quantities typed by a user: parameter counts (`7B`), sizes (`2TB`, `64GiB`),
//! resolutions (`3840x2160`). A value that can't be read gives a [`ValueError`]: English when
//! displayed (what clap prints after "invalid value"), any language through [`ValueError::text`].

use std::fmt;

use crate::i18n::{Lang, Msg, trf};

/// Why a typed value was refused: a message from `locales/*/usage.toml` (`value.*`) and its
/// placeholders, worded when shown. `Display` gives the English text; the command line's
/// Chinese usage errors find it behind clap's error (`source()`) and word it in Chinese.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    msg: Msg,
    args: Vec<(&'static str, String)>,
    /// A placeholder filled with a list, joined as the language joins lists.
    list: Option<(&'static str, Vec<String>)>,
    /// The `{reason}` placeholder, itself a message (why a file named as a value was refused).
    reason: Option<Box<ValueError>>,
    /// Placeholders worded before, in English and in Chinese (a parser's words reworded).
    worded: Vec<(&'static str, [String; 2])>,
}

impl ValueError {
    /// `msg` with its `{value}` placeholder set to `value` (the text as typed).
    pub fn new(msg: Msg, value: &str) -> Self {
        Self {
            msg,
            args: vec![("value", value.to_string())],
            list: None,
            reason: None,
            worded: Vec::new(),
        }
    }

    /// Also fills the placeholder `reason` with `reason`'s text, in the same language.
    pub fn with_reason(mut self, reason: ValueError) -> Self {
        self.reason = Some(Box::new(reason));
        self
    }

    /// Also fills the placeholder `name` with `value`.
    pub fn with(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.args.push((name, value.into()));
        self
    }

    /// Also fills the placeholder `name` with `en` in English and `zh` in Chinese: text worded
    /// in each language before (by `present`, which this module can't call).
    pub fn with_worded(mut self, name: &'static str, en: String, zh: String) -> Self {
        self.worded.push((name, [en, zh]));
        self
    }

    /// Also fills the placeholder `name` with `items`, joined by ", " in English and "、" in
    /// Chinese.
    pub fn with_list(mut self, name: &'static str, items: Vec<String>) -> Self {
        self.list = Some((name, items));
        self
    }

    /// The message in `lang`, code spans still marked with backticks.
    pub fn text(&self, lang: Lang) -> String {
        let list = self.list.as_ref().map(|(name, items)| {
            let sep = match lang {
                Lang::En => ", ",
                Lang::Zh => "、",
            };
            (*name, items.join(sep))
        });
        let reason = self.reason.as_ref().map(|r| r.text(lang));
        let args: Vec<(&str, &str)> = self
            .args
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .chain(list.as_ref().map(|(k, v)| (*k, v.as_str())))
            .chain(reason.as_deref().map(|r| ("reason", r)))
            .chain(self.worded.iter().map(|(k, [en, zh])| {
                let text = match lang {
                    Lang::En => en,
                    Lang::Zh => zh,
                };
                (*k, text.as_str())
            }))
            .collect();
        trf(lang, self.msg, &args)
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for ValueError {}

/// Parses a count with an optional SI suffix: `K` = 10^3, `M` = 10^6, `B` or `G` = 10^9,
/// `T` = 10^12 (case-insensitive; `7B`, `6.74b`, `350M`, `131M`, `2851000000`). Underscores and
/// commas between digits are ignored.
///
/// # Errors
/// What is wrong: empty, not a number, negative, zero, or too large for u64.
pub fn parse_count(text: &str) -> Result<u64, ValueError> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| *c != '_' && *c != ',')
        .collect();
    if cleaned.is_empty() {
        return Err(ValueError::new(Msg::ValueEmpty, text));
    }
    let (number, scale) = match cleaned.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&cleaned[..cleaned.len() - 1], 1e3),
        Some('M') => (&cleaned[..cleaned.len() - 1], 1e6),
        Some('B') | Some('G') => (&cleaned[..cleaned.len() - 1], 1e9),
        Some('T') => (&cleaned[..cleaned.len() - 1], 1e12),
        _ => (cleaned.as_str(), 1.0),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| ValueError::new(Msg::ValueCountNotNumber, text))?;
    if !value.is_finite() || value < 0.0 {
        return Err(ValueError::new(Msg::ValueCountNotPositive, text));
    }
    let total = (value * scale).round();
    if total < 1.0 {
        return Err(ValueError::new(Msg::ValueCountBelowOne, text));
    }
    if total >= u64::MAX as f64 {
        return Err(ValueError::new(Msg::ValueTooLarge, text));
    }
    Ok(total as u64)
}

/// Parses a size in bytes: `2TB`, `500GB`, `64GiB`, `1.5TiB`, `4096`. Decimal units (KB, MB,
/// GB, TB, PB = 10^3…10^15) as disks and datasets are sold; binary units (KiB … PiB) as memory
/// is. Case-insensitive; a bare number is bytes.
///
/// # Errors
/// What is wrong: not a number, an unknown unit, under one byte, or too large for u64.
pub fn parse_size(text: &str) -> Result<u64, ValueError> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| ValueError::new(Msg::ValueSizeNotSize, text))?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" | "k" => 1e3,
        "mb" | "m" => 1e6,
        "gb" | "g" => 1e9,
        "tb" | "t" => 1e12,
        "pb" | "p" => 1e15,
        "kib" => 1024.0,
        "mib" => 1024f64.powi(2),
        "gib" => 1024f64.powi(3),
        "tib" => 1024f64.powi(4),
        "pib" => 1024f64.powi(5),
        other => {
            return Err(ValueError::new(Msg::ValueSizeUnknownUnit, text).with("unit", other));
        }
    };
    let bytes = value * scale;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(ValueError::new(Msg::ValueSizeBelowOneByte, text));
    }
    if bytes >= u64::MAX as f64 {
        return Err(ValueError::new(Msg::ValueTooLarge, text));
    }
    Ok(bytes.round() as u64)
}

/// Parses `WIDTHxHEIGHT` (`3840x2160`, `224×224`).
///
/// # Errors
/// What is wrong: not `WIDTHxHEIGHT`, or a side outside 1–65536.
pub fn parse_resolution(text: &str) -> Result<(u32, u32), ValueError> {
    let t = text.trim().replace('×', "x");
    let (w, h) = t
        .split_once(['x', 'X'])
        .ok_or_else(|| ValueError::new(Msg::ValueResolutionShape, text))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| *v > 0 && *v <= 65_536)
    };
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(ValueError::new(Msg::ValueResolutionRange, text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("7B"), Ok(7_000_000_000));
        assert_eq!(parse_count("350M"), Ok(350_000_000));
        assert_eq!(parse_count("131m"), Ok(131_000_000));
        assert_eq!(parse_count("2.851B"), Ok(2_851_000_000));
        assert_eq!(parse_count("6_738_415_616"), Ok(6_738_415_616));
        assert_eq!(parse_count("1.5K"), Ok(1500));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("2TB"), Ok(2_000_000_000_000));
        assert_eq!(parse_size("64GiB"), Ok(64 << 30));
        assert_eq!(parse_size("1.5 tib"), Ok(3 << 39));
        assert_eq!(parse_size("4096"), Ok(4096));
        for bad in ["", "-1GB", "2XB", "0", "1e40TB", "GB"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_resolution("3840x2160"), Ok((3840, 2160)));
        assert_eq!(parse_resolution("224×224"), Ok((224, 224)));
        assert!(parse_resolution("0x10").is_err() && parse_resolution("big").is_err());
    }

    #[test]
    fn bad_counts() {
        for bad in ["", "abc", "-7B", "0", "0.0001", "1e30T", "NaN", "7X"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }

    /// The English reasons are the texts clap printed before they moved to the locales; the
    /// Chinese ones name the same value.
    #[test]
    fn reasons_in_both_languages() {
        let e = parse_count("abc").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`abc` is not a number (examples: 7B, 350M, 2851000000)"
        );
        assert_eq!(
            e.text(Lang::Zh),
            "`abc` 不是数字（可以写 7B、350M 或 2851000000）"
        );
        let e = parse_size("2XB").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`2XB`: unknown unit `xb` (use KB, MB, GB, TB or KiB … TiB)"
        );
        assert!(e.text(Lang::Zh).contains("`2XB` 的单位 `xb` 认不出来"));
        assert_eq!(
            parse_resolution("0x10").unwrap_err().to_string(),
            "`0x10`: width and height must be 1–65536 pixels"
        );
        let list = ValueError::new(Msg::ValueUnknownPreset, "x")
            .with_list("ids", vec!["a".into(), "b".into()]);
        assert_eq!(list.to_string(), "unknown preset `x`; one of: a, b");
        assert_eq!(list.text(Lang::Zh), "没有叫 `x` 的模型预设，可选：a、b");
    }
}
