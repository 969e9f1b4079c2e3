//! Hardening (issue 14): each defect a tester found, as a test with its small input. ramvram is
//! often run as root on shared servers, so files and strings here are hostile on purpose.
//! Tests that need root (an unprivileged attacker beside a root write) print a line and return
//! when not run as root; CI runs them as root.

mod common;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use ramvram::advisor::{assess, fleet};
use ramvram::i18n::Lang;
use ramvram::profile::{Dimm, FieldStatus, MachineProfile, Note, NoteId};
use ramvram::report::{self, Format, ReportLang, ReportOptions};

/// The unprivileged user the attacker runs as (`nobody` on Debian).
const NOBODY: u32 = 65534;

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn skip_unless_root(test: &str) -> bool {
    if !is_root() {
        println!("skipped {test}: needs root (an unprivileged attacker beside a root write)");
    }
    !is_root()
}

fn options(format: Format, redact: bool) -> ReportOptions {
    ReportOptions {
        format,
        lang: ReportLang::One(Lang::En),
        redact,
        date: "2026-01-15".into(),
        source_file: None,
    }
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Runs `script` with `sh -c` as the unprivileged user, in `dir`.
fn as_attacker(dir: &Path, script: &str) {
    use std::os::unix::process::CommandExt;
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .uid(NOBODY)
        .gid(NOBODY)
        .status()
        .unwrap();
    assert!(status.success(), "attacker script failed: {script}");
}

/// A shared folder like /tmp (sticky, world-writable) inside a root-only temporary folder, and
/// a file of root's that the attacker wants overwritten.
fn shared_folder_and_victim() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let root = tempfile::tempdir().unwrap();
    chmod(root.path(), 0o755);
    let shared = root.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    chmod(&shared, 0o1777);
    let victim = root.path().join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    chmod(&victim, 0o600);
    (root, shared, victim)
}

#[test]
fn planted_symlinks_at_temporary_names_cannot_redirect_a_root_write() {
    if skip_unless_root("planted_symlinks_at_temporary_names_cannot_redirect_a_root_write") {
        return;
    }
    let (_root, shared, victim) = shared_folder_and_victim();
    // The attack on the old predictable name `.NAME.PID.tmp`: links for the next 3,000 pids.
    let last: u32 = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1000);
    let script = format!(
        "i={}; while [ $i -le {} ]; do ln -s {} .report.md.$i.tmp; i=$((i+1)); done",
        last + 1,
        last + 3000,
        victim.display()
    );
    as_attacker(&shared, &script);
    let planted = shared.join(format!(".report.md.{}.tmp", last + 1));
    assert_eq!(std::fs::symlink_metadata(&planted).unwrap().uid(), NOBODY);
    let out = shared.join("report.md");
    common::ramvram()
        .args(["report", "--format", "md", "--out"])
        .arg(&out)
        .arg("--profile")
        .arg(common::fixture_path("dgx-a100"))
        .assert()
        .success();
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    let meta = std::fs::symlink_metadata(&out).unwrap();
    assert!(meta.is_file() && meta.uid() == 0);
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("# "));
    // Only the attacker's links and the report are there: no temporary file left.
    let others = std::fs::read_dir(&shared)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().unwrap().is_symlink())
        .count();
    assert_eq!(others, 1);
}

#[test]
fn a_link_planted_at_the_output_name_in_a_shared_folder_is_not_followed() {
    if skip_unless_root("a_link_planted_at_the_output_name_in_a_shared_folder_is_not_followed") {
        return;
    }
    let (_root, shared, victim) = shared_folder_and_victim();
    as_attacker(&shared, &format!("ln -s {} report.pdf", victim.display()));
    let out = shared.join("report.pdf");
    let assert = common::ramvram()
        .args(["report", "--format", "md", "--out"])
        .arg(&out)
        .arg("--profile")
        .arg(common::fixture_path("dgx-a100"))
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("owned by another user"), "{stderr}");
    assert!(stderr.contains("report.pdf"), "{stderr}");
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(std::fs::symlink_metadata(&out).unwrap().is_symlink());
}

