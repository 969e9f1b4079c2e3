//! The Unix side of [`super::folder`]: the folder held open as a descriptor, files looked up
//! in it with `fstatat` and `openat` (`O_NOFOLLOW | O_NONBLOCK`), listed with `readdir` on a
//! copy of the descriptor.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::folder::{FileId, InputFile, InputFolder, Listing, bad_name, plain};
use super::read::{InputProblem, problem};

fn owned(fd: libc::c_int) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn kind_of_mode(mode: libc::mode_t) -> Option<InputProblem> {
    match mode & libc::S_IFMT {
        libc::S_IFREG => None,
        libc::S_IFLNK => Some(InputProblem::Link),
        libc::S_IFDIR => Some(InputProblem::Directory),
        libc::S_IFIFO => Some(InputProblem::Fifo),
        libc::S_IFBLK => Some(InputProblem::BlockDevice),
        libc::S_IFSOCK => Some(InputProblem::Socket),
        _ => Some(InputProblem::CharDevice),
    }
}

fn id(st: &libc::stat) -> FileId {
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    FileId {
        dev: st.st_dev as u64,
        ino: st.st_ino as u64,
    }
}

fn fstat(fd: libc::c_int) -> io::Result<libc::stat> {
    // SAFETY: stat is plain data; fstat fills it or fails.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor and a valid pointer.
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(st)
}

const READ_FLAGS: libc::c_int =
    libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;

/// Opens a regular file: `before` is what a `stat` of it said; the opened descriptor must
/// be the same regular file.
fn checked(fd: OwnedFd, before: &libc::stat) -> io::Result<InputFile> {
    let st = fstat(fd.as_raw_fd())?;
    if let Some(p) = kind_of_mode(st.st_mode) {
        return Err(problem(p));
    }
    if id(&st) != id(before) {
        return Err(problem(InputProblem::Changed));
    }
    #[allow(clippy::unnecessary_cast)]
    let len = st.st_size.max(0) as u64;
    Ok(InputFile {
        file: std::fs::File::from(fd),
        len,
        id: Some(id(&st)),
    })
}

/// Opens the file behind the `O_PATH` descriptor `path_fd` for reading through
/// `/proc/self/fd/N` (the inode, not a name again), checked against `before` ([`checked`]).
/// An `O_PATH` open calls no driver's `open`, so a device or FIFO swapped in is seen by
/// `fstat` before anything opens it.
#[cfg(target_os = "linux")]
fn reopen(path_fd: &OwnedFd, before: &libc::stat) -> io::Result<InputFile> {
    let proc = CString::new(format!("/proc/self/fd/{}", path_fd.as_raw_fd()))
        .map_err(|_| problem(InputProblem::Changed))?;
    // SAFETY: a NUL-terminated path; owned below.
    let fd = owned(unsafe { libc::open(proc.as_ptr(), READ_FLAGS) })?;
    checked(fd, before)
}

