//! `ramvram bench …` and `--dmidecode`, run as a user would. No test depends on timing: the
//! figures are only checked for shape and for values computable by hand.

mod common;

use common::{json_of, ramvram};

use predicates::prelude::*;

fn dmi_fixture(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dmi")
        .join(name)
}

#[test]
fn bench_memory_json_has_stream_fields() {
    // 1 MiB arrays (a hidden test option) keep this fast in a debug build.
    let v = json_of(ramvram().args(["bench", "memory", "--json", "--array-bytes", "1048576"]));
    for k in ["copy", "scale", "add", "triad"] {
        let x = v[format!("{k}_bytes_per_s")].as_f64().unwrap();
        assert!(x.is_finite() && x > 0.0, "{k}: {x}");
    }
    assert_eq!(v["array_bytes"].as_u64(), Some(1_048_576));
    assert!(v["repetitions"].as_u64().unwrap() >= 1);
    // One thread per CPU this process may use: what `nproc` prints.
    let nproc = std::process::Command::new("nproc").output().unwrap();
    let nproc: u64 = String::from_utf8_lossy(&nproc.stdout)
        .trim()
        .parse()
        .unwrap();
    assert_eq!(v["threads"].as_u64(), Some(nproc));
    assert_eq!(
        v["noisy"].as_bool(),
        Some(v["spread"].as_f64().unwrap() > 0.10 || v["repetitions"].as_u64().unwrap() < 2)
    );
}

#[test]
fn bench_storage_measures_and_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let v = json_of(
        ramvram()
            .args(["bench", "storage", "--json", "--size-mib", "4"])
            .arg(dir.path()),
    );
    assert!(v["sequential_read_bytes_per_s"].as_f64().unwrap() > 0.0);
    // Whole passes over the 4 MiB file.
    assert_eq!(v["sequential_bytes"].as_u64().unwrap() % (4 << 20), 0);
    let files = v["random_read_files_per_s"].as_f64().unwrap();
    let bytes = v["random_read_bytes_per_s"].as_f64().unwrap();
    assert!((bytes - files * 4096.0).abs() <= 1e-6 * bytes);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn bench_storage_bad_folder_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    ramvram()
        .args(["bench", "storage"])
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no-such-folder")
                .and(predicate::str::contains("does not exist")),
        );
    ramvram()
        .args(["--lang", "zh", "bench", "storage"])
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("不存在"));
}

#[test]
fn dmidecode_file_fills_modules_and_estimated_channels() {
    let v = json_of(
        ramvram()
            .args(["detect", "--json", "--dmidecode"])
            .arg(dmi_fixture("dmidecode-laptop-ddr4-1x16.txt")),
    );
    let dimms = v["memory"]["dimms"].as_array().unwrap();
    assert_eq!(dimms.len(), 1);
    assert_eq!(dimms[0]["size_bytes"].as_u64(), Some(16 << 30));
    assert_eq!(dimms[0]["configured_speed_mts"].as_u64(), Some(2666));
    assert_eq!(v["memory"]["channels_populated"].as_u64(), Some(1));
    assert_eq!(v["memory"]["channels_source"], "estimated");
    // The text form says the same in one row (wrapped to the terminal's width: its lines are
    // joined here).
    ramvram()
        .args(["detect", "--dmidecode"])
        .arg(dmi_fixture("dmidecode-laptop-ddr4-1x16.txt"))
        .assert()
        .success()
        .stdout(predicate::function(|s: &str| {
            let joined = s
                .split([' ', '\n'])
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            joined.contains(
                "1 × 16.0\u{a0}GiB DDR4, 2666\u{a0}MT/s; channels: 1 (estimated from slot names)",
            )
        }));
}

