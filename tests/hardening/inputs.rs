//! Hostile inputs: devices and FIFOs, huge GRES counts, a full stderr.

use super::*;

#[test]
fn dev_zero_and_a_fifo_are_refused_as_every_kind_of_input() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    mkfifo(&fifo);
    let profile = common::fixture_path("dgx-a100");
    let profile = profile.to_str().unwrap();
    for bad in [Path::new("/dev/zero"), fifo.as_path()] {
        let bad = bad.to_str().unwrap();
        for args in [
            vec!["advise", "--profile", bad],
            vec!["advise", "--slurm", bad],
            vec!["advise", "--profile", profile, "--scenario", bad],
            vec!["advise", "--profile", profile, "--dmidecode", bad],
            vec!["bench", "memory", "--into", bad],
        ] {
            let start = Instant::now();
            let assert = common::ramvram()
                .args(&args)
                .timeout(Duration::from_secs(20))
                .assert()
                .code(2);
            let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
            assert!(
                stderr.contains(bad) && stderr.contains("not a regular file"),
                "{args:?}: {stderr}"
            );
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{args:?} was slow"
            );
        }
    }
}

#[test]
fn huge_gres_counts_are_errors_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    for count in ["4294967295", "10000000", "1025"] {
        let file = dir.path().join(format!("nodes-{count}.json"));
        let text = format!(r#"{{"nodes":[{{"name":"n","gres":"gpu:h100:{count}"}}]}}"#);
        std::fs::write(&file, &text).unwrap();
        let start = Instant::now();
        let assert = common::ramvram()
            .args(["advise", "--slurm"])
            .arg(&file)
            .timeout(Duration::from_secs(20))
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            // The field is a code span, printed without its backticks.
            stderr.contains("field nodes[0].gres:")
                && stderr.contains(&format!(
                    "{count} entries, more than the 1024 ramvram accepts"
                )),
            "{stderr}"
        );
        assert!(start.elapsed() < Duration::from_secs(10));
    }
    // 1,024 is allowed: the cap, not below it.
    let file = dir.path().join("ok.json");
    std::fs::write(&file, r#"{"nodes":[{"name":"n","gres":"gpu:h100:1024"}]}"#).unwrap();
    let json = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--slurm"])
            .arg(&file),
    );
    assert_eq!(
        json["machines"][0]["assessment"]["profile"]["gpus"]
            .as_array()
            .unwrap()
            .len(),
        1024
    );
}

/// Runs ramvram with stderr on `/dev/full` (every write fails with ENOSPC); the exit status.
fn with_full_stderr(args: &[&str]) -> Option<i32> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    std::process::Command::new(assert_cmd::cargo::cargo_bin("ramvram"))
        .args(args)
        .env_remove("RAMVRAM_LANG")
        .env("LANG", "C.UTF-8")
        .stdout(Stdio::null())
        .stderr(Stdio::from(full))
        .status()
        .unwrap()
        .code()
}

/// Issue 25, item 7: a write to stderr that fails is an error, as stdout's is. A run that
/// failed keeps its status (2: bad input). A run whose main output was written but whose
/// message on stderr was lost ends with 1, as GNU tools do (gnulib's `close_stdout` exits with
/// a failure status when stderr can't be written): a script checking the status learns that
/// messages were lost. This test expected 0 before ("failing to say so is not a failure"); the
/// issue asks for stderr failures to be errors everywhere, so it now asks for 1. A run that
/// writes nothing to stderr is not affected (0).
#[test]
fn a_full_stderr_never_panics_and_keeps_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, b"{").unwrap();
    assert_eq!(
        with_full_stderr(&["advise", "--profile", bad.to_str().unwrap()]),
        Some(2)
    );
    let out = dir.path().join("r.md");
    let profile = common::fixture_path("dgx-a100");
    assert_eq!(
        with_full_stderr(&[
            "report",
            "--format",
            "md",
            "--out",
            out.to_str().unwrap(),
            "--profile",
            profile.to_str().unwrap(),
        ]),
        Some(1),
        "the report was written, but the line saying so could not be"
    );
    assert!(out.exists(), "the report itself is written");
    assert_eq!(
        with_full_stderr(&["advise", "--profile", profile.to_str().unwrap()]),
        Some(0),
        "nothing was written to stderr, so nothing failed"
    );
}

/// Issue 25: `--profile-dir` does not follow a link out of the folder (to a root-only file a
/// user links into a shared folder), and a field of the wrong type is named with the type it
/// should have, never with the string written there.
#[test]
fn a_profile_dir_does_not_follow_links_out_and_errors_quote_no_strings() {
    let root = tempfile::tempdir().unwrap();
    let secret = root.path().join("shadow.json");
    std::fs::write(
        &secret,
        r#"{"schema_version": "root-only TOPSECRET words", "memory": {"total_bytes": 1}}"#,
    )
    .unwrap();
    chmod(&secret, 0o600);
    let shared = root.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::copy(common::fixture_path("dgx-a100"), shared.join("a100.json")).unwrap();
    std::os::unix::fs::symlink(&secret, shared.join("x.json")).unwrap();
    for lang in ["en", "zh"] {
        let out = common::ramvram()
            .args(["advise", "--lang", lang, "--profile-dir"])
            .arg(&shared)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!text.contains("TOPSECRET"), "{text}");
        let line = text
            .lines()
            .find(|l| l.contains("x.json"))
            .unwrap_or_else(|| panic!("x.json not named: {text}"));
        let words = if lang == "en" {
            "symbolic link"
        } else {
            "符号链接"
        };
        assert!(line.contains(words), "{line}");
    }
    // The same file named directly (root's own choice) is read, and its bad field is named
    // with the type it needs, without the string.
    let out = common::ramvram()
        .args(["advise", "--profile"])
        .arg(&secret)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("TOPSECRET"), "{err}");
    assert!(err.contains("schema_version"), "{err}");
    assert!(err.contains("a string"), "{err}");
}

/// Issue 25: help and the version are output like any other: when standard output can't take
/// them (`--help > /dev/full`) the exit status says so (1), with the reason on stderr.
#[test]
fn help_and_version_into_a_full_stdout_fail() {
    for args in [
        vec!["--help"],
        vec!["--version"],
        vec!["advise", "--help"],
        vec!["--lang", "zh", "--help"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("ramvram"))
            .args(&args)
            .env_remove("RAMVRAM_LANG")
            .env("LANG", "C.UTF-8")
            .stdout(Stdio::from(full))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("stdout"), "{args:?}: {err}");
    }
}