#[test]
fn a_symlink_loop_at_out_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("loop.md");
    std::os::unix::fs::symlink(&out, &out).unwrap();
    let assert = common::ramvram()
        .args(["report", "--format", "md", "--out"])
        .arg(&out)
        .arg("--profile")
        .arg(common::fixture_path("dgx-a100"))
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("loop.md: too many levels of symbolic links"),
        "{stderr}"
    );
    // `detect --out` takes the same path.
    common::ramvram()
        .args(["detect", "--out"])
        .arg(&out)
        .assert()
        .code(1);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_replaced_report_keeps_its_mode_and_owner() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("private.md");
    std::fs::write(&out, b"old").unwrap();
    chmod(&out, 0o600);
    if is_root() {
        std::os::unix::fs::chown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    common::ramvram()
        .args(["report", "--format", "md", "--out"])
        .arg(&out)
        .arg("--profile")
        .arg(common::fixture_path("dgx-a100"))
        .assert()
        .success();
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!(meta.mode() & 0o7777, 0o600);
    if is_root() {
        assert_eq!((meta.uid(), meta.gid()), (NOBODY, NOBODY));
    } else {
        println!("owner check skipped: needs root");
    }
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("# "));
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

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
            stderr.contains("field `nodes[0].gres`")
                && stderr.contains(&format!("{count} GPUs, more than the 1024 per node")),
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
        Some(0),
        "the report was written; failing to say so is not a failure"
    );
    assert!(out.exists());
}

fn profile_named(host: &str) -> MachineProfile {
    let mut p = common::fixture("dgx-a100");
    p.host.hostname = Some(host.to_string());
    p
}

fn fleet_of(hosts: &[&str]) -> Vec<fleet::FleetMachine> {
    fleet::assess_fleet(
        hosts
            .iter()
            .map(|h| {
                (
                    h.to_string(),
                    fleet::Origin::File(format!("{h}.json")),
                    profile_named(h),
                    Vec::new(),
                )
            })
            .collect(),
    )
}

