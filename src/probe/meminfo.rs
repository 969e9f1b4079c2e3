//! `/proc/meminfo` parser.

/// The fields of `/proc/meminfo` that ramvram uses, in bytes. A field absent from the text is
/// `None` (old kernels have no `MemAvailable`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemInfo {
    /// `MemTotal`.
    pub total: Option<u64>,
    /// `MemAvailable` (kernel 3.14+).
    pub available: Option<u64>,
    /// `SwapTotal`.
    pub swap_total: Option<u64>,
    /// `SwapFree`.
    pub swap_free: Option<u64>,
    /// `Active(file)`: file-backed pages recently used.
    pub active_file: Option<u64>,
    /// `Inactive(file)`: file-backed pages the kernel may reclaim first.
    pub inactive_file: Option<u64>,
}

impl MemInfo {
    /// Swap in use: `SwapTotal - SwapFree`, when both are known.
    pub fn swap_used(&self) -> Option<u64> {
        Some(self.swap_total?.saturating_sub(self.swap_free?))
    }

    /// The file-backed page cache: `Active(file) + Inactive(file)`, when both are known
    /// (unlike `Cached`, it leaves out tmpfs and shared memory).
    pub fn page_cache(&self) -> Option<u64> {
        self.active_file?.checked_add(self.inactive_file?)
    }
}

/// Parses the text of `/proc/meminfo`. Values are in KiB in the file ("kB" means 1024 bytes
/// there, see proc(5)) and returned in bytes. Unparseable lines are skipped.
pub fn parse_meminfo(text: &str) -> MemInfo {
    let mut info = MemInfo::default();
    for line in text.lines() {
        let Some((key, rest)) = line.split_once(':') else {
            continue;
        };
        let mut parts = rest.split_whitespace();
        let Some(Ok(value)) = parts.next().map(str::parse::<u64>) else {
            continue;
        };
        let bytes = match parts.next() {
            Some("kB") => value.checked_mul(1024),
            None => Some(value),
            Some(_) => None,
        };
        let slot = match key.trim() {
            "MemTotal" => &mut info.total,
            "MemAvailable" => &mut info.available,
            "SwapTotal" => &mut info.swap_total,
            "SwapFree" => &mut info.swap_free,
            "Active(file)" => &mut info.active_file,
            "Inactive(file)" => &mut info.inactive_file,
            _ => continue,
        };
        *slot = bytes;
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_captured_debian_meminfo() {
        // Captured on the CI machine (Debian 12, 24 GiB VM), first lines and swap lines.
        let text = include_str!("../../tests/fixtures/proc/meminfo-debian12-24g.txt");
        let m = parse_meminfo(text);
        assert_eq!(m.total, Some(24_684_092 * 1024));
        assert_eq!(m.available, Some(23_977_864 * 1024));
        assert_eq!(m.swap_total, Some(0));
        assert_eq!(m.swap_used(), Some(0));
        // Active(file) 693824 kB + Inactive(file) 920820 kB.
        assert_eq!(m.page_cache(), Some((693_824 + 920_820) * 1024));
    }

    #[test]
    fn parses_server_with_swap_in_use() {
        // Written by hand in the layout of a 256 GiB server's meminfo, swap partly used.
        let text = include_str!("../../tests/fixtures/proc/meminfo-swap-in-use.txt");
        let m = parse_meminfo(text);
        assert_eq!(m.total, Some(263_846_064 * 1024));
        assert_eq!(m.swap_total, Some(8_388_604 * 1024));
        // SwapTotal 8388604 kB - SwapFree 5242876 kB = 3145728 kB = 3 GiB.
        assert_eq!(m.swap_used(), Some(3 << 30));
    }

    #[test]
    fn old_kernel_without_memavailable_is_unknown() {
        let m = parse_meminfo("MemTotal: 1024 kB\nMemFree: 512 kB\n");
        assert_eq!(m.total, Some(1 << 20));
        assert_eq!(m.available, None);
        assert_eq!(m.swap_used(), None);
    }
}
