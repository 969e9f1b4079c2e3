//! Prometheus HTTP API answers (`/api/v1/query`, `/api/v1/query_range`): the JSON envelope
//! `{"status":"success","data":{"resultType":"matrix","result":[…]}}` or
//! `{"status":"error","errorType":"bad_data","error":"…"}`, read as hostile input.
//!
//! Sample values are strings in the API: a number, or `"NaN"`, `"+Inf"`, `"-Inf"`. Those three
//! are unknown here (`None`): a rate over a counter that reset, a division by zero of a
//! query, a gauge a driver could not read. Anything else that is not a number makes the whole
//! answer malformed.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::PromError;

/// Most series read from one answer: 20,000. Assumption: one node's series (a few per GPU) or
/// one series per node of a large cluster; more means a query matches far more than meant.
pub const MAX_SERIES: usize = 20_000;

/// One series: its labels, and its points as (Unix time in seconds, value); a value that is
/// `NaN` or infinite is `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Labels (`__name__` included when the query keeps it).
    pub labels: BTreeMap<String, String>,
    /// Points, in the server's order (time ascending).
    pub points: Vec<(f64, Option<f64>)>,
}

/// A parsed answer: the series and the server's warnings.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The series (a vector's have one point each).
    pub series: Vec<Series>,
    /// Warnings the server attached (at most 10 kept).
    pub warnings: Vec<String>,
}

#[derive(Deserialize)]
struct Peek {
    status: String,
    #[serde(default)]
    data: Option<PeekData>,
    #[serde(default, rename = "errorType")]
    error_type: Option<String>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Deserialize)]
struct PeekData {
    #[serde(rename = "resultType")]
    result_type: String,
}

#[derive(Deserialize)]
struct Full<T> {
    data: FullData<T>,
    #[serde(default)]
    warnings: Vec<String>,
}

#[derive(Deserialize)]
struct FullData<T> {
    result: Vec<T>,
}

#[derive(Deserialize)]
struct MatrixItem {
    #[serde(default)]
    metric: BTreeMap<String, String>,
    #[serde(default)]
    values: Vec<(f64, String)>,
}

#[derive(Deserialize)]
struct VectorItem {
    #[serde(default)]
    metric: BTreeMap<String, String>,
    value: (f64, String),
}

