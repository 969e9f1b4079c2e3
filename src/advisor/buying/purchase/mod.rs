//! Hardware a user can actually buy for this kind of machine to reach an installed RAM size: a
//! larger instance of the same family for a cloud instance (never modules), modules that exist
//! for the installed memory type in free slots (or replacing the installed ones) for a machine
//! with DIMM slots, nothing for soldered memory (a new machine instead), a larger allocation for
//! a virtual machine, `memory=` in `.wslconfig` first under WSL2, and the generic
//! channel-filling sets ([`super::dimm_sets::dimm_sets`]) when the machine can't be told. Pure.

pub mod modules;
mod types;

use super::dimm_sets::{DimmSet, dimm_sets, largest_dimm_set};
use crate::advisor::capacity::RamSizes;
use crate::advisor::findings::Quantity;
use crate::advisor::recommend::{AdviceId, Outcome, Recommendation, Subject};
use crate::advisor::wsl;
use crate::catalog::catalog;
use crate::catalog::instances;
use crate::profile::{GpuVendor, MachineProfile, PlatformKind};

pub use modules::{ModulePlan, ModuleSpec, ReplaceReason};
pub use types::{CpuPlatform, GenericReason, InstanceChoice, Purchase, SolderedReason, WslPlan};

/// What reaching `needed_installed_bytes` of installed RAM takes on this machine. `ram` is the
/// advisor's [`RamSizes`]; installed RAM (modules, entered or estimated) is what is
/// compared and bought. Never panics: what can't be told leads to the generic sets or to
/// keeping the machine.
pub fn purchase_to_reach(
    profile: &MachineProfile,
    ram: &RamSizes,
    needed_installed_bytes: u64,
) -> Purchase {
    let needed = needed_installed_bytes;
    let platform = profile.host.platform.as_ref();
    let kind = platform.and_then(|p| p.kind);
    if let Some(w) = profile.memory.wsl.as_ref().filter(|w| w.is_wsl2()) {
        let cap = w.memory_cap_bytes.or(ram.mem_total_bytes);
        if cap.is_some_and(|c| c >= needed) {
            return Purchase::NotNeeded {
                installed_bytes: cap.unwrap_or(0),
            };
        }
        return Purchase::Wsl(wsl_plan(profile, cap, needed));
    }
    let cloud = kind == Some(PlatformKind::Cloud) || platform.is_some_and(|p| p.provider.is_some());
    if cloud {
        return cloud_purchase(profile, ram, needed);
    }
    // A job limit below the node's RAM: the limit is the lever, never modules.
    if ram.limited_by_cgroup {
        if let Some(limit) = ram.limit_bytes {
            return Purchase::RaiseLimit {
                limit_bytes: limit,
                node_bytes: ram.mem_total_bytes,
                node_reaches: ram
                    .installed_bytes
                    .or(ram.mem_total_bytes)
                    .is_some_and(|n| n >= needed),
            };
        }
    }
    let installed = ram.installed_bytes;
    if let Some(i) = installed.filter(|i| *i >= needed) {
        return Purchase::NotNeeded { installed_bytes: i };
    }
    if kind == Some(PlatformKind::VirtualMachine) {
        return Purchase::VirtualMachine;
    }
    if kind == Some(PlatformKind::HostedNotebook) {
        return Purchase::HostedNotebook;
    }
    let dimms = &profile.memory.dimms;
    let apple = kind == Some(PlatformKind::Apple)
        || profile.gpus.iter().any(|g| g.vendor == GpuVendor::Apple);
    let unified = !profile.gpus.is_empty() && profile.gpus.iter().all(|g| g.unified_memory);
    if apple || unified {
        // Memory shared by CPU and GPU is soldered beside the chip: a machine with more
        // unified memory, never modules.
        return Purchase::Soldered {
            reason: if apple {
                SolderedReason::Apple
            } else {
                SolderedReason::Unified
            },
            memory_type: dimms.first().and_then(|d| d.memory_type.clone()),
            alternative: Vec::new(),
            largest_set: None,
            unified_sizes: if apple {
                apple_sizes_reaching(needed)
            } else {
                Vec::new()
            },
        };
    }
    let soldered_type = dimms.iter().find_map(|d| {
        let t = d.memory_type.as_deref()?;
        crate::catalog::modules::soldered(&catalog().modules, t).then(|| t.to_string())
    });
    let slots = profile.memory.slots_total;
    let free = slots.map(|s| s.saturating_sub(dimms.len() as u32));
    let chips = !dimms.is_empty()
        && dimms
            .iter()
            .all(|d| d.form_factor.as_deref() == Some("Row Of Chips"))
        && free.is_none_or(|f| f == 0);
    if apple || soldered_type.is_some() || chips {
        return Purchase::Soldered {
            reason: if apple {
                SolderedReason::Apple
            } else {
                SolderedReason::Soldered
            },
            memory_type: soldered_type
                .or_else(|| dimms.first().and_then(|d| d.memory_type.clone())),
            // Another machine: today's platforms.
            alternative: dimm_sets(needed, None),
            largest_set: largest_if_none(needed, None),
            unified_sizes: Vec::new(),
        };
    }
    // This machine's own memory type, when every module has the same one.
    let installed_type = dimms
        .first()
        .and_then(|d| d.memory_type.as_deref())
        .filter(|t| dimms.iter().all(|d| d.memory_type.as_deref() == Some(*t)));
    // A CPU the catalogue places (a Threadripper PRO 5000 WX takes 8 channels of DDR4
    // RDIMMs) narrows the sets to its platform; a laptop's CPU says nothing about its slots.
    let cpu_platform = profile
        .cpu
        .model
        .as_deref()
        .and_then(|m| Some((m, catalog().platform_for_cpu(m)?)))
        .filter(|(_, p)| {
            kind != Some(PlatformKind::Laptop) && installed_type.is_none_or(|t| t == p.memory)
        });
    let generic = |reason| match cpu_platform {
        Some((cpu, p)) => {
            let one = std::slice::from_ref(p);
            let sets =
                super::dimm_sets::dimm_sets_from(needed, Some(&p.memory), one, &catalog().modules);
            let largest =
                super::dimm_sets::largest_dimm_set_from(Some(&p.memory), one, &catalog().modules)
                    .filter(|l| l.total_bytes < needed);
            Purchase::Generic {
                reason,
                dimm_sets: sets,
                largest_set: largest,
                cpu_platform: Some(CpuPlatform {
                    cpu: cpu.to_string(),
                    platform: p.platform.clone(),
                }),
            }
        }
        None => Purchase::Generic {
            reason,
            dimm_sets: dimm_sets(needed, installed_type),
            largest_set: largest_if_none(needed, installed_type),
            cpu_platform: None,
        },
    };
    if dimms.is_empty() {
        return generic(if kind.is_none() {
            GenericReason::PlatformUnknown
        } else {
            GenericReason::ModulesUnknown
        });
    }
    let Some(slots) = slots else {
        return generic(GenericReason::SlotsUnknown);
    };
    match modules::plan(
        dimms,
        slots,
        profile.memory.channels_total,
        kind,
        needed,
        &catalog().modules,
    ) {
        modules::ModuleOutcome::Plan(p) if p.keep > 0 => Purchase::AddModules(p),
        modules::ModuleOutcome::Plan(p) => Purchase::ReplaceModules(p),
        modules::ModuleOutcome::BoardLimit {
            module,
            slots,
            max_bytes,
        } => Purchase::BoardLimit {
            module,
            slots,
            max_bytes,
            // A machine with more channels: today's platforms.
            alternative: dimm_sets(needed, None),
            largest_set: largest_if_none(needed, None),
        },
        modules::ModuleOutcome::Unknown => generic(GenericReason::ModulesUnknown),
    }
}

