//! What kind of machine a profile describes (`host.platform`) and what WSL2 does to its memory
//! (`memory.wsl`): additive parts of the profile format (`docs/profile.md`). Every field has a
//! serde default, so profiles written before they existed still load; a value not detected is
//! `None` (`null`), never guessed.

use serde::{Deserialize, Serialize};

/// Longest instance type name a profile may carry, in characters. AWS, GCP and Azure names are
/// under 40 (`Standard_NC80adis_H100_v5`); longer text is a typo or hostile.
pub const MAX_INSTANCE_TYPE_CHARS: usize = 64;

/// The kind of machine, from DMI (`/sys/class/dmi/id`) or the operating system.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Platform {
    /// Desktop, laptop, server, cloud instance, …; `None` when DMI could not tell.
    #[serde(default)]
    pub kind: Option<PlatformKind>,
    /// The cloud, for a cloud instance.
    #[serde(default)]
    pub provider: Option<CloudProvider>,
    /// The instance type as the provider names it (`g5.xlarge`, `a2-highgpu-1g`,
    /// `Standard_NC24ads_A100_v4`): AWS Nitro instances carry it in DMI `product_name`; for the
    /// other clouds it is entered by hand.
    #[serde(default)]
    pub instance_type: Option<String>,
}

/// Kinds of machine. DMI chassis types follow DMTF DSP0134 §7.4.1 (Table 17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlatformKind {
    /// A cloud instance: more RAM means a larger instance, never modules.
    Cloud,
    /// A virtual machine outside a known cloud (QEMU/KVM, VMware, Hyper-V, VirtualBox, Xen):
    /// its memory is a setting of the host.
    VirtualMachine,
    /// A desktop chassis (DSP0134 chassis types 3–7, 13, 15, 16, 24, 35, 36).
    Desktop,
    /// A desktop chassis with a workstation-class processor (Xeon, Threadripper, EPYC).
    Workstation,
    /// A server chassis (main server, rack mount, multi-system, blade: types 17, 23, 25, 28,
    /// 29).
    Server,
    /// A portable (types 8–10, 14, 30–32).
    Laptop,
    /// An Apple Mac (macOS, or Apple hardware under Linux).
    Apple,
}

/// Cloud providers recognised from DMI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CloudProvider {
    /// Amazon EC2 (`sys_vendor` "Amazon EC2", or Xen with an Amazon BIOS version).
    Aws,
    /// Google Compute Engine (`product_name` "Google Compute Engine").
    Gcp,
    /// Microsoft Azure (Hyper-V with Azure's chassis asset tag).
    Azure,
    /// Alibaba Cloud ECS (`sys_vendor` "Alibaba Cloud").
    Alibaba,
    /// Oracle Cloud (`chassis_asset_tag` "OracleCloud.com").
    Oracle,
}

/// Windows Subsystem for Linux: the Linux side runs in a VM whose memory WSL caps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wsl {
    /// 1 or 2 (from the kernel release: WSL1 reports `…-Microsoft`, WSL2
    /// `…-microsoft-standard-WSL2`); `None` when only `WSL_DISTRO_NAME` said it is WSL.
    #[serde(default)]
    pub version: Option<u32>,
    /// The memory Linux sees under WSL2 (`MemTotal`): WSL's cap, not Windows' RAM. `None` under
    /// WSL1, which has no cap of its own.
    #[serde(default)]
    pub memory_cap_bytes: Option<u64>,
    /// What was found of `%UserProfile%\.wslconfig` (read from `/mnt/c/Users/*/.wslconfig`).
    #[serde(default)]
    pub wslconfig: Option<WslConfigState>,
    /// `memory=` in the file's `[wsl2]` section, bytes; `None` when not set (then WSL's default,
    /// half of Windows' memory, applies).
    #[serde(default)]
    pub wslconfig_memory_bytes: Option<u64>,
    /// `swap=` in the file's `[wsl2]` section, bytes (`0`: no swap file).
    #[serde(default)]
    pub wslconfig_swap_bytes: Option<u64>,
    /// Windows' RAM when the user enters it: it can't be read from inside WSL.
    #[serde(default)]
    pub windows_ram_bytes: Option<u64>,
}

/// What happened when looking for `.wslconfig`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WslConfigState {
    /// One file was found and read.
    Read,
    /// No user folder holds one: WSL's defaults apply.
    Absent,
    /// The file is not valid (WSL, too, starts without its settings); a note names it.
    Malformed,
    /// Several Windows users have one; which applies can't be told.
    Ambiguous,
    /// `/mnt/c/Users` (or the file) could not be read: whether one exists is unknown.
    Unreadable,
}

impl Wsl {
    /// True under WSL2 (the VM with a memory cap).
    pub fn is_wsl2(&self) -> bool {
        self.version == Some(2)
    }
}
