//! The one write path: [`write_atomic`].

use std::fs::Metadata;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Marks ramvram's temporary files: `.NAME.ramvram-HOST-PID-RANDOM.tmp` in the target folder.
pub const TEMP_MARKER: &str = ".ramvram-";

/// At most this many bytes of the target's name go into a temporary file's name, so that the
/// name stays under the 255-byte limit of common file systems.
const NAME_BYTES_IN_TEMP: usize = 96;

/// Writes `bytes` to `path` so that `path` holds either its old content or all of the new, never
/// a part, and so that nobody else who can write to the folder can redirect the write:
///
/// 1. The data goes to a temporary file created exclusively (`O_CREAT | O_EXCL`, which never
///    follows a symbolic link) under a random name in the target's folder
///    (`.NAME.ramvram-HOST-PID-RANDOM.tmp`, from `tempfile`), is written and `fsync`ed.
/// 2. An existing target keeps its permission bits (`0o777` part), and, when ramvram runs as
///    root, its owner and group.
/// 3. The temporary file is renamed over the target and the folder is `fsync`ed.
///
/// A symbolic link at `path` is followed only as the kernel's `open` follows it (at most 40
/// links; a loop is refused with a clear error), never resolved in user space, and only when
/// the rule of `fs.protected_symlinks` allows it (a link in a sticky, world-writable folder such
/// as `/tmp` is followed only when its owner is this user or the folder's owner), whatever that
/// setting is. A link to a file that does not exist is refused, so a planted link can't make
/// ramvram create a file elsewhere. A path that exists but is not a regular file (a folder, a
/// device such as `/dev/null`, a FIFO) is refused rather than replaced. Temporary files left in
/// the folder by a ramvram process of this host that no longer runs (`kill -9`, a power cut) are
/// removed first.
///
/// # Errors
/// The OS error (permission denied, disk full, missing folder), or `InvalidInput` /
/// `PermissionDenied` with a sentence for the refusals above. Nothing is left behind on error.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (target, existing) = resolve_target(path)?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| refusal(io::ErrorKind::InvalidInput, "is not a file path"))?
        .to_string_lossy()
        .into_owned();
    // A missing folder is named as the user gave it, not through the temporary file's error.
    match std::fs::metadata(&dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                super::MissingFolder(dir.clone()),
            ));
        }
        _ => {}
    }
    let prefix = temp_prefix(&name);
    remove_stale_temps(&dir, &prefix);
    let own_prefix = format!("{prefix}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&own_prefix).suffix(".tmp").rand_bytes(10);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A new file gets 0o666 less the umask, as `File::create` would give it; a replaced one
        // starts private and gets the old mode once its owner is set.
        let mode = if existing.is_some() { 0o600 } else { 0o666 };
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let mut tmp = builder.tempfile_in(&dir).map_err(without_temp_name)?;
    tmp.as_file_mut().write_all(bytes)?;
    if let Some(old) = &existing {
        keep_owner_and_mode(tmp.as_file(), old)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(&target).map_err(|e| e.error)?;
    sync_dir(&dir)
}

/// `tempfile`'s error without the temporary file's name it appends ("… at path
/// \"/dir/.x.pdf.ramvram-…tmp\""): a name the user never gave and that no longer exists. The
/// common kinds become the OS error again (so that they are worded like any other), the rest
/// keep the OS's words.
fn without_temp_name(e: io::Error) -> io::Error {
    if e.get_ref().is_none() {
        return e;
    }
    #[cfg(unix)]
    {
        let code = match e.kind() {
            io::ErrorKind::NotFound => Some(libc::ENOENT),
            io::ErrorKind::PermissionDenied => Some(libc::EACCES),
            io::ErrorKind::ReadOnlyFilesystem => Some(libc::EROFS),
            io::ErrorKind::StorageFull => Some(libc::ENOSPC),
            io::ErrorKind::QuotaExceeded => Some(libc::EDQUOT),
            _ => None,
        };
        if let Some(code) = code {
            return io::Error::from_raw_os_error(code);
        }
    }
    let text = e.to_string();
    let words = text
        .rfind(" at path ")
        .map_or(text.as_str(), |i| &text[..i]);
    io::Error::new(e.kind(), words.to_string())
}

fn refusal(kind: io::ErrorKind, text: &str) -> io::Error {
    io::Error::new(kind, text.to_string())
}

/// `.NAME.ramvram-HOST-`: the part of a temporary file's name shared by every ramvram process of
/// this host writing `name`.
fn temp_prefix(name: &str) -> String {
    let mut end = name.len().min(NAME_BYTES_IN_TEMP);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}{TEMP_MARKER}{}-", &name[..end], super::host_tag())
}

