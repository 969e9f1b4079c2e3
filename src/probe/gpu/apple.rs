//! Apple Silicon: the GPU shares the SoC's unified memory; there is no separate VRAM.

use crate::profile::{Gpu, GpuVendor};

/// The one integrated GPU of an Apple Silicon Mac, named after its SoC (`machdep.cpu.brand_string`,
/// e.g. "Apple M4 Max"): unified memory, no VRAM, no PCIe link. Pure, so that a Mac's profile
/// can be built from captured `sysctl` text on any system.
pub fn apple_gpu(name: Option<String>) -> Gpu {
    Gpu {
        index: 0,
        vendor: GpuVendor::Apple,
        name,
        vram_total_bytes: None,
        vram_used_bytes: None,
        unified_memory: true,
        carveout_bytes: None,
        gtt_bytes: None,
        pcie: None,
        driver_version: None,
        utilization_percent: None,
        pci_bus_id: None,
        uuid: None,
        pcie_tx_bytes_per_s: None,
        pcie_rx_bytes_per_s: None,
        status: Default::default(),
        processes: None,
    }
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
