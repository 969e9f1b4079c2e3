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
    assert_eq!(d["recommendations"][0], "more-workers");
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
