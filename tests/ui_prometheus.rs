//! The Monitor page's "From Prometheus…": the node list from the server's `up` series, a
//! node's range fetched off the UI thread and shown with its diagnosis and what the server did
//! not have, in both languages; a server that does not answer is said in words.

mod common;
#[path = "common/fake_http.rs"]
mod fake_http;

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fake_http::{Reply, Request};
use ramvram::advisor::diagnose::DiagnosisId;
use ramvram::i18n::Lang;
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;

fn harness(app: RamvramApp) -> Harness<'static, RamvramApp> {
    common::window::window(app, 1300.0)
}

/// A lab's Prometheus: two nodes; gpu07's GPU 0 saw-tooths (3 s idle, 3 s busy) while its CPUs
/// are 97 % busy; no PCIe, power or page-cache series.
fn lab(r: &Request) -> Reply {
    let q = r.field("query").unwrap_or("").to_string();
    if r.path.ends_with("/query_range") {
        let num = |k: &str| r.field(k).unwrap().parse::<f64>().unwrap();
        let (start, end, step) = (num("start"), num("end"), num("step"));
        let times: Vec<f64> = (0..)
            .map(|k| start + k as f64 * step)
            .take_while(|t| *t <= end + 1e-6)
            .collect();
        let series = |labels: &str, f: &dyn Fn(f64) -> f64| {
            let values = times.iter().map(|t| (*t, format!("{}", f(*t)))).collect();
            fake_http::matrix(&[(labels.to_string(), values)])
        };
        let body = if q.contains("DCGM_FI_DEV_GPU_UTIL") {
            series(r#"{"instance":"gpu07:9400","gpu":"0"}"#, &|t| {
                if ((t as u64) / 3) % 2 == 0 { 3.0 } else { 96.0 }
            })
        } else if q.contains("mode=~\"user") {
            series("{}", &|_| 0.97)
        } else if q.contains("MemAvailable") {
            series(r#"{"instance":"gpu07:9100"}"#, &|_| 34_359_738_368.0)
        } else {
            fake_http::matrix(&[])
        };
        return Reply::json(body);
    }
    let body = if q == "up" {
        fake_http::vector(&[
            (
                r#"{"instance":"gpu07:9100","job":"node"}"#.into(),
                "1".into(),
            ),
            (
                r#"{"instance":"gpu07:9400","job":"dcgm"}"#.into(),
                "1".into(),
            ),
            (
                r#"{"instance":"gpu08:9100","job":"node"}"#.into(),
                "0".into(),
            ),
        ])
    } else if q.contains("MemTotal") {
        fake_http::vector(&[(r#"{"instance":"gpu07:9100"}"#.into(), "68719476736".into())])
    } else {
        fake_http::vector(&[])
    };
    Reply::json(body)
}

fn wait_while_busy(h: &mut Harness<'static, RamvramApp>) {
    for _ in 0..20_000 {
        h.step();
        if !h.state().prometheus_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(!h.state().prometheus_busy(), "the request did not finish");
    h.run();
}

#[test]
fn a_nodes_range_from_prometheus_shows_its_diagnosis_in_both_languages() {
    let server = fake_http::serve(lab);
    let profile = common::fixture("seed-4090-32g");
    let app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Monitor").click();
    h.run();
    h.get_by_label("From Prometheus…").click();
    h.run();
    h.state_mut().prometheus_form().url = server.url.clone();
    h.get_by_label("List nodes").click();
    h.run_steps(2);
    wait_while_busy(&mut h);
    h.get_by_label("2 nodes found.");
    assert_eq!(h.state_mut().prometheus_form().nodes, ["gpu07", "gpu08"]);
    // The first node is chosen; the range is typed.
    assert_eq!(h.state_mut().prometheus_form().node, "gpu07");
    {
        let f = h.state_mut().prometheus_form();
        f.from = "2024-06-01T14:00:00Z".into();
        f.to = "2024-06-01T14:02:00Z".into();
        f.step = "1s".into();
    }
    h.get_by_label("Fetch").click();
    h.run_steps(2);
    wait_while_busy(&mut h);
    h.get_by_label(
        "Prometheus, node gpu07: 2024-06-01 14:00:00 UTC – 14:02:00 UTC, 121 samples every 1\u{a0}s.",
    );
    h.get_by_label_contains("GPU 0 waits for data");
    // Its time on the clock: the first saw-tooth starts at 14:00:00.
    h.get_by_label("2024-06-01 14:00:00 UTC – 14:01:59 UTC");
    h.get_by_label_contains(
        "Not in Prometheus for this node and range (unknown): host.page_cache_bytes",
    );
    h.get_by_label("GPU utilisation (%)");
    let (trace, summary) = h.state().monitor_trace().unwrap();
    assert_eq!(trace.samples.len(), 121);
    assert_eq!(trace.header.interval_s, 1.0);
    // The machine as the exporters describe it: 64 GiB from node_memory_MemTotal_bytes.
    let profile = trace.header.profile.as_ref().unwrap();
    assert_eq!(profile.memory.total_bytes, Some(64 << 30));
    assert_eq!(summary.diagnoses[0].id, DiagnosisId::GpuStarved);

    h.get_by_label("中文").click();
    h.run();
    h.get_by_label(
        "Prometheus，节点 gpu07：2024-06-01 14:00:00 UTC – 14:02:00 UTC，每 1\u{a0}秒一个点，共 121 个采样。",
    );
    h.get_by_label_contains("GPU 0 在等数据");
    h.get_by_label_contains("Prometheus 里没有这个节点在这段时间的以下数据");
    // Every query went to the one server, as POSTs.
    assert!(
        server
            .seen
            .lock()
            .unwrap()
            .iter()
            .all(|r| r.method == "POST")
    );
}

#[test]
fn a_server_that_does_not_answer_and_bad_fields_are_said_in_words() {
    let profile = common::fixture("seed-4090-32g");
    let app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Monitor").click();
    h.run();
    h.get_by_label("From Prometheus…").click();
    h.run();
    {
        let f = h.state_mut().prometheus_form();
        f.url = "http://127.0.0.1:1".into();
        f.node = "gpu07".into();
    }
    h.get_by_label("Fetch").click();
    h.run_steps(2);
    wait_while_busy(&mut h);
    h.get_by_label_contains("http://127.0.0.1:1: no answer:");
    h.state_mut().prometheus_form().from = "last tuesday".into();
    h.get_by_label("Fetch").click();
    h.run();
    h.get_by_label_contains("From last tuesday: not a time.");
    assert!(h.state().monitor_trace().is_none());
}
