//! macOS `sysctl` values: a pure parser of `sysctl` text (as `sysctl hw machdep vm.swapusage
//! iogpu kern.memorystatus_vm_pressure_level` prints it) and the validation that turns raw
//! values into profile fields. `probe::macos` fills [`SysctlValues`] with `sysctlbyname` on a
//! Mac; the tests fill it from text captured on real Macs, so both go through [`interpret`].

use crate::profile::{MacOs, MemoryPressure, Note, NoteId};

/// Largest believable RAM: 16 TiB. Assumption: the largest Mac (Mac Pro, 2019) took 1.5 TiB;
/// anything above is garbage.
pub const MAX_MAC_MEMORY_BYTES: u64 = 16 << 40;

/// Most performance levels read (`hw.nperflevels`): Apple Silicon has two; a few more are kept
/// for future parts, a garbage count is not followed.
pub const MAX_PERF_LEVELS: usize = 8;

/// One core kind (`hw.perflevelN.*`): level 0 is the fastest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerfLevel {
    /// `hw.perflevelN.name` ("Performance", "Efficiency"; "Super" and "Performance" on M5).
    pub name: Option<String>,
    /// `hw.perflevelN.physicalcpu`.
    pub physical_cpus: Option<i64>,
}

/// `vm.swapusage` (`struct xsw_usage`): bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwapUsage {
    /// `xsu_total`.
    pub total: u64,
    /// `xsu_used`.
    pub used: u64,
    /// `xsu_encrypted`.
    pub encrypted: bool,
}

/// The raw values, as the system gave them (integers signed, as `sysctl` declares most).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SysctlValues {
    /// `hw.memsize`: installed RAM, bytes.
    pub memsize: Option<i128>,
    /// `hw.model`.
    pub model: Option<String>,
    /// `machdep.cpu.brand_string`.
    pub brand: Option<String>,
    /// `hw.physicalcpu`.
    pub physical_cpus: Option<i64>,
    /// `hw.logicalcpu`.
    pub logical_cpus: Option<i64>,
    /// `hw.perflevel0.*`, `hw.perflevel1.*`, … in level order.
    pub perf_levels: Vec<PerfLevel>,
    /// `vm.swapusage`.
    pub swap: Option<SwapUsage>,
    /// `iogpu.wired_limit_mb` (Apple Silicon, macOS 14 and later).
    pub wired_limit_mb: Option<i64>,
    /// `kern.memorystatus_vm_pressure_level`.
    pub pressure_level: Option<i64>,
}

/// Parses `name: value` lines as `sysctl` prints them (`sysctl -a`, `sysctl hw`); unknown
/// names, malformed lines and values that don't parse are skipped (left unknown).
pub fn parse_sysctl_text(text: &str) -> SysctlValues {
    let mut v = SysctlValues::default();
    for line in text.lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        let int = || value.parse::<i64>().ok();
        match name {
            "hw.memsize" => v.memsize = value.parse().ok(),
            "hw.model" => v.model = Some(value.to_string()),
            "machdep.cpu.brand_string" => v.brand = Some(value.to_string()),
            "hw.physicalcpu" => v.physical_cpus = int(),
            "hw.logicalcpu" => v.logical_cpus = int(),
            "vm.swapusage" => v.swap = parse_swapusage(value),
            "iogpu.wired_limit_mb" => v.wired_limit_mb = int(),
            "kern.memorystatus_vm_pressure_level" => v.pressure_level = int(),
            _ => {
                let Some(rest) = name.strip_prefix("hw.perflevel") else {
                    continue;
                };
                let Some((level, field)) = rest.split_once('.') else {
                    continue;
                };
                let Some(level) = level.parse::<usize>().ok().filter(|l| *l < MAX_PERF_LEVELS)
                else {
                    continue;
                };
                if v.perf_levels.len() <= level {
                    v.perf_levels.resize(level + 1, PerfLevel::default());
                }
                match field {
                    "name" => v.perf_levels[level].name = Some(value.to_string()),
                    "physicalcpu" => v.perf_levels[level].physical_cpus = int(),
                    _ => {}
                }
            }
        }
    }
    v
}

