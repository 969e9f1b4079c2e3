//! Procurement: the current configuration and what to buy, with the reason for each number.
//! What was set up (a training plan, a model to serve, a data-loading workload) decides: when it
//! doesn't fit, its need is what to buy for; when it fits, nothing is, and the published rules'
//! target is only room for more (CPU offload, larger models); when nothing was set up, the
//! rules' target is what the section sizes. Pure; the report only prints it.

use serde::{Deserialize, Serialize};

use crate::advisor::capacity::{RamSizes, VramTotals};
use crate::advisor::findings::{AdviceId, Finding, FindingId};
use crate::advisor::recommend::{RecKind, Recommendation, Subject};

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
    /// What serving the user's model needs in host RAM (inference planner).
    InferencePlan,
    /// The working set of the user's data-loading workload (workload simulator; the page cache
    /// for the dataset not included).
    Workload,
}

impl RamReason {
    /// True for a published rule (sized from the GPUs), false for what the user set up.
    pub fn is_rule(self) -> bool {
        matches!(self, RamReason::TwiceVram | RamReason::LargestGpu)
    }
}

/// One thing the user set up, and the RAM it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkNeed {
    /// What it is: the training plan, the model served or the data-loading workload.
    pub subject: Subject,
    /// Usable RAM it needs at its peak per node, bytes (what `MemTotal` or a cgroup limit
    /// offers).
    pub needed_bytes: u64,
    /// The installed RAM that leaves that much usable: `needed_bytes` ÷ this machine's usable
    /// share ([`RamSizes::usable_share`]), bytes.
    pub installed_bytes: u64,
    /// Whether it fits in usable RAM; `None` when usable RAM is unknown.
    pub fits: Option<bool>,
    /// For a workload whose GPUs wait for storage (the page cache can't hold the dataset): the
    /// installed RAM that would hold all of it (the `dataset-not-cached` finding's target), a
    /// way to speed it up after the cheaper ones (shards, a local NVMe copy). `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_cache_bytes: Option<u64>,
    /// Whether everything but host RAM fits (each GPU's memory, the NVMe space): when it
    /// doesn't, more RAM can't make this part fit and it sets no RAM target. `None`: can't
    /// tell.
    #[serde(default)]
    pub others_fit: Option<bool>,
}

impl WorkNeed {
    /// Doesn't fit, and more RAM would change that (nothing else falls short).
    pub fn ram_would_fix(&self) -> bool {
        self.fits != Some(true) && self.others_fit != Some(false)
    }
}

/// What the section's advice rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Nothing was set up: the published rules size RAM.
    Rules,
    /// What was set up doesn't fit in RAM (or can't be checked): its need is what to buy for.
    Work,
    /// What was set up fits: no RAM to buy for it; the rules' target is only room for more.
    WorkFits,
    /// What was set up doesn't fit, but for a reason more RAM can't fix (the GPUs' memory, the
    /// NVMe space): no RAM to buy for it; the rules' target is only room for more.
    RamWontFix,
}

/// One reason with the RAM it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamTarget {
    /// Why.
    pub reason: RamReason,
    /// Bytes it asks for.
    pub required_bytes: u64,
}

