//! The advisor against published machines (`shared/reference/machines.csv`, converted to the
//! fixture profiles under tests/fixtures/profiles) and hand calculations.

mod common;

use common::{GIB, all_fixtures, fixture};
use ramvram::advisor::{FindingId, Quantity, RuleId, RuleStatus, Severity, Tier, Verdict, assess};

/// (fixture, RAM:VRAM ratio) — the `ram_to_vram_ratio` column of machines.csv, which its
/// authors computed from the vendors' published RAM and VRAM sizes.
const PUBLISHED_RATIOS: [(&str, f64); 13] = [
    ("dgx-station-v100", 4.00),
    ("dgx-a100", 3.20),
    ("dgx-station-a100", 1.60),
    ("dgx-h100", 3.20),
    ("gh200", 3.33),
    ("aws-p4d.24xlarge", 3.60),
    ("aws-g4dn.xlarge", 1.00),
    ("aws-g5.xlarge", 0.67),
    ("hf-spaces-t4-small", 0.94),
    ("puget-2x3090-128g", 2.67),
    ("student-3080-32g", 3.20),
    ("desktop-2x3090-64g", 1.33),
    ("lab-4090-128g", 5.33),
];

/// The fixtures were converted from machines.csv's RAM and VRAM columns, so this checks the
/// conversion and the division (installed RAM over nominal VRAM, as the CSV counts), not the
/// advisor against an independent figure; the rule and finding tests below do that.
#[test]
fn ratios_reproduce_the_csv_ram_over_vram_column() {
    for (name, published) in PUBLISHED_RATIOS {
        let a = assess(&fixture(name), &ramvram::advisor::Scenario::NONE);
        let r = a
            .ratio
            .ram_to_vram_total
            .unwrap_or_else(|| panic!("{name}: no ratio"));
        assert!(
            (r - published).abs() < 0.005,
            "{name}: {r} vs published {published}"
        );
    }
}

#[test]
fn g5_xlarge_is_critical_with_ratio_0_67() {
    let a = assess(&fixture("aws-g5.xlarge"), &ramvram::advisor::Scenario::NONE);
    assert_eq!(a.verdict, Verdict::RamBelowVram);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::RamBelowVram)
        .expect("ram-below-vram");
    assert_eq!(f.severity, Severity::Critical);
    // 16 GiB / 24 GiB.
    assert!((a.ratio.ram_to_vram_total.unwrap() - 16.0 / 24.0).abs() < 1e-12);
    assert_eq!(f.values["shortfall"], Quantity::Bytes(8 * GIB));
    assert_eq!(a.ratio.tier, Some(Tier::Insufficient));
    // One GPU: the largest-GPU finding would say the same thing, so only one is raised.
    assert!(
        !a.findings
            .iter()
            .any(|f| f.id == FindingId::RamBelowLargestGpu)
    );
}

#[test]
fn dgx_h100_has_no_ratio_finding_and_ratio_3_2() {
    let a = assess(&fixture("dgx-h100"), &ramvram::advisor::Scenario::NONE);
    assert!(
        (a.ratio.ram_to_vram_total.unwrap() - 3.2).abs() < 1e-12,
        "2048\u{a0}GiB / 640\u{a0}GiB"
    );
    assert_eq!(a.verdict, Verdict::LargeModelReady);
    let ratio_findings = [
        FindingId::RamBelowVram,
        FindingId::RamBelowLargestGpu,
        FindingId::RamBelowOffloadTier,
    ];
    assert!(
        !a.findings.iter().any(|f| ratio_findings.contains(&f.id)),
        "{:?}",
        a.findings
    );
    // Every published rule passes, Cisco's 3× included (2048 ≥ 1920).
    assert!(
        a.rules.iter().all(|r| r.status == RuleStatus::Pass),
        "{:?}",
        a.rules
    );
}

#[test]
fn m4_max_is_unified_memory_not_ram_below_vram() {
    let a = assess(
        &fixture("macbook-pro-m4max-128g"),
        &ramvram::advisor::Scenario::NONE,
    );
    assert_eq!(a.verdict, Verdict::UnifiedMemory);
    assert!(a.findings.iter().any(|f| f.id == FindingId::UnifiedMemory));
    assert!(!a.findings.iter().any(|f| f.id == FindingId::RamBelowVram));
    assert_eq!(
        a.ratio.ram_to_vram_total, None,
        "no discrete VRAM, no ratio"
    );
    assert!(
        a.rules
            .iter()
            .all(|r| r.status == RuleStatus::NotApplicable)
    );
}

