//! GPUs from Linux sysfs: PCI display controllers under `/sys/bus/pci/devices`, with PCIe link
//! state from the standard PCI attributes and AMD VRAM from amdgpu's `mem_info_vram_*` files.

use std::path::Path;

use crate::profile::{Gpu, GpuVendor, PcieLink};

/// PCI vendor ids (PCI-SIG registry).
const VENDOR_NVIDIA: u32 = 0x10de;
const VENDOR_AMD: u32 = 0x1002;

/// Parses a PCI link speed attribute (`current_link_speed`, `max_link_speed`), e.g.
/// `"16.0 GT/s PCIe"` or `"8 GT/s"`, into a PCIe generation: 2.5 GT/s → 1, 5 → 2, 8 → 3,
/// 16 → 4, 32 → 5, 64 → 6 (PCI-SIG base specifications 1.0–6.0).
pub fn parse_link_speed(text: &str) -> Option<u32> {
    let rate: f64 = text.split_whitespace().next()?.parse().ok()?;
    [
        (2.5, 1),
        (5.0, 2),
        (8.0, 3),
        (16.0, 4),
        (32.0, 5),
        (64.0, 6),
    ]
    .iter()
    .find(|(gt, _)| (rate - gt).abs() < 0.01)
    .map(|&(_, generation)| generation)
}

/// Parses a link width attribute (`current_link_width`), e.g. `"16"`; `0` (link down) is `None`.
pub fn parse_link_width(text: &str) -> Option<u32> {
    text.trim().parse().ok().filter(|w| *w > 0)
}

/// Longest sysfs attribute read: 4 KiB, the kernel's `PAGE_SIZE` limit on a `show` callback
/// (`Documentation/filesystems/sysfs.rst`); a larger file is not a sysfs attribute (a fixture
/// tree or a hostile mount) and is not believed.
const ATTR_CAP: u64 = 4096;

fn read(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut buf = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(ATTR_CAP + 1)
        .read_to_end(&mut buf)
        .ok()?;
    if buf.len() as u64 > ATTR_CAP {
        return None;
    }
    String::from_utf8(buf).ok()
}

fn hex(text: &str) -> Option<u32> {
    u32::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
}

/// NVIDIA and AMD display controllers (PCI class 0x03xxxx) found under `<sys>/bus/pci/devices`,
/// indexed from 0 in PCI address order. Other vendors (BMC VGA, integrated Intel) are skipped:
/// they are not training GPUs. NVIDIA cards get no VRAM here (NVML's job); AMD cards get
/// `mem_info_vram_total` / `mem_info_vram_used` when amdgpu exposes them.
pub fn pci_gpus(sys: &Path) -> Vec<Gpu> {
    let Ok(entries) = std::fs::read_dir(sys.join("bus/pci/devices")) else {
        return Vec::new();
    };
    let mut addresses: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    addresses.sort();
    let mut gpus = Vec::new();
    for dev in addresses {
        let class = read(&dev.join("class"))
            .as_deref()
            .and_then(hex)
            .unwrap_or(0);
        if class >> 16 != 0x03 {
            continue;
        }
        let vendor = match read(&dev.join("vendor")).as_deref().and_then(hex) {
            Some(VENDOR_NVIDIA) => GpuVendor::Nvidia,
            Some(VENDOR_AMD) => GpuVendor::Amd,
            _ => continue,
        };
        let num = |f: &str| read(&dev.join(f)).and_then(|t| t.trim().parse::<u64>().ok());
        let pcie = PcieLink {
            gen_current: read(&dev.join("current_link_speed"))
                .as_deref()
                .and_then(parse_link_speed),
            gen_max: read(&dev.join("max_link_speed"))
                .as_deref()
                .and_then(parse_link_speed),
            gen_gpu_max: None,
            width_current: read(&dev.join("current_link_width"))
                .as_deref()
                .and_then(parse_link_width),
            width_max: read(&dev.join("max_link_width"))
                .as_deref()
                .and_then(parse_link_width),
        };
        let device_id = read(&dev.join("device")).map(|d| d.trim().to_string());
        let apu = vendor == GpuVendor::Amd
            && device_id
                .as_deref()
                .and_then(hex)
                .is_some_and(super::soc::amd_apu);
        let ttm_limit = apu
            .then(|| read(&sys.join("module/ttm/parameters/pages_limit")))
            .flatten();
        let memory = super::soc::amd_memory(
            apu,
            num("mem_info_vram_total"),
            num("mem_info_gtt_total"),
            ttm_limit.as_deref(),
        );
        gpus.push(Gpu {
            index: gpus.len() as u32,
            vendor,
            name: read(&dev.join("product_name"))
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .or_else(|| device_id.map(|d| format!("PCI device {d}"))),
            vram_total_bytes: memory.vram_total,
            vram_used_bytes: (!apu).then(|| num("mem_info_vram_used")).flatten(),
            unified_memory: apu,
            carveout_bytes: memory.carveout,
            gtt_bytes: memory.gtt,
            pcie: (pcie != PcieLink::default()).then_some(pcie),
            utilization_percent: num("gpu_busy_percent").map(|v| v.min(100) as u32),
            pci_bus_id: dev.file_name().map(|n| n.to_string_lossy().into_owned()),
            ..Gpu::unknown()
        });
    }
    gpus
}

