//! Reading inside a folder a user names without ever leaving it: every subfolder and file is
//! opened relative to its parent folder's descriptor (`openat` with `O_NOFOLLOW`), looked at
//! without following (`fstatat` with `AT_SYMLINK_NOFOLLOW`), and a file is opened for reading
//! only when it is a regular file. A name the folder's owner swaps for a symbolic link after it
//! was listed fails to open (`ELOOP`/`ENOTDIR`) instead of leading out of the folder; FIFOs and
//! device nodes are never opened (on Linux the name is first opened with `O_PATH`, which opens
//! nothing, and reopened for reading through `/proc/self/fd` only when `fstat` says it is a
//! regular file).
//!
//! Off Unix (Windows) the same interface works on paths, with `symlink_metadata` checks: there,
//! creating symbolic links needs a privilege ordinary users don't have by default.

use std::ffi::OsString;
use std::io;

/// What a folder entry is, seen without following it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A folder.
    Dir,
    /// A regular file of this many bytes.
    File(u64),
    /// A symbolic link (never followed).
    Link,
    /// A FIFO, socket or device node (never opened).
    Special,
}

/// True when an error means the entry changed kind after it was looked at: it became a link
/// (`ELOOP`, or `ENOTDIR` from `O_DIRECTORY | O_NOFOLLOW` on some systems) or something other
/// than what was expected. Such an entry is counted as a link, not followed.
pub fn is_swapped(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR))
            || e.kind() == io::ErrorKind::InvalidInput
    }
    #[cfg(not(unix))]
    {
        e.kind() == io::ErrorKind::InvalidInput
    }
}

fn swapped() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "changed while it was read (a symbolic link or another kind of file now); not followed",
    )
}

#[cfg(unix)]
pub use unix::Folder;

#[cfg(not(unix))]
pub use other::Folder;

#[cfg(unix)]
mod unix {
    use super::{EntryKind, swapped};
    use std::ffi::{CStr, CString, OsStr, OsString};
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    use std::path::Path;

    /// An open folder, read relative to its descriptor.
    #[derive(Debug)]
    pub struct Folder {
        fd: OwnedFd,
    }

    fn owned(fd: libc::c_int) -> io::Result<OwnedFd> {
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a fresh descriptor nobody else owns.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    }

    fn cname(name: &OsStr) -> io::Result<CString> {
        if name.as_bytes().contains(&b'/') || name.is_empty() || name == ".." || name == "." {
            return Err(swapped());
        }
        CString::new(name.as_bytes()).map_err(|_| swapped())
    }

