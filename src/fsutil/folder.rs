//! Reading the files inside a folder a user named (`--model DIR`) without following anything
//! the folder's owner planted: the folder is opened once, and every file in it is looked up by
//! name relative to that descriptor (`fstatat` with `AT_SYMLINK_NOFOLLOW`, then `openat` with
//! `O_NOFOLLOW | O_NONBLOCK`, then `fstat` before any byte is read). A symbolic link is refused
//! by its name, never followed; a FIFO, socket or device is refused from `fstatat` without being
//! opened; a name swapped between the look and the open (for a link, a FIFO, another file) is
//! refused from `O_NOFOLLOW` or from the opened file's `fstat` (type, device and inode compared),
//! before anything is read. Nothing of a refused file is shown: not its size, not its bytes.
//!
//! The folder itself is the path the user typed, opened as any program opens a path (a link
//! the user names is followed: it is their choice); only what lies inside it is distrusted.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use super::read::{InputProblem, problem};

/// A file's identity: its device and inode (`st_dev`, `st_ino`), so that one file reached by
/// two names (hard links, an index naming it twice) is read once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId {
    /// `st_dev`.
    pub dev: u64,
    /// `st_ino`.
    pub ino: u64,
}

/// A regular file opened for reading and checked with `fstat` before any read.
#[derive(Debug)]
pub struct InputFile {
    /// The open file, positioned at its start.
    pub file: File,
    /// Its size, bytes (from `fstat` on the open descriptor).
    pub len: u64,
    /// Its device and inode; `None` where the platform doesn't give them.
    pub id: Option<FileId>,
}

/// The names a folder listing kept, and whether it stopped early.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The names kept (UTF-8 names the filter accepted), sorted.
    pub names: Vec<String>,
    /// Entries looked at.
    pub looked_at: u64,
    /// True when the folder had more entries than the listing looked at.
    pub cut: bool,
}

/// A folder a user named, open, whose files are read by name relative to it.
#[derive(Debug)]
pub struct InputFolder {
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

fn bad_name() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "is not a plain file name in the folder",
    )
}

