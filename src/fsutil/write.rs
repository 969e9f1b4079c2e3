//! The one write path: [`write_atomic`], and [`create_new_file`] for a file written as it grows.

use std::io::{self, Write};
use std::path::Path;

/// Marks ramvram's temporary files: `.NAME.ramvram-HOST-PID-RANDOM.tmp` in the target folder.
pub const TEMP_MARKER: &str = ".ramvram-";

/// At most this many bytes of the target's name go into a temporary file's name, so that the
/// name stays under the 255-byte limit of common file systems.
const NAME_BYTES_IN_TEMP: usize = 96;

/// Writes `bytes` to `path` so that `path` holds either its old content or all of the new, never
/// a part, and so that nobody else who can write to a folder on the way can redirect the write:
///
/// 1. The path is walked one component at a time from a folder descriptor without the kernel
///    following any link (`openat` with `O_NOFOLLOW`). A symbolic link on the way, or at the
///    end, is followed only when this user or root owns it (the rule of
///    `fs.protected_symlinks`, in every folder, whatever that setting is); a link to a file
///    that does not exist, a loop (more than 40 links), and a path that exists but is not a
///    regular file (a folder, `/dev/null`, a FIFO) are refused. An existing file owned by
///    another user is refused when it has other hard links, or when it lies in a sticky folder
///    others can write to and the folder's owner doesn't own it either (the rules of
///    `fs.protected_regular`).
/// 2. The data goes to a temporary file created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`)
///    under a random name inside the folder found (`.NAME.ramvram-HOST-PID-RANDOM.tmp`), is
///    written and `fsync`ed.
/// 3. An existing target keeps its permission bits (`0o777` part), and, when ramvram runs as
///    root, its owner and group.
/// 4. The temporary file is renamed over the target within that folder (`renameat`), and the
///    folder is `fsync`ed. The file replaced is never written through.
///
/// Temporary files left in the folder by a ramvram process of this host that no longer runs
/// (`kill -9`, a power cut) are removed first.
///
/// # Errors
/// The OS error (permission denied, disk full), [`super::MissingFolder`] for a folder that
/// doesn't exist, or `InvalidInput` / `PermissionDenied` with a sentence for the refusals
/// above. Nothing is left behind on error.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    imp::write_atomic(path, &mut |w| w.write_all(bytes))
}

/// [`write_atomic`] of what `fill` writes, for a file too big to hold in memory first (a fleet
/// report of 100,000 machines). `fill` writes into a buffered writer on the temporary file;
/// when it fails, nothing is left behind and the target is untouched.
///
/// # Errors
/// As [`write_atomic`], or `fill`'s error.
pub fn write_atomic_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    imp::write_atomic(path, fill)
}

