//! Windows Subsystem for Linux. Under WSL2 Linux runs in a VM whose memory WSL caps (by default
//! at half of Windows' memory, Microsoft's "WSL config" documentation); the cap is set by
//! `memory=` in `%UserProfile%\.wslconfig`, which Linux sees as `/mnt/c/Users/<user>/.wslconfig`.
//!
//! The parsers are pure and tested on captured text. The file is hostile input like any other:
//! read with a size cap, only when it is a regular file; a file that can't be understood is
//! ignored with a note (WSL itself "will continue to launch as normal without the configuration
//! settings applied", the same documentation says).

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::profile::{Note, NoteId, Wsl, WslConfigState};

/// Largest `.wslconfig` read, bytes. Real files are a few hundred bytes; a larger one is
/// treated as malformed.
pub const WSLCONFIG_CAP: u64 = 64 << 10;

/// Most entries of `/mnt/c/Users` looked at (a Windows machine has a handful of profiles).
const MAX_USER_DIRS: usize = 512;

/// What the kernel release says: WSL2 kernels are named `…-microsoft-standard-WSL2`, WSL1
/// reports Windows' build as `…-Microsoft`.
pub fn version_from_osrelease(osrelease: &str) -> Option<u32> {
    let lower = osrelease.to_ascii_lowercase();
    if lower.contains("microsoft-standard") || lower.contains("wsl2") {
        Some(2)
    } else if osrelease.contains("-Microsoft") {
        Some(1)
    } else {
        None
    }
}

/// Whether this is WSL, and which version: `Some(Some(v))` from the kernel release,
/// `Some(None)` when only the environment (`WSL_DISTRO_NAME`) or a lower-case "microsoft" in the
/// release says so, `None` when nothing does.
pub fn detect_version(osrelease: Option<&str>, distro_name: Option<&str>) -> Option<Option<u32>> {
    if let Some(v) = osrelease.and_then(version_from_osrelease) {
        return Some(Some(v));
    }
    let named = osrelease.is_some_and(|r| r.to_ascii_lowercase().contains("microsoft"));
    let env = distro_name.is_some_and(|d| !d.trim().is_empty());
    (named || env).then_some(None)
}

/// `memory=` and `swap=` of a `.wslconfig`'s `[wsl2]` section, bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WslConfigValues {
    /// `memory=`.
    pub memory_bytes: Option<u64>,
    /// `swap=` (`0`: no swap file).
    pub swap_bytes: Option<u64>,
}

/// Why a `.wslconfig` was not understood: the line (from 1) and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WslConfigError {
    /// Line number, from 1.
    pub line: usize,
    /// What was wrong, in the parser's words.
    pub reason: String,
}

/// A size as WSL reads it (`wsl::shared::string::ParseMemorySize`, whose tests accept "1",
/// "1B", "1K", "1KB", "2M", "100MB", "9G", "44GB", "1TB", "2T" with 1024 multipliers and reject
/// "1 B", "" and "foo"). Upper or lower case (assumption: WSL's own parser may be stricter).
/// `None` for anything else, or on overflow.
pub fn parse_size(text: &str) -> Option<u64> {
    let s = text.trim_start();
    let digits = s.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let n: u64 = s[..digits].parse().ok()?;
    let shift = match s[digits..].to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" => 10,
        "M" | "MB" => 20,
        "G" | "GB" => 30,
        "T" | "TB" => 40,
        _ => return None,
    };
    n.checked_mul(1u64 << shift)
}

