//! macOS detection on any system: `sysctl` text captured on real Macs
//! (tests/fixtures/sysctl) through the same validation `probe::macos` feeds with
//! `sysctlbyname`, then a Mac profile assessed and worded as on the Mac itself.

mod common;

use std::path::PathBuf;

use ramvram::advisor::{FindingId, Verdict, assess};
use ramvram::i18n::Lang;
use ramvram::present::hardware::hardware_rows;
use ramvram::probe::gpu::apple::apple_gpu;
use ramvram::probe::sysctl::{MacDetected, apply_mac, interpret, parse_sysctl_text};
use ramvram::profile::{CoreLevel, MachineProfile, MemoryPressure};

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

fn detected(name: &str) -> MacDetected {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sysctl")
        .join(name);
    interpret(&parse_sysctl_text(&std::fs::read_to_string(path).unwrap()))
}

/// The profile `ramvram detect` builds on that Mac: sysctl's figures and its one Apple GPU.
fn mac_profile(name: &str) -> MachineProfile {
    let d = detected(name);
    let mut p = MachineProfile::unknown();
    p.host.os = Some("macOS 15.5".into());
    p.host.arch = Some("aarch64".into());
    let gpu_name = d.cpu_model.clone();
    apply_mac(&mut p, d);
    p.gpus.push(apple_gpu(gpu_name));
    p
}

fn level(name: &str, cores: u32) -> CoreLevel {
    CoreLevel {
        name: Some(name.into()),
        physical_cores: cores,
    }
}

#[test]
fn m1_with_16_gib() {
    let d = detected("m1-16gb.txt");
    assert!(d.notes.is_empty(), "{:?}", d.notes);
    assert_eq!(d.memory_bytes, Some(16 * GIB));
    assert_eq!(d.cpu_model.as_deref(), Some("Apple M1"));
    assert_eq!((d.physical_cores, d.logical_cpus), (Some(8), Some(8)));
    // No names on this macOS: the levels are known by position only (0 is the fastest).
    let counts: Vec<(Option<&str>, u32)> = d
        .macos
        .core_levels
        .iter()
        .map(|l| (l.name.as_deref(), l.physical_cores))
        .collect();
    assert_eq!(counts, [(None, 4), (None, 4)]);
    assert_eq!(d.macos.model_identifier.as_deref(), Some("MacBookAir10,1"));
    // 2048.00M total, 1017.50M used: MiB as sysctl prints xsw_usage.
    assert_eq!(d.swap_total_bytes, Some(2048 * MIB));
    assert_eq!(d.swap_used_bytes, Some(1017 * MIB + MIB / 2));
    assert_eq!(d.macos.swap_encrypted, Some(true));
    assert_eq!(d.macos.gpu_wired_limit_default, Some(true));
    assert_eq!(d.macos.gpu_wired_limit_bytes, None);
    assert_eq!(d.macos.memory_pressure, Some(MemoryPressure::Normal));
}

#[test]
fn core_kinds_and_sizes_of_four_macs() {
    let d = detected("m1pro-32gb.txt");
    assert_eq!(d.memory_bytes, Some(32 * GIB));
    assert_eq!(
        d.macos
            .core_levels
            .iter()
            .map(|l| l.physical_cores)
            .collect::<Vec<_>>(),
        [8, 2]
    );
    let d = detected("m2max-64gb.txt");
    assert_eq!(d.memory_bytes, Some(64 * GIB));
    assert_eq!((d.swap_total_bytes, d.macos.memory_pressure), (None, None));
    let d = detected("m3ultra-96gb.txt");
    assert_eq!(d.memory_bytes, Some(96 * GIB));
    assert_eq!(d.macos.memory_pressure, Some(MemoryPressure::Warning));
    assert_eq!(d.swap_total_bytes, Some(13 * GIB));
    let d = detected("m5max-128gb-wired.txt");
    assert_eq!(
        d.macos.core_levels,
        [level("Super", 6), level("Performance", 12)]
    );
    // 114688 MiB = 112 GiB, the figure Metal reported with this override.
    assert_eq!(d.macos.gpu_wired_limit_bytes, Some(112 * GIB));
    assert_eq!(d.macos.gpu_wired_limit_default, Some(false));
    assert_eq!((d.swap_total_bytes, d.swap_used_bytes), (Some(0), Some(0)));
}

