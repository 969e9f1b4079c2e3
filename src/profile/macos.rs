//! What macOS tells about a Mac through `sysctl` (types only; `probe::sysctl` parses and
//! `probe::macos` reads). Memory, swap and disks use the common profile fields; these are the
//! Mac's own: its model, its two kinds of cores, the GPU's wired-memory limit and memory
//! pressure.

use serde::{Deserialize, Serialize};

/// A Mac's own figures, present only in profiles detected on macOS (or written for one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MacOs {
    /// `hw.model`, the model identifier, e.g. `Mac14,2` (MacBook Air M2) or
    /// `MacBookPro18,2`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_identifier: Option<String>,
    /// The kinds of cores, fastest first (`hw.perflevel0.*`, `hw.perflevel1.*`): on M1 to M4
    /// "Performance" then "Efficiency"; empty on Intel Macs, which have one kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub core_levels: Vec<CoreLevel>,
    /// `iogpu.wired_limit_mb` when set (it is 0, "macOS's default", unless someone ran
    /// `sudo sysctl iogpu.wired_limit_mb=…`), in bytes (the sysctl counts MiB): the most
    /// unified memory the GPU may wire. `None` at the default or when unread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_wired_limit_bytes: Option<u64>,
    /// True when `iogpu.wired_limit_mb` was read and is 0 (the default limit applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_wired_limit_default: Option<bool>,
    /// Metal's `MTLDevice.recommendedMaxWorkingSetSize`, bytes, as measured on the Mac.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_working_set_bytes: Option<u64>,
    /// `kern.memorystatus_vm_pressure_level`: memory pressure as the kernel rates it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_pressure: Option<MemoryPressure>,
    /// `vm.swapusage`'s "(encrypted)": swap files are encrypted (always, on current macOS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap_encrypted: Option<bool>,
}

/// `kern.memorystatus_vm_pressure_level`: 1 normal, 2 warning, 4 critical (xnu's
/// `kVMPressureNormal`, `kVMPressureWarning`, `kVMPressureCritical`; Activity Monitor's
/// green, yellow and red).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryPressure {
    /// Enough free or reclaimable memory.
    Normal,
    /// The system is compressing and swapping to keep up.
    Warning,
    /// Memory is short; apps are asked to free memory or are terminated.
    Critical,
}

/// One kind of core on Apple Silicon (`hw.perflevelN`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreLevel {
    /// `hw.perflevelN.name` as macOS gives it ("Performance", "Efficiency"; M5 calls its
    /// levels "Super" and "Performance"); `None` on macOS versions without the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `hw.perflevelN.physicalcpu`.
    pub physical_cores: u32,
}
