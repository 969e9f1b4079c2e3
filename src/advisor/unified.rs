//! Apple Silicon's unified memory: how much of the pool the GPU may use. Metal reports the
//! limit as `MTLDevice.recommendedMaxWorkingSetSize`; macOS lets an administrator move it with
//! `sudo sysctl iogpu.wired_limit_mb=…` (until reboot). Pure.

use crate::profile::{GpuVendor, MachineProfile, Provenance};

/// The most unified memory the GPU may use for one job, bytes, and where the figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuWorkingSet {
    /// Bytes.
    pub bytes: u64,
    /// [`Provenance::Detected`] when read on the Mac: Metal's `recommendedMaxWorkingSetSize`
    /// (`macos.gpu_working_set_bytes`) or the administrator's `iogpu.wired_limit_mb`;
    /// [`Provenance::Estimated`] for macOS's default share of RAM ([`default_working_set`]).
    pub source: Provenance,
    /// True when no `iogpu.wired_limit_mb` override is set: the figure is macOS's default
    /// share (measured by Metal or estimated), which an administrator may raise.
    pub at_default: bool,
}

impl GpuWorkingSet {
    /// True when the figure is macOS's default share rather than a set override.
    pub fn is_default_share(&self) -> bool {
        self.at_default
    }
}

/// Smallest unified memory at which macOS's default GPU share is three quarters; below it, two
/// thirds. Measured: 32 GiB gives 2/3 (21,845.34 MiB, ggml-org/llama.cpp#2011,
/// ollama/ollama#434) and 36 GiB gives 3/4 (`recommendedMaxWorkingSetSize = 28991.03 MB`,
/// 10^6-byte MB, exactly 27 GiB, on a 36 GB M4 Max under macOS 15.7 and on a 36 GB M3 Max,
/// ggml-org/llama.cpp#7060). Apple sells no Mac between 32 and 36 GB (the configurations in
/// huggingface/huggingface.js#1937, from Apple's specification pages), so the boundary is
/// exact for every Mac sold.
pub const DEFAULT_SHARE_BOUNDARY_BYTES: u64 = 36 << 30;

/// macOS's default `recommendedMaxWorkingSetSize` for `ram` bytes of unified memory, as an
/// estimate where Metal's own figure was not read: 2/3 of RAM below
/// [`DEFAULT_SHARE_BOUNDARY_BYTES`], 3/4 from it. Measured points (Metal's figure as llama.cpp
/// or the tool prints it):
///
/// | RAM | measured | share | source |
/// |---|---|---|---|
/// | 16 GiB (M1) | 10,922.67 MiB | 2/3 | abetlen/llama-cpp-python#687 |
/// | 16 GiB (M4, macOS 15) | ~10.67 GiB | 2/3 | exo-explore/exo#1672 |
/// | 32 GiB (M1 Max, M2 Max) | 21,845.34 MiB | 2/3 | ggml-org/llama.cpp#2011, ollama/ollama#434 |
/// | 36 GiB (M3 Max, M4 Max) | 28,991.03 MB = 27 GiB | 3/4 | ggml-org/llama.cpp#7060 |
/// | 48 GiB (M5 Pro) | ~36 GB | 3/4 | osaurus-ai/osaurus#1958 |
/// | 64 GiB (M1 Max) | 49,152.00 MiB = 48 GiB | 3/4 | ggml-org/llama.cpp#1870 |
/// | 96 GiB (M2 Max), 192 GiB (M2 Ultra) | 72 GB, 144 GB | 3/4 | raullenchai/Rapid-MLX#183 |
/// | 128 GiB (M3 Max) | 96 GB | 3/4 | raullenchai/Rapid-MLX#183 |
/// | 128 GiB (M5 Max, macOS 26) | 107.52 GiB | 0.84 | antirez/ds4#893, #890 |
/// | 16 GiB (M3, 2026) | 11.84 GiB | 0.74 | AlexsJones/llmfit#754 |
///
/// The last two show newer macOS giving the GPU more than this rule (gpustack/gpustack#1375
/// calls the share "75 %"); three points do not pin the newer rule, so the estimate keeps the
/// older one, which is at or below every measured figure: it errs low, never high. Metal's
/// measured figure (`macos.gpu_working_set_bytes`) replaces it ([`apple_gpu_working_set`]).
pub fn default_working_set(ram: u64) -> u64 {
    if ram < DEFAULT_SHARE_BOUNDARY_BYTES {
        ram / 3 * 2
    } else {
        ram / 4 * 3
    }
}

