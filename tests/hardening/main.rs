//! Hardening (issue 14): each defect a tester found, as a test with its small input. ramvram is
//! often run as root on shared servers, so files and strings here are hostile on purpose.
//! Tests that need root (an unprivileged attacker beside a root write) print a line and return
//! when not run as root; CI runs them as root.

#[path = "../common/mod.rs"]
mod common;

mod bench_and_settings;
mod child_groups;
mod dataset_walk;
mod file_strings;
mod inputs;
mod leftovers;
mod model_folders;
mod redact_categories;
mod redirects;
mod reports;
mod writes;

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

/// True (skip) when not root, after saying so; under `.ci/run` (`RAMVRAM_REQUIRE_ROOT=1`) a
/// test that needs root fails instead, so CI can't pass without running it.
fn skip_unless_root(test: &str) -> bool {
    if !is_root() {
        assert!(
            std::env::var("RAMVRAM_REQUIRE_ROOT").as_deref() != Ok("1"),
            "{test} needs root, and RAMVRAM_REQUIRE_ROOT=1 requires it to run"
        );
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

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}
