//! GPU readings for the live sampler: one interface, NVML behind it on NVIDIA machines, amdgpu's
//! sysfs on AMD ones ([`AmdMeter`]; both in [`SystemMeter`]), and a fake that plays a
//! utilisation series for tests. Both go through [`gpu_sample`], the one
//! conversion from NVML's units (%, mW, KB/s) to the trace's.

use crate::probe::gpu::nvidia::NVML_KB;
use crate::trace::GpuSample;

/// What NVML answered for one device in one sample; `None` where a query failed or is not
/// supported (vGPU, unified memory, old boards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuReading {
    /// `nvmlDeviceGetUtilizationRates().gpu`, percent of the last sample period (1/6 s to 1 s
    /// depending on the product) in which a kernel ran.
    pub utilization: Option<u32>,
    /// `nvmlDeviceGetMemoryInfo().used`, bytes.
    pub memory_used: Option<u64>,
    /// `nvmlDeviceGetPowerUsage`, milliwatts.
    pub power_mw: Option<u32>,
    /// `nvmlDeviceGetPcieThroughput(RX)`, host → GPU, KB/s over a 20 ms window.
    pub pcie_rx_kb_per_s: Option<u32>,
    /// `nvmlDeviceGetPcieThroughput(TX)`, GPU → host, KB/s.
    pub pcie_tx_kb_per_s: Option<u32>,
}

/// Converts one device's reading into a trace sample: utilisation as percent, power in watts,
/// PCIe in bytes/s ([`NVML_KB`] bytes per KB).
pub fn gpu_sample(index: u32, r: &GpuReading) -> GpuSample {
    GpuSample {
        index,
        util_percent: r.utilization.map(|u| f64::from(u.min(100))),
        mem_used_bytes: r.memory_used,
        power_w: r.power_mw.map(|mw| f64::from(mw) / 1000.0),
        pcie_rx_bytes_per_s: r.pcie_rx_kb_per_s.map(|k| f64::from(k) * NVML_KB),
        pcie_tx_bytes_per_s: r.pcie_tx_kb_per_s.map(|k| f64::from(k) * NVML_KB),
    }
}

/// Something that reads every GPU once per sample.
pub trait GpuMeter: Send {
    /// One reading per GPU, by index. Never panics; what can't be read is `None`.
    fn read(&mut self) -> Vec<GpuSample>;
}

/// No GPUs (tests, or a machine where none should be read).
pub struct NoGpus;

impl GpuMeter for NoGpus {
    fn read(&mut self) -> Vec<GpuSample> {
        Vec::new()
    }
}

/// The NVIDIA GPUs of this machine through NVML (initialised once per process, shared with
/// detection), found as detection finds them: awake GPUs by PCI bus id, so a runtime-suspended
/// laptop GPU is not woken every interval ([`crate::probe::gpu::nvml::awake_devices`]).
/// Without NVML there are no GPU readings; detection's notes say why.
pub struct NvmlMeter;

impl GpuMeter for NvmlMeter {
    fn read(&mut self) -> Vec<GpuSample> {
        use nvml_wrapper::enum_wrappers::device::PcieUtilCounter;
        let Ok(nvml) = crate::probe::gpu::nvml::nvml() else {
            return Vec::new();
        };
        crate::probe::gpu::nvml::awake_devices(nvml, std::path::Path::new("/sys"))
            .into_iter()
            .enumerate()
            .map(|(n, d)| {
                // NVML's index, as detection and nvidia-smi number the GPUs.
                let index = d.index().unwrap_or(n as u32);
                let r = GpuReading {
                    utilization: d.utilization_rates().ok().map(|u| u.gpu),
                    memory_used: crate::probe::gpu::nvml::memory_used(nvml, &d),
                    power_mw: d.power_usage().ok(),
                    pcie_rx_kb_per_s: d.pcie_throughput(PcieUtilCounter::Receive).ok(),
                    pcie_tx_kb_per_s: d.pcie_throughput(PcieUtilCounter::Send).ok(),
                };
                gpu_sample(index, &r)
            })
            .collect()
    }
}

/// AMD GPUs through amdgpu's sysfs attributes under `sys` (`/sys` on a live machine, a fixture
/// tree in tests), found as detection finds them ([`crate::probe::gpu::sysfs::amd_devices`]),
/// numbered from `first_index` (detection numbers them after NVML's GPUs).
pub struct AmdMeter {
    /// The sysfs root.
    pub sys: std::path::PathBuf,
    /// Index of the first AMD GPU.
    pub first_index: u32,
}

impl GpuMeter for AmdMeter {
    fn read(&mut self) -> Vec<GpuSample> {
        crate::probe::gpu::sysfs::amd_devices(&self.sys)
            .iter()
            .enumerate()
            .map(|(n, d)| {
                let (busy, used) = crate::probe::gpu::sysfs::amd_reading(d);
                let r = GpuReading {
                    utilization: busy,
                    memory_used: used,
                    ..GpuReading::default()
                };
                gpu_sample(self.first_index.saturating_add(n as u32), &r)
            })
            .collect()
    }
}

