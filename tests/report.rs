//! Reports: PDF text and fonts, Markdown and JSON goldens, atomic writes, redaction.

mod common;

use std::path::Path;

use ramvram::advisor::training::{OffloadTarget, Strategy, TrainingPlan, presets};
use ramvram::advisor::{Assessment, Scenario, assess};
use ramvram::i18n::Lang;
use ramvram::present;
use ramvram::report::{self, Format, ReportLang, ReportOptions};

fn options(format: Format, lang: ReportLang) -> ReportOptions {
    ReportOptions {
        format,
        lang,
        redact: false,
        date: "2026-01-15".into(),
        source_file: Some("tests/fixtures/profiles/aws-g5.xlarge.json".into()),
    }
}

fn g5_with_plan() -> Assessment {
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    assess(
        &common::fixture("aws-g5.xlarge"),
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    )
}

fn pdf_text(bytes: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(bytes).expect("PDF text extracts")
}

/// Text extraction may put line breaks inside sentences; compare without whitespace.
fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn pdf_in_chinese_carries_the_numbers_and_every_finding_title() {
    let a = g5_with_plan();
    let bytes = report::render(&a, &options(Format::Pdf, ReportLang::One(Lang::Zh))).unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    let text = squash(&pdf_text(&bytes));
    for needle in [
        "16.0GiB",
        "24.0GiB",
        "0.67×",
        "内存比显存还小",
        "采购建议",
        // The RAM that would fit the plan's peak (resuming: 36 B × 6.74 B + 5 GiB = 231 GiB,
        // ÷ 0.95 = 243 GiB): the next common size.
        "256GiB",
    ] {
        assert!(text.contains(needle), "{needle} missing from the PDF text");
    }
    for f in &a.findings {
        let title = squash(&present::finding_title(Lang::Zh, f));
        assert!(
            text.contains(&title),
            "finding {:?} title missing: {title}",
            f.id
        );
    }
    // 7B × 24 bytes = 150.6 GiB of CPU states under ZeRO-2 offload (DeepSpeed's estimator).
    assert!(text.contains("151GiB"));
    assert!(text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
}

#[test]
fn pdf_in_both_languages_has_each_section_twice_and_page_numbers() {
    let a = assess(
        &common::fixture("aws-g5.xlarge"),
        &ramvram::advisor::Scenario::NONE,
    );
    let bytes = report::render(&a, &options(Format::Pdf, ReportLang::Both)).unwrap();
    let text = squash(&pdf_text(&bytes));
    assert!(text.contains("RAMissmallerthanGPUmemory"));
    assert!(text.contains("内存比显存还小"));
    assert!(
        text.find("内存比显存还小").unwrap() < text.find("RAMissmallerthanGPUmemory").unwrap(),
        "Chinese first"
    );
    assert!(text.contains("第1页"), "page numbers");
    assert!(bytes.len() < 1_000_000, "{} bytes", bytes.len());
}

#[test]
fn pdffonts_shows_the_font_embedded_and_subset() {
    let Ok(which) = std::process::Command::new("pdffonts").arg("-v").output() else {
        panic!("pdffonts (poppler-utils) is needed for this test: apt-get install poppler-utils");
    };
    let _ = which;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.pdf");
    report::write(
        &assess(
            &common::fixture("dgx-h100"),
            &ramvram::advisor::Scenario::NONE,
        ),
        &options(Format::Pdf, ReportLang::One(Lang::Zh)),
        &path,
    )
    .unwrap();
    let out = std::process::Command::new("pdffonts")
        .arg(&path)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    let line = table
        .lines()
        .find(|l| l.contains("ramvramCJKSC"))
        .unwrap_or_else(|| panic!("{table}"));
    // A subset font's name starts with a six-letter tag and '+'; columns emb and sub say yes.
    assert!(line.split('+').next().unwrap().len() == 6, "{line}");
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert!(cols.windows(2).any(|w| w == ["yes", "yes"]), "{line}");
}

#[test]
fn markdown_golden_en_and_zh() {
    for (lang, golden) in [(Lang::En, "g5-en.md"), (Lang::Zh, "g5-zh.md")] {
        let bytes = report::render(
            &g5_with_plan(),
            &options(Format::Markdown, ReportLang::One(lang)),
        )
        .unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(golden);
        if std::env::var_os("RAMVRAM_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        let expected =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            text, expected,
            "{golden} differs; review and rerun with RAMVRAM_BLESS=1"
        );
    }
}

#[test]
fn json_report_is_the_assessment_and_round_trips() {
    let a = g5_with_plan();
    let bytes = report::render(&a, &options(Format::Json, ReportLang::One(Lang::En))).unwrap();
    let back: Assessment = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(back, a);
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    for key in [
        "schema_version",
        "profile",
        "ratio",
        "rules",
        "findings",
        "procurement",
        "training_memory",
    ] {
        assert!(!v[key].is_null(), "{key}");
    }
    // Procurement: 2 × 24 GiB VRAM, and the plan's peak — resuming: 24 × 6,738,415,616 bytes
    // of model states and the optimizer partition read beside them, 12 × 6,738,415,616 — plus
    // the OS (2 GiB) and one training process (3 GiB), with the 5 % margin a plan must leave
    // (÷ 0.95); the larger wins.
    let need = 36 * 6_738_415_616u64 + (5 << 30);
    assert_eq!(
        v["procurement"]["recommended_ram_bytes"].as_u64(),
        Some((need as f64 / 0.95).ceil() as u64)
    );
}

#[test]
fn a_failed_write_leaves_nothing_and_keeps_the_old_report() {
    let dir = tempfile::tempdir().unwrap();
    let a = assess(
        &common::fixture("aws-g5.xlarge"),
        &ramvram::advisor::Scenario::NONE,
    );
    // The target is a folder: the final rename fails.
    let target = dir.path().join("report.pdf");
    std::fs::create_dir(&target).unwrap();
    let err = report::write(
        &a,
        &options(Format::Pdf, ReportLang::One(Lang::En)),
        &target,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("report.pdf"), "{err}");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        vec![std::ffi::OsString::from("report.pdf")],
        "no temporary file left"
    );
    // A folder that can't be written (even by root): /proc.
    let err = report::write(
        &a,
        &options(Format::Pdf, ReportLang::One(Lang::En)),
        Path::new("/proc/ramvram.pdf"),
    );
    assert!(err.is_err());
    // An existing good report survives a failed overwrite.
    let good = dir.path().join("good.md");
    report::write(
        &a,
        &options(Format::Markdown, ReportLang::One(Lang::En)),
        &good,
    )
    .unwrap();
    let before = std::fs::read(&good).unwrap();
    let bad_dir = dir.path().join("missing-folder").join("good.md");
    assert!(
        report::write(
            &a,
            &options(Format::Markdown, ReportLang::One(Lang::En)),
            &bad_dir
        )
        .is_err()
    );
    assert_eq!(std::fs::read(&good).unwrap(), before);
}

