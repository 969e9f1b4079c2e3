//! The Windows build (`ramvram.exe`, target `x86_64-pc-windows-gnu`) run under Wine: its
//! version, `detect --json` read back by this (Linux) build's profile reader, `advise` in English
//! and Chinese and `report` as Markdown and JSON compared with what the Linux build prints for
//! the same profile, the PDF read by poppler's `pdffonts` and `pdftotext`, profiles named with
//! Windows paths (`C:\…`, `Z:\…`, a folder with a space and Chinese characters), and the atomic
//! write on Windows (a new file, an overwritten file, no temporary file left, a refused target
//! worded).
//!
//! Runs when `RAMVRAM_WINE_EXE` names the built `ramvram.exe` (`.ci/run` builds it and sets
//! the variable); skipped with a note otherwise, except under `CI`, where the missing variable
//! fails. With the variable set, a missing `wine` or a missing exe fails every test. The Wine prefix is `RAMVRAM_WINE_PREFIX` (default
//! `wine-prefix` in Cargo's temporary folder for tests, `$CARGO_TARGET_DIR/tmp/`), prepared
//! once by `tests/wine/prefix.sh`, which also puts the test-only stand-in for
//! `bcryptprimitives.dll` into it (Wine 8 lacks `ProcessPrng`, which Rust's standard library
//! imports).
//!
//! [`detect_text_has_no_linux_terms`]: `detect`'s text under Windows shows none of Linux's rows,
//! in English or Chinese.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The longest a single Wine run may take (a first start of the prefix takes a few seconds).
const TIMEOUT: Duration = Duration::from_secs(180);

/// The fixture profile most tests use (an AWS g5.xlarge: one A10G, 16 GiB of RAM).
const FIXTURE: &str = "aws-g5.xlarge";

/// What a Linux row or note looks like in `detect`'s English text; none of it belongs on
/// Windows (issue 23: Windows' rows in Windows' words).
const LINUX_TERMS: &[&str] = &[
    "MemTotal",
    "cgroup",
    "swappiness",
    "Transparent huge pages",
    "/dev/shm",
    "partial",
    // The same rows and note in Chinese (locales/zh-CN).
    "透明大页",
    "只能检测部分信息",
];

struct Wine {
    exe: PathBuf,
    prefix: PathBuf,
}

/// The Wine set-up, or `None` (with a note) when `RAMVRAM_WINE_EXE` is not set.
fn wine() -> Option<&'static Wine> {
    static WINE: OnceLock<Option<Wine>> = OnceLock::new();
    WINE.get_or_init(|| {
        let Some(exe) = std::env::var_os("RAMVRAM_WINE_EXE").filter(|v| !v.is_empty()) else {
            let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
            assert!(
                !ci,
                "CI is set but RAMVRAM_WINE_EXE is not: CI runs the Windows build under Wine \
                 (.ci/run builds ramvram.exe and sets it)"
            );
            eprintln!(
                "skipped: RAMVRAM_WINE_EXE is not set (build with `cargo build --target \
                 x86_64-pc-windows-gnu` and point it at ramvram.exe; .ci/run does)"
            );
            return None;
        };
        let exe = PathBuf::from(exe);
        assert!(
            exe.is_file(),
            "RAMVRAM_WINE_EXE={} is not a file",
            exe.display()
        );
        let found = Command::new("wine")
            .arg("--version")
            .env("WINEDEBUG", "-all")
            .output();
        match found {
            Ok(out) if out.status.success() => {}
            Ok(out) => panic!("`wine --version` failed: {out:?}"),
            Err(e) => panic!(
                "RAMVRAM_WINE_EXE is set but wine can't run ({e}): apt-get install wine wine64"
            ),
        }
        let prefix = std::env::var_os("RAMVRAM_WINE_PREFIX")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("wine-prefix"));
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wine/prefix.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg(&prefix)
            .stderr(Stdio::inherit())
            .output()
            .expect("bash runs tests/wine/prefix.sh");
        assert!(out.status.success(), "tests/wine/prefix.sh failed: {out:?}");
        let prefix = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
        Some(Wine { exe, prefix })
    })
    .as_ref()
}

