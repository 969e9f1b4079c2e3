//! GPUs: one interface, one implementation per vendor, and a fake for tests.
//!
//! - NVIDIA through NVML ([`nvml`]), loaded at run time; its error is kept as a note.
//! - AMD (and NVIDIA when NVML is missing) through Linux sysfs ([`sysfs`]).
//! - Apple Silicon: unified memory ([`apple`]; read on macOS only).
//! - AMD APUs and NVIDIA Jetson modules, which share system RAM ([`soc`]).
//! - [`fake`]: named scenarios (8×H100, NVML missing, one GPU failing, memory info unsupported)
//!   that go through the same conversion code as NVML.

pub mod apple;
pub mod fake;
pub mod nvidia;
pub mod nvml;
pub mod soc;
mod source;
pub mod sysfs;

pub use source::{GpuProbe, GpuSource};

use crate::profile::Gpu;

/// The GPU sources of this platform, combined: NVML for NVIDIA, sysfs for AMD and for NVIDIA
/// cards NVML could not reach, and unified memory on Apple Silicon.
pub struct SystemGpus;

impl GpuSource for SystemGpus {
    /// macOS: the Apple GPU only (no NVIDIA driver exists for current macOS, so NVML is not
    /// tried and no "NVML unavailable" note is made).
    #[cfg(target_os = "macos")]
    fn probe(&self) -> GpuProbe {
        GpuProbe {
            gpus: apple::apple_gpus(),
            notes: Vec::new(),
        }
    }

    #[cfg(not(target_os = "macos"))]
    fn probe(&self) -> GpuProbe {
        let nvml = nvml::NvmlSource.probe();
        let nvml_ok = !nvml
            .notes
            .iter()
            .any(|n| n.id == crate::profile::NoteId::NvmlUnavailable);
        let mut out = merge(nvml, sysfs::pci_gpus(std::path::Path::new("/sys")), nvml_ok);
        // A Jetson's GPU sits on no PCI bus and NVML does not list it (before Thor): the
        // device tree tells.
        if !out
            .gpus
            .iter()
            .any(|g| g.vendor == crate::profile::GpuVendor::Nvidia)
        {
            let small = |p: &str| {
                use std::io::Read;
                let mut buf = Vec::new();
                std::fs::File::open(p)
                    .and_then(|f| f.take(4096).read_to_end(&mut buf))
                    .map(|_| buf)
                    .unwrap_or_default()
            };
            let compatible = small("/proc/device-tree/compatible");
            if let Some(mut gpu) = soc::tegra_gpu(&compatible, &small("/proc/device-tree/model")) {
                gpu.index = out.gpus.len() as u32;
                out.gpus.push(gpu);
            }
        }
        out
    }
}

/// Combines NVML's list with the sysfs list: every non-NVIDIA GPU from sysfs is added; NVIDIA
/// GPUs from sysfs are added only when NVML was unavailable (then with VRAM unknown).
/// Indices are renumbered after NVML's.
pub fn merge(nvml: GpuProbe, sysfs: Vec<Gpu>, nvml_ok: bool) -> GpuProbe {
    let mut out = nvml;
    let mut next = out
        .gpus
        .iter()
        .map(|g| g.index.saturating_add(1))
        .max()
        .unwrap_or(0);
    for mut gpu in sysfs {
        if gpu.vendor == crate::profile::GpuVendor::Nvidia && nvml_ok {
            continue;
        }
        gpu.index = next;
        next = next.saturating_add(1);
        out.gpus.push(gpu);
    }
    out
}