#[test]
fn control_characters_in_a_host_name_do_not_break_the_fleet_pdf() {
    let hostile = "node\u{1b}]0;owned\u{7}\u{0}-\u{fffe}01\u{202e}";
    let machines = fleet_of(&[hostile, "node-02"]);
    let pdf = report::render_fleet(&machines, &[], &options(Format::Pdf, false)).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let text = pdf_extract::extract_text_from_mem(&pdf).unwrap();
    assert!(text.contains("node]0;owned-01"), "{text}");
    for format in [Format::Markdown, Format::Json] {
        let bytes = report::render_fleet(&machines, &[], &options(format, false)).unwrap();
        let out = String::from_utf8(bytes).unwrap();
        for c in ['\u{1b}', '\u{7}', '\u{0}', '\u{fffe}', '\u{202e}'] {
            assert!(!out.contains(c), "{format:?} carries {c:?}");
        }
    }
    // The terminal view too.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.json");
    ramvram::profile::save_profile(&profile_named(hostile), &file).unwrap();
    let out = common::ramvram()
        .args(["advise", "--profile"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains('\u{1b}') && !out.contains('\u{202e}'));
}

#[test]
fn a_host_name_cannot_inject_markdown() {
    let hostile = "evil\n# Owned <img src=x onerror=alert(1)> [click](https://x) | cell";
    let a = assess(&profile_named(hostile));
    let md =
        String::from_utf8(report::render(&a, &options(Format::Markdown, false)).unwrap()).unwrap();
    let title = md.lines().next().unwrap();
    assert_eq!(
        title,
        r"# RAM·VRAM report: evil # Owned \<img src=x onerror=alert(1)\> \[click\](https://x) \| cell"
    );
    assert!(!md.lines().any(|l| l.starts_with("# Owned")));
    let unescaped_html = |md: &str| md.replace("\\<", "").contains('<');
    assert!(!unescaped_html(&md), "{md}");
    let machines = fleet_of(&[hostile]);
    let md = String::from_utf8(
        report::render_fleet(&machines, &[], &options(Format::Markdown, false)).unwrap(),
    )
    .unwrap();
    assert!(!unescaped_html(&md) && !md.lines().any(|l| l.starts_with("# Owned")));
    // The fleet table keeps its 7 columns: the `|` in the name is escaped.
    let row = md.lines().find(|l| l.starts_with("| evil")).unwrap();
    let unescaped = row
        .match_indices('|')
        .filter(|(i, _)| !row[..*i].ends_with('\\'));
    assert_eq!(unescaped.count(), 8, "{row}");
}

/// Identifiers planted in every string of a profile; none may reach a redacted report.
const PLANTED: [&str; 8] = [
    "zzhost7",
    "zzuser",
    "zzlabel",
    "zzserver",
    "6f1c0b2e",
    "0c:42:a1",
    "zzserial42",
    "zzvg",
];

fn plant(text: &str) -> String {
    format!(
        "{text} zzhost7 /home/zzuser/d /run/media/zzuser/ZZLABEL/x zzserver:/export/zz \
         GPU-6f1c0b2e-3a4d-4e5f-8a9b-0c1d2e3f4a5b 0c:42:a1:9e:00:01 \
         /dev/disk/by-id/nvme-ZZSERIAL42 /dev/mapper/zzvg-home"
    )
}

/// A profile with every optional string filled, then the plant put into every string (and
/// every null that can hold a string) of its JSON: found by trying each one, so a field added
/// later is planted without this test knowing its name.
fn planted_profile() -> MachineProfile {
    let mut p = common::fixture("lab-a6000-nfs-measured");
    p.memory.memory_type = Some("DDR4".into());
    p.memory.dimms.push(Dimm::default());
    p.notes.push(Note {
        id: NoteId::MountTimedOut,
        detail: Some("x".into()),
    });
    let g = &mut p.gpus[0];
    g.uuid = Some("GPU-x".into());
    g.pci_bus_id = Some("00000000:17:00.0".into());
    g.status.memory = Some(FieldStatus::Error("x".into()));
    g.status.pcie = Some(FieldStatus::Error("x".into()));
    g.status.utilization = Some(FieldStatus::Error("x".into()));
    g.status.uuid = Some(FieldStatus::Error("x".into()));
    let mut doc = serde_json::to_value(&p).unwrap();
    let mut paths = Vec::new();
    collect_leaves(&doc, &mut Vec::new(), &mut paths);
    let mut planted = 0;
    for path in paths {
        let slot = leaf(&mut doc, &path);
        let old = slot.clone();
        *slot = serde_json::Value::String(plant(old.as_str().unwrap_or("")));
        if serde_json::from_value::<MachineProfile>(doc.clone()).is_ok() {
            planted += 1;
        } else {
            *leaf(&mut doc, &path) = old;
        }
    }
    assert!(planted >= 30, "{planted} strings planted");
    let mut p: MachineProfile = serde_json::from_value(doc).unwrap();
    p.host.hostname = Some("zzhost7.lab.example".into());
    p
}

fn collect_leaves(v: &serde_json::Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                at.push(k.clone());
                collect_leaves(x, at, out);
                at.pop();
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                collect_leaves(x, at, out);
                at.pop();
            }
        }
        serde_json::Value::String(_) | serde_json::Value::Null => out.push(at.clone()),
        _ => {}
    }
}

fn leaf<'a>(v: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
    path.iter().fold(v, |v, k| match v {
        serde_json::Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
        other => &mut other[k.as_str()],
    })
}

fn assert_no_plant(what: &str, text: &str) {
    let squashed: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    for p in PLANTED {
        if let Some(at) = squashed.find(p) {
            let from = squashed[..at]
                .char_indices()
                .rev()
                .nth(200)
                .map_or(0, |(i, _)| i);
            panic!(
                "{what} still carries {p}: …{}",
                &squashed[from..at + p.len()]
            );
        }
    }
}