/// Unified-memory sizes Apple sells Macs with, GB (Apple counts 2^30 bytes): 8 to 32 (MacBook
/// Air, iMac, Mac mini; 18 on M3 Pro), 36 and 48 (M3/M4 Pro and Max), 64, 96 and 128 (Max,
/// Ultra), 192 (M2 Ultra), 256 and 512 (M3 Ultra Mac Studio). Sources: Apple's specification
/// pages as huggingface/huggingface.js#1937 lists them per chip (M1 Pro 16/32, M1 Max 32/64,
/// M1 Ultra 64/128, M2 Pro 16/32, M2 Ultra 64/128/192, M4 Max 36/48/64/128) and Apple's Mac
/// Studio (2025) specifications (M3 Ultra 96/256/512 GB).
pub const APPLE_UNIFIED_SIZES_GB: &[u64] = &[8, 16, 18, 24, 32, 36, 48, 64, 96, 128, 192, 256, 512];

/// The first three sizes of [`APPLE_UNIFIED_SIZES_GB`] that reach `needed` bytes, in bytes;
/// empty when no Mac holds it.
pub fn apple_sizes_reaching(needed: u64) -> Vec<u64> {
    APPLE_UNIFIED_SIZES_GB
        .iter()
        .map(|gb| gb << 30)
        .filter(|b| *b >= needed)
        .take(3)
        .collect()
}