/// An AMD GPU's PCI device folder under `<sys>/bus/pci/devices`, as [`pci_gpus`] finds it, and
/// whether it is an APU's ([`super::soc::amd_apu`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmdDevice {
    /// The device folder, where amdgpu's attributes are.
    pub dir: std::path::PathBuf,
    /// The GPU shares system RAM.
    pub apu: bool,
}

/// The display controllers (PCI class 0x03) of PCI vendor `vendor` under
/// `<sys>/bus/pci/devices`, their device folders in PCI address order.
fn display_controllers(sys: &Path, vendor: u32) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(sys.join("bus/pci/devices")) else {
        return Vec::new();
    };
    let mut addresses: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    addresses.sort();
    addresses.retain(|dev| {
        let class = read(&dev.join("class"))
            .as_deref()
            .and_then(hex)
            .unwrap_or(0);
        class >> 16 == 0x03 && read(&dev.join("vendor")).as_deref().and_then(hex) == Some(vendor)
    });
    addresses
}

/// AMD display controllers under `<sys>/bus/pci/devices`, in PCI address order: the AMD GPUs
/// [`pci_gpus`] lists, in its order, for the live sampler.
pub fn amd_devices(sys: &Path) -> Vec<AmdDevice> {
    display_controllers(sys, VENDOR_AMD)
        .into_iter()
        .map(|dev| {
            let apu = read(&dev.join("device"))
                .as_deref()
                .and_then(hex)
                .is_some_and(super::soc::amd_apu);
            AmdDevice { dir: dev, apu }
        })
        .collect()
}

/// One reading of an AMD GPU from amdgpu's sysfs attributes: `gpu_busy_percent` (percent),
/// and memory in use, bytes: `mem_info_vram_used`, plus `mem_info_gtt_used` on an APU (whose
/// GPU memory is the carve-out and the GTT, both system RAM). What can't be read is `None`.
pub fn amd_reading(dev: &AmdDevice) -> (Option<u32>, Option<u64>) {
    let num = |f: &str| read(&dev.dir.join(f)).and_then(|t| t.trim().parse::<u64>().ok());
    let busy = num("gpu_busy_percent").map(|v| v.min(100) as u32);
    let vram = num("mem_info_vram_used");
    let used = if dev.apu {
        match (vram, num("mem_info_gtt_used")) {
            (Some(v), Some(g)) => Some(v.saturating_add(g)),
            (v, g) => v.or(g),
        }
    } else {
        vram
    };
    (busy, used)
}

/// An NVIDIA GPU as sysfs lists it, before any driver library touches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NvidiaFunction {
    /// PCI address, e.g. `0000:17:00.0` (NVML's `nvmlDeviceGetHandleByPciBusId` accepts it).
    pub bus_id: String,
    /// `power/runtime_status` is `suspended`: the kernel has put it to sleep, and opening it
    /// would wake it.
    pub suspended: bool,
}