#[test]
fn redaction_sweep_leaves_no_planted_identifier_in_any_format() {
    let profile = planted_profile();
    let unredacted = serde_json::to_string(&profile).unwrap().to_lowercase();
    assert!(
        PLANTED.iter().all(|p| unredacted.contains(p)),
        "the plant is there"
    );
    let a = assess(&profile);
    for format in [Format::Json, Format::Markdown, Format::Pdf] {
        let bytes = report::render(&a, &options(format, true)).unwrap();
        let text = match format {
            Format::Pdf => pdf_extract::extract_text_from_mem(&bytes).unwrap(),
            _ => String::from_utf8(bytes).unwrap(),
        };
        assert_no_plant(&format!("{format:?} report"), &text);
        // What identifies nothing stays: the GPU model and the measured folder's mount.
        let marker = text.contains("[redacted]") || text.contains(r"\[redacted\]");
        assert!(text.contains("RTX A6000") && marker, "{format:?}");
    }
    // A fleet: the same profile beside one whose mounts name the first host.
    let mut other = common::fixture("dgx-a100");
    other.disks.push(ramvram::profile::Disk {
        mount_point: "/mnt/zzhost7-scratch".into(),
        file_system: Some("nfs4".into()),
        kind: ramvram::profile::DiskKind::Network,
        device: Some("zzhost7:/scratch".into()),
        total_bytes: None,
        available_bytes: None,
    });
    let machines = fleet::assess_fleet(vec![
        (
            "zzhost7".into(),
            fleet::Origin::File("/home/zzuser/zzhost7.json".into()),
            profile,
            Vec::new(),
        ),
        (
            "dgx".into(),
            fleet::Origin::Slurm("/home/zzuser/nodes.json".into()),
            other,
            Vec::new(),
        ),
    ]);
    let skipped = vec![(
        "/home/zzuser/zzhost7-old.json".to_string(),
        "zzhost7".to_string(),
    )];
    for format in [Format::Json, Format::Markdown, Format::Pdf] {
        let bytes = report::render_fleet(&machines, &skipped, &options(format, true)).unwrap();
        let text = match format {
            Format::Pdf => pdf_extract::extract_text_from_mem(&bytes).unwrap(),
            _ => String::from_utf8(bytes).unwrap(),
        };
        assert_no_plant(&format!("{format:?} fleet report"), &text);
    }
    // And from the command line.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("planted.json");
    ramvram::profile::save_profile(&planted_profile(), &file).unwrap();
    let out = dir.path().join("r.json");
    common::ramvram()
        .args(["report", "--redact", "--format", "json", "--out"])
        .arg(&out)
        .arg("--profile")
        .arg(&file)
        .assert()
        .success();
    assert_no_plant("report --redact", &std::fs::read_to_string(&out).unwrap());
}

fn bench_folders(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".ramvram-bench-"))
        .collect()
}

#[test]
fn swapping_the_bench_folder_for_a_link_cannot_redirect_its_writes() {
    use ramvram::bench::storage::{StorageBenchConfig, run};
    use std::sync::atomic::{AtomicBool, Ordering};
    let root = tempfile::tempdir().unwrap();
    let target = root.path().join("dataset");
    let victim = root.path().join("victim");
    let moved = root.path().join("moved");
    std::fs::create_dir(&target).unwrap();
    std::fs::create_dir(&victim).unwrap();
    let config = StorageBenchConfig {
        sequential_bytes: 8 << 20,
        small_files: 200,
        sequential_budget: Duration::from_secs(30),
        max_sequential_passes: 1,
        small_files_budget: Duration::from_secs(30),
    };
    let swapped = AtomicBool::new(false);
    let result = run(&target, &config, &AtomicBool::new(false), &|p| {
        // During the writes, someone who can write to the folder swaps the work folder for a
        // link to a folder of their choosing.
        if p > 0.0 && !swapped.swap(true, Ordering::Relaxed) {
            let name = bench_folders(&target).pop().unwrap();
            std::fs::rename(target.join(&name), &moved).unwrap();
            std::os::unix::fs::symlink(&victim, target.join(&name)).unwrap();
        }
    });
    assert!(swapped.load(Ordering::Relaxed));
    let r = result.unwrap();
    assert_eq!(r.sequential_bytes, 8 << 20);
    assert_eq!(
        std::fs::read_dir(&victim).unwrap().count(),
        0,
        "no write went there"
    );
    assert_eq!(
        std::fs::read_dir(&moved).unwrap().count(),
        0,
        "the real folder was emptied through its descriptor"
    );
}