/// `total = 2048.00M  used = 1017.50M  free = 1030.50M  (encrypted)`: sizes with `K`, `M` or
/// `G` (binary units, as `sysctl` prints `xsw_usage`), `None` when total or used is missing.
pub fn parse_swapusage(value: &str) -> Option<SwapUsage> {
    let size = |key: &str| -> Option<u64> {
        let at = value.find(key)? + key.len();
        let rest = value[at..].trim_start().strip_prefix('=')?.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..end].parse().ok()?;
        let unit = match rest[end..].chars().next() {
            Some('K') => 1u64 << 10,
            Some('M') => 1 << 20,
            Some('G') => 1 << 30,
            _ => return None,
        };
        (number.is_finite() && number >= 0.0).then(|| (number * unit as f64).round() as u64)
    };
    Some(SwapUsage {
        total: size("total")?,
        used: size("used")?,
        encrypted: value.contains("(encrypted)"),
    })
}

/// What a Mac's sysctl values say, validated: every value out of range is unknown, with a
/// note naming it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MacDetected {
    /// `hw.memsize`: installed RAM, bytes (also the pool a unified-memory GPU draws from).
    pub memory_bytes: Option<u64>,
    /// Swap (macOS's own word: dynamic swap files in `/System/Volumes/VM`): total and used.
    pub swap_total_bytes: Option<u64>,
    /// Swap in use.
    pub swap_used_bytes: Option<u64>,
    /// `machdep.cpu.brand_string`, e.g. "Apple M2 Max".
    pub cpu_model: Option<String>,
    /// `hw.physicalcpu`.
    pub physical_cores: Option<u32>,
    /// `hw.logicalcpu`.
    pub logical_cpus: Option<u32>,
    /// The Mac's own fields.
    pub macos: MacOs,
    /// Values out of range.
    pub notes: Vec<Note>,
}

/// Validates raw sysctl values ([`SysctlValues`]) into profile fields. Out of range, each
/// becomes unknown with a [`NoteId::ValueOutOfRange`] note: RAM of 0 or above
/// [`MAX_MAC_MEMORY_BYTES`]; core counts of 0 or above 4,096; swap used above its total; a
/// wired limit below 0 or above the RAM; a pressure level other than 1, 2 or 4.
pub fn interpret(v: &SysctlValues) -> MacDetected {
    let mut out = MacDetected::default();
    let mut bad = |name: &str, value: &dyn std::fmt::Display| {
        out.notes.push(Note {
            id: NoteId::ValueOutOfRange,
            detail: Some(format!("{name} = {value}")),
        });
    };
    let memory = v.memsize.and_then(|m| {
        let ok = u64::try_from(m)
            .ok()
            .filter(|m| (1..=MAX_MAC_MEMORY_BYTES).contains(m));
        if ok.is_none() {
            bad("hw.memsize", &m);
        }
        ok
    });
    let count = |name: &str, c: Option<i64>, bad: &mut dyn FnMut(&str, &dyn std::fmt::Display)| {
        let c = c?;
        let ok = u32::try_from(c).ok().filter(|c| (1..=4096).contains(c));
        if ok.is_none() {
            bad(name, &c);
        }
        ok
    };
    let physical = count("hw.physicalcpu", v.physical_cpus, &mut bad);
    let logical = count("hw.logicalcpu", v.logical_cpus, &mut bad);
    let mut levels = Vec::new();
    for (i, level) in v.perf_levels.iter().enumerate() {
        let name = format!("hw.perflevel{i}.physicalcpu");
        levels.push(count(&name, level.physical_cpus, &mut bad));
    }
    let swap = v.swap.and_then(|s| {
        if s.used > s.total {
            bad(
                "vm.swapusage",
                &format!("used {} > total {}", s.used, s.total),
            );
            None
        } else {
            Some(s)
        }
    });
    let wired = v.wired_limit_mb.and_then(|mb| {
        let bytes = u64::try_from(mb)
            .ok()
            .and_then(|mb| mb.checked_mul(1 << 20));
        let ok = bytes.filter(|b| memory.is_none_or(|m| *b <= m));
        if ok.is_none() {
            bad("iogpu.wired_limit_mb", &mb);
        }
        ok
    });
    let pressure = v.pressure_level.and_then(|p| {
        let level = match p {
            1 => Some(MemoryPressure::Normal),
            2 => Some(MemoryPressure::Warning),
            4 => Some(MemoryPressure::Critical),
            _ => None,
        };
        if level.is_none() {
            bad("kern.memorystatus_vm_pressure_level", &p);
        }
        level
    });
    out.memory_bytes = memory;
    out.swap_total_bytes = swap.map(|s| s.total);
    out.swap_used_bytes = swap.map(|s| s.used);
    out.cpu_model = text(&v.brand).map(String::from);
    out.physical_cores = physical;
    out.logical_cpus = logical;
    let level_name = |i: usize| v.perf_levels.get(i).and_then(|l| text(&l.name));
    out.macos = MacOs {
        model_identifier: text(&v.model).map(String::from),
        core_levels: levels
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                Some(crate::profile::CoreLevel {
                    name: level_name(i).map(String::from),
                    physical_cores: (*n)?,
                })
            })
            .collect(),
        gpu_wired_limit_bytes: wired.filter(|b| *b > 0),
        gpu_wired_limit_default: wired.map(|b| b == 0),
        gpu_working_set_bytes: None,
        memory_pressure: pressure,
        swap_encrypted: swap.map(|s| s.encrypted),
    };
    out
}

