//! The window, driven by labels through AccessKit (egui_kittest). The harness panics on a
//! character no installed font can draw, so these tests also check the CJK font's coverage.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ramvram::i18n::Lang;
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;

/// A window showing `profile` as this machine, on the page labelled `page`.
fn on_page(
    profile: &ramvram::profile::MachineProfile,
    lang: Lang,
    page: &str,
) -> Harness<'static, RamvramApp> {
    let mut h = harness(RamvramApp::with_profile(lang, profile, Source::Detected));
    h.run();
    h.get_by_label(page).click();
    h.run();
    h
}

fn harness(app: RamvramApp) -> Harness<'static, RamvramApp> {
    sized(app, 900.0)
}

/// A window `height` pixels tall: egui gives AccessKit only the widgets on screen, so long
/// pages need a tall window to be read whole.
fn sized(app: RamvramApp, height: f32) -> Harness<'static, RamvramApp> {
    common::window::window(app, height)
}

#[test]
fn verdict_shows_and_language_switches_to_chinese() {
    let profile = common::fixture("aws-g5.xlarge");
    let path = common::fixture_path("aws-g5.xlarge");
    let app = RamvramApp::with_profile(Lang::En, &profile, Source::File(path));
    let mut h = harness(app);
    h.run();
    h.get_by_label("RAM is smaller than GPU memory: expect starved GPUs");
    h.get_by_label_contains("RAM (16.0\u{a0}GiB) is smaller than total GPU memory (24.0\u{a0}GiB)");
    h.get_by_label("RAM : VRAM gauge at 0.67×");
    h.get_by_label("中文").click();
    h.run();
    assert_eq!(h.state().lang(), Lang::Zh);
    h.get_by_label("内存比显存还小：GPU 会“吃不饱”");
    h.get_by_label_contains("内存（16.0\u{a0}GiB）小于显存总量（24.0\u{a0}GiB）");
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
            // The bandwidth page too (arrows, ×, ÷ and the chart's axis text).
            let tab = if lang == Lang::En {
                "Bandwidth"
            } else {
                "带宽"
            };
            h.get_by_label(tab).click();
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
    let mut h = on_page(&profile, Lang::En, "Training memory");
    assert_eq!(h.state().tab(), ramvram::ui::panels::Tab::Training);
    // The first plan is the command line's `--preset llama2-7b`: ZeRO-2 without offload, on
    // the machine's one GPU. The optimizer states then go to the CPU (ZeRO-Offload).
    h.get_by_label("Optimizer offload").click();
    h.run();
    // The open list's "CPU" (the Machine column has a "CPU" row too).
    let cpu = h.get_all_by_label("CPU").last().unwrap();
    cpu.click();
    h.run();
    h.get_by_label("This plan does not fit this machine.");
    let does_not_fit = |a: &ramvram::advisor::Assessment| {
        a.findings
            .iter()
            .any(|f| f.id == ramvram::advisor::FindingId::TrainingDoesNotFit)
    };
    // Looking at the planner sets nothing up: the machine page and the report don't have it.
    assert!(h.state().assessment().unwrap().training_memory.is_none());
    assert!(!does_not_fit(h.state().assessment().unwrap()));
    assert!(does_not_fit(h.state().preview().unwrap()));
    h.get_by_label("Include this plan in the assessment and the report")
        .click();
    h.run();
    let t = h
        .state()
        .assessment()
        .unwrap()
        .training_memory
        .clone()
        .unwrap();
    // DeepSpeed's 24 bytes per parameter, plus the OS (2 GiB) and one training process (3 GiB);
    // the peak is resuming, which reads the optimizer partition (12 bytes per parameter)
    // beside those states.
    assert_eq!(t.estimate.cpu_bytes_per_node, 24 * 6_738_415_616);
    assert_eq!(t.cpu.needed_bytes, 36 * 6_738_415_616 + (5 << 30));
    assert!(does_not_fit(h.state().assessment().unwrap()));
    // The page shows both phases, the activation line and the ranked changes.
    h.get_by_label("Phases of the run");
    h.get_by_label("Peak (what must fit)");
    h.get_by_label_contains("Model states only; activations not included.");
    h.get_by_label("What to change, cheapest first");
    h.get_by_label("Fine-tune with QLoRA (4-bit base) instead of all parameters");
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
    let mut h = on_page(&profile, Lang::En, "Export report…");
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
    // A folder that doesn't exist: the reason is shown, naming the folder, nothing is written
    // (the dialog has closed: the next export is a PDF in the window's language).
    let missing = dir.path().join("no-such-folder");
    let bad = missing.join("r.pdf");
    h.state_mut().export_to(&bad);
    h.run();
    h.get_by_label_contains("The report could not be saved");
    h.get_by_label_contains(&format!("the folder {} doesn't exist", missing.display()));
    assert!(!bad.exists());
    // A name that asks for another format: refused, as `--format pdf --out r.md` is.
    let md = dir.path().join("r.md");
    h.state_mut().export_to(&md);
    h.run();
    h.get_by_label_contains(&format!(
        "{}: the name ends in .md, but the format chosen writes .pdf files",
        md.display()
    ));
    assert!(!md.exists());
}

