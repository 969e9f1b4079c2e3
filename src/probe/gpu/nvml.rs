//! NVIDIA GPUs through NVML (`libnvidia-ml`, loaded at run time: ramvram builds and runs
//! without the NVIDIA driver, and reports why NVML is unavailable instead of failing).
//!
//! Devices are found in sysfs first and opened by PCI bus id, so that a GPU the kernel has put
//! to sleep (runtime power management, common on laptops) is left asleep with a note instead of
//! being woken by NVML; where sysfs lists no NVIDIA GPU, devices are opened by index.

use std::sync::OnceLock;

use nvml_wrapper::Nvml;
use nvml_wrapper::enum_wrappers::device::PcieUtilCounter;
use nvml_wrapper::error::NvmlError;

use super::nvidia::{
    MAX_NVML_DEVICES, NvidiaReading, NvmlState, ProcessReading, Reading, combined_status,
    memory_v2_then_v1, nvidia_gpus, nvml_text,
};
use super::{GpuProbe, GpuSource};
use crate::profile::PcieLink;

/// NVML, initialised once per process; the init error is kept and reported, never a panic.
pub(crate) fn nvml() -> &'static Result<Nvml, String> {
    static NVML: OnceLock<Result<Nvml, String>> = OnceLock::new();
    NVML.get_or_init(|| Nvml::init().map_err(|e| e.to_string()))
}

/// The real NVML source.
pub struct NvmlSource;

impl GpuSource for NvmlSource {
    fn probe(&self) -> GpuProbe {
        nvidia_gpus(read_state())
    }
}

/// `NVML_ERROR_ARGUMENT_VERSION_MISMATCH` (nvml.h), which nvml-wrapper 0.13 has no name for.
const ARGUMENT_VERSION_MISMATCH: u32 = 25;

fn reading<T>(r: Result<T, NvmlError>) -> Reading<T> {
    match r {
        Ok(v) => Reading::Value(v),
        Err(NvmlError::NotSupported) => Reading::NotSupported,
        Err(NvmlError::FailedToLoadSymbol(_) | NvmlError::FunctionNotFound) => Reading::Missing,
        Err(NvmlError::UnexpectedVariant(ARGUMENT_VERSION_MISMATCH)) => Reading::Missing,
        Err(e) => Reading::Failed(e.to_string()),
    }
}

fn read_state() -> NvmlState {
    match nvml() {
        Ok(n) => state_with(n, std::path::Path::new("/sys")),
        Err(e) => NvmlState::Unavailable(e.clone()),
    }
}

/// Detection through an NVML already initialised (`Nvml::builder().lib_path(…)` in tests, which
/// load a stand-in library) with the PCI devices listed under `sys` (`/sys` in the product).
/// Never panics; what can't be read becomes notes.
pub fn probe_with(nvml: &Nvml, sys: &std::path::Path) -> GpuProbe {
    nvidia_gpus(state_with(nvml, sys))
}

fn state_with(nvml: &Nvml, sys: &std::path::Path) -> NvmlState {
    let listed = super::sysfs::nvidia_functions(sys);
    if listed.is_empty() {
        return by_index(nvml);
    }
    let mut devices = Vec::new();
    let mut suspended = Vec::new();
    for f in listed {
        if f.suspended {
            suspended.push(f.bus_id);
            continue;
        }
        match nvml.device_by_pci_bus_id(f.bus_id.as_str()) {
            Ok(d) => devices.push(Ok(read_device(nvml, &d, Some(f.bus_id)))),
            // Not visible to this process (a container given other GPUs): not ours to report.
            Err(NvmlError::NotFound) => {}
            Err(e) => devices.push(Err(format!("{}: {e}", f.bus_id))),
        }
    }
    NvmlState::Ready {
        driver: driver_version(nvml).ok(),
        devices,
        suspended,
    }
}

/// `nvmlDeviceGetCount`, believed up to [`MAX_NVML_DEVICES`]; a larger count is garbage.
fn device_count(nvml: &Nvml) -> Result<u32, String> {
    let count = nvml.device_count().map_err(|e| e.to_string())?;
    if count > MAX_NVML_DEVICES {
        return Err(format!(
            "nvmlDeviceGetCount: {count} devices is not plausible"
        ));
    }
    Ok(count)
}