/// A sample value as the API writes it: a finite number, or `None` for `NaN`, `+Inf`, `-Inf`.
///
/// # Errors
/// Text that is none of these.
pub fn sample_value(text: &str) -> Result<Option<f64>, String> {
    match text {
        "NaN" | "+Inf" | "-Inf" | "Inf" => Ok(None),
        _ => {
            let ok = !text.is_empty()
                && text
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
            match text.parse::<f64>() {
                Ok(v) if ok && v.is_finite() => Ok(Some(v)),
                Ok(_) if ok => Ok(None),
                _ => Err(format!("sample value {:?} is not a number", short(text))),
            }
        }
    }
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Checks the envelope: `Ok(())` for a success whose result type is `expected`.
fn check(bytes: &[u8], expected: &'static str) -> Result<(), PromError> {
    let peek: Peek = serde_json::from_slice(bytes)
        .map_err(|e| PromError::Malformed(format!("not the API's JSON: {e}")))?;
    match peek.status.as_str() {
        "success" => {}
        "error" => {
            return Err(PromError::Api {
                error_type: short_text(peek.error_type.as_deref().unwrap_or("")),
                error: short_text(peek.error.as_deref().unwrap_or("")),
            });
        }
        other => {
            return Err(PromError::Malformed(format!(
                "status {:?} is neither \"success\" nor \"error\"",
                short(other)
            )));
        }
    }
    let found = peek
        .data
        .ok_or_else(|| PromError::Malformed("a success without `data`".into()))?
        .result_type;
    if found != expected {
        return Err(PromError::WrongResultType {
            expected,
            found: short(&found),
        });
    }
    Ok(())
}

/// The server's words, cut to 500 characters.
fn short_text(text: &str) -> String {
    text.chars().take(500).collect()
}

fn series_count(n: usize) -> Result<(), PromError> {
    if n > MAX_SERIES {
        return Err(PromError::Malformed(format!(
            "{n} series, more than the {MAX_SERIES} ramvram reads from one query"
        )));
    }
    Ok(())
}

fn keep_warnings(mut w: Vec<String>) -> Vec<String> {
    w.truncate(10);
    w.into_iter().map(|s| short_text(&s)).collect()
}

/// Parses a `query_range` answer (result type `matrix`).
///
/// # Errors
/// [`PromError::Api`] for an error answer, [`PromError::WrongResultType`],
/// [`PromError::Malformed`] for anything else unexpected.
pub fn parse_matrix(bytes: &[u8]) -> Result<Answer, PromError> {
    check(bytes, "matrix")?;
    let full: Full<MatrixItem> =
        serde_json::from_slice(bytes).map_err(|e| PromError::Malformed(format!("matrix: {e}")))?;
    series_count(full.data.result.len())?;
    let mut series = Vec::with_capacity(full.data.result.len());
    for (i, item) in full.data.result.into_iter().enumerate() {
        let mut points = Vec::with_capacity(item.values.len());
        for (t, v) in item.values {
            let v =
                sample_value(&v).map_err(|e| PromError::Malformed(format!("result[{i}]: {e}")))?;
            if !t.is_finite() {
                return Err(PromError::Malformed(format!(
                    "result[{i}]: a time that is not a number"
                )));
            }
            points.push((t, v));
        }
        series.push(Series {
            labels: item.metric,
            points,
        });
    }
    Ok(Answer {
        series,
        warnings: keep_warnings(full.warnings),
    })
}

/// Parses a `query` answer (result type `vector`): each series with its one point.
///
/// # Errors
/// As [`parse_matrix`].
pub fn parse_vector(bytes: &[u8]) -> Result<Answer, PromError> {
    check(bytes, "vector")?;
    let full: Full<VectorItem> =
        serde_json::from_slice(bytes).map_err(|e| PromError::Malformed(format!("vector: {e}")))?;
    series_count(full.data.result.len())?;
    let mut series = Vec::with_capacity(full.data.result.len());
    for (i, item) in full.data.result.into_iter().enumerate() {
        let (t, v) = item.value;
        let v = sample_value(&v).map_err(|e| PromError::Malformed(format!("result[{i}]: {e}")))?;
        if !t.is_finite() {
            return Err(PromError::Malformed(format!(
                "result[{i}]: a time that is not a number"
            )));
        }
        series.push(Series {
            labels: item.metric,
            points: vec![(t, v)],
        });
    }
    Ok(Answer {
        series,
        warnings: keep_warnings(full.warnings),
    })
}

/// The error inside a non-2xx answer, when it is the API's JSON (Prometheus answers 400, 422
/// and 503 with one).
pub fn api_error(bytes: &[u8]) -> Option<PromError> {
    match check(bytes, "matrix") {
        Err(e @ PromError::Api { .. }) => Some(e),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(result: &str) -> String {
        format!(r#"{{"status":"success","data":{{"resultType":"matrix","result":{result}}}}}"#)
    }

    #[test]
    fn an_error_answer_carries_its_type_and_words() {
        let body = br#"{"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": 1:5: parse error: unexpected \"}\""}"#;
        assert_eq!(
            parse_matrix(body).unwrap_err(),
            PromError::Api {
                error_type: "bad_data".into(),
                error: "invalid parameter \"query\": 1:5: parse error: unexpected \"}\"".into()
            }
        );
        assert!(api_error(body).is_some());
        assert!(api_error(b"<html>502 Bad Gateway</html>").is_none());
    }

    #[test]
    fn an_empty_result_is_no_series() {
        let a = parse_matrix(matrix("[]").as_bytes()).unwrap();
        assert!(a.series.is_empty());
        assert!(a.warnings.is_empty());
    }

    #[test]
    fn nan_and_infinities_are_unknown_and_numbers_are_read() {
        let body = matrix(
            r#"[{"metric":{"instance":"gpu07:9100"},"values":[[1700000000,"1.5"],[1700000015,"NaN"],[1700000030,"+Inf"],[1700000045,"-Inf"],[1700000060,"2e3"]]}]"#,
        );
        let a = parse_matrix(body.as_bytes()).unwrap();
        assert_eq!(a.series.len(), 1);
        assert_eq!(a.series[0].labels["instance"], "gpu07:9100");
        assert_eq!(
            a.series[0].points,
            vec![
                (1_700_000_000.0, Some(1.5)),
                (1_700_000_015.0, None),
                (1_700_000_030.0, None),
                (1_700_000_045.0, None),
                (1_700_000_060.0, Some(2000.0)),
            ]
        );
    }

    #[test]
    fn several_gpus_come_as_several_series() {
        let body = matrix(
            r#"[{"metric":{"gpu":"0","modelName":"NVIDIA A100-SXM4-80GB"},"values":[[10,"97"]]},
                {"metric":{"gpu":"1","modelName":"NVIDIA A100-SXM4-80GB"},"values":[[10,"3"]]}]"#,
        );
        let a = parse_matrix(body.as_bytes()).unwrap();
        let gpus: Vec<(&str, Option<f64>)> = a
            .series
            .iter()
            .map(|s| (s.labels["gpu"].as_str(), s.points[0].1))
            .collect();
        assert_eq!(gpus, vec![("0", Some(97.0)), ("1", Some(3.0))]);
    }

    #[test]
    fn a_wrong_result_type_is_named() {
        let body = br#"{"status":"success","data":{"resultType":"scalar","result":[1,"1"]}}"#;
        assert_eq!(
            parse_matrix(body).unwrap_err(),
            PromError::WrongResultType {
                expected: "matrix",
                found: "scalar".into()
            }
        );
        let vector = br#"{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[5,"42"]}]}}"#;
        assert!(matches!(
            parse_matrix(vector),
            Err(PromError::WrongResultType { .. })
        ));
        let a = parse_vector(vector).unwrap();
        assert_eq!(a.series[0].points, vec![(5.0, Some(42.0))]);
    }

    #[test]
    fn malformed_answers_are_refused_with_a_reason() {
        for body in [
            &b""[..],
            b"not json",
            b"{\"status\":\"success\"}",
            b"{\"status\":\"maybe\"}",
            br#"{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"high"]]}]}}"#,
            br#"{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1]]}]}}"#,
            br#"{"status":"success","data":{"resultType":"matrix","result":{"a":1}}}"#,
            br#"{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":5},"values":[]}]}}"#,
            br#"{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"]]}"#,
        ] {
            assert!(
                matches!(parse_matrix(body), Err(PromError::Malformed(_))),
                "{}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn too_many_series_are_refused() {
        let one = r#"{"metric":{},"values":[]}"#;
        let body = matrix(&format!("[{}]", vec![one; MAX_SERIES + 1].join(",")));
        assert!(matches!(
            parse_matrix(body.as_bytes()),
            Err(PromError::Malformed(m)) if m.contains("20001 series")
        ));
    }

    #[test]
    fn sample_values() {
        assert_eq!(sample_value("0"), Ok(Some(0.0)));
        assert_eq!(sample_value("-1.25e-3"), Ok(Some(-0.00125)));
        assert_eq!(sample_value("1e999"), Ok(None));
        assert!(sample_value("infinity").is_err());
        assert!(sample_value("0x10").is_err());
        assert!(sample_value("").is_err());
    }
}