/// True for one plain path component: not empty, not `.` or `..`, no slash, backslash or NUL.
fn plain(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

impl InputFolder {
    /// The folder's path as the user gave it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `name` inside the folder, for messages.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

#[cfg(unix)]
mod imp {
    use std::ffi::{CStr, CString};
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use super::{FileId, InputFile, InputFolder, InputProblem, Listing, bad_name, plain, problem};

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

        /// Opens the regular file `name` in the folder for reading, refusing a symbolic link
        /// ([`InputProblem::Link`]) and anything that is not a regular file without opening
        /// it, and a name swapped while it was opened ([`InputProblem::Changed`]).
        ///
        /// # Errors
        /// `NotFound` and the other OS errors, or an error carrying an [`InputProblem`].
        pub fn open_file(&self, name: &str) -> io::Result<InputFile> {
            if !plain(name) {
                return Err(bad_name());
            }
            let c = CString::new(name).map_err(|_| bad_name())?;
            let before = self.stat_at(&c)?;
            if let Some(p) = kind_of_mode(before.st_mode) {
                return Err(problem(p));
            }
            // SAFETY: a valid descriptor and a NUL-terminated name; owned below.
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
            // SAFETY: dup of a valid descriptor; fdopendir takes ownership of the copy.
            let copy = unsafe { libc::dup(self.fd.as_raw_fd()) };
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
}

#[cfg(unix)]
pub use imp::open_named;

#[cfg(not(unix))]
mod imp {
    use std::io;
    use std::path::Path;

    use super::{InputFile, InputFolder, InputProblem, Listing, bad_name, plain, problem};

    fn kind(meta: &std::fs::Metadata) -> Option<InputProblem> {
        let t = meta.file_type();
        if t.is_symlink() {
            Some(InputProblem::Link)
        } else if t.is_dir() {
            Some(InputProblem::Directory)
        } else if !t.is_file() {
            Some(InputProblem::CharDevice)
        } else {
            None
        }
    }

    fn open_checked(path: &Path) -> io::Result<InputFile> {
        let file = std::fs::File::open(path)?;
        let meta = file.metadata()?;
        if let Some(p) = kind(&meta) {
            return Err(problem(p));
        }
        Ok(InputFile {
            file,
            len: meta.len(),
            id: None,
        })
    }

    impl InputFolder {
        /// Opens the folder `path` (checked to be a folder; read by path on this platform).
        ///
        /// # Errors
        /// The OS error; `NotADirectory` when `path` is not a folder.
        pub fn open(path: &Path) -> io::Result<InputFolder> {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a folder"));
            }
            Ok(InputFolder {
                path: path.to_path_buf(),
            })
        }

        /// Opens the regular file `name` in the folder: a link (looked at without following
        /// it) or anything but a regular file is refused before it is opened.
        ///
        /// # Errors
        /// The OS error, or an error carrying an [`InputProblem`].
        pub fn open_file(&self, name: &str) -> io::Result<InputFile> {
            if !plain(name) {
                return Err(bad_name());
            }
            let p = self.path.join(name);
            if let Some(k) = kind(&std::fs::symlink_metadata(&p)?) {
                return Err(problem(k));
            }
            open_checked(&p)
        }

        /// True when `name` exists in the folder (not followed).
        pub fn has(&self, name: &str) -> bool {
            plain(name) && std::fs::symlink_metadata(self.path.join(name)).is_ok()
        }

        /// Lists the folder's names that `keep` accepts (see the Unix version).
        ///
        /// # Errors
        /// The OS error of the listing.
        pub fn list(
            &self,
            look_cap: u64,
            keep_cap: usize,
            mut keep: impl FnMut(&str) -> bool,
        ) -> io::Result<Listing> {
            let mut out = Listing::default();
            for entry in std::fs::read_dir(&self.path)? {
                if out.looked_at >= look_cap {
                    out.cut = true;
                    break;
                }
                out.looked_at += 1;
                if let Some(s) = entry?.file_name().to_str() {
                    if keep(s) {
                        if out.names.len() >= keep_cap {
                            out.cut = true;
                            continue;
                        }
                        out.names.push(s.to_string());
                    }
                }
            }
            out.names.sort();
            Ok(out)
        }
    }

    /// Opens a regular file the user named, refusing anything else before it is opened.
    ///
    /// # Errors
    /// The OS error, or an error carrying an [`InputProblem`].
    pub fn open_named(path: &Path) -> io::Result<InputFile> {
        if let Some(k) = kind(&std::fs::metadata(path)?) {
            return Err(problem(k));
        }
        open_checked(path)
    }
}

#[cfg(not(unix))]
pub use imp::open_named;

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn kind_of(e: &io::Error) -> Option<InputProblem> {
        e.get_ref()?.downcast_ref::<InputProblem>().copied()
    }

    #[test]
    fn links_fifos_and_folders_inside_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("a.json"), b"{}").unwrap();
        std::fs::write(d.join("secret"), b"TOPSECRET").unwrap();
        std::os::unix::fs::symlink(d.join("secret"), d.join("link.json")).unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        let fifo = std::ffi::CString::new(d.join("pipe").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let f = InputFolder::open(d).unwrap();
        let a = f.open_file("a.json").unwrap();
        assert_eq!(a.len, 2);
        let e = f.open_file("link.json").unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::Link));
        // Nothing of the target shows in the error.
        assert!(!e.to_string().contains("TOPSECRET"), "{e}");
        assert_eq!(
            kind_of(&f.open_file("pipe").unwrap_err()),
            Some(InputProblem::Fifo)
        );
        assert_eq!(
            kind_of(&f.open_file("sub").unwrap_err()),
            Some(InputProblem::Directory)
        );
        assert!(f.open_file("../a.json").is_err());
        assert_eq!(
            f.open_file("missing").unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert!(f.has("link.json") && !f.has("missing"));
    }

    #[test]
    fn a_listing_keeps_what_it_is_asked_and_says_when_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..50 {
            std::fs::write(dir.path().join(format!("f{i:02}.x")), b"").unwrap();
        }
        std::fs::write(dir.path().join("keep.safetensors"), b"").unwrap();
        let f = InputFolder::open(dir.path()).unwrap();
        let all = f.list(1000, 10, |n| n.ends_with(".safetensors")).unwrap();
        assert_eq!(all.names, vec!["keep.safetensors".to_string()]);
        assert_eq!((all.looked_at, all.cut), (51, false));
        let cut = f.list(20, 10, |_| false).unwrap();
        assert_eq!((cut.looked_at, cut.cut), (20, true));
        let few = f.list(1000, 3, |n| n.ends_with(".x")).unwrap();
        assert_eq!((few.names.len(), few.cut), (3, true));
    }
}
