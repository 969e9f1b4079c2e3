//! The storage benchmark's folder and signals; the window's settings file.

use super::*;

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
        .args([
            "--exact",
            "bench_and_settings::the_window_writes_no_settings_before_a_change",
        ])
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
    app.remember_inputs();
    app.notify(notice);
    let mut h = common::window::window(app, 900.0);
    for _ in 0..5 {
        h.run();
    }
    use egui_kittest::kittest::Queryable;
    h.get_by_label_contains("It was kept as");
    assert!(!dir.join("settings.json").exists());
}
