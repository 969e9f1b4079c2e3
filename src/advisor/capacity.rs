//! RAM and VRAM, the two numbers every ratio divides, each in two senses ([`RamSizes`] keeps
//! RAM's `MemTotal`, usable, installed and sizing figures side by side):
//!
//! - **usable** RAM is what Linux manages (`MemTotal`) or the cgroup limit when lower: what a
//!   job can allocate. Headroom findings (swap, page cache, the workload's budget, whether a
//!   training plan fits) use it.
//! - **installed** RAM is what was bought: the modules' sum (SMBIOS), a size typed into the
//!   profile, or an estimate from `MemTotal`. Sizing rules ("RAM ≥ total VRAM") are written for
//!   installed RAM against the GPUs' nominal memory, the sizes both are sold in; comparing
//!   `MemTotal` (a few per cent below installed) with NVML's totals would fail a machine that
//!   meets the rule as bought.

use serde::{Deserialize, Serialize};

use crate::catalog::catalog;
use crate::profile::{MachineProfile, Provenance};
use crate::units::GIB;

/// The workstation-sized runtime figures; each machine's own come from
/// [`crate::advisor::overhead::overheads`].
pub use crate::advisor::overhead::{MAIN_PROCESS_BYTES, OS_BYTES};

/// Which figure the installed size is (its [`Provenance`] says how sure it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstalledBasis {
    /// The sum of the memory modules SMBIOS lists ([`Provenance::Detected`]).
    Modules,
    /// Windows' `GetPhysicallyInstalledSystemMemory` (`windows.installed_ram_bytes`): the
    /// firmware's own total, when the modules can't be listed ([`Provenance::Detected`]).
    Firmware,
    /// `memory.installed_bytes` in the profile: typed, a cloud instance's published size, a
    /// planned machine ([`Provenance::Entered`]).
    Profile,
    /// The cloud provider's published RAM for the instance type the profile names
    /// (`host.platform.instance_type`, which detection reads from an AWS Nitro instance's DMI
    /// `product_name`), from the catalogue's row, which cites the provider's page
    /// (`assets/catalog/instances.csv`): a p3.16xlarge is 488 GiB, not the 512 GiB that
    /// rounding `MemTotal` up would give ([`Provenance::Detected`]: the type is the machine's
    /// own, the size the provider's).
    Published,
    /// The smallest common installed size at or above `MemTotal` ([`estimate_installed`];
    /// [`Provenance::Estimated`]).
    MemTotalRoundedUp,
}

impl InstalledBasis {
    /// How sure a figure of this basis is: detected for the modules and the firmware,
    /// entered for the profile's field, estimated for `MemTotal` rounded up.
    pub fn provenance(self) -> Provenance {
        match self {
            InstalledBasis::Modules | InstalledBasis::Firmware | InstalledBasis::Published => {
                Provenance::Detected
            }
            InstalledBasis::Profile => Provenance::Entered,
            InstalledBasis::MemTotalRoundedUp => Provenance::Estimated,
        }
    }
}

