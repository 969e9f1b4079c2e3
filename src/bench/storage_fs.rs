//! The storage benchmark's files, handled through open folder descriptors (`mkdirat`,
//! `openat` with `O_NOFOLLOW`, `unlinkat`): once the work folder is created, replacing it (or
//! anything in it) with a symbolic link can't send a write or a removal anywhere else, and the
//! folder is emptied through its own descriptor even if it was moved or swapped meanwhile.
//! Also the file helpers the benchmark reads with (`O_DIRECT`, `posix_fadvise`).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// Alignment for `O_DIRECT` buffers and offsets: 4096 bytes covers 512-byte and 4K-sector
/// devices (Linux `open(2)`: "the alignment … of the logical block size").
pub(super) const ALIGN: usize = 4096;

/// A folder this process created and holds open; removed with everything in it when dropped
/// (normal end, error, cancel or a panic's unwinding).
#[cfg(unix)]
pub(super) struct WorkDir {
    /// The folder it was created in, held open.
    parent: File,
    /// Its name in `parent`.
    name: String,
    /// The folder itself, held open.
    dir: File,
    /// Where it is, for messages.
    path: PathBuf,
    /// Remove it when dropped (sub-folders are emptied by their top folder).
    remove: bool,
    /// The top folder's `.lock`, held with an exclusive `flock` while the run lives, so that
    /// no other run takes the folder for a dead one's (`storage_stale`). Closed after the
    /// folder is removed (fields drop after `Drop::drop`).
    _lock: Option<File>,
}

#[cfg(unix)]
fn cstr(name: &str) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(name).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}