/// Creates a new, empty file at `path` by the rules of [`write_atomic`] (the same walk and
/// refusals; a replaced file keeps its mode and owner but is never written through or
/// truncated: a fresh file is renamed over it at once) and returns it open for writing, for a
/// file that grows as it is written (`watch --record`).
///
/// # Errors
/// As [`write_atomic`].
pub fn create_new_file(path: &Path) -> io::Result<std::fs::File> {
    imp::create_new_file(path)
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

#[cfg_attr(not(unix), allow(dead_code))]
/// Ten random letters and digits (from the standard library's randomly keyed hasher).
fn random_tag() -> String {
    use std::hash::{BuildHasher, Hasher};
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    let mut bits = h.finish();
    (0..10)
        .map(|_| {
            let c = ALPHABET[(bits % ALPHABET.len() as u64) as usize];
            bits /= ALPHABET.len() as u64;
            char::from(c)
        })
        .collect()
}

#[cfg_attr(not(unix), allow(dead_code))]
/// The pid in a temporary file name `PREFIX<pid>-RANDOM.tmp`, when it is one of ours.
fn temp_pid(name: &str, prefix: &str) -> Option<u32> {
    name.strip_prefix(prefix)
        .filter(|rest| rest.ends_with(".tmp"))
        .and_then(|rest| rest.split('-').next())
        .and_then(|p| p.parse::<u32>().ok())
}

#[cfg(unix)]
mod imp {
    use super::super::walk::{self, Target};
    use super::*;
    use std::ffi::{CStr, CString};
    use std::fs::File;
    use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd};

    pub(super) fn write_atomic(
        path: &Path,
        fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        let target = walk::resolve(path)?;
        let (mut file, tmp) = create_temp(&target)?;
        let mut w = io::BufWriter::new(&mut file);
        let filled = fill(&mut w).and_then(|()| w.flush());
        drop(w);
        let done = filled
            .and_then(|()| keep_owner_and_mode(&file, target.existing.as_ref()))
            .and_then(|()| file.sync_all())
            .and_then(|()| rename(&target, &tmp));
        if let Err(e) = done {
            unlink(target.dir.as_fd(), &tmp);
            return Err(e);
        }
        sync_dir(target.dir.as_fd())
    }

    pub(super) fn create_new_file(path: &Path) -> io::Result<File> {
        let target = walk::resolve(path)?;
        let (file, tmp) = create_temp(&target)?;
        let done = keep_owner_and_mode(&file, target.existing.as_ref())
            .and_then(|()| rename(&target, &tmp));
        if let Err(e) = done {
            unlink(target.dir.as_fd(), &tmp);
            return Err(e);
        }
        sync_dir(target.dir.as_fd())?;
        Ok(file)
    }

    /// Creates `.NAME.ramvram-HOST-PID-RANDOM.tmp` exclusively in the target's folder, after
    /// removing stale ones. A new file gets 0o666 less the umask, as `File::create` would give
    /// it; a replacement starts private and gets the old mode once its owner is set.
    fn create_temp(target: &Target) -> io::Result<(File, CString)> {
        let name = String::from_utf8_lossy(target.name.as_bytes()).into_owned();
        let prefix = temp_prefix(&name);
        remove_stale_temps(target.dir.as_fd(), &prefix);
        let mode: libc::c_uint = if target.existing.is_some() {
            0o600
        } else {
            0o666
        };
        let mut last = io::Error::from_raw_os_error(libc::EEXIST);
        for _ in 0..64 {
            let tmp = walk::cstring(
                format!("{prefix}{}-{}.tmp", std::process::id(), random_tag()).as_ref(),
            )?;
            // SAFETY: a valid descriptor and a NUL-terminated name; the descriptor is owned
            // below.
            let fd = unsafe {
                libc::openat(
                    target.dir.as_raw_fd(),
                    tmp.as_ptr(),
                    libc::O_WRONLY
                        | libc::O_CREAT
                        | libc::O_EXCL
                        | libc::O_NOFOLLOW
                        | libc::O_CLOEXEC,
                    mode,
                )
            };
            if fd >= 0 {
                // SAFETY: a fresh descriptor nobody else owns.
                return Ok((unsafe { File::from_raw_fd(fd) }, tmp));
            }
            last = io::Error::last_os_error();
            if last.raw_os_error() != Some(libc::EEXIST) {
                return Err(last);
            }
        }
        Err(last)
    }

    fn rename(target: &Target, tmp: &CStr) -> io::Result<()> {
        let dir = target.dir.as_raw_fd();
        // SAFETY: a valid descriptor and NUL-terminated names.
        if unsafe { libc::renameat(dir, tmp.as_ptr(), dir, target.name.as_ptr()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn unlink(dir: BorrowedFd<'_>, name: &CStr) {
        // SAFETY: a valid descriptor and a NUL-terminated name; unlinkat never follows a link.
        unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) };
    }

    /// Gives the new file the replaced file's permission bits and, as root, its owner and group
    /// (ownership first: `chown` clears set-id bits, which are not kept anyway).
    fn keep_owner_and_mode(file: &File, old: Option<&libc::stat>) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let Some(old) = old else { return Ok(()) };
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::fchown(file, Some(old.st_uid), Some(old.st_gid))?;
        }
        // `mode_t` is u32 on Linux and u16 on macOS.
        #[allow(clippy::useless_conversion)]
        let mode = u32::from(old.st_mode) & 0o777;
        file.set_permissions(std::fs::Permissions::from_mode(mode))
    }

    /// A new read-only descriptor of the folder `dir` (its `.`), owned by the caller, who must
    /// close it.
    fn reopen_dir(dir: BorrowedFd<'_>) -> io::Result<std::os::fd::RawFd> {
        // SAFETY: a valid descriptor and a NUL-terminated name.
        let fd = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                c".".as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(fd)
        }
    }

    /// Makes the rename durable. File systems that can't sync a folder (`EINVAL`) are left as
    /// they are.
    fn sync_dir(dir: BorrowedFd<'_>) -> io::Result<()> {
        let fd = reopen_dir(dir)?;
        // SAFETY: a fresh descriptor nobody else owns.
        let d = unsafe { File::from_raw_fd(fd) };
        match d.sync_all() {
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
            r => r,
        }
    }

    /// Removes `PREFIX<pid>-*.tmp` files of ramvram processes of this host that no longer run.
    /// Only regular files owned by this user are removed (`unlinkat` never follows a link).
    fn remove_stale_temps(dir: BorrowedFd<'_>, prefix: &str) {
        let Ok(listed) = list(dir) else { return };
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        for name in listed {
            let Some(text) = name.to_str() else { continue };
            let Some(pid) = temp_pid(text, prefix) else {
                continue;
            };
            if super::super::process_alive(pid) {
                continue;
            }
            let Ok(c) = walk::cstring(&name) else {
                continue;
            };
            // SAFETY: stat is plain data; a valid descriptor, name and pointer.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            let rc = unsafe {
                libc::fstatat(
                    dir.as_raw_fd(),
                    c.as_ptr(),
                    &mut st,
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            };
            if rc == 0 && st.st_mode & libc::S_IFMT == libc::S_IFREG && st.st_uid == me {
                unlink(dir, &c);
            }
        }
    }

    /// The names in the folder `dir` (read through a descriptor of its own).
    fn list(dir: BorrowedFd<'_>) -> io::Result<Vec<std::ffi::OsString>> {
        use std::os::unix::ffi::OsStrExt;
        let fd = reopen_dir(dir)?;
        // SAFETY: fd is ours; on success the stream owns it and closedir closes it.
        let stream = unsafe { libc::fdopendir(fd) };
        if stream.is_null() {
            let e = io::Error::last_os_error();
            // SAFETY: fd is still ours when fdopendir failed.
            unsafe { libc::close(fd) };
            return Err(e);
        }
        let mut names = Vec::new();
        loop {
            // SAFETY: a valid stream; the entry is read before the next call.
            let entry = unsafe { libc::readdir(stream) };
            if entry.is_null() {
                break;
            }
            // SAFETY: d_name is a NUL-terminated name inside the entry.
            let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) };
            names.push(std::ffi::OsStr::from_bytes(name.to_bytes()).to_os_string());
        }
        // SAFETY: a valid stream, closed once.
        unsafe { libc::closedir(stream) };
        Ok(names)
    }
}

