//! Planned machines: a configuration that doesn't exist yet, built from the catalogue into a
//! profile so the same advisor can judge it ("4× RTX 5090 with 128 GB or 256 GB?").

use serde::{Deserialize, Serialize};

use super::catalog;
use crate::profile::{Cpu, Disk, DiskKind, Host, MachineProfile};

/// A machine to plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlannedMachine {
    /// A name for it ("2× 3090, 64 GB").
    pub name: String,
    /// GPU model or alias from the catalogue.
    pub gpu_model: String,
    /// Number of GPUs.
    pub gpu_count: u32,
    /// Platform name from the catalogue.
    pub platform: String,
    /// Sockets populated.
    pub sockets: u32,
    /// Memory type ("DDR5-5600").
    pub memory_type: String,
    /// Size of each DIMM, GiB.
    pub dimm_gib: u64,
    /// Number of DIMMs.
    pub dimm_count: u32,
    /// Where the dataset lives.
    pub storage: DiskKind,
}

/// Something wrong or doubtful about a planned configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "id")]
pub enum PlanIssue {
    /// The GPU model is not in the catalogue.
    UnknownGpu,
    /// The platform is not in the catalogue.
    UnknownPlatform,
    /// The memory type is not in the catalogue.
    UnknownMemoryType,
    /// More sockets than the platform has.
    TooManySockets {
        /// Asked for.
        sockets: u32,
        /// The platform's maximum.
        max: u32,
    },
    /// More DIMMs than slots: the machine can't exist.
    MoreDimmsThanSlots {
        /// DIMMs asked for.
        dimms: u32,
        /// Slots on the board.
        slots: u32,
    },
    /// Fewer DIMMs than channels: some channels stay empty and bandwidth drops.
    ChannelsEmpty {
        /// Channels with a DIMM.
        populated: u32,
        /// Channels available.
        channels: u32,
    },
    /// DIMMs not a multiple of the channel count: channels populated unevenly.
    UnevenChannels {
        /// DIMMs.
        dimms: u32,
        /// Channels.
        channels: u32,
    },
    /// The memory type doesn't match the platform (DDR4 on a DDR5 board).
    WrongMemoryType,
}

/// Builds the profile of a planned machine and lists what can't be right about it.
pub fn build(plan: &PlannedMachine) -> (MachineProfile, Vec<PlanIssue>) {
    let c = catalog();
    let mut issues = Vec::new();
    let gpu = c.gpu(&plan.gpu_model);
    if gpu.is_none() {
        issues.push(PlanIssue::UnknownGpu);
    }
    let platform = c.platform(&plan.platform);
    let memory = c.memory_type(&plan.memory_type);
    if memory.is_none() {
        issues.push(PlanIssue::UnknownMemoryType);
    }
    match platform {
        None => issues.push(PlanIssue::UnknownPlatform),
        Some(pf) => {
            if plan.sockets > pf.max_sockets {
                issues.push(PlanIssue::TooManySockets {
                    sockets: plan.sockets,
                    max: pf.max_sockets,
                });
            }
            let sockets = plan.sockets.clamp(1, pf.max_sockets);
            let channels = pf.channels_per_socket * sockets;
            let slots = channels * pf.dimms_per_channel;
            if plan.dimm_count > slots {
                issues.push(PlanIssue::MoreDimmsThanSlots {
                    dimms: plan.dimm_count,
                    slots,
                });
            } else if plan.dimm_count < channels {
                issues.push(PlanIssue::ChannelsEmpty {
                    populated: plan.dimm_count,
                    channels,
                });
            } else if plan.dimm_count % channels != 0 {
                issues.push(PlanIssue::UnevenChannels {
                    dimms: plan.dimm_count,
                    channels,
                });
            }
            if memory.is_some_and(|m| !m.name.starts_with(&pf.memory)) {
                issues.push(PlanIssue::WrongMemoryType);
            }
        }
    }
    let mut p = MachineProfile::unknown();
    p.generated_by = Some("planned in ramvram from the catalogue".into());
    p.host = Host {
        hostname: Some(plan.name.clone()),
        os: None,
        kernel: None,
        arch: None,
        platform: None,
    };
    p.cpu = Cpu {
        model: platform.map(|pf| pf.platform.clone()),
        physical_cores: None,
        logical_cpus: None,
    };
    p.memory.total_bytes =
        Some(plan.dimm_gib.saturating_mul(u64::from(plan.dimm_count)) << 30).filter(|b| *b > 0);
    for i in 0..plan.gpu_count {
        p.gpus.push(super::GpuModel::profile_gpu(
            gpu,
            i,
            Some(plan.gpu_model.clone()),
        ));
    }
    p.disks.push(Disk {
        mount_point: "/data".into(),
        file_system: None,
        kind: plan.storage,
        device: None,
        total_bytes: None,
        available_bytes: None,
    });
    (p, issues)
}

impl PlannedMachine {
    /// A desktop with `gpus` × `gpu_model` and `ram_gib` of DDR5-5600 in two or four equal DIMMs.
    pub fn desktop(gpu_model: &str, gpus: u32, ram_gib: u64) -> PlannedMachine {
        let dimm_count = if ram_gib >= 128 { 4 } else { 2 };
        PlannedMachine {
            name: format!("{gpus}× {gpu_model} · {ram_gib} GiB"),
            gpu_model: gpu_model.into(),
            gpu_count: gpus,
            platform: "Desktop (AM5 / LGA1700 / LGA1851)".into(),
            sockets: 1,
            memory_type: "DDR5-5600".into(),
            dimm_gib: ram_gib / u64::from(dimm_count),
            dimm_count,
            storage: DiskKind::Nvme,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_and_unbalanced_configurations_are_flagged() {
        let mut p = PlannedMachine::desktop("rtx3090", 2, 64);
        assert!(build(&p).1.is_empty(), "2 × 32 GiB on two channels is fine");
        p.dimm_count = 6;
        assert_eq!(
            build(&p).1,
            vec![PlanIssue::MoreDimmsThanSlots { dimms: 6, slots: 4 }]
        );
        p.dimm_count = 1;
        assert_eq!(
            build(&p).1,
            vec![PlanIssue::ChannelsEmpty {
                populated: 1,
                channels: 2
            }]
        );
        p.dimm_count = 3;
        assert_eq!(
            build(&p).1,
            vec![PlanIssue::UnevenChannels {
                dimms: 3,
                channels: 2
            }]
        );
        p.dimm_count = 2;
        p.memory_type = "DDR4-3200".into();
        assert_eq!(build(&p).1, vec![PlanIssue::WrongMemoryType]);
        p.gpu_model = "Voodoo 5".into();
        assert!(build(&p).1.contains(&PlanIssue::UnknownGpu));
    }

    #[test]
    fn the_profile_carries_ram_and_vram() {
        let (profile, _) = build(&PlannedMachine::desktop("rtx3090", 2, 128));
        assert_eq!(profile.memory.total_bytes, Some(128 << 30));
        assert_eq!(profile.gpus.len(), 2);
        assert_eq!(profile.gpus[0].vram_total_bytes, Some(24 << 30));
    }
}
