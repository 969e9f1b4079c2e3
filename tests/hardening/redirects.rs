//! Issue 25: writes that no other user can redirect. Each layout a tester used against root:
//! a link at the output name in a non-sticky world-writable folder and in a group-writable
//! setgid one, a linked folder on the way (under a sticky folder like /tmp), a hard link to a
//! file another user owns, and a file another user created before `watch --record`. The
//! attacker's links are handed to `nobody` with `lchown`, as if `nobody` had made them.

use std::ffi::CString;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use super::*;

/// A second unprivileged user (whose file the attacker links to).
const BOB: u32 = 65533;

fn lchown(path: &Path, uid: u32) {
    let c = CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::lchown(c.as_ptr(), uid, uid) }, 0, "{path:?}");
}

/// A symbolic link at `at` to `to`, owned by the attacker.
fn plant_link(to: &Path, at: &Path) {
    std::os::unix::fs::symlink(to, at).unwrap();
    lchown(at, NOBODY);
}

/// A root-only area (0755) with a folder `name` of `mode` in it, and root's precious file.
fn area(name: &str, mode: u32) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    chmod(root.path(), 0o755);
    let folder = root.path().join(name);
    std::fs::create_dir(&folder).unwrap();
    chmod(&folder, mode);
    let victim = root.path().join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    chmod(&victim, 0o600);
    (root, folder, victim)
}

fn report_to(out: &Path) -> assert_cmd::assert::Assert {
    common::ramvram()
        .args(["report", "--format", "md", "--out"])
        .arg(out)
        .arg("--profile")
        .arg(common::fixture_path("dgx-a100"))
        .assert()
}

fn record_to(out: &Path) -> assert_cmd::assert::Assert {
    common::ramvram()
        .args(["watch", "--interval", "100ms", "--duration", "300ms"])
        .args(["--fake-gpu-series", "50", "--record"])
        .arg(out)
        .assert()
}

