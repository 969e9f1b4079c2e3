//! Effective RAM and VRAM totals: the two numbers every ratio divides.

use serde::{Deserialize, Serialize};

use crate::profile::MachineProfile;

/// System memory as a training job sees it. Bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectiveRam {
    /// Physical RAM (`MemTotal`).
    pub physical_bytes: Option<u64>,
    /// cgroup limit, when one is set.
    pub limit_bytes: Option<u64>,
    /// What a job can use: the cgroup limit when it is lower than physical RAM, else physical
    /// RAM. `None` when physical RAM is unknown and there is no limit.
    pub effective_bytes: Option<u64>,
    /// True when the cgroup limit is what caps it.
    pub limited_by_cgroup: bool,
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
    /// Sum of discrete VRAM; `None` when any discrete GPU's VRAM is unknown or there is none.
    pub total_discrete_bytes: Option<u64>,
    /// The largest single discrete GPU's VRAM (known ones only).
    pub largest_discrete_bytes: Option<u64>,
}

/// Effective RAM: `min(MemTotal, cgroup limit)`. A limit above physical RAM does not count
/// (the kernel can't hand out memory it doesn't have).
pub fn effective_ram(profile: &MachineProfile) -> EffectiveRam {
    let physical = profile.memory.total_bytes;
    let limit = profile.memory.limit_bytes;
    let (effective, limited) = match (physical, limit) {
        (Some(p), Some(l)) if l < p => (Some(l), true),
        (Some(p), _) => (Some(p), false),
        (None, Some(l)) => (Some(l), true),
        (None, None) => (None, false),
    };
    EffectiveRam {
        physical_bytes: physical,
        limit_bytes: limit,
        effective_bytes: effective,
        limited_by_cgroup: limited,
    }
}

/// Sums discrete VRAM. A unified-memory GPU has no VRAM of its own and is counted apart.
pub fn vram_totals(profile: &MachineProfile) -> VramTotals {
    let discrete: Vec<_> = profile.gpus.iter().filter(|g| !g.unified_memory).collect();
    let known: Vec<u64> = discrete.iter().filter_map(|g| g.vram_total_bytes).collect();
    let unknown = (discrete.len() - known.len()) as u32;
    VramTotals {
        discrete_gpus: discrete.len() as u32,
        unified_gpus: (profile.gpus.len() - discrete.len()) as u32,
        unknown_vram_gpus: unknown,
        total_discrete_bytes: (unknown == 0 && !known.is_empty())
            .then(|| known.iter().copied().fold(0u64, u64::saturating_add)),
        largest_discrete_bytes: known.iter().copied().max(),
    }
}