/// Parses a `.wslconfig` (INI: `[section]` headers, `key=value` lines, `#` or `;` comments).
/// Keys are case-insensitive (Microsoft's own example writes `localhostforwarding`). A comment
/// after a value is dropped (assumption). A UTF-8 byte-order mark (Notepad writes one) is
/// skipped.
///
/// # Errors
/// A line that is none of these, or a `memory`/`swap` value that is not a size.
pub fn parse_wslconfig(text: &str) -> Result<WslConfigValues, WslConfigError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut values = WslConfigValues::default();
    let mut section = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |reason: &str| WslConfigError {
            line: i + 1,
            reason: reason.to_string(),
        };
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| err("section header without ']'"))?;
            section = name.trim().to_ascii_lowercase();
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| err("neither a section, a comment nor key=value"))?;
        let key = key.trim().to_ascii_lowercase();
        let value = value.split('#').next().unwrap_or("").trim();
        if section != "wsl2" {
            continue;
        }
        let slot = match key.as_str() {
            "memory" => &mut values.memory_bytes,
            "swap" => &mut values.swap_bytes,
            _ => continue,
        };
        *slot = Some(parse_size(value).ok_or_else(|| err(&format!("{key}: not a size")))?);
    }
    Ok(values)
}

/// What looking for `.wslconfig` under a `Users` folder found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Exactly one user folder holds one: its path and text (`None`: too large or not UTF-8).
    Found(PathBuf, Option<String>),
    /// None holds one.
    Absent,
    /// Several do.
    Several,
    /// The folder could not be listed.
    Unreadable,
}

/// Looks for `<users>/<name>/.wslconfig`: regular files only (a symbolic link is not followed),
/// at most [`WSLCONFIG_CAP`] bytes read.
pub fn find_wslconfig(users: &Path) -> Lookup {
    let Ok(entries) = std::fs::read_dir(users) else {
        return Lookup::Unreadable;
    };
    let mut found: Vec<PathBuf> = entries
        .take(MAX_USER_DIRS)
        .filter_map(Result::ok)
        .map(|e| e.path().join(".wslconfig"))
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_file()))
        .collect();
    match found.len() {
        0 => Lookup::Absent,
        1 => {
            let path = found.remove(0);
            // A regular file of at most WSLCONFIG_CAP bytes of UTF-8, opened without blocking.
            let text = crate::fsutil::read_input_string(&path, WSLCONFIG_CAP).ok();
            Lookup::Found(path, text)
        }
        _ => Lookup::Several,
    }
}

/// The profile's `memory.wsl`, from the kernel release, `WSL_DISTRO_NAME`, `MemTotal` and what
/// [`find_wslconfig`] found; `None` when this is not WSL. A malformed `.wslconfig` adds a note
/// naming the file and the line.
pub fn build(
    version: Option<u32>,
    mem_total: Option<u64>,
    lookup: Lookup,
    notes: &mut Vec<Note>,
) -> Wsl {
    let mut wsl = Wsl {
        version,
        memory_cap_bytes: if version == Some(2) { mem_total } else { None },
        ..Wsl::default()
    };
    wsl.wslconfig = Some(match lookup {
        Lookup::Absent => WslConfigState::Absent,
        Lookup::Several => WslConfigState::Ambiguous,
        Lookup::Unreadable => WslConfigState::Unreadable,
        Lookup::Found(path, text) => {
            let parsed = match text {
                Some(t) => {
                    parse_wslconfig(&t).map_err(|e| format!("line {}: {}", e.line, e.reason))
                }
                None => Err(format!("larger than {WSLCONFIG_CAP} bytes or not UTF-8")),
            };
            match parsed {
                Ok(v) => {
                    wsl.wslconfig_memory_bytes = v.memory_bytes;
                    wsl.wslconfig_swap_bytes = v.swap_bytes;
                    WslConfigState::Read
                }
                Err(why) => {
                    notes.push(Note {
                        id: NoteId::WslConfigMalformed,
                        detail: Some(format!("{}: {why}", path.display())),
                    });
                    WslConfigState::Malformed
                }
            }
        }
    });
    wsl
}