impl Wine {
    /// Runs `ramvram.exe ARGS` under Wine with a known language (no `RAMVRAM_LANG`, C.UTF-8),
    /// killing it after [`TIMEOUT`].
    fn run<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Output {
        let mut cmd = Command::new("wine");
        cmd.arg(&self.exe)
            .args(args)
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all")
            .env("WINEDLLOVERRIDES", "mscoree,mshtml=;winemenubuilder.exe=d")
            .env_remove("RAMVRAM_LANG")
            .env_remove("LC_ALL")
            .env("LANG", "C.UTF-8")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY");
        run_with_timeout(cmd)
    }

    /// Runs `ramvram.exe ARGS`, which must succeed, and returns its standard output.
    fn stdout<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "ramvram.exe {:?} failed: {}\nstdout: {}\nstderr: {}",
            args.iter()
                .map(|a| a.as_ref().to_owned())
                .collect::<Vec<_>>(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    /// A fresh folder `C:\ramvram-test\NAME` of the prefix: its Unix path and its Windows path.
    fn folder(&self, name: &str) -> (PathBuf, String) {
        let unix = self.prefix.join("drive_c/ramvram-test").join(name);
        let _ = std::fs::remove_dir_all(&unix);
        std::fs::create_dir_all(&unix).unwrap();
        (
            unix,
            format!(r"C:\ramvram-test\{}", name.replace('/', r"\")),
        )
    }
}

fn run_with_timeout(mut cmd: Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("wine starts");
    let mut pipe_out = child.stdout.take().unwrap();
    let mut pipe_err = child.stderr.take().unwrap();
    let reader_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = pipe_out.read_to_end(&mut v);
        v
    });
    let reader_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = pipe_err.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} ran longer than {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: reader_out.join().unwrap(),
        stderr: reader_err.join().unwrap(),
    }
}