/// The devices a live sampler may read every interval without waking a sleeping GPU: those
/// `sys` (`/sys`) lists awake, opened by PCI bus id (suspended and invisible ones skipped),
/// else every device by index where there is no sysfs. Detection ([`probe_with`]) walks the
/// same list and also reports what it skipped.
pub fn awake_devices<'n>(nvml: &'n Nvml, sys: &std::path::Path) -> Vec<nvml_wrapper::Device<'n>> {
    let listed = super::sysfs::nvidia_functions(sys);
    if listed.is_empty() {
        let count = device_count(nvml).unwrap_or(0);
        return (0..count)
            .filter_map(|i| nvml.device_by_index(i).ok())
            .collect();
    }
    listed
        .into_iter()
        .filter(|f| !f.suspended)
        .filter_map(|f| nvml.device_by_pci_bus_id(f.bus_id.as_str()).ok())
        .collect()
}

/// Memory in use on `d`, bytes: `nvmlDeviceGetMemoryInfo_v2`, else v1 on older drivers, as
/// detection reads it.
pub fn memory_used(nvml: &Nvml, d: &nvml_wrapper::Device<'_>) -> Option<u64> {
    memory_v2_then_v1(reading(d.memory_info().map(|m| (m.total, m.used))), || {
        memory_info_v1(nvml, d)
    })
    .ok()
    .map(|(_, used)| used)
}

/// Every device by index (no sysfs: another OS, or a container without `/sys/bus/pci`).
fn by_index(nvml: &Nvml) -> NvmlState {
    let count = match device_count(nvml) {
        Ok(c) => c,
        Err(e) => return NvmlState::Unavailable(e),
    };
    let devices = (0..count)
        .map(|i| {
            let d = nvml.device_by_index(i).map_err(|e| e.to_string())?;
            Ok(read_device(nvml, &d, None))
        })
        .collect();
    NvmlState::Ready {
        driver: driver_version(nvml).ok(),
        devices,
        suspended: Vec::new(),
    }
}

/// A device's string (`nvmlDeviceGetName`, `nvmlDeviceGetUUID`: the symbol's field in
/// `NvmlLib`) through [`string_call`]; `Missing` without the symbol.
macro_rules! device_string {
    ($nvml:expr, $symbol:ident, $device:expr, $length:expr) => {
        match $nvml.lib().$symbol.as_ref() {
            // SAFETY: the handle comes from a live `Device` of this `Nvml`; the buffer has
            // `length + 1` bytes and NVML is told `length`.
            Ok(sym) => string_call($length, |buf, len| unsafe {
                sym($device.handle(), buf, len)
            }),
            Err(_) => Reading::Missing,
        }
    };
}

fn read_device(nvml: &Nvml, d: &nvml_wrapper::Device<'_>, bus_id: Option<String>) -> NvidiaReading {
    let (gen_current, gen_max) = (
        reading(d.current_pcie_link_gen()),
        reading(d.max_pcie_link_gen()),
    );
    let (width_current, width_max) = (
        reading(d.current_pcie_link_width()),
        reading(d.max_pcie_link_width()),
    );
    let pcie_status = combined_status(&[&gen_current, &gen_max, &width_current, &width_max]);
    NvidiaReading {
        index: d.index().ok(),
        name: device_string!(nvml, nvmlDeviceGetName, d, NAME_BUFFER),
        memory: memory_v2_then_v1(reading(d.memory_info().map(|m| (m.total, m.used))), || {
            memory_info_v1(nvml, d)
        }),
        pcie: PcieLink {
            gen_current: gen_current.ok(),
            gen_max: gen_max.ok(),
            gen_gpu_max: gpu_max_link_gen(nvml, d),
            width_current: width_current.ok(),
            width_max: width_max.ok(),
        },
        pcie_status,
        utilization: reading(d.utilization_rates().map(|u| u.gpu)),
        pci_bus_id: pci_bus_id(nvml, d).ok().or(bus_id),
        uuid: device_string!(nvml, nvmlDeviceGetUUID, d, UUID_BUFFER),
        pcie_throughput_kb_per_s: (
            d.pcie_throughput(PcieUtilCounter::Send).ok(),
            d.pcie_throughput(PcieUtilCounter::Receive).ok(),
        ),
        // NVML_DEVICE_MIG_ENABLE is 1 (nvml.h).
        mig_enabled: d.mig_mode().ok().map(|m| m.current == 1),
        processes: compute_processes(nvml, d),
    }
}