#[test]
fn sighup_during_the_storage_benchmark_removes_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ramvram"))
        .args(["bench", "storage", "--size-mib", "256"])
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while bench_folders(dir.path()).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(30), "no work folder");
        if child.try_wait().unwrap().is_some() {
            panic!("the benchmark ended before its folder was seen");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: signals a child of this test.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGHUP) },
        0
    );
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(128 + libc::SIGHUP), "{status:?}");
    assert!(bench_folders(dir.path()).is_empty(), "work folder removed");
}

#[test]
fn a_corrupt_settings_file_is_kept_and_not_overwritten() {
    use ramvram::ui::settings::Settings;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, b"{\"lang\": \"zh\", oops").unwrap();
    let (settings, problem) = Settings::load_from(&path);
    assert_eq!(settings, Settings::default());
    let problem = problem.expect("a notice");
    let bad = dir.path().join("settings.json.bad");
    assert_eq!(problem.kept_as.as_deref(), Some(bad.to_str().unwrap()));
    assert_eq!(std::fs::read(&bad).unwrap(), b"{\"lang\": \"zh\", oops");
    assert!(!path.exists());
    // A FIFO or /dev/zero as the settings file: a notice at once, nothing renamed.
    let fifo = dir.path().join("fifo.json");
    mkfifo(&fifo);
    for special in [fifo.as_path(), Path::new("/dev/zero")] {
        let start = Instant::now();
        let (s, p) = Settings::load_from(special);
        assert_eq!(s, Settings::default());
        let p = p.expect("a notice");
        assert!(
            p.error.contains("not a regular file") && p.kept_as.is_none(),
            "{p:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(5));
    }
    assert!(fifo.exists());
}

/// The window's first frames write no settings file: run in a child process of this test
/// binary with its own `XDG_CONFIG_HOME` (the settings path comes from the environment).
#[test]
fn the_window_writes_no_settings_before_a_change() {
    if let Some(dir) = std::env::var_os("RAMVRAM_HARDENING_SETTINGS_CHILD") {
        return first_frames(Path::new(&dir));
    }
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("ramvram");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("settings.json"), b"not json").unwrap();
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "the_window_writes_no_settings_before_a_change"])
        .env("RAMVRAM_HARDENING_SETTINGS_CHILD", &dir)
        .env("XDG_CONFIG_HOME", home.path())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert!(!dir.join("settings.json").exists(), "no defaults written");
    assert_eq!(
        std::fs::read(dir.join("settings.json.bad")).unwrap(),
        b"not json"
    );
}

fn first_frames(dir: &Path) {
    use ramvram::ui::RamvramApp;
    use ramvram::ui::settings::Settings;
    let (settings, notice) = Settings::load();
    let notice = notice.expect("the corrupt file is reported");
    assert!(notice.kept_as.is_some());
    let profile = common::fixture("dgx-a100");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, ramvram::ui::app::Source::Detected);
    drop(settings);
    app.remember_workload();
    app.notify(notice);
    let mut h = egui_kittest::Harness::builder()
        .with_size([1280.0, 900.0])
        .with_context_setup(ramvram::ui::fonts::install)
        .build_ui_state(|ui, app: &mut RamvramApp| app.show(ui), app);
    for _ in 0..5 {
        h.run();
    }
    use egui_kittest::kittest::Queryable;
    h.get_by_label_contains("It was kept as");
    assert!(!dir.join("settings.json").exists());
}