/// System memory's four sizes, in bytes, each `None` where it is unknown: what the kernel
/// manages, what a job can use, what was bought, and what the sizing rules compare with the
/// GPUs (docs/model.md, "Usable, installed and sizing RAM"). `memory` in the assessment JSON
/// (docs/profile.md); before assessment schema 2 this was `EffectiveRam`, with
/// `physical_bytes` for `mem_total_bytes` and `effective_bytes` for `usable_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamSizes {
    /// The RAM the kernel manages: `MemTotal` of `/proc/meminfo` (`memory.total_bytes`), which
    /// is 1–5 % below what is installed (the firmware, the kernel image, `crashkernel` and
    /// integrated graphics keep the rest). Under WSL2 it is WSL's cap, not Windows' RAM; on
    /// Windows `GlobalMemoryStatusEx`'s `ullTotalPhys`; on a Mac `hw.memsize`. Not the
    /// installed RAM: see [`Self::installed_bytes`].
    pub mem_total_bytes: Option<u64>,
    /// The cgroup memory limit on this process (a container's `--memory`, a Slurm job's
    /// `--mem`: `memory.limit_bytes`), when one is set; it may be above `MemTotal`.
    pub limit_bytes: Option<u64>,
    /// What a job can use: `min(MemTotal, cgroup limit)` (a limit above `MemTotal` doesn't
    /// count; under WSL2 `MemTotal` already is WSL's cap), the limit alone when `MemTotal` is
    /// unknown, `None` when both are. Headroom (swap, the page cache, a workload's budget,
    /// whether a plan's CPU need fits) is judged against it.
    pub usable_bytes: Option<u64>,
    /// True when the cgroup limit is what caps [`Self::usable_bytes`] (below `MemTotal`, or
    /// `MemTotal` unknown).
    pub limited_by_cgroup: bool,
    /// The RAM installed (bought): the modules' sum, the firmware's total (Windows), the
    /// profile's `memory.installed_bytes`, or `MemTotal` rounded up to a common size
    /// ([`installed_ram`]); `None` when there are no modules, nothing was entered and `MemTotal`
    /// matches no common size ([`estimate_installed`]).
    #[serde(default)]
    pub installed_bytes: Option<u64>,
    /// How sure [`Self::installed_bytes`] is: detected (modules, firmware), entered (the
    /// profile's field) or estimated (from `MemTotal`); `None` with it.
    #[serde(default)]
    pub installed_provenance: Option<Provenance>,
    /// Which figure [`Self::installed_bytes`] is: the modules' sum, the firmware's total, the
    /// profile's field, or `MemTotal` rounded up.
    #[serde(default)]
    pub installed_basis: Option<InstalledBasis>,
    /// What the RAM:VRAM ratio and the published rules ("RAM ≥ factor × nominal VRAM",
    /// `advisor::rules`, each rule's source in docs/model.md "Published rules") compare with
    /// the GPUs' nominal memory: the cgroup limit when it caps this job below `MemTotal` (the
    /// job gets no more, however much is installed), else [`Self::installed_bytes`] (the rules
    /// are written for machines as bought), else `MemTotal`.
    #[serde(default)]
    pub sizing_bytes: Option<u64>,
}

impl RamSizes {
    /// Usable ÷ installed RAM on this machine: the share the firmware and kernel leave to Linux
    /// (e.g. 62.7 GiB of `MemTotal` for 64 GiB installed), which a larger installation keeps.
    /// A need in usable bytes divided by it is the installed size to buy. 1 when either size
    /// is unknown or a cgroup limit caps the job.
    pub fn usable_share(&self) -> f64 {
        match (
            self.installed_bytes,
            self.mem_total_bytes,
            self.limited_by_cgroup,
        ) {
            (Some(i), Some(p), false) if i > 0 && p <= i => p as f64 / i as f64,
            _ => 1.0,
        }
    }
}

/// GPU memory totals. Bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VramTotals {
    /// GPUs with memory of their own.
    pub discrete_gpus: u32,
    /// GPUs that share system RAM (Apple Silicon, GB10).
    pub unified_gpus: u32,
    /// Discrete GPUs whose VRAM could not be read.
    pub unknown_vram_gpus: u32,
    /// Sum of discrete VRAM as the drivers report it (usable); `None` when any discrete GPU's
    /// VRAM is unknown or there is none.
    pub total_discrete_bytes: Option<u64>,
    /// The largest single discrete GPU's VRAM as reported (known ones only).
    pub largest_discrete_bytes: Option<u64>,
    /// Sum of the discrete GPUs' nominal memory: the catalogue's size for a model it knows
    /// (an H100 80GB is 80 GiB; NVML reports 81,559 MiB), else the driver's total. `None` as
    /// for `total_discrete_bytes`.
    #[serde(default)]
    pub nominal_total_bytes: Option<u64>,
    /// The largest single discrete GPU's nominal memory.
    #[serde(default)]
    pub nominal_largest_bytes: Option<u64>,
    /// Discrete GPUs whose nominal size came from the catalogue (the rest use the driver's
    /// total).
    #[serde(default)]
    pub catalogue_gpus: u32,
}

