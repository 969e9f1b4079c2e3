//! Finding the folder to write into without letting another user redirect the write: the path
//! is walked one component at a time from a folder descriptor (`openat` with `O_NOFOLLOW`), so
//! the kernel never follows a link on ramvram's behalf, and each link met on the way is checked
//! before it is followed.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path};

/// At most this many symbolic links are followed for one path, as the kernel's limit
/// (`MAXSYMLINKS`, 40 on Linux); more is refused as a loop.
const MAX_LINKS: u32 = 40;

/// Where a file is to be written: its folder, open, and its name in it.
pub(super) struct Target {
    /// The folder that holds (or will hold) the file, reached without following any link
    /// another user owns.
    pub dir: OwnedFd,
    /// The file's name inside `dir` (one component, no slash).
    pub name: CString,
    /// The file that will be replaced (`None` when there is none yet): a regular file.
    pub existing: Option<libc::stat>,
}

/// What one name in a folder is, looked at without following it.
enum Entry {
    Missing,
    Dir(OwnedFd, libc::stat),
    Link(libc::stat, OsString),
    Other(libc::stat),
}

/// Resolves `path` for writing:
///
/// - Every symbolic link on the way, the last component included, is followed only when it is
///   owned by this user or by root (the rule of `fs.protected_symlinks`, applied in every
///   folder: a link that another user owns could point anywhere root can write).
/// - A link to a file that does not exist is refused, so a planted link can't make ramvram
///   create a file elsewhere; more than 40 links is refused as a loop.
/// - The file found must be a regular file. One owned by another user is refused when it has
///   other hard links (it is someone else's file, seen through a link here), or when it lies in
///   a sticky folder that others can write to and the folder's owner doesn't own it either (the
///   rules of `fs.protected_regular`).
///
/// # Errors
/// The OS error of a step; [`super::MissingFolder`] when a folder on the way doesn't exist;
/// `PermissionDenied` / `InvalidInput` with a sentence for each refusal above.
pub(super) fn resolve(path: &Path) -> io::Result<Target> {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let mut pending: Vec<OsString> = Vec::new();
    let mut cur = if path.is_absolute() {
        open_start(c"/")?
    } else {
        open_start(c".")?
    };
    push_components(&mut pending, path.as_os_str());
    let mut cur_stat = fstat(cur.as_fd())?;
    let mut links = 0u32;
    let mut through_link = false;
    loop {
        let Some(comp) = pending.pop() else {
            return Err(refusal(io::ErrorKind::InvalidInput, "is not a file path"));
        };
        let last = pending.is_empty();
        let name = cstring(&comp)?;
        if last && comp.as_bytes() == b".." {
            return Err(not_regular());
        }
        let entry = match entry_at(cur.as_fd(), &name) {
            Ok(e) => e,
            Err(e) => return Err(explain_loop(e)),
        };
        match entry {
            Entry::Link(st, target) => {
                check_link_owner(&st, me)?;
                links += 1;
                if links > MAX_LINKS {
                    return Err(explain_loop(io::Error::from_raw_os_error(libc::ELOOP)));
                }
                if target.is_empty() {
                    return Err(io::Error::from_raw_os_error(libc::ENOENT));
                }
                if target.as_bytes().first() == Some(&b'/') {
                    cur = open_start(c"/")?;
                    cur_stat = fstat(cur.as_fd())?;
                }
                push_components(&mut pending, &target);
                if last {
                    through_link = true;
                }
            }
            Entry::Dir(fd, st) if !last => {
                cur = fd;
                cur_stat = st;
            }
            Entry::Missing if !last => {
                let dir = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => std::path::PathBuf::from("."),
                };
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    super::MissingFolder(dir),
                ));
            }
            Entry::Other(_) if !last => {
                return Err(io::Error::from_raw_os_error(libc::ENOTDIR));
            }
            Entry::Missing if through_link => {
                return Err(refusal(
                    io::ErrorKind::InvalidInput,
                    "is a symbolic link to a file that does not exist; refusing to create a file \
                     through it",
                ));
            }
            Entry::Missing => {
                return Ok(Target {
                    dir: cur,
                    name,
                    existing: None,
                });
            }
            Entry::Other(st) if is_regular(&st) => {
                check_regular(&st, &cur_stat, me)?;
                return Ok(Target {
                    dir: cur,
                    name,
                    existing: Some(st),
                });
            }
            Entry::Dir(..) | Entry::Other(_) => return Err(not_regular()),
        }
    }
}

/// Pushes the components of `path` so that the first is popped first (`.` dropped, a leading
/// `/` handled by the caller).
fn push_components(pending: &mut Vec<OsString>, path: &OsStr) {
    let parts: Vec<OsString> = Path::new(path)
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect();
    pending.extend(parts.into_iter().rev());
}

fn is_regular(st: &libc::stat) -> bool {
    st.st_mode & libc::S_IFMT == libc::S_IFREG
}

/// A link is followed only when this user or root owns it.
fn check_link_owner(link: &libc::stat, me: libc::uid_t) -> io::Result<()> {
    if link.st_uid == me || link.st_uid == 0 {
        return Ok(());
    }
    Err(refusal(
        io::ErrorKind::PermissionDenied,
        "goes through a symbolic link owned by another user; refusing to follow it (the rule \
         of fs.protected_symlinks)",
    ))
}

