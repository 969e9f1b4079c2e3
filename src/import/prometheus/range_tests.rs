//! Building traces from recorded `query_range` answers: units, GPUs, gaps, missing series.

use super::*;
use crate::import::prometheus::response::parse_matrix;

const START: f64 = 1_717_250_400.0;

fn request(steps: u64) -> RangeRequest {
    RangeRequest {
        node: "gpu07".into(),
        start: START,
        end: START + (steps - 1) as f64 * 15.0,
        step: 15.0,
    }
}

/// A recorded answer: `series` as (labels JSON, values) with times as offsets from START.
fn answer(series: &[(&str, &[(f64, &str)])]) -> Vec<Series> {
    let items: Vec<String> = series
        .iter()
        .map(|(labels, values)| {
            let v: Vec<String> = values
                .iter()
                .map(|(t, v)| format!("[{},\"{v}\"]", START + t))
                .collect();
            format!("{{\"metric\":{labels},\"values\":[{}]}}", v.join(","))
        })
        .collect();
    let body = format!(
        "{{\"status\":\"success\",\"data\":{{\"resultType\":\"matrix\",\"result\":[{}]}}}}",
        items.join(",")
    );
    parse_matrix(body.as_bytes()).unwrap().series
}

#[test]
fn gpus_are_split_by_their_label_and_units_converted() {
    let m = Mapping::defaults();
    let results = vec![
        (
            Field::GpuUtil,
            answer(&[
                (
                    r#"{"gpu":"1","instance":"gpu07:9400"}"#,
                    &[(0.0, "3"), (15.0, "4")],
                ),
                (
                    r#"{"gpu":"0","instance":"gpu07:9400"}"#,
                    &[(0.0, "97"), (15.0, "NaN")],
                ),
            ]),
        ),
        (
            Field::GpuMemUsed,
            answer(&[(r#"{"gpu":"0"}"#, &[(0.0, "20480"), (15.0, "+Inf")])]),
        ),
        (
            Field::CpuBusy,
            answer(&[(r#"{}"#, &[(0.0, "0.25"), (15.0, "1.04")])]),
        ),
        (
            Field::MemAvailable,
            answer(&[(r#"{"instance":"gpu07:9100"}"#, &[(0.0, "1073741824")])]),
        ),
    ];
    let f = build(&results, &m, &request(2), None);
    let s = &f.trace.samples;
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].t, s[1].t), (0.0, 15.0));
    assert_eq!(f.trace.header.interval_s, 15.0);
    // GPU 0 and GPU 1, in index order, in every sample.
    assert_eq!(
        s[0].gpus.iter().map(|g| g.index).collect::<Vec<_>>(),
        [0, 1]
    );
    assert_eq!(s[0].gpus[0].util_percent, Some(97.0));
    assert_eq!(s[0].gpus[1].util_percent, Some(3.0));
    assert_eq!(s[1].gpus[0].util_percent, None);
    // DCGM's framebuffer is in MiB: 20480 MiB = 20480 × 1048576 bytes = 20 GiB.
    assert_eq!(s[0].gpus[0].mem_used_bytes, Some(21_474_836_480));
    assert_eq!(s[1].gpus[0].mem_used_bytes, None);
    // A ratio is a percentage ×100; 104 % is a rate's jitter, clamped to 100.
    assert_eq!(s[0].host.cpu_busy_percent, Some(25.0));
    assert_eq!(s[1].host.cpu_busy_percent, Some(100.0));
    assert_eq!(s[0].host.mem_available_bytes, Some(1 << 30));
    assert_eq!(s[1].host.mem_available_bytes, None);
}

#[test]
fn a_missing_series_stays_unknown_and_is_listed() {
    let m = Mapping::defaults();
    let results = vec![
        (
            Field::GpuUtil,
            answer(&[(r#"{"gpu":"0"}"#, &[(0.0, "50")])]),
        ),
        (Field::ShmUsed, Vec::new()),
        (Field::PsiIoSome, answer(&[(r#"{}"#, &[(0.0, "NaN")])])),
    ];
    let f = build(&results, &m, &request(1), None);
    assert_eq!(f.trace.samples[0].host.shm_used_bytes, None);
    assert!(f.missing.contains(&Field::ShmUsed));
    // A series of NaN only is as missing as none at all.
    assert!(f.missing.contains(&Field::PsiIoSome));
    assert!(!f.missing.contains(&Field::GpuUtil));
    // Fields without a query in the results are missing too; turned-off ones are unmapped.
    assert!(f.missing.contains(&Field::MemAvailable));
    assert!(f.unmapped.contains(&Field::KswapdCpu));
    assert!(!f.missing.contains(&Field::KswapdCpu));
    // Machine facts are not trace fields.
    assert!(!f.missing.contains(&Field::MemTotal));
}

#[test]
fn steps_without_any_value_are_left_out() {
    let m = Mapping::defaults();
    let results = vec![(
        Field::GpuUtil,
        answer(&[(r#"{"gpu":"0"}"#, &[(0.0, "10"), (45.0, "90")])]),
    )];
    let f = build(&results, &m, &request(4), None);
    let t: Vec<f64> = f.trace.samples.iter().map(|s| s.t).collect();
    assert_eq!(t, [0.0, 45.0]);
}

#[test]
fn impossible_values_are_unknown_with_a_note() {
    let m = Mapping::defaults();
    let results = vec![
        (
            Field::SwapIn,
            answer(&[(r#"{}"#, &[(0.0, "-5"), (15.0, "12.5")])]),
        ),
        (
            Field::GpuUtil,
            answer(&[(r#"{"gpu":"0"}"#, &[(0.0, "250"), (15.0, "-3")])]),
        ),
        (
            Field::MemAvailable,
            answer(&[(r#"{}"#, &[(0.0, "-1"), (15.0, "4096.4")])]),
        ),
        // Something known at t = 0, so that the first step is a sample.
        (Field::PageCache, answer(&[(r#"{}"#, &[(0.0, "1")])])),
    ];
    let f = build(&results, &m, &request(2), None);
    let s = &f.trace.samples;
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].host.swap_in_pages_per_s, None);
    assert_eq!(s[1].host.swap_in_pages_per_s, Some(12.5));
    assert_eq!(s[0].gpus[0].util_percent, None);
    assert_eq!(s[1].gpus[0].util_percent, Some(0.0));
    assert_eq!(s[0].host.mem_available_bytes, None);
    assert_eq!(s[1].host.mem_available_bytes, Some(4096));
    for field in [Field::SwapIn, Field::GpuUtil, Field::MemAvailable] {
        assert!(
            f.notes
                .contains(&FetchNote::OutOfRange { field, values: 1 }),
            "{field:?}: {:?}",
            f.notes
        );
    }
}

#[test]
fn series_without_a_gpu_index_and_duplicates_are_noted() {
    let m = Mapping::defaults();
    let results = vec![
        (
            Field::GpuPower,
            answer(&[
                (r#"{"gpu":"0","job":"a"}"#, &[(0.0, "300")]),
                (r#"{"gpu":"0","job":"b"}"#, &[(0.0, "100"), (15.0, "120")]),
                (r#"{"gpu":"nvidia0"}"#, &[(0.0, "1")]),
            ]),
        ),
        (
            Field::MemAvailable,
            answer(&[
                (r#"{"instance":"gpu07:9100"}"#, &[(0.0, "100")]),
                (r#"{"instance":"gpu07:9200"}"#, &[(0.0, "200")]),
            ]),
        ),
    ];
    let f = build(&results, &m, &request(2), None);
    let s = &f.trace.samples;
    // The first series by labels (job="a") wins; the other fills its gap.
    assert_eq!(s[0].gpus[0].power_w, Some(300.0));
    assert_eq!(s[1].gpus[0].power_w, Some(120.0));
    assert_eq!(s[0].gpus.len(), 1);
    assert_eq!(s[0].host.mem_available_bytes, Some(100));
    assert!(f.notes.contains(&FetchNote::NoGpuIndex {
        field: Field::GpuPower,
        series: 1
    }));
    assert!(f.notes.contains(&FetchNote::Ambiguous {
        field: Field::GpuPower,
        series: 2
    }));
    assert!(f.notes.contains(&FetchNote::Ambiguous {
        field: Field::MemAvailable,
        series: 2
    }));
}

#[test]
fn points_off_the_grid_or_outside_the_range_are_ignored() {
    let m = Mapping::defaults();
    let results = vec![(
        Field::GpuUtil,
        answer(&[(
            r#"{"gpu":"0"}"#,
            &[(-15.0, "1"), (7.0, "2"), (15.0, "3"), (30.0, "4")],
        )]),
    )];
    let f = build(&results, &m, &request(2), None);
    let u: Vec<Option<f64>> = f
        .trace
        .samples
        .iter()
        .map(|s| s.gpus[0].util_percent)
        .collect();
    assert_eq!(u, [Some(3.0)]);
}

#[test]
fn ranges_are_checked_before_asking() {
    let mut r = request(2);
    assert_eq!(r.steps(), 2);
    assert!(r.check().is_ok());
    r.end = r.start;
    assert_eq!(r.check(), Err(PromError::BadRange));
    r.end = r.start + 86_400.0 * 30.0;
    r.step = 1.0;
    assert_eq!(
        r.check(),
        Err(PromError::TooManySteps {
            steps: 2_592_001,
            max: MAX_STEPS
        })
    );
    r.step = 0.0;
    assert_eq!(r.check(), Err(PromError::BadRange));
}

#[test]
fn the_built_trace_passes_the_trace_readers_checks() {
    // What --record writes must replay: write it as JSON Lines and read it back.
    let m = Mapping::defaults();
    let results = vec![
        (
            Field::GpuUtil,
            answer(&[(r#"{"gpu":"0"}"#, &[(0.0, "100.4"), (15.0, "0")])]),
        ),
        (Field::ShmUsed, answer(&[(r#"{}"#, &[(0.0, "2000")])])),
        (Field::ShmTotal, answer(&[(r#"{}"#, &[(0.0, "1000")])])),
    ];
    let f = build(&results, &m, &request(2), None);
    let text = crate::trace::jsonl::to_jsonl(&f.trace);
    let back = crate::trace::jsonl::parse_trace(text.as_bytes(), std::path::Path::new("x"))
        .unwrap()
        .trace;
    assert_eq!(back, f.trace);
    assert_eq!(back.samples[0].host.shm_used_bytes, Some(1000));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("NaN".to_string()),
            Just("+Inf".to_string()),
            Just("-Inf".to_string()),
            (-1e20f64..1e20).prop_map(|v| format!("{v}")),
            (-200.0f64..200.0).prop_map(|v| format!("{v}")),
            (0u64..u64::MAX).prop_map(|v| format!("{v}")),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Whatever numbers a server sends, the trace built from them is one the trace reader
        /// accepts: what --record writes replays (and the fuzzed reader's traces are what the
        /// recognisers are fuzzed on, tests/fuzz).
        #[test]
        fn any_values_build_a_trace_that_replays(
            fields in proptest::collection::vec(
                (0..Field::ALL.len(), 0u32..3, proptest::collection::vec((0u64..6, value()), 0..6)),
                0..12,
            )
        ) {
            let m = Mapping::defaults();
            let mut results: Vec<(Field, Vec<Series>)> = Vec::new();
            for (f, gpu, points) in &fields {
                let field = Field::ALL[*f];
                let values: Vec<(f64, &str)> =
                    points.iter().map(|(k, v)| (*k as f64 * 15.0, v.as_str())).collect();
                let labels = format!(r#"{{"gpu":"{gpu}"}}"#);
                results.push((field, answer(&[(labels.as_str(), &values)])));
            }
            let f = build(&results, &m, &request(6), None);
            let text = crate::trace::jsonl::to_jsonl(&f.trace);
            let back = crate::trace::jsonl::parse_trace(text.as_bytes(), std::path::Path::new("x"));
            prop_assert!(back.is_ok(), "{:?}\n{text}", back.err());
        }
    }
}