/// Most compute processes read from one device before the list is cut to the profile's cap:
/// 1,024. A larger count is garbage and fails the reading. Assumption, with a wide margin.
const MAX_LISTED_PROCESSES: u32 = 1024;

/// `nvmlDeviceGetComputeRunningProcesses_v3` (the count first, then the list; nvml-wrapper's
/// `running_compute_processes`), each process named through `nvmlSystemGetProcessName`. What
/// `nvidia-smi --query-compute-apps=pid,process_name,used_memory` prints.
fn compute_processes(nvml: &Nvml, d: &nvml_wrapper::Device<'_>) -> Reading<Vec<ProcessReading>> {
    match reading(d.running_compute_processes_count()) {
        Reading::Value(0) => return Reading::Value(Vec::new()),
        Reading::Value(n) if n > MAX_LISTED_PROCESSES => {
            return Reading::Failed(format!("{n} compute processes is not plausible"));
        }
        Reading::Value(_) => {}
        other => return other.map(|_| Vec::new()),
    }
    reading(d.running_compute_processes()).map(|list| {
        list.into_iter()
            .take(MAX_LISTED_PROCESSES as usize)
            .map(|p| ProcessReading {
                pid: p.pid,
                name: process_name(nvml, p.pid),
                used_bytes: match p.used_gpu_memory {
                    nvml_wrapper::enums::device::UsedGpuMemory::Used(b) => Some(b),
                    nvml_wrapper::enums::device::UsedGpuMemory::Unavailable => None,
                },
            })
            .collect()
    })
}

/// The buffer given to `nvmlSystemGetProcessName`: 256 bytes. Assumption: NVML cuts the name
/// to the buffer; [`super::nvidia::MAX_PROCESS_NAME_BYTES`] is kept.
const PROCESS_NAME_BUFFER: u32 = 256;

/// `nvmlSystemGetProcessName` through [`string_call`] (nvml-wrapper's `sys_process_name` scans
/// past the buffer when the terminator is missing).
fn process_name(nvml: &Nvml, pid: u32) -> Reading<String> {
    let Ok(sym) = nvml.lib().nvmlSystemGetProcessName.as_ref() else {
        return Reading::Missing;
    };
    // SAFETY: the buffer has `length + 1` bytes and NVML is told `length`.
    string_call(PROCESS_NAME_BUFFER, |buf, len| unsafe {
        sym(pid, buf, len)
    })
}

/// `NVML_DEVICE_NAME_V2_BUFFER_SIZE`, `NVML_DEVICE_UUID_V2_BUFFER_SIZE` and
/// `NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE` (nvml.h): the buffer sizes NVML documents.
const NAME_BUFFER: u32 = 96;
const UUID_BUFFER: u32 = 96;
const DRIVER_BUFFER: u32 = 80;

/// Calls an NVML string function with a buffer one byte longer than NVML is told, so the
/// text always ends inside it, and reads the text with [`nvml_text`] (nvml-wrapper's own
/// string calls scan past the buffer when a library leaves out the terminator).
fn string_call(
    length: u32,
    call: impl FnOnce(*mut std::os::raw::c_char, std::os::raw::c_uint) -> u32,
) -> Reading<String> {
    let mut buffer = vec![0u8; length as usize + 1];
    let rc = call(buffer.as_mut_ptr().cast(), length);
    match reading(nvml_wrapper::error::nvml_try(rc)) {
        Reading::Value(()) => nvml_text(&buffer[..length as usize]),
        other => other.map(|()| String::new()),
    }
}

