//! Files: the one write path for every file ramvram writes ([`write_atomic`]) and the one read
//! path for every file it is given ([`read_input`]).
//!
//! ramvram often runs as root on shared servers, where other users can write to the folders it
//! writes into and can name any file as input. So writes never go through a predictable name,
//! never resolve symbolic links in user space, and keep the replaced file's mode and owner; reads
//! accept only regular files (or `-` for standard input) and stop at a stated size.

mod read;
mod write;

pub use read::{
    InputProblem, MAX_INPUT_BYTES, MAX_SETTINGS_BYTES, MAX_SLURM_BYTES, read_input,
    read_input_string,
};
pub use write::{TEMP_MARKER, write_atomic};

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