/// The file to replace and its metadata (`None` when it does not exist yet).
fn resolve_target(path: &Path) -> io::Result<(PathBuf, Option<Metadata>)> {
    let lstat = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((path.to_path_buf(), None)),
        Err(e) => return Err(explain_loop(e)),
    };
    if lstat.file_type().is_symlink() {
        check_link_rule(path, &lstat)?;
        return follow_link(path);
    }
    if !lstat.is_file() {
        return Err(not_regular());
    }
    Ok((path.to_path_buf(), Some(lstat)))
}

fn not_regular() -> io::Error {
    refusal(
        io::ErrorKind::InvalidInput,
        "exists and is not a regular file; refusing to replace it",
    )
}

/// ELOOP in words: the kernel stops after 40 links.
fn explain_loop(e: io::Error) -> io::Error {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return refusal(
            io::ErrorKind::InvalidInput,
            "too many levels of symbolic links (a loop, or more than the kernel follows); \
             nothing was written",
        );
    }
    e
}

/// `fs.protected_symlinks`' rule, applied whatever the setting: in a sticky, world-writable
/// folder, a link is followed only when this user or the folder's owner owns it.
#[cfg(unix)]
fn check_link_rule(path: &Path, link: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = std::fs::metadata(parent)?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let shared = dir.mode() & 0o1002 == 0o1002;
    if shared && link.uid() != me && link.uid() != dir.uid() {
        return Err(refusal(
            io::ErrorKind::PermissionDenied,
            "is a symbolic link owned by another user in a shared folder; refusing to follow it \
             (the rule of fs.protected_symlinks)",
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_link_rule(_path: &Path, _link: &Metadata) -> io::Result<()> {
    Ok(())
}

/// Follows a link the way `open` does (the kernel walks it, with its loop limit and
/// protections) and returns the file it reaches, which must exist and be a regular file.
#[cfg(target_os = "linux")]
fn follow_link(path: &Path) -> io::Result<(PathBuf, Option<Metadata>)> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    // O_PATH: no read or write access is asked for, so opening a device has no side effect.
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_CLOEXEC)
        .open(path);
    let file = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(refusal(
                io::ErrorKind::InvalidInput,
                "is a symbolic link to a file that does not exist; refusing to create a file \
                 through it",
            ));
        }
        Err(e) => return Err(explain_loop(e)),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    // The kernel's own name for what it opened (no user-space walk of the link).
    let real = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    Ok((real, Some(meta)))
}

/// Elsewhere the C library resolves the link (`realpath`).
#[cfg(not(target_os = "linux"))]
fn follow_link(path: &Path) -> io::Result<(PathBuf, Option<Metadata>)> {
    let real = std::fs::canonicalize(path).map_err(explain_loop)?;
    let meta = std::fs::metadata(&real)?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    Ok((real, Some(meta)))
}

/// Gives the new file the replaced file's permission bits and, as root, its owner and group
/// (ownership first: `chown` clears set-id bits, which are not kept anyway).
#[cfg(unix)]
fn keep_owner_and_mode(file: &std::fs::File, old: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()))?;
    }
    file.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o777))
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &std::fs::File, old: &Metadata) -> io::Result<()> {
    file.set_permissions(old.permissions())
}