/// `fs.protected_regular`'s rules for a file about to be replaced.
fn check_regular(file: &libc::stat, dir: &libc::stat, me: libc::uid_t) -> io::Result<()> {
    if file.st_uid == me {
        return Ok(());
    }
    if file.st_nlink > 1 {
        return Err(refusal(
            io::ErrorKind::PermissionDenied,
            "is a hard link to a file owned by another user; refusing to replace it (the rule \
             of fs.protected_regular)",
        ));
    }
    let sticky = dir.st_mode & libc::S_ISVTX != 0;
    let shared = dir.st_mode & 0o022 != 0;
    if sticky && shared && file.st_uid != dir.st_uid {
        return Err(refusal(
            io::ErrorKind::PermissionDenied,
            "is a file owned by another user in a shared folder; refusing to replace it (the \
             rule of fs.protected_regular)",
        ));
    }
    Ok(())
}

pub(super) fn refusal(kind: io::ErrorKind, text: &str) -> io::Error {
    io::Error::new(kind, text.to_string())
}

pub(super) fn not_regular() -> io::Error {
    refusal(
        io::ErrorKind::InvalidInput,
        "exists and is not a regular file; refusing to replace it",
    )
}

/// ELOOP in words: the kernel, and this walk, stop after 40 links.
pub(super) fn explain_loop(e: io::Error) -> io::Error {
    if e.raw_os_error() == Some(libc::ELOOP) {
        return refusal(
            io::ErrorKind::InvalidInput,
            "too many levels of symbolic links (a loop, or more than the kernel follows); \
             nothing was written",
        );
    }
    e
}

pub(super) fn cstring(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| refusal(io::ErrorKind::InvalidInput, "contains a NUL byte"))
}

/// A descriptor that only names a folder (`O_PATH` on Linux: no read access is needed).
#[cfg(target_os = "linux")]
const DIR_FLAGS: libc::c_int = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
#[cfg(not(target_os = "linux"))]
const DIR_FLAGS: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;

fn open_start(name: &CStr) -> io::Result<OwnedFd> {
    // SAFETY: a NUL-terminated path; the descriptor is owned below.
    let fd = unsafe { libc::open(name.as_ptr(), DIR_FLAGS) };
    owned(fd)
}

fn owned(fd: libc::c_int) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

pub(super) fn fstat(fd: BorrowedFd<'_>) -> io::Result<libc::stat> {
    // SAFETY: stat is plain data; fstat fills it or fails.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor and a valid pointer.
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(st)
}

/// `name` in `dir`, not followed. On Linux the name is opened once (`O_PATH | O_NOFOLLOW`) and
/// everything is read from that descriptor, so a name swapped in between can't be mixed up with
/// the one checked.
#[cfg(target_os = "linux")]
fn entry_at(dir: BorrowedFd<'_>, name: &CStr) -> io::Result<Entry> {
    // SAFETY: a valid descriptor and a NUL-terminated name; the descriptor is owned below.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            name.as_ptr(),
            libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    let fd = match owned(fd) {
        Ok(fd) => fd,
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(Entry::Missing),
        Err(e) => return Err(e),
    };
    let st = fstat(fd.as_fd())?;
    match st.st_mode & libc::S_IFMT {
        libc::S_IFDIR => Ok(Entry::Dir(fd, st)),
        libc::S_IFLNK => Ok(Entry::Link(st, read_link(fd.as_fd(), c"")?)),
        _ => Ok(Entry::Other(st)),
    }
}

/// `name` in `dir`, not followed (`fstatat`, then `readlinkat` or `openat` with `O_NOFOLLOW`).
#[cfg(not(target_os = "linux"))]
fn entry_at(dir: BorrowedFd<'_>, name: &CStr) -> io::Result<Entry> {
    // SAFETY: stat is plain data.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor, a NUL-terminated name and a valid pointer.
    let rc = unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            &mut st,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if rc != 0 {
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::ENOENT) {
            return Ok(Entry::Missing);
        }
        return Err(e);
    }
    match st.st_mode & libc::S_IFMT {
        libc::S_IFDIR => {
            // SAFETY: as above; the descriptor is owned below.
            let fd = unsafe {
                libc::openat(dir.as_raw_fd(), name.as_ptr(), DIR_FLAGS | libc::O_NOFOLLOW)
            };
            let fd = owned(fd)?;
            let st = fstat(fd.as_fd())?;
            Ok(Entry::Dir(fd, st))
        }
        libc::S_IFLNK => Ok(Entry::Link(st, read_link(dir, name)?)),
        _ => Ok(Entry::Other(st)),
    }
}

/// A link's text (`readlinkat`; an empty name reads the link `dir` itself names).
fn read_link(dir: BorrowedFd<'_>, name: &CStr) -> io::Result<OsString> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize + 1];
    // SAFETY: a valid descriptor, a NUL-terminated name and a buffer of the length given.
    let n = unsafe {
        libc::readlinkat(
            dir.as_raw_fd(),
            name.as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    let Ok(n) = usize::try_from(n) else {
        return Err(io::Error::last_os_error());
    };
    if n >= buf.len() {
        return Err(io::Error::from_raw_os_error(libc::ENAMETOOLONG));
    }
    buf.truncate(n);
    Ok(OsString::from_vec(buf))
}
