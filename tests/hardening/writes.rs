//! Writes beside an attacker: planted links, link loops, the replaced file's mode and owner.

use super::*;

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
    as_attacker(&shared, &format!("ln -s {} report.md", victim.display()));
    let out = shared.join("report.md");
    let assert = common::ramvram()
        .args(["report", "--format", "md", "--out"])
        .arg(&out)
        .arg("--profile")
        .arg(common::fixture_path("dgx-a100"))
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("owned by another user"), "{stderr}");
    assert!(stderr.contains("report.md"), "{stderr}");
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
