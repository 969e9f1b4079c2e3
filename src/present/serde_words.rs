//! serde's words for a JSON value that doesn't fit its field ("invalid type: string \"abc\",
//! expected u64 at line 1 column 25"), in the user's language. English shows serde's message
//! as it is; Chinese rewords the kinds serde and serde_json write (invalid type or value,
//! invalid length, unknown variant or field, duplicate field) from their stable wording
//! (`serde_core::de::Error`'s provided methods, serde_json's `at line L column C`), and keeps
//! any other message as it is. A string found in the file, and the name of an unknown
//! variant, are never quoted: the file may be one the user could not read (a link to a
//! root-only file, read by ramvram running as root), and its strings are not theirs to see.

use crate::i18n::{Lang, Msg, tr, trf};

/// `words`, a serde_json syntax error's message ("trailing comma at line 1 column 22"), in
/// `lang`: English as serde_json writes it; in Chinese the kinds serde_json's `ErrorCode`
/// writes, with the place, and any other message as it is.
pub fn syntax_words(lang: Lang, words: &str) -> String {
    if lang == Lang::En {
        return words.to_string();
    }
    let (body, at) = split_place(lang, words);
    let msg = match body {
        "trailing comma" => Msg::ErrorJsonTrailingComma,
        "trailing characters" => Msg::ErrorJsonTrailingCharacters,
        "expected value" => Msg::ErrorJsonExpectedValue,
        "expected `,` or `}`" => Msg::ErrorJsonExpectedCommaObject,
        "expected `,` or `]`" => Msg::ErrorJsonExpectedCommaArray,
        "expected `:`" => Msg::ErrorJsonExpectedColon,
        "key must be a string" => Msg::ErrorJsonKeyString,
        "invalid number" => Msg::ErrorJsonInvalidNumber,
        "number out of range" => Msg::ErrorJsonNumberRange,
        "invalid escape" => Msg::ErrorJsonInvalidEscape,
        "recursion limit exceeded" => Msg::ErrorJsonRecursion,
        "expected ident" => Msg::ErrorJsonExpectedIdent,
        b if b.starts_with("control character") => Msg::ErrorJsonControlCharacter,
        _ => return words.to_string(),
    };
    format!("{}{at}", tr(lang, msg))
}

/// `words` without serde_json's " at line L column C", and that place in `lang`'s words
/// (empty without one).
fn split_place(lang: Lang, words: &str) -> (&str, String) {
    match words.rfind(" at line ") {
        Some(i) => match words[i + " at line ".len()..].split_once(" column ") {
            Some((line, column)) => (
                &words[..i],
                trf(
                    lang,
                    Msg::ErrorSerdeAt,
                    &[("line", line), ("column", column)],
                ),
            ),
            None => (words, String::new()),
        },
        None => (words, String::new()),
    }
}

/// `words`, a serde_json data error's message, in `lang`: the kinds serde writes reworded with
/// the expected type in plain words ("expected an unsigned integer", not "expected u64") in
/// both languages; any other message as it is.
pub fn data_words(lang: Lang, words: &str) -> String {
    reworded(lang, words).unwrap_or_else(|| words.to_string())
}

fn reworded(lang: Lang, words: &str) -> Option<String> {
    let (body, at) = split_place(lang, words);
    let at = at.as_str();
    for (prefix, msg) in [
        ("invalid type: ", Msg::ErrorSerdeInvalidType),
        ("invalid value: ", Msg::ErrorSerdeInvalidValue),
    ] {
        if let Some(rest) = body.strip_prefix(prefix) {
            let (found, expected) = rest.rsplit_once(", expected ")?;
            return Some(trf(
                lang,
                msg,
                &[
                    ("found", &found_words(lang, found)),
                    ("expected", &expected_words(lang, expected)),
                    ("at", at),
                ],
            ));
        }
    }
    if let Some(rest) = body.strip_prefix("invalid length ") {
        let (length, expected) = rest.split_once(", expected ")?;
        return Some(trf(
            lang,
            Msg::ErrorSerdeInvalidLength,
            &[
                ("length", length),
                ("expected", &expected_words(lang, expected)),
                ("at", at),
            ],
        ));
    }
    for (prefix, with_list, without) in [
        (
            "unknown variant `",
            Msg::ErrorSerdeUnknownVariant,
            Msg::ErrorSerdeNoVariants,
        ),
        (
            "unknown field `",
            Msg::ErrorSerdeUnknownField,
            Msg::ErrorSerdeNoFields,
        ),
    ] {
        if let Some(rest) = body.strip_prefix(prefix) {
            let (name, tail) = rest.split_once("`, ")?;
            if tail.starts_with("there are no") {
                return Some(trf(lang, without, &[("name", name), ("at", at)]));
            }
            let expected = expected_words(lang, tail.strip_prefix("expected ")?);
            return Some(trf(
                lang,
                with_list,
                &[("name", name), ("expected", &expected), ("at", at)],
            ));
        }
    }
    let name = body.strip_prefix("duplicate field `")?.strip_suffix('`')?;
    Some(trf(
        lang,
        Msg::ErrorSerdeDuplicateField,
        &[("name", name), ("at", at)],
    ))
}

