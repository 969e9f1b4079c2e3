//! Caps on what a profile may hold: list lengths, string lengths, and measurements that are
//! physically possible. A profile can come from anywhere (another machine, a hand edit, an
//! attacker), and every renderer's time and memory grow with these; a value past a cap is an
//! error naming the field, never clamped silently.

use super::MachineProfile;
use super::problem::Problem;

/// Longest string in a profile: 4 KiB. Assumption: the longest real values (a kernel
/// version, an NFS source, an NVML error) are under 300 bytes; 4 KiB leaves room and keeps a
/// report's layout time bounded.
pub const MAX_STRING_BYTES: usize = 4096;

/// Most GPUs in one machine: 1,024. Assumption: the largest single systems (NVL72 racks seen
/// as one host, 16-GPU HGX boards) have 72 or fewer.
pub const MAX_GPUS: usize = 1024;

/// Most memory modules: 1,024 (an 8-socket server with 12 channels and 2 slots each has 192).
pub const MAX_DIMMS: usize = 1024;

/// Most mounts, notes or storage measurements: 65,536 (a Kubernetes node can have thousands of
/// mounts).
pub const MAX_LIST: usize = 65_536;

/// Fastest plausible memory bandwidth: 10^14 bytes/s (100 TB/s). Assumption: 12 times the
/// fastest HBM3e GPU (NVIDIA B200, 8 TB/s, NVIDIA's datasheet) and 100 times a 12-channel
/// DDR5-6400 socket (614 GB/s); anything above is a typo or broken arithmetic.
pub const MAX_MEMORY_BYTES_PER_S: f64 = 1e14;

/// Fastest plausible storage read into one host: 10^12 bytes/s (1 TB/s). Assumption: four
/// times sixteen PCIe 5.0 x4 NVMe drives at their 14 GB/s sequential read (vendor datasheets).
pub const MAX_STORAGE_BYTES_PER_S: f64 = 1e12;

/// Most small-file reads per second: 10^9. Assumption: a thousand times a fast NVMe drive's
/// 1.5 M random 4 KiB reads per second.
pub const MAX_FILES_PER_S: f64 = 1e9;

/// Fastest plausible PCIe traffic of one GPU: 10^12 bytes/s (PCIe 7.0 x16 is 256 GB/s per
/// direction, PCI-SIG).
pub const MAX_PCIE_BYTES_PER_S: f64 = 1e12;

/// A field and what is wrong with it.
type Bad = (String, Problem);

fn rate(field: &str, v: f64, max: f64) -> Result<(), Bad> {
    if v.is_finite() && v > 0.0 && v <= max {
        return Ok(());
    }
    Err((
        field.to_string(),
        Problem::AboveZeroAtMost {
            value: v.to_string(),
            hi: format!("{max:e}"),
        },
    ))
}

fn list(field: &str, len: usize, max: usize) -> Result<(), Bad> {
    if len <= max {
        return Ok(());
    }
    Err((field.to_string(), Problem::TooMany { count: len, max }))
}