/// Common installed RAM sizes, GiB: totals of equal modules (4–256 GB) on desktops,
/// workstations and servers (1–32 modules), and the sizes cloud instances are sold with.
/// Assumption from vendor catalogues; used only to estimate an installed size from `MemTotal`.
pub const COMMON_INSTALLED_GIB: [u64; 28] = [
    1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 144, 192, 256, 384, 512, 768, 1024, 1152, 1536,
    2048, 3072, 4096, 6144, 8192, 12288,
];

/// The smallest of [`COMMON_INSTALLED_GIB`] at or above `bytes`, or `bytes` itself beyond them:
/// the size a RAM target is rounded up to ("RAM that would fit it", the add-RAM targets).
pub fn round_up_installed(bytes: u64) -> u64 {
    COMMON_INSTALLED_GIB
        .iter()
        .map(|g| g * GIB)
        .find(|size| *size >= bytes)
        .unwrap_or(bytes)
}

/// Installed RAM that leaves `usable` bytes to Linux on a machine whose usable share is
/// `usable_share` ([`RamSizes::usable_share`]): `usable / usable_share`, exact (not rounded).
/// E.g. 164.6 GiB of need where 64 GiB installed shows as 62.7 GiB: 168 GiB installed.
pub fn installed_needed(usable: u64, usable_share: f64) -> u64 {
    crate::units::saturating_bytes(usable as f64 / usable_share.max(1e-3))
}

/// [`installed_needed`] rounded up to a common capacity ([`round_up_installed`]): the installed
/// size to reach, as every "RAM that would fit" and add-RAM target states it.
pub fn installed_for(usable: u64, usable_share: f64) -> u64 {
    round_up_installed(installed_needed(usable, usable_share))
}

/// `MemTotal` is at least this share of the installed size when the estimate is accepted: the
/// firmware, the kernel image, `crashkernel` and integrated graphics reserve 1–5 % (e.g. 64 GiB
/// installed shows as 62.7 GiB). Assumption; a `MemTotal` further below every common size
/// leaves the installed size unknown.
pub const MEMTOTAL_MIN_SHARE: f64 = 0.94;

/// The installed size `MemTotal` most likely comes from: the smallest of
/// [`COMMON_INSTALLED_GIB`] at or above it, when `MemTotal` is at least
/// [`MEMTOTAL_MIN_SHARE`] of it. `None` otherwise.
pub fn estimate_installed(mem_total: u64) -> Option<u64> {
    COMMON_INSTALLED_GIB
        .iter()
        .map(|g| g * GIB)
        .find(|size| *size >= mem_total)
        .filter(|size| mem_total as f64 >= *size as f64 * MEMTOTAL_MIN_SHARE)
}

/// The installed size and which figure it is: the modules' sum when every module's size is known and
/// the sum is at least `MemTotal` (a virtual machine's SMBIOS can list less than it has), else
/// `memory.installed_bytes`, else Windows' firmware total (when at least the usable RAM), else
/// the provider's published size for the profile's cloud instance type (when at least
/// `MemTotal`: a figure below it is not this machine's), else [`estimate_installed`].
pub fn installed_ram(profile: &MachineProfile) -> (Option<u64>, Option<InstalledBasis>) {
    let m = &profile.memory;
    let modules: Option<u64> = (!m.dimms.is_empty())
        .then(|| m.dimms.iter().map(|d| d.size_bytes).sum::<Option<u64>>())
        .flatten()
        .filter(|sum| m.total_bytes.is_none_or(|t| *sum >= t));
    if let Some(sum) = modules {
        return (Some(sum), Some(InstalledBasis::Modules));
    }
    if let Some(entered) = m.installed_bytes {
        return (Some(entered), Some(InstalledBasis::Profile));
    }
    let firmware = profile
        .windows
        .as_ref()
        .and_then(|w| w.installed_ram_bytes)
        .filter(|i| m.total_bytes.is_none_or(|t| *i >= t));
    if let Some(f) = firmware {
        return (Some(f), Some(InstalledBasis::Firmware));
    }
    if let Some(p) = published_ram(profile).filter(|p| m.total_bytes.is_none_or(|t| *p >= t)) {
        return (Some(p), Some(InstalledBasis::Published));
    }
    match m.total_bytes.and_then(estimate_installed) {
        Some(e) => (Some(e), Some(InstalledBasis::MemTotalRoundedUp)),
        None => (None, None),
    }
}

