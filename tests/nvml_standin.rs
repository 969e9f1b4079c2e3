//! The GPU boundary tested for real: a stand-in `libnvidia-ml.so.1`, built here from
//! tests/nvml_standin/nvml_standin.c with the system C compiler, answers NVML's calls from a
//! scenario file (tests/fixtures/nvml/*.scenario). `ramvram detect` and `watch` load it as they
//! load the driver's library (nvml-wrapper's `Nvml::init()` opens `libnvidia-ml.so.1`, found
//! through `LD_LIBRARY_PATH`); in-process tests load it by path with a fake sysfs beside it.
//!
//! Each scenario has the `nvidia-smi -q` text of the same machine (`*.smi.txt`, in
//! nvidia-smi's layout), parsed here on its own; detection's names, VRAM, links and driver are
//! compared with it.
//!
//! Without a C compiler the tests are skipped, unless `RAMVRAM_REQUIRE_CC` (which `.ci/run`
//! sets) or `CI` is set: then they fail.

#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{json_of, ramvram};
use ramvram::advisor::{FindingId, assess};
use ramvram::profile::{FieldStatus, MachineProfile, NoteId};

const MIB: u64 = 1 << 20;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nvml")
}

/// Builds the stand-in for `scenario` into its own folder (so scenarios can be loaded side by
/// side in one process) as `libnvidia-ml.so.1`, with the scenario's path compiled in. `None`
/// (skip) without a C compiler, unless `RAMVRAM_REQUIRE_CC` is set.
fn standin(scenario: &str, extra: &str) -> Option<PathBuf> {
    // One folder per scenario and extra lines: a library once loaded in this process may stay
    // mapped, so a path is never rebuilt with other contents.
    let tag = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        extra.hash(&mut h);
        h.finish()
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("nvml-standin")
        .join(format!("{scenario}-{tag:016x}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = std::fs::read_to_string(fixtures().join(format!("{scenario}.scenario")))
        .unwrap_or_else(|e| panic!("{scenario}.scenario: {e}"));
    text.push_str(extra);
    let scenario_path = dir.join("scenario");
    std::fs::write(&scenario_path, text).unwrap();
    let source =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/nvml_standin/nvml_standin.c");
    let cc = std::env::var("RAMVRAM_TEST_CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-o"])
        .arg(dir.join("libnvidia-ml.so.1"))
        .arg(format!("-DSCENARIO_PATH=\"{}\"", scenario_path.display()))
        .arg(&source)
        .output();
    match out {
        Ok(o) if o.status.success() => Some(dir),
        Ok(o) => panic!("{cc} failed: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e)
            if ["RAMVRAM_REQUIRE_CC", "CI"]
                .iter()
                .any(|v| std::env::var_os(v).is_some()) =>
        {
            panic!("RAMVRAM_REQUIRE_CC or CI is set but the C compiler `{cc}` can't run: {e}")
        }
        Err(e) => {
            eprintln!("skipped: no C compiler `{cc}` ({e}); set RAMVRAM_REQUIRE_CC to fail");
            None
        }
    }
}

/// True when this machine's sysfs lists NVIDIA GPUs: then `ramvram` opens them by PCI bus id
/// and the stand-in (which knows only its scenario's bus ids) can't stand in for them.
fn host_has_nvidia() -> bool {
    !ramvram::probe::gpu::sysfs::nvidia_functions(Path::new("/sys")).is_empty()
}

/// `ramvram detect --json` with the stand-in as the driver's library.
fn detect_cli(dir: &Path) -> Option<MachineProfile> {
    if host_has_nvidia() {
        eprintln!(
            "skipped: this machine has NVIDIA GPUs in sysfs (the in-process tests still run)"
        );
        return None;
    }
    let v = json_of(
        ramvram()
            .args(["detect", "--json"])
            .env("LD_LIBRARY_PATH", dir)
            .env_remove("NVML_STANDIN_SCENARIO")
            .timeout(Duration::from_secs(120)),
    );
    Some(serde_json::from_value(v).expect("a profile"))
}

/// Detection in this process through the stand-in loaded by path, with `sys` as sysfs.
fn detect_in_process(dir: &Path, sys: &Path) -> ramvram::probe::gpu::GpuProbe {
    let path = dir.join("libnvidia-ml.so.1");
    match nvml_wrapper::Nvml::builder()
        .lib_path(path.as_os_str())
        .init()
    {
        Ok(nvml) => ramvram::probe::gpu::nvml::probe_with(&nvml, sys),
        Err(e) => ramvram::probe::gpu::nvidia::nvidia_gpus(
            ramvram::probe::gpu::nvidia::NvmlState::Unavailable(e.to_string()),
        ),
    }
}

/// One GPU as `nvidia-smi -q` prints it: `section/sub/key` → value.
type SmiGpu = BTreeMap<String, String>;

/// Parses `nvidia-smi -q` text: the header's fields and one map per `GPU <bus id>` block,
/// nesting by the four-space indentation nvidia-smi uses.
fn parse_smi(text: &str) -> (BTreeMap<String, String>, Vec<SmiGpu>) {
    let mut header = BTreeMap::new();
    let mut gpus: Vec<SmiGpu> = Vec::new();
    let mut path: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with("====") {
            continue;
        }
        let indent = (line.len() - line.trim_start().len()) / 4;
        let line = line.trim();
        if indent == 0 {
            if let Some(bus) = line.strip_prefix("GPU ") {
                let mut g = SmiGpu::new();
                g.insert("Bus".into(), bus.to_string());
                gpus.push(g);
                path.clear();
            } else if let Some((k, v)) = line.split_once(" : ") {
                header.insert(k.trim().to_string(), v.trim().to_string());
            }
            continue;
        }
        path.truncate(indent - 1);
        match line.split_once(" : ") {
            Some((k, v)) => {
                let key = path
                    .iter()
                    .map(String::as_str)
                    .chain([k.trim()])
                    .collect::<Vec<_>>()
                    .join("/");
                gpus.last_mut()
                    .expect("a GPU block")
                    .insert(key, v.trim().to_string());
            }
            None => path.push(line.to_string()),
        }
    }
    (header, gpus)
}

fn smi(name: &str) -> (BTreeMap<String, String>, Vec<SmiGpu>) {
    parse_smi(&std::fs::read_to_string(fixtures().join(name)).unwrap())
}

/// `81559 MiB` → bytes; `N/A` → `None`.
fn mib(v: &str) -> Option<u64> {
    v.strip_suffix(" MiB")
        .map(|n| n.parse::<u64>().unwrap() * MIB)
}

/// `5` or `16x` → the number; `N/A` → `None`.
fn num(v: &str) -> Option<u32> {
    v.trim_end_matches('x').parse().ok()
}

/// Asserts that detection's GPUs say what nvidia-smi says: names, bus ids, UUIDs, VRAM total
/// (nvidia-smi rounds down to MiB) and used, the link (generation now, GPU+slot max and the
/// GPU's own max; width now and max), MIG and the driver.
fn assert_matches_smi(p: &MachineProfile, smi_file: &str) {
    let (header, gpus) = smi(smi_file);
    assert_eq!(
        p.gpus.len().to_string(),
        header["Attached GPUs"],
        "{smi_file}"
    );
    for (g, s) in p.gpus.iter().zip(&gpus) {
        let at = |k: &str| {
            s.get(k)
                .unwrap_or_else(|| panic!("{smi_file}: no {k}"))
                .as_str()
        };
        assert_eq!(g.name.as_deref(), Some(at("Product Name")));
        assert_eq!(g.pci_bus_id.as_deref(), Some(at("Bus")));
        assert_eq!(g.pci_bus_id.as_deref(), Some(at("PCI/Bus Id")));
        assert_eq!(
            g.uuid.as_deref(),
            Some(at("GPU UUID")).filter(|u| *u != "N/A")
        );
        assert_eq!(
            g.driver_version.as_deref(),
            Some(header["Driver Version"].as_str())
        );
        assert_eq!(
            g.vram_total_bytes.map(|b| b / MIB * MIB),
            mib(at("FB Memory Usage/Total"))
        );
        assert_eq!(
            g.vram_used_bytes.map(|b| b / MIB * MIB),
            mib(at("FB Memory Usage/Used"))
        );
        let link = g.pcie.unwrap_or_default();
        let gen_at = |k: &str| num(at(&format!("PCI/GPU Link Info/PCIe Generation/{k}")));
        let width_at = |k: &str| num(at(&format!("PCI/GPU Link Info/Link Width/{k}")));
        assert_eq!(link.gen_current, gen_at("Current"), "{smi_file}");
        assert_eq!(link.gen_max, gen_at("Max"), "{smi_file}");
        assert_eq!(link.gen_gpu_max, gen_at("Device Max"), "{smi_file}");
        assert_eq!(link.width_current, width_at("Current"), "{smi_file}");
        assert_eq!(link.width_max, width_at("Max"), "{smi_file}");
        assert_eq!(
            g.utilization_percent,
            at("Utilization/Gpu")
                .strip_suffix(" %")
                .map(|u| u.parse().unwrap())
        );
    }
}

fn note(p: &MachineProfile, id: NoteId) -> Option<&str> {
    p.notes
        .iter()
        .find(|n| n.id == id)
        .map(|n| n.detail.as_deref().unwrap_or(""))
}

#[test]
fn eight_h100_through_the_real_library_path() {
    let Some(dir) = standin("h100x8", "") else {
        return;
    };
    let Some(p) = detect_cli(&dir) else { return };
    assert_eq!(p.gpus.len(), 8);
    assert_matches_smi(&p, "h100x8.smi.txt");
    assert!(p.gpus.iter().all(|g| !g.unified_memory));
    let gpu_notes = [
        NoteId::NvmlUnavailable,
        NoteId::GpuQueryFailed,
        NoteId::GpuMemoryUnsupported,
        NoteId::GpuMigEnabled,
    ];
    assert!(
        !p.notes.iter().any(|n| gpu_notes.contains(&n.id)),
        "{:?}",
        p.notes
    );
    // 8 × 81,559 MiB, the same as the fake scenario's NVML totals; nominal 8 × 80 GiB.
    let a = assess(&p, &ramvram::advisor::Scenario::NONE);
    assert_eq!(a.vram.total_discrete_bytes, Some(8 * 81_559 * MIB));
    assert_eq!(a.vram.nominal_total_bytes, Some(640 << 30));
}

#[test]
fn a_degraded_link_is_read_and_flagged() {
    let Some(dir) = standin("degraded-link", "") else {
        return;
    };
    let Some(p) = detect_cli(&dir) else { return };
    assert_matches_smi(&p, "degraded-link.smi.txt");
    let ids: Vec<FindingId> = assess(&p, &ramvram::advisor::Scenario::NONE)
        .findings
        .iter()
        .map(|f| f.id)
        .collect();
    assert!(ids.contains(&FindingId::PcieLinkDegraded), "{ids:?}");
}

#[test]
fn memory_v2_not_supported_asks_v1() {
    let Some(dir) = standin("memory-v1-only", "") else {
        return;
    };
    let Some(p) = detect_cli(&dir) else { return };
    assert_matches_smi(&p, "memory-v1-only.smi.txt");
    assert_eq!(p.gpus[0].vram_total_bytes, Some(49_140 * MIB));
    assert_eq!(p.gpus[0].status.memory, Some(FieldStatus::Value));
    assert_eq!(note(&p, NoteId::GpuMemoryUnsupported), None);
}

#[test]
fn gb10_without_memory_info_is_unified_not_zero() {
    let Some(dir) = standin("gb10-unified", "") else {
        return;
    };
    let Some(p) = detect_cli(&dir) else { return };
    assert_matches_smi(&p, "gb10-unified.smi.txt");
    let g = &p.gpus[0];
    assert!(g.unified_memory);
    assert_eq!((g.vram_total_bytes, g.pcie), (None, None));
    assert_eq!(g.status.memory, Some(FieldStatus::Unsupported));
}

#[test]
fn mig_enabled_keeps_the_whole_gpu_and_says_so() {
    let Some(dir) = standin("mig-enabled", "") else {
        return;
    };
    let Some(p) = detect_cli(&dir) else { return };
    assert_matches_smi(&p, "mig-enabled.smi.txt");
    let (_, gpus) = smi("mig-enabled.smi.txt");
    assert_eq!(gpus[0]["MIG Mode/Current"], "Enabled");
    assert_eq!(note(&p, NoteId::GpuMigEnabled), Some("GPU 0"));
    assert_eq!(p.gpus[0].status.utilization, Some(FieldStatus::Unsupported));
}

#[test]
fn a_version_mismatch_is_a_note_not_a_failure() {
    let Some(dir) = standin("version-mismatch", "") else {
        return;
    };
    let Some(p) = detect_cli(&dir) else { return };
    let text = std::fs::read_to_string(fixtures().join("version-mismatch.smi.txt")).unwrap();
    assert!(text.contains("Driver/library version mismatch"));
    assert!(p.gpus.is_empty());
    // nvml-wrapper's words for NVML_ERROR_LIB_RM_VERSION_MISMATCH.
    let detail = note(&p, NoteId::NvmlUnavailable).expect("note");
    assert!(detail.contains("version mismatch"), "{detail}");
    // The terminal report gives the driver's words in both languages (lines wrapped).
    for lang in ["en", "zh"] {
        let out = ramvram()
            .args(["detect", "--lang", lang])
            .env("LD_LIBRARY_PATH", &dir)
            .timeout(Duration::from_secs(120))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let words = String::from_utf8(out).unwrap();
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("driver/library version mismatch"), "{lang}");
    }
}

