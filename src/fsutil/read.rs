//! The one read path for files a user names: [`read_input`].

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

/// Size cap of a profile, scenario or `dmidecode` file: 64 MiB (a profile of the largest
/// machine is a few hundred KiB; the cap only stops `/dev/zero` and runaway files).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Size cap of a Slurm inventory (`scontrol show node --json`): 256 MiB, room for about
/// 100,000 nodes at the 2–3 KB per node that Slurm 23.x writes.
pub const MAX_SLURM_BYTES: u64 = 256 << 20;

/// Size cap of the window's settings file: 1 MiB (it holds a language and one workload).
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// Why a named input was refused before it was parsed. Carried inside the `io::Error` that
/// [`read_input`] returns (`error.get_ref()` downcasts to it), so callers can word it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputProblem {
    /// A folder.
    Directory,
    /// A named pipe: reading could wait forever for a writer.
    Fifo,
    /// A character device such as `/dev/zero`: it may never end.
    CharDevice,
    /// A block device (a whole disk).
    BlockDevice,
    /// A socket.
    Socket,
    /// Larger than the cap, bytes.
    TooLarge(u64),
    /// Not UTF-8 text.
    NotText,
    /// A symbolic link in a folder of inputs, which is not followed: it could lead out of the
    /// folder the user named ([`read_folder_entry`]). In a model folder on Linux, a link the
    /// owner-and-regular-file rule refused (`InputFolder::open_file`); nothing of its target
    /// is said, not even which part of the rule it failed.
    Link,
    /// The name was swapped for another file between the look and the open (its type, device
    /// or inode changed); nothing of it was read.
    Changed,
}

impl fmt::Display for InputProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            InputProblem::Directory => "a folder",
            InputProblem::Fifo => "a named pipe (FIFO)",
            InputProblem::CharDevice => "a character device",
            InputProblem::BlockDevice => "a block device",
            InputProblem::Socket => "a socket",
            InputProblem::TooLarge(cap) => {
                return write!(
                    f,
                    "is larger than {} MiB, the most ramvram reads from one file",
                    cap >> 20
                );
            }
            InputProblem::NotText => return write!(f, "is not UTF-8 text"),
            InputProblem::Link => {
                return write!(
                    f,
                    "is a symbolic link that is not followed (only a model folder's links to regular files of the folder's owner are)"
                );
            }
            InputProblem::Changed => {
                return write!(f, "changed while it was opened; nothing of it was read");
            }
        };
        write!(
            f,
            "is {kind}, not a regular file (give a file, or - for standard input)"
        )
    }
}

impl std::error::Error for InputProblem {}

pub(super) fn problem(p: InputProblem) -> io::Error {
    let kind = match p {
        InputProblem::TooLarge(_) | InputProblem::NotText => io::ErrorKind::InvalidData,
        _ => io::ErrorKind::InvalidInput,
    };
    io::Error::new(kind, p)
}

/// Reads a file a user named, or standard input for `-`, refusing anything that is not a
/// regular file (a folder, a FIFO, `/dev/zero`, a socket) and anything larger than `cap`
/// bytes. The file is opened without blocking (`O_NONBLOCK`, so a FIFO can't hang the open)
/// and checked with `fstat` on the opened descriptor (no race with a swapped path); standard
/// input is read up to `cap` bytes, whatever it is.
///
/// # Errors
/// The OS error, or an error carrying an [`InputProblem`].
pub fn read_input(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        return read_capped(io::stdin().lock(), cap, 0);
    }
    let file = open_nonblocking(path, true)?;
    read_opened(file, cap)
}

/// [`read_input_string`] for a file found by listing a folder the user named (`--profile-dir`):
/// a symbolic link is refused ([`InputProblem::Link`]), never followed, even when the folder's
/// entry was swapped for one after it was listed. A link could lead out of the folder, to a file
/// only root can read, and ramvram may run as root.
///
/// # Errors
/// As [`read_input_string`]; [`InputProblem::Link`] for a link.
pub fn read_folder_entry(path: &Path, cap: u64) -> io::Result<String> {
    let file = match open_nonblocking(path, false) {
        Ok(f) => f,
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(problem(InputProblem::Link));
        }
        Err(e) => return Err(e),
    };
    String::from_utf8(read_opened(file, cap)?).map_err(|_| problem(InputProblem::NotText))
}

