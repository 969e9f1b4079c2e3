//! Files: the one write path for every file ramvram writes ([`write_atomic`]) and the one read
//! path for every file it is given ([`read_input`]).
//!
//! ramvram often runs as root on shared servers, where other users can write to the folders it
//! writes into and can name any file as input. So writes never go through a predictable name,
//! never follow a link another user owns (the path is walked one folder at a time), never write
//! through a file they replace, and keep the replaced file's mode and owner; reads
//! accept only regular files (or `-` for standard input) and stop at a stated size.

pub mod beneath;
mod folder;
#[cfg(unix)]
mod folder_unix;
mod read;
#[cfg(unix)]
mod walk;
mod write;

use std::fmt;
use std::io;
use std::path::PathBuf;

#[cfg(not(unix))]
pub use folder::open_named;
pub use folder::{FileId, InputFile, InputFolder, Listing, read_opened_string};
#[cfg(unix)]
pub use folder_unix::open_named;
pub use read::{
    InputProblem, MAX_INPUT_BYTES, MAX_SETTINGS_BYTES, MAX_SLURM_BYTES, open_input,
    read_folder_entry, read_input, read_input_string,
};
pub use write::{TEMP_MARKER, create_new_file, write_atomic, write_atomic_with};

/// The folder a file was to be written into doesn't exist. Carried inside the `io::Error`
/// (kind `NotFound`) that [`write_atomic`] returns, so that a message names the user's folder
/// rather than the OS's "No such file or directory" about a temporary file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingFolder(pub PathBuf);

impl fmt::Display for MissingFolder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the folder {} doesn't exist", self.0.display())
    }
}

impl std::error::Error for MissingFolder {}

/// Why a file could not be read or written, as data: the common reasons by kind (worded in the
/// user's language by `present::errors::io_problem`), ramvram's own refusals, else the OS's
/// words. Never names a temporary file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IoProblem {
    /// The folder to write into doesn't exist.
    MissingFolder(PathBuf),
    /// No such file.
    NotFound,
    /// Permission denied.
    PermissionDenied,
    /// The file system is mounted read-only.
    ReadOnly,
    /// No space left on the device (or the disk quota is used up).
    NoSpace,
    /// A named input that is not a regular file, too large, or not text ([`read_input`]).
    Input(InputProblem),
    /// ramvram refused (a symbolic link it won't follow, a folder where the file should be):
    /// its sentence, which reads after the file's name.
    Refused(String),
    /// Anything else: the words of the OS or of ramvram's refusal.
    Other(String),
}

impl IoProblem {
    /// The problem behind `e`.
    pub fn of(e: &io::Error) -> IoProblem {
        if let Some(inner) = e.get_ref() {
            if let Some(m) = inner.downcast_ref::<MissingFolder>() {
                return IoProblem::MissingFolder(m.0.clone());
            }
            if let Some(p) = inner.downcast_ref::<InputProblem>() {
                return IoProblem::Input(*p);
            }
            // ramvram's refusals carry a sentence of their own.
            return IoProblem::Refused(e.to_string());
        }
        match e.kind() {
            io::ErrorKind::NotFound => IoProblem::NotFound,
            io::ErrorKind::PermissionDenied => IoProblem::PermissionDenied,
            io::ErrorKind::ReadOnlyFilesystem => IoProblem::ReadOnly,
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => IoProblem::NoSpace,
            _ => IoProblem::Other(e.to_string()),
        }
    }
}

impl fmt::Display for IoProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoProblem::MissingFolder(dir) => MissingFolder(dir.clone()).fmt(f),
            IoProblem::NotFound => f.write_str("no such file"),
            IoProblem::PermissionDenied => f.write_str("permission denied"),
            IoProblem::ReadOnly => f.write_str("the file system is read-only"),
            IoProblem::NoSpace => f.write_str("no space left on the device"),
            IoProblem::Input(p) => p.fmt(f),
            IoProblem::Refused(text) | IoProblem::Other(text) => f.write_str(text),
        }
    }
}

/// This host's name reduced to `[A-Za-z0-9-]` (at most 64 characters; `host` when unknown), for
/// names of temporary files and folders: on a file system shared between hosts (NFS), a process
/// id means something only on the host that wrote it.
pub fn host_tag() -> String {
    let name = sysinfo::System::host_name().unwrap_or_default();
    let tag: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(64)
        .collect();
    if tag.is_empty() { "host".into() } else { tag }
}

/// True when a process with this id exists on this host (`kill(pid, 0)`; `EPERM` means it
/// exists but belongs to someone else). Always true where this can't be checked, so that
/// nothing of a live process is ever removed.
#[cfg(unix)]
pub fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        // 0 and negative ids name process groups, not one process.
        return true;
    }
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// True when a process with this id exists (not checkable here: always true).
#[cfg(not(unix))]
pub fn process_alive(_pid: u32) -> bool {
    true
}
