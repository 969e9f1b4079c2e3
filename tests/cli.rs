//! The command line, run as a user would (assert_cmd).

mod common;

use common::{json_of, ramvram};

use common::fixture_path;
use predicates::prelude::*;

#[cfg(target_os = "linux")]
#[test]
fn detect_json_matches_proc_meminfo_and_nproc() {
    let v = json_of(ramvram().args(["detect", "--json"]));
    // Independent readings: /proc/meminfo's MemTotal and the `nproc` command.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kib: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(v["memory"]["total_bytes"].as_u64(), Some(kib * 1024));
    let nproc = std::process::Command::new("nproc").output().unwrap();
    let nproc: u64 = String::from_utf8_lossy(&nproc.stdout)
        .trim()
        .parse()
        .unwrap();
    assert_eq!(v["cpu"]["logical_cpus"].as_u64(), Some(nproc));
    assert_eq!(v["schema_version"].as_u64(), Some(1));
    // /dev/shm as `df` would report it: statvfs blocks × fragment size, from an independent tool.
    let df = std::process::Command::new("df")
        .args(["-B1", "--output=size", "/dev/shm"])
        .output()
        .unwrap();
    let df_size: u64 = String::from_utf8_lossy(&df.stdout)
        .lines()
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(v["memory"]["shm_bytes"].as_u64(), Some(df_size));
    assert!(
        v["disks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["mount_point"] == "/")
    );
}

#[test]
fn detect_out_writes_a_profile_that_advise_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("me.json");
    ramvram()
        .args(["detect", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    ramvram()
        .args(["advise", "--json", "--profile"])
        .arg(&out)
        .assert()
        .success();
}

#[test]
fn advise_g5_json_has_ratio_rules_and_critical_finding() {
    let v = json_of(
        ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(fixture_path("aws-g5.xlarge")),
    );
    let r = v["ratio"]["ram_to_vram_total"].as_f64().unwrap();
    assert!((r - 16.0 / 24.0).abs() < 1e-9);
    assert!(v["ratio"]["ram_to_largest_gpu"].is_number());
    let rules = v["rules"].as_array().unwrap();
    assert!(
        rules
            .iter()
            .all(|r| r["id"].is_string() && r["status"].is_string() && r["source"].is_string())
    );
    let rapids = rules.iter().find(|r| r["id"] == "rapids-doctor").unwrap();
    // 1.8 × 24 GiB = 43.2 GiB, rounded up to a whole byte.
    assert_eq!(
        rapids["required_bytes"].as_u64(),
        Some((1.8f64 * 24.0 * (1u64 << 30) as f64).ceil() as u64)
    );
    assert_eq!(rapids["actual_bytes"].as_u64(), Some(16 << 30));
    assert_eq!(rapids["status"], "fail");
    let f = &v["findings"][0];
    assert_eq!(f["id"], "ram-below-vram");
    assert_eq!(f["severity"], "critical");
    assert_eq!(v["profile"]["host"]["hostname"], "aws-g5.xlarge");
}

#[test]
fn advise_g5_in_chinese_explains_the_problem() {
    ramvram()
        .args(["advise", "--lang", "zh", "--profile"])
        .arg(fixture_path("aws-g5.xlarge"))
        .assert()
        .success()
        .stdout(predicate::str::contains("内存比显存还小"))
        .stdout(predicate::str::contains("16.0\u{a0}GiB"))
        .stdout(predicate::str::contains("24.0\u{a0}GiB"))
        .stdout(predicate::str::contains("0.67×"))
        .stdout(predicate::str::contains("页缓存"));
}

#[test]
fn ramvram_lang_environment_selects_chinese() {
    ramvram()
        .env("RAMVRAM_LANG", "zh_CN.UTF-8")
        .args(["advise", "--profile"])
        .arg(fixture_path("dgx-h100"))
        .assert()
        .success()
        .stdout(predicate::str::contains("内存充足"));
}

#[test]
fn corrupt_profile_exits_2_naming_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    let text = std::fs::read_to_string(fixture_path("aws-g5.xlarge")).unwrap();
    std::fs::write(
        &bad,
        text.replace("\"total_bytes\": 17179869184", "\"total_bytes\": \"16 GB\""),
    )
    .unwrap();
    ramvram()
        .args(["advise", "--profile"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.json"))
        .stderr(predicate::str::contains("memory.total_bytes"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn missing_profile_exits_2_naming_the_file() {
    ramvram()
        .args(["advise", "--profile", "/no/such/profile.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/profile.json"));
}

#[test]
fn truncated_profile_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("cut.json");
    let text = std::fs::read_to_string(fixture_path("dgx-h100")).unwrap();
    std::fs::write(&bad, &text[..text.len() / 2]).unwrap();
    ramvram()
        .args(["advise", "--profile"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cut.json"));
}

#[test]
fn no_display_prints_the_assessment_and_a_hint() {
    ramvram()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .args(["--profile"])
        .arg(fixture_path("aws-g5.xlarge"))
        .assert()
        .success()
        .stdout(predicate::str::contains("RAM is smaller than GPU memory"))
        .stderr(predicate::str::contains("No display"));
}

#[test]
fn advise_with_the_issue_example_flags_adds_training_memory() {
    let v = json_of(
        ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(fixture_path("dgx-h100"))
            .args([
                "--params",
                "7B",
                "--largest-layer-params",
                "131M",
                "--gpus-per-node",
                "8",
                "--nodes",
                "1",
            ])
            .args([
                "--zero-stage",
                "3",
                "--offload-optimizer",
                "cpu",
                "--offload-param",
                "cpu",
                "--zero-init",
            ]),
    );
    let t = &v["training_memory"];
    // DeepSpeed ZeRO-3, both offloaded, zero_init: CPU = 18 × P / nodes × 1.5, GPU = 4 × L.
    assert_eq!(
        t["cpu_bytes_per_node"].as_u64(),
        Some(18 * 7_000_000_000 * 3 / 2)
    );
    assert_eq!(t["gpu_bytes_per_gpu"].as_u64(), Some(4 * 131_000_000));
    assert_eq!(t["nvme_bytes"].as_u64(), Some(0));
    assert_eq!(t["fits"], true, "189 GB of CPU states fit in 2 TiB");
    assert_eq!(t["formula"], "deepspeed-estimator");
    assert!(t["breakdown"].as_array().unwrap().len() >= 4);
}

#[test]
fn bad_training_flags_exit_2_naming_the_flag() {
    let g5 = fixture_path("aws-g5.xlarge");
    let cases: [(&[&str], &str); 5] = [
        (&["--params", "0"], "--params"),
        (&["--params=-7B"], "--params"),
        (
            &["--params", "7B", "--largest-layer-params", "8B"],
            "--largest-layer-params",
        ),
        (
            &[
                "--params",
                "7B",
                "--zero-stage",
                "2",
                "--offload-optimizer",
                "nvme",
            ],
            "--offload-optimizer",
        ),
        (
            &["--params", "7B", "--gpus-per-node", "0"],
            "--gpus-per-node",
        ),
    ];
    for (flags, named) in cases {
        ramvram()
            .args(["advise", "--profile"])
            .arg(&g5)
            .args(flags)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(named))
            .stderr(predicate::str::contains("panicked").not());
    }
    ramvram()
        .args(["advise", "--profile"])
        .arg(&g5)
        .args(["--zero-stage", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--params or --preset"));
}

#[test]
fn an_unknown_ramvram_lang_is_reported_not_silently_ignored() {
    let out = ramvram()
        .env("RAMVRAM_LANG", "fr")
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .args(["advise", "--profile"])
        .arg(fixture_path("aws-g5.xlarge"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("RAMVRAM_LANG=fr") && stderr.contains("English"),
        "{stderr}"
    );
    // A language ramvram has is used without a word.
    let out = ramvram()
        .env("RAMVRAM_LANG", "zh-CN")
        .args(["advise", "--profile"])
        .arg(fixture_path("aws-g5.xlarge"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("RAMVRAM_LANG"));
}

/// What the terminal prints, in both languages: no code span keeps its backticks (a student
/// copies `--dataset-size 2000GB`, not the backticks). Standard output and standard error of
/// text commands whose messages carry code spans.
#[test]
fn terminal_text_never_shows_code_span_backticks() {
    let seed = fixture_path("seed-4090-32g");
    let seed = seed.to_str().unwrap();
    let traces = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces");
    let sawtooth = traces.join("sawtooth.jsonl");
    let profiles = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profiles");
    let runs: Vec<Vec<String>> = vec![
        // The workload notice on standard error ("taken from it: --dataset-size …").
        vec![
            "advise",
            "--profile",
            seed,
            "--dataset-size",
            "2000GB",
            "--samples",
            "666667",
        ],
        vec!["advise", "--profile", seed],
        vec!["detect"],
        vec!["diagnose", sawtooth.to_str().unwrap()],
        vec!["advise", "--profile-dir", profiles.to_str().unwrap()],
        vec![
            "collect",
            "--slurm",
            "--nodes",
            "gpu[01-02]",
            "--out",
            "profiles/",
        ],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(String::from).collect())
    .collect();
    for lang in ["en", "zh"] {
        for args in &runs {
            let out = ramvram()
                .env("RAMVRAM_LANG", lang)
                .args(args)
                .output()
                .unwrap();
            for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
                let text = String::from_utf8_lossy(bytes);
                assert!(
                    !text.contains('`'),
                    "ramvram {} ({lang}), {stream}:\n{text}",
                    args.join(" ")
                );
            }
        }
    }
}

/// A report into a folder that doesn't exist names the user's path and the folder, never the
/// temporary file, in the user's language; a profile folder's bad file is named once.
#[test]
fn file_errors_name_the_users_path_once() {
    let seed = fixture_path("seed-4090-32g");
    for (lang, expected) in [
        (
            "en",
            "ramvram: error: /nonexistent/dir/x.pdf: the folder /nonexistent/dir doesn't exist\n",
        ),
        (
            "zh",
            "ramvram：错误：/nonexistent/dir/x.pdf：文件夹 /nonexistent/dir 不存在\n",
        ),
    ] {
        let out = ramvram()
            .env("RAMVRAM_LANG", lang)
            .args([
                "report",
                "--format",
                "pdf",
                "--out",
                "/nonexistent/dir/x.pdf",
                "--profile",
            ])
            .arg(&seed)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(String::from_utf8_lossy(&out.stderr), expected);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&seed, dir.path().join("a.json")).unwrap();
    let text = std::fs::read_to_string(&seed).unwrap();
    std::fs::write(dir.path().join("c.json"), &text[..300]).unwrap();
    let out = ramvram()
        .current_dir(dir.path())
        .args(["advise", "--profile-dir", "."])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.contains("c.json"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(line.matches("c.json").count(), 1, "{line}");
    assert!(line.contains("the file ends early (line "), "{line}");
}

/// `--format` and the name of `--out` agree, or the report is refused; without `--format` the
/// name says which format (as the window's save dialogs read it).
#[test]
fn the_output_name_and_the_format_agree() {
    let seed = fixture_path("seed-4090-32g");
    let dir = tempfile::tempdir().unwrap();
    let run = |lang: &str, args: &[&str]| {
        ramvram()
            .current_dir(dir.path())
            .env("RAMVRAM_LANG", lang)
            .args(["report", "--profile"])
            .arg(&seed)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run("en", &["--format", "pdf", "--out", "report.md"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "ramvram: error: --out report.md ends in .md, which is not what --format pdf writes: \
         give --out report.pdf, or --format md.\n"
    );
    assert!(!dir.path().join("report.md").exists());
    let out = run("zh", &["--format", "json", "--out", "r.PDF"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "ramvram：错误：--out r.PDF 以 .PDF 结尾，和 --format json 写出的格式不符：\
         请改用 --out r.json，或者改用 --format pdf。\n"
    );
    // No --format: the extension says; none that names a format is an error.
    assert!(run("en", &["--out", "r.md"]).status.success());
    let md = std::fs::read_to_string(dir.path().join("r.md")).unwrap();
    assert!(md.starts_with("# RAM·VRAM report: seed-4090-32g"), "{md}");
    assert!(run("en", &["--out", "r.json"]).status.success());
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(v["profile"]["host"]["hostname"], "seed-4090-32g");
    assert!(run("en", &["--out", "r.pdf"]).status.success());
    assert!(
        std::fs::read(dir.path().join("r.pdf"))
            .unwrap()
            .starts_with(b"%PDF")
    );
    let out = run("en", &["--out", "r.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--out r.txt: the name doesn't say which format"),
        "{out:?}"
    );
    // --format with a name that names no format: the format given.
    assert!(
        run("en", &["--format", "md", "--out", "notes.txt"])
            .status
            .success()
    );
    assert!(
        std::fs::read_to_string(dir.path().join("notes.txt"))
            .unwrap()
            .starts_with("# RAM·VRAM report")
    );
}