#[test]
fn redaction_leaves_no_hostname_or_uuid_in_any_format() {
    use ramvram::probe::gpu::GpuSource;
    use ramvram::probe::gpu::fake::FakeScenario;
    let mut profile = common::fixture("dgx-h100");
    profile.host.hostname = Some("gpu-node-042.lab.example".into());
    profile.gpus = FakeScenario::EightH100.probe().gpus;
    let uuid = profile.gpus[0].uuid.clone().unwrap();
    // Redacted as the command line and the window redact: before the one assessment.
    let a = ramvram::advisor::redacted::redacted_assessment(
        &profile,
        &ramvram::advisor::Scenario::NONE,
    );
    for format in [Format::Pdf, Format::Markdown, Format::Json] {
        let mut o = options(format, ReportLang::Both);
        o.redact = true;
        o.source_file = Some("/home/alice/gpu-node-042.json".into());
        let bytes = report::render(&a, &o).unwrap();
        let haystack = if format == Format::Pdf {
            pdf_text(&bytes)
        } else {
            String::from_utf8(bytes.clone()).unwrap()
        };
        for secret in ["gpu-node-042", uuid.as_str(), "alice"] {
            assert!(
                !haystack.contains(secret),
                "{format:?} text contains {secret}"
            );
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{format:?} bytes contain {secret}"
            );
        }
        if format != Format::Json {
            assert!(
                haystack.contains("redacted") || haystack.contains("Redacted"),
                "{format:?} says it was redacted"
            );
        }
    }
}