/// A fake sysfs with NVIDIA display controllers at `devices` (address, runtime status).
fn fake_sysfs(devices: &[(&str, &str)]) -> tempfile::TempDir {
    let sys = tempfile::tempdir().unwrap();
    for (address, status) in devices {
        let d = sys.path().join("bus/pci/devices").join(address);
        std::fs::create_dir_all(d.join("power")).unwrap();
        std::fs::write(d.join("class"), "0x030000\n").unwrap();
        std::fs::write(d.join("vendor"), "0x10de\n").unwrap();
        std::fs::write(d.join("power/runtime_status"), format!("{status}\n")).unwrap();
    }
    sys
}

#[test]
fn a_sleeping_laptop_gpu_is_not_woken() {
    // NVML can't say a GPU is asleep without waking it: ramvram asks sysfs first
    // (power/runtime_status), so this scenario fakes sysfs and counts the stand-in's calls.
    let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nvml-standin-laptop.log");
    let _ = std::fs::remove_file(&log);
    let Some(dir) = standin("laptop-asleep", &format!("touch_log = {}\n", log.display())) else {
        return;
    };
    let asleep = fake_sysfs(&[("0000:01:00.0", "suspended")]);
    let probe = detect_in_process(&dir, asleep.path());
    assert!(probe.gpus.is_empty());
    assert_eq!(probe.notes.len(), 1);
    assert_eq!(probe.notes[0].id, NoteId::GpuSuspended);
    assert_eq!(probe.notes[0].detail.as_deref(), Some("0000:01:00.0"));
    assert!(
        !log.exists(),
        "the stand-in was asked about the sleeping GPU"
    );
    // Awake, the same GPU is opened by its bus id and reads as nvidia-smi (which wakes it) says.
    let awake = fake_sysfs(&[("0000:01:00.0", "active")]);
    let mut p = MachineProfile::unknown();
    p.gpus = detect_in_process(&dir, awake.path()).gpus;
    assert_matches_smi(&p, "laptop-asleep.smi.txt");
    assert!(
        std::fs::read_to_string(&log)
            .unwrap()
            .contains("device 0 name")
    );
}