/// The largest set of `memory_type` ([`largest_dimm_set`]) when no set reaches `needed`.
fn largest_if_none(needed: u64, memory_type: Option<&str>) -> Option<DimmSet> {
    largest_dimm_set(memory_type).filter(|l| l.total_bytes < needed)
}

fn cloud_purchase(profile: &MachineProfile, ram: &RamSizes, needed: u64) -> Purchase {
    let platform = profile.host.platform.as_ref();
    let itype = platform.and_then(|p| p.instance_type.clone());
    let Some(current) = itype.as_deref().and_then(|t| catalog().instance(t)) else {
        if let Some(i) = ram.installed_bytes.filter(|i| *i >= needed) {
            return Purchase::NotNeeded { installed_bytes: i };
        }
        return Purchase::InstanceNotInCatalogue {
            provider: platform.and_then(|p| p.provider),
            instance_type: itype,
        };
    };
    if current.ram_bytes() >= needed {
        return Purchase::NotNeeded {
            installed_bytes: current.ram_bytes(),
        };
    }
    let all = &catalog().instances;
    match instances::smallest_reaching(all, current, needed) {
        Some(target) => Purchase::LargerInstance {
            current: current.into(),
            target: target.into(),
        },
        None => Purchase::NoLargerInstance {
            current: current.into(),
            largest: instances::largest(all, current).unwrap_or(current).into(),
        },
    }
}

fn wsl_plan(profile: &MachineProfile, cap: Option<u64>, needed: u64) -> WslPlan {
    let windows = wsl::windows_ram(profile);
    let cap_after = wsl::wsl_cap_after(profile);
    use crate::units::GIB;
    WslPlan {
        cap_bytes: cap,
        set_memory_bytes: needed.div_ceil(GIB).saturating_mul(GIB),
        windows_ram_bytes: windows.map(|w| w.0),
        windows_ram_estimated: windows
            .is_some_and(|w| w.1 == crate::profile::Provenance::Estimated),
        cap_after_bytes: cap_after,
        enough: cap_after.map(|c| c >= needed),
        windows_needed_bytes: crate::advisor::capacity::round_up_installed(
            needed.saturating_add(wsl::WINDOWS_RESERVE_BYTES),
        ),
    }
}