/// `nvmlSystemGetDriverVersion` through [`string_call`].
fn driver_version(nvml: &Nvml) -> Reading<String> {
    let Ok(sym) = nvml.lib().nvmlSystemGetDriverVersion.as_ref() else {
        return Reading::Missing;
    };
    // SAFETY: the buffer has `length + 1` bytes and NVML is told `length`.
    string_call(DRIVER_BUFFER, |buf, len| unsafe { sym(buf, len) })
}

/// `nvmlDeviceGetPciInfo_v3().busId`, read within its 32-byte field ([`nvml_text`]).
fn pci_bus_id(nvml: &Nvml, device: &nvml_wrapper::Device<'_>) -> Reading<String> {
    let Ok(sym) = nvml.lib().nvmlDeviceGetPciInfo_v3.as_ref() else {
        return Reading::Missing;
    };
    let mut info = PciInfoV3::default();
    // SAFETY: the handle comes from a live `Device` of this `Nvml`; the out-pointer refers to a
    // local with `nvmlPciInfo_t`'s layout that outlives the call.
    let rc = unsafe { sym(device.handle(), (&mut info as *mut PciInfoV3).cast()) };
    match reading(nvml_wrapper::error::nvml_try(rc)) {
        Reading::Value(()) => nvml_text(&info.bus_id),
        other => other.map(|()| String::new()),
    }
}

/// `nvmlPciInfo_t` (nvml.h, the v3 call's layout): the legacy 16-byte bus id, domain, bus,
/// device, PCI device id, subsystem id, and the 32-byte bus id.
#[repr(C)]
#[derive(Default)]
struct PciInfoV3 {
    bus_id_legacy: [u8; 16],
    domain: u32,
    bus: u32,
    device: u32,
    pci_device_id: u32,
    pci_subsystem_id: u32,
    bus_id: [u8; 32],
}

/// `nvmlDeviceGetMemoryInfo`, the original (v1) call, for drivers older than R510 that lack the
/// v2 call nvml-wrapper 0.13's `memory_info()` makes. Returns (total, used) bytes.
fn memory_info_v1(nvml: &Nvml, device: &nvml_wrapper::Device<'_>) -> Reading<(u64, u64)> {
    let Ok(sym) = nvml.lib().nvmlDeviceGetMemoryInfo.as_ref() else {
        return Reading::Missing;
    };
    let mut info = MemoryV1::default();
    // SAFETY: the handle comes from a live `Device` of this `Nvml`; the out-pointer refers to a
    // local with `nvmlMemory_t`'s layout (three `unsigned long long`, nvml.h) that outlives the
    // call.
    let rc = unsafe { sym(device.handle(), (&mut info as *mut MemoryV1).cast()) };
    match reading(nvml_wrapper::error::nvml_try(rc)) {
        Reading::Value(()) => Reading::Value((info.total, info.used)),
        Reading::NotSupported => Reading::NotSupported,
        Reading::Missing => Reading::Missing,
        Reading::Failed(e) => Reading::Failed(e),
    }
}

/// `nvmlMemory_t` (nvml.h): total, free and used bytes.
#[repr(C)]
#[derive(Default)]
struct MemoryV1 {
    total: u64,
    free: u64,
    used: u64,
}

/// `nvmlDeviceGetGpuMaxPcieLinkGeneration` (the GPU's own maximum, regardless of slot), which
/// nvml-wrapper 0.13 does not wrap. `None` when the driver lacks the symbol or the call fails.
fn gpu_max_link_gen(nvml: &Nvml, device: &nvml_wrapper::Device<'_>) -> Option<u32> {
    let sym = nvml
        .lib()
        .nvmlDeviceGetGpuMaxPcieLinkGeneration
        .as_ref()
        .ok()?;
    let mut generation: std::os::raw::c_uint = 0;
    // SAFETY: the handle comes from a live `Device` of this `Nvml`, and the out-pointer refers
    // to a local that outlives the call. NVML_SUCCESS is 0.
    let rc = unsafe { sym(device.handle(), &mut generation) };
    (rc == 0 && generation > 0).then_some(generation)
}