#[test]
fn a_gpu_lost_during_watch_drops_out_of_the_trace() {
    let Some(dir) = standin("gpu-lost", "") else {
        return;
    };
    if host_has_nvidia() {
        return;
    }
    let (_, before) = smi("gpu-lost.smi.txt");
    let after = std::fs::read_to_string(fixtures().join("gpu-lost.after.smi.txt")).unwrap();
    let lost_bus = &before[1]["Bus"];
    assert!(after.contains(&format!("GPU {lost_bus}: GPU is lost")));
    let trace = tempfile::tempdir().unwrap();
    let file = trace.path().join("trace.jsonl");
    ramvram()
        .args([
            "watch",
            "--interval",
            "100ms",
            "--duration",
            "3s",
            "--json",
            "--record",
        ])
        .arg(&file)
        .env("LD_LIBRARY_PATH", &dir)
        .timeout(Duration::from_secs(120))
        .assert()
        .success();
    let t = ramvram::trace::jsonl::read_trace(&file)
        .expect("a trace")
        .trace;
    let with = |i: u32| t.samples.iter().filter(|s| s.gpu(i).is_some()).count();
    assert!(t.samples.len() >= 10, "{} samples", t.samples.len());
    // GPU 0 in every sample, at what nvidia-smi showed (97 %, 18,432 MiB used).
    assert_eq!(with(0), t.samples.len());
    let g0 = t.samples[0].gpu(0).unwrap();
    assert_eq!(g0.util_percent, Some(97.0));
    assert_eq!(g0.mem_used_bytes, mib(&before[0]["FB Memory Usage/Used"]));
    // GPU 1 read at first, then gone once lost; the last samples have GPU 0 only.
    assert!(
        with(1) >= 1 && with(1) < t.samples.len(),
        "{} of {}",
        with(1),
        t.samples.len()
    );
    assert!(t.samples.last().unwrap().gpu(1).is_none());
}

