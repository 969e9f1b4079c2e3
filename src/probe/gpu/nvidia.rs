//! Turns raw NVML readings into profile GPUs. Pure: the real NVML source and the fake scenarios
//! both feed this, so the tests exercise the same conversion the product uses.

use super::GpuProbe;
use crate::profile::{FieldStatus, Gpu, GpuStatus, GpuVendor, Note, NoteId, PcieLink};

/// One NVML query's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading<T> {
    /// The value.
    Value(T),
    /// NVML says the device does not support the query (`NVML_ERROR_NOT_SUPPORTED`).
    NotSupported,
    /// The driver does not have this function (a missing symbol, `NVML_ERROR_FUNCTION_NOT_FOUND`
    /// or `NVML_ERROR_ARGUMENT_VERSION_MISMATCH`: a driver older than the call's version).
    Missing,
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

    /// The outcome without the value, for the profile's per-field status. A missing function
    /// counts as "unsupported": this driver can't answer.
    pub fn status(&self) -> FieldStatus {
        match self {
            Reading::Value(_) => FieldStatus::Value,
            Reading::NotSupported | Reading::Missing => FieldStatus::Unsupported,
            Reading::Failed(e) => FieldStatus::Error(e.clone()),
        }
    }
}

/// Several queries behind one field (the PCIe link takes four): a value when any of them gave
/// one, "not supported" when all said so, else the first error.
pub fn combined_status<T>(parts: &[&Reading<T>]) -> Reading<()> {
    if parts.iter().any(|r| matches!(r, Reading::Value(_))) {
        return Reading::Value(());
    }
    parts
        .iter()
        .find_map(|r| match r {
            Reading::Failed(e) => Some(Reading::Failed(e.clone())),
            _ => None,
        })
        .unwrap_or(Reading::NotSupported)
}

/// The memory reading to use: `nvmlDeviceGetMemoryInfo_v2` (drivers from R510 on), else the
/// original `nvmlDeviceGetMemoryInfo` when the driver lacks v2. `v1` is asked only then.
pub fn memory_v2_then_v1(
    v2: Reading<(u64, u64)>,
    v1: impl FnOnce() -> Reading<(u64, u64)>,
) -> Reading<(u64, u64)> {
    match v2 {
        Reading::Missing => v1(),
        other => other,
    }
}

/// Everything read from one NVIDIA device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NvidiaReading {
    /// NVML's index (`nvmlDeviceGetIndex`, as `nvidia-smi` numbers GPUs); `None` to number
    /// devices in the order given.
    pub index: Option<u32>,
    /// `nvmlDeviceGetName`.
    pub name: Reading<String>,
    /// `nvmlDeviceGetMemoryInfo_v2`, else v1 ([`memory_v2_then_v1`]): (total, used) bytes.
    pub memory: Reading<(u64, u64)>,
    /// Link generation now, max for GPU + slot, max of the GPU alone; width now and max.
    pub pcie: PcieLink,
    /// How the link queries went together ([`combined_status`]).
    pub pcie_status: Reading<()>,
    /// `nvmlDeviceGetUtilizationRates().gpu`, percent.
    pub utilization: Reading<u32>,
    /// `nvmlDeviceGetPciInfo().bus_id`, or the bus id the device was opened by.
    pub pci_bus_id: Option<String>,
    /// `nvmlDeviceGetUUID`.
    pub uuid: Reading<String>,
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
    /// NVML works: the driver version and one entry per device (an `Err` when the device
    /// handle itself could not be obtained, e.g. a GPU fallen off the bus).
    Ready {
        /// `nvmlSystemGetDriverVersion`.
        driver: Option<String>,
        /// Devices, in PCI address order (NVML's index order).
        devices: Vec<Result<NvidiaReading, String>>,
        /// PCI bus ids of NVIDIA GPUs found asleep (runtime-suspended) in sysfs and left
        /// unopened, so as not to wake them.
        suspended: Vec<String>,
    },
}

/// Names of NVIDIA parts whose GPU shares LPDDR5X system memory (no VRAM of its own):
/// GB10 (DGX Spark). Source: NVIDIA DGX Spark hardware overview ("128 GB LPDDR5x coherent
/// unified system memory").
const UNIFIED_NAMES: &[&str] = &["GB10"];

/// True for a part known to share system memory (a positive signal): its name has one of the
/// known unified parts' names as a word ("NVIDIA GB10", not "GB100").
pub fn known_unified(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| UNIFIED_NAMES.contains(&word))
}

/// Converts NVML readings into GPUs and notes. Unified memory is concluded only from a known
/// unified part's name; a memory size the driver can't give ("not supported", a missing
/// function, an error, or 0) leaves VRAM unknown, with a note and the field's status.
pub fn nvidia_gpus(state: NvmlState) -> GpuProbe {
    let (driver, devices, suspended) = match state {
        NvmlState::Unavailable(error) => {
            return GpuProbe {
                gpus: Vec::new(),
                notes: vec![Note {
                    id: NoteId::NvmlUnavailable,
                    detail: Some(error),
                }],
            };
        }
        NvmlState::Ready {
            driver,
            devices,
            suspended,
        } => (driver, devices, suspended),
    };
    let mut probe = GpuProbe::default();
    for (position, device) in devices.into_iter().enumerate() {
        let r = match device {
            Ok(r) => r,
            Err(e) => {
                probe.notes.push(Note {
                    id: NoteId::GpuQueryFailed,
                    detail: Some(format!("GPU {position}: {e}")),
                });
                continue;
            }
        };
        let index = r.index.unwrap_or(position as u32);
        let memory_status = r.memory.status();
        let name = r.name.ok();
        let named_unified = name.as_deref().is_some_and(known_unified);
        let (vram_total, vram_used, unified) = match r.memory {
            _ if named_unified => (None, None, true),
            Reading::Value((total, used)) if total > 0 => (Some(total), Some(used), false),
            Reading::Value(_) | Reading::NotSupported | Reading::Missing => {
                probe.notes.push(Note {
                    id: NoteId::GpuMemoryUnsupported,
                    detail: Some(format!("GPU {index}")),
                });
                (None, None, false)
            }
            Reading::Failed(e) => {
                probe.notes.push(Note {
                    id: NoteId::GpuQueryFailed,
                    detail: Some(format!("GPU {index} memory: {e}")),
                });
                (None, None, false)
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
            status: GpuStatus {
                memory: Some(memory_status),
                pcie: Some(r.pcie_status.status()),
                utilization: Some(r.utilization.status()),
                uuid: Some(r.uuid.status()),
            },
            utilization_percent: r.utilization.ok(),
            pci_bus_id: r.pci_bus_id,
            uuid: r.uuid.ok(),
            pcie_tx_bytes_per_s: r.pcie_throughput_kb_per_s.0.map(|k| f64::from(k) * NVML_KB),
            pcie_rx_bytes_per_s: r.pcie_throughput_kb_per_s.1.map(|k| f64::from(k) * NVML_KB),
        });
    }
    for bus_id in suspended {
        probe.notes.push(Note {
            id: NoteId::GpuSuspended,
            detail: Some(bus_id),
        });
    }
    probe
}