#[test]
fn unified_memory_verdict_with_the_gpu_limit() {
    // 16 GiB at the default share: 2/3, 10922.67 MiB as Metal reports it on a 16 GiB M1.
    let a = assess(
        &mac_profile("m1-16gb.txt"),
        &ramvram::advisor::Scenario::NONE,
    );
    assert_eq!(a.verdict, Verdict::UnifiedMemory);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::GpuWiredLimitDefault)
        .expect("the default-limit finding");
    assert_eq!(
        f.values["gpu_limit"],
        ramvram::advisor::Quantity::Bytes(16 * GIB / 3 * 2)
    );
    assert!(a.findings.iter().any(|f| f.id == FindingId::UnifiedMemory));
    // macOS's default share is an estimate; a set override is read from sysctl (detected).
    let working_set = |file| ramvram::advisor::unified::apple_gpu_working_set(&mac_profile(file));
    assert_eq!(
        working_set("m1-16gb.txt").unwrap().source,
        ramvram::profile::Provenance::Estimated
    );
    assert_eq!(
        working_set("m5max-128gb-wired.txt").unwrap().source,
        ramvram::profile::Provenance::Detected
    );
    // 128 GiB with iogpu.wired_limit_mb = 114688: the override, 112 GiB.
    let a = assess(
        &mac_profile("m5max-128gb-wired.txt"),
        &ramvram::advisor::Scenario::NONE,
    );
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::GpuWiredLimitSet)
        .expect("the override finding");
    assert_eq!(
        f.values["gpu_limit"],
        ramvram::advisor::Quantity::Bytes(112 * GIB)
    );
    assert!(
        !a.findings
            .iter()
            .any(|f| f.id == FindingId::GpuWiredLimitDefault)
    );
    // 64 GiB: three quarters, 48 GiB.
    let a = assess(
        &mac_profile("m2max-64gb.txt"),
        &ramvram::advisor::Scenario::NONE,
    );
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::GpuWiredLimitDefault)
        .unwrap();
    assert_eq!(
        f.values["gpu_limit"],
        ramvram::advisor::Quantity::Bytes(48 * GIB)
    );
}

/// At macOS's default share the finding advises raising `iogpu.wired_limit_mb`
/// (`raise-gpu-wired-limit`), with the share and the RAM it already states; once set, it doesn't.
#[test]
fn the_default_share_advises_raising_the_wired_limit() {
    use ramvram::advisor::AdviceId;
    let a = assess(
        &mac_profile("m1-16gb.txt"),
        &ramvram::advisor::Scenario::NONE,
    );
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::GpuWiredLimitDefault)
        .unwrap();
    assert_eq!(f.recommendations, [AdviceId::RaiseGpuWiredLimit]);
    // 16 GiB × 2/3 = 10.67 GiB, shown to one decimal.
    let en = ramvram::present::recommendation(Lang::En, f, AdviceId::RaiseGpuWiredLimit);
    assert!(
        en.contains("sudo sysctl iogpu.wired_limit_mb=<MiB>"),
        "{en}"
    );
    assert!(en.contains("10.7\u{a0}GiB"), "{en}");
    let zh = ramvram::present::recommendation(Lang::Zh, f, AdviceId::RaiseGpuWiredLimit);
    assert!(
        zh.contains("10.7\u{a0}GiB") && zh.contains("重启后失效"),
        "{zh}"
    );
    // The explanation no longer says it too.
    let explain = ramvram::present::finding_explanation(Lang::En, f);
    assert!(!explain.contains("sysctl"), "{explain}");
    let a = assess(
        &mac_profile("m5max-128gb-wired.txt"),
        &ramvram::advisor::Scenario::NONE,
    );
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::GpuWiredLimitSet)
        .unwrap();
    assert!(f.recommendations.is_empty());
}