#[test]
fn rule_thresholds_by_hand() {
    // Puget's own example: 2× RTX 3090 (48 GiB) with 128 GiB passes their 2× rule (96 GiB)
    // and RAPIDS' 1.8× (86.4 GiB), fails Cisco's 3× (144 GiB).
    let a = assess(
        &fixture("puget-2x3090-128g"),
        &ramvram::advisor::Scenario::NONE,
    );
    let rule = |id| a.rules.iter().find(|r| r.id == id).unwrap().clone();
    assert_eq!(rule(RuleId::Puget2x).required_bytes, Some(96 * GIB));
    assert_eq!(rule(RuleId::Puget2x).status, RuleStatus::Pass);
    let rapids = rule(RuleId::RapidsDoctor);
    assert_eq!(
        rapids.required_bytes,
        Some((48.0 * 1.8 * GIB as f64).ceil() as u64)
    );
    assert_eq!(rapids.status, RuleStatus::Pass);
    assert_eq!(rule(RuleId::Cisco3x).status, RuleStatus::Fail);
    // NVIDIA RA: 128 GB (decimal, as NVIDIA writes it) per GPU × 2 = 256 × 10^9 bytes
    // (238.4 GiB) > 128 GiB.
    assert_eq!(
        rule(RuleId::NvidiaRa128PerGpu).required_bytes,
        Some(256_000_000_000)
    );
    assert_eq!(rule(RuleId::NvidiaRa128PerGpu).status, RuleStatus::Fail);

    // The same GPUs with 64 GiB: 1.33×, fails RAPIDS and Puget, passes Bekman and Dettmers.
    let b = assess(
        &fixture("desktop-2x3090-64g"),
        &ramvram::advisor::Scenario::NONE,
    );
    let status = |id| b.rules.iter().find(|r| r.id == id).unwrap().status;
    assert_eq!(status(RuleId::RapidsDoctor), RuleStatus::Fail);
    assert_eq!(status(RuleId::Puget2x), RuleStatus::Fail);
    assert_eq!(status(RuleId::BekmanTotalVram), RuleStatus::Pass);
    assert_eq!(status(RuleId::DettmersLargestGpu), RuleStatus::Pass);
    assert_eq!(b.verdict, Verdict::Baseline);
    assert!(
        b.findings
            .iter()
            .any(|f| f.id == FindingId::RamBelowOffloadTier)
    );
}

#[test]
fn g4dn_boundary_ram_equal_to_vram_passes_the_1x_rules() {
    let a = assess(
        &fixture("aws-g4dn.xlarge"),
        &ramvram::advisor::Scenario::NONE,
    );
    assert_eq!(a.ratio.ram_to_vram_total, Some(1.0));
    assert_eq!(a.verdict, Verdict::Baseline);
    let status = |id| a.rules.iter().find(|r| r.id == id).unwrap().status;
    assert_eq!(status(RuleId::BekmanTotalVram), RuleStatus::Pass);
    assert_eq!(status(RuleId::SeedOffload), RuleStatus::Fail);
}

#[test]
fn container_limit_and_small_shm() {
    // The 4090 + 128 GiB lab PC inside `docker run --memory=32g` with the default /dev/shm.
    let a = assess(
        &fixture("docker-4090-limit32g-shm64m"),
        &ramvram::advisor::Scenario::NONE,
    );
    assert_eq!(a.memory.usable_bytes, Some(32 * GIB));
    assert!(a.memory.limited_by_cgroup);
    // 32 GiB / 24 GiB = 1.33: baseline, not the 5.33 of the bare machine.
    assert!((a.ratio.ram_to_vram_total.unwrap() - 32.0 / 24.0).abs() < 1e-12);
    let ids: Vec<FindingId> = a.findings.iter().map(|f| f.id).collect();
    for id in [
        FindingId::ContainerLimitBelowRam,
        FindingId::ShmSmall,
        FindingId::SwapAbsent,
    ] {
        assert!(ids.contains(&id), "{id:?} missing from {ids:?}");
    }
    // Swappiness 60 matters only with swap: warned about once swap exists.
    assert!(!ids.contains(&FindingId::SwappinessHigh), "{ids:?}");
    let mut with_swap = fixture("docker-4090-limit32g-shm64m");
    with_swap.memory.swap_total_bytes = Some(8 * GIB);
    with_swap.memory.swap_used_bytes = Some(0);
    assert!(
        assess(&with_swap, &ramvram::advisor::Scenario::NONE)
            .findings
            .iter()
            .any(|f| f.id == FindingId::SwappinessHigh)
    );
    let shm = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::ShmSmall)
        .unwrap();
    assert_eq!(shm.values["shm"], Quantity::Bytes(64 << 20));
    // 8 workers × 2 batches × 256 × 3 × 224 × 224 × 4 bytes.
    assert_eq!(shm.values["needed"], Quantity::Bytes(2_466_250_752));
}