/// A file that is not a profile is listed on the fleet page under a "Skipped" heading, one line
/// with its name and why, drawn from the same blocks as the lab report's list; in Chinese too.
#[test]
fn fleet_page_lists_skipped_files_under_a_heading() {
    let profile = common::fixture("aws-g5.xlarge");
    let mut h = on_page(&profile, Lang::En, "Lab machines");
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken-node.json");
    std::fs::write(&broken, "{").unwrap();
    h.state_mut()
        .add_fleet_files(&[common::fixture_path("dgx-h100"), broken.clone()]);
    h.run();
    h.get_by_label("Skipped");
    h.get_by_label_contains("broken-node.json: ");
    h.get_by_label("中文").click();
    h.run();
    h.get_by_label("已跳过");
    h.get_by_label_contains("broken-node.json：");
}

#[test]
fn fleet_of_published_machines_and_planned_3090s_exports_to_pdf() {
    let profile = common::fixture("aws-g5.xlarge");
    let mut h = on_page(&profile, Lang::En, "Lab machines");
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
    h.get_by_label("2× GeForce RTX 3090 24GB · 64 GiB (planned)");
    h.get_by_label("2× rtx3090 · 128 GiB (planned)");
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
    let mut h = on_page(&profile, Lang::En, "Data loading");
    // The seed's 4K example: a sample costs 33.2 ms to decode (250 MP/s), 3.3 ms to crop and
    // 217.3 ms for the heavy transforms on its 1024² crop: 253.8 ms. 8 workers × 0.7 make 22.1
    // samples/s for a demand of 40; 16 (the fixture's cores) make 44.1.
    h.get_by_label_contains("The narrowest stage is decode + augmentation");
    let slider = || egui::accesskit::Role::Slider;
    h.get_by_role_and_label(slider(), "num_workers")
        .set_value_accesskit(16.0);
    h.run();
    h.get_by_label_contains("Every stage keeps up");
    h.get_by_role_and_label(slider(), "num_workers")
        .set_value_accesskit(64.0);
    h.run();
    // 5 GiB + 64 × (90 MiB + 0.13 GB index + 251 MB decode buffers) ≈ 35.8 GB doesn't fit in
    // 32 GiB (34.4 GB).
    h.get_by_label_contains("This workload needs");
    h.get_by_role_and_label(slider(), "num_workers")
        .set_value_accesskit(16.0);
    h.run();
    h.get_by_label_contains("Every stage keeps up");
    assert!(h.query_by_label_contains("This workload needs").is_none());
    h.get_by_label("中文").click();
    h.run();
    h.get_by_label_contains("每一环都跟得上");
}

