//! Which operating system a profile describes, told from the profile itself (never from the
//! build's `cfg`), so that a Windows profile opened on Linux still reads in Windows' terms.

use serde::{Deserialize, Serialize};

/// Operating system families whose words and rules differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OsFamily {
    /// Linux (also WSL2's Linux side): `/proc`, cgroups, swap, `/dev/shm`.
    Linux,
    /// Windows: page files, commit limit, WDDM.
    Windows,
    /// macOS.
    Macos,
}

/// Python's multiprocessing start method that PyTorch DataLoader workers use on a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StartMethod {
    /// `fork`: a worker is a copy of the training process; pages are shared copy-on-write and
    /// batches travel through `/dev/shm`.
    Fork,
    /// `spawn`: a worker is a fresh interpreter that re-imports the script and unpickles its
    /// own copy of the dataset object; tensors travel through file mappings (Windows) or
    /// shared-memory files, with no `/dev/shm` size limit.
    Spawn,
}

/// The profile's operating system: Windows when it carries Windows' own section
/// (`windows`), else from `host.os` and `host.kernel` as detection writes them (sysinfo:
/// "Windows 11 Pro", "macOS 14.4 Sonoma", "Linux (Ubuntu 22.04)", a Darwin or Linux kernel
/// release). `None` when nothing says (many hand-written profiles): callers then keep the
/// Linux wording they have always used.
pub fn os_family(p: &super::MachineProfile) -> Option<OsFamily> {
    if p.windows.is_some() {
        return Some(OsFamily::Windows);
    }
    if p.macos.is_some() {
        return Some(OsFamily::Macos);
    }
    let os = p.host.os.as_deref().unwrap_or("").to_ascii_lowercase();
    if os.starts_with("windows") || os.starts_with("microsoft windows") {
        return Some(OsFamily::Windows);
    }
    if os.starts_with("macos") || os.starts_with("mac os") || os.starts_with("darwin") {
        return Some(OsFamily::Macos);
    }
    if !os.is_empty() || p.host.kernel.is_some() || p.memory.total_bytes.is_some() {
        // Any other OS name detection writes is a Linux distribution's; a kernel release or a
        // MemTotal without an OS name is Linux's too (older profiles).
        return Some(OsFamily::Linux);
    }
    None
}

/// True when the profile describes Windows.
pub fn is_windows(p: &super::MachineProfile) -> bool {
    os_family(p) == Some(OsFamily::Windows)
}

/// The start method DataLoader workers get by default on `os`: `spawn` on Windows (the only
/// one it has) and on macOS (the default since Python 3.8), `fork` on Linux (the default
/// through Python 3.13; 3.14 moves to `forkserver`, which, like fork, passes batches through
/// shared memory). Sources: Python docs, `multiprocessing` — "Contexts and start methods";
/// PyTorch docs, `torch.utils.data` — "Platform-specific behaviors". Unknown OS: `fork`, the
/// model's long-standing assumption.
pub fn start_method(os: Option<OsFamily>) -> StartMethod {
    match os {
        Some(OsFamily::Windows | OsFamily::Macos) => StartMethod::Spawn,
        Some(OsFamily::Linux) | None => StartMethod::Fork,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::MachineProfile;

    fn with_os(os: Option<&str>, kernel: Option<&str>) -> MachineProfile {
        let mut p = MachineProfile::unknown();
        p.host.os = os.map(String::from);
        p.host.kernel = kernel.map(String::from);
        p
    }

    #[test]
    fn the_os_comes_from_the_profile() {
        // sysinfo's long_os_version on each system.
        let cases = [
            (
                Some("Windows 11 Pro"),
                Some("26100"),
                Some(OsFamily::Windows),
            ),
            (Some("Windows 10 Pro"), None, Some(OsFamily::Windows)),
            (
                Some("macOS 14.4 Sonoma"),
                Some("23.4.0"),
                Some(OsFamily::Macos),
            ),
            (
                Some("Linux (Debian GNU/Linux 12)"),
                Some("6.1.0-18-amd64"),
                Some(OsFamily::Linux),
            ),
            (Some("Ubuntu 22.04.4 LTS"), None, Some(OsFamily::Linux)),
            (
                None,
                Some("5.15.153.1-microsoft-standard-WSL2"),
                Some(OsFamily::Linux),
            ),
            (None, None, None),
        ];
        for (os, kernel, want) in cases {
            assert_eq!(os_family(&with_os(os, kernel)), want, "{os:?}");
        }
        let mut p = with_os(None, None);
        p.windows = Some(Default::default());
        assert!(is_windows(&p));
    }

    #[test]
    fn workers_are_spawned_on_windows_and_macos() {
        assert_eq!(start_method(Some(OsFamily::Windows)), StartMethod::Spawn);
        assert_eq!(start_method(Some(OsFamily::Macos)), StartMethod::Spawn);
        assert_eq!(start_method(Some(OsFamily::Linux)), StartMethod::Fork);
        assert_eq!(start_method(None), StartMethod::Fork);
    }
}