/// Puts what a Mac's sysctl said into `profile`: RAM (`hw.memsize`, installed and what macOS
/// manages: the same figure on a Mac), swap, the processor (kept where sysctl had nothing), the
/// Mac's own fields and the notes.
pub fn apply_mac(profile: &mut crate::profile::MachineProfile, d: MacDetected) {
    let m = &mut profile.memory;
    m.total_bytes = d.memory_bytes;
    m.installed_bytes = d.memory_bytes;
    m.swap_total_bytes = d.swap_total_bytes;
    m.swap_used_bytes = d.swap_used_bytes;
    let c = &mut profile.cpu;
    c.model = d.cpu_model.or(c.model.take());
    c.physical_cores = d.physical_cores.or(c.physical_cores);
    c.logical_cpus = d.logical_cpus.or(c.logical_cpus);
    profile.macos = Some(d.macos);
    profile.notes.extend(d.notes);
}

/// Puts Metal's `recommendedMaxWorkingSetSize` (bytes, as `MTLDevice` answered on this Mac)
/// into `profile.macos.gpu_working_set_bytes`. Believed only when above 0 and at most the RAM
/// (`hw.memsize`, already in `profile.memory.total_bytes`): Metal's limit is a share of the
/// unified memory, never more.
pub fn apply_working_set(profile: &mut crate::profile::MachineProfile, bytes: Option<u64>) {
    let ram = profile.memory.total_bytes;
    let ok = bytes.filter(|b| *b > 0 && ram.is_some_and(|r| *b <= r));
    if let Some(m) = profile.macos.as_mut() {
        m.gpu_working_set_bytes = ok;
    }
}

/// Network file systems a Mac mounts (SMB, NFS, AFP, WebDAV).
const MAC_NETWORK_FS: &[&str] = &["smbfs", "nfs", "afpfs", "webdav", "ftp"];

/// One mounted volume of a Mac as sysinfo lists it, or `None` for what can't hold a dataset:
/// pseudo file systems (`devfs`, `autofs`, `nullfs`) and the system's own volumes under
/// `/System/Volumes` except `Data` (where home folders live). `solid_state` is sysinfo's
/// SSD/HDD answer (`None`: unknown); a network file system is `Network` whatever it says. A
/// size of 0 is unknown. Apple's internal SSDs speak NVMe, but sysinfo can't tell them from
/// SATA SSDs, so they stay `Ssd`.
pub fn mac_disk(
    mount: &str,
    fs: &str,
    solid_state: Option<bool>,
    total: u64,
    available: u64,
) -> Option<crate::profile::Disk> {
    use crate::profile::DiskKind;
    if matches!(fs, "devfs" | "autofs" | "nullfs" | "")
        || (mount.starts_with("/System/Volumes/") && mount != "/System/Volumes/Data")
    {
        return None;
    }
    let kind = if MAC_NETWORK_FS.contains(&fs) {
        DiskKind::Network
    } else {
        match solid_state {
            Some(true) => DiskKind::Ssd,
            Some(false) => DiskKind::Hdd,
            None => DiskKind::Unknown,
        }
    };
    let total = Some(total).filter(|t| *t > 0);
    Some(crate::profile::Disk {
        mount_point: mount.to_string(),
        file_system: Some(fs.to_string()),
        kind,
        device: None,
        total_bytes: total,
        available_bytes: total
            .and(Some(available))
            .filter(|a| total.is_some_and(|t| *a <= t)),
    })
}

