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

    /// The value passed through `f`; the other outcomes as they were.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Reading<U> {
        match self {
            Reading::Value(v) => Reading::Value(f(v)),
            Reading::NotSupported => Reading::NotSupported,
            Reading::Missing => Reading::Missing,
            Reading::Failed(e) => Reading::Failed(e),
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
/// original `nvmlDeviceGetMemoryInfo` when the driver lacks v2 or answers it "not supported"
/// (seen on boards and vGPU profiles whose driver implements only v1). `v1` is asked only
/// then; when v1 can't answer either, v2's "not supported" is kept. An error from v2 (a GPU
/// lost) is not retried.
pub fn memory_v2_then_v1(
    v2: Reading<(u64, u64)>,
    v1: impl FnOnce() -> Reading<(u64, u64)>,
) -> Reading<(u64, u64)> {
    match v2 {
        Reading::Missing | Reading::NotSupported => match v1() {
            Reading::Missing => v2,
            answer => answer,
        },
        other => other,
    }
}

/// The most devices an NVML count is believed: the largest single hosts carry 16 to 20 GPUs
/// (HGX/DGX boards hold 8; PCIe servers up to 20), so a count above 256 is garbage, not a
/// machine. Assumption, with a wide margin.
pub const MAX_NVML_DEVICES: u32 = 256;

/// Largest believable GPU memory size, bytes: 16 TiB, far above any board (B300: 288 GB).
/// Assumption, with a wide margin; a larger total is a garbage reading.
pub const MAX_VRAM_BYTES: u64 = 16 << 40;

/// The text of a string NVML wrote into `bytes` (the buffer it was given): up to the first
/// NUL. A buffer without a terminator, text that is not UTF-8, or an empty string is a failed
/// reading (NVML documents NUL-terminated ASCII), never read past the buffer.
pub fn nvml_text(bytes: &[u8]) -> Reading<String> {
    let Some(end) = bytes.iter().position(|b| *b == 0) else {
        return Reading::Failed(format!("no terminator in {} bytes", bytes.len()));
    };
    match std::str::from_utf8(&bytes[..end]) {
        Ok("") => Reading::Failed("empty string".into()),
        Ok(t) => Reading::Value(t.to_string()),
        Err(e) => Reading::Failed(format!("not UTF-8: {e}")),
    }
}

/// A PCIe link as NVML reported it, with impossible values made unknown: generations 1 to 7
/// (PCIe 7.0 is the newest specification), widths 1 to 32 lanes (the largest the PCIe
/// specification defines).
fn plausible_link(p: PcieLink) -> PcieLink {
    let generation = |g: Option<u32>| g.filter(|g| (1..=7).contains(g));
    let width = |w: Option<u32>| w.filter(|w| (1..=32).contains(w));
    PcieLink {
        gen_current: generation(p.gen_current),
        gen_max: generation(p.gen_max),
        gen_gpu_max: generation(p.gen_gpu_max),
        width_current: width(p.width_current),
        width_max: width(p.width_max),
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
    /// `nvmlDeviceGetMigMode`'s current mode: `Some(true)` when the GPU is split into MIG
    /// instances (A100, H100 and later); `None` where unsupported or unread.
    pub mig_enabled: Option<bool>,
    /// `nvmlDeviceGetComputeRunningProcesses_v3`, each with its name: the processes holding
    /// memory on the device.
    pub processes: Reading<Vec<ProcessReading>>,
}

/// One compute process as NVML lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessReading {
    /// `nvmlProcessInfo_t.pid`.
    pub pid: u32,
    /// `nvmlSystemGetProcessName(pid)`: untrusted text.
    pub name: Reading<String>,
    /// `nvmlProcessInfo_t.usedGpuMemory`, bytes; `None` for `NVML_VALUE_NOT_AVAILABLE`.
    pub used_bytes: Option<u64>,
}

/// Longest process name kept, bytes: 256. Assumption: Linux caps `comm` at 15 bytes and NVML
/// returns a path at most as long as the caller's buffer (nvidia-smi asks for 64 bytes); the
/// rest is cut at a character boundary.
pub const MAX_PROCESS_NAME_BYTES: usize = 256;

/// The processes of one GPU as the profile keeps them: names on one line
/// ([`crate::sanitize::one_line`]) and at most [`MAX_PROCESS_NAME_BYTES`] long, a size above the
/// GPU's total (or [`MAX_VRAM_BYTES`]) unknown, the largest holders first and at most
/// [`crate::profile::MAX_GPU_PROCESSES`] of them. A list NVML couldn't give is `None`.
pub fn gpu_processes(
    reading: Reading<Vec<ProcessReading>>,
    total: Option<u64>,
) -> Option<Vec<crate::profile::GpuProcess>> {
    let limit = total.unwrap_or(MAX_VRAM_BYTES).min(MAX_VRAM_BYTES);
    let mut list: Vec<_> = reading
        .ok()?
        .into_iter()
        .map(|p| crate::profile::GpuProcess {
            pid: p.pid,
            name: p.name.ok().map(|n| {
                let mut n = crate::sanitize::one_line(&n).into_owned();
                if n.len() > MAX_PROCESS_NAME_BYTES {
                    let mut end = MAX_PROCESS_NAME_BYTES;
                    while !n.is_char_boundary(end) {
                        end -= 1;
                    }
                    n.truncate(end);
                }
                n
            }),
            used_bytes: p.used_bytes.filter(|b| *b <= limit),
        })
        .collect();
    list.sort_by(|a, b| b.used_bytes.cmp(&a.used_bytes).then(a.pid.cmp(&b.pid)));
    list.truncate(crate::profile::MAX_GPU_PROCESSES);
    Some(list)
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
        let index = r
            .index
            .filter(|i| *i < MAX_NVML_DEVICES)
            .unwrap_or(position as u32);
        // Garbage sizes are unknown: a total of 0 or past any board, used past the total.
        let memory = match r.memory {
            Reading::Value((total, _)) if total > MAX_VRAM_BYTES => {
                Reading::Failed(format!("implausible total of {total} bytes"))
            }
            other => other,
        };
        let memory_status = memory.status();
        if let Reading::Failed(e) = &r.name {
            probe.notes.push(Note {
                id: NoteId::GpuQueryFailed,
                detail: Some(format!("GPU {index} name: {e}")),
            });
        }
        let name = r.name.ok();
        let named_unified = name.as_deref().is_some_and(known_unified);
        let (vram_total, vram_used, unified) = match memory {
            _ if named_unified => (None, None, true),
            Reading::Value((total, used)) if total > 0 => {
                (Some(total), Some(used).filter(|u| *u <= total), false)
            }
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
        if r.mig_enabled == Some(true) {
            probe.notes.push(Note {
                id: NoteId::GpuMigEnabled,
                detail: Some(format!("GPU {index}")),
            });
        }
        let pcie = plausible_link(r.pcie);
        let has_link = pcie != PcieLink::default();
        probe.gpus.push(Gpu {
            index,
            vendor: GpuVendor::Nvidia,
            name,
            vram_total_bytes: vram_total,
            vram_used_bytes: vram_used,
            unified_memory: unified,
            carveout_bytes: None,
            gtt_bytes: None,
            pcie: has_link.then_some(pcie),
            driver_version: driver.clone(),
            status: GpuStatus {
                memory: Some(memory_status),
                pcie: Some(r.pcie_status.status()),
                utilization: Some(r.utilization.status()),
                uuid: Some(r.uuid.status()),
            },
            utilization_percent: r.utilization.ok().filter(|u| *u <= 100),
            pci_bus_id: r.pci_bus_id,
            uuid: r.uuid.ok(),
            pcie_tx_bytes_per_s: r.pcie_throughput_kb_per_s.0.map(|k| f64::from(k) * NVML_KB),
            pcie_rx_bytes_per_s: r.pcie_throughput_kb_per_s.1.map(|k| f64::from(k) * NVML_KB),
            processes: gpu_processes(r.processes, vram_total),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvml_text_stops_at_the_buffer() {
        assert_eq!(
            nvml_text(b"NVIDIA GB10\0garbage"),
            Reading::Value("NVIDIA GB10".into())
        );
        assert!(matches!(nvml_text(&[b'A'; 96]), Reading::Failed(e) if e.contains("96 bytes")));
        assert!(matches!(nvml_text(b"\xff\xfeA\0"), Reading::Failed(e) if e.contains("UTF-8")));
        assert!(matches!(nvml_text(b"\0"), Reading::Failed(_)));
    }

    #[test]
    fn process_lists_are_cleaned_capped_and_unknown_when_unread() {
        // A name that would start a new line of output and reverse the text after it, and one
        // 300 bytes long of two-byte characters.
        let hostile = "evil\nGPU 1: 0 GiB held\u{202e}";
        let long = "é".repeat(150);
        let mut list = vec![
            ProcessReading {
                pid: 7,
                name: Reading::Value(hostile.into()),
                used_bytes: Some(1 << 30),
            },
            ProcessReading {
                pid: 8,
                name: Reading::Value(long),
                // Past the card's 24 GiB: a garbage size is unknown.
                used_bytes: Some(25 << 30),
            },
        ];
        // 100 processes of 1 MiB each: only the 64 largest holders are kept.
        list.extend((100..200).map(|pid| ProcessReading {
            pid,
            name: Reading::Missing,
            used_bytes: Some(1 << 20),
        }));
        let kept = gpu_processes(Reading::Value(list), Some(24 << 30)).unwrap();
        assert_eq!(kept.len(), 64);
        assert_eq!(kept[0].pid, 7);
        assert_eq!(
            kept[0].name.as_deref(),
            Some("evil\\nGPU 1: 0 GiB held\\u{202e}")
        );
        assert_eq!(kept[1].pid, 100, "1 MiB holders next, by pid");
        let long = kept.iter().find(|p| p.pid == 8);
        assert!(
            long.is_none(),
            "an unsized holder sorts last and is cut with the rest"
        );
        let two = gpu_processes(
            Reading::Value(vec![ProcessReading {
                pid: 8,
                name: Reading::Value("é".repeat(150)),
                used_bytes: Some(25 << 30),
            }]),
            Some(24 << 30),
        )
        .unwrap();
        // 256 bytes is 128 two-byte characters.
        assert_eq!(two[0].name.as_deref().map(str::len), Some(256));
        assert_eq!(two[0].used_bytes, None);
        // A list NVML couldn't give is unknown, never "no process".
        for r in [
            Reading::NotSupported,
            Reading::Missing,
            Reading::Failed("Insufficient Permissions".into()),
        ] {
            assert_eq!(gpu_processes(r, Some(24 << 30)), None);
        }
        assert_eq!(
            gpu_processes(Reading::Value(Vec::new()), None),
            Some(Vec::new())
        );
    }

    #[test]
    fn v1_is_asked_when_v2_is_missing_or_not_supported_only() {
        let v1 = || Reading::Value((48 << 30, 1 << 30));
        assert_eq!(memory_v2_then_v1(Reading::NotSupported, v1), v1());
        assert_eq!(memory_v2_then_v1(Reading::Missing, v1), v1());
        // v1 missing too: v2's "not supported" stays.
        assert_eq!(
            memory_v2_then_v1(Reading::NotSupported, || Reading::Missing),
            Reading::NotSupported
        );
        let lost = Reading::Failed("GPU is lost".into());
        assert_eq!(
            memory_v2_then_v1(lost.clone(), || panic!("not asked")),
            lost
        );
    }
}
