//! Fake NVIDIA GPUs for tests: named scenarios fed through the real conversion
//! ([`super::nvidia::nvidia_gpus`]), the way gpustat fakes NVML.

use super::nvidia::{
    NvidiaReading, NvmlState, ProcessReading, Reading, memory_v2_then_v1, nvidia_gpus,
};
use super::{GpuProbe, GpuSource};
use crate::profile::PcieLink;

/// A named GPU situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FakeScenario {
    /// A DGX H100: eight "NVIDIA H100 80GB HBM3", 81559 MiB each as nvidia-smi reports, PCIe
    /// Gen5 x16, driver 550.54.15.
    EightH100,
    /// `libnvidia-ml.so.1` cannot be loaded.
    NvmlMissing,
    /// Two RTX 4090s, the second one fallen off the bus (`NVML_ERROR_GPU_IS_LOST`).
    OneGpuErroring,
    /// A DGX Spark (GB10): NVML answers "not supported" for memory info; the part is known to
    /// share system memory.
    MemoryInfoUnsupported,
    /// A GPU whose name says nothing about unified memory (a vGPU slice) answering "not
    /// supported" for memory info and failing its utilisation query: VRAM unknown, not unified.
    MemoryUnsupportedUnknownPart,
    /// An R470 driver on two RTX A6000s: no `nvmlDeviceGetMemoryInfo_v2`, so memory comes from
    /// the original call; the second GPU is asleep (runtime power management) and not opened.
    OldDriverV1Only,
    /// One RTX 4090 (24564 MiB) on which another user's `python` (pid 1234) holds 6 GiB and a
    /// second process, whose name NVML can't give (pid 4321), holds nothing it will say: the
    /// card as Ollama and llama.cpp find it, 18420 MiB free.
    HeldByAnotherProcess,
}

/// What [`FakeScenario::HeldByAnotherProcess`]'s `python` holds: 6 GiB.
pub const HELD_BYTES: u64 = 6 << 30;

/// RTX A6000: 49140 MiB (nvidia-smi).
pub const A6000_VRAM_BYTES: u64 = 49_140 * 1024 * 1024;

/// MiB as NVML reports the H100 80GB HBM3's framebuffer: 81559 MiB (nvidia-smi on a DGX H100).
pub const H100_VRAM_BYTES: u64 = 81_559 * 1024 * 1024;

/// RTX 4090: 24564 MiB (nvidia-smi).
pub const RTX4090_VRAM_BYTES: u64 = 24_564 * 1024 * 1024;