/// Every GPU of this machine, as detection lists them: NVIDIA through NVML, then AMD through
/// sysfs ([`AmdMeter`]), numbered after NVML's.
pub struct SystemMeter;

impl GpuMeter for SystemMeter {
    fn read(&mut self) -> Vec<GpuSample> {
        let mut out = NvmlMeter.read();
        let first_index = out
            .iter()
            .map(|s| s.index.saturating_add(1))
            .max()
            .unwrap_or(0);
        out.extend(
            AmdMeter {
                sys: std::path::PathBuf::from("/sys"),
                first_index,
            }
            .read(),
        );
        out
    }
}

/// A fake meter that plays a utilisation series per GPU, one value per read, repeating from
/// the start when it runs out. Power follows utilisation (60 W idle plus 3.2 W per percent:
/// 380 W at 100 %, an RTX 4090-like board), memory stays at 20 GiB, and PCIe carries
/// 120 MB/s to the GPU per percent of utilisation.
pub struct FakeGpuSeries {
    series: Vec<Vec<u32>>,
    step: usize,
}

impl FakeGpuSeries {
    /// One series per GPU (GPU 0 first).
    pub fn new(series: Vec<Vec<u32>>) -> FakeGpuSeries {
        FakeGpuSeries { series, step: 0 }
    }

    /// The reading GPU `index` gives at `step` (pure, for tests that want the expected value).
    pub fn reading(&self, index: usize, step: usize) -> Option<GpuReading> {
        let s = self.series.get(index).filter(|s| !s.is_empty())?;
        let u = s[step % s.len()];
        Some(GpuReading {
            utilization: Some(u),
            memory_used: Some(20 << 30),
            power_mw: Some(60_000 + 3_200 * u),
            pcie_rx_kb_per_s: Some(120_000 * u),
            pcie_tx_kb_per_s: Some(10_000),
        })
    }
}

impl GpuMeter for FakeGpuSeries {
    fn read(&mut self) -> Vec<GpuSample> {
        let out = (0..self.series.len())
            .filter_map(|i| Some(gpu_sample(i as u32, &self.reading(i, self.step)?)))
            .collect();
        self.step += 1;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fake_series_plays_utilisation_through_the_nvml_conversion() {
        let mut m = FakeGpuSeries::new(vec![vec![98, 2, 2, 2], vec![95]]);
        let first = m.read();
        assert_eq!(first.len(), 2);
        assert_eq!(first[0].util_percent, Some(98.0));
        // 60 W + 3.2 W × 98 = 373.6 W; 120,000 KB/s × 98 × 1000 B/KB = 11.76 GB/s.
        assert_eq!(first[0].power_w, Some(373.6));
        assert_eq!(first[0].pcie_rx_bytes_per_s, Some(11.76e9));
        assert_eq!(first[1].util_percent, Some(95.0));
        let utils: Vec<f64> = (0..6).map(|_| m.read()[0].util_percent.unwrap()).collect();
        assert_eq!(utils, [2.0, 2.0, 2.0, 98.0, 2.0, 2.0]);
    }

    #[test]
    fn amd_gpus_read_from_a_fake_sysfs_tree() {
        let sys = tempfile::tempdir().expect("a temporary folder");
        let dev = |addr: &str, files: &[(&str, &str)]| {
            let d = sys.path().join("bus/pci/devices").join(addr);
            std::fs::create_dir_all(&d).expect("a device");
            for (f, t) in files {
                std::fs::write(d.join(f), t).expect("an attribute");
            }
        };
        // A Radeon RX 7900 XTX (1002:744c) at 97 % with 20 GiB of VRAM in use.
        dev(
            "0000:03:00.0",
            &[
                ("class", "0x030000\n"),
                ("vendor", "0x1002\n"),
                ("device", "0x744c\n"),
                ("gpu_busy_percent", "97\n"),
                ("mem_info_vram_used", "21474836480\n"),
                ("mem_info_gtt_used", "1073741824\n"),
            ],
        );
        // A Strix Halo APU (1002:1586): 2 GiB of its carve-out and 40 GiB of GTT in use, 42 GiB
        // of the shared RAM in all; a busy file of garbage stays unknown.
        dev(
            "0000:c5:00.0",
            &[
                ("class", "0x038000\n"),
                ("vendor", "0x1002\n"),
                ("device", "0x1586\n"),
                ("gpu_busy_percent", "busy\n"),
                ("mem_info_vram_used", "2147483648\n"),
                ("mem_info_gtt_used", "42949672960\n"),
            ],
        );
        let mut m = AmdMeter {
            sys: sys.path().to_path_buf(),
            first_index: 1,
        };
        let s = m.read();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].index, s[0].util_percent), (1, Some(97.0)));
        assert_eq!(s[0].mem_used_bytes, Some(20 << 30));
        assert_eq!((s[1].index, s[1].util_percent), (2, None));
        assert_eq!(s[1].mem_used_bytes, Some(42 << 30));
    }

    #[test]
    fn unsupported_queries_stay_unknown() {
        let s = gpu_sample(3, &GpuReading::default());
        assert_eq!(s.index, 3);
        assert_eq!(
            (s.util_percent, s.mem_used_bytes, s.power_w),
            (None, None, None)
        );
    }
}
