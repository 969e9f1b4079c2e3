//! A profile detected on Windows, read on any system, speaks Windows' terms: page file and
//! commit limit, WDDM and the CUDA sysmem fallback policy; never `MemTotal`, cgroups, swap,
//! swappiness, THP or `/dev/shm`, and no Linux-only advice (issue 23). The fixture
//! (`windows-4070-32g.json`) is shaped like detection on Windows 11.

mod common;

use common::{fixture, fixture_path, ramvram};
use ramvram::advisor::findings::FindingId;
use ramvram::advisor::{Scenario, assess};
use ramvram::profile::{OsFamily, StartMethod, os_family};

/// Linux's words and advice, in both languages, that a Windows profile must never show.
const LINUX_WORDS: &[&str] = &[
    "MemTotal",
    "cgroup",
    "swappiness",
    "Transparent huge pages",
    "/dev/shm",
    "partial",
    "Swap",
    "swap file",
    "sysctl",
    "docker run",
    "OOM killer",
    "vmstat",
    "usable by Linux",
    "透明大页",
    "交换空间",
    "只能检测部分",
];

fn run(args: &[&str]) -> String {
    let out = ramvram().args(args).assert().success().get_output().clone();
    // Sizes keep their unit with a no-break space; compare with plain spaces.
    String::from_utf8(out.stdout)
        .unwrap()
        .replace('\u{a0}', " ")
}

fn assert_windows_words(text: &str, what: &str) {
    for bad in LINUX_WORDS {
        assert!(!text.contains(bad), "{what} says {bad:?}:\n{text}");
    }
}

#[test]
fn the_profile_says_it_is_windows() {
    let p = fixture("windows-4070-32g");
    assert_eq!(os_family(&p), Some(OsFamily::Windows));
    assert_eq!(
        ramvram::profile::start_method(os_family(&p)),
        StartMethod::Spawn
    );
    // The Linux fixtures keep their words.
    assert_eq!(os_family(&fixture("live-g5-xlarge")), Some(OsFamily::Linux));
}