/// The RAM the provider publishes for the profile's cloud instance type, bytes, when the
/// catalogue has that type (of that provider, when the profile names one).
fn published_ram(profile: &MachineProfile) -> Option<u64> {
    let platform = profile.host.platform.as_ref()?;
    let row = catalog().instance(platform.instance_type.as_deref()?)?;
    if platform.provider.is_some_and(|p| p != row.provider) {
        return None;
    }
    Some(row.ram_bytes())
}

/// The four sizes of [`RamSizes`]: `MemTotal`, usable RAM `min(MemTotal, cgroup limit)` (a
/// limit above `MemTotal` does not count: the kernel can't hand out memory it doesn't have),
/// installed RAM ([`installed_ram`]), and the RAM the sizing rules use.
pub fn ram_sizes(profile: &MachineProfile) -> RamSizes {
    let mem_total = profile.memory.total_bytes;
    let limit = profile.memory.limit_bytes;
    let (usable, limited) = match (mem_total, limit) {
        (Some(p), Some(l)) if l < p => (Some(l), true),
        (Some(p), _) => (Some(p), false),
        (None, Some(l)) => (Some(l), true),
        (None, None) => (None, false),
    };
    let (installed, basis) = installed_ram(profile);
    let sizing = if limited {
        usable
    } else {
        installed.or(mem_total)
    };
    RamSizes {
        mem_total_bytes: mem_total,
        limit_bytes: limit,
        usable_bytes: usable,
        limited_by_cgroup: limited,
        installed_bytes: installed,
        installed_provenance: basis.map(InstalledBasis::provenance),
        installed_basis: basis,
        sizing_bytes: sizing,
    }
}

/// One GPU's nominal memory: the catalogue's size when the catalogue knows the model and the
/// driver's total agrees with it ([`crate::catalog::Catalog::gpu_detected`]), else the driver's
/// total. The second value is true when the catalogue gave it.
pub fn nominal_vram(gpu: &crate::profile::Gpu) -> (Option<u64>, bool) {
    let known = gpu
        .name
        .as_deref()
        .and_then(|n| catalog().gpu_detected(n, gpu.vram_total_bytes))
        .filter(|m| !m.unified_memory);
    match known {
        Some(m) => (Some(m.vram_gib * GIB), true),
        None => (gpu.vram_total_bytes, false),
    }
}