#[test]
fn pcie_x8_under_load_is_degraded() {
    let a = assess(
        &fixture("lab-4090-pcie-x8"),
        &ramvram::advisor::Scenario::NONE,
    );
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::PcieLinkDegraded)
        .expect("degraded");
    assert_eq!(f.values["width_current"], Quantity::Count(8));
    assert_eq!(f.values["width_max"], Quantity::Count(16));
    assert!(
        assess(&fixture("dgx-h100"), &ramvram::advisor::Scenario::NONE)
            .findings
            .iter()
            .all(|f| f.id != FindingId::PcieLinkDegraded)
    );
}

#[test]
fn findings_are_sorted_most_severe_first() {
    for name in all_fixtures() {
        let a = assess(&fixture(&name), &ramvram::advisor::Scenario::NONE);
        assert!(
            a.findings
                .windows(2)
                .all(|w| w[0].severity >= w[1].severity),
            "{name}"
        );
    }
}

#[test]
fn more_ram_never_worsens_the_verdict() {
    let mut p = fixture("aws-g5.xlarge");
    let rank = |v: Verdict| match v {
        Verdict::RamBelowVram => 0,
        Verdict::Baseline => 1,
        Verdict::OffloadReady => 2,
        Verdict::LargeModelReady => 3,
        other => panic!("unexpected {other:?}"),
    };
    // One A10G (24 GiB). Requirements by hand: 1× rules 24 GiB, seed offload 36, RAPIDS 43.2,
    // seed large-model and Puget 48, Cisco 72, NVIDIA 128 × 10^9 B = 119.2 GiB.
    use RuleId::*;
    let all = vec![
        SeedNoOffload,
        SeedOffload,
        SeedLargeModel,
        DettmersLargestGpu,
        BekmanTotalVram,
        RapidsDoctor,
        Puget2x,
        NvidiaRa128PerGpu,
        Cisco3x,
    ];
    let above_1x = vec![
        SeedOffload,
        SeedLargeModel,
        RapidsDoctor,
        Puget2x,
        NvidiaRa128PerGpu,
        Cisco3x,
    ];
    let cases: [(u64, Vec<RuleId>); 8] = [
        (8, all.clone()),
        (16, all),
        (24, above_1x.clone()),
        (32, above_1x),
        (
            36,
            vec![
                SeedLargeModel,
                RapidsDoctor,
                Puget2x,
                NvidiaRa128PerGpu,
                Cisco3x,
            ],
        ),
        (48, vec![NvidiaRa128PerGpu, Cisco3x]),
        (64, vec![NvidiaRa128PerGpu, Cisco3x]),
        (128, vec![]),
    ];
    let mut last = 0;
    for (gib, expected) in cases {
        p.memory.total_bytes = Some(gib * GIB);
        let a = assess(&p, &ramvram::advisor::Scenario::NONE);
        assert!(rank(a.verdict) >= last, "{gib} GiB: {:?}", a.verdict);
        last = rank(a.verdict);
        let failed: Vec<RuleId> = a
            .rules
            .iter()
            .filter(|r| r.status == RuleStatus::Fail)
            .map(|r| r.id)
            .collect();
        assert_eq!(failed, expected, "{gib} GiB");
    }
    assert_eq!(last, 3);
}

#[test]
fn assessment_json_round_trips() {
    let a = assess(
        &fixture("docker-4090-limit32g-shm64m"),
        &ramvram::advisor::Scenario::NONE,
    );
    let text = serde_json::to_string(&a).unwrap();
    let back: ramvram::advisor::Assessment = serde_json::from_str(&text).unwrap();
    assert_eq!(a, back);
    // RAM's four sizes by their JSON names. The fixture: 128 GiB of `MemTotal` (2^37 bytes,
    // exactly a common size, so installed is that size rounded up: itself, estimated) inside
    // `docker run --memory=32g` (2^35 bytes), which caps what a job can use and what the rules
    // compare.
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let m = &v["memory"];
    assert_eq!(m["mem_total_bytes"].as_u64(), Some(137_438_953_472));
    assert_eq!(m["limit_bytes"].as_u64(), Some(34_359_738_368));
    assert_eq!(m["usable_bytes"].as_u64(), Some(34_359_738_368));
    assert_eq!(m["limited_by_cgroup"], true);
    assert_eq!(m["installed_bytes"].as_u64(), Some(137_438_953_472));
    assert_eq!(m["installed_provenance"], "estimated");
    assert_eq!(m["installed_basis"], "mem-total-rounded-up");
    assert_eq!(m["sizing_bytes"].as_u64(), Some(34_359_738_368));
    for old in ["physical_bytes", "effective_bytes", "installed_source"] {
        assert!(m.get(old).is_none(), "{old} is schema 1's name");
    }
    assert_eq!(v["schema_version"], 3);
}

