//! What Windows reports of its memory, page files and graphics adapters (`windows` in the
//! profile, `docs/profile.md`): an additive part of the format, present only in profiles
//! detected on Windows. Every field has a serde default; a value not read is `None` (`null`),
//! never guessed.

use serde::{Deserialize, Serialize};

/// Longest page-file path or adapter name a profile may carry, in characters (Windows paths are
/// at most 32,767 UTF-16 units, but a page file's path is a drive root and a short name; DXGI's
/// description holds 128).
pub const MAX_WINDOWS_TEXT_CHARS: usize = 260;

/// Most page files or adapters a profile may list (Windows allows one page file per volume: 26
/// drive letters).
pub const MAX_WINDOWS_ITEMS: usize = 64;

/// Windows' own view of the machine's memory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowsMemory {
    /// RAM installed as the firmware reports it: `GetPhysicallyInstalledSystemMemory` (KiB,
    /// stored here as bytes), which sums the SMBIOS memory devices. `None` when the call failed
    /// (a firmware without usable SMBIOS tables).
    #[serde(default)]
    pub installed_ram_bytes: Option<u64>,
    /// The commit limit: RAM plus every page file's current size
    /// (`GlobalMemoryStatusEx` `ullTotalPageFile`). Past it allocations fail, so on Windows it
    /// plays the part of Linux's RAM + swap.
    #[serde(default)]
    pub commit_limit_bytes: Option<u64>,
    /// Memory committed now (`ullTotalPageFile − ullAvailPageFile`).
    #[serde(default)]
    pub commit_used_bytes: Option<u64>,
    /// The page files. `None` when they could not be read; an empty list when Windows runs
    /// without one.
    #[serde(default)]
    pub page_files: Option<Vec<PageFile>>,
    /// Graphics adapters as DXGI lists them (`IDXGIFactory1::EnumAdapters1`), the Microsoft
    /// Basic Render Driver left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adapters: Vec<GraphicsAdapter>,
    /// Driver model of each NVIDIA GPU NVML could read (`nvmlDeviceGetDriverModel`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub driver_models: Vec<GpuDriverModel>,
    /// NVIDIA's "CUDA - Sysmem Fallback Policy" (drivers 536.40 and later). `None` when it
    /// could not be read: NVML does not expose it, so detection leaves it unknown and says so.
    #[serde(default)]
    pub sysmem_fallback: Option<SysmemFallback>,
}

/// One page file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageFile {
    /// Its path, e.g. `C:\pagefile.sys`; `?:\pagefile.sys` in the registry means "on whichever
    /// drive Windows picks".
    pub path: String,
    /// How its size is set; `None` when the registry entry could not be read.
    #[serde(default)]
    pub sizing: Option<PageFileSizing>,
    /// Initial size configured, bytes (fixed sizing only).
    #[serde(default)]
    pub initial_bytes: Option<u64>,
    /// Maximum size configured, bytes (fixed sizing only).
    #[serde(default)]
    pub maximum_bytes: Option<u64>,
    /// Its size now, bytes (`SYSTEM_PAGEFILE_INFORMATION.TotalSize` pages).
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// In use now, bytes (`TotalInUse` pages).
    #[serde(default)]
    pub used_bytes: Option<u64>,
    /// Most it has held since boot, bytes (`PeakUsage` pages).
    #[serde(default)]
    pub peak_bytes: Option<u64>,
}

/// How a page file's size is chosen (System Properties → Advanced → Performance → Virtual
/// memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PageFileSizing {
    /// "System managed size": Windows grows it up to three times RAM (or 4 GiB) as needed.
    SystemManaged,
    /// "Custom size": initial and maximum sizes set by hand.
    Fixed,
}

/// One DXGI adapter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphicsAdapter {
    /// `DXGI_ADAPTER_DESC1.Description`, e.g. `NVIDIA GeForce RTX 4070`.
    #[serde(default)]
    pub name: Option<String>,
    /// PCI vendor id (`0x10DE` NVIDIA, `0x1002` AMD, `0x8086` Intel).
    #[serde(default)]
    pub vendor_id: Option<u32>,
    /// PCI device id.
    #[serde(default)]
    pub device_id: Option<u32>,
    /// `DedicatedVideoMemory`: the adapter's own memory, bytes.
    #[serde(default)]
    pub dedicated_video_bytes: Option<u64>,
    /// `DedicatedSystemMemory`: RAM reserved for the adapter at boot (integrated GPUs), bytes.
    #[serde(default)]
    pub dedicated_system_bytes: Option<u64>,
    /// `SharedSystemMemory`: RAM WDDM lets the adapter borrow ("shared GPU memory" in Task
    /// Manager; half of RAM by default), bytes.
    #[serde(default)]
    pub shared_system_bytes: Option<u64>,
}