    fn fstat(fd: libc::c_int) -> io::Result<libc::stat> {
        // SAFETY: stat is plain data.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: a valid descriptor and a valid pointer.
        if unsafe { libc::fstat(fd, &mut st) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(st)
    }

    fn kind(st: &libc::stat) -> EntryKind {
        match st.st_mode & libc::S_IFMT {
            libc::S_IFDIR => EntryKind::Dir,
            libc::S_IFREG => EntryKind::File(u64::try_from(st.st_size).unwrap_or(0)),
            libc::S_IFLNK => EntryKind::Link,
            _ => EntryKind::Special,
        }
    }

    const DIR_FLAGS: libc::c_int =
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NONBLOCK;
    const READ_FLAGS: libc::c_int =
        libc::O_RDONLY | libc::O_CLOEXEC | libc::O_NONBLOCK | libc::O_NOCTTY;

    #[cfg(target_os = "linux")]
    fn clear_errno() {
        // SAFETY: errno is this thread's.
        unsafe { *libc::__errno_location() = 0 };
    }
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    fn clear_errno() {
        // SAFETY: errno is this thread's.
        unsafe { *libc::__error() = 0 };
    }
    #[cfg(not(any(
        target_os = "linux",
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd"
    )))]
    fn clear_errno() {}

    impl Folder {
        /// Opens the folder the user named (links in the named path itself are followed: the
        /// user chose it). Everything under it is then read through [`Folder`]'s methods.
        ///
        /// # Errors
        /// The OS error (`ENOTDIR` when it is not a folder).
        pub fn open(path: &Path) -> io::Result<Folder> {
            let c = CString::new(path.as_os_str().as_bytes())
                .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
            // SAFETY: a NUL-terminated path; the descriptor is owned below.
            let fd = owned(unsafe { libc::open(c.as_ptr(), DIR_FLAGS) })?;
            Ok(Folder { fd })
        }

        /// The names in this folder (not `.` and `..`), in directory order, each passed to
        /// `each`; `each` returns `false` to stop. Returns whether the listing ended on a read
        /// error (the names before it were given).
        ///
        /// # Errors
        /// The folder can't be listed.
        pub fn list(&self, mut each: impl FnMut(OsString) -> bool) -> io::Result<bool> {
            // fdopendir takes the descriptor: give it a duplicate.
            // SAFETY: a valid descriptor; the duplicate is owned below.
            let dup = owned(unsafe { libc::fcntl(self.fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) })?;
            // SAFETY: a valid descriptor that fdopendir now owns (closed by closedir).
            let dir = unsafe { libc::fdopendir(dup.as_raw_fd()) };
            if dir.is_null() {
                return Err(io::Error::last_os_error());
            }
            std::mem::forget(dup);
            struct Close(*mut libc::DIR);
            impl Drop for Close {
                fn drop(&mut self) {
                    // SAFETY: a DIR from fdopendir, closed once.
                    unsafe { libc::closedir(self.0) };
                }
            }
            let dir = Close(dir);
            loop {
                clear_errno();
                // SAFETY: a valid DIR, used by this thread only.
                let ent = unsafe { libc::readdir(dir.0) };
                if ent.is_null() {
                    let e = io::Error::last_os_error();
                    return Ok(e.raw_os_error().is_some_and(|n| n != 0));
                }
                // SAFETY: readdir returns a valid entry with a NUL-terminated name.
                let name = unsafe { CStr::from_ptr((*ent).d_name.as_ptr()) };
                let bytes = name.to_bytes();
                if bytes == b"." || bytes == b".." {
                    continue;
                }
                if !each(OsString::from_vec(bytes.to_vec())) {
                    return Ok(false);
                }
            }
        }

        /// What `name` in this folder is, not followed (`fstatat` with `AT_SYMLINK_NOFOLLOW`).
        ///
        /// # Errors
        /// The OS error.
        pub fn kind_of(&self, name: &OsStr) -> io::Result<EntryKind> {
            let c = cname(name)?;
            // SAFETY: stat is plain data.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: a valid descriptor, a NUL-terminated name and a valid pointer.
            let rc = unsafe {
                libc::fstatat(
                    self.fd.as_raw_fd(),
                    c.as_ptr(),
                    &mut st,
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            };
            if rc != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(kind(&st))
        }

        /// The subfolder `name`, opened without following a link (`O_NOFOLLOW | O_DIRECTORY`).
        ///
        /// # Errors
        /// The OS error; `ELOOP`/`ENOTDIR` when it is (now) a link or not a folder
        /// ([`super::is_swapped`]).
        pub fn open_dir(&self, name: &OsStr) -> io::Result<Folder> {
            let c = cname(name)?;
            // SAFETY: a valid descriptor and a NUL-terminated name; the descriptor is owned.
            let fd = owned(unsafe {
                libc::openat(
                    self.fd.as_raw_fd(),
                    c.as_ptr(),
                    DIR_FLAGS | libc::O_NOFOLLOW,
                )
            })?;
            if kind(&fstat(fd.as_raw_fd())?) != EntryKind::Dir {
                return Err(swapped());
            }
            Ok(Folder { fd })
        }

        /// The regular file `name`, opened for reading without following a link and checked
        /// with `fstat` before anything is read; its size, bytes. A FIFO or device node is
        /// never opened for reading (on Linux it is opened with `O_PATH` only).
        ///
        /// # Errors
        /// The OS error; an error for which [`super::is_swapped`] holds when it is not a
        /// regular file.
        pub fn open_file(&self, name: &OsStr) -> io::Result<(std::fs::File, u64)> {
            let c = cname(name)?;
            let file = self.open_regular(&c)?;
            let st = fstat(file.as_raw_fd())?;
            match kind(&st) {
                EntryKind::File(len) => Ok((std::fs::File::from(file), len)),
                _ => Err(swapped()),
            }
        }

        #[cfg(target_os = "linux")]
        fn open_regular(&self, c: &CStr) -> io::Result<OwnedFd> {
            // SAFETY: a valid descriptor and a NUL-terminated name; the descriptor is owned.
            let path_fd = owned(unsafe {
                libc::openat(
                    self.fd.as_raw_fd(),
                    c.as_ptr(),
                    libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                )
            })?;
            let st = fstat(path_fd.as_raw_fd())?;
            if !matches!(kind(&st), EntryKind::File(_)) {
                return Err(swapped());
            }
            // Reopen the very inode checked, for reading.
            let proc = CString::new(format!("/proc/self/fd/{}", path_fd.as_raw_fd()))
                .expect("no NUL in a number");
            // SAFETY: a NUL-terminated path; the descriptor is owned below.
            let fd = unsafe { libc::open(proc.as_ptr(), READ_FLAGS) };
            let fd = match owned(fd) {
                Ok(fd) => fd,
                // No /proc: open the name again, not followed, and compare below.
                Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
                    // SAFETY: as above.
                    owned(unsafe {
                        libc::openat(
                            self.fd.as_raw_fd(),
                            c.as_ptr(),
                            READ_FLAGS | libc::O_NOFOLLOW,
                        )
                    })?
                }
                Err(e) => return Err(e),
            };
            let again = fstat(fd.as_raw_fd())?;
            if (again.st_dev, again.st_ino) != (st.st_dev, st.st_ino) {
                return Err(swapped());
            }
            Ok(fd)
        }

        #[cfg(not(target_os = "linux"))]
        fn open_regular(&self, c: &CStr) -> io::Result<OwnedFd> {
            // SAFETY: stat is plain data.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: a valid descriptor, a NUL-terminated name and a valid pointer.
            let rc = unsafe {
                libc::fstatat(
                    self.fd.as_raw_fd(),
                    c.as_ptr(),
                    &mut st,
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            };
            if rc != 0 {
                return Err(io::Error::last_os_error());
            }
            if !matches!(kind(&st), EntryKind::File(_)) {
                return Err(swapped());
            }
            // SAFETY: as above; the descriptor is owned.
            let fd = owned(unsafe {
                libc::openat(
                    self.fd.as_raw_fd(),
                    c.as_ptr(),
                    READ_FLAGS | libc::O_NOFOLLOW,
                )
            })?;
            let again = fstat(fd.as_raw_fd())?;
            if (again.st_dev, again.st_ino) != (st.st_dev, st.st_ino) {
                return Err(swapped());
            }
            Ok(fd)
        }
    }
}