fn read_opened(file: std::fs::File, cap: u64) -> io::Result<Vec<u8>> {
    let meta = file.metadata()?;
    if let Some(p) = special_kind(&meta) {
        return Err(problem(p));
    }
    if meta.len() > cap {
        return Err(problem(InputProblem::TooLarge(cap)));
    }
    read_capped(file, cap, meta.len())
}

/// Opens a file a user named to read only part of it (a model file's header): regular files
/// only, opened without blocking and checked with `fstat` on the opened descriptor, as
/// [`read_input`] does. Returns the file and its size, bytes.
///
/// # Errors
/// The OS error, or an error carrying an [`InputProblem`] for a folder, FIFO or device.
pub fn open_input(path: &Path) -> io::Result<(std::fs::File, u64)> {
    let file = open_nonblocking(path, true)?;
    let meta = file.metadata()?;
    if let Some(p) = special_kind(&meta) {
        return Err(problem(p));
    }
    Ok((file, meta.len()))
}

/// [`read_input`] as UTF-8 text.
///
/// # Errors
/// As [`read_input`]; [`InputProblem::NotText`] for bytes that are not UTF-8.
pub fn read_input_string(path: &Path, cap: u64) -> io::Result<String> {
    String::from_utf8(read_input(path, cap)?).map_err(|_| problem(InputProblem::NotText))
}

/// Reads at most `cap` bytes; one more means the input is too large (a file can grow while it
/// is read). `hint` is the expected size, to allocate once.
pub(super) fn read_capped(reader: impl Read, cap: u64, hint: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(usize::try_from(hint.min(cap)).unwrap_or(0));
    reader.take(cap.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > cap {
        return Err(problem(InputProblem::TooLarge(cap)));
    }
    Ok(buf)
}

/// Opens `path` for reading without blocking; with `follow` false, a link at its last
/// component fails with `ELOOP` (`O_NOFOLLOW`).
#[cfg(unix)]
fn open_nonblocking(path: &Path, follow: bool) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nofollow = if follow { 0 } else { libc::O_NOFOLLOW };
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | nofollow)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path, follow: bool) -> io::Result<std::fs::File> {
    if !follow && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(problem(InputProblem::Link));
    }
    std::fs::File::open(path)
}

fn special_kind(meta: &std::fs::Metadata) -> Option<InputProblem> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some(InputProblem::Directory);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some(InputProblem::Fifo);
        }
        if t.is_char_device() {
            return Some(InputProblem::CharDevice);
        }
        if t.is_block_device() {
            return Some(InputProblem::BlockDevice);
        }
        if t.is_socket() {
            return Some(InputProblem::Socket);
        }
    }
    Some(InputProblem::CharDevice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(e: &io::Error) -> Option<InputProblem> {
        e.get_ref()?.downcast_ref::<InputProblem>().copied()
    }

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p.json");
        std::fs::write(&p, b"{\"a\": 1}").unwrap();
        assert_eq!(read_input_string(&p, 100).unwrap(), "{\"a\": 1}");
        // Exactly at the cap is fine; one byte over is not.
        assert_eq!(read_input(&p, 8).unwrap().len(), 8);
        let e = read_input(&p, 7).unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::TooLarge(7)));
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_a_fifo_and_a_folder_are_refused_at_once() {
        let e = read_input(Path::new("/dev/zero"), MAX_INPUT_BYTES).unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::CharDevice));
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let e = read_input(dir.path(), MAX_INPUT_BYTES).unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::Directory));
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // No writer ever opens it: a blocking open would wait forever.
        let e = read_input(&fifo, MAX_INPUT_BYTES).unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::Fifo));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_a_folder_of_inputs_is_refused_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("secret.json");
        std::fs::write(&secret, b"{}").unwrap();
        let link = dir.path().join("x.json");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        let e = read_folder_entry(&link, 100).unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::Link));
        // The file itself reads; a named input (not a folder's entry) still follows links.
        assert_eq!(read_folder_entry(&secret, 100).unwrap(), "{}");
        assert_eq!(read_input(&link, 100).unwrap(), b"{}");
    }

    #[test]
    fn bytes_that_are_not_text_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bin");
        std::fs::write(&p, [0xff, 0xfe, 0x00]).unwrap();
        let e = read_input_string(&p, 100).unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::NotText));
    }

    #[test]
    fn a_reader_is_stopped_at_the_cap() {
        let e = read_capped(io::repeat(b'x'), 1000, 0).unwrap_err();
        assert_eq!(kind_of(&e), Some(InputProblem::TooLarge(1000)));
        assert_eq!(read_capped(&b"abc"[..], 3, 3).unwrap(), b"abc");
    }
}