/// An NVIDIA GPU's driver model, by the profile's GPU index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuDriverModel {
    /// The GPU's index in `gpus`.
    pub gpu: u32,
    /// Its driver model now.
    pub model: DriverModel,
}

/// Windows display driver models an NVIDIA GPU can run under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DriverModel {
    /// WDDM: a display device; Windows schedules and pages its memory and lends it "shared GPU
    /// memory" from RAM.
    Wddm,
    /// TCC (NVML's `NVML_DRIVER_WDM`): a compute device outside WDDM (data-centre and some
    /// workstation GPUs); no display, no shared memory.
    Tcc,
}

/// NVIDIA Control Panel → Manage 3D settings → "CUDA - Sysmem Fallback Policy".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SysmemFallback {
    /// "Driver Default": CUDA may spill into system RAM when VRAM is full.
    DriverDefault,
    /// "Prefer Sysmem Fallback".
    PreferSysmemFallback,
    /// "Prefer No Sysmem Fallback": CUDA reports out of memory instead.
    PreferNoSysmemFallback,
}

impl WindowsMemory {
    /// Sum of the page files' current sizes, bytes; `None` when the list or a size is unknown.
    pub fn page_file_total_bytes(&self) -> Option<u64> {
        self.page_files
            .as_ref()?
            .iter()
            .map(|f| f.size_bytes)
            .try_fold(0u64, |s, b| b.map(|b| s.saturating_add(b)))
    }

    /// Sum of what the page files hold now, bytes; `None` when any is unknown.
    pub fn page_file_used_bytes(&self) -> Option<u64> {
        self.page_files
            .as_ref()?
            .iter()
            .map(|f| f.used_bytes)
            .try_fold(0u64, |s, b| b.map(|b| s.saturating_add(b)))
    }

    /// The driver model of GPU `index`, when NVML gave one.
    pub fn driver_model(&self, index: u32) -> Option<DriverModel> {
        self.driver_models
            .iter()
            .find(|d| d.gpu == index)
            .map(|d| d.model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::validate::windows as validate;
    use crate::profile::{MachineProfile, Problem};

    #[test]
    fn totals_are_unknown_when_any_part_is() {
        let mut w = WindowsMemory::default();
        assert_eq!(w.page_file_total_bytes(), None, "list not read");
        w.page_files = Some(Vec::new());
        assert_eq!(w.page_file_total_bytes(), Some(0), "no page file");
        w.page_files = Some(vec![
            PageFile {
                path: r"C:\pagefile.sys".into(),
                size_bytes: Some(4 << 30),
                used_bytes: Some(1 << 30),
                ..PageFile::default()
            },
            PageFile {
                path: r"D:\pagefile.sys".into(),
                size_bytes: Some(2 << 30),
                ..PageFile::default()
            },
        ]);
        assert_eq!(w.page_file_total_bytes(), Some(6 << 30));
        assert_eq!(w.page_file_used_bytes(), None, "D:'s use unknown");
    }

    #[test]
    fn hostile_values_name_the_field() {
        let mut p = MachineProfile::unknown();
        p.windows = Some(WindowsMemory {
            installed_ram_bytes: Some(0),
            ..WindowsMemory::default()
        });
        assert_eq!(
            validate(&p),
            Err(("windows.installed_ram_bytes".into(), Problem::Zero))
        );
        p.windows = Some(WindowsMemory {
            adapters: vec![GraphicsAdapter {
                name: Some("GPU\u{1b}[2J".into()),
                ..GraphicsAdapter::default()
            }],
            ..WindowsMemory::default()
        });
        assert_eq!(validate(&p).unwrap_err().0, "windows.adapters[0].name");
        p.windows = Some(WindowsMemory {
            adapters: vec![GraphicsAdapter {
                shared_system_bytes: Some(u64::MAX),
                ..GraphicsAdapter::default()
            }],
            ..WindowsMemory::default()
        });
        assert_eq!(
            validate(&p).unwrap_err().0,
            "windows.adapters[0].shared_system_bytes"
        );
        p.windows = Some(WindowsMemory {
            page_files: Some(vec![PageFile::default(); MAX_WINDOWS_ITEMS + 1]),
            ..WindowsMemory::default()
        });
        assert_eq!(validate(&p).unwrap_err().0, "windows.page_files");
    }
}