/// The report carries the bandwidth section the window and `advise` show, in all three formats:
/// the seed's rule with its arithmetic (quad-channel DDR4-3200 = 4 × 3200 MT/s × 8 B =
/// 102.4 GB/s, which at 2 GB/s per GiB covers 51.2 GiB), the measured Triad (80.0 GB/s in the
/// fixture) and the pipeline's stages with where each figure comes from; with a workload, the
/// simulator's narrowest stage.
#[test]
fn every_format_has_the_bandwidth_section() {
    let a = assess(
        &common::fixture("lab-a6000-nfs-measured"),
        &ramvram::advisor::Scenario::NONE,
    );
    let md = report::render(&a, &options(Format::Markdown, ReportLang::One(Lang::En))).unwrap();
    let md = String::from_utf8(md).unwrap();
    for needle in [
        "## Bandwidth",
        "102.4\u{a0}GB/s (theoretical) covers 51.2\u{a0}GiB of VRAM",
        "| Measured (STREAM Triad) | 80.0\u{a0}GB/s |",
        "- storage read: 0.35\u{a0}GB/s (measured in /mnt/datasets/imagenet)",
    ] {
        assert!(md.contains(needle), "Markdown lacks {needle:?}");
    }
    let pdf = report::render(&a, &options(Format::Pdf, ReportLang::One(Lang::Zh))).unwrap();
    let text = squash(&pdf_text(&pdf));
    for needle in ["带宽", "102.4GB/s", "80.0GB/s", "51.2GiB"] {
        assert!(text.contains(needle), "PDF lacks {needle}");
    }
    let json = report::render(&a, &options(Format::Json, ReportLang::One(Lang::En))).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let theoretical = v["bandwidth"]["memory"]["theoretical_bytes_per_s"]
        .as_f64()
        .unwrap();
    assert_eq!(theoretical, 4.0 * 3200e6 * 8.0);
    assert_eq!(
        v["bandwidth"]["pipeline"]["narrowest_stage"],
        serde_json::Value::Null
    );
    // With ImageNet set up, the pipeline's table marks the simulator's narrowest stage.
    let with = ramvram::advisor::assess(
        &common::fixture("lab-a6000-nfs-measured"),
        &ramvram::advisor::Scenario {
            workload: ramvram::advisor::workload::presets::preset("imagenet-resnet50"),
            ..Default::default()
        },
    );
    let narrowest = with.pipeline().unwrap().narrowest.unwrap();
    let md = report::render(&with, &options(Format::Markdown, ReportLang::One(Lang::En))).unwrap();
    let md = String::from_utf8(md).unwrap();
    let name = ramvram::present::workload::stage(Lang::En, narrowest);
    let row = md
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .unwrap();
    assert!(row.ends_with("● |"), "{row}");
}

/// The appendix states the /dev/shm need the findings used: with a workload, its own figure
/// (4 workers × prefetch 2 × 64 samples × 224 × 224 × 3 float32 = 4 × 2 × 64 × 602,112 B =
/// 308,281,344 B = 294 MiB), not the default assumption.
#[test]
fn the_appendix_states_the_shm_need_actually_used() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.md");
    common::ramvram()
        .args(["report", "--format", "md", "--lang", "en", "--profile"])
        .arg(common::fixture_path("seed-4090-32g"))
        .args(["--workload", "imagenet-resnet50", "--num-workers", "4"])
        .args(["--batch-size", "64", "--out"])
        .arg(&out)
        .assert()
        .success();
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(
        md.contains("4 DataLoader workers × prefetch_factor 2 × batches of 64 samples × 588\u{a0}KiB per sample × 1 experiment at once = 294\u{a0}MiB"),
        "{md}"
    );
    assert!(!md.contains("/dev/shm without a workload scenario"));
}