#[test]
fn hostile_answers_become_unknown_with_notes() {
    let sys = fake_sysfs(&[]);
    // Strings without a terminator (and not UTF-8): names, UUIDs, bus ids, the driver unknown.
    let Some(dir) = standin("h100x8", "garbage_strings = 1\n") else {
        return;
    };
    let probe = detect_in_process(&dir, sys.path());
    assert_eq!(probe.gpus.len(), 8);
    for g in &probe.gpus {
        assert_eq!((&g.name, &g.uuid, &g.pci_bus_id), (&None, &None, &None));
        assert_eq!(g.driver_version, None);
        assert_eq!(g.vram_total_bytes, Some(81_559 * MIB), "numbers still read");
    }
    assert!(
        probe.notes[0]
            .detail
            .as_deref()
            .unwrap()
            .contains("no terminator in 96 bytes"),
        "{:?}",
        probe.notes
    );
    // A device count of 2^32 - 1: refused with a note, not 4 billion handles.
    let dir = standin("h100x8", "count = 4294967295\n").unwrap();
    let started = std::time::Instant::now();
    let probe = detect_in_process(&dir, sys.path());
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(probe.gpus.is_empty());
    assert!(
        probe.notes[0]
            .detail
            .as_deref()
            .unwrap()
            .contains("4294967295")
    );
    // Every call failing (NVML_ERROR_UNKNOWN) after a successful init.
    let dir = standin("h100x8", "all.rc = 999\n").unwrap();
    let probe = detect_in_process(&dir, sys.path());
    assert!(probe.gpus.is_empty());
    assert_eq!(probe.notes[0].id, NoteId::NvmlUnavailable);
    // Every device query failing while the count and handles work.
    let extra: String = [
        "name",
        "uuid",
        "bus_id",
        "index",
        "mem_v2",
        "mem_v1",
        "gen_current",
        "gen_max",
        "gen_gpu_max",
        "width_current",
        "width_max",
        "util_gpu",
        "tx_kb",
        "rx_kb",
        "mig_current",
    ]
    .iter()
    .map(|k| format!("device.*.{k}.rc = 999\n"))
    .collect();
    let dir = standin("degraded-link", &extra).unwrap();
    let probe = detect_in_process(&dir, sys.path());
    let g = &probe.gpus[0];
    assert_eq!((&g.name, g.vram_total_bytes, g.pcie), (&None, None, None));
    assert!(matches!(g.status.memory, Some(FieldStatus::Error(_))));
    assert!(probe.notes.iter().all(|n| n.id == NoteId::GpuQueryFailed));
    // Impossible numbers: a link of Gen 99 x1000, 2^64 - 1 bytes, 250 % busy.
    let dir = standin(
        "degraded-link",
        "device.0.gen_current = 99\ndevice.0.width_current = 1000\n\
         device.0.mem_total = 18446744073709551615\ndevice.0.util_gpu = 250\n",
    )
    .unwrap();
    let g = detect_in_process(&dir, sys.path()).gpus.remove(0);
    let link = g.pcie.unwrap();
    assert_eq!((link.gen_current, link.width_current), (None, None));
    assert_eq!((link.gen_max, link.width_max), (Some(5), Some(16)));
    assert_eq!((g.vram_total_bytes, g.utilization_percent), (None, None));
}

