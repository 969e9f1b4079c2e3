//! The window, driven by labels through AccessKit (egui_kittest). The harness panics on a
//! character no installed font can draw, so these tests also check the CJK font's coverage.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ramvram::i18n::Lang;
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;

fn harness(app: RamvramApp) -> Harness<'static, RamvramApp> {
    Harness::builder()
        .with_size([1280.0, 900.0])
        .with_context_setup(ramvram::ui::fonts::install)
        .build_ui_state(|ui, app: &mut RamvramApp| app.show(ui), app)
}

#[test]
fn verdict_shows_and_language_switches_to_chinese() {
    let profile = common::fixture("aws-g5.xlarge");
    let path = common::fixture_path("aws-g5.xlarge");
    let app = RamvramApp::with_profile(Lang::En, &profile, Source::File(path));
    let mut h = harness(app);
    h.run();
    h.get_by_label("RAM is smaller than GPU memory: expect starved GPUs");
    h.get_by_label_contains("RAM (16.0 GiB) is smaller than total GPU memory (24.0 GiB)");
    h.get_by_label("RAM : VRAM gauge at 0.67×");
    h.get_by_label("中文").click();
    h.run();
    assert_eq!(h.state().lang(), Lang::Zh);
    h.get_by_label("内存比显存还小：GPU 会“吃不饱”");
    h.get_by_label_contains("内存（16.0 GiB）小于显存总量（24.0 GiB）");
    assert!(
        h.query_by_label("RAM is smaller than GPU memory: expect starved GPUs")
            .is_none()
    );
}

#[test]
fn every_fixture_renders_in_both_languages_without_missing_glyphs() {
    for name in common::all_fixtures() {
        for lang in Lang::ALL {
            let profile = common::fixture(&name);
            let app =
                RamvramApp::with_profile(lang, &profile, Source::File(common::fixture_path(&name)));
            let mut h = harness(app);
            h.run();
        }
    }
}

#[test]
fn unified_memory_machine_shows_its_own_verdict() {
    let profile = common::fixture("macbook-pro-m4max-128g");
    let mut h = harness(RamvramApp::with_profile(
        Lang::Zh,
        &profile,
        Source::Detected,
    ));
    h.run();
    h.get_by_label("统一内存：GPU 和 CPU 共用同一块内存");
    assert!(
        h.query_by_label_contains("仪表").is_none(),
        "no ratio gauge without discrete VRAM"
    );
}

