//! Turns raw NVML readings into profile GPUs. Pure: the real NVML source and the fake scenarios
//! both feed this, so the tests exercise the same conversion the product uses.

use super::GpuProbe;
use crate::profile::{Gpu, GpuVendor, Note, NoteId, PcieLink};

/// One NVML query's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading<T> {
    /// The value.
    Value(T),
    /// NVML says the device does not support the query (`NVML_ERROR_NOT_SUPPORTED`).
    NotSupported,
    /// Any other error, as text.
    Failed(String),
}

impl<T> Reading<T> {
    /// The value, or `None`.
    pub fn ok(self) -> Option<T> {
        match self {
            Reading::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// Everything read from one NVIDIA device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NvidiaReading {
    /// `nvmlDeviceGetName`.
    pub name: Reading<String>,
    /// `nvmlDeviceGetMemoryInfo`: (total, used) bytes.
    pub memory: Reading<(u64, u64)>,
    /// Link generation now, max for GPU + slot, max of the GPU alone; width now and max.
    pub pcie: PcieLink,
    /// `nvmlDeviceGetUtilizationRates().gpu`, percent.
    pub utilization: Option<u32>,
    /// `nvmlDeviceGetPciInfo().bus_id`.
    pub pci_bus_id: Option<String>,
    /// `nvmlDeviceGetUUID`.
    pub uuid: Option<String>,
    /// `nvmlDeviceGetPcieThroughput` for TX (GPU → host) and RX (host → GPU), in NVML's KB/s
    /// over a 20 ms window; `None` where unsupported (vGPU, pre-Maxwell).
    pub pcie_throughput_kb_per_s: (Option<u32>, Option<u32>),
}

/// NVML's "KB/s" read as 1000 bytes per KB. Assumption: NVML documents the unit only as
/// "KB/s", and `nvidia-smi dmon` divides by 1000 to print MB/s; at most 2.4 % off if the KB
/// were binary.
pub const NVML_KB: f64 = 1000.0;

/// The state of NVML on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NvmlState {
    /// `nvmlInit` failed or the library is missing; the error text.
    Unavailable(String),
    /// NVML works: the driver version and one entry per device index (an `Err` when the device
    /// handle itself could not be obtained, e.g. a GPU fallen off the bus).
    Ready {
        /// `nvmlSystemGetDriverVersion`.
        driver: Option<String>,
        /// Devices by index.
        devices: Vec<Result<NvidiaReading, String>>,
    },
}

/// Names of NVIDIA parts whose GPU shares LPDDR5X system memory (no VRAM of its own):
/// GB10 (DGX Spark). Source: NVIDIA DGX Spark hardware overview ("128 GB LPDDR5x coherent
/// unified system memory").
const UNIFIED_NAMES: &[&str] = &["GB10"];

/// Converts NVML readings into GPUs and notes.
pub fn nvidia_gpus(state: NvmlState) -> GpuProbe {
    let (driver, devices) = match state {
        NvmlState::Unavailable(error) => {
            return GpuProbe {
                gpus: Vec::new(),
                notes: vec![Note {
                    id: NoteId::NvmlUnavailable,
                    detail: Some(error),
                }],
            };
        }
        NvmlState::Ready { driver, devices } => (driver, devices),
    };
    let mut probe = GpuProbe::default();
    for (index, device) in devices.into_iter().enumerate() {
        let index = index as u32;
        let r = match device {
            Ok(r) => r,
            Err(e) => {
                probe.notes.push(Note {
                    id: NoteId::GpuQueryFailed,
                    detail: Some(format!("GPU {index}: {e}")),
                });
                continue;
            }
        };
        let name = r.name.ok();
        let named_unified = name
            .as_deref()
            .is_some_and(|n| UNIFIED_NAMES.iter().any(|u| n.contains(u)));
        let (vram_total, vram_used, unified) = match r.memory {
            Reading::Value((total, used)) if !named_unified && total > 0 => {
                (Some(total), Some(used), false)
            }
            Reading::Value(_) | Reading::NotSupported => {
                // NVML reports memory info unsupported on unified-memory parts (GB10); host
                // RAM is the pool (nvitop falls back the same way).
                probe.notes.push(Note {
                    id: NoteId::GpuMemoryUnsupported,
                    detail: Some(format!("GPU {index}")),
                });
                (None, None, true)
            }
            Reading::Failed(e) => {
                probe.notes.push(Note {
                    id: NoteId::GpuQueryFailed,
                    detail: Some(format!("GPU {index} memory: {e}")),
                });
                (None, None, named_unified)
            }
        };
        let has_link = r.pcie != PcieLink::default();
        probe.gpus.push(Gpu {
            index,
            vendor: GpuVendor::Nvidia,
            name,
            vram_total_bytes: vram_total,
            vram_used_bytes: vram_used,
            unified_memory: unified,
            pcie: has_link.then_some(r.pcie),
            driver_version: driver.clone(),
            utilization_percent: r.utilization,
            pci_bus_id: r.pci_bus_id,
            uuid: r.uuid,
            pcie_tx_bytes_per_s: r.pcie_throughput_kb_per_s.0.map(|k| f64::from(k) * NVML_KB),
            pcie_rx_bytes_per_s: r.pcie_throughput_kb_per_s.1.map(|k| f64::from(k) * NVML_KB),
        });
    }
    probe
}
