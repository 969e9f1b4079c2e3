//! `ramvram watch` and `ramvram diagnose`: live on this machine (no GPU), with a fake GPU
//! source, and on the synthetic traces committed in tests/fixtures/traces.

mod common;

use std::path::{Path, PathBuf};

use common::{json_of, ramvram};
use ramvram::probe::live::Sampler;
use ramvram::probe::live::gpu::FakeGpuSeries;
use ramvram::trace::jsonl::TraceWriter;
use ramvram::trace::{Trace, synthetic};

fn traces_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces")
}

/// The committed fixtures and the synthetic traces they were written from.
fn fixtures() -> Vec<(&'static str, Trace, Vec<&'static str>)> {
    vec![
        (
            "sawtooth",
            synthetic::sawtooth(120, 4),
            vec!["gpu-starved", "power-unstable"],
        ),
        ("steady", synthetic::steady(120), vec![]),
        (
            "swap-storm",
            synthetic::swap_storm(),
            vec!["ram-near-limit", "swap-thrashing"],
        ),
        ("oom-kill", synthetic::oom_kill(), vec!["oom-killed"]),
        (
            "shm-filling",
            synthetic::shm_filling(),
            vec!["shm-exhausted"],
        ),
    ]
}

fn write_trace(trace: &Trace, path: &Path) {
    let mut w = TraceWriter::create(path, &trace.header).unwrap();
    for s in &trace.samples {
        w.append(s).unwrap();
    }
}