/// Page 1 of the PDF answers the purchase question: the verdict, the plan and whether it fits,
/// and what to buy as one line with its basis. Figures checked by hand in each case.
#[test]
fn the_first_pdf_page_carries_the_purchase_line() {
    let page_one = |fixture: &str, plan: &[&str], lang: &str| {
        let dir = tempfile::tempdir().unwrap();
        let pdf = dir.path().join("r.pdf");
        common::ramvram()
            .args(["report", "--lang", lang, "--out"])
            .arg(&pdf)
            .arg("--profile")
            .arg(common::fixture_path(fixture))
            .args(plan)
            .assert()
            .success();
        let out = std::process::Command::new("pdftotext")
            .args(["-f", "1", "-l", "1"])
            .arg(&pdf)
            .arg("-")
            .output()
            .expect("pdftotext (poppler-utils) runs");
        squash(&String::from_utf8_lossy(&out.stdout))
    };
    let plan = ["--preset", "llama2-7b", "--offload-optimizer", "cpu"];
    // A desktop, one 32 GB DDR4-3200 module in four slots, nothing set up: the published rule
    // 2 × 24 GB of VRAM = 48 GiB; modules like the installed one reach it with one more,
    // 64 GiB over both channels.
    let p = page_one("desktop-3090-1x32-ddr4-4slot", &[], "en");
    assert!(p.contains(&squash("What to buy")), "{p}");
    assert!(
        p.contains(&squash(
            "1 × 32 GB DDR4-3200, added to the 1 installed: 64.0 GiB in 2 of 4 slots, dual channel."
        )),
        "{p}"
    );
    assert!(p.contains(&squash("published rules: 48.0 GiB")), "{p}");
    // The same desktop with ZeRO-Offload of Llama 2 7B, at its peak (resuming, the optimizer
    // partition read beside the offloaded states): (24 + 12) B × 6.74 B parameters + 5 GiB =
    // 231 GiB usable, more than four DDR4 UDIMMs can hold (32 GB is JEDEC's largest DDR4
    // UDIMM: 128 GiB), so a new machine.
    let p = page_one("desktop-3090-1x32-ddr4-4slot", &plan, "en");
    assert!(p.contains(&squash("does not fit")), "{p}");
    assert!(p.contains(&squash("A new machine")), "{p}");
    assert!(p.contains(&squash("231 GiB of usable RAM")), "{p}");
    // AWS g5.xlarge (16 GiB): the g5 sizes have 16, 32, 64, 128 and 256 GiB (AWS's table), so
    // 231 GiB plus the 5 % headroom (243 GiB) takes the 16xlarge.
    let p = page_one("aws-g5.xlarge", &plan, "en");
    assert!(p.contains(&squash("Move to g5.16xlarge")), "{p}");
    // A machine whose board is unknown: one set, the board check named, the rest in the
    // appendix.
    let p = page_one("seed-4090-32g", &plan, "en");
    assert!(p.contains(&squash("check its manual first")), "{p}");
    assert!(p.contains(&squash("appendix")), "{p}");
    assert!(
        !p.contains(&squash("12-channel")),
        "the other sets wait in the appendix: {p}"
    );
    let p = page_one("seed-4090-32g", &plan, "zh");
    assert!(
        p.contains(&squash("该买什么")) && p.contains(&squash("先查说明书")),
        "{p}"
    );
}

/// The training section is built once for the terminal and the report, so the report carries
/// what the terminal always said: the plan's warnings and, with NVMe offload, the NVMe traffic
/// per step. Llama 2 7B (6,738,415,616 parameters, Meta's model card) with ZeRO-3 offloading
/// both to NVMe reads and writes its optimizer side once per step: fp32 gradients (4 B), fp32
/// master weights (4 B) and Adam's two moments (8 B) = 16 B × 6,738,415,616 × 2 =
/// 215,629,299,712 bytes. Eight GPUs per node on the one-GPU g5 is a plan warning.
#[test]
fn the_report_lists_the_plans_warnings_and_nvme_traffic_like_the_terminal() {
    let plan = TrainingPlan {
        strategy: Strategy::Zero3,
        offload_optimizer: OffloadTarget::Nvme,
        offload_param: OffloadTarget::Nvme,
        gpus_per_node: 8,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess(
        &common::fixture("aws-g5.xlarge"),
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    );
    let traffic = ramvram::format::gib(2 * 16 * 6_738_415_616);
    let md = report::render(&a, &options(Format::Markdown, ReportLang::One(Lang::En))).unwrap();
    let md = String::from_utf8(md).unwrap();
    let line = format!("NVMe traffic per optimizer step: {traffic} read and written");
    assert!(md.contains(&line), "{line}");
    let warning = "The plan uses more GPUs per node than this machine has.";
    assert!(md.contains(warning), "{md}");
    let terminal =
        ramvram::report::terminal::render(&ramvram::present::document::machine::section(
            ramvram::present::document::Section::Training,
            Lang::En,
            &a,
        ));
    assert!(terminal.contains(&line), "{terminal}");
    assert!(terminal.contains(warning), "{terminal}");
}