/// `Z:\…`: a Unix path as Wine's drive Z: (the root folder) names it, with backslashes.
fn z_path(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap();
    format!("Z:{}", abs.to_str().unwrap().replace('/', r"\"))
}

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/profiles")
        .join(format!("{name}.json"))
}

/// The Linux build, run the way [`Wine::run`] runs the Windows one.
fn linux(args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ramvram"))
        .args(args)
        .env_remove("RAMVRAM_LANG")
        .env_remove("LC_ALL")
        .env("LANG", "C.UTF-8")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(out.status.success(), "ramvram {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `text` with every `from` replaced by `to`, and a Markdown report's date line (`_YYYY-MM-DD ·
/// …`) without its date, so that two runs either side of midnight compare equal.
fn normalise(text: &str, from: &str, to: &str) -> String {
    text.replace(from, to)
        .lines()
        .map(|l| match l.strip_prefix('_') {
            Some(rest) if rest.len() > 10 && rest.as_bytes()[4] == b'-' => &rest[10..],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many CJK Unified Ideographs `s` has.
fn cjk_count(s: &str) -> usize {
    s.chars()
        .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
        .count()
}

/// Names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn version_is_the_crates() {
    let Some(w) = wine() else { return };
    assert_eq!(
        w.stdout(&["--version"]),
        format!("ramvram {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn detect_json_is_a_profile_the_linux_build_reads() {
    let Some(w) = wine() else { return };
    let text = w.stdout(&["detect", "--json"]);
    let loaded = ramvram::profile::parse_profile(&text, Path::new("wine-detect.json"))
        .unwrap_or_else(|e| {
            panic!("the Linux build can't read detect --json from Wine: {e:?}\n{text}")
        });
    assert!(
        loaded.ignored_fields.is_empty(),
        "fields the Linux build doesn't know: {:?}",
        loaded.ignored_fields
    );
    assert_eq!(loaded.newer_schema, None);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        json["schema_version"],
        serde_json::json!(ramvram::profile::SCHEMA_VERSION)
    );
    // Wine answers GlobalMemoryStatusEx from the Linux host's /proc/meminfo: the usable RAM
    // Windows reports is, within a page or so, the host's MemTotal.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let mem_total_kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let total = json["memory"]["total_bytes"]
        .as_u64()
        .unwrap_or_else(|| panic!("memory.total_bytes missing: {}", json["memory"]));
    let host = mem_total_kib * 1024;
    assert!(
        total.abs_diff(host) <= host / 20 || total >= host,
        "memory.total_bytes {total} under Wine, the host's MemTotal is {host}"
    );

    // The same profile written to a file (atomically) is the same document, and the Linux
    // build advises on it.
    let (dir, win) = w.folder("detect-out");
    w.stdout(&["detect", "--out", &format!(r"{win}\machine.json")]);
    let written = std::fs::read_to_string(dir.join("machine.json")).unwrap();
    let written: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(written["schema_version"], json["schema_version"]);
    assert_eq!(
        written["memory"]["total_bytes"],
        json["memory"]["total_bytes"]
    );
    assert_eq!(listing(&dir), ["machine.json"]);
    let advice = linux(&[
        "advise".as_ref(),
        "--profile".as_ref(),
        dir.join("machine.json").as_os_str(),
        "--json".as_ref(),
    ]);
    serde_json::from_str::<serde_json::Value>(&advice).expect("advise --json is JSON");
}

#[test]
fn advise_in_english_and_chinese_is_the_linux_builds() {
    let Some(w) = wine() else { return };
    let unix = fixture_path(FIXTURE);
    let win = z_path(&unix);
    let mut cjk = Vec::new();
    for lang in ["en", "zh"] {
        let on_windows = w.stdout(&["advise", "--profile", &win, "--lang", lang]);
        let on_linux = linux(&[
            "advise".as_ref(),
            "--profile".as_ref(),
            unix.as_os_str(),
            "--lang".as_ref(),
            lang.as_ref(),
        ]);
        assert_eq!(
            normalise(&on_windows, &win, unix.to_str().unwrap()),
            normalise(&on_linux, "", ""),
            "advise --lang {lang} differs between Windows (left) and Linux (right)"
        );
        cjk.push(cjk_count(&on_windows));
    }
    // The two languages really are two: Chinese prose in one; in the other only names (the
    // product's, 内存·显存顾问, and a cited article's title).
    assert!(
        cjk[1] > 200 && cjk[0] * 10 < cjk[1],
        "Chinese characters in en and zh: {cjk:?}"
    );
    let json = w.stdout(&["advise", "--profile", &win, "--json"]);
    serde_json::from_str::<serde_json::Value>(&json).expect("advise --json is JSON");
}

#[test]
fn reports_in_pdf_markdown_and_json() {
    let Some(w) = wine() else { return };
    let unix = fixture_path(FIXTURE);
    let win = z_path(&unix);
    let (dir, wdir) = w.folder("reports");
    let linux_dir = tempfile::tempdir().unwrap();
    for (name, lang) in [
        ("report.md", "en"),
        ("report-zh.md", "zh"),
        ("report.json", "en"),
    ] {
        let target = format!(r"{wdir}\{name}");
        let out = w.run(&[
            "report",
            "--profile",
            &win,
            "--lang",
            lang,
            "--out",
            &target,
        ]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "report --out {target}: {out:?}");
        // "Report written to PATH." on standard error, with the path as given.
        assert!(said.contains(&target), "report --out {target} said: {said}");
        linux(&[
            "report".as_ref(),
            "--profile".as_ref(),
            unix.as_os_str(),
            "--lang".as_ref(),
            lang.as_ref(),
            "--out".as_ref(),
            linux_dir.path().join(name).as_os_str(),
        ]);
        let on_windows = std::fs::read_to_string(dir.join(name)).unwrap();
        let on_linux = std::fs::read_to_string(linux_dir.path().join(name)).unwrap();
        // JSON and Markdown both escape the backslashes of the Windows path.
        let win_in_file = win.replace('\\', r"\\");
        assert_eq!(
            normalise(&on_windows, &win_in_file, unix.to_str().unwrap()),
            normalise(&on_linux, "", ""),
            "{name} differs between Windows (left) and Linux (right)"
        );
    }

    w.stdout(&[
        "report",
        "--profile",
        &win,
        "--lang",
        "zh",
        "--out",
        &format!(r"{wdir}\报告.pdf"),
    ]);
    let pdf = dir.join("报告.pdf");
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(
        bytes.starts_with(b"%PDF-"),
        "not a PDF: {:?}",
        &bytes[..16.min(bytes.len())]
    );
    let fonts = poppler("pdffonts", &[pdf.as_os_str()]);
    // pdffonts: name, type, encoding, then "emb sub uni object ID"; every font embedded.
    let rows: Vec<&str> = fonts
        .lines()
        .skip(2)
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(!rows.is_empty(), "no fonts in the PDF:\n{fonts}");
    for row in &rows {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let n = cols.len();
        assert!(
            n >= 5 && cols[n - 5] == "yes",
            "a font not embedded: {row}\n{fonts}"
        );
    }
    let text = poppler("pdftotext", &[pdf.as_os_str(), "-".as_ref()]);
    assert!(
        text.contains("A10G"),
        "the GPU's name isn't in the PDF's text:\n{text}"
    );
    assert!(
        cjk_count(&text) > 100,
        "no Chinese in the Chinese PDF's text:\n{text}"
    );
    assert_eq!(
        listing(&dir),
        ["report-zh.md", "report.json", "report.md", "报告.pdf"]
    );
}

fn poppler(tool: &str, args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(tool).args(args).output().unwrap_or_else(|e| {
        panic!(
            "{tool} (poppler-utils) is needed for this test ({e}): apt-get install poppler-utils"
        )
    });
    assert!(out.status.success(), "{tool} {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn profiles_named_with_windows_paths() {
    let Some(w) = wine() else { return };
    let source = fixture_path(FIXTURE);
    let expected = linux(&[
        "advise".as_ref(),
        "--profile".as_ref(),
        source.as_os_str(),
        "--json".as_ref(),
    ]);
    let (dir, wdir) = w.folder("profiles");
    let nested = dir.join("lab machines").join("实验室");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::copy(&source, dir.join("g5.json")).unwrap();
    std::fs::copy(&source, nested.join("g5.json")).unwrap();
    let paths = [
        format!(r"{wdir}\g5.json"),
        format!(r"{wdir}\lab machines\实验室\g5.json"),
        // The same file through drive Z: (Wine's view of the Unix root).
        z_path(&nested.join("g5.json")),
        // Lower-case drive letter and a relative part.
        format!(r"{}\lab machines\..\g5.json", wdir.replacen("C:", "c:", 1)),
    ];
    let expected: serde_json::Value = serde_json::from_str(&expected).unwrap();
    for path in &paths {
        let got = w.stdout(&["advise", "--profile", path, "--json"]);
        let got: serde_json::Value = serde_json::from_str(&got).unwrap();
        assert_eq!(
            got, expected,
            "advise --json on {path} differs from the Linux build's on the same profile"
        );
    }
    // A path that doesn't exist is worded, with the path the user gave.
    let missing = format!(r"{wdir}\no such\g5.json");
    let out = w.run(&["advise", "--profile", &missing]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&missing),
        "stderr doesn't name {missing}: {err}"
    );
}

#[test]
fn writes_are_atomic_on_windows() {
    let Some(w) = wine() else { return };
    let win_profile = z_path(&fixture_path(FIXTURE));
    let (dir, wdir) = w.folder("atomic");
    let report = |out: &str| w.run(&["report", "--profile", &win_profile, "--out", out]);

    // A new file: complete (it parses), and nothing else in the folder.
    let target = format!(r"{wdir}\report.json");
    let out = report(&target);
    assert!(out.status.success(), "{out:?}");
    let first = std::fs::read_to_string(dir.join("report.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&first).expect("a whole JSON document");
    assert_eq!(listing(&dir), ["report.json"]);

    // An existing file is replaced, not appended to or left half-written.
    std::fs::write(
        dir.join("report.json"),
        "old content, longer than nothing".repeat(1000),
    )
    .unwrap();
    let out = report(&target);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("report.json")).unwrap(),
        first
    );
    assert_eq!(listing(&dir), ["report.json"]);

    // A folder where the file should go is refused, worded, and left as it was.
    std::fs::create_dir(dir.join("taken.md")).unwrap();
    std::fs::write(dir.join("taken.md").join("inside.txt"), "keep").unwrap();
    let out = report(&format!(r"{wdir}\taken.md"));
    assert!(
        !out.status.success(),
        "writing over a folder succeeded: {out:?}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("taken.md") && err.contains("not a regular file"),
        "unclear error for a folder target: {err}"
    );
    assert_eq!(listing(&dir.join("taken.md")), ["inside.txt"]);

    // A folder that doesn't exist is named, in English and Chinese.
    for (lang, words) in [("en", "doesn't exist"), ("zh", "不存在")] {
        let out = w.run(&[
            "report",
            "--profile",
            &win_profile,
            "--lang",
            lang,
            "--out",
            &format!(r"{wdir}\missing\report.md"),
        ]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(r"{wdir}\missing")) && err.contains(words),
            "--lang {lang}: unclear error for a missing folder: {err}"
        );
    }
    // After every refusal, no temporary file is left behind.
    assert_eq!(listing(&dir), ["report.json", "taken.md"]);
}

/// `detect` under Windows speaks Windows' terms: no `MemTotal`, cgroup, swappiness, THP,
/// `/dev/shm` or "partial detection", in either language.
#[test]
fn detect_text_has_no_linux_terms() {
    let Some(w) = wine() else { return };
    for lang in ["en", "zh"] {
        let text = w.stdout(&["detect", "--lang", lang]);
        let offending: Vec<&str> = text
            .lines()
            .filter(|l| LINUX_TERMS.iter().any(|t| l.contains(t)))
            .collect();
        assert!(
            offending.is_empty(),
            "detect --lang {lang} under Wine shows Linux terms {LINUX_TERMS:?}:\n{}\n\nfull output:\n{text}",
            offending.join("\n")
        );
    }
}

/// The GPU boundary on Windows: the stand-in NVML (tests/nvml_standin) built with mingw as
/// `nvml.dll` beside `ramvram.exe`, where Windows' loader looks first, driven by the 8 × H100
/// scenario. Detection reads the eight GPUs through nvml-wrapper's Windows path, and each GPU's
/// driver model (`nvmlDeviceGetDriverModel`, TCC here, as data-centre GPUs run). Expected
/// values from the scenario's nvidia-smi view (tests/fixtures/nvml/h100x8.smi.txt): "NVIDIA
/// H100 80GB HBM3", 81559 MiB total, driver 550.54.15.
#[test]
fn nvml_dll_under_wine_reads_eight_h100s_and_their_driver_model() {
    let Some(w) = wine() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let mut scenario =
        std::fs::read_to_string(root.join("tests/fixtures/nvml/h100x8.scenario")).unwrap();
    scenario.push_str("device.*.driver_model = 1\n");
    std::fs::write(dir.path().join("h100x8.scenario"), scenario).unwrap();
    let cc = "x86_64-w64-mingw32-gcc";
    let built = Command::new(cc)
        .args(["-shared", "-O1", "-Wall", "-o"])
        .arg(dir.path().join("nvml.dll"))
        .arg(root.join("tests/nvml_standin/nvml_standin.c"))
        .output()
        .unwrap_or_else(|e| panic!("{cc} (gcc-mingw-w64-x86-64) can't run: {e}"));
    assert!(
        built.status.success(),
        "{cc}: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let exe = dir.path().join("ramvram.exe");
    std::fs::copy(&w.exe, &exe).unwrap();
    let mut cmd = Command::new("wine");
    cmd.arg(&exe)
        .args(["detect", "--json"])
        .env("WINEPREFIX", &w.prefix)
        .env("WINEDEBUG", "-all")
        .env("WINEDLLOVERRIDES", "mscoree,mshtml=;winemenubuilder.exe=d")
        .env(
            "NVML_STANDIN_SCENARIO",
            z_path(&dir.path().join("h100x8.scenario")),
        )
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    let out = run_with_timeout(cmd);
    assert!(out.status.success(), "detect --json: {out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gpus = v["gpus"].as_array().expect("gpus");
    let nvidia: Vec<_> = gpus.iter().filter(|g| g["vendor"] == "nvidia").collect();
    assert_eq!(
        nvidia.len(),
        8,
        "{}",
        serde_json::to_string_pretty(&v["gpus"]).unwrap()
    );
    for g in &nvidia {
        assert_eq!(g["name"], "NVIDIA H100 80GB HBM3");
        assert_eq!(g["vram_total_bytes"].as_u64(), Some(81559 * 1024 * 1024));
        assert_eq!(g["driver_version"], "550.54.15");
    }
    let models = v["windows"]["driver_models"]
        .as_array()
        .expect("driver models");
    assert_eq!(models.len(), 8);
    assert!(models.iter().all(|m| m["model"] == "tcc"), "{models:?}");
}