/// The procurement section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Procurement {
    /// RAM installed now (else as the rules size it; see `capacity`).
    pub current_ram_bytes: Option<u64>,
    /// The discrete GPUs' nominal memory.
    pub vram_bytes: Option<u64>,
    /// What was set up and assessed (training plan, model served, workload), with its need;
    /// empty when nothing was.
    #[serde(default)]
    pub work: Vec<WorkNeed>,
    /// What the advice rests on.
    #[serde(default = "rules_basis")]
    pub basis: Basis,
    /// What each reason asks for (only reasons current RAM does not meet): the published rules,
    /// and what was set up when it doesn't fit.
    pub targets: Vec<RamTarget>,
    /// The largest published rule's target that current RAM doesn't meet; `None` when it meets
    /// them all (or none applies).
    #[serde(default)]
    pub rules_ram_bytes: Option<u64>,
    /// Installed RAM to buy for: what was set up needs when it doesn't fit ([`Basis::Work`]),
    /// the rules' target when nothing was set up ([`Basis::Rules`]); `None` when nothing needs
    /// buying — including when what was set up fits, whatever the rules ask.
    pub recommended_ram_bytes: Option<u64>,
    /// Other hardware and configuration advice from the findings (storage, PCIe, /dev/shm, …).
    pub other: Vec<AdviceId>,
    /// What reaching `recommended_ram_bytes` takes on this kind of machine
    /// ([`super::purchase::purchase_to_reach`]); `None` when no more RAM is needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase: Option<super::purchase::Purchase>,
    /// When what was set up fits but the rules ask for more: what reaching `rules_ram_bytes`
    /// would take, as room for more, not a need.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_purchase: Option<super::purchase::Purchase>,
    /// When what was set up doesn't fit: for each part that doesn't, the cheapest change in the
    /// ranked list short of hardware whose re-run makes it fit ([`cheaper_fixes`]); empty when
    /// some part has none (then buying is the way).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cheaper_fixes: Vec<Recommendation>,
    /// When installed RAM is below the GPUs' total memory (the GPUs wait for data): the
    /// cheapest purchase that ends it, reaching the GPUs' memory (`vram_bytes`) on this kind
    /// of machine ([`super::purchase::purchase_to_reach`]); beside the rules' 2× in the lab's
    /// order ([`super::lab`]). `None` when RAM already reaches the GPUs' memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix_purchase: Option<super::purchase::Purchase>,
}

fn rules_basis() -> Basis {
    Basis::Rules
}

/// Hardware/configuration recommendations worth a line in a purchase request.
const OTHER_ADVICE: [AdviceId; 4] = [
    AdviceId::CheckPcieSlot,
    AdviceId::GrowShm,
    AdviceId::AddSwap,
    AdviceId::RaiseLimit,
];

/// What the advice rests on for `work`: nothing set up, something that doesn't fit (or can't
/// be checked) that more RAM would fix, something that doesn't fit only for a reason RAM can't
/// fix, or everything fitting.
pub fn basis(work: &[WorkNeed]) -> Basis {
    if work.is_empty() {
        Basis::Rules
    } else if work.iter().all(|w| w.fits == Some(true)) {
        Basis::WorkFits
    } else if work.iter().any(WorkNeed::ram_would_fix) {
        Basis::Work
    } else {
        Basis::RamWontFix
    }
}

/// For each part of `work` that doesn't fit, the first change of the ranked list `ranked` about
/// it that costs less than hardware (a setting, a technique, the OS) and whose re-run fits;
/// empty unless every such part has one.
pub fn cheaper_fixes(work: &[WorkNeed], ranked: &[Recommendation]) -> Vec<Recommendation> {
    let hardware = RecKind::Hardware.cost();
    let mut out = Vec::new();
    for w in work.iter().filter(|w| w.fits == Some(false)) {
        let Some(r) = ranked.iter().find(|r| {
            r.subject == w.subject && r.kind.cost() < hardware && r.result.fits == Some(true)
        }) else {
            return Vec::new();
        };
        out.push(r.clone());
    }
    out
}

