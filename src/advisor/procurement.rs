//! Procurement: the current configuration and what to buy, with the reason for each number.
//! Pure; the report only prints it.

use serde::{Deserialize, Serialize};

use super::capacity::{EffectiveRam, VramTotals};
use super::findings::{Finding, FindingId, RecId};
use super::training::TrainingMemory;

/// Why RAM should grow to a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RamReason {
    /// RAM ≥ 2 × total VRAM: the seed article's tier for offload, large models and high
    /// resolution, and Puget Systems' rule (RAPIDS asks 1.8×).
    TwiceVram,
    /// RAM ≥ the largest GPU's VRAM (Dettmers), on multi-GPU machines.
    LargestGpu,
    /// What the user's training plan needs (training-memory planner).
    TrainingPlan,
}

/// One reason with the RAM it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamTarget {
    /// Why.
    pub reason: RamReason,
    /// Bytes it asks for.
    pub required_bytes: u64,
}

/// A way to build a RAM size from equal DIMMs, one per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimmSet {
    /// Memory channels filled (one DIMM each).
    pub channels: u32,
    /// Size of each DIMM, bytes (module sizes are binary: a "32 GB" DIMM is 32 GiB).
    pub dimm_bytes: u64,
    /// channels × dimm_bytes.
    pub total_bytes: u64,
}

/// The procurement section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Procurement {
    /// RAM installed now (else as the rules size it; see `capacity`).
    pub current_ram_bytes: Option<u64>,
    /// The discrete GPUs' nominal memory.
    pub vram_bytes: Option<u64>,
    /// What each reason asks for (only reasons current RAM does not meet).
    pub targets: Vec<RamTarget>,
    /// The largest target, or `None` when current RAM meets them all.
    pub recommended_ram_bytes: Option<u64>,
    /// Channel-filling sets of equal DIMMs reaching the recommendation, for common platforms
    /// (desktop 2 channels, workstation 4 and 8, server 8 and 12 per socket), smallest first.
    pub dimm_sets: Vec<DimmSet>,
    /// Other hardware and configuration advice from the findings (storage, PCIe, /dev/shm, …).
    pub other: Vec<RecId>,
    /// What reaching `recommended_ram_bytes` takes on this kind of machine
    /// ([`super::purchase::purchase_to_reach`]); `None` when no more RAM is needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase: Option<super::purchase::Purchase>,
}

/// Module sizes sold today, GiB: DDR4 and DDR5 UDIMMs/RDIMMs (DDR5 adds the 24/48/96 GB
/// non-binary parts). Assumption from vendor catalogues.
pub const DIMM_SIZES_GIB: [u64; 10] = [8, 16, 24, 32, 48, 64, 96, 128, 192, 256];

/// Channel counts of common platforms: desktop 2, HEDT/workstation 4 and 8, one server socket
/// 8 (Xeon Scalable, EPYC 7003) and 12 (EPYC 9004, Xeon 6).
pub const PLATFORM_CHANNELS: [u32; 4] = [2, 4, 8, 12];

/// For each platform channel count, the smallest one-DIMM-per-channel set of equal DIMMs
/// whose total reaches `target`.
pub fn dimm_sets(target: u64) -> Vec<DimmSet> {
    PLATFORM_CHANNELS
        .iter()
        .filter_map(|&channels| {
            DIMM_SIZES_GIB
                .iter()
                .map(|g| g << 30)
                .find(|d| d * u64::from(channels) >= target)
                .map(|dimm| DimmSet {
                    channels,
                    dimm_bytes: dimm,
                    total_bytes: dimm * u64::from(channels),
                })
        })
        .collect()
}

