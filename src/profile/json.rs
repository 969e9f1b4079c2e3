//! Reading JSON documents the way every format of ramvram does (profiles, scenarios, trace
//! lines): a leading byte-order mark is skipped, unknown fields are collected rather than fatal,
//! a type error names its field, and an integral number written with a fraction
//! (`536870912.0`) is accepted where a count or byte field wants an integer.
//!
//! JSON has one number type, and Python's `json` and Prometheus write floats; a value that is
//! not integral (`1.5` bytes) stays an error that names the field.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Integers a float holds exactly: |x| ≤ 2^53 (IEEE 754 binary64 has a 53-bit significand), so
/// the integer read is the one written.
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;

/// `text` without one leading UTF-8 byte-order mark (U+FEFF), as Windows editors write it.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Parses `text` as `T`: the value and the JSON paths of the fields `T` does not know, or the
/// path where parsing failed (`.` for the document) and serde's error.
///
/// # Errors
/// The path (`memory.total_bytes`, `gpus[0].index`) and the `serde_json` error: of the text as
/// written, so that the error keeps its line and column.
pub fn from_json<T: DeserializeOwned>(
    text: &str,
) -> Result<(T, Vec<String>), (String, serde_json::Error)> {
    let text = without_bom(text);
    let strict_error = match strict::<T>(text) {
        Ok(done) => return Ok(done),
        Err(e) => e,
    };
    if strict_error.1.classify() != serde_json::error::Category::Data {
        return Err(strict_error);
    }
    // Only a data error can come from an integral float in an integer field: try again with
    // those written as integers.
    let Ok(mut value) = serde_json::from_str::<Value>(text) else {
        return Err(strict_error);
    };
    if !integral_floats_as_integers(&mut value) {
        return Err(strict_error);
    }
    let mut ignored = Vec::new();
    let result = {
        let mut record = |p: serde_ignored::Path<'_>| ignored.push(p.to_string());
        serde_path_to_error::deserialize(serde_ignored::Deserializer::new(value, &mut record))
    };
    match result {
        Ok(v) => Ok((v, ignored)),
        Err(_) => Err(strict_error),
    }
}

fn strict<T: DeserializeOwned>(
    text: &str,
) -> Result<(T, Vec<String>), (String, serde_json::Error)> {
    let mut ignored = Vec::new();
    let mut json = serde_json::Deserializer::from_str(text);
    let value = {
        let mut record = |p: serde_ignored::Path<'_>| ignored.push(p.to_string());
        let ignoring = serde_ignored::Deserializer::new(&mut json, &mut record);
        serde_path_to_error::deserialize::<_, T>(ignoring)
            .map_err(|e| (e.path().to_string(), e.into_inner()))?
    };
    json.end().map_err(|e| (".".to_string(), e))?;
    Ok((value, ignored))
}

/// Rewrites every float in `value` that is an exact integer (`536870912.0`, `-3.0`) as that
/// integer; true when one was rewritten. A float field reads an integer just as well, so only
/// integer fields see a difference.
fn integral_floats_as_integers(value: &mut Value) -> bool {
    match value {
        Value::Number(n) if n.is_f64() => {
            let Some(x) = n.as_f64() else { return false };
            if x.fract() != 0.0 || x.abs() > EXACT_INTEGER_LIMIT {
                return false;
            }
            // In range and integral: the casts are exact.
            *value = if x >= 0.0 {
                Value::from(x as u64)
            } else {
                Value::from(x as i64)
            };
            true
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| integral_floats_as_integers(v) | changed),
        Value::Object(map) => map
            .values_mut()
            .fold(false, |changed, v| integral_floats_as_integers(v) | changed),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Doc {
        bytes: u64,
        ratio: f64,
        #[serde(default)]
        list: Vec<i32>,
    }

    #[test]
    fn integral_floats_fill_integer_fields_and_fractions_are_named() {
        // 2^29 = 536,870,912; -3.0 = -3; the float field keeps 2.0 as 2.0.
        let (d, ignored) =
            from_json::<Doc>(r#"{"bytes": 536870912.0, "ratio": 2.0, "list": [-3.0, 4], "x": 1}"#)
                .unwrap();
        assert_eq!(
            d,
            Doc {
                bytes: 536_870_912,
                ratio: 2.0,
                list: vec![-3, 4]
            }
        );
        assert_eq!(ignored, ["x"]);
        let (at, e) = from_json::<Doc>(r#"{"bytes": 1.5, "ratio": 1}"#).unwrap_err();
        assert_eq!(at, "bytes");
        assert!(e.to_string().contains("floating point `1.5`"), "{e}");
        assert_eq!(
            e.line(),
            1,
            "the error of the text as written keeps its place"
        );
        // Beyond 2^53 a float no longer says which integer was meant: refused.
        let (at, _) =
            from_json::<Doc>(r#"{"bytes": 18014398509481985.0, "ratio": 1}"#).unwrap_err();
        assert_eq!(at, "bytes");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let (d, _) = from_json::<Doc>("\u{feff}{\"bytes\": 1, \"ratio\": 0.5}").unwrap();
        assert_eq!(d.bytes, 1);
        assert_eq!(
            without_bom("\u{feff}\u{feff}x"),
            "\u{feff}x",
            "one mark only"
        );
    }
}