impl FakeScenario {
    /// What NVML would return in this scenario.
    pub fn nvml_state(self) -> NvmlState {
        let gen5 = PcieLink {
            gen_current: Some(5),
            gen_max: Some(5),
            gen_gpu_max: Some(5),
            width_current: Some(16),
            width_max: Some(16),
        };
        let device = |name: &str, total: u64, used: u64, pcie: PcieLink, i: u32| NvidiaReading {
            index: None,
            name: Reading::Value(name.to_string()),
            memory: Reading::Value((total, used)),
            pcie,
            pcie_status: Reading::Value(()),
            utilization: Reading::Value(0),
            pci_bus_id: Some(format!("00000000:{:02X}:00.0", 0x18 + i * 0x10)),
            uuid: Reading::Value(format!("GPU-00000000-0000-0000-0000-00000000000{i}")),
            // 12,000,000 KB/s to the GPU (12 GB/s), 1,500,000 KB/s back: a busy data loader.
            pcie_throughput_kb_per_s: (Some(1_500_000), Some(12_000_000)),
            mig_enabled: Some(false),
            processes: Reading::Value(Vec::new()),
        };
        match self {
            FakeScenario::EightH100 => NvmlState::Ready {
                driver: Some("550.54.15".into()),
                devices: (0..8)
                    .map(|i| Ok(device("NVIDIA H100 80GB HBM3", H100_VRAM_BYTES, 512 << 20, gen5, i)))
                    .collect(),
                suspended: Vec::new(),
            },
            FakeScenario::NvmlMissing => NvmlState::Unavailable(
                "libloading error: libnvidia-ml.so: cannot open shared object file: No such file or directory".into(),
            ),
            FakeScenario::OneGpuErroring => {
                let gen4 = PcieLink { gen_current: Some(1), gen_max: Some(4), gen_gpu_max: Some(4), width_current: Some(16), width_max: Some(16) };
                NvmlState::Ready {
                    driver: Some("550.54.15".into()),
                    devices: vec![
                        Ok(device("NVIDIA GeForce RTX 4090", RTX4090_VRAM_BYTES, 300 << 20, gen4, 0)),
                        Err("the GPU has fallen off the bus or has otherwise become inaccessible".into()),
                    ],
                    suspended: Vec::new(),
                }
            }
            FakeScenario::MemoryInfoUnsupported => NvmlState::Ready {
                driver: Some("580.95.05".into()),
                devices: vec![Ok(NvidiaReading {
                    index: None,
                    name: Reading::Value("NVIDIA GB10".into()),
                    memory: Reading::NotSupported,
                    pcie: PcieLink::default(),
                    pcie_status: Reading::NotSupported,
                    utilization: Reading::Value(0),
                    pci_bus_id: Some("0000000F:01:00.0".into()),
                    uuid: Reading::NotSupported,
                    pcie_throughput_kb_per_s: (None, None),
                    mig_enabled: None,
                    processes: Reading::NotSupported,
                })],
                suspended: Vec::new(),
            },
            FakeScenario::MemoryUnsupportedUnknownPart => NvmlState::Ready {
                driver: Some("550.54.15".into()),
                devices: vec![Ok(NvidiaReading {
                    index: None,
                    name: Reading::Value("GRID A100D-4C".into()),
                    memory: Reading::NotSupported,
                    pcie: PcieLink::default(),
                    pcie_status: Reading::NotSupported,
                    utilization: Reading::Failed("Unknown Error".into()),
                    pci_bus_id: Some("00000000:02:00.0".into()),
                    uuid: Reading::Value("GPU-4a3b2c1d-0000-0000-0000-000000000000".into()),
                    pcie_throughput_kb_per_s: (None, None),
                    mig_enabled: None,
                    processes: Reading::NotSupported,
                })],
                suspended: Vec::new(),
            },
            FakeScenario::OldDriverV1Only => {
                let gen4 = PcieLink { gen_current: Some(4), gen_max: Some(4), gen_gpu_max: None, width_current: Some(16), width_max: Some(16) };
                // What the v1 call answers on this driver: 49140 MiB, 1 GiB in use.
                let v1 = || Reading::Value((A6000_VRAM_BYTES, 1 << 30));
                NvmlState::Ready {
                    driver: Some("470.256.02".into()),
                    devices: vec![Ok(NvidiaReading {
                        index: Some(0),
                        memory: memory_v2_then_v1(Reading::Missing, v1),
                        ..device("NVIDIA RTX A6000", 0, 0, gen4, 0)
                    })],
                    suspended: vec!["0000:65:00.0".into()],
                }
            }
            FakeScenario::HeldByAnotherProcess => {
                let gen4 = PcieLink { gen_current: Some(4), gen_max: Some(4), gen_gpu_max: Some(4), width_current: Some(16), width_max: Some(16) };
                NvmlState::Ready {
                    driver: Some("550.54.15".into()),
                    devices: vec![Ok(NvidiaReading {
                        processes: Reading::Value(vec![
                            ProcessReading { pid: 4321, name: Reading::Failed("Insufficient Permissions".into()), used_bytes: None },
                            ProcessReading { pid: 1234, name: Reading::Value("python".into()), used_bytes: Some(HELD_BYTES) },
                        ]),
                        ..device("NVIDIA GeForce RTX 4090", RTX4090_VRAM_BYTES, HELD_BYTES, gen4, 0)
                    })],
                    suspended: Vec::new(),
                }
            }
        }
    }
}

impl GpuSource for FakeScenario {
    fn probe(&self) -> GpuProbe {
        nvidia_gpus(self.nvml_state())
    }
}