/// A sysctl string trimmed, `None` when empty.
fn text(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metal_working_set_is_kept_within_the_ram() {
        let mut p = crate::profile::MachineProfile::unknown();
        p.memory.total_bytes = Some(16 << 30);
        p.macos = Some(MacOs::default());
        // 11,453,251,584 B prints as 10,922.67 MiB, llama.cpp's recommendedMaxWorkingSetSize
        // line on a 16 GiB M1 (abetlen/llama-cpp-python#687): below 16 GiB, kept.
        apply_working_set(&mut p, Some(11_453_251_584));
        let got =
            |p: &crate::profile::MachineProfile| p.macos.as_ref().unwrap().gpu_working_set_bytes;
        assert_eq!(got(&p), Some(11_453_251_584));
        // More than the RAM, or 0, is not Metal's share of it.
        apply_working_set(&mut p, Some(17 << 30));
        assert_eq!(got(&p), None);
        apply_working_set(&mut p, Some(0));
        assert_eq!(got(&p), None);
    }

    #[test]
    fn swapusage_in_binary_units() {
        let s = parse_swapusage("total = 2048.00M  used = 1017.50M  free = 1030.50M  (encrypted)")
            .unwrap();
        assert_eq!(
            (s.total, s.used, s.encrypted),
            (2 << 30, 1_066_926_080, true)
        );
        let s = parse_swapusage("total = 2.00G  used = 512.00M  free = 1.50G").unwrap();
        assert_eq!((s.total, s.used, s.encrypted), (2 << 30, 512 << 20, false));
        assert_eq!(parse_swapusage("total = lots"), None);
        assert_eq!(parse_swapusage(""), None);
    }

    #[test]
    fn mac_volumes_that_can_hold_a_dataset() {
        use crate::profile::DiskKind;
        let data = mac_disk("/System/Volumes/Data", "apfs", Some(true), 1 << 40, 1 << 39).unwrap();
        assert_eq!(
            (data.kind, data.available_bytes),
            (DiskKind::Ssd, Some(1 << 39))
        );
        assert!(mac_disk("/System/Volumes/VM", "apfs", Some(true), 1 << 40, 0).is_none());
        assert!(mac_disk("/dev", "devfs", None, 0, 0).is_none());
        let nas = mac_disk("/Volumes/lab", "smbfs", Some(true), 0, 5).unwrap();
        assert_eq!(
            (nas.kind, nas.total_bytes, nas.available_bytes),
            (DiskKind::Network, None, None)
        );
        // More available than the total: garbage, unknown.
        let odd = mac_disk("/Volumes/usb", "exfat", Some(false), 10, 11).unwrap();
        assert_eq!((odd.kind, odd.available_bytes), (DiskKind::Hdd, None));
    }

    #[test]
    fn out_of_range_values_are_unknown_with_notes() {
        let v = parse_sysctl_text(
            "hw.memsize: 0\nhw.physicalcpu: -3\nhw.perflevel0.physicalcpu: 99999\n\
             vm.swapusage: total = 1.00M  used = 2.00M  free = 0.00M\n\
             iogpu.wired_limit_mb: -1\nkern.memorystatus_vm_pressure_level: 3\n\
             hw.perflevel4000000000.physicalcpu: 4\nhw.model:\n",
        );
        let d = interpret(&v);
        assert_eq!(d.memory_bytes, None);
        assert_eq!(d.physical_cores, None);
        assert!(d.macos.core_levels.is_empty());
        assert_eq!((d.swap_total_bytes, d.macos.memory_pressure), (None, None));
        assert_eq!(d.macos.gpu_wired_limit_bytes, None);
        assert_eq!(d.macos.model_identifier, None);
        let named: Vec<&str> = d.notes.iter().filter_map(|n| n.detail.as_deref()).collect();
        assert_eq!(
            named,
            [
                "hw.memsize = 0",
                "hw.physicalcpu = -3",
                "hw.perflevel0.physicalcpu = 99999",
                "vm.swapusage = used 2097152 > total 1048576",
                "iogpu.wired_limit_mb = -1",
                "kern.memorystatus_vm_pressure_level = 3",
            ]
        );
        // A wired limit above the RAM, and 2^64 bytes of RAM.
        let d = interpret(&parse_sysctl_text(
            "hw.memsize: 18446744073709551616\niogpu.wired_limit_mb: 9223372036854775807\n",
        ));
        assert_eq!(
            (d.memory_bytes, d.macos.gpu_wired_limit_bytes),
            (None, None)
        );
        assert_eq!(d.notes.len(), 2);
    }
}
