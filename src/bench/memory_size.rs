//! How large the memory benchmark's arrays are: STREAM's rule from the last-level cache, capped
//! so that the benchmark fits a machine short of RAM (issue 37), and how long it may run.

use std::path::Path;
use std::time::Duration;

/// Arrays are at least this many times the last-level cache: STREAM's rule ("each array must
/// be at least 4 times the size of the available cache memory", `stream.c`), with the caches
/// of all CPUs summed ([`total_last_level_cache`]), unless a cap below is smaller.
pub const CACHE_FACTOR: u64 = 4;

/// Last-level cache assumed when it can't be read: 32 MiB. Assumption: the L3 of common
/// desktop and cloud CPUs (Ryzen 7000, Core i9, one EPYC CCD).
pub const DEFAULT_LLC_BYTES: u64 = 32 << 20;

/// The three arrays together take at most 1 GiB (issue 37: the benchmark must not be what
/// pushes a RAM-short machine into swap).
pub const MAX_TOTAL_BYTES: u64 = 1 << 30;

/// The three arrays together take at most a tenth of the available RAM.
pub const AVAILABLE_DIVISOR: u64 = 10;

/// Array sizes are rounded down to a multiple of 8 KiB (whole 4 KiB pages for every `f64`
/// array, an even split over threads), and are at least that.
const GRANULE: u64 = 8 << 10;

/// The whole run, allocation and first touch included, starts no pass that would end later
/// than this: 1.5 s, so that `ramvram bench memory` ends within 2 s (process start, the cache
/// and RAM probes and the check of the results take the rest).
pub const TIME_BUDGET: Duration = Duration::from_millis(1500);

/// Bytes per array for a last-level cache of `llc` bytes (32 MiB assumed when unknown) and
/// `available` bytes of available RAM (no cap from it when unknown): `4 × llc` (STREAM's rule),
/// but the three arrays at most [`MAX_TOTAL_BYTES`] and at most a tenth of `available`,
/// rounded down to a multiple of 8 KiB (and at least 8 KiB). When a cap wins, the arrays are
/// smaller than STREAM asks: [`meets_cache_rule`] says so.
pub fn array_bytes_for(llc: Option<u64>, available: Option<u64>) -> u64 {
    let want = CACHE_FACTOR.saturating_mul(llc.unwrap_or(DEFAULT_LLC_BYTES));
    let mut cap = MAX_TOTAL_BYTES / 3;
    if let Some(a) = available {
        cap = cap.min(a / AVAILABLE_DIVISOR / 3);
    }
    (want.min(cap) / GRANULE).max(1) * GRANULE
}

/// True when arrays of `array_bytes` meet STREAM's rule for a last-level cache of `llc`
/// bytes (32 MiB assumed when unknown).
pub fn meets_cache_rule(array_bytes: u64, llc: Option<u64>) -> bool {
    array_bytes >= CACHE_FACTOR.saturating_mul(llc.unwrap_or(DEFAULT_LLC_BYTES))
}

/// Parses a sysfs cache size: `"32768K"` → 33,554,432; `"1M"`, `"512"` (bytes).
pub fn parse_cache_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, shift) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 10),
        'M' | 'm' => (&s[..s.len() - 1], 20),
        'G' | 'g' => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|n| *n > 0)
}

/// One cache as sysfs lists it under `cpu<N>/cache/index<M>/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheEntry {
    /// `level` (1, 2, 3).
    pub level: u32,
    /// `size`, bytes.
    pub size: u64,
    /// `shared_cpu_list` (e.g. `"0-7"`): CPUs sharing this cache; one physical cache per
    /// distinct list.
    pub shared_cpus: String,
}

/// Total last-level cache: the sum over the distinct caches of the highest level (STREAM's
/// rule is about "the sum of all the last-level caches": an EPYC 7742 has sixteen 16 MiB L3
/// slices, 256 MiB in all, though each CPU sees 16 MiB).
pub fn total_last_level_cache(entries: &[CacheEntry]) -> Option<u64> {
    let level = entries.iter().map(|e| e.level).max()?;
    let mut seen = std::collections::BTreeSet::new();
    let total: u64 = entries
        .iter()
        .filter(|e| e.level == level && seen.insert(e.shared_cpus.as_str()))
        .map(|e| e.size)
        .fold(0u64, u64::saturating_add);
    (total > 0).then_some(total)
}