/// The GPU working-set limit of a Mac profile with an Apple GPU, in this order: Metal's
/// measured `recommendedMaxWorkingSetSize` (`macos.gpu_working_set_bytes`, which follows an
/// `iogpu.wired_limit_mb` override: AlexsJones/llmfit#754, antirez/ds4#893), else
/// `iogpu.wired_limit_mb` when set, else the default share of the RAM (`hw.memsize`); each at
/// most the RAM. `None` without an Apple GPU or with the RAM unknown.
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
    let mac = profile.macos.as_ref();
    let set = mac.and_then(|m| m.gpu_wired_limit_bytes);
    let measured = mac.and_then(|m| m.gpu_working_set_bytes);
    let at_default = set.is_none();
    Some(match (measured, set) {
        (Some(b), _) | (None, Some(b)) => GpuWorkingSet {
            bytes: b.min(ram),
            source: Provenance::Detected,
            at_default,
        },
        (None, None) => GpuWorkingSet {
            bytes: default_working_set(ram),
            source: Provenance::Estimated,
            at_default,
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
        // 36 GiB → 27 GiB: 28991.03 MB (10^6 B) is 28,991,029,248 B = 27 × 2^30.
        assert_eq!(default_working_set(36 << 30), 28_991_029_248);
        // 48 GiB → 36 GiB; 96 GiB → 72 GiB; 192 GiB → 144 GiB.
        assert_eq!(default_working_set(48 << 30), 36 << 30);
        assert_eq!(default_working_set(96 << 30), 72 << 30);
        assert_eq!(default_working_set(192 << 30), 144 << 30);
        // 24 GiB (below the boundary) → 16 GiB.
        assert_eq!(default_working_set(24 << 30), 16 << 30);
    }

    #[test]
    fn metals_measured_figure_replaces_the_estimate() {
        use crate::profile::MacOs;
        let mut p = MachineProfile::unknown();
        p.memory.total_bytes = Some(128 << 30);
        p.gpus = vec![crate::probe::gpu::apple::apple_gpu(Some(
            "Apple M5 Max".into(),
        ))];
        // Without Metal's figure: the estimate, 96 GiB, at the default.
        let ws = apple_gpu_working_set(&p).unwrap();
        assert_eq!(
            (ws.bytes, ws.source, ws.at_default),
            (96 << 30, Provenance::Estimated, true)
        );
        // With it: 107.52 GiB measured on a 128 GiB M5 Max (antirez/ds4#893), still the
        // default share (no override), now detected.
        let measured = 10752 * (1u64 << 30) / 100;
        p.macos = Some(MacOs {
            gpu_working_set_bytes: Some(measured),
            ..Default::default()
        });
        let ws = apple_gpu_working_set(&p).unwrap();
        assert_eq!(
            (ws.bytes, ws.source, ws.at_default),
            (measured, Provenance::Detected, true)
        );
        // With iogpu.wired_limit_mb = 114688 Metal answers 112 GiB: an override.
        p.macos = Some(MacOs {
            gpu_working_set_bytes: Some(112 << 30),
            gpu_wired_limit_bytes: Some(114_688 << 20),
            ..Default::default()
        });
        let ws = apple_gpu_working_set(&p).unwrap();
        assert_eq!((ws.bytes, ws.at_default), (112 << 30, false));
    }
}