/// Sums discrete VRAM, as reported and nominal. A unified-memory GPU has no VRAM of its own and
/// is counted apart.
pub fn vram_totals(profile: &MachineProfile) -> VramTotals {
    let discrete: Vec<_> = profile.gpus.iter().filter(|g| !g.unified_memory).collect();
    let known: Vec<u64> = discrete.iter().filter_map(|g| g.vram_total_bytes).collect();
    let nominal: Vec<(Option<u64>, bool)> = discrete.iter().map(|g| nominal_vram(g)).collect();
    let nominal_known: Vec<u64> = nominal.iter().filter_map(|(v, _)| *v).collect();
    let unknown = (discrete.len() - known.len()) as u32;
    let sum = |v: &[u64]| v.iter().copied().fold(0u64, u64::saturating_add);
    let complete = unknown == 0 && !known.is_empty();
    VramTotals {
        discrete_gpus: discrete.len() as u32,
        unified_gpus: (profile.gpus.len() - discrete.len()) as u32,
        unknown_vram_gpus: unknown,
        total_discrete_bytes: complete.then(|| sum(&known)),
        largest_discrete_bytes: known.iter().copied().max(),
        nominal_total_bytes: (complete && nominal_known.len() == discrete.len())
            .then(|| sum(&nominal_known)),
        nominal_largest_bytes: nominal_known.iter().copied().max(),
        catalogue_gpus: nominal.iter().filter(|(_, c)| *c).count() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 37, item 9: a p3.16xlarge, whose RAM AWS publishes as 488 GiB
    /// (aws.amazon.com/ec2/instance-types/p3/), shows `MemTotal` about 1 % below it:
    /// 488 × 0.99 = 483.1 GiB, 94.4 % of 512 GiB (at least the 94 % margin of
    /// [`MEMTOTAL_MIN_SHARE`]). Rounded up to a common size that was 512 GiB; the published
    /// figure is 488 GiB. A `MemTotal` above the published size is not this instance's
    /// (the figure is then not used), and another provider's type of the same name is not it.
    #[test]
    fn a_known_cloud_instance_has_its_published_ram() {
        use crate::profile::{CloudProvider, Platform, PlatformKind};
        let mut p = MachineProfile::unknown();
        p.memory.total_bytes = Some((488.0 * 0.99 * GIB as f64) as u64);
        assert_eq!(
            installed_ram(&p),
            (Some(512 * GIB), Some(InstalledBasis::MemTotalRoundedUp))
        );
        p.host.platform = Some(Platform {
            kind: Some(PlatformKind::Cloud),
            provider: Some(CloudProvider::Aws),
            instance_type: Some("p3.16xlarge".into()),
        });
        assert_eq!(
            installed_ram(&p),
            (Some(488 * GIB), Some(InstalledBasis::Published))
        );
        assert_eq!(InstalledBasis::Published.provenance(), Provenance::Detected);
        // Azure's "NC24ads_A100_v4" is 220 GiB (its size table); a typed size still wins.
        let mut azure = p.clone();
        azure.host.platform.as_mut().unwrap().provider = Some(CloudProvider::Azure);
        azure.host.platform.as_mut().unwrap().instance_type =
            Some("Standard_NC24ads_A100_v4".into());
        azure.memory.total_bytes = Some(216 * GIB);
        assert_eq!(installed_ram(&azure).0, Some(220 * GIB));
        azure.memory.installed_bytes = Some(224 * GIB);
        assert_eq!(installed_ram(&azure).1, Some(InstalledBasis::Profile));
        // MemTotal above 488 GiB: not the published size; the estimate as before.
        p.memory.total_bytes = Some(500 * GIB);
        assert_eq!(installed_ram(&p).1, Some(InstalledBasis::MemTotalRoundedUp));
        // The same name under another provider: not that row.
        p.memory.total_bytes = Some(483 * GIB);
        p.host.platform.as_mut().unwrap().provider = Some(CloudProvider::Gcp);
        assert_eq!(installed_ram(&p).0, Some(512 * GIB));
    }

    #[test]
    fn installed_size_is_estimated_from_memtotal_within_the_margin() {
        // 64 GiB installed shows as 62.7 GiB: 62.7 / 64 = 98 % ≥ 94 %.
        let mem_total = (62.7 * GIB as f64) as u64;
        assert_eq!(estimate_installed(mem_total), Some(64 * GIB));
        // An instance with 15.3 GiB of MemTotal was sold as 16 GiB.
        assert_eq!(
            estimate_installed((15.3 * GIB as f64) as u64),
            Some(16 * GIB)
        );
        // Exactly a common size is that size.
        assert_eq!(estimate_installed(32 * GIB), Some(32 * GIB));
        // 100 GiB is 78 % of 128 GiB: no common size explains it, so it stays unknown.
        assert_eq!(estimate_installed(100 * GIB), None);
    }
}