/// NVIDIA display controllers under `<sys>/bus/pci/devices`, in PCI address order (NVML's
/// default index order), with their runtime power state. Reading these attributes does not
/// wake a device.
pub fn nvidia_functions(sys: &Path) -> Vec<NvidiaFunction> {
    display_controllers(sys, VENDOR_NVIDIA)
        .into_iter()
        .filter_map(|dev| {
            Some(NvidiaFunction {
                bus_id: dev.file_name()?.to_str()?.to_string(),
                suspended: read(&dev.join("power/runtime_status"))
                    .is_some_and(|s| s.trim() == "suspended"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_speeds() {
        assert_eq!(parse_link_speed("2.5 GT/s PCIe\n"), Some(1));
        assert_eq!(parse_link_speed("8.0 GT/s PCIe"), Some(3));
        assert_eq!(parse_link_speed("16.0 GT/s PCIe"), Some(4));
        assert_eq!(parse_link_speed("32.0 GT/s PCIe"), Some(5));
        assert_eq!(parse_link_speed("Unknown"), None);
        assert_eq!(parse_link_width("0\n"), None);
        assert_eq!(parse_link_width("16\n"), Some(16));
    }

    #[test]
    fn finds_amd_and_nvidia_but_not_bmc_vga() {
        let sys = tempfile::tempdir().unwrap();
        let dev = |addr: &str, files: &[(&str, &str)]| {
            let d = sys.path().join("bus/pci/devices").join(addr);
            std::fs::create_dir_all(&d).unwrap();
            for (f, t) in files {
                std::fs::write(d.join(f), t).unwrap();
            }
        };
        // ASPEED BMC VGA on a server board: class 0x030000, vendor 0x1a03.
        dev(
            "0000:02:00.0",
            &[("class", "0x030000\n"), ("vendor", "0x1a03\n")],
        );
        // AMD Instinct MI210: 64 GiB HBM2e (68702699520 bytes as amdgpu reports), Gen4 x16.
        dev(
            "0000:83:00.0",
            &[
                ("class", "0x038000\n"),
                ("vendor", "0x1002\n"),
                ("device", "0x740f\n"),
                ("mem_info_vram_total", "68702699520\n"),
                ("mem_info_vram_used", "11403264\n"),
                ("current_link_speed", "16.0 GT/s PCIe\n"),
                ("max_link_speed", "16.0 GT/s PCIe\n"),
                ("current_link_width", "16\n"),
                ("max_link_width", "16\n"),
            ],
        );
        // NVIDIA card at x8 of x16.
        dev(
            "0000:17:00.0",
            &[
                ("class", "0x030200\n"),
                ("vendor", "0x10de\n"),
                ("device", "0x2684\n"),
                ("current_link_speed", "16.0 GT/s PCIe\n"),
                ("max_link_speed", "16.0 GT/s PCIe\n"),
                ("current_link_width", "8\n"),
                ("max_link_width", "16\n"),
            ],
        );
        let gpus = pci_gpus(sys.path());
        assert_eq!(gpus.len(), 2);
        assert_eq!(gpus[0].vendor, GpuVendor::Nvidia);
        assert_eq!(gpus[0].vram_total_bytes, None);
        assert_eq!(gpus[0].pcie.unwrap().width_current, Some(8));
        assert_eq!(gpus[1].vendor, GpuVendor::Amd);
        assert_eq!(gpus[1].vram_total_bytes, Some(68_702_699_520));
        assert_eq!(gpus[1].pcie.unwrap().gen_max, Some(4));
    }

    #[test]
    fn strix_halo_is_unified_with_its_carveout_and_gtt() {
        let sys = tempfile::tempdir().unwrap();
        let d = sys.path().join("bus/pci/devices/0000:c5:00.0");
        std::fs::create_dir_all(&d).unwrap();
        // A Ryzen AI Max+ 395 (1002:1586, class 0x0380) with a 64 GiB BIOS carve-out and
        // amdgpu's default GTT of half the rest (31.3 GiB); ttm.pages_limit at 8,388,608
        // pages (32 GiB) is above it, so the GTT total stands.
        for (f, t) in [
            ("class", "0x038000\n"),
            ("vendor", "0x1002\n"),
            ("device", "0x1586\n"),
            ("mem_info_vram_total", "68719476736\n"),
            ("mem_info_vram_used", "1073741824\n"),
            ("mem_info_gtt_total", "33607831552\n"),
        ] {
            std::fs::write(d.join(f), t).unwrap();
        }
        let ttm = sys.path().join("module/ttm/parameters");
        std::fs::create_dir_all(&ttm).unwrap();
        std::fs::write(ttm.join("pages_limit"), "8388608\n").unwrap();
        let gpus = pci_gpus(sys.path());
        assert_eq!(gpus.len(), 1);
        let g = &gpus[0];
        assert!(g.unified_memory);
        assert_eq!(g.vram_total_bytes, None);
        assert_eq!(g.carveout_bytes, Some(64 << 30));
        assert_eq!(g.gtt_bytes, Some(33_607_831_552));
        // A hostile attribute (far above a sysfs page) is not believed.
        std::fs::write(d.join("mem_info_gtt_total"), vec![b'7'; 10_000]).unwrap();
        assert_eq!(pci_gpus(sys.path())[0].gtt_bytes, None);
    }

    #[test]
    fn nvidia_functions_say_which_are_asleep() {
        let sys = tempfile::tempdir().unwrap();
        let dev = |addr: &str, files: &[(&str, &str)]| {
            let d = sys.path().join("bus/pci/devices").join(addr);
            std::fs::create_dir_all(d.join("power")).unwrap();
            for (f, t) in files {
                std::fs::write(d.join(f), t).unwrap();
            }
        };
        // A laptop: the NVIDIA dGPU asleep, the Intel iGPU awake; a server GPU awake.
        let nv = [("class", "0x030200\n"), ("vendor", "0x10de\n")];
        dev(
            "0000:01:00.0",
            &[nv[0], nv[1], ("power/runtime_status", "suspended\n")],
        );
        dev(
            "0000:00:02.0",
            &[("class", "0x030000\n"), ("vendor", "0x8086\n")],
        );
        dev(
            "0000:17:00.0",
            &[nv[0], nv[1], ("power/runtime_status", "active\n")],
        );
        // An NVIDIA audio function of the same card: not a GPU.
        dev(
            "0000:01:00.1",
            &[("class", "0x040300\n"), ("vendor", "0x10de\n")],
        );
        assert_eq!(
            nvidia_functions(sys.path()),
            vec![
                NvidiaFunction {
                    bus_id: "0000:01:00.0".into(),
                    suspended: true
                },
                NvidiaFunction {
                    bus_id: "0000:17:00.0".into(),
                    suspended: false
                },
            ]
        );
        assert!(nvidia_functions(&sys.path().join("none")).is_empty());
    }
}
