//! The published RAM-sizing rules, each judged against this machine.
//!
//! Every rule is "RAM ≥ factor × basis", with RAM as sized ([`RamSizes::sizing_bytes`]:
//! installed, or a cgroup limit that caps the job) and the GPUs' nominal memory
//! ([`VramTotals::nominal_total_bytes`]): the rules are written for machines as bought. The
//! factors and their sources are below and in `docs/model.md`; the seed article's tiers are
//! rules too.

use serde::{Deserialize, Serialize};

use super::capacity::{RamSizes, VramTotals};

/// What a rule multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Sum of discrete VRAM.
    TotalVram,
    /// VRAM of the largest single GPU.
    LargestGpu,
    /// A fixed number of bytes per discrete GPU.
    PerGpu,
}

/// Stable rule ids; their names and explanations are in the locale files (`rule.<id>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleId {
    /// Seed §四.1: RAM ≥ 1.0 × total VRAM; enough without offload.
    SeedNoOffload,
    /// Seed §四.1: RAM ≥ 1.5 × total VRAM when optimizer states are offloaded.
    SeedOffload,
    /// Seed §四.1: RAM ≥ 2 × total VRAM for large models or high resolution.
    SeedLargeModel,
    /// Dettmers: RAM ≥ the largest GPU's memory.
    DettmersLargestGpu,
    /// Bekman: node RAM ≥ total GPU memory of the node.
    BekmanTotalVram,
    /// RAPIDS doctor: warns below 1.8 × total GPU memory.
    RapidsDoctor,
    /// Puget Systems: RAM ≥ 2 × total VRAM.
    Puget2x,
    /// NVIDIA Enterprise RA: ≥ 128 GB RAM per GPU.
    NvidiaRa128PerGpu,
    /// Cisco UCS X580p: memory ≥ 3 × total GPU memory.
    Cisco3x,
}

/// One rule's definition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleDef {
    /// Id.
    pub id: RuleId,
    /// What the factor multiplies.
    pub basis: Basis,
    /// Factor (for [`Basis::PerGpu`], bytes per GPU).
    pub factor: f64,
    /// Citation: where the rule is published.
    pub source: &'static str,
}

/// NVIDIA's "128 GB per GPU", in the rule's own unit: NVIDIA's reference architectures give
/// system memory in decimal GB (128 × 10^9 bytes = 119.2 GiB), so a server with 8 × 128 GB
/// = 1 TB (1,000 GB) meets it with 1 TiB installed.
const NVIDIA_RA_PER_GPU_BYTES: f64 = 128e9;

/// The seed article, by its title (it names no author): part 4, item 1, "golden configuration
/// rules (revised)". What it gets wrong is in `docs/model.md`.
const SEED_SOURCE: &str = "“当内存跟不上显存：深度学习课题组面临的隐形成本与效率陷阱” (author not named), part 4, item 1, “golden configuration rules (revised)”; checked in docs/model.md";

/// The rules, in the order the rules table shows them.
pub const RULES: [RuleDef; 9] = [
    RuleDef {
        id: RuleId::SeedNoOffload,
        basis: Basis::TotalVram,
        factor: 1.0,
        source: SEED_SOURCE,
    },
    RuleDef {
        id: RuleId::SeedOffload,
        basis: Basis::TotalVram,
        factor: 1.5,
        source: SEED_SOURCE,
    },
    RuleDef {
        id: RuleId::SeedLargeModel,
        basis: Basis::TotalVram,
        factor: 2.0,
        source: SEED_SOURCE,
    },
    RuleDef {
        id: RuleId::DettmersLargestGpu,
        basis: Basis::LargestGpu,
        factor: 1.0,
        source: "Tim Dettmers, \"A Full Hardware Guide to Deep Learning\" (timdettmers.com), RAM section",
    },
    RuleDef {
        id: RuleId::BekmanTotalVram,
        basis: Basis::TotalVram,
        factor: 1.0,
        source: "Stas Bekman, \"Machine Learning Engineering\" (github.com/stas00/ml-engineering), compute/cpu-memory",
    },
    RuleDef {
        id: RuleId::RapidsDoctor,
        basis: Basis::TotalVram,
        factor: 1.8,
        source: "RAPIDS CLI `rapids doctor` (github.com/rapidsai/rapids-cli), rapids_cli/doctor/checks/memory.py: check_memory_to_gpu_ratio",
    },
    RuleDef {
        id: RuleId::Puget2x,
        basis: Basis::TotalVram,
        factor: 2.0,
        source: "Puget Systems, \"Hardware Recommendations for Machine Learning / AI\", Memory section",
    },
    RuleDef {
        id: RuleId::NvidiaRa128PerGpu,
        basis: Basis::PerGpu,
        factor: NVIDIA_RA_PER_GPU_BYTES,
        source: "NVIDIA Enterprise Reference Architecture, H200 NVL PCIe servers: ≥ 128 GB system memory per GPU",
    },
    RuleDef {
        id: RuleId::Cisco3x,
        basis: Basis::TotalVram,
        factor: 3.0,
        source: "Cisco UCS X580p PCIe Node spec sheet: server memory ≥ 3 × total GPU memory",
    },
];

/// Outcome of one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleStatus {
    /// RAM as sized ≥ required.
    Pass,
    /// RAM as sized < required.
    Fail,
    /// A number the rule needs is unknown.
    CantCheck,
    /// The rule does not apply (no discrete GPU: unified memory or none).
    NotApplicable,
}

/// One rule judged against one machine. Bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleResult {
    /// Rule id.
    pub id: RuleId,
    /// What the factor multiplies.
    pub basis: Basis,
    /// The factor (bytes per GPU for `per-gpu`).
    pub factor: f64,
    /// RAM the rule asks for on this machine.
    pub required_bytes: Option<u64>,
    /// RAM as sized (installed, or the cgroup limit that caps the job).
    pub actual_bytes: Option<u64>,
    /// Outcome.
    pub status: RuleStatus,
    /// Where the rule is published.
    pub source: String,
}

/// Judges every rule in [`RULES`].
pub fn judge(ram: &RamSizes, vram: &VramTotals) -> Vec<RuleResult> {
    RULES.iter().map(|def| judge_one(def, ram, vram)).collect()
}

fn judge_one(def: &RuleDef, ram: &RamSizes, vram: &VramTotals) -> RuleResult {
    let required = match def.basis {
        Basis::TotalVram => vram.nominal_total_bytes.map(|v| scale(v, def.factor)),
        Basis::LargestGpu => vram.nominal_largest_bytes.map(|v| scale(v, def.factor)),
        Basis::PerGpu => Some(scale(u64::from(vram.discrete_gpus), def.factor)),
    };
    let status = if vram.discrete_gpus == 0 {
        RuleStatus::NotApplicable
    } else {
        match (required, ram.sizing_bytes) {
            (Some(req), Some(actual)) if actual >= req => RuleStatus::Pass,
            (Some(_), Some(_)) => RuleStatus::Fail,
            _ => RuleStatus::CantCheck,
        }
    };
    RuleResult {
        id: def.id,
        basis: def.basis,
        factor: def.factor,
        required_bytes: if vram.discrete_gpus == 0 {
            None
        } else {
            required
        },
        actual_bytes: ram.sizing_bytes,
        status,
        source: def.source.to_string(),
    }
}

/// `bytes × factor`, rounded up to a whole byte and saturating at `u64::MAX`.
fn scale(bytes: u64, factor: f64) -> u64 {
    let v = (bytes as f64 * factor).ceil();
    if v >= u64::MAX as f64 {
        u64::MAX
    } else {
        v as u64
    }
}