/// Issue 13's case: 64 GB installed shows as `MemTotal` 62.7 GiB, and four 16 GB GPUs as NVML's
/// 4 × 16,376 MiB = 63.97 GiB. Compared as detected, RAM < VRAM; as bought (the rules' own
/// terms), 64 GiB ≥ 4 × 16 GiB. The machine passes "RAM ≥ total VRAM" and shows both figures.
#[test]
fn installed_ram_against_nominal_vram_decides_the_sizing_rules() {
    let a = assess(
        &fixture("live-4x4080-64g"),
        &ramvram::advisor::Scenario::NONE,
    );
    let mem_total = 65_745_012u64 * 1024;
    assert_eq!(a.memory.mem_total_bytes, Some(mem_total));
    assert!(
        mem_total < 4 * 16_376 * 1024 * 1024,
        "as detected, RAM < VRAM"
    );
    assert_eq!(a.memory.installed_bytes, Some(64 * GIB));
    assert_eq!(
        a.memory.installed_provenance,
        Some(ramvram::profile::Provenance::Estimated)
    );
    assert_eq!(
        a.memory.installed_basis,
        Some(ramvram::advisor::capacity::InstalledBasis::MemTotalRoundedUp)
    );
    assert_eq!(a.vram.nominal_total_bytes, Some(64 * GIB));
    assert_eq!(a.vram.catalogue_gpus, 4);
    let status = |id| a.rules.iter().find(|r| r.id == id).unwrap().status;
    assert_eq!(status(RuleId::BekmanTotalVram), RuleStatus::Pass);
    assert_eq!(status(RuleId::SeedNoOffload), RuleStatus::Pass);
    assert!(!a.findings.iter().any(|f| f.id == FindingId::RamBelowVram));
    assert_eq!(a.verdict, Verdict::Baseline);
    // Headroom still uses what Linux can hand out.
    assert_eq!(a.memory.usable_bytes, Some(mem_total));
    let text = String::from_utf8(
        common::ramvram()
            .args(["advise", "--profile"])
            .arg(common::fixture_path("live-4x4080-64g"))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(text.contains("64.0\u{a0}GiB (estimated"), "{text}");
    assert!(text.contains("62.7\u{a0}GiB (available now"), "{text}");
}

/// Fixtures shaped like live detection give the verdicts and ratios of their nominal twins:
/// a g5.xlarge (MemTotal 15.4 GiB, NVML 23,028 MiB for the A10G) is 16 GiB : 24 GiB either way,
/// and a DGX H100 (MemTotal 2015.5 GiB, 8 × 81,559 MiB) 2048 : 640 GiB = 3.2.
#[test]
fn live_shaped_fixtures_agree_with_their_nominal_twins() {
    for (live, nominal, ratio) in [
        ("live-g5-xlarge", "aws-g5.xlarge", 16.0 / 24.0),
        ("live-dgx-h100", "dgx-h100", 2048.0 / 640.0),
    ] {
        let (a, b) = (
            assess(&fixture(live), &ramvram::advisor::Scenario::NONE),
            assess(&fixture(nominal), &ramvram::advisor::Scenario::NONE),
        );
        assert_eq!(a.verdict, b.verdict, "{live}");
        assert!(
            (a.ratio.ram_to_vram_total.unwrap() - ratio).abs() < 1e-9,
            "{live}"
        );
        assert!(
            (b.ratio.ram_to_vram_total.unwrap() - ratio).abs() < 1e-9,
            "{nominal}"
        );
        let statuses =
            |x: &ramvram::advisor::Assessment| x.rules.iter().map(|r| r.status).collect::<Vec<_>>();
        assert_eq!(statuses(&a), statuses(&b), "{live}");
    }
    // NVIDIA's 128 GB per GPU in decimal GB: 8 × 128 × 10^9 = 953.7 GiB ≤ 2048 GiB.
    let dgx = assess(&fixture("live-dgx-h100"), &ramvram::advisor::Scenario::NONE);
    let nvidia = dgx
        .rules
        .iter()
        .find(|r| r.id == RuleId::NvidiaRa128PerGpu)
        .unwrap();
    assert_eq!(nvidia.required_bytes, Some(1_024_000_000_000));
    assert_eq!(nvidia.status, RuleStatus::Pass);
}