/// Detects WSL on this machine: `None` when it is not WSL.
pub fn detect(mem_total: Option<u64>, notes: &mut Vec<Note>) -> Option<Wsl> {
    let mut buf = Vec::new();
    let release = std::fs::File::open("/proc/sys/kernel/osrelease")
        .and_then(|f| f.take(256).read_to_end(&mut buf))
        .ok()
        .and_then(|_| String::from_utf8(buf).ok());
    let distro = std::env::var("WSL_DISTRO_NAME").ok();
    let version = detect_version(release.as_deref(), distro.as_deref())?;
    let lookup = find_wslconfig(Path::new("/mnt/c/Users"));
    Some(build(version, mem_total, lookup, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_releases() {
        // `uname -r` under WSL2 (Ubuntu 22.04 on Windows 11) and WSL1 (Windows 10 19041).
        assert_eq!(
            version_from_osrelease("5.15.167.4-microsoft-standard-WSL2\n"),
            Some(2)
        );
        assert_eq!(
            version_from_osrelease("4.19.128-microsoft-standard"),
            Some(2)
        );
        assert_eq!(version_from_osrelease("4.4.0-19041-Microsoft"), Some(1));
        assert_eq!(version_from_osrelease("6.1.0-18-amd64"), None);
        assert_eq!(detect_version(Some("6.1.0-18-amd64"), None), None);
        assert_eq!(
            detect_version(Some("6.1.0-18-amd64"), Some("Ubuntu-22.04")),
            Some(None)
        );
        assert_eq!(
            detect_version(Some("6.6.36.3-microsoft-custom"), None),
            Some(None)
        );
        assert_eq!(detect_version(None, Some("  ")), None);
    }

    #[test]
    fn sizes_as_wsl_reads_them() {
        // The cases of WSL's own ParseMemorySize test, with its 1024 multipliers.
        assert_eq!(parse_size("0"), Some(0));
        assert_eq!(parse_size(" 1"), Some(1));
        assert_eq!(parse_size("1KB"), Some(1024));
        assert_eq!(parse_size("2M"), Some(2 * 1024 * 1024));
        assert_eq!(parse_size("100MB"), Some(100 * 1024 * 1024));
        assert_eq!(parse_size("44GB"), Some(44 * 1024 * 1024 * 1024));
        assert_eq!(parse_size("1TB"), Some(1 << 40));
        assert_eq!(parse_size("1 B"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("foo"), None);
        assert_eq!(parse_size("8gb"), Some(8 << 30));
        // Overflow is not a size.
        assert_eq!(parse_size("99999999999999999999GB"), None);
        assert_eq!(parse_size("20000000000TB"), None);
    }

    #[test]
    fn microsofts_example_file() {
        // Microsoft's sample .wslconfig (learn.microsoft.com/windows/wsl/wsl-config), with the
        // Windows line endings Notepad writes and its byte-order mark.
        let text = "\u{feff}# Settings apply across all Linux distros running on WSL 2\r\n\
            [wsl2]\r\n\r\n\
            # Limits VM memory to use no more than 4 GB\r\n\
            memory=4GB\r\n\
            processors=2\r\n\
            kernel=C:\\\\temp\\\\myCustomKernel\r\n\
            kernelCommandLine = vsyscall=emulate\r\n\
            # Sets amount of swap storage space to 8GB\r\n\
            swap=8GB\r\n\
            swapfile=C:\\\\temp\\\\wsl-swap.vhdx\r\n\
            localhostforwarding=true\r\n\
            [experimental]\r\n\
            sparseVhd=true\r\n";
        let v = parse_wslconfig(text).unwrap();
        assert_eq!(v.memory_bytes, Some(4 << 30));
        assert_eq!(v.swap_bytes, Some(8 << 30));
    }

    #[test]
    fn files_seen_in_the_wild() {
        // `memory=1536MB`, `swap=0`, a trailing comment, keys in another section ignored.
        let v = parse_wslconfig(
            "[wsl2]\nMemory=1536MB # for the VM\nswap=0\n[experimental]\nmemory=99GB\n",
        )
        .unwrap();
        assert_eq!(v.memory_bytes, Some(1536 << 20));
        assert_eq!(v.swap_bytes, Some(0));
        // No [wsl2] section: nothing set.
        assert_eq!(
            parse_wslconfig("[boot]\nsystemd=true\n").unwrap(),
            WslConfigValues::default()
        );
        assert_eq!(parse_wslconfig("").unwrap(), WslConfigValues::default());
    }

    #[test]
    fn malformed_files_name_the_line() {
        let e = parse_wslconfig("[wsl2]\nmemory=lots\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("memory"), "{e:?}");
        assert_eq!(parse_wslconfig("[wsl2\nmemory=4GB").unwrap_err().line, 1);
        assert_eq!(parse_wslconfig("[wsl2]\njust words\n").unwrap_err().line, 2);
        // WSL rejects a space between number and unit, so it is malformed here too.
        assert!(parse_wslconfig("[wsl2]\nmemory=8 GB\n").is_err());
    }

    #[test]
    fn looking_for_the_file_under_users() {
        let users = tempfile::tempdir().unwrap();
        assert_eq!(
            find_wslconfig(&users.path().join("none")),
            Lookup::Unreadable
        );
        std::fs::create_dir(users.path().join("Public")).unwrap();
        assert_eq!(find_wslconfig(users.path()), Lookup::Absent);
        let alice = users.path().join("alice");
        std::fs::create_dir(&alice).unwrap();
        std::fs::write(alice.join(".wslconfig"), "[wsl2]\nmemory=24GB\n").unwrap();
        let Lookup::Found(path, Some(text)) = find_wslconfig(users.path()) else {
            panic!("one file");
        };
        assert_eq!(path, alice.join(".wslconfig"));
        let mut notes = Vec::new();
        let wsl = build(
            Some(2),
            Some(16_000_000_000),
            Lookup::Found(path, Some(text)),
            &mut notes,
        );
        assert_eq!(wsl.wslconfig, Some(WslConfigState::Read));
        assert_eq!(wsl.wslconfig_memory_bytes, Some(24 << 30));
        assert_eq!(wsl.memory_cap_bytes, Some(16_000_000_000));
        assert!(notes.is_empty());
        // A second user's file: which applies can't be told.
        let bob = users.path().join("bob");
        std::fs::create_dir(&bob).unwrap();
        std::fs::write(bob.join(".wslconfig"), "[wsl2]\n").unwrap();
        assert_eq!(find_wslconfig(users.path()), Lookup::Several);
        // An oversized file is not read into memory.
        std::fs::remove_file(bob.join(".wslconfig")).unwrap();
        std::fs::write(alice.join(".wslconfig"), vec![b'#'; 70_000]).unwrap();
        assert!(matches!(
            find_wslconfig(users.path()),
            Lookup::Found(_, None)
        ));
    }

    #[test]
    fn a_malformed_file_is_ignored_with_a_note() {
        let mut notes = Vec::new();
        let wsl = build(
            Some(2),
            Some(8 << 30),
            Lookup::Found(
                "/mnt/c/Users/alice/.wslconfig".into(),
                Some("[wsl2]\nmemory=half\n".into()),
            ),
            &mut notes,
        );
        assert_eq!(wsl.wslconfig, Some(WslConfigState::Malformed));
        assert_eq!(wsl.wslconfig_memory_bytes, None);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].id, NoteId::WslConfigMalformed);
        let detail = notes[0].detail.as_deref().unwrap();
        assert!(detail.contains(".wslconfig: line 2"), "{detail}");
        // The Windows user name in the path goes when a report is redacted.
        assert_eq!(
            crate::profile::redact::scrub_user_paths(detail),
            "/mnt/c/Users/[redacted]/.wslconfig: line 2: memory: not a size"
        );
        // WSL1 has no cap of its own.
        let v1 = build(Some(1), Some(32 << 30), Lookup::Absent, &mut notes);
        assert_eq!(v1.memory_cap_bytes, None);
    }
}
