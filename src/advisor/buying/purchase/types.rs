//! What reaching an installed RAM size takes, as data: the purchase, the instance to move to,
//! the WSL plan and why a machine can't take modules.

use serde::{Deserialize, Serialize};

use super::modules::{ModulePlan, ModuleSpec};
use crate::advisor::buying::dimm_sets::DimmSet;
use crate::catalog::instances::InstanceType;
use crate::profile::CloudProvider;

/// One instance type, as advice names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceChoice {
    /// The name (`g5.4xlarge`).
    pub instance_type: String,
    /// Its family (`g5`).
    pub family: String,
    /// GPU model.
    pub gpu_model: String,
    /// GPUs.
    pub gpu_count: u32,
    /// vCPUs.
    pub vcpus: u32,
    /// RAM, bytes.
    pub ram_bytes: u64,
}

impl From<&InstanceType> for InstanceChoice {
    fn from(i: &InstanceType) -> Self {
        InstanceChoice {
            instance_type: i.instance_type.clone(),
            family: i.family.clone(),
            gpu_model: i.gpu_model.clone(),
            gpu_count: i.gpu_count,
            vcpus: i.vcpus,
            ram_bytes: i.ram_bytes(),
        }
    }
}

/// Why memory can't be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolderedReason {
    /// An Apple Mac: memory is part of the chip package (Apple Silicon) or soldered.
    Apple,
    /// Soldered LPDDR or "Row Of Chips" modules with no free slot.
    Soldered,
    /// A GPU shares the soldered memory with the CPU (NVIDIA GB10 or Jetson, an AMD APU): the
    /// next machine needs that much unified memory, not modules.
    Unified,
}

/// Why the advice is the generic channel-filling sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GenericReason {
    /// The kind of machine is unknown and no module could be read.
    PlatformUnknown,
    /// Modules are listed, but the slot count is unknown.
    SlotsUnknown,
    /// The modules' type, size or form factor is unknown or mixed, or the catalogue has no
    /// sizes for them.
    ModulesUnknown,
}

/// WSL2: raise `memory=` first; buy RAM for Windows only when that can't reach the need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WslPlan {
    /// The RAM Linux sees now (WSL's cap), bytes.
    pub cap_bytes: Option<u64>,
    /// The `memory=` to write: the need rounded up to whole GiB, bytes.
    pub set_memory_bytes: u64,
    /// Windows' RAM (entered, or estimated as twice the default cap); `None` when unknown.
    pub windows_ram_bytes: Option<u64>,
    /// True when `windows_ram_bytes` is the estimate.
    pub windows_ram_estimated: bool,
    /// The most `memory=` can give ([`wsl::wsl_cap_after`]), bytes.
    pub cap_after_bytes: Option<u64>,
    /// True when raising `memory=` reaches the need; `None` when Windows' RAM is unknown.
    pub enough: Option<bool>,
    /// RAM Windows needs installed for `memory=` to reach the need: need + the reserve kept
    /// for Windows, rounded up to a common installed size
    /// ([`crate::advisor::capacity::COMMON_INSTALLED_GIB`]).
    pub windows_needed_bytes: u64,
}

/// What to buy (or do) to reach an installed RAM size. Serialises with a `kind` tag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Purchase {
    /// Installed RAM already reaches the need.
    NotNeeded {
        /// Installed RAM (the instance's, for a catalogued cloud instance), bytes.
        installed_bytes: u64,
    },
    /// Modules like the installed ones in free slots, keeping those installed.
    AddModules(ModulePlan),
    /// Every module replaced with larger ones that exist for the type.
    ReplaceModules(ModulePlan),
    /// The largest module that exists in every slot still falls short.
    BoardLimit {
        /// The largest module of the installed type.
        module: ModuleSpec,
        /// Slots.
        slots: u32,
        /// What the board can hold, bytes.
        max_bytes: u64,
        /// Channel-filling sets for a planned machine.
        alternative: Vec<DimmSet>,
        /// When no set reaches the need: the largest set any platform holds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        largest_set: Option<DimmSet>,
    },
    /// The smallest instance of the same family (same GPU model and count) with enough RAM.
    LargerInstance {
        /// This instance.
        current: InstanceChoice,
        /// The one to move to.
        target: InstanceChoice,
    },
    /// No instance of the family with the same GPUs reaches the need.
    NoLargerInstance {
        /// This instance.
        current: InstanceChoice,
        /// The family's largest with the same GPUs.
        largest: InstanceChoice,
    },
    /// A cloud instance the catalogue has no entry for (or whose type is unknown): keep it.
    InstanceNotInCatalogue {
        /// The cloud, when known.
        provider: Option<CloudProvider>,
        /// The instance type, when known.
        instance_type: Option<String>,
    },
    /// Memory that can't be upgraded; a planned machine instead.
    Soldered {
        /// Why.
        reason: SolderedReason,
        /// The memory type, when known ("LPDDR5").
        memory_type: Option<String>,
        /// Channel-filling sets for a planned machine.
        alternative: Vec<DimmSet>,
        /// When no set reaches the need: the largest set any platform holds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        largest_set: Option<DimmSet>,
        /// For a Mac: the unified-memory sizes Apple sells that reach the need, smallest
        /// first, bytes ([`super::APPLE_UNIFIED_SIZES_GB`]); empty otherwise.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unified_sizes: Vec<u64>,
    },
    /// The job runs under a memory limit below what the node has (a Slurm job's `--mem`, a
    /// container's `--memory`, a systemd slice): raise the limit; RAM bought for the node gives
    /// the job nothing.
    RaiseLimit {
        /// The limit now, bytes (`memory.limit_bytes`).
        limit_bytes: u64,
        /// RAM the node's OS manages (`MemTotal`), bytes, when known.
        node_bytes: Option<u64>,
        /// The node holds the need: raising the limit is enough.
        node_reaches: bool,
    },
    /// A virtual machine outside a known cloud: its host sets its memory.
    VirtualMachine,
    /// A hosted notebook (Colab, Kaggle): a runtime with more RAM.
    HostedNotebook,
    /// WSL2: `.wslconfig` first.
    Wsl(WslPlan),
    /// Not enough is known about the machine: generic channel-filling sets, of the installed
    /// memory type when the catalogue has platforms for it.
    Generic {
        /// Why.
        reason: GenericReason,
        /// The sets, smallest platform first.
        dimm_sets: Vec<DimmSet>,
        /// When no set reaches the need: the largest set any platform holds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        largest_set: Option<DimmSet>,
        /// The platform the CPU's model places the machine on (`cpus.csv`), when it does: the
        /// sets are for that platform alone (its channels, memory type and form factor).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cpu_platform: Option<CpuPlatform>,
    },
}

/// A machine placed on a platform by its CPU's model name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuPlatform {
    /// The CPU's model name, as detected.
    pub cpu: String,
    /// The platform's name in the catalogue (`platforms.csv`).
    pub platform: String,
}