#[cfg(not(unix))]
mod other {
    use super::{EntryKind, swapped};
    use std::ffi::{OsStr, OsString};
    use std::io;
    use std::path::{Path, PathBuf};

    /// A folder, read by path (see the module's note).
    #[derive(Debug)]
    pub struct Folder {
        path: PathBuf,
    }

    fn join(dir: &Path, name: &OsStr) -> io::Result<PathBuf> {
        let p = Path::new(name);
        let one = p.components().count() == 1
            && matches!(p.components().next(), Some(std::path::Component::Normal(_)));
        if !one {
            return Err(swapped());
        }
        Ok(dir.join(name))
    }

    fn kind(m: &std::fs::Metadata) -> EntryKind {
        let t = m.file_type();
        if t.is_symlink() {
            EntryKind::Link
        } else if t.is_dir() {
            EntryKind::Dir
        } else if t.is_file() {
            EntryKind::File(m.len())
        } else {
            EntryKind::Special
        }
    }

    impl Folder {
        /// Opens the folder the user named.
        ///
        /// # Errors
        /// The OS error; `InvalidInput` when it is not a folder.
        pub fn open(path: &Path) -> io::Result<Folder> {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::Error::from(io::ErrorKind::NotADirectory));
            }
            Ok(Folder {
                path: path.to_path_buf(),
            })
        }

        /// The names in this folder, each passed to `each` (`false` stops); whether the listing
        /// ended on a read error.
        ///
        /// # Errors
        /// The folder can't be listed.
        pub fn list(&self, mut each: impl FnMut(OsString) -> bool) -> io::Result<bool> {
            for e in std::fs::read_dir(&self.path)? {
                match e {
                    Ok(e) => {
                        if !each(e.file_name()) {
                            return Ok(false);
                        }
                    }
                    Err(_) => return Ok(true),
                }
            }
            Ok(false)
        }

        /// What `name` is, not followed.
        ///
        /// # Errors
        /// The OS error.
        pub fn kind_of(&self, name: &OsStr) -> io::Result<EntryKind> {
            Ok(kind(&std::fs::symlink_metadata(join(&self.path, name)?)?))
        }

        /// The subfolder `name`; a link is refused.
        ///
        /// # Errors
        /// The OS error, or a refusal for a link.
        pub fn open_dir(&self, name: &OsStr) -> io::Result<Folder> {
            let path = join(&self.path, name)?;
            if kind(&std::fs::symlink_metadata(&path)?) != EntryKind::Dir {
                return Err(swapped());
            }
            Ok(Folder { path })
        }

        /// The regular file `name`, opened for reading; a link or special file is refused.
        ///
        /// # Errors
        /// The OS error, or a refusal.
        pub fn open_file(&self, name: &OsStr) -> io::Result<(std::fs::File, u64)> {
            let path = join(&self.path, name)?;
            if !matches!(kind(&std::fs::symlink_metadata(&path)?), EntryKind::File(_)) {
                return Err(swapped());
            }
            let file = std::fs::File::open(&path)?;
            match kind(&file.metadata()?) {
                EntryKind::File(len) => Ok((file, len)),
                _ => Err(swapped()),
            }
        }
    }
}