#[test]
fn training_planner_shows_g5_does_not_fit_and_qlora_fits() {
    let profile = common::fixture("aws-g5.xlarge");
    let mut h = harness(RamvramApp::with_profile(
        Lang::En,
        &profile,
        Source::Detected,
    ));
    h.run();
    h.get_by_label("Training memory").click();
    h.run();
    assert_eq!(h.state().tab(), ramvram::ui::panels::Tab::Training);
    // Default plan: Llama 2 7B, ZeRO-2, optimizer offloaded to the CPU, one GPU.
    h.get_by_label("This plan does not fit this machine.");
    let t = h
        .state()
        .assessment()
        .unwrap()
        .training_memory
        .clone()
        .unwrap();
    assert_eq!(t.cpu.needed_bytes, 24 * 6_738_415_616);
    // The machine page now also carries the planner's finding.
    assert!(
        h.state()
            .assessment()
            .unwrap()
            .findings
            .iter()
            .any(|f| f.id == ramvram::advisor::FindingId::TrainingDoesNotFit)
    );
    // The command line, given the same plan, computes the same figures.
    let out = assert_cmd::Command::cargo_bin("ramvram")
        .unwrap()
        .args(["advise", "--json", "--profile"])
        .arg(common::fixture_path("aws-g5.xlarge"))
        .args([
            "--preset",
            "llama2-7b",
            "--zero-stage",
            "2",
            "--offload-optimizer",
            "cpu",
            "--gpus-per-node",
            "1",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cli: ramvram::advisor::training::TrainingMemory =
        serde_json::from_value(v["training_memory"].clone()).unwrap();
    assert_eq!(cli, t);
    h.get_by_label("QLoRA").click();
    h.run();
    h.get_by_label("This plan fits this machine.");
    h.get_by_label("中文").click();
    h.run();
    h.get_by_label("这个方案在这台机器上放得下。");
}

#[test]
fn export_a_markdown_report_to_a_folder_and_a_failure_is_said() {
    let profile = common::fixture("aws-g5.xlarge");
    let mut h = harness(RamvramApp::with_profile(
        Lang::En,
        &profile,
        Source::Detected,
    ));
    h.run();
    h.get_by_label("Export report…").click();
    h.run();
    h.get_by_label("Markdown").click();
    h.run();
    assert_eq!(
        h.state_mut().export_form().unwrap().format,
        ramvram::report::Format::Markdown
    );
    // The save dialog (rfd) needs a desktop portal; the test supplies the chosen path.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g5.md");
    h.state_mut().export_to(&path);
    h.run();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# RAM·VRAM report: aws-g5.xlarge"));
    h.get_by_label(&format!("Report saved to {}", path.display()));
    h.get_by_label("Open folder");
    // A folder that doesn't exist: the reason is shown, nothing is written.
    let bad = dir.path().join("no-such-folder").join("r.pdf");
    h.state_mut().export_to(&bad);
    h.run();
    h.get_by_label_contains("The report could not be saved");
    assert!(!bad.exists());
}

#[test]
fn fleet_of_published_machines_and_planned_3090s_exports_to_pdf() {
    let profile = common::fixture("aws-g5.xlarge");
    let mut h = harness(RamvramApp::with_profile(
        Lang::En,
        &profile,
        Source::Detected,
    ));
    h.run();
    h.get_by_label("Lab machines").click();
    h.run();
    // Plan 2 × RTX 3090 with 64 GiB through the form (its default), then with 128 GiB.
    h.get_by_label("Add to the comparison").click();
    h.run();
    let files: Vec<_> = common::all_fixtures()
        .iter()
        .map(|n| common::fixture_path(n))
        .collect();
    h.state_mut().add_fleet_files(&files);
    h.run();
    h.state_mut()
        .add_planned(ramvram::catalog::planner::PlannedMachine::desktop(
            "rtx3090", 2, 128,
        ));
    h.run();
    let fleet = h.state().fleet();
    assert_eq!(fleet.len(), files.len() + 2);
    h.get_by_label("2× GeForce RTX 3090 24GB, 64 GiB (planned)");
    h.get_by_label("2× rtx3090, 128 GiB (planned)");
    // Sorting by ratio puts g5.xlarge (0.67×) first; clicking a row opens the machine.
    h.get_by_role_and_label(egui::accesskit::Role::Link, "aws-g5.xlarge")
        .click();
    h.run();
    assert_eq!(h.state().tab(), ramvram::ui::panels::Tab::Machine);
    h.get_by_label("RAM is smaller than GPU memory: expect starved GPUs");
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("lab.pdf");
    h.state_mut().export_fleet_to(&pdf);
    let text = pdf_extract::extract_text_from_mem(&std::fs::read(&pdf).unwrap()).unwrap();
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        text.contains("dgx-h100") && text.contains("128GiB(planned)"),
        "{text}"
    );
}

#[test]
fn simulator_sliders_move_the_verdict() {
    let profile = common::fixture("seed-4090-32g");
    let mut h = harness(RamvramApp::with_profile(
        Lang::En,
        &profile,
        Source::Detected,
    ));
    h.run();
    h.get_by_label("Data loading").click();
    h.run();
    // The seed's 4K example: 8 workers decode 32.2 samples/s for a demand of 40.
    h.get_by_label_contains("The narrowest stage is decode + augmentation");
    let slider = || egui::accesskit::Role::Slider;
    h.get_by_role_and_label(slider(), "num_workers")
        .set_value_accesskit(24.0);
    h.run();
    // 24 workers × 8 × 224 MB of 4K decode buffers don't fit in 32 GiB.
    h.get_by_label_contains("This workload needs");
    h.get_by_role_and_label(slider(), "num_workers")
        .set_value_accesskit(10.0);
    h.run();
    h.get_by_label_contains("Every stage keeps up");
    assert!(h.query_by_label_contains("This workload needs").is_none());
    h.get_by_label("中文").click();
    h.run();
    h.get_by_label_contains("每一环都跟得上");
}