#[test]
fn dmidecode_file_without_modules_is_rejected() {
    ramvram()
        .args(["advise", "--dmidecode"])
        .arg(common::fixture_path("aws-g5.xlarge"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("dmidecode -t memory"));
}

#[test]
fn advise_shows_the_bandwidth_section_and_finding() {
    let path = common::fixture_path("student-4090-ddr4-single-channel");
    ramvram()
        .args(["advise", "--profile"])
        .arg(&path)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("RAM bandwidth: 25.6\u{a0}GB/s (theoretical)")
                .and(predicate::str::contains(
                    "Memory bandwidth 25.6\u{a0}GB/s is below the seed's 48.0\u{a0}GB/s for 24.0\u{a0}GiB of VRAM",
                ))
                .and(predicate::str::contains(
                    "Only one memory channel is populated",
                )),
        );
    let v = json_of(ramvram().args(["advise", "--json", "--profile"]).arg(&path));
    // 1 × 3200 MT/s × 8 B.
    assert_eq!(
        v["bandwidth"]["memory"]["theoretical_bytes_per_s"].as_f64(),
        Some(25.6e9)
    );
    assert_eq!(v["bandwidth"]["seed_rule"]["status"], "fail");
    // Without a workload the stages are capacities, not compared with each other.
    assert_eq!(
        v["bandwidth"]["pipeline"]["narrowest_stage"],
        serde_json::Value::Null
    );
    assert_eq!(
        v["bandwidth"]["pipeline"]["stages"][1]["capacity_bytes_per_s"].as_f64(),
        Some(25.6e9)
    );
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "memory-bandwidth-bound")
        .unwrap();
    assert_eq!(f["values"]["required"]["unit"], "bytes_per_s");
}

#[test]
fn bench_results_go_into_a_profile_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("server.json");
    ramvram()
        .args(["detect", "--out"])
        .arg(&file)
        .assert()
        .success();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    ramvram()
        .args(["bench", "memory", "--array-bytes", "1048576", "--into"])
        .arg(&file)
        .assert()
        .success();
    ramvram()
        .args(["bench", "storage", "--size-mib", "4", "--into"])
        .arg(&file)
        .arg(&data)
        .assert()
        .success();
    let p = ramvram::profile::load_profile(&file).unwrap();
    assert!(p.ignored_fields.is_empty());
    let m = p.profile.measurements.memory_bandwidth.clone().unwrap();
    assert_eq!(m.array_bytes, 1_048_576);
    let s = &p.profile.measurements.storage;
    assert_eq!(s.len(), 1);
    assert_eq!(
        s[0].path,
        std::fs::canonicalize(&data).unwrap().display().to_string()
    );
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0);
    // Only the profile is in the folder: no temporary file left by the atomic writes.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    // The assessment of that profile uses the stored measurement.
    let v = json_of(ramvram().args(["advise", "--json", "--profile"]).arg(&file));
    assert_eq!(
        v["bandwidth"]["memory"]["measured_triad_bytes_per_s"].as_f64(),
        Some(m.triad_bytes_per_s)
    );
    // A profile that can't be read is reported before anything is measured.
    ramvram()
        .args(["bench", "memory", "--array-bytes", "1048576", "--into"])
        .arg(dir.path().join("missing.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.json"));
}

#[test]
fn bench_decode_json_describes_the_image_it_decoded() {
    let out = ramvram()
        .args([
            "bench",
            "decode",
            "--json",
            "--image-size",
            "160x120",
            "--threads",
            "2",
            "--seconds",
            "1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(160), Some(120))
    );
    assert_eq!(v["quality"].as_u64(), Some(90));
    assert_eq!(v["threads"].as_u64(), Some(2));
    // 160 × 120 × 3 bytes compress at quality 90 to well under the raw 57,600 bytes.
    let file = v["file_bytes"].as_u64().unwrap();
    assert!(file > 1000 && file < 57_600, "{file}");
    // The per-core figure is the one-thread rate (a worker decodes on one core), not the
    // all-threads rate divided by the threads.
    let per_core = v["per_core_mpix_per_s"].as_f64().unwrap();
    let single = v["single_thread_mpix_per_s"].as_f64().unwrap();
    assert!(per_core > 0.0 && per_core == single);
    assert!(v["contended"].is_boolean());
    ramvram()
        .args(["bench", "decode", "--image-size", "0x0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--image-size"));
}