fn ids(v: &serde_json::Value) -> Vec<String> {
    let mut ids: Vec<String> = v["diagnoses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

#[test]
fn committed_traces_are_the_synthetic_ones_and_diagnose_to_the_expected_ids() {
    let dir = tempfile::tempdir().unwrap();
    for (name, trace, expected) in fixtures() {
        let committed = traces_dir().join(format!("{name}.jsonl"));
        let fresh = dir.path().join(format!("{name}.jsonl"));
        write_trace(&trace, &fresh);
        if std::env::var_os("RAMVRAM_WRITE_TRACES").is_some() {
            std::fs::copy(&fresh, &committed).unwrap();
        }
        assert_eq!(
            std::fs::read(&committed).unwrap(),
            std::fs::read(&fresh).unwrap(),
            "{name}.jsonl differs from trace::synthetic (RAMVRAM_WRITE_TRACES=1 rewrites it)"
        );
        let v = json_of(ramvram().arg("diagnose").arg(&committed).arg("--json"));
        assert_eq!(ids(&v), expected, "{name}");
        assert_eq!(v["samples"], trace.samples.len());
    }
}

#[test]
fn sawtooth_trace_gives_duty_cycle_period_and_advice() {
    let v = json_of(
        ramvram()
            .arg("diagnose")
            .arg(traces_dir().join("sawtooth.jsonl"))
            .arg("--json"),
    );
    let d = v["diagnoses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == "gpu-starved")
        .unwrap()
        .clone();
    // Busy one second in four: 29 busy samples of the 116 from t = 1 to t = 116.
    assert_eq!(d["evidence"]["duty_cycle"]["value"], 0.25);
    assert_eq!(d["evidence"]["period"]["unit"], "seconds");
    assert_eq!(d["evidence"]["period"]["value"], 4.0);
    assert_eq!(
        (d["from_s"].clone(), d["to_s"].clone()),
        (1.0.into(), 116.0.into())
    );
    assert_eq!(d["severity"], "critical");
    assert_eq!(d["recommendations"][0], "increase-num-workers");
    // The text names it in Chinese too.
    let out = ramvram()
        .args(["--lang", "zh", "diagnose"])
        .arg(traces_dir().join("sawtooth.jsonl"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("GPU 0 在等数据：只有 25.0\u{a0}% 的时间在干活，每 4\u{a0}秒一个周期"),
        "{text}"
    );
    assert!(
        text.contains("1\u{a0}秒 – 1\u{a0}分\u{a0}56\u{a0}秒"),
        "{text}"
    );
}

#[test]
fn a_trace_cut_off_mid_line_still_replays() {
    let full = std::fs::read(traces_dir().join("sawtooth.jsonl")).unwrap();
    // Cut in the middle of the last line (the run was killed while writing it).
    let cut = &full[..full.len() - 40];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.jsonl");
    std::fs::write(&path, cut).unwrap();
    let out = ramvram()
        .arg("diagnose")
        .arg(&path)
        .arg("--json")
        .assert()
        .success();
    let o = out.get_output();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // 120 samples and a header are 121 lines; the 121st is cut and skipped.
    assert_eq!(v["samples"], 119);
    assert_eq!(v["truncated_line"], 121);
    assert_eq!(ids(&v), ["gpu-starved", "power-unstable"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 121 was cut off"), "{err}");
}

#[test]
fn a_malformed_trace_names_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl");
    std::fs::write(
        &path,
        "{\"schema\":\"ramvram-trace\",\"version\":1,\"interval_s\":1}\n{\"t\":0}\n\
         {\"t\":1,\"host\":{\"swap_used_bytes\":-1}}\n{\"t\":2}\n",
    )
    .unwrap();
    let out = ramvram()
        .arg("diagnose")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(
        err.contains("bad.jsonl: line 3: field host.swap_used_bytes"),
        "{err}"
    );
    // Not a trace at all, and a folder.
    ramvram().arg("diagnose").arg(dir.path()).assert().code(2);
    ramvram()
        .arg("diagnose")
        .arg(common::fixture_path("aws-g5.xlarge"))
        .assert()
        .code(2);
}

/// Issue 25: a trace value of the wrong type is named by line, field and the type it needs, in
/// the user's language, never in serde's words ("invalid type: string \"soon\", expected f64")
/// and never quoting the string written there.
#[test]
fn a_trace_value_of_the_wrong_type_is_worded_in_the_users_language() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.jsonl");
    std::fs::write(
        &path,
        "{\"schema\":\"ramvram-trace\",\"version\":1,\"interval_s\":1}\n{\"t\":\"soon\"}\n",
    )
    .unwrap();
    for (lang, words) in [
        ("en", ["line 2", "field t", "a number"]),
        ("zh", ["第 2 行", "字段 t", "数字"]),
    ] {
        let out = ramvram()
            .args(["diagnose", "--lang", lang])
            .arg(&path)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8_lossy(&out);
        for w in words {
            assert!(err.contains(w), "{lang}: {w:?} missing from {err}");
        }
        for serde in ["f64", "soon", "expected f64"] {
            assert!(!err.contains(serde), "{lang}: {serde:?} in {err}");
        }
        if lang == "zh" {
            assert!(!err.contains("invalid type"), "{err}");
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn watching_a_python_script_shows_its_peak_and_passes_its_exit_code() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("python3 not installed: skipped");
        return;
    }
    // 1.5 GiB of bytes written (so every page is touched), held for 2 s, then exit code 3.
    let script = "import sys, time\nx = b'\\1' * (1536 * 2**20)\ntime.sleep(2)\nsys.exit(3)\n";
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("run.jsonl");
    let out = ramvram()
        .args(["watch", "--interval", "250ms", "--json", "--record"])
        .arg(&record)
        .args(["--", "python3", "-c", script])
        .assert()
        .code(3)
        .get_output()
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exit_code"], 3);
    let target = 1536.0 * (1u64 << 20) as f64;
    let rss = v["peaks"]["process_rss_bytes"].as_f64().unwrap();
    assert!(
        (rss - target).abs() <= 0.1 * target,
        "peak RSS {rss} vs 1.5 GiB"
    );
    // No GPU here, nothing wrong with the machine: no diagnosis.
    assert_eq!(v["diagnoses"], serde_json::json!([]), "{v}");
    // The recording replays to the same peak.
    let replay = json_of(ramvram().arg("diagnose").arg(&record).arg("--json"));
    assert_eq!(
        replay["peaks"]["process_rss_bytes"],
        v["peaks"]["process_rss_bytes"]
    );
    assert_eq!(replay["samples"], v["samples"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("python3 ended with exit code 3"), "{err}");
}

#[test]
fn a_command_that_cannot_start_and_a_missing_pid_are_errors() {
    ramvram()
        .args(["watch", "--", "/nonexistent/ramvram-test-command"])
        .assert()
        .code(127);
    ramvram()
        .args(["watch", "--pid", "4294967294"])
        .assert()
        .code(2);
    ramvram()
        .args(["watch", "--interval", "10ms"])
        .assert()
        .code(2);
}

#[test]
fn a_fake_gpu_plays_its_utilisation_series_through_the_sampler() {
    let mut sampler = Sampler::new(None, Box::new(FakeGpuSeries::new(vec![vec![98, 2, 2, 2]])));
    let utils: Vec<f64> = (0..8)
        .map(|_| sampler.sample().gpus[0].util_percent.unwrap())
        .collect();
    assert_eq!(utils, [98.0, 2.0, 2.0, 2.0, 98.0, 2.0, 2.0, 2.0]);
    // And through the command line, recorded: power follows (60 W + 3.2 W × 98 = 373.6 W).
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("fake.jsonl");
    ramvram()
        .args([
            "watch",
            "--interval",
            "100ms",
            "--duration",
            "1s",
            "--fake-gpu-series",
            "98,2,2,2",
            "--record",
        ])
        .arg(&record)
        .assert()
        .success();
    let t = ramvram::trace::jsonl::read_trace(&record).unwrap().trace;
    assert!(t.samples.len() >= 4, "{}", t.samples.len());
    assert_eq!(t.samples[0].gpus[0].power_w, Some(373.6));
    assert_eq!(t.samples[1].gpus[0].util_percent, Some(2.0));
    assert_eq!(t.samples[1].gpus[0].power_w, Some(66.4));
}

#[test]
fn checks_without_data_are_named_not_passed() {
    // A trace whose GPU and /dev/shm fields are null (an exporter without them), replayed.
    let mut trace = synthetic::steady(20);
    for s in &mut trace.samples {
        s.gpus[0].util_percent = None;
        s.host.shm_used_bytes = None;
        s.host.shm_total_bytes = None;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nulls.jsonl");
    write_trace(&trace, &path);
    let out = ramvram()
        .env("RAMVRAM_LANG", "en")
        .arg("diagnose")
        .arg(&path)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains(
            "Nothing wrong seen: no swapping, page-cache thrashing, I/O wait, OOM kill or \
             memory near its limit."
        ),
        "{text}"
    );
    assert!(
        text.contains("GPU utilisation wasn't in the trace, so starved GPUs couldn't be checked."),
        "{text}"
    );
    assert!(
        text.contains(
            "/dev/shm's use and size weren't in the trace, so a full /dev/shm couldn't be checked."
        ),
        "{text}"
    );
    // JSON says the same as data.
    let v = json_of(ramvram().arg("diagnose").arg(&path).arg("--json"));
    let unchecked: Vec<(String, String)> = v["unchecked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["check"].as_str().unwrap().to_string(),
                u["missing"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        unchecked,
        [
            ("gpu-starved".to_string(), "gpu-util".to_string()),
            ("shm-exhausted".into(), "shm".into()),
        ]
    );
}

#[test]
fn watching_without_gpus_does_not_claim_the_gpus_are_fine() {
    let watch = ["watch", "--interval", "100ms", "--duration", "300ms"];
    let v = json_of(ramvram().args(watch).arg("--json"));
    if v["peaks"]["gpu_mem_used_bytes"].is_number() {
        eprintln!("skipped: this machine has a GPU NVML can see");
        return;
    }
    assert_eq!(v["unchecked"][0]["check"], "gpu-starved", "{v:#}");
    assert_eq!(v["unchecked"][0]["missing"], "gpus", "{v:#}");
    let out = ramvram()
        .env("RAMVRAM_LANG", "en")
        .args(watch)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!text.contains("no starved GPU"), "{text}");
    assert!(
        text.contains("No GPU was in the trace, so starved GPUs couldn't be checked."),
        "{text}"
    );
}

/// The process's state letter from /proc (`Z` for a zombie), `None` once it is gone.
#[cfg(target_os = "linux")]
fn proc_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) S ...": the state follows the last ')'.
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

#[cfg(target_os = "linux")]
fn wait_for_file(path: &Path) -> String {
    for _ in 0..200 {
        if let Ok(text) = std::fs::read_to_string(path) {
            if text.ends_with('\n') {
                return text;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{} never appeared", path.display());
}

/// Issue 25: SIGTERM, SIGINT and SIGHUP sent to `ramvram watch -- CMD` reach the command's
/// whole process group (the shell, whose trap leaves a mark, and the `sleep` it started),
/// ramvram waits for it, and exits 128 + the signal as a shell would report it: 143, 130, 129.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_to_watch_reaches_the_commands_group_and_sets_the_exit_status() {
    for (sig, expected) in [
        (libc::SIGTERM, 143),
        (libc::SIGINT, 130),
        (libc::SIGHUP, 129),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let marker = dir.path().join("trapped");
        let script = format!(
            "trap 'echo $$ > {m}; exit 0' TERM INT HUP; sleep 60 & echo $! > {p}; wait",
            m = marker.display(),
            p = pids.display()
        );
        let mut watch = std::process::Command::new(env!("CARGO_BIN_EXE_ramvram"))
            .args(["watch", "--interval", "100ms", "--", "sh", "-c", &script])
            .env("LANG", "C.UTF-8")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let sleep_pid: u32 = wait_for_file(&pids).trim().parse().unwrap();
        // SAFETY: kill has no memory preconditions.
        assert_eq!(unsafe { libc::kill(watch.id() as libc::pid_t, sig) }, 0);
        let mut status = None;
        for _ in 0..300 {
            if let Some(s) = watch.try_wait().unwrap() {
                status = Some(s);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let Some(status) = status else {
            let _ = watch.kill();
            panic!("watch still runs 15 s after signal {sig}");
        };
        assert_eq!(status.code(), Some(expected), "signal {sig}");
        assert!(
            marker.exists(),
            "the command's shell never got signal {sig}"
        );
        // The shell's own child got it too: gone, or a zombie nobody reaped yet. (Not for
        // SIGINT: a non-interactive shell starts `cmd &` with SIGINT ignored, as POSIX says.)
        if sig == libc::SIGINT {
            continue;
        }
        let mut state = proc_state(sleep_pid);
        for _ in 0..40 {
            if state.is_none_or(|s| s == 'Z') {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            state = proc_state(sleep_pid);
        }
        assert!(
            state.is_none_or(|s| s == 'Z'),
            "sleep {sleep_pid} still {state:?}"
        );
    }
}

/// Waits until `pid`'s state (from /proc) is `want`; panics with what it was after 10 s.
#[cfg(target_os = "linux")]
fn wait_for_state(pid: u32, want: &[char], what: &str) {
    let mut state = proc_state(pid);
    for _ in 0..200 {
        if state.is_some_and(|s| want.contains(&s)) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        state = proc_state(pid);
    }
    panic!("{what} ({pid}) is {state:?}, not one of {want:?}");
}

/// Issue 25: Ctrl-Z (`SIGTSTP`) stops `watch -- CMD` and the command with it, although the
/// command runs in a process group of its own that a terminal's Ctrl-Z doesn't reach; `SIGCONT`
/// (`fg`) continues both; SIGTERM then ends both as before. Before the fix the `sleep` kept
/// running (`S`) while ramvram was stopped (`T`). ramvram gets a group of its own here so
/// that its stop is not discarded as one in an orphaned process group would be.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_z_stops_the_command_with_watch_and_fg_continues_both() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let script = format!("sleep 60 & echo $! > {p}; wait", p = pids.display());
    let mut watch = std::process::Command::new(env!("CARGO_BIN_EXE_ramvram"))
        .args(["watch", "--interval", "100ms", "--", "sh", "-c", &script])
        .env("LANG", "C.UTF-8")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let watch_pid = watch.id();
    let sleep_pid: u32 = wait_for_file(&pids).trim().parse().unwrap();
    let kill = |sig| {
        // SAFETY: kill has no memory preconditions.
        assert_eq!(unsafe { libc::kill(watch_pid as libc::pid_t, sig) }, 0);
    };
    let result = std::panic::catch_unwind(|| {
        kill(libc::SIGTSTP);
        wait_for_state(watch_pid, &['T'], "ramvram after SIGTSTP");
        wait_for_state(sleep_pid, &['T'], "the command's sleep after SIGTSTP");
        kill(libc::SIGCONT);
        wait_for_state(watch_pid, &['S', 'R'], "ramvram after SIGCONT");
        wait_for_state(sleep_pid, &['S', 'R'], "the command's sleep after SIGCONT");
        // Stopped and continued once more: the handler was put back.
        kill(libc::SIGTSTP);
        wait_for_state(
            sleep_pid,
            &['T'],
            "the command's sleep after a second SIGTSTP",
        );
        kill(libc::SIGCONT);
        wait_for_state(
            sleep_pid,
            &['S', 'R'],
            "the command's sleep after a second SIGCONT",
        );
    });
    kill(libc::SIGTERM);
    let mut status = None;
    for _ in 0..300 {
        if let Some(s) = watch.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if status.is_none() {
        // SAFETY: as above; the command's group must not outlive the test.
        unsafe {
            let group = libc::getpgid(sleep_pid as libc::pid_t);
            if group > 1 {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = watch.kill();
    }
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
    assert_eq!(status.and_then(|s| s.code()), Some(143));
    let mut state = proc_state(sleep_pid);
    for _ in 0..40 {
        if state.is_none_or(|s| s == 'Z') {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        state = proc_state(sleep_pid);
    }
    assert!(
        state.is_none_or(|s| s == 'Z'),
        "sleep {sleep_pid} still {state:?}"
    );
}

/// Issue 25: a recording that stops part-way (the file can't grow: here a file size limit,
/// as a full disk would) makes `watch` fail, and says how far into the run it stopped.
#[cfg(target_os = "linux")]
#[test]
fn a_recording_that_stops_part_way_is_an_error() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("run.jsonl");
    let run = |limit: Option<u64>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ramvram"));
        cmd.args(["watch", "--interval", "100ms", "--duration", "1s"])
            .args(["--fake-gpu-series", "50", "--record"])
            .arg(&record)
            .env("LANG", "C.UTF-8");
        if let Some(limit) = limit {
            // SAFETY: only async-signal-safe calls between fork and exec.
            unsafe {
                cmd.pre_exec(move || {
                    // EFBIG instead of death by SIGXFSZ, as a full disk gives ENOSPC.
                    libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                    let rl = libc::rlimit {
                        rlim_cur: limit,
                        rlim_max: limit,
                    };
                    if libc::setrlimit(libc::RLIMIT_FSIZE, &rl) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        cmd.output().unwrap()
    };
    let full = run(None);
    assert!(full.status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 4, "{}", lines.len());
    // Room for the header and the first two samples, and half of the third.
    let room = (lines[0].len() + lines[1].len() + lines[2].len() + 3 + lines[3].len() / 2) as u64;
    let cut = run(Some(room));
    let err = String::from_utf8_lossy(&cut.stderr);
    assert_eq!(cut.status.code(), Some(1), "{err}");
    assert!(err.contains("recording stopped"), "{err}");
    assert!(err.contains("into the run"), "{err}");
    // The samples before the cut are all there.
    let t = ramvram::trace::jsonl::read_trace(&record).unwrap().trace;
    assert_eq!(t.samples.len(), 2);
}
