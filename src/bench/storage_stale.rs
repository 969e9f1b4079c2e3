//! The storage benchmark's work folders, and removing those a run left behind (`kill -9`, a
//! power cut) without ever removing one whose run is still going.
//!
//! A folder is named `.ramvram-bench-<host>-<pid namespace>-<pid>-<n>`, and its run holds an
//! exclusive `flock` on the `.lock` file inside it for as long as it lives. Another run removes
//! a folder only when its owner is provably gone: the same host, the same PID namespace (two
//! containers, or two Kubernetes pods with `hostNetwork`, on one host have different ones, and a
//! process id means nothing across them), no process with that id, and the lock free to take.
//! A folder without a lock file, or of another host or namespace, is left alone.

use std::fs::File;
use std::io;
use std::path::Path;

/// Prefix of the work folders.
pub(super) const TEMP_PREFIX: &str = ".ramvram-bench-";

/// The file inside a work folder its run holds locked.
#[cfg_attr(not(unix), allow(dead_code))]
pub(super) const LOCK_NAME: &str = ".lock";

/// This process's PID namespace: the inode number of `/proc/self/ns/pid` (0 where there is
/// none to read, as on other systems).
pub(super) fn pid_namespace() -> u64 {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self/ns/pid").map_or(0, |m| m.ino())
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

/// The `n`th work folder's name for this process.
pub(super) fn work_name(n: u64) -> String {
    format!(
        "{TEMP_PREFIX}{}-{}-{}-{n}",
        crate::fsutil::host_tag(),
        pid_namespace(),
        std::process::id()
    )
}

/// Takes the exclusive lock on `file` without waiting: true when it was free. The lock goes with
/// the open file (released when it is closed, or when its process dies).
#[cfg(unix)]
pub(super) fn try_lock(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: a valid descriptor; flock has no memory preconditions.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// Removes work folders in `dir` whose run is provably gone (see the module's documentation).
/// Removal never follows a link.
pub fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let host = crate::fsutil::host_tag();
    let namespace = pid_namespace().to_string();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(TEMP_PREFIX) else {
            continue;
        };
        let mut parts = rest.rsplitn(4, '-');
        let (Some(_n), Some(pid), Some(ns), Some(their_host)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        if !(is_dir && their_host == host && ns == namespace) {
            continue;
        }
        if crate::fsutil::process_alive(pid) {
            continue;
        }
        // The lock, held while removing: a run that is still going holds it.
        if let Ok(lock) = open_lock(&e.path()) {
            if lock_is_free(&lock) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
}

#[cfg(unix)]
fn open_lock(folder: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Read and write: an exclusive lock over NFS (which emulates flock with POSIX locks) needs
    // a file open for writing.
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
        .open(folder.join(LOCK_NAME))
}

#[cfg(unix)]
fn lock_is_free(lock: &File) -> bool {
    lock.metadata().is_ok_and(|m| m.is_file()) && try_lock(lock)
}

/// Elsewhere no lock can be checked: nothing is removed.
#[cfg(not(unix))]
fn open_lock(_folder: &Path) -> io::Result<File> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

#[cfg(not(unix))]
fn lock_is_free(_lock: &File) -> bool {
    false
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A work folder as a run would leave it: `pid` in namespace `ns`, with a lock file.
    fn folder(dir: &Path, ns: &str, pid: u32, with_lock: bool) -> std::path::PathBuf {
        let host = crate::fsutil::host_tag();
        let f = dir.join(format!("{TEMP_PREFIX}{host}-{ns}-{pid}-0"));
        std::fs::create_dir(&f).unwrap();
        std::fs::write(f.join("sequential.bin"), b"left over").unwrap();
        if with_lock {
            std::fs::write(f.join(LOCK_NAME), b"").unwrap();
        }
        f
    }

    #[test]
    fn only_folders_whose_run_is_provably_gone_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let ours = pid_namespace().to_string();
        // pid_max is at most 4,194,304 on Linux: process 999999999 can't exist.
        let dead = folder(dir.path(), &ours, 999_999_999, true);
        // The same dead-looking pid in another PID namespace (another container on this
        // host): its process may well be running there.
        let other_ns = folder(dir.path(), "4026530000", 999_999_999, true);
        // A dead pid, but its lock is held: the run is alive (the pid was another host's, or
        // reused), so it stays.
        let locked = folder(dir.path(), &ours, 999_999_998, true);
        let held = open_lock(&locked).unwrap();
        assert!(try_lock(&held));
        // No lock file: nothing proves its run is gone.
        let unlocked = folder(dir.path(), &ours, 999_999_997, false);
        // This process is alive.
        let alive = folder(dir.path(), &ours, std::process::id(), true);
        // The name of an older ramvram (no namespace): left alone.
        let host = crate::fsutil::host_tag();
        let old = dir.path().join(format!("{TEMP_PREFIX}{host}-999999999-0"));
        std::fs::create_dir(&old).unwrap();
        remove_stale(dir.path());
        assert!(
            !dead.exists(),
            "a dead run of this namespace with a free lock goes"
        );
        for kept in [&other_ns, &locked, &unlocked, &alive, &old] {
            assert!(kept.exists(), "{} was removed", kept.display());
        }
        // Once the lock is let go (its run ended), the folder goes too.
        drop(held);
        remove_stale(dir.path());
        assert!(!locked.exists());
    }
}
