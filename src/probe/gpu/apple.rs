//! Apple Silicon: the GPU shares the SoC's unified memory; there is no separate VRAM.

use crate::profile::{Gpu, GpuVendor};

/// The one integrated GPU of an Apple Silicon Mac, named after its SoC (`machdep.cpu.brand_string`,
/// e.g. "Apple M4 Max"): unified memory, no VRAM, no PCIe link. Pure, so that a Mac's profile
/// can be built from captured `sysctl` text on any system.
pub fn apple_gpu(name: Option<String>) -> Gpu {
    Gpu::integrated(GpuVendor::Apple, name)
}

/// This Mac's GPU: one on Apple Silicon, none on Intel Macs (whose discrete GPUs are not
/// training targets).
#[cfg(target_os = "macos")]
pub fn apple_gpus() -> Vec<Gpu> {
    if std::env::consts::ARCH != "aarch64" {
        return Vec::new();
    }
    let name = sysinfo::System::new_with_specifics(
        sysinfo::RefreshKind::nothing().with_cpu(sysinfo::CpuRefreshKind::nothing()),
    )
    .ok()
    .and_then(|s| s.cpus().first().map(|c| c.brand().trim().to_string()))
    .filter(|n| !n.is_empty());
    vec![apple_gpu(name)]
}