/// Makes the rename durable. File systems that can't sync a folder (`EINVAL`) are left as
/// they are.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let d = std::fs::File::open(dir)?;
        match d.sync_all() {
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
            r => r,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Removes `PREFIX<pid>-*.tmp` files of ramvram processes of this host that no longer run. Only
/// regular files owned by this user are removed (`unlink` never follows a link).
fn remove_stale_temps(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = name
            .strip_prefix(prefix)
            .filter(|rest| rest.ends_with(".tmp"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if super::process_alive(pid) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.is_file() && owned_by_me(&meta) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn owned_by_me(meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    meta.uid() == unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn owned_by_me(_meta: &Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn errors_name_no_temporary_file() {
        // The folder doesn't exist: said as such, about the folder the user gave.
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nowhere");
        let e = write_atomic(&missing.join("x.pdf"), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert_eq!(
            super::super::IoProblem::of(&e),
            super::super::IoProblem::MissingFolder(missing.clone())
        );
        // The folder exists but no file can be created in it (/proc): the OS's reason, not
        // `tempfile`'s "… at path \"/proc/.x.pdf.ramvram-…tmp\"".
        #[cfg(target_os = "linux")]
        {
            let e = write_atomic(Path::new("/proc/x.pdf"), b"x").unwrap_err();
            let text = e.to_string();
            assert!(
                !text.contains(TEMP_MARKER) && !text.contains("at path"),
                "{text}"
            );
            assert!(e.raw_os_error().is_some(), "{e:?}");
        }
    }

    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(
            names(dir.path()),
            ["a.json"],
            "no temporary file left behind"
        );
    }

    #[test]
    fn missing_folder_is_an_error_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/folder/a.json");
        assert!(write_atomic(&path, b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_by_the_kernel_and_special_files_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.md");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link stays a link"
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A relative link, two deep.
        let link2 = dir.path().join("link2.md");
        std::os::unix::fs::symlink("link.md", &link2).unwrap();
        write_atomic(&link2, b"newer").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"newer");
        // A character device is never replaced.
        assert!(write_atomic(Path::new("/dev/null"), b"x").is_err());
        assert!(
            !std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_file()
        );
        // A folder neither, nor a link to one.
        assert!(write_atomic(dir.path(), b"x").is_err());
        let to_dir = dir.path().join("to-dir");
        std::os::unix::fs::symlink(dir.path(), &to_dir).unwrap();
        let e = write_atomic(&to_dir, b"x").unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_nothing_is_refused_and_nothing_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let victim = elsewhere.path().join("created-through-link");
        let link = dir.path().join("out.md");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let e = write_atomic(&link, b"x").unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        assert!(!victim.exists());
        assert_eq!(names(dir.path()), ["out.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_a_clear_error_not_a_crash() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let e = write_atomic(&a, b"x").unwrap_err();
        assert!(
            e.to_string().contains("too many levels of symbolic links"),
            "{e}"
        );
        // A self-link, and a loop in a folder component.
        let s = dir.path().join("self");
        std::os::unix::fs::symlink(&s, &s).unwrap();
        assert!(write_atomic(&s, b"x").is_err());
        let e = write_atomic(&a.join("report.md"), b"x").unwrap_err();
        assert!(e.to_string().contains("too many levels"), "{e}");
        assert_eq!(names(dir.path()), ["a", "b", "self"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_replaced_files_mode_is_kept_and_a_new_file_follows_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("private.json");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&path, b"new").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"newer").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o640);
        // A new file: 0o666 less the umask (the test harness's umask is read back here).
        let fresh = dir.path().join("fresh.json");
        write_atomic(&fresh, b"x").unwrap();
        let created = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        let umask = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("Umask:"))
                    .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
            });
        if let Some(umask) = umask {
            assert_eq!(created, 0o666 & !umask);
        }
    }

    #[cfg(unix)]
    #[test]
    fn temporary_files_of_dead_processes_are_removed_and_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        let prefix = temp_prefix("report.pdf");
        // pid_max is at most 4,194,304 on Linux: process 999999999 can't exist.
        let dead = dir.path().join(format!("{prefix}999999999-AbCdEfGhIj.tmp"));
        let alive = dir
            .path()
            .join(format!("{prefix}{}-AbCdEfGhIj.tmp", std::process::id()));
        let other_host = dir
            .path()
            .join(".report.pdf.ramvram-another-node-999999999-AbCdEfGhIj.tmp");
        for p in [&dead, &alive, &other_host] {
            std::fs::write(p, b"partial").unwrap();
        }
        write_atomic(&dir.path().join("report.pdf"), b"%PDF").unwrap();
        assert!(!dead.exists(), "a dead process's temporary file is removed");
        assert!(alive.exists(), "a live process's is kept");
        assert!(
            other_host.exists(),
            "another host's is kept (its pid means nothing here)"
        );
    }

    #[test]
    fn long_names_still_fit() {
        let dir = tempfile::tempdir().unwrap();
        let name = "é".repeat(120); // 240 bytes
        let path = dir.path().join(&name);
        write_atomic(&path, b"x").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"x");
    }
}
