//! Reading the files inside a folder a user named (`--model DIR`) without following anything
//! the folder's owner planted outside what that owner could read: the folder is opened once, and every file in it is looked up by
//! name relative to that descriptor (`fstatat` with `AT_SYMLINK_NOFOLLOW`, then `openat` with
//! `O_NOFOLLOW | O_NONBLOCK`, then `fstat` before any byte is read). A symbolic link is refused
//! by its name, never followed; a FIFO, socket or device is refused from `fstatat` without being
//! opened; a name swapped between the look and the open (for a link, a FIFO, another file) is
//! refused from `O_NOFOLLOW` or from the opened file's `fstat` (type, device and inode compared),
//! before anything is read. Nothing of a refused file is shown: not its size, not its bytes.
//!
//! One exception, on Linux only, for Hugging Face hub snapshots (made entirely of links such as
//! `config.json -> ../../blobs/<sha>`): a link is followed when its target, opened with `O_PATH`
//! (no driver's `open`, no wait on a FIFO) and `fstat`ed, is a regular file its owner may read
//! owned by the owner of a folder only that owner can write (or by the non-root user running
//! ramvram), and is then opened through `/proc/self/fd/N` and checked to be the same inode
//! (the rule in full: `InputFolder::follow_link` in `folder_unix.rs`). Any other link is
//! refused by its name, as before; macOS, the BSDs and Windows refuse every link.
//!
//! The folder itself is the path the user typed, opened as any program opens a path (a link
//! the user names is followed: it is their choice); only what lies inside it is distrusted.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use super::read::{InputProblem, problem, read_capped};

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
    pub(super) path: PathBuf,
    #[cfg(unix)]
    pub(super) fd: std::os::fd::OwnedFd,
}

pub(super) fn bad_name() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "is not a plain file name in the folder",
    )
}

/// True for one plain path component: not empty, not `.` or `..`, no slash, backslash or NUL.
pub(super) fn plain(name: &str) -> bool {
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

/// Reads a file opened by [`InputFolder::open_file`] or [`super::open_named`] whole, as UTF-8 text,
/// refusing more than `cap` bytes (checked against its `fstat` size first).
///
/// # Errors
/// The OS error, [`InputProblem::TooLarge`] or [`InputProblem::NotText`].
pub fn read_opened_string(opened: InputFile, cap: u64) -> io::Result<String> {
    if opened.len > cap {
        return Err(problem(InputProblem::TooLarge(cap)));
    }
    let bytes = read_capped(opened.file, cap, opened.len)?;
    String::from_utf8(bytes).map_err(|_| problem(InputProblem::NotText))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn kind_of(e: &io::Error) -> Option<InputProblem> {
        e.get_ref()?.downcast_ref::<InputProblem>().copied()
    }

    #[test]
    fn links_fifos_and_folders_inside_are_refused_by_name_and_own_files_followed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("a.json"), b"{}").unwrap();
        std::fs::write(d.join("secret"), b"TOPSECRET").unwrap();
        std::os::unix::fs::symlink(d.join("pipe"), d.join("link.json")).unwrap();
        std::os::unix::fs::symlink("secret", d.join("own.json")).unwrap();
        std::os::unix::fs::symlink("/dev/null", d.join("dev.json")).unwrap();
        std::os::unix::fs::symlink("sub", d.join("dir.json")).unwrap();
        std::os::unix::fs::symlink("nothing", d.join("dangling.json")).unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        let fifo = std::ffi::CString::new(d.join("pipe").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let f = InputFolder::open(d).unwrap();
        let a = f.open_file("a.json").unwrap();
        assert_eq!(a.len, 2);
        // A link to something other than a regular file is refused by its name, whoever runs
        // this; nothing of the target shows in the error.
        for name in ["link.json", "dev.json", "dir.json", "dangling.json"] {
            let e = f.open_file(name).unwrap_err();
            assert_eq!(kind_of(&e), Some(InputProblem::Link), "{name}");
            assert!(!e.to_string().contains("pipe") && !e.to_string().contains("null"));
        }
        // A link to a file the folder's owner (who runs this) owns, in a folder only they
        // can write (tempdir: 0o700), is followed: 9 bytes of "TOPSECRET".
        assert_eq!(f.open_file("own.json").unwrap().len, 9);
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
        assert!(f.has("link.json") && f.has("dangling.json") && !f.has("missing"));
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
