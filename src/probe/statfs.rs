//! `statvfs` with a time limit.
//!
//! A dead hard-mounted NFS share makes `statvfs` block forever; every call here runs on its own
//! thread and is abandoned after the time limit (the thread may stay blocked in the kernel, but
//! detection goes on).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// How long one mount may take to answer `statvfs` before it is reported as not answering.
pub const MOUNT_TIMEOUT: Duration = Duration::from_secs(2);

/// Size and free space of a file system, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FsSpace {
    /// `f_blocks × f_frsize`.
    pub total: u64,
    /// `f_bavail × f_frsize`: free space available to unprivileged users.
    pub available: u64,
}

/// What happened to one `statvfs` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatOutcome {
    /// It answered.
    Space(FsSpace),
    /// It failed (the error text).
    Failed(String),
    /// It did not answer within the limit.
    TimedOut,
}

/// Calls `statvfs(path)` on a helper thread and waits at most `limit`.
pub fn statvfs_with_timeout(path: &Path, limit: Duration) -> StatOutcome {
    let (tx, rx) = mpsc::channel();
    let owned: PathBuf = path.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("ramvram-statvfs".into())
        .spawn(move || {
            let _ = tx.send(statvfs(&owned));
        });
    if let Err(e) = spawned {
        return StatOutcome::Failed(e.to_string());
    }
    match rx.recv_timeout(limit) {
        Ok(Ok(space)) => StatOutcome::Space(space),
        Ok(Err(e)) => StatOutcome::Failed(e),
        Err(_) => StatOutcome::TimedOut,
    }
}

#[cfg(unix)]
fn statvfs(path: &Path) -> Result<FsSpace, String> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = CString::new(path.as_os_str().as_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: `c` is a valid NUL-terminated path and `buf` is a plain C struct that statvfs
    // fills in completely on success.
    let mut buf: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut buf) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    let frsize = buf.f_frsize as u64;
    Ok(FsSpace {
        total: (buf.f_blocks as u64).saturating_mul(frsize),
        available: (buf.f_bavail as u64).saturating_mul(frsize),
    })
}

#[cfg(not(unix))]
fn statvfs(_path: &Path) -> Result<FsSpace, String> {
    Err("statvfs is not available on this platform".into())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn root_answers_with_sizes() {
        match statvfs_with_timeout(Path::new("/"), Duration::from_secs(5)) {
            StatOutcome::Space(s) => assert!(s.total > 0 && s.available <= s.total),
            other => panic!("statvfs(/) gave {other:?}"),
        }
    }

    #[test]
    fn missing_path_fails() {
        let out = statvfs_with_timeout(Path::new("/no/such/path/ramvram"), Duration::from_secs(5));
        assert!(matches!(out, StatOutcome::Failed(_)), "{out:?}");
    }
}