#[cfg(unix)]
fn open_dir_at(at: &File, name: &str) -> io::Result<File> {
    use std::os::fd::{AsRawFd, FromRawFd};
    let c = cstr(name)?;
    // SAFETY: a valid descriptor and a NUL-terminated name; the new descriptor is owned below.
    let fd = unsafe {
        libc::openat(
            at.as_raw_fd(),
            c.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fd is a fresh descriptor nobody else owns.
    Ok(unsafe { File::from_raw_fd(fd) })
}

#[cfg(unix)]
impl WorkDir {
    /// Creates `name` (mode 0700) in the folder `parent` and opens it without following links.
    pub(super) fn create(parent: &Path, name: &str) -> io::Result<WorkDir> {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        let parent_dir = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(parent)?;
        let c = cstr(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name.
        if unsafe { libc::mkdirat(parent_dir.as_raw_fd(), c.as_ptr(), 0o700) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut work = match open_dir_at(&parent_dir, name) {
            Ok(dir) => WorkDir {
                parent: parent_dir,
                name: name.to_string(),
                dir,
                path: parent.join(name),
                remove: true,
                _lock: None,
            },
            Err(e) => {
                // SAFETY: as above; removes the empty folder just made.
                unsafe { libc::unlinkat(parent_dir.as_raw_fd(), c.as_ptr(), libc::AT_REMOVEDIR) };
                return Err(e);
            }
        };
        // On error from here, dropping `work` removes the folder.
        let lock = work.open_at(
            super::storage_stale::LOCK_NAME,
            libc::O_RDWR | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
        )?;
        if !super::storage_stale::try_lock(&lock) {
            return Err(io::Error::last_os_error());
        }
        work._lock = Some(lock);
        Ok(work)
    }

    /// Creates a sub-folder; it is emptied and removed with this folder.
    pub(super) fn subdir(&self, name: &str) -> io::Result<WorkDir> {
        use std::os::fd::AsRawFd;
        let c = cstr(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name.
        if unsafe { libc::mkdirat(self.dir.as_raw_fd(), c.as_ptr(), 0o700) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(WorkDir {
            parent: self.dir.try_clone()?,
            name: name.to_string(),
            dir: open_dir_at(&self.dir, name)?,
            path: self.path.join(name),
            remove: false,
            _lock: None,
        })
    }

    /// Creates a new file (it must not exist; a link in its place is refused).
    pub(super) fn create_file(&self, name: &str) -> io::Result<File> {
        self.open_at(
            name,
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
        )
    }

    /// Opens a file for reading, with `O_DIRECT` where the file system allows it; returns
    /// whether it did (Linux; elsewhere never direct).
    pub(super) fn open_read(&self, name: &str) -> io::Result<(File, bool)> {
        #[cfg(target_os = "linux")]
        match self.open_at(name, libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_DIRECT) {
            Ok(f) => return Ok((f, true)),
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {}
            Err(e) => return Err(e),
        }
        let f = self.open_plain(name)?;
        drop_cache(&f);
        Ok((f, false))
    }

    /// Opens a file for reading through the page cache.
    pub(super) fn open_plain(&self, name: &str) -> io::Result<File> {
        self.open_at(name, libc::O_RDONLY | libc::O_NOFOLLOW)
    }

    fn open_at(&self, name: &str, flags: libc::c_int) -> io::Result<File> {
        use std::os::fd::{AsRawFd, FromRawFd};
        let c = cstr(name)?;
        // SAFETY: a valid descriptor, a NUL-terminated name and a mode for O_CREAT.
        let fd = unsafe {
            libc::openat(
                self.dir.as_raw_fd(),
                c.as_ptr(),
                flags | libc::O_CLOEXEC,
                0o600 as libc::c_uint,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd is a fresh descriptor nobody else owns.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    /// Writes the folder's file system's dirty pages to disk (`syncfs` on Linux, best effort).
    pub(super) fn sync(&self) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: a valid open descriptor.
            unsafe {
                libc::syncfs(self.dir.as_raw_fd());
            }
        }
    }

    /// Where the folder is (for messages).
    pub(super) fn path(&self) -> &Path {
        &self.path
    }
}

/// Removes everything in the folder `dir` (recursing into real folders, never following a
/// link), through its descriptor.
#[cfg(unix)]
fn empty(dir: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: fdopendir takes ownership of the duplicated descriptor; closedir releases it.
    let stream = unsafe {
        let fd = libc::dup(dir.as_raw_fd());
        if fd < 0 {
            return;
        }
        let s = libc::fdopendir(fd);
        if s.is_null() {
            libc::close(fd);
            return;
        }
        s
    };
    let mut names = Vec::new();
    loop {
        // SAFETY: stream is a valid DIR*; readdir's entry is read before the next call.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            break;
        }
        // SAFETY: d_name is NUL-terminated.
        let name = unsafe { std::ffi::CStr::from_ptr((*entry).d_name.as_ptr()) }.to_owned();
        if name.as_bytes() != b"." && name.as_bytes() != b".." {
            names.push(name);
        }
    }
    // SAFETY: closes the stream and its descriptor.
    unsafe { libc::closedir(stream) };
    for name in names {
        // SAFETY: a valid descriptor and a NUL-terminated name; unlinkat never follows links.
        let rc = unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) };
        if rc != 0 {
            let errno = io::Error::last_os_error().raw_os_error();
            if matches!(errno, Some(libc::EISDIR) | Some(libc::EPERM)) {
                if let Some(sub) = name.to_str().ok().and_then(|n| open_dir_at(dir, n).ok()) {
                    empty(&sub);
                }
                // SAFETY: as above.
                unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) };
            }
        }
    }
}

#[cfg(unix)]
impl Drop for WorkDir {
    fn drop(&mut self) {
        use std::os::fd::AsRawFd;
        if !self.remove {
            return;
        }
        empty(&self.dir);
        if let Ok(c) = cstr(&self.name) {
            // SAFETY: a valid descriptor and a NUL-terminated name. Fails (and leaves it) when
            // the name is no longer a folder: a link put in its place is not followed.
            unsafe { libc::unlinkat(self.parent.as_raw_fd(), c.as_ptr(), libc::AT_REMOVEDIR) };
        }
    }
}

/// Elsewhere: plain paths (no `openat`), removed with `remove_dir_all`.
#[cfg(not(unix))]
pub(super) struct WorkDir {
    path: PathBuf,
    remove: bool,
}

#[cfg(not(unix))]
impl WorkDir {
    pub(super) fn create(parent: &Path, name: &str) -> io::Result<WorkDir> {
        let path = parent.join(name);
        std::fs::create_dir(&path)?;
        Ok(WorkDir { path, remove: true })
    }
    pub(super) fn subdir(&self, name: &str) -> io::Result<WorkDir> {
        let path = self.path.join(name);
        std::fs::create_dir(&path)?;
        Ok(WorkDir {
            path,
            remove: false,
        })
    }
    pub(super) fn create_file(&self, name: &str) -> io::Result<File> {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }
    pub(super) fn open_read(&self, name: &str) -> io::Result<(File, bool)> {
        Ok((self.open_plain(name)?, false))
    }
    pub(super) fn open_plain(&self, name: &str) -> io::Result<File> {
        File::open(self.path.join(name))
    }
    pub(super) fn sync(&self) {}
    pub(super) fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(not(unix))]
impl Drop for WorkDir {
    fn drop(&mut self) {
        if self.remove {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// A heap buffer aligned for `O_DIRECT`.
pub(super) struct AlignedBuf {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}

impl AlignedBuf {
    /// `len` zero bytes aligned to [`ALIGN`].
    ///
    /// # Errors
    /// `OutOfMemory` when the allocation fails (never an abort).
    pub(super) fn new(len: usize) -> io::Result<AlignedBuf> {
        let layout = std::alloc::Layout::from_size_align(len.max(1), ALIGN)
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: the layout has a non-zero size; zeroed memory is a valid [u8].
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(io::Error::from(io::ErrorKind::OutOfMemory));
        }
        Ok(AlignedBuf { ptr, layout })
    }

    pub(super) fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: ptr is valid for layout.size() bytes and uniquely owned.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.layout.size()) }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout in `new`.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

/// Asks the kernel to drop the file's cached pages (best effort).
#[cfg(target_os = "linux")]
pub(super) fn drop_cache(f: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: a valid open descriptor; the call only gives the kernel advice.
    unsafe {
        libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn drop_cache(_f: &File) {}

#[cfg(unix)]
pub(super) fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, offset)
}

#[cfg(windows)]
pub(super) fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, offset)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn files_stay_in_the_folder_even_when_it_is_swapped_for_a_link() {
        let root = tempfile::tempdir().unwrap();
        let victim = root.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        let w = WorkDir::create(root.path(), "work").unwrap();
        let small = w.subdir("small").unwrap();
        small.create_file("a").unwrap().write_all(b"1").unwrap();
        // Someone who can write to the parent moves the folder away and puts a link in its
        // place, pointing at a folder of theirs.
        std::fs::rename(root.path().join("work"), root.path().join("moved")).unwrap();
        std::os::unix::fs::symlink(&victim, root.path().join("work")).unwrap();
        w.create_file("big").unwrap().write_all(b"2").unwrap();
        small.create_file("b").unwrap().write_all(b"3").unwrap();
        assert_eq!(
            std::fs::read_dir(&victim).unwrap().count(),
            0,
            "nothing written there"
        );
        assert_eq!(std::fs::read(root.path().join("moved/big")).unwrap(), b"2");
        // A link planted inside is not followed.
        std::os::unix::fs::symlink(victim.join("x"), root.path().join("moved/planted")).unwrap();
        assert!(w.create_file("planted").is_err());
        assert!(w.open_plain("planted").is_err());
        drop(small);
        drop(w);
        // Emptied through its descriptor; the link in its old place is left alone.
        assert_eq!(
            std::fs::read_dir(root.path().join("moved"))
                .unwrap()
                .count(),
            0
        );
        assert!(
            std::fs::symlink_metadata(root.path().join("work"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(std::fs::read_dir(&victim).unwrap().count(), 0);
    }
}
