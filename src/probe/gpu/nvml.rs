//! NVIDIA GPUs through NVML (`libnvidia-ml`, loaded at run time: ramvram builds and runs
//! without the NVIDIA driver, and reports why NVML is unavailable instead of failing).

use std::sync::OnceLock;

use nvml_wrapper::Nvml;
use nvml_wrapper::enum_wrappers::device::PcieUtilCounter;
use nvml_wrapper::error::NvmlError;

use super::nvidia::{NvidiaReading, NvmlState, Reading, nvidia_gpus};
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

fn reading<T>(r: Result<T, NvmlError>) -> Reading<T> {
    match r {
        Ok(v) => Reading::Value(v),
        Err(NvmlError::NotSupported) => Reading::NotSupported,
        Err(e) => Reading::Failed(e.to_string()),
    }
}

fn read_state() -> NvmlState {
    let nvml = match nvml() {
        Ok(n) => n,
        Err(e) => return NvmlState::Unavailable(e.clone()),
    };
    let count = match nvml.device_count() {
        Ok(c) => c,
        Err(e) => return NvmlState::Unavailable(e.to_string()),
    };
    let devices = (0..count)
        .map(|i| {
            let d = nvml.device_by_index(i).map_err(|e| e.to_string())?;
            Ok(NvidiaReading {
                name: reading(d.name()),
                memory: reading(d.memory_info().map(|m| (m.total, m.used))),
                pcie: PcieLink {
                    gen_current: d.current_pcie_link_gen().ok(),
                    gen_max: d.max_pcie_link_gen().ok(),
                    gen_gpu_max: gpu_max_link_gen(nvml, &d),
                    width_current: d.current_pcie_link_width().ok(),
                    width_max: d.max_pcie_link_width().ok(),
                },
                utilization: d.utilization_rates().ok().map(|u| u.gpu),
                pci_bus_id: d.pci_info().ok().map(|p| p.bus_id),
                uuid: d.uuid().ok(),
                pcie_throughput_kb_per_s: (
                    d.pcie_throughput(PcieUtilCounter::Send).ok(),
                    d.pcie_throughput(PcieUtilCounter::Receive).ok(),
                ),
            })
        })
        .collect();
    NvmlState::Ready {
        driver: nvml.sys_driver_version().ok(),
        devices,
    }
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
