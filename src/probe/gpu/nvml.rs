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
    NvidiaReading, NvmlState, Reading, combined_status, memory_v2_then_v1, nvidia_gpus,
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
    let nvml = match nvml() {
        Ok(n) => n,
        Err(e) => return NvmlState::Unavailable(e.clone()),
    };
    let listed = super::sysfs::nvidia_functions(std::path::Path::new("/sys"));
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
        driver: nvml.sys_driver_version().ok(),
        devices,
        suspended,
    }
}

/// The devices a live sampler may read every interval without waking a sleeping GPU: those
/// sysfs lists awake, opened by PCI bus id (suspended and invisible ones skipped), else every
/// device by index where there is no sysfs. Detection ([`read_state`]) walks the same list
/// and also reports what it skipped.
pub(crate) fn awake_devices(nvml: &Nvml) -> Vec<nvml_wrapper::Device<'_>> {
    let listed = super::sysfs::nvidia_functions(std::path::Path::new("/sys"));
    if listed.is_empty() {
        let count = nvml.device_count().unwrap_or(0);
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
pub(crate) fn memory_used(nvml: &Nvml, d: &nvml_wrapper::Device<'_>) -> Option<u64> {
    memory_v2_then_v1(reading(d.memory_info().map(|m| (m.total, m.used))), || {
        memory_info_v1(nvml, d)
    })
    .ok()
    .map(|(_, used)| used)
}

/// Every device by index (no sysfs: another OS, or a container without `/sys/bus/pci`).
fn by_index(nvml: &Nvml) -> NvmlState {
    let count = match nvml.device_count() {
        Ok(c) => c,
        Err(e) => return NvmlState::Unavailable(e.to_string()),
    };
    let devices = (0..count)
        .map(|i| {
            let d = nvml.device_by_index(i).map_err(|e| e.to_string())?;
            Ok(read_device(nvml, &d, None))
        })
        .collect();
    NvmlState::Ready {
        driver: nvml.sys_driver_version().ok(),
        devices,
        suspended: Vec::new(),
    }
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
        name: reading(d.name()),
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
        pci_bus_id: d.pci_info().ok().map(|p| p.bus_id).or(bus_id),
        uuid: reading(d.uuid()),
        pcie_throughput_kb_per_s: (
            d.pcie_throughput(PcieUtilCounter::Send).ok(),
            d.pcie_throughput(PcieUtilCounter::Receive).ok(),
        ),
    }
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