/// Elsewhere (Windows): a temporary file from `tempfile` in the target's folder, renamed over it.
#[cfg(not(unix))]
mod imp {
    use super::*;

    fn folder(path: &Path) -> io::Result<std::path::PathBuf> {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        if let Ok(meta) = std::fs::symlink_metadata(path) {
            if !meta.is_file() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "exists and is not a regular file; refusing to replace it",
                ));
            }
        }
        if std::fs::metadata(&dir).is_err_and(|e| e.kind() == io::ErrorKind::NotFound) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                super::super::MissingFolder(dir),
            ));
        }
        Ok(dir)
    }

    pub(super) fn write_atomic(
        path: &Path,
        fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        let dir = folder(path)?;
        let old = std::fs::metadata(path).ok();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let prefix = format!(
            "{}{}-",
            temp_prefix(name.as_deref().unwrap_or("file")),
            std::process::id()
        );
        let mut tmp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| io::Error::new(e.kind(), "could not create a file in the folder"))?;
        let mut w = io::BufWriter::new(tmp.as_file_mut());
        fill(&mut w)?;
        w.flush()?;
        drop(w);
        if let Some(old) = old {
            tmp.as_file().set_permissions(old.permissions())?;
        }
        tmp.as_file().sync_all()?;
        tmp.persist(path).map(|_| ()).map_err(|e| e.error)
    }

    pub(super) fn create_new_file(path: &Path) -> io::Result<std::fs::File> {
        folder(path)?;
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
    }
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
