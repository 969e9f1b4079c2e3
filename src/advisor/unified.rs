//! Apple Silicon's unified memory: how much of the pool the GPU may use. Metal reports the
//! limit as `MTLDevice.recommendedMaxWorkingSetSize`; macOS lets an administrator move it with
//! `sudo sysctl iogpu.wired_limit_mb=…` (until reboot). Pure.

use crate::profile::{GpuVendor, MachineProfile, Provenance};

/// The most unified memory the GPU may use for one job, bytes, and where the figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuWorkingSet {
    /// Bytes.
    pub bytes: u64,
    /// [`Provenance::Detected`] when `iogpu.wired_limit_mb` is set (the administrator's
    /// override, read by `sysctl`); [`Provenance::Estimated`] for macOS's default share of RAM
    /// ([`default_working_set`]).
    pub source: Provenance,
}

impl GpuWorkingSet {
    /// True when the figure is macOS's default share, estimated, rather than a set override.
    pub fn is_default_share(&self) -> bool {
        self.source == Provenance::Estimated
    }
}

/// RAM up to which macOS's default GPU share is two thirds; above it, three quarters.
/// Assumption: the boundary commonly cited (36 GiB); measured points bracket it only
/// (32 GiB → 2/3, 64 GiB → 3/4, see [`default_working_set`]).
pub const DEFAULT_SHARE_BOUNDARY_BYTES: u64 = 36 << 30;

/// macOS's default `recommendedMaxWorkingSetSize` for `ram` bytes of unified memory: 2/3 of
/// RAM up to [`DEFAULT_SHARE_BOUNDARY_BYTES`], 3/4 above. Sources (Metal's figure as llama.cpp
/// prints it): 10922.67 MiB on a 16 GiB M1 (abetlen/llama-cpp-python#687) and 21845.34 MiB on
/// 32 GiB M1 Max and M2 Max (ggml-org/llama.cpp#2011, ollama/ollama#434) are exactly 2/3;
/// a 64 GiB M2 Max fails to load models from about 47–48 GiB (ggml-org/llama.cpp#1870), 3/4.
/// Newer macOS measured 107.52 GiB on 128 GiB M5 Max (antirez/ds4#893, 0.84 of RAM), so on
/// large Macs this estimate errs low, never high.
pub fn default_working_set(ram: u64) -> u64 {
    if ram <= DEFAULT_SHARE_BOUNDARY_BYTES {
        ram / 3 * 2
    } else {
        ram / 4 * 3
    }
}

/// The GPU working-set limit of a Mac profile with an Apple GPU: `iogpu.wired_limit_mb` when
/// set (at most the RAM), else the default share of the RAM (`hw.memsize`). `None` without an
/// Apple GPU or with the RAM unknown.
pub fn apple_gpu_working_set(profile: &MachineProfile) -> Option<GpuWorkingSet> {
    if !profile
        .gpus
        .iter()
        .any(|g| g.vendor == GpuVendor::Apple && g.unified_memory)
    {
        return None;
    }
    let ram = profile
        .memory
        .installed_bytes
        .or(profile.memory.total_bytes)?;
    let set = profile.macos.as_ref().and_then(|m| m.gpu_wired_limit_bytes);
    Some(match set {
        Some(b) => GpuWorkingSet {
            bytes: b.min(ram),
            source: Provenance::Detected,
        },
        None => GpuWorkingSet {
            bytes: default_working_set(ram),
            source: Provenance::Estimated,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_share_matches_metals_measured_figures() {
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        // 16 GiB → 10922.67 MiB; 32 GiB → 21845.33 MiB (llama.cpp prints 21845.34).
        assert!((mib(default_working_set(16 << 30)) - 10922.67).abs() < 0.01);
        assert!((mib(default_working_set(32 << 30)) - 21845.34).abs() < 0.02);
        // 64 GiB → 48 GiB, where models stopped loading (~47–48 GiB).
        assert_eq!(default_working_set(64 << 30), 48 << 30);
        // 128 GiB → 96 GiB, below the 107.52 GiB newer macOS measured: errs low.
        assert!(default_working_set(128 << 30) < (10752u64 << 30) / 100);
    }
}