/// Opens the regular file at `rel` (folder names, then the file's name) under `root`, one
/// component at a time with [`Folder::open_dir`] and [`Folder::open_file`]: no link on the way
/// is followed, so the file is inside `root` whatever was swapped since it was listed.
///
/// # Errors
/// As [`Folder::open_dir`] and [`Folder::open_file`]; `InvalidInput` for an empty `rel`.
pub fn open_file_beneath(root: &Folder, rel: &[OsString]) -> io::Result<(std::fs::File, u64)> {
    let Some((file, dirs)) = rel.split_last() else {
        return Err(swapped());
    };
    let mut owned: Option<Folder> = None;
    for d in dirs {
        let next = owned.as_ref().unwrap_or(root).open_dir(d)?;
        owned = Some(next);
    }
    owned.as_ref().unwrap_or(root).open_file(file)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn links_and_fifos_are_seen_not_followed_or_opened() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        std::fs::create_dir(p.join("sub")).unwrap();
        std::fs::write(p.join("sub/a.jpg"), b"abc").unwrap();
        std::os::unix::fs::symlink("/", p.join("root")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", p.join("passwd")).unwrap();
        let fifo = std::ffi::CString::new(p.join("pipe").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let f = Folder::open(p).unwrap();
        let mut names = Vec::new();
        assert!(
            !f.list(|n| {
                names.push(n);
                true
            })
            .unwrap()
        );
        names.sort();
        assert_eq!(names, ["passwd", "pipe", "root", "sub"]);
        assert_eq!(f.kind_of(OsStr::new("root")).unwrap(), EntryKind::Link);
        assert_eq!(f.kind_of(OsStr::new("pipe")).unwrap(), EntryKind::Special);
        assert_eq!(f.kind_of(OsStr::new("sub")).unwrap(), EntryKind::Dir);
        assert!(is_swapped(&f.open_dir(OsStr::new("root")).unwrap_err()));
        assert!(is_swapped(&f.open_file(OsStr::new("passwd")).unwrap_err()));
        // The FIFO has no writer: an open for reading that blocked would hang here.
        assert!(is_swapped(&f.open_file(OsStr::new("pipe")).unwrap_err()));
        assert!(f.open_file(OsStr::new("..")).is_err());
        let rel = [OsString::from("sub"), OsString::from("a.jpg")];
        assert_eq!(open_file_beneath(&f, &rel).unwrap().1, 3);
        let out = [
            OsString::from("root"),
            OsString::from("etc"),
            "passwd".into(),
        ];
        assert!(is_swapped(&open_file_beneath(&f, &out).unwrap_err()));
    }
}