/// Checks the caps above. Returns the field's JSON path and what is wrong for the first value
/// past a cap. A profile within them has its strings made one line
/// ([`super::strings::make_one_line`]).
///
/// # Errors
/// The field and the [`Problem`].
pub fn check(p: &mut MachineProfile) -> Result<(), Bad> {
    list("gpus", p.gpus.len(), MAX_GPUS)?;
    for (i, g) in p.gpus.iter().enumerate() {
        if let Some(list_of) = &g.processes {
            let field = format!("gpus[{i}].processes");
            list(&field, list_of.len(), super::MAX_GPU_PROCESSES)?;
        }
    }
    list("memory.dimms", p.memory.dimms.len(), MAX_DIMMS)?;
    list("disks", p.disks.len(), MAX_LIST)?;
    list("notes", p.notes.len(), MAX_LIST)?;
    if let Some(m) = &p.macos {
        // hw.nperflevels is 2 on every Apple Silicon Mac so far.
        list("macos.core_levels", m.core_levels.len(), 16)?;
    }
    list(
        "measurements.storage",
        p.measurements.storage.len(),
        MAX_LIST,
    )?;
    let mut long = None;
    super::strings::for_each_string(p, &mut |s, path| {
        if long.is_none() && s.len() > MAX_STRING_BYTES {
            long = Some(path());
        }
    });
    if let Some(field) = long {
        return Err((
            field,
            Problem::TooLong {
                max: MAX_STRING_BYTES,
            },
        ));
    }
    // Within the caps: every string on one line, escaped where it had to be.
    super::strings::make_one_line(p);
    if let Some(bw) = p.memory.theoretical_bandwidth_bytes_per_s {
        rate(
            "memory.theoretical_bandwidth_bytes_per_s",
            bw,
            MAX_MEMORY_BYTES_PER_S,
        )?;
    }
    for (i, g) in p.gpus.iter().enumerate() {
        for (name, v) in [
            ("pcie_tx_bytes_per_s", g.pcie_tx_bytes_per_s),
            ("pcie_rx_bytes_per_s", g.pcie_rx_bytes_per_s),
        ] {
            // Traffic may be 0 (an idle GPU).
            if let Some(v) = v.filter(|v| *v != 0.0) {
                rate(&format!("gpus[{i}].{name}"), v, MAX_PCIE_BYTES_PER_S)?;
            }
        }
    }
    if let Some(m) = &p.measurements.memory_bandwidth {
        let at = |f: &str| format!("measurements.memory_bandwidth.{f}");
        for (name, v) in [
            ("copy_bytes_per_s", m.copy_bytes_per_s),
            ("scale_bytes_per_s", m.scale_bytes_per_s),
            ("add_bytes_per_s", m.add_bytes_per_s),
            ("triad_bytes_per_s", m.triad_bytes_per_s),
        ] {
            rate(&at(name), v, MAX_MEMORY_BYTES_PER_S)?;
        }
        if !(m.spread.is_finite() && m.spread >= 0.0) {
            return Err((at("spread"), Problem::out_of_range(m.spread, 0, "∞")));
        }
        if m.threads == 0 || m.threads > 1_000_000 {
            return Err((
                at("threads"),
                Problem::out_of_range(m.threads, 1, 1_000_000),
            ));
        }
    }
    for (i, s) in p.measurements.storage.iter().enumerate() {
        let at = |f: &str| format!("measurements.storage[{i}].{f}");
        if let Some(v) = s.sequential_read_bytes_per_s {
            rate(
                &at("sequential_read_bytes_per_s"),
                v,
                MAX_STORAGE_BYTES_PER_S,
            )?;
        }
        if let Some(v) = s.random_read_bytes_per_s {
            rate(&at("random_read_bytes_per_s"), v, MAX_STORAGE_BYTES_PER_S)?;
        }
        if let Some(v) = s.random_read_files_per_s {
            rate(&at("random_read_files_per_s"), v, MAX_FILES_PER_S)?;
        }
    }
    Ok(())
}

/// Most RAM a profile may claim: 1 PiB. Assumption: no single machine has more; larger values
/// are typos or overflowed arithmetic and would saturate every sum.
pub const MAX_RAM_BYTES: u64 = 1 << 50;

/// Most memory one GPU may claim: 8 TiB (the largest parts today hold under 300 GB).
pub const MAX_VRAM_BYTES: u64 = 8 << 40;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{MemoryBandwidth, StorageBandwidth};

    fn storage(seq: f64) -> StorageBandwidth {
        StorageBandwidth {
            path: "/data".into(),
            sequential_read_bytes_per_s: Some(seq),
            direct_io: true,
            sequential_bytes: 1 << 29,
            random_read_files_per_s: None,
            random_read_bytes_per_s: None,
            random_direct_io: false,
            tool: None,
        }
    }

    #[test]
    fn impossible_measurements_are_named() {
        let mut p = MachineProfile::unknown();
        p.measurements.storage.push(storage(3.5e9));
        assert_eq!(check(&mut p), Ok(()));
        for bad in [1e308, -5.0, 0.0, f64::INFINITY, f64::NAN, 2e12] {
            p.measurements.storage[0] = storage(bad);
            let (field, _) = check(&mut p).unwrap_err();
            assert_eq!(field, "measurements.storage[0].sequential_read_bytes_per_s");
        }
        p.measurements.storage.clear();
        p.measurements.memory_bandwidth = Some(MemoryBandwidth {
            copy_bytes_per_s: 7.6e10,
            scale_bytes_per_s: 7.5e10,
            add_bytes_per_s: 8.1e10,
            triad_bytes_per_s: -8.0e10,
            threads: 32,
            pinned: true,
            array_bytes: 1 << 30,
            repetitions: 10,
            spread: 0.03,
            noisy: false,
            tool: None,
        });
        let (field, message) = check(&mut p).unwrap_err();
        assert_eq!(field, "measurements.memory_bandwidth.triad_bytes_per_s");
        assert_eq!(
            message,
            Problem::AboveZeroAtMost {
                value: "-80000000000".into(),
                hi: "1e14".into(),
            }
        );
    }

    #[test]
    fn long_strings_and_long_lists_are_named() {
        let mut p = MachineProfile::unknown();
        p.gpus.push(crate::catalog::GpuModel::profile_gpu(
            None,
            0,
            Some("x".repeat(4096)),
        ));
        assert_eq!(check(&mut p), Ok(()));
        p.gpus[0].name = Some("x".repeat(4097));
        assert_eq!(check(&mut p).unwrap_err().0, "gpus[0].name");
        p.gpus[0].name = None;
        let gpu = p.gpus[0].clone();
        p.gpus = vec![gpu; 1025];
        let (field, message) = check(&mut p).unwrap_err();
        assert_eq!(field, "gpus");
        assert_eq!(
            message,
            Problem::TooMany {
                count: 1025,
                max: 1024
            }
        );
    }
}