fn stderr_of(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

/// Every writer refuses `out` with `words` in its message, and `victim` keeps `content`.
fn all_refuse(outs: &[PathBuf], words: &str, victim: &Path, content: &[u8]) {
    let e = ramvram::fsutil::write_atomic(&outs[0], b"x").unwrap_err();
    assert!(e.to_string().contains(words), "{e}");
    let e = ramvram::fsutil::create_new_file(&outs[0]).unwrap_err();
    assert!(e.to_string().contains(words), "{e}");
    let a = report_to(&outs[0]).failure();
    let err = stderr_of(&a);
    assert!(err.contains(words), "report: {err}");
    let a = common::ramvram()
        .args(["detect", "--out"])
        .arg(&outs[1])
        .assert()
        .failure();
    let err = stderr_of(&a);
    assert!(err.contains(words), "detect: {err}");
    let a = record_to(&outs[2]).failure();
    let err = stderr_of(&a);
    assert!(err.contains(words), "watch --record: {err}");
    assert_eq!(std::fs::read(victim).unwrap(), content);
}

#[test]
fn a_link_another_user_owns_is_not_followed_in_a_non_sticky_world_writable_folder() {
    if skip_unless_root("a_link_another_user_owns_is_not_followed_in_a_non_sticky_0777_folder") {
        return;
    }
    let (_root, lab, victim) = area("lab", 0o777);
    let outs: Vec<PathBuf> = ["lab.md", "lab.json", "run.jsonl"]
        .iter()
        .map(|n| lab.join(n))
        .collect();
    for out in &outs {
        plant_link(&victim, out);
    }
    all_refuse(&outs, "owned by another user", &victim, b"precious");
    for out in &outs {
        assert!(std::fs::symlink_metadata(out).unwrap().is_symlink());
    }
    // The same link, root's own, is followed: the refusal is about who owns the link.
    lchown(&outs[0], 0);
    report_to(&outs[0]).success();
    assert!(std::fs::read_to_string(&victim).unwrap().starts_with("# "));
}

#[test]
fn a_link_another_user_owns_is_not_followed_in_a_group_writable_setgid_folder() {
    if skip_unless_root(
        "a_link_another_user_owns_is_not_followed_in_a_group_writable_setgid_folder",
    ) {
        return;
    }
    let (_root, lab, victim) = area("lab", 0o2775);
    std::os::unix::fs::chown(&lab, None, Some(NOBODY)).unwrap();
    let outs: Vec<PathBuf> = ["lab.md", "lab.json", "run.jsonl"]
        .iter()
        .map(|n| lab.join(n))
        .collect();
    for out in &outs {
        plant_link(&victim, out);
    }
    all_refuse(&outs, "owned by another user", &victim, b"precious");
}

#[test]
fn a_linked_folder_on_the_way_is_not_followed_even_under_a_sticky_folder() {
    if skip_unless_root("a_linked_folder_on_the_way_is_not_followed_even_under_a_sticky_folder") {
        return;
    }
    // /tmp-like: sticky and world-writable; the attacker links `etc` to root's own folder,
    // whose files (`victim`, like /etc/shadow) are regular files, not links.
    let (root, tmp, victim) = area("tmp", 0o1777);
    plant_link(root.path(), &tmp.join("etc"));
    let out = tmp.join("etc").join("victim");
    all_refuse(
        &[out.clone(), out.clone(), out],
        "owned by another user",
        &victim,
        b"precious",
    );
    // A folder link root owns is followed (as /var/run → /run): only foreign links stop a write.
    let own = tmp.join("own");
    std::os::unix::fs::symlink(root.path(), &own).unwrap();
    report_to(&own.join("fresh.md")).success();
    assert!(root.path().join("fresh.md").is_file());
}

#[test]
fn a_hard_link_to_another_users_file_is_never_replaced_nor_written_through() {
    if skip_unless_root("a_hard_link_to_another_users_file_is_never_replaced_nor_written_through") {
        return;
    }
    let (root, lab, _) = area("lab", 0o777);
    let bobs = root.path().join("bobs-notes");
    std::fs::write(&bobs, b"bob's notes").unwrap();
    std::os::unix::fs::chown(&bobs, Some(BOB), Some(BOB)).unwrap();
    let outs: Vec<PathBuf> = ["lab.md", "lab.json", "run.jsonl"]
        .iter()
        .map(|n| lab.join(n))
        .collect();
    for out in &outs {
        std::fs::hard_link(&bobs, out).unwrap();
    }
    assert_eq!(std::fs::metadata(&bobs).unwrap().nlink(), 4);
    all_refuse(&outs, "hard link", &bobs, b"bob's notes");
    let meta = std::fs::metadata(&bobs).unwrap();
    assert_eq!((meta.uid(), meta.nlink()), (BOB, 4));
}

#[test]
fn a_file_another_user_created_for_watch_record_is_replaced_never_truncated() {
    if skip_unless_root("a_file_another_user_created_for_watch_record_is_replaced_never_truncated")
    {
        return;
    }
    // A sticky shared folder: refused outright, as fs.protected_regular would.
    let (_root, tmp, _) = area("tmp", 0o1777);
    let planted = tmp.join("run.jsonl");
    std::fs::write(&planted, b"attacker's").unwrap();
    std::os::unix::fs::chown(&planted, Some(NOBODY), Some(NOBODY)).unwrap();
    let err = stderr_of(&record_to(&planted).failure());
    assert!(err.contains("owned by another user"), "{err}");
    assert_eq!(std::fs::read(&planted).unwrap(), b"attacker's");

    // A non-sticky world-writable folder: the attacker keeps their file open; the recording is
    // a new file put in its place, so nothing root records reaches the attacker's file.
    let (_root2, lab, _) = area("lab", 0o777);
    let planted = lab.join("run.jsonl");
    std::fs::write(&planted, b"attacker's").unwrap();
    std::os::unix::fs::chown(&planted, Some(NOBODY), Some(NOBODY)).unwrap();
    let mut held = std::fs::File::open(&planted).unwrap();
    let held_ino = held.metadata().unwrap().ino();
    record_to(&planted).success();
    let mut seen = Vec::new();
    held.read_to_end(&mut seen).unwrap();
    assert_eq!(
        seen, b"attacker's",
        "the attacker's file was written through"
    );
    assert_ne!(std::fs::metadata(&planted).unwrap().ino(), held_ino);
    let text = std::fs::read_to_string(&planted).unwrap();
    assert!(text.starts_with(r#"{"schema":"ramvram-trace""#), "{text}");
}