#[test]
fn advise_speaks_windows_in_both_languages() {
    let path = fixture_path("windows-4070-32g");
    let path = path.to_str().unwrap();
    let en = run(&["advise", "--lang", "en", "--profile", path]);
    assert_windows_words(&en, "advise --lang en");
    // Rows and paragraphs wrap to the terminal's width: a phrase may span two lines.
    let en = en
        .split([' ', '\n'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    // The rows from the fixture's values, by hand: 5 GiB system-managed page file with
    // 402,653,184 bytes (384 MiB) in use; commit limit 39,531,069,440 bytes = 36.8 GiB.
    for want in [
        "RAM usable by Windows",
        r"C:\pagefile.sys — system managed, 5.0 GiB, 384 MiB in use",
        "36.8 GiB (RAM + page files), 20.0 GiB committed now",
        "driver model WDDM",
        "15.9 GiB shared GPU memory",
        "Prefer No Sysmem Fallback",
        "NVIDIA Control Panel",
    ] {
        assert!(en.contains(want), "no {want:?} in:\n{en}");
    }
    let zh = run(&["advise", "--lang", "zh", "--profile", path]);
    assert_windows_words(&zh, "advise --lang zh");
    for want in [
        "页面文件",
        "提交限制",
        "驱动模式 WDDM",
        "共享 GPU 内存",
        "首选无系统内存回退",
    ] {
        assert!(zh.contains(want), "no {want:?} in:\n{zh}");
    }
}

#[test]
fn workload_advice_uses_spawn_semantics_without_shm() {
    let path = fixture_path("windows-4070-32g");
    let path = path.to_str().unwrap();
    for lang in ["en", "zh"] {
        let text = run(&[
            "advise",
            "--lang",
            lang,
            "--profile",
            path,
            "--workload",
            "imagenet-resnet50",
            "--num-workers",
            "8",
        ]);
        assert_windows_words(&text, "advise --workload");
        assert!(text.contains("spawn"), "{text}");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.md");
        ramvram()
            .args(["report", "--lang", lang, "--profile", path])
            .args(["--workload", "imagenet-resnet50", "--format", "md", "--out"])
            .arg(&out)
            .assert()
            .success();
        assert_windows_words(&std::fs::read_to_string(&out).unwrap(), "report md");
    }
}

#[test]
fn spawned_workers_carry_their_own_interpreter_and_dataset_copy() {
    let windows = fixture("windows-4070-32g");
    let mut linux = windows.clone();
    linux.windows = None;
    linux.host.os = Some("Ubuntu 22.04.4 LTS".into());
    let inputs = Scenario {
        workload: ramvram::advisor::workload::presets::preset("imagenet-resnet50").map(|mut w| {
            w.num_workers = 8;
            w
        }),
        ..Scenario::NONE
    };
    let w = assess(&windows, &inputs).workload.unwrap();
    let l = assess(&linux, &inputs).workload.unwrap();
    use ramvram::advisor::workload::BudgetItemId as B;
    assert_eq!(w.start_method, StartMethod::Spawn);
    assert_eq!(l.start_method, StartMethod::Fork);
    // 8 workers × 300 MiB spawned against 8 × 90 MiB forked (budget.rs constants).
    assert_eq!(w.memory_budget.item(B::Workers), 8 * (300 << 20));
    assert_eq!(l.memory_budget.item(B::Workers), 8 * (90 << 20));
    // The dataset index is in every worker either way (refcounting copies it under fork).
    assert_eq!(
        w.memory_budget.item(B::WorkerIndexCopies),
        l.memory_budget.item(B::WorkerIndexCopies)
    );
}

#[test]
fn windows_findings_replace_linux_ones() {
    let a = assess(
        &fixture("windows-4070-32g"),
        &ramvram::advisor::Scenario::NONE,
    );
    let ids: Vec<FindingId> = a.findings.iter().map(|f| f.id).collect();
    assert!(ids.contains(&FindingId::WddmSysmemFallback), "{ids:?}");
    for linux in [
        FindingId::SwapAbsent,
        FindingId::SwapInUse,
        FindingId::SwappinessHigh,
        FindingId::ShmSmall,
        FindingId::ContainerLimitBelowRam,
    ] {
        assert!(!ids.contains(&linux), "{ids:?}");
    }
    // Without a page file: Windows' finding and advice, not "add swap".
    let mut p = fixture("windows-4070-32g");
    p.memory.swap_total_bytes = Some(0);
    p.memory.swap_used_bytes = Some(0);
    p.windows.as_mut().unwrap().page_files = Some(Vec::new());
    let a = assess(&p, &ramvram::advisor::Scenario::NONE);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::PageFileAbsent)
        .expect("page-file-absent");
    let text = ramvram::present::finding_recommendations(ramvram::i18n::Lang::En, f).join(" ");
    assert!(text.contains("System managed size"), "{text}");
    // A Linux profile with no swap still gets Linux's finding.
    let mut linux = fixture("live-g5-xlarge");
    linux.memory.swap_total_bytes = Some(0);
    assert!(
        assess(&linux, &ramvram::advisor::Scenario::NONE)
            .findings
            .iter()
            .any(|f| f.id == FindingId::SwapAbsent)
    );
}

#[test]
fn linux_rows_are_unchanged_for_linux_profiles() {
    let path = fixture_path("live-g5-xlarge");
    let en = run(&[
        "advise",
        "--lang",
        "en",
        "--profile",
        path.to_str().unwrap(),
    ]);
    for want in [
        "RAM usable by Linux (MemTotal)",
        "vm.swappiness",
        "/dev/shm",
    ] {
        assert!(en.contains(want), "no {want:?} in:\n{en}");
    }
    assert!(!en.contains("Page file") && !en.contains("Commit limit"));
}

#[test]
fn a_dataset_on_a_drive_letter_is_found_from_its_verbatim_path() {
    use ramvram::inputs::dataset::without_verbatim_prefix as plain;
    // What std::fs::canonicalize returns on Windows (Rust std docs: "On Windows, this converts
    // the path to use extended length path syntax").
    assert_eq!(plain(r"\\?\D:\datasets\imagenet"), r"D:\datasets\imagenet");
    assert_eq!(
        plain(r"\\?\UNC\nas\share\imagenet"),
        r"\\nas\share\imagenet"
    );
    assert_eq!(plain(r"\\?\Volume{1b3b}\x"), r"\\?\Volume{1b3b}\x");
    assert_eq!(plain("/data/imagenet"), "/data/imagenet");
}

/// The loading peak of tests/training_advice.rs's 70B QLoRA on 4 × RTX 4080 (64 GiB), on the
/// same machine under Windows: the 2 GiB the meta-device load still needs goes to the page file,
/// not to a swap file.
#[test]
fn a_loading_peak_goes_to_the_page_file_on_windows() {
    use ramvram::advisor::training::{FineTune, LoadingMethod, Strategy, TrainingPlan, presets};
    let mut p = fixture("live-4x4080-64g");
    p.host.os = Some("Windows 11 Pro".into());
    p.host.kernel = Some("26100".into());
    p.memory.swappiness = None;
    p.memory.transparent_hugepages = None;
    p.memory.shm_bytes = None;
    p.windows = Some(Default::default());
    let plan = TrainingPlan {
        finetune: FineTune::Qlora,
        strategy: Strategy::FsdpFullShard,
        gpus_per_node: 4,
        loading: Some(LoadingMethod::EveryRank),
        ..TrainingPlan::from_preset(presets::preset("llama2-70b").unwrap())
    };
    let a = assess(
        &p,
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    );
    // Loading on rank 0 (fsdp_qlora's `--low_memory`) fits without one; the meta device's
    // 2 GiB goes to the page file.
    let first = a
        .recommendations
        .iter()
        .find(|r| r.id == ramvram::advisor::recommend::AdviceId::MetaDeviceInit)
        .unwrap();
    assert_eq!(
        first.changes.get("page_file"),
        Some(&ramvram::advisor::Quantity::Bytes(2 << 30))
    );
    assert!(!first.changes.contains_key("swap"));
    for lang in ramvram::i18n::Lang::ALL {
        let t = ramvram::present::recommend::title(lang, first);
        assert!(t.contains("page file") || t.contains("页面文件"), "{t}");
        assert_windows_words(&t, "the recommendation");
    }
}