/// What was found ("a string", "integer `5`", "map"), with a number's or boolean's value as a
/// code span; a string's value is never shown.
fn found_words(lang: Lang, found: &str) -> String {
    if found.starts_with("string ") {
        return tr(lang, Msg::ErrorSerdeFoundString).to_string();
    }
    let ticked = |s: &str| {
        s.strip_prefix('`')
            .and_then(|v| v.strip_suffix('`'))
            .map(|v| format!("`{v}`"))
    };
    let valued = [
        ("integer ", Msg::ErrorSerdeFoundInteger),
        ("floating point ", Msg::ErrorSerdeFoundFloat),
        ("boolean ", Msg::ErrorSerdeFoundBoolean),
    ];
    for (prefix, msg) in valued {
        if let Some(value) = found.strip_prefix(prefix) {
            let value = ticked(value).unwrap_or_else(|| format!("`{value}`"));
            return trf(lang, msg, &[("value", &value)]);
        }
    }
    match found {
        "null" => "`null`".to_string(),
        "number" => tr(lang, Msg::ErrorSerdeFoundNumber).to_string(),
        "map" => tr(lang, Msg::ErrorSerdeFoundMap).to_string(),
        "sequence" => tr(lang, Msg::ErrorSerdeFoundSequence).to_string(),
        other => format!("`{other}`"),
    }
}

/// What was expected: a type serde names ("u64", "a string", "struct Cpu"), or the names a
/// variant or field could have ("one of `a`, `b`", "`a` or `b`").
fn expected_words(lang: Lang, expected: &str) -> String {
    let msg = match expected {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => Some(Msg::ErrorSerdeUnsigned),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => Some(Msg::ErrorSerdeInteger),
        "f32" | "f64" => Some(Msg::ErrorSerdeNumber),
        "a string" | "a borrowed string" | "a character" | "path string" => {
            Some(Msg::ErrorSerdeString)
        }
        "a boolean" => Some(Msg::ErrorSerdeBoolean),
        "a sequence" => Some(Msg::ErrorSerdeSequence),
        "a map" => Some(Msg::ErrorSerdeObject),
        "fewer elements in array" | "fewer elements in map" => Some(Msg::ErrorSerdeFewerElements),
        e if e.starts_with("struct ") => Some(Msg::ErrorSerdeObject),
        e if e.starts_with("a nonzero ") => Some(Msg::ErrorSerdeNonzero),
        _ => None,
    };
    if let Some(msg) = msg {
        return tr(lang, msg).to_string();
    }
    let count = ["a tuple of size ", "an array of length ", "tuple struct "]
        .iter()
        .find_map(|p| expected.strip_prefix(p))
        .filter(|n| n.chars().all(|c| c.is_ascii_digit()));
    if let Some(count) = count {
        return trf(lang, Msg::ErrorSerdeElements, &[("count", count)]);
    }
    // A list of names: each between backticks.
    let names: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    if !names.is_empty() {
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        return super::join(lang, &quoted);
    }
    format!("`{expected}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message serde_json gives for `json` read as `T`.
    fn words<T: serde::de::DeserializeOwned + std::fmt::Debug>(json: &str) -> String {
        serde_json::from_str::<T>(json).unwrap_err().to_string()
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Cpu {
        cores: u32,
        kind: Kind,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        Desktop,
        Server,
        Laptop,
    }

    #[test]
    fn serde_words_in_chinese() {
        let cases = [
            (
                words::<Cpu>(r#"{"cores": "abc", "kind": "server"}"#),
                "类型不对：这里要非负整数，写的却是字符串（第 1 行第 15 列）",
            ),
            (
                words::<Cpu>(r#"{"cores": -1, "kind": "server"}"#),
                "取值不对：这里要非负整数，写的却是整数 `-1`（第 1 行第 12 列）",
            ),
            (
                words::<Cpu>(r#"{"cores": 8, "kind": "tower"}"#),
                "不认识写的这个值，可选：`desktop`、`server`、`laptop`（第 1 行第 28 列）",
            ),
            (
                words::<Cpu>(r#"{"cores": 8, "kind": "server", "ram": 1}"#),
                "没有 `ram` 这个字段，可用的字段：`cores`、`kind`（第 1 行第 36 列）",
            ),
            (
                words::<Cpu>(r#"{"cores": 8, "cores": 8}"#),
                "字段 `cores` 写了不止一次（第 1 行第 20 列）",
            ),
            (
                words::<(u8, u8)>("[1]"),
                "元素个数不对：这里要有 2 个元素的数组，写了 1 个（第 1 行第 3 列）",
            ),
            (
                words::<Vec<u8>>(r#"{"a": 1}"#),
                "类型不对：这里要数组，写的却是对象（第 1 行第 0 列）",
            ),
        ];
        for (english, chinese) in cases {
            assert_eq!(data_words(Lang::Zh, &english), chinese, "{english}");
            // English keeps serde's kind of message, with the expected type in plain words.
            let en = data_words(Lang::En, &english);
            let kind = |s: &str| {
                s.split([':', ',', '`'])
                    .next()
                    .map(|k| k.trim().to_string())
            };
            assert_eq!(kind(&en), kind(&english), "{en}");
            for jargon in ["expected u", "expected i", "expected f", "struct "] {
                assert!(!en.contains(jargon), "{en}");
            }
        }
        // The string values written in the file ("abc", "tower") are shown in neither language.
        for english in [
            words::<Cpu>(r#"{"cores": "abc", "kind": "server"}"#),
            words::<Cpu>(r#"{"cores": 8, "kind": "tower"}"#),
        ] {
            for lang in [Lang::En, Lang::Zh] {
                let text = data_words(lang, &english);
                assert!(!text.contains("abc") && !text.contains("tower"), "{text}");
            }
        }
        // Words it doesn't know stay as they are.
        assert_eq!(data_words(Lang::Zh, "something else"), "something else");
    }
}