impl InputFolder {
    /// Opens the folder `path` (a link the user typed is followed).
    ///
    /// # Errors
    /// The OS error: `NotADirectory` (`ENOTDIR`) when `path` is not a folder.
    pub fn open(path: &Path) -> io::Result<InputFolder> {
        let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| bad_name())?;
        // SAFETY: a NUL-terminated path; the descriptor is owned below.
        let fd = unsafe { libc::open(c.as_ptr(), libc::O_DIRECTORY | READ_FLAGS) };
        Ok(InputFolder {
            path: path.to_path_buf(),
            fd: owned(fd)?,
        })
    }

    /// Opens the regular file `name` in the folder for reading, refusing anything that is
    /// not a regular file without opening it, and a name swapped while it was opened
    /// ([`InputProblem::Changed`]). A symbolic link is followed on Linux only under the rule
    /// of [`InputFolder::follow_link`] (a Hugging Face hub snapshot is made of links into
    /// `../../blobs/`); any other link is refused by its name ([`InputProblem::Link`]), and
    /// on macOS and the BSDs every link is.
    ///
    /// # Errors
    /// `NotFound` and the other OS errors, or an error carrying an [`InputProblem`].
    pub fn open_file(&self, name: &str) -> io::Result<InputFile> {
        if !plain(name) {
            return Err(bad_name());
        }
        let c = CString::new(name).map_err(|_| bad_name())?;
        let before = self.stat_at(&c)?;
        #[cfg(target_os = "linux")]
        if before.st_mode & libc::S_IFMT == libc::S_IFLNK {
            return self.follow_link(&c);
        }
        if let Some(p) = kind_of_mode(before.st_mode) {
            return Err(problem(p));
        }
        // On Linux the name is opened with `O_PATH` first and checked, so a device or FIFO
        // swapped in after the `fstatat` is never opened (its driver's `open` never runs).
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a valid descriptor and a NUL-terminated name; owned below.
            let path_fd = unsafe {
                libc::openat(
                    self.fd.as_raw_fd(),
                    c.as_ptr(),
                    libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                )
            };
            let path_fd = owned(path_fd)?;
            let now = fstat(path_fd.as_raw_fd())?;
            if now.st_mode & libc::S_IFMT == libc::S_IFLNK {
                return Err(problem(InputProblem::Link));
            }
            if let Some(p) = kind_of_mode(now.st_mode) {
                return Err(problem(p));
            }
            if id(&now) != id(&before) {
                return Err(problem(InputProblem::Changed));
            }
            return reopen(&path_fd, &before);
        }
        // SAFETY: a valid descriptor and a NUL-terminated name; owned below.
        #[allow(unreachable_code)]
        let fd = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                READ_FLAGS | libc::O_NOFOLLOW,
            )
        };
        let fd = match owned(fd) {
            Ok(fd) => fd,
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Err(problem(InputProblem::Link));
            }
            Err(e) => return Err(e),
        };
        checked(fd, &before)
    }

    /// Follows the symbolic link `name` in the folder, only when all of these hold (issue 37;
    /// otherwise [`InputProblem::Link`], with nothing of the target shown, not even why):
    ///
    /// 1. its target, resolved by the kernel, is a regular file. The name is opened with
    ///    `O_PATH` (following), which calls no driver's `open` and doesn't wait on a FIFO;
    ///    that descriptor is `fstat`ed, and only a regular file goes on. A FIFO, socket,
    ///    device, folder or dangling link is refused without having been opened.
    /// 2. the target is owned by the folder's owner and the folder is writable by nobody but
    ///    its owner (no group or other write bit), so only that owner (or root) can have put
    ///    the link there or swapped it: the link can only reveal a file its owner owns, and
    ///    could read anyway (`chmod`) — never a root-only file when root runs ramvram on
    ///    another user's folder. The owner's read bit must be set. Or: ramvram runs as a user other than root (`geteuid`,
    ///    equal to `getuid`) and owns the target — it could read the file itself.
    /// 3. the file is then opened for reading through `/proc/self/fd/N` of the `O_PATH`
    ///    descriptor (the same inode, not the name again) with `O_NONBLOCK | O_NOCTTY`, and
    ///    `fstat`ed: still a regular file, with the same device and inode as the one checked.
    ///
    /// The one limit of the owner rule: a file root handed to the folder's owner (`chown`)
    /// inside a folder that owner can't enter is followed although the owner couldn't open
    /// it by its path.
    ///
    /// # Errors
    /// An error carrying [`InputProblem::Link`] (refused: nothing else is said) or
    /// [`InputProblem::Changed`]; an OS error from the final `open` (no `/proc`).
    #[cfg(target_os = "linux")]
    fn follow_link(&self, name: &CStr) -> io::Result<InputFile> {
        let refused = || problem(InputProblem::Link);
        // SAFETY: a valid descriptor and a NUL-terminated name; owned below.
        let path_fd = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                name.as_ptr(),
                libc::O_PATH | libc::O_CLOEXEC,
            )
        };
        let path_fd = owned(path_fd).map_err(|_| refused())?;
        let target = fstat(path_fd.as_raw_fd()).map_err(|_| refused())?;
        let folder = fstat(self.fd.as_raw_fd()).map_err(|_| refused())?;
        if target.st_mode & libc::S_IFMT != libc::S_IFREG || !owner_may_follow(&folder, &target) {
            return Err(refused());
        }
        reopen(&path_fd, &target)
    }

    /// True when `name` exists in the folder (as anything, a link included; not followed).
    pub fn has(&self, name: &str) -> bool {
        plain(name) && CString::new(name).is_ok_and(|c| self.stat_at(&c).is_ok())
    }

    fn stat_at(&self, name: &CStr) -> io::Result<libc::stat> {
        // SAFETY: stat is plain data.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a valid descriptor, a NUL-terminated name and a valid pointer.
        let rc = unsafe {
            libc::fstatat(
                self.fd.as_raw_fd(),
                name.as_ptr(),
                &mut st,
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(st)
    }

    /// Lists the folder's names (not below it) that `keep` accepts, looking at no more
    /// than `look_cap` entries; at most `keep_cap` names are kept (the rest are counted in
    /// `looked_at`, and `cut` is set). Nothing is opened or followed.
    ///
    /// # Errors
    /// The OS error of `readdir`.
    pub fn list(
        &self,
        look_cap: u64,
        keep_cap: usize,
        mut keep: impl FnMut(&str) -> bool,
    ) -> io::Result<Listing> {
        // SAFETY: a close-on-exec copy of a valid descriptor (no child started meanwhile
        // inherits it); fdopendir takes ownership of the copy.
        let copy = unsafe { libc::fcntl(self.fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) };
        if copy < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a valid descriptor, owned by the stream from here on.
        let dir = unsafe { libc::fdopendir(copy) };
        if dir.is_null() {
            let e = io::Error::last_os_error();
            // SAFETY: fdopendir failed, so the copy is still ours to close.
            unsafe { libc::close(copy) };
            return Err(e);
        }
        // SAFETY: a valid stream; the copy shares the offset, so start from the top.
        unsafe { libc::rewinddir(dir) };
        let mut out = Listing::default();
        let result = loop {
            // SAFETY: errno is thread-local; cleared to tell the end from an error.
            unsafe { *errno() = 0 };
            // SAFETY: a valid stream.
            let ent = unsafe { libc::readdir(dir) };
            if ent.is_null() {
                // SAFETY: as above.
                let code = unsafe { *errno() };
                break if code == 0 {
                    Ok(())
                } else {
                    Err(io::Error::from_raw_os_error(code))
                };
            }
            // SAFETY: readdir's entry holds a NUL-terminated name.
            let name = unsafe { CStr::from_ptr((*ent).d_name.as_ptr()) };
            let bytes = name.to_bytes();
            if bytes == b"." || bytes == b".." {
                continue;
            }
            if out.looked_at >= look_cap {
                out.cut = true;
                break Ok(());
            }
            out.looked_at += 1;
            if let Ok(s) = std::str::from_utf8(bytes) {
                if keep(s) {
                    if out.names.len() >= keep_cap {
                        out.cut = true;
                        continue;
                    }
                    out.names.push(s.to_string());
                }
            }
        };
        // SAFETY: a valid stream, closed once (this closes the copy).
        unsafe { libc::closedir(dir) };
        result?;
        out.names.sort();
        Ok(out)
    }
}

/// Rule 2 of [`InputFolder::follow_link`]: the target is owned by the owner of a folder
/// only its owner can write, or by the (non-root) user running ramvram; and its owner may
/// read it (`S_IRUSR`), so a file its owner has shut even to itself is not followed.
#[cfg(target_os = "linux")]
fn owner_may_follow(folder: &libc::stat, target: &libc::stat) -> bool {
    let others_write = libc::S_IWGRP | libc::S_IWOTH;
    if target.st_mode & libc::S_IRUSR == 0 {
        return false;
    }
    let folders_owner = target.st_uid == folder.st_uid && folder.st_mode & others_write == 0;
    // SAFETY: getuid and geteuid have no preconditions.
    let (uid, euid) = unsafe { (libc::getuid(), libc::geteuid()) };
    let runners_own = euid != 0 && uid == euid && target.st_uid == euid;
    folders_owner || runners_own
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn errno() -> *mut libc::c_int {
    // SAFETY: libc's thread-local errno.
    unsafe { libc::__errno_location() }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn errno() -> *mut libc::c_int {
    // SAFETY: libc's thread-local errno (macOS and the BSDs).
    unsafe { libc::__error() }
}

/// Opens a regular file the user named: `stat` first (a link the user typed is
/// followed), anything but a regular file refused without being opened, then opened
/// without blocking and checked with `fstat` to be the file looked at.
///
/// # Errors
/// The OS error, or an error carrying an [`InputProblem`].
pub fn open_named(path: &Path) -> io::Result<InputFile> {
    let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| bad_name())?;
    // SAFETY: stat is plain data.
    let mut before: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid pointer.
    if unsafe { libc::stat(c.as_ptr(), &mut before) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if let Some(p) = kind_of_mode(before.st_mode) {
        return Err(problem(p));
    }
    // SAFETY: a NUL-terminated path; owned below.
    let fd = owned(unsafe { libc::open(c.as_ptr(), READ_FLAGS) })?;
    checked(fd, &before)
}