/// The ranked list's hardware item for reaching `needed_installed_bytes`: `add-ram` (kind
/// hardware) with `modules` ("1 × 32 GB DDR4-3200") and `ram_bytes` (installed afterwards) when
/// modules can be bought; `larger-instance` (kind cloud) with `instance_type` and `ram` for a
/// catalogued cloud instance. Where the machine can't name them, the size to reach as
/// `ram_bytes` ([`crate::advisor::capacity::round_up_installed`]): `add-ram` without `modules`
/// (slots or modules unknown), `new-machine` (soldered memory, or more than the board holds),
/// `raise-vm-memory` (kind OS) and `other-instance` (kind cloud). `None` when nothing is to be
/// bought (enough installed, or WSL's cap, which [`super::ram_advice`] handles). The
/// subject is [`Subject::Machine`]; callers may set their own. `result` is the model re-run
/// with the change, computed by the caller.
pub fn hardware_recommendation(
    profile: &MachineProfile,
    ram: &RamSizes,
    needed_installed_bytes: u64,
    result: Outcome,
) -> Option<Recommendation> {
    let rec = |id| Recommendation::new(id, Subject::Machine, result);
    // Where the machine can't say which modules or instance, the size to reach is still the
    // advice: the smallest common capacity that covers the need.
    let rounded = crate::advisor::capacity::round_up_installed(needed_installed_bytes);
    let size = Quantity::Bytes(rounded);
    // The same plan re-assessed with that much RAM installed ([`crate::advisor::whatif`]).
    let with_ram = |r: Recommendation, bytes: u64| {
        r.on_machine(crate::advisor::whatif::MachineChange {
            ram_bytes: Some(bytes),
            ..Default::default()
        })
    };
    match purchase_to_reach(profile, ram, needed_installed_bytes) {
        Purchase::AddModules(p) | Purchase::ReplaceModules(p) => Some(with_ram(
            rec(AdviceId::AddRam)
                .with("modules", modules_quantity(&p))
                .with("ram_bytes", Quantity::Bytes(p.installed_after_bytes)),
            p.installed_after_bytes,
        )),
        Purchase::LargerInstance { target, .. } => Some(with_ram(
            rec(AdviceId::LargerInstance)
                .with("instance_type", Quantity::Text(target.instance_type))
                .with("ram", Quantity::Bytes(target.ram_bytes)),
            target.ram_bytes,
        )),
        Purchase::Generic { .. } => Some(with_ram(
            rec(AdviceId::AddRam).with("ram_bytes", size),
            rounded,
        )),
        Purchase::Soldered { .. } | Purchase::BoardLimit { .. } => Some(with_ram(
            rec(AdviceId::NewMachine).with("ram_bytes", size),
            rounded,
        )),
        Purchase::HostedNotebook => Some(with_ram(
            rec(AdviceId::LargerRuntime).with("ram_bytes", size.clone()),
            rounded,
        )),
        Purchase::VirtualMachine => Some(with_ram(
            rec(AdviceId::RaiseVmMemory).with("ram_bytes", size),
            rounded,
        )),
        Purchase::NoLargerInstance { .. } | Purchase::InstanceNotInCatalogue { .. } => {
            Some(with_ram(
                rec(AdviceId::OtherInstance).with("ram_bytes", size),
                rounded,
            ))
        }
        // The limit is a lever of its own (`raise-limit`, ranked before hardware).
        Purchase::NotNeeded { .. } | Purchase::Wsl(_) | Purchase::RaiseLimit { .. } => None,
    }
}

/// The modules of `p` to buy as a [`Quantity::Modules`] (`present::parts` writes the part list).
pub fn modules_quantity(p: &ModulePlan) -> Quantity {
    let m = &p.module;
    Quantity::Modules {
        count: p.buy,
        size_bytes: m.size_bytes,
        memory_type: m.memory_type.clone(),
        speed_mts: m.speed_mts,
        form_factor: m.form_factor,
    }
}

/// The finding recommendation that stands for "add RAM" on this kind of machine: a larger
/// instance for a cloud instance, a new machine for soldered memory, a larger allocation for a
/// virtual machine, modules otherwise.
pub fn add_ram_rec(profile: &MachineProfile) -> AdviceId {
    let platform = profile.host.platform.as_ref();
    let kind = platform.and_then(|p| p.kind);
    if kind == Some(PlatformKind::Cloud) || platform.is_some_and(|p| p.provider.is_some()) {
        return AdviceId::LargerInstance;
    }
    if kind == Some(PlatformKind::VirtualMachine) {
        return AdviceId::RaiseVmMemory;
    }
    if kind == Some(PlatformKind::HostedNotebook) {
        return AdviceId::LargerRuntime;
    }
    let soldered = profile.memory.dimms.iter().any(|d| {
        d.memory_type
            .as_deref()
            .is_some_and(|t| crate::catalog::modules::soldered(&catalog().modules, t))
    });
    if kind == Some(PlatformKind::Apple)
        || profile.gpus.iter().any(|g| g.vendor == GpuVendor::Apple)
        || soldered
    {
        return AdviceId::NewMachine;
    }
    AdviceId::AddRam
}

#[cfg(test)]
mod tests;