/// Builds the procurement section from the assessment's parts and what was set up, with its
/// needs (`work`, [`crate::advisor::set_up::SetUp::needs`]); `cheaper_fixes` is filled in
/// once the recommendations are ranked ([`cheaper_fixes`]).
pub fn procurement(
    profile: &crate::profile::MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
    findings: &[Finding],
    work: Vec<WorkNeed>,
) -> Procurement {
    // What to buy is installed RAM. A plan's need is usable RAM; the firmware and kernel keep
    // the same share of a larger installation, so the installed size to buy is the need over
    // this machine's usable share (e.g. 63 GiB of need on a machine where 64 GiB shows as 62.7
    // asks for 64.3 GiB installed, which rounds to the next common size). `work` comes with
    // those installed sizes ([`crate::advisor::set_up::SetUp::needs`]).
    let current = ram.installed_bytes.or(ram.sizing_bytes);
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
    for w in work.iter().filter(|w| w.ram_would_fix()) {
        let reason = match w.subject {
            Subject::Inference => RamReason::InferencePlan,
            Subject::Workload => RamReason::Workload,
            Subject::Training | Subject::Machine => RamReason::TrainingPlan,
        };
        push(reason, w.installed_bytes);
    }
    let largest = |rule: bool| {
        targets
            .iter()
            .filter(|t| t.reason.is_rule() == rule)
            .map(|t| t.required_bytes)
            .max()
    };
    let rules_ram = largest(true);
    let basis = basis(&work);
    let recommended = match basis {
        Basis::Rules => rules_ram,
        Basis::Work => largest(false),
        Basis::WorkFits | Basis::RamWontFix => None,
    };
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
    let rules_purchase = rules_ram
        .filter(|_| matches!(basis, Basis::WorkFits | Basis::RamWontFix))
        .map(|r| super::purchase::purchase_to_reach(profile, ram, r));
    // RAM below the GPUs' memory: the smallest purchase that reaches it (g5.xlarge's 16 GiB for
    // a 24 GB A10G: g5.2xlarge, 32 GiB, not the rules' g5.4xlarge).
    let fix_purchase = vram
        .nominal_total_bytes
        .filter(|v| current.is_some_and(|c| c < *v))
        .map(|v| super::purchase::purchase_to_reach(profile, ram, v))
        .filter(|b| !matches!(b, super::purchase::Purchase::NotNeeded { .. }));
    Procurement {
        current_ram_bytes: current,
        vram_bytes: vram.nominal_total_bytes,
        work,
        basis,
        targets,
        rules_ram_bytes: rules_ram,
        recommended_ram_bytes: recommended,
        other,
        purchase,
        rules_purchase,
        cheaper_fixes: Vec::new(),
        fix_purchase,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    #[test]
    fn the_basis_and_cheaper_fixes_follow_what_was_set_up() {
        use crate::advisor::recommend::{AdviceId as R, Outcome};
        let part = |subject, fits| WorkNeed {
            subject,
            needed_bytes: 10 * GIB,
            installed_bytes: 10 * GIB,
            fits,
            page_cache_bytes: None,
            others_fit: Some(true),
        };
        assert_eq!(basis(&[]), Basis::Rules);
        assert_eq!(
            basis(&[part(Subject::Training, Some(true))]),
            Basis::WorkFits
        );
        // One part that doesn't fit, or can't be checked, is enough to buy for.
        let both = [
            part(Subject::Training, Some(true)),
            part(Subject::Workload, Some(false)),
        ];
        assert_eq!(basis(&both), Basis::Work);
        assert_eq!(basis(&[part(Subject::Training, None)]), Basis::Work);
        let rec = |id, subject, fits| {
            Recommendation::new(
                id,
                subject,
                Outcome {
                    fits: Some(fits),
                    ..Outcome::default()
                },
            )
        };
        let ranked = [
            rec(R::ReduceBatchSize, Subject::Workload, false),
            rec(R::AddRam, Subject::Workload, true),
            rec(R::NoCache, Subject::Workload, true),
            rec(R::Lora, Subject::Training, true),
        ];
        // The workload's first fitting change short of hardware: no cache (not the batch size,
        // which still doesn't fit; not RAM).
        let fixes = cheaper_fixes(&both, &ranked);
        assert_eq!(fixes.iter().map(|r| r.id).collect::<Vec<_>>(), [R::NoCache]);
        // A second part without one: buying is the way, so none is named.
        let two = [
            part(Subject::Inference, Some(false)),
            part(Subject::Workload, Some(false)),
        ];
        assert!(cheaper_fixes(&two, &ranked).is_empty());
    }
}
