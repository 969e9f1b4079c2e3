//! The window's Monitor page, driven by labels through AccessKit (egui_kittest): a recorded
//! trace in both languages, a live watch with a fake GPU, and the report export.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ramvram::advisor::diagnose::DiagnosisId;
use ramvram::i18n::Lang;
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;

fn harness(app: RamvramApp) -> Harness<'static, RamvramApp> {
    common::window::window(app, 1100.0)
}

fn sawtooth() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces/sawtooth.jsonl")
}

#[test]
fn a_sawtooth_trace_shows_gpu_starved_with_its_advice_in_both_languages() {
    // Quantities are joined to their units by no-break spaces (\u{a0}).
    let profile = common::fixture("seed-4090-32g");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.open_trace(&sawtooth());
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().tab(), ramvram::ui::panels::Tab::Monitor);
    h.get_by_label("Trace sawtooth.jsonl: 120 samples over 2\u{a0}min\u{a0}0\u{a0}s.");
    h.get_by_label("GPU 0 waits for data: busy 25.0\u{a0}% of the time, one cycle every 4\u{a0}s");
    h.get_by_label("1\u{a0}s – 1\u{a0}min\u{a0}56\u{a0}s");
    h.get_by_label_contains("→ Give the loader more CPU: raise num_workers");
    h.get_by_label("GPU utilisation (%)");
    let (_, summary) = h.state().monitor_trace().unwrap();
    assert_eq!(summary.diagnoses[0].id, DiagnosisId::GpuStarved);
    h.get_by_label("中文").click();
    h.run();
    h.get_by_label("GPU 0 在等数据：只有 25.0\u{a0}% 的时间在干活，每 4\u{a0}秒一个周期");
    h.get_by_label("GPU 利用率（%）");
    h.get_by_label_contains("→ 给数据加载多分点 CPU");
    h.get_by_label("记录 sawtooth.jsonl：2\u{a0}分\u{a0}0\u{a0}秒内 120 个采样。");
}

#[test]
fn a_broken_trace_is_said_and_the_shown_one_stays() {
    let profile = common::fixture("seed-4090-32g");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.open_trace(&sawtooth());
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"schema\":\"other\",\"version\":1,\"interval_s\":1}\n",
    )
    .unwrap();
    app.open_trace(&bad);
    let mut h = harness(app);
    h.run();
    // Code spans show without their backticks (in monospace).
    h.get_by_label_contains("bad.jsonl: line 1: field schema");
    h.get_by_label("GPU 0 waits for data: busy 25.0\u{a0}% of the time, one cycle every 4\u{a0}s");
}

#[test]
fn watching_live_with_a_fake_gpu_then_exporting_the_diagnosis() {
    let profile = common::fixture("seed-4090-32g");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.set_watch_source(Duration::from_millis(100), Some(vec![vec![98, 2, 2, 2]]));
    let mut h = harness(app);
    h.run();
    h.get_by_label("Monitor").click();
    h.run();
    h.get_by_label("Start watching").click();
    // The spinner repaints for as long as the watch runs: step, don't wait to settle.
    h.run_steps(2);
    assert!(h.state().watching());
    // Wait for a few samples (each repaints the window).
    for _ in 0..20_000 {
        h.step();
        if h.state()
            .monitor_trace()
            .is_some_and(|(t, _)| t.samples.len() >= 5)
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    h.get_by_label("Stop").click();
    h.run_steps(2);
    h.run();
    assert!(!h.state().watching());
    let (trace, _) = h.state().monitor_trace().unwrap();
    let utils: Vec<f64> = trace
        .samples
        .iter()
        .take(5)
        .map(|s| s.gpus[0].util_percent.unwrap())
        .collect();
    assert_eq!(utils, [98.0, 2.0, 2.0, 2.0, 98.0]);
    h.get_by_label_contains("Watching this machine:");
    // Export as Markdown: the report carries the live diagnosis.
    h.get_by_label("Export report…").click();
    h.run();
    h.get_by_label("Markdown").click();
    h.run();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.md");
    h.state_mut().export_to(&path);
    h.run();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("## Live diagnosis"), "{text}");
    assert!(text.contains("watched in the window"), "{text}");
}

#[test]
fn an_opened_trace_goes_into_the_pdf_with_its_timeline() {
    let profile = common::fixture("seed-4090-32g");
    let mut app = RamvramApp::with_profile(Lang::Zh, &profile, Source::Detected);
    app.open_trace(&sawtooth());
    let mut h = harness(app);
    h.run();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.pdf");
    h.state_mut().export_to(&path);
    h.run();
    let bytes = std::fs::read(&path).unwrap();
    let text = pdf_extract::extract_text_from_mem(&bytes).unwrap();
    let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(squashed.contains("实时诊断"), "{squashed}");
    assert!(squashed.contains("GPU0在等数据"), "{squashed}");
    // The chart's own text is in the PDF as vectors with the bundled font.
    assert!(squashed.contains("GPU利用率（%）"), "{squashed}");
}

/// Issue 35: a run watched in this window is this machine's. Once another machine's profile is
/// on screen, its exported report leaves the run out; back on this machine, the run is in.
#[test]
fn a_live_run_stays_out_of_another_machines_report() {
    let profile = common::fixture("seed-4090-32g");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.set_watch_source(Duration::from_millis(100), Some(vec![vec![98, 2, 2, 2]]));
    let mut h = harness(app);
    h.run();
    h.get_by_label("Monitor").click();
    h.run();
    h.get_by_label("Start watching").click();
    h.run_steps(2);
    for _ in 0..20_000 {
        h.step();
        if h.state()
            .monitor_trace()
            .is_some_and(|(t, _)| t.samples.len() >= 3)
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    h.get_by_label("Stop").click();
    h.run_steps(2);
    h.run();
    let dir = tempfile::tempdir().unwrap();
    let other = common::fixture("aws-g5.xlarge");
    let other_file = common::fixture_path("aws-g5.xlarge");
    h.state_mut().show_profile(&other, Source::File(other_file));
    h.run();
    let markdown = |h: &mut Harness<'static, RamvramApp>| {
        h.get_by_label("Export report…").click();
        h.run();
        h.get_by_label("Markdown").click();
        h.run();
    };
    markdown(&mut h);
    let path = dir.path().join("other.md");
    h.state_mut().export_to(&path);
    h.run();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("aws-g5.xlarge"), "{text}");
    assert!(!text.contains("## Live diagnosis"), "{text}");
    h.state_mut().show_profile(&profile, Source::Detected);
    h.run();
    markdown(&mut h);
    let path = dir.path().join("this.md");
    h.state_mut().export_to(&path);
    h.run();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("## Live diagnosis"), "{text}");
}