/// The largest one-DIMM-per-channel set of [`dimm_sets`]: the most channels, each with the
/// largest module (12 × 256 GB = 3072 GiB).
pub fn largest_dimm_set() -> DimmSet {
    let channels = PLATFORM_CHANNELS.iter().copied().max().unwrap_or(1);
    let dimm = DIMM_SIZES_GIB.iter().copied().max().unwrap_or(0) << 30;
    DimmSet {
        channels,
        dimm_bytes: dimm,
        total_bytes: dimm * u64::from(channels),
    }
}

/// Hardware/configuration recommendations worth a line in a purchase request.
const OTHER_ADVICE: [RecId; 4] = [
    RecId::CheckPcieSlot,
    RecId::GrowShm,
    RecId::AddSwap,
    RecId::RaiseLimit,
];

/// Builds the procurement section from the assessment's parts.
pub fn procurement(
    profile: &crate::profile::MachineProfile,
    ram: &EffectiveRam,
    vram: &VramTotals,
    findings: &[Finding],
    training: Option<&TrainingMemory>,
) -> Procurement {
    // What to buy is installed RAM. A plan's need is usable RAM; the firmware and kernel keep
    // the same share of a larger installation, so the installed size to buy is the need over
    // this machine's usable share (e.g. 63 GiB of need on a machine where 64 GiB shows as 62.7
    // asks for 64.3 GiB installed, which rounds to the next common size).
    let current = ram.installed_bytes.or(ram.sizing_bytes);
    let usable_share = ram.usable_share();
    let mut targets = Vec::new();
    let mut push = |reason, required: u64| {
        if current.is_none_or(|c| c < required) {
            targets.push(RamTarget {
                reason,
                required_bytes: required,
            });
        }
    };
    if let Some(total) = vram.nominal_total_bytes {
        push(RamReason::TwiceVram, total.saturating_mul(2));
    }
    if vram.discrete_gpus > 1 {
        if let Some(largest) = vram.nominal_largest_bytes {
            push(RamReason::LargestGpu, largest);
        }
    }
    if let Some(t) = training.filter(|t| t.cpu.fits == Some(false)) {
        let installed = crate::units::saturating_bytes(t.cpu.needed_bytes as f64 / usable_share);
        push(RamReason::TrainingPlan, installed);
    }
    let recommended = targets.iter().map(|t| t.required_bytes).max();
    let mut other = Vec::new();
    for f in findings {
        if f.id == FindingId::TrainingDoesNotFit {
            continue;
        }
        for r in &f.recommendations {
            if OTHER_ADVICE.contains(r) && !other.contains(r) {
                other.push(*r);
            }
        }
    }
    let purchase = recommended.map(|r| super::purchase::purchase_to_reach(profile, ram, r));
    // The generic channel-filling sets only where nothing better can be said: never for a cloud
    // instance, a machine whose modules can be planned, or soldered memory.
    let generic = matches!(purchase, Some(super::purchase::Purchase::Generic { .. }));
    Procurement {
        current_ram_bytes: current,
        vram_bytes: vram.nominal_total_bytes,
        targets,
        recommended_ram_bytes: recommended,
        dimm_sets: if generic {
            recommended.map(dimm_sets).unwrap_or_default()
        } else {
            Vec::new()
        },
        other,
        purchase,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g5_needs_48_gib_built_from_channel_filling_sets() {
        // 2 × 24 GiB = 48 GiB: 2 × 24 GB, 4 × 16 GB, 8 × 8 GB, 12 × 8 GB (96 GiB).
        let sets = dimm_sets(48 << 30);
        let shape: Vec<(u32, u64)> = sets
            .iter()
            .map(|s| (s.channels, s.dimm_bytes >> 30))
            .collect();
        assert_eq!(shape, [(2, 24), (4, 16), (8, 8), (12, 8)]);
    }

    #[test]
    fn huge_targets_have_no_set_beyond_the_catalogue() {
        // 12 × 256 GiB = 3 TiB is the largest set.
        assert!(dimm_sets(4 << 40).is_empty());
        assert_eq!(dimm_sets(3 << 40).len(), 1);
    }
}