#[test]
fn a_mac_profile_read_elsewhere_gives_the_same_assessment() {
    let p = mac_profile("m3ultra-96gb.txt");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mac.json");
    std::fs::write(&file, serde_json::to_string_pretty(&p).unwrap()).unwrap();
    let loaded = ramvram::profile::load_profile(&file).unwrap().profile;
    assert_eq!(loaded, p);
    let (here, there) = (
        assess(&p, &ramvram::advisor::Scenario::NONE),
        assess(&loaded, &ramvram::advisor::Scenario::NONE),
    );
    assert_eq!(here.verdict, there.verdict);
    assert_eq!(
        here.findings.iter().map(|f| f.id).collect::<Vec<_>>(),
        there.findings.iter().map(|f| f.id).collect::<Vec<_>>()
    );
    // The command line says the same on Linux.
    let out = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(&file),
    );
    assert_eq!(out["verdict"], "unified-memory");
}

#[test]
fn a_macs_rows_use_macos_words_only() {
    let a = assess(
        &mac_profile("m3ultra-96gb.txt"),
        &ramvram::advisor::Scenario::NONE,
    );
    for lang in [Lang::En, Lang::Zh] {
        let rows = hardware_rows(lang, &a);
        let labels: Vec<&str> = rows.iter().map(|(l, _)| l.as_str()).collect();
        let text = rows
            .iter()
            .map(|(l, v)| format!("{l}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
            .replace('\u{a0}', " ");
        for linux in ["vm.swappiness", "/dev/shm", "MemTotal", "cgroup", "THP"] {
            assert!(!text.contains(linux), "{lang:?}: {linux} in\n{text}");
        }
        assert!(labels.iter().any(|l| l.contains("hw.memsize")), "{text}");
        assert!(text.contains("96.0 GiB"), "{text}");
    }
    let en = hardware_rows(Lang::En, &a);
    let value = |label: &str| {
        en.iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("no {label}: {en:?}"))
            .1
            .replace('\u{a0}', " ")
    };
    assert_eq!(value("Core kinds"), "20 + 8 (fastest first)");
    assert!(value("Memory pressure").starts_with("warning"));
    // 96 GiB > 36 GiB: three quarters, 72 GiB.
    assert!(value("GPU wired-memory limit").contains("72.0 GiB"));
    assert_eq!(
        value("Swap (dynamic swap files)"),
        "11.4 GiB used of 13.0 GiB"
    );
}

#[test]
fn named_core_levels_read_in_words() {
    let a = assess(
        &mac_profile("m5max-128gb-wired.txt"),
        &ramvram::advisor::Scenario::NONE,
    );
    let zh = hardware_rows(Lang::Zh, &a);
    let cores = &zh.iter().find(|(l, _)| l == "核心类型").unwrap().1;
    assert_eq!(cores, "6 个Super + 12 个性能核");
    let en = hardware_rows(Lang::En, &a);
    let limit = &en
        .iter()
        .find(|(l, _)| l == "GPU wired-memory limit")
        .unwrap()
        .1;
    // 112 GiB (three digits print without a decimal).
    assert_eq!(
        limit.replace('\u{a0}', " "),
        "112 GiB (iogpu.wired_limit_mb is set)"
    );
}

#[test]
fn a_training_plan_checks_the_gpu_share_against_metals_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m1.json");
    let p = mac_profile("m1-16gb.txt");
    std::fs::write(&file, serde_json::to_string(&p).unwrap()).unwrap();
    let v = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--preset", "sdxl-unet", "--profile"])
            .arg(&file),
    );
    let t = &v["training_memory"];
    // The GPU's share against 2/3 of 16 GiB; the whole job against the 16 GiB pool.
    assert_eq!(t["gpu"]["available_bytes"], 16 * GIB / 3 * 2);
    assert_eq!(t["cpu"]["available_bytes"], 16 * GIB);
}

#[test]
fn serving_on_a_mac_checks_metals_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m2max.json");
    std::fs::write(
        &file,
        serde_json::to_string(&mac_profile("m2max-64gb.txt")).unwrap(),
    )
    .unwrap();
    let v = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(&file)
            .args(["--preset", "llama2-70b", "--inference", "llama-cpp"]),
    );
    // 3/4 of 64 GiB: 48 GiB for the GPU's buffers.
    assert_eq!(v["inference_memory"]["gpu"]["available_bytes"], 48 * GIB);
}