#[test]
fn measuring_decode_speed_replaces_the_default_rate() {
    use ramvram::bench::decode::DecodeBenchConfig;
    let profile = common::fixture("seed-4090-32g");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.set_decode_bench_config(DecodeBenchConfig {
        width: 64,
        height: 48,
        threads: 1,
        time_per_pass: std::time::Duration::from_millis(50),
    });
    let mut h = harness(app);
    h.run();
    h.get_by_label("Data loading").click();
    h.run();
    h.get_by_label("250\u{a0}MP/s — the default assumption (docs/model.md)");
    h.get_by_label("Measure decode speed").click();
    let decode_stage = |h: &egui_kittest::Harness<'_, RamvramApp>| {
        let p = h.state().preview().unwrap().pipeline().unwrap();
        p.rate(ramvram::advisor::workload::StageId::Decode).unwrap()
    };
    let before = decode_stage(&h);
    for _ in 0..10_000 {
        h.step();
        if !h.state().bench_running() && decode_stage(&h) != before {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    h.run();
    h.get_by_label_contains("— from the scenario or a measurement");
    h.get_by_label_contains("Measured here:");
    // The measured per-core rate r replaces 250 MP/s in the decode time of
    // 8 × 0.7 ÷ (8,294,400 px ÷ r + 0.4 ns × 8,294,400 px + 10.4 ms × (1024/224)²).
    let shown = h.state().workload().measured_decode_mpix_per_core.unwrap();
    let crop = 0.4e-9 * 8_294_400.0 + 10.4e-3 * (1024.0f64 / 224.0).powi(2);
    let expected = 8.0 * 0.7 / (8_294_400.0 / (shown * 1e6) + crop);
    assert!(
        (decode_stage(&h) / expected - 1.0).abs() < 1e-9,
        "{} {expected}",
        decode_stage(&h)
    );
    h.get_by_label("Use the default").click();
    h.run();
    h.get_by_label("250\u{a0}MP/s — the default assumption (docs/model.md)");
    assert!((decode_stage(&h) - before).abs() < 1e-9);
}

#[test]
fn bandwidth_page_names_the_bottleneck_and_runs_and_cancels_a_benchmark() {
    use ramvram::bench::memory::MemoryBenchConfig;
    let profile = common::fixture("student-4090-ddr4-single-channel");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    // Tiny arrays and no repetition limit: the run goes on until it is cancelled.
    app.set_memory_bench_config(MemoryBenchConfig {
        array_elements: 4096,
        threads: 2,
        time_budget: std::time::Duration::from_secs(3600),
        max_repetitions: u32::MAX,
    });
    let mut h = harness(app);
    h.run();
    h.get_by_label("Bandwidth").click();
    h.run();
    assert_eq!(h.state().tab(), ramvram::ui::panels::Tab::Bandwidth);
    // Without a workload the stages are capacities: 1 channel × 3200 MT/s × 8 B = 25.6 GB/s of
    // RAM, PCIe Gen4 x16 16 × 1.969 = 31.5 GB/s. The seed's rule asks 24 GiB × 2 GB/s per GiB
    // = 48 GB/s; 25.6 / 2 = 12.8 GiB of VRAM covered.
    h.get_by_label_contains("No workload is set up");
    h.get_by_label("RAM bandwidth: 25.6\u{a0}GB/s (theoretical)");
    h.get_by_label("PCIe host→GPU: 31.5\u{a0}GB/s (theoretical)");
    h.get_by_label_contains("covers 12.8\u{a0}GiB of VRAM");
    h.get_by_label_contains("which asks for 48.0\u{a0}GB/s");
    h.get_by_label(
        "GPU 0: Gen4 x16 = 31.5\u{a0}GB/s; the link can reach Gen4 x16 = 31.5\u{a0}GB/s",
    );
    // Judged bandwidth-bound, on this page too.
    h.get_by_label(
        "Warning: Memory bandwidth 25.6\u{a0}GB/s is below the seed's 48.0\u{a0}GB/s for 24.0\u{a0}GiB of VRAM",
    );
    h.get_by_label("Warning: Only one memory channel is populated (25.6\u{a0}GB/s theoretical)");

    h.get_by_label("Measure memory bandwidth").click();
    h.step();
    h.step();
    assert!(h.state().bench_running());
    h.get_by_label("Cancel").click();
    // Wait for the worker to notice (it checks after every pass of a few microseconds).
    for _ in 0..10_000 {
        h.step();
        if !h.state().bench_running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(!h.state().bench_running());
    h.step();
    h.get_by_label("Cancelled.");
    let measured = &h.state().profile().unwrap().measurements;
    assert!(
        measured.memory_bandwidth.is_none(),
        "a cancelled run stores nothing"
    );

    // A run allowed two passes finishes and lands in the profile's measurements.
    let mut app = RamvramApp::with_profile(Lang::Zh, &profile, Source::Detected);
    app.set_memory_bench_config(MemoryBenchConfig {
        array_elements: 4096,
        threads: 2,
        time_budget: std::time::Duration::from_secs(3600),
        max_repetitions: 2,
    });
    let mut h = harness(app);
    h.run();
    h.get_by_label("带宽").click();
    h.run();
    h.get_by_label("内存带宽：25.6\u{a0}GB/s（理论值）");
    h.get_by_label("测量内存带宽").click();
    for _ in 0..10_000 {
        h.step();
        if h.state()
            .profile()
            .unwrap()
            .measurements
            .memory_bandwidth
            .is_some()
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let m = h
        .state()
        .profile()
        .unwrap()
        .measurements
        .memory_bandwidth
        .clone()
        .expect("result stored in the profile's measurements");
    assert_eq!(m.repetitions, 2);
    assert_eq!(m.array_bytes, 4096 * 8);
    // The assessment now uses the measurement for the RAM stage.
    let b = h.state().assessment().unwrap().bandwidth.clone().unwrap();
    assert_eq!(
        b.memory.measured_triad_bytes_per_s,
        Some(m.triad_bytes_per_s)
    );
}

#[test]
fn entered_memory_configuration_gives_the_theoretical_bandwidth() {
    // AWS g5.xlarge's profile has no memory modules: the user enters dual-channel DDR4-3200.
    let profile = common::fixture("aws-g5.xlarge");
    let mut h = sized(
        RamvramApp::with_profile(Lang::En, &profile, Source::Detected),
        1600.0,
    );
    h.run();
    h.get_by_label("Bandwidth").click();
    h.run();
    h.get_by_label_contains("Can't check: memory bandwidth or VRAM is unknown");
    h.get_by_label("Enter the memory configuration (when it can't be read)")
        .click();
    h.run();
    // The form starts at DDR4, 3200 MT/s, 2 channels.
    h.get_by_label("Apply").click();
    h.run();
    // 2 channels × 3200 MT/s × 8 B = 51.2 GB/s, recorded as entered.
    h.get_by_label("51.2\u{a0}GB/s (entered)");
    let m = &h.state().profile().unwrap().memory;
    assert_eq!(m.channels_populated, Some(2));
    assert_eq!(m.speed_mts, Some(3200));
    assert_eq!(
        m.channels_source,
        Some(ramvram::profile::Provenance::Entered)
    );
    // 51.2 GB/s covers 25.6 GiB under the seed's rule: enough for the A10G's 24 GiB.
    h.get_by_label_contains("covers 25.6\u{a0}GiB of VRAM");
}

#[test]
fn bandwidth_page_shows_measurements_and_where_the_dataset_lives() {
    let profile = common::fixture("lab-a6000-nfs-measured");
    let mut h = on_page(&profile, Lang::En, "Bandwidth");
    // Stages: the measured NFS folder 0.35 GB/s, RAM 80 GB/s measured, PCIe 31.5 GB/s.
    h.get_by_label("storage read: 0.35\u{a0}GB/s (measured in /mnt/datasets/imagenet)");
    h.get_by_label("RAM bandwidth: 80.0\u{a0}GB/s (measured)");
    h.get_by_label("/mnt/datasets/imagenet is on /mnt/datasets (network file system)");
    // 80 / 102.4 = 78.1 %.
    h.get_by_label("78.1\u{a0}%");
    h.get_by_label("中文").click();
    // The grids re-measure their columns for the new language over a few frames.
    h.run_steps(8);
    h.get_by_label("存储读取：0.35\u{a0}GB/s（在 /mnt/datasets/imagenet 实测）");
}

#[test]
fn another_machines_profile_cannot_be_benchmarked_from_here() {
    // A profile file from another host: measuring here would store this computer's figures in
    // that machine's profile, so the buttons are disabled and the page says why.
    let mut profile = common::fixture("student-4090-ddr4-single-channel");
    profile.host.hostname = Some("some-other-host-than-this-one".into());
    let app = RamvramApp::with_profile(
        Lang::En,
        &profile,
        Source::File(common::fixture_path("student-4090-ddr4-single-channel")),
    );
    assert!(!app.can_measure());
    let mut h = harness(app);
    h.run();
    h.get_by_label("Bandwidth").click();
    h.run();
    h.get_by_label_contains("The benchmarks measure the computer this window runs on");
    h.get_by_label("Measure memory bandwidth").click();
    h.run();
    assert!(!h.state().bench_running());
}

#[test]
fn closing_the_window_during_a_storage_benchmark_leaves_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let profile = common::fixture("student-4090-ddr4-single-channel");
    let mut h = on_page(&profile, Lang::En, "Bandwidth");
    h.get_by_label("Dataset folder").click();
    h.run();
    h.get_by_label("Dataset folder")
        .type_text(&dir.path().display().to_string());
    h.run();
    h.get_by_label("Measure read speed").click();
    h.step();
    assert!(h.state().bench_running());
    // Dropping the app (what closing the window does) cancels the run and waits for it.
    drop(h);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_storage_benchmark_from_the_window_lands_in_the_profile() {
    use ramvram::bench::storage::StorageBenchConfig;
    let dir = tempfile::tempdir().unwrap();
    let profile = common::fixture("student-4090-ddr4-single-channel");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.set_storage_bench_config(StorageBenchConfig {
        sequential_bytes: 4 << 20,
        small_files: 20,
        ..StorageBenchConfig::default()
    });
    let mut h = harness(app);
    h.run();
    h.get_by_label("Bandwidth").click();
    h.run();
    h.get_by_label("Dataset folder").click();
    h.run();
    let folder = dir.path().display().to_string();
    h.get_by_label("Dataset folder").type_text(&folder);
    h.run();
    h.get_by_label("Measure read speed").click();
    for _ in 0..20_000 {
        h.step();
        if !h.state().bench_running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    h.run_steps(4);
    let canonical = std::fs::canonicalize(dir.path())
        .unwrap()
        .display()
        .to_string();
    let stored = &h.state().profile().unwrap().measurements.storage;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].path, canonical);
    assert_eq!(stored[0].sequential_bytes % (4 << 20), 0);
    h.get_by_label(&format!("Storage read speed in {canonical}"));
    // The pipeline now has a storage stage from the measurement.
    let b = h.state().assessment().unwrap().bandwidth.clone().unwrap();
    assert_eq!(
        b.pipeline.stages[0].capacity_bytes_per_s,
        stored[0].sequential_read_bytes_per_s
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn degraded_pcie_link_is_marked_on_the_bandwidth_page() {
    let profile = common::fixture("lab-4090-pcie-x8");
    let h = on_page(&profile, Lang::En, "Bandwidth");
    // Gen4 x8 = 8 × 1.969 = 15.8 GB/s of the 31.5 GB/s an x16 link carries.
    h.get_by_label("GPU 0: Gen4 x8 = 15.8\u{a0}GB/s; the link can reach Gen4 x16 = 31.5\u{a0}GB/s");
    h.get_by_label_contains("GPU 0: PCIe link runs at Gen4 x8 (capable of Gen4 x16)");
}

#[test]
fn the_workload_left_last_time_comes_back_and_a_broken_one_is_ignored() {
    use ramvram::advisor::workload::{Workload, presets};
    use ramvram::ui::settings::Settings;
    let mine = Workload {
        num_workers: 3,
        ..presets::preset("imagenet-resnet50").unwrap()
    };
    // Through the settings file's JSON, as the window saves and reads it.
    let text = serde_json::to_string(&Settings {
        lang: None,
        workload: Some(mine.clone()),
        ..Default::default()
    })
    .unwrap();
    let settings: Settings = serde_json::from_str(&text).unwrap();
    let app = RamvramApp::new(Lang::En, settings);
    assert_eq!(app.workload(), &mine);
    // A dataset of 0 bytes fails validation: the seed's example instead.
    let broken = Settings {
        lang: None,
        workload: Some(Workload {
            dataset_bytes: 0,
            ..mine
        }),
        ..Default::default()
    };
    let app = RamvramApp::new(Lang::En, broken);
    assert_eq!(app.workload().preset.as_deref(), Some("seed-4k-medical"));
    // Settings written before the workload existed still load.
    let old: Settings = serde_json::from_str(r#"{"lang":"zh"}"#).unwrap();
    assert_eq!(old.workload, None);
    // A workload another version wrote differently is dropped; the language is kept.
    let other: Settings =
        serde_json::from_str(r#"{"lang":"zh","workload":{"num_workers":"eight"}}"#).unwrap();
    assert_eq!((other.lang, other.workload), (Some(Lang::Zh), None));
}

/// "Include" is the user's choice, kept between sessions like the inputs; an input changed
/// since a preset makes the chip go dark and says what it is based on; restored inputs say so;
/// the export dialog lists what the report will contain.
#[test]
fn inputs_say_what_they_are_and_include_is_an_explicit_kept_choice() {
    use ramvram::advisor::training::presets as models;
    use ramvram::advisor::workload::presets;
    use ramvram::ui::settings::Settings;
    let plan = ramvram::advisor::training::TrainingPlan::from_preset(
        models::preset("llama2-13b").unwrap(),
    );
    let workload = ramvram::advisor::workload::Workload {
        num_workers: 38,
        ..presets::preset("seed-4k-medical").unwrap()
    };
    // Through the settings file's JSON, as the window saves and reads it.
    let text = serde_json::to_string(&Settings {
        workload: Some(workload.clone()),
        training: Some(plan.clone()),
        include_training: true,
        include_workload: false,
        ..Default::default()
    })
    .unwrap();
    let profile = common::fixture("aws-g5.xlarge");
    let mut app = RamvramApp::new(Lang::En, serde_json::from_str(&text).unwrap());
    app.show_profile(&profile, Source::Detected);
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().included_inputs(), (true, false));
    let a = h.state().assessment().unwrap();
    assert_eq!(a.training_memory.as_ref().unwrap().plan.params, plan.params);
    assert!(a.workload.is_none());
    h.get_by_label("Training memory").click();
    h.run();
    h.get_by_label("Restored from your last session: the inputs as you left them.");
    // Changing an input neither includes nor leaves out: the choice stands.
    h.get_by_label("QLoRA").click();
    h.run();
    assert_eq!(h.state().included_inputs(), (true, false));
    assert!(
        h.query_by_label("Restored from your last session: the inputs as you left them.")
            .is_none(),
        "a changed plan is no longer the restored one"
    );
    h.get_by_label("Data loading").click();
    h.run();
    h.get_by_label_contains(
        "based on 4K medical images, 8 workers (the seed's example), changed: num_workers",
    );
    h.get_by_label("Export report…").click();
    h.run();
    h.get_by_label("This report will contain:");
    h.get_by_label_contains("• Training plan: ");
    h.get_by_label(
        "• Not included: the workload on the Data loading page (tick “Include” on its page to add it).",
    );
    h.get_by_label("Cancel").click();
    h.run();
    // Choosing the preset again lights its chip and drops the "based on" line.
    h.get_by_label("4K medical images, 8 workers (the seed's example)")
        .click();
    h.run();
    assert_eq!(h.state().workload().num_workers, 8);
    assert!(h.query_by_label_contains("based on").is_none());
    assert_eq!(h.state().included_inputs(), (true, false));
}

#[test]
fn the_machine_page_says_what_to_buy_for_this_kind_of_machine() {
    // AWS g5.xlarge: a larger g5 by name, no modules.
    let g5 = common::fixture("aws-g5.xlarge");
    // The purchase is in the report's last section, under the recommendations: a tall window
    // has it on screen.
    let mut h = sized(
        RamvramApp::with_profile(Lang::En, &g5, Source::Detected),
        2400.0,
    );
    h.run();
    h.get_by_label("What to buy for this machine");
    // As in the report: page 1's order line and the purchase under the procurement both
    // name it (`get_all` fails when none does).
    let _ = h.get_all_by_label_contains("Move to g5.4xlarge: 64.0\u{a0}GiB of RAM");
    h.get_by_label("cloud instance · AWS · g5.xlarge");
    // One 32 GB DDR4-3200 module in a 4-slot board: its twin, in Chinese.
    let desktop = common::fixture("desktop-3090-1x32-ddr4-4slot");
    let mut h = sized(
        RamvramApp::with_profile(Lang::Zh, &desktop, Source::Detected),
        2400.0,
    );
    h.run();
    h.get_by_label("这台机器该买什么");
    let _ = h.get_all_by_label_contains("在空闲插槽加装 1 × 32\u{a0}GB DDR4-3200");
}

/// The planner's model list is the catalogue, searchable: typing part of a Hub id leaves the
/// models that match, and choosing one sets its published parameter count.
#[test]
fn the_model_list_finds_a_catalogue_model_by_its_hub_id() {
    let profile = common::fixture("dgx-a100");
    let mut h = on_page(&profile, Lang::En, "Training memory");
    // The form's list, not the results' "Model" row (the Training section's model line).
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Model")
        .click();
    h.run();
    h.get_by_label("Find a model").click();
    h.run();
    h.get_by_label("Find a model").type_text("qwen3-235b");
    h.run();
    assert!(h.query_by_label("Llama 3.1 8B").is_none());
    h.get_by_label("Qwen3 235B-A22B").click();
    h.run();
    let plan = &h
        .state()
        .preview()
        .unwrap()
        .training_memory
        .as_ref()
        .unwrap()
        .plan;
    assert_eq!(plan.preset.as_deref(), Some("qwen3-235b-a22b"));
    // The Hugging Face count (model.safetensors.index.json), not the shape's sum.
    assert_eq!(plan.params, 235_093_634_560);
}

/// "Open model file…" reads a safetensors file by its header: the plan takes its exact count
/// and largest tensor (a 1,000 × 1,000 F32 matrix and a 1,000-element vector: 1,001,000
/// parameters), and the note under the buttons says where they came from.
#[test]
fn an_opened_model_file_sets_the_plan_and_names_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.safetensors");
    let header = r#"{"w":{"dtype":"F32","shape":[1000,1000],"data_offsets":[0,4000000]},"b":{"dtype":"F32","shape":[1000],"data_offsets":[4000000,4004000]}}"#;
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(header.as_bytes());
    bytes.resize(bytes.len() + 4_004_000, 0);
    std::fs::write(&path, bytes).unwrap();
    let profile = common::fixture("dgx-a100");
    let mut h = on_page(&profile, Lang::En, "Training memory");
    h.get_by_label("Open model file…");
    h.get_by_label("Open model folder…");
    h.state_mut().open_model(&path);
    h.run();
    let plan = &h
        .state()
        .preview()
        .unwrap()
        .training_memory
        .as_ref()
        .unwrap()
        .plan;
    assert_eq!(plan.params, 1_001_000);
    assert_eq!(plan.largest_layer_params, Some(1_000_000));
    assert_eq!(plan.preset, None);
    h.get_by_label_contains(&format!("model: read from {}", path.display()));
    h.get_by_label_contains("1,001,000 parameters and 4,004,000 bytes of weights");
    h.get_by_label_contains("largest tensor w (1,000,000 elements)");
}

/// "Open dataset folder…" scans the folder: 20 PNGs of 300 × 200 written by the `image` crate
/// set the workload's samples, bytes (the test's own sum) and image size, and the banner says
/// what was found.
#[test]
fn an_opened_dataset_folder_sets_the_workload() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = 0u64;
    for i in 0..20u32 {
        let pixels: Vec<u8> = (0..300 * 200 * 3)
            .map(|j| ((j * 7 + i * 13) % 251) as u8)
            .collect();
        let mut buf = std::io::Cursor::new(Vec::new());
        image::RgbImage::from_raw(300, 200, pixels)
            .unwrap()
            .write_to(&mut buf, image::ImageFormat::Png)
            .unwrap();
        let buf = buf.into_inner();
        bytes += buf.len() as u64;
        std::fs::write(dir.path().join(format!("{i}.png")), buf).unwrap();
    }
    let profile = common::fixture("dgx-a100");
    let mut h = on_page(&profile, Lang::En, "Data loading");
    h.get_by_label("Open dataset folder…");
    h.state_mut().open_dataset(dir.path());
    h.run();
    let w = h.state().workload();
    assert_eq!(w.samples, 20);
    assert_eq!(w.dataset_bytes, bytes);
    assert_eq!((w.width, w.height), (300, 200));
    assert_eq!(w.stored, ramvram::advisor::workload::StoredFormat::Png);
    h.get_by_label_contains("20 files");
}

/// Issue 33: the training page's save control. Llama-3.1-8B fully fine-tuned with FSDP on the
/// 8 × A100 80 GB of a DGX A100, parameters and optimizer offloaded to the CPU: saving a full
/// state dict on rank 0 gathers the fp32 parameters and AdamW's two moments there, 12 ×
/// 8,030,261,248 B = 96.4 GB over the training phase, so the peak row names the checkpoint
/// save; a sharded save writes the CPU shards where they lie and adds nothing, so the peak is
/// another phase's.
#[test]
fn the_save_control_changes_the_phase_that_sets_the_peak() {
    use ramvram::advisor::training::{
        OffloadTarget, PhaseId, SaveStateDict, Strategy, TrainingPlan, presets,
    };
    let plan = TrainingPlan {
        strategy: Strategy::FsdpFullShard,
        offload_optimizer: OffloadTarget::Cpu,
        offload_param: OffloadTarget::Cpu,
        gpus_per_node: 8,
        ..TrainingPlan::from_preset(presets::preset("llama-3.1-8b").unwrap())
    };
    let scenario = ramvram::advisor::Scenario {
        training: Some(plan),
        ..ramvram::advisor::Scenario::NONE
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fsdp-8b.json");
    std::fs::write(&path, serde_json::to_string(&scenario).unwrap()).unwrap();
    let profile = common::fixture("dgx-a100");
    let mut h = sized(
        RamvramApp::with_profile(Lang::En, &profile, Source::Detected),
        1600.0,
    );
    h.run();
    h.state_mut().open_scenario(&path);
    h.run();
    h.get_by_label("Training memory").click();
    h.run();
    let peak_phase = |h: &Harness<'static, RamvramApp>| {
        h.state()
            .assessment()
            .unwrap()
            .training_memory
            .as_ref()
            .unwrap()
            .estimate
            .cpu_peak_phase
    };
    h.get_by_label("Checkpoint saving").click();
    h.run();
    // The list starts with the framework's default, FSDP's full state dict on rank 0.
    h.get_by_label("default: a full state dict gathered in rank 0's CPU RAM");
    h.get_by_label("a full state dict gathered in rank 0's CPU RAM")
        .click();
    h.run();
    assert_eq!(peak_phase(&h), Some(PhaseId::CheckpointSave));
    assert_eq!(
        h.state()
            .assessment()
            .unwrap()
            .training_memory
            .as_ref()
            .unwrap()
            .plan
            .save_state_dict,
        Some(SaveStateDict::Full)
    );
    // The peak row: "… GiB (Checkpoint save)".
    h.get_by_label_contains("(Checkpoint save)");
    h.get_by_label("Checkpoint saving").click();
    h.run();
    h.get_by_label("a sharded checkpoint, each rank writing its own part")
        .click();
    h.run();
    assert_ne!(peak_phase(&h), Some(PhaseId::CheckpointSave));
    assert!(h.query_by_label_contains("(Checkpoint save)").is_none());
    // In Chinese the peak row names the phase in Chinese.
    h.get_by_label("Checkpoint saving").click();
    h.run();
    h.get_by_label("a full state dict gathered in every rank's CPU RAM")
        .click();
    h.run();
    h.get_by_label("中文").click();
    h.run();
    h.get_by_label_contains("（保存检查点）");
}

/// Issue 33: the Data loading page's validation loader. Switched on, it starts at the training
/// loader's batch (8 for the seed's 4K example), half its workers (8 → 4), prefetch 2 and
/// pinned, and the evaluation pause counts its queue: 4 × 2 = 8 batches waiting beside the
/// training loader's 8 × 2 = 16.
#[test]
fn a_validation_loader_counts_at_the_evaluation_pause() {
    let profile = common::fixture("dgx-a100");
    let mut h = sized(
        RamvramApp::with_profile(Lang::En, &profile, Source::Detected),
        1600.0,
    );
    h.run();
    h.get_by_label("Data loading").click();
    h.run();
    let loaders = |h: &Harness<'static, RamvramApp>| {
        h.state()
            .preview()
            .unwrap()
            .workload
            .as_ref()
            .unwrap()
            .evaluation_pause
            .as_ref()
            .unwrap()
            .loaders
            .iter()
            .map(|l| l.queued_batches)
            .collect::<Vec<_>>()
    };
    assert_eq!(loaders(&h), vec![16]);
    h.get_by_label("Validation loader").click();
    h.run();
    h.get_by_label("A validation loader runs while training pauses")
        .click();
    h.run();
    assert_eq!(loaders(&h), vec![16, 8]);
    h.get_by_label_contains("validation loader: 8 batches waiting");
    h.get_by_label("中文").click();
    h.run();
    // The slider and its number field both carry the label.
    assert!(h.get_all_by_label("验证集 num_workers").count() >= 1);
}