/// The processes holding memory, through the library's own calls
/// (`nvmlDeviceGetComputeRunningProcesses_v3`: the count, then the list;
/// `nvmlSystemGetProcessName`): a name, one another user's (`NVML_ERROR_NO_PERMISSION`), one
/// gone (`NOT_FOUND`), a size NVML can't give (`NVML_VALUE_NOT_AVAILABLE`). A list that can't be
/// read is unknown, never "none"; a count past 1,024 is refused.
#[test]
fn the_processes_holding_vram_are_read_and_named() {
    let sys = fake_sysfs(&[]);
    let held = "device.0.mem_used = 6442450944\ndevice.0.procs = 3\n\
                device.0.proc.0.pid = 4321\ndevice.0.proc.0.used = -1\n\
                device.0.proc.1.pid = 1234\ndevice.0.proc.1.used = 6442450944\n\
                device.0.proc.2.pid = 999\ndevice.0.proc.2.used = 0\n\
                process.1234.name = /usr/bin/python3\nprocess.4321.name.rc = 4\n";
    let Some(dir) = standin("degraded-link", held) else {
        return;
    };
    let g = detect_in_process(&dir, sys.path()).gpus.remove(0);
    let list = g.processes.expect("read");
    assert_eq!(
        list.iter()
            .map(|p| (p.pid, p.name.as_deref(), p.used_bytes))
            .collect::<Vec<_>>(),
        vec![
            (1234, Some("/usr/bin/python3"), Some(6 << 30)),
            (999, None, Some(0)),
            (4321, None, None),
        ]
    );
    // No process: an empty list. The call failing, missing from the scenario or answering a
    // count of 5,000: unknown.
    for (extra, expected) in [
        ("device.0.procs = 0\n", Some(Vec::new())),
        ("device.0.procs = 2\ndevice.0.procs.rc = 4\n", None),
        ("", None),
        ("device.0.procs = 5000\n", None),
    ] {
        let dir = standin("degraded-link", extra).unwrap();
        let g = detect_in_process(&dir, sys.path()).gpus.remove(0);
        assert_eq!(g.processes, expected, "{extra}");
    }

    // `advise` on this machine judges the plan against what is free: the H100 PCIe's
    // 85,520,809,984 bytes less the 6 GiB in use = 79,078,359,040 bytes; and names python.
    if host_has_nvidia() {
        return;
    }
    let v = json_of(
        ramvram()
            .args(["advise", "--json", "--inference", "transformers"])
            .args([
                "--params",
                "10468982784",
                "--layers",
                "32",
                "--hidden-size",
                "4096",
            ])
            .args(["--heads", "32", "--kv-heads", "8", "--weights", "bf16"])
            .env("LD_LIBRARY_PATH", dir)
            .env_remove("NVML_STANDIN_SCENARIO")
            .timeout(Duration::from_secs(120)),
    );
    assert_eq!(v["profile"]["live"], true);
    assert_eq!(
        v["inference_memory"]["gpu"]["available_bytes"],
        85_520_809_984u64 - 6_442_450_944
    );
    assert_eq!(
        v["profile"]["gpus"][0]["processes"][0]["name"],
        "/usr/bin/python3"
    );
}