/// Total last-level cache read from `<sys>/devices/system/cpu/cpu*/cache/index*/`; `None`
/// when unreadable.
pub fn last_level_cache(sys: &Path) -> Option<u64> {
    let mut entries = Vec::new();
    for cpu in std::fs::read_dir(sys.join("devices/system/cpu"))
        .ok()?
        .flatten()
    {
        let name = cpu.file_name().to_string_lossy().into_owned();
        if !name
            .strip_prefix("cpu")
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        {
            continue;
        }
        let Ok(indexes) = std::fs::read_dir(cpu.path().join("cache")) else {
            continue;
        };
        for idx in indexes.flatten() {
            let read = |f: &str| std::fs::read_to_string(idx.path().join(f)).ok();
            let level = read("level").and_then(|l| l.trim().parse::<u32>().ok());
            let size = read("size").and_then(|s| parse_cache_size(&s));
            let shared = read("shared_cpu_list").map(|s| s.trim().to_string());
            if let (Some(level), Some(size)) = (level, size) {
                entries.push(CacheEntry {
                    level,
                    size,
                    // Without the list, count each CPU's cache once per CPU.
                    shared_cpus: shared.unwrap_or_else(|| name.clone()),
                });
            }
        }
    }
    total_last_level_cache(&entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    #[test]
    fn four_times_the_cache_capped_at_a_gib_and_a_tenth_of_what_is_free() {
        // This machine: AMD EPYC, 32 MiB L3, 19 GiB available. 4 × 32 MiB = 128 MiB =
        // 134,217,728 bytes; the caps are 1 GiB / 3 = 357,913,941 and 19 GiB / 10 / 3 =
        // 680,036,488: STREAM's rule stands. Three arrays: 384 MiB.
        assert_eq!(array_bytes_for(Some(32 * MIB), Some(19 * GIB)), 134_217_728);
        assert!(meets_cache_rule(134_217_728, Some(32 * MIB)));
        // Unknown cache: 32 MiB assumed, the same.
        assert_eq!(array_bytes_for(None, None), 134_217_728);
        // EPYC 7742, 256 MiB of L3 in all: 4 × 256 MiB = 1 GiB per array, but three arrays
        // may take 1 GiB: 1,073,741,824 / 3 = 357,913,941.3, down to a multiple of 8,192:
        // 43,690 × 8,192 = 357,908,480 (3 × that = 1,073,725,440 ≤ 1 GiB).
        assert_eq!(
            array_bytes_for(Some(256 * MIB), Some(512 * GIB)),
            357_908_480
        );
        assert!(!meets_cache_rule(357_908_480, Some(256 * MIB)));
        // A laptop with 2 GiB available: a tenth is 214,748,364, a third of that 71,582,788,
        // down to 8,192 × 8,738 = 71,581,696 — less than 4 × 32 MiB, so the RAM cap wins.
        assert_eq!(array_bytes_for(Some(32 * MIB), Some(2 * GIB)), 71_581_696);
        // 3 × 71,581,696 = 214,745,088 ≤ 214,748,364.8, a tenth of 2 GiB.
        assert!(3 * array_bytes_for(Some(32 * MIB), Some(2 * GIB)) <= 2 * GIB / 10);
        // Almost nothing available: the 8 KiB floor.
        assert_eq!(array_bytes_for(Some(32 * MIB), Some(1000)), 8192);
        // An absurd cache can't overflow.
        assert_eq!(array_bytes_for(Some(u64::MAX), None), 357_908_480);
    }

    #[test]
    fn caches_are_summed_over_distinct_last_level_slices() {
        // EPYC 7742: 64 cores in 16 CCXs of 4, each CCX sharing a 16 MiB L3 → 256 MiB in all;
        // L2 (512 KiB per core) is a lower level and does not count.
        let mut caches = Vec::new();
        for cpu in 0..64u32 {
            let first = cpu / 4 * 4;
            caches.push(CacheEntry {
                level: 3,
                size: 16 << 20,
                shared_cpus: format!("{first}-{}", first + 3),
            });
            caches.push(CacheEntry {
                level: 2,
                size: 512 << 10,
                shared_cpus: cpu.to_string(),
            });
        }
        assert_eq!(total_last_level_cache(&caches), Some(256 << 20));
        assert_eq!(total_last_level_cache(&[]), None);
        assert_eq!(parse_cache_size("32768K\n"), Some(33_554_432));
        assert_eq!(parse_cache_size("1M"), Some(1_048_576));
        assert_eq!(parse_cache_size("junk"), None);
        assert_eq!(parse_cache_size("99999999999999999G"), None);
    }
}
