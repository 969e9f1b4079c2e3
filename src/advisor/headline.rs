//! The headline: the worst thing found, across the machine's verdict, every plan (training,
//! inference, the data-loading workload), the pipeline, PCIe links and swap. One function, so
//! the window's banner, the terminal's first lines, the report's callout and `advise --json`'s
//! `headline` name the same thing.

use serde::{Deserialize, Serialize};

use super::Verdict;
use super::findings::{Finding, FindingId, Severity};

/// What the headline is about: a finding, the machine's verdict, or a plan outcome that has no
/// finding of its own. Serialises as the id alone (`"plan-tight"`, `"ram-below-vram"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HeadlineId {
    /// A finding's id.
    Finding(FindingId),
    /// The machine's verdict.
    Verdict(Verdict),
    /// A plan outcome without a finding.
    Plan(PlanOutcome),
}

/// Plan outcomes the headline can name that are not findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanOutcome {
    /// The model to serve doesn't fit (VRAM or host RAM short outright).
    InferenceDoesNotFit,
}

/// The headline: its id and severity (`headline` in `advise --json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Headline {
    /// What it is about.
    pub id: HeadlineId,
    /// How much it matters.
    pub severity: Severity,
}

impl Default for Headline {
    /// An assessment written before headlines were computed: the verdict can't be told.
    fn default() -> Headline {
        Headline {
            id: HeadlineId::Verdict(Verdict::CannotJudge),
            severity: Severity::Warning,
        }
    }
}

/// Findings that say what the user set up doesn't fit.
pub const SET_UP_FAILS: [FindingId; 4] = [
    FindingId::TrainingDoesNotFit,
    FindingId::WorkloadRamExceeded,
    FindingId::EvaluationPauseExceedsRam,
    FindingId::CacheDoesNotFit,
];

/// The worst of `verdict`, `findings` and whether the inference plan fits (`inference_fits`,
/// `None` without one), by the one ranking of problems ([`super::impact::key`]: severity, then
/// what it costs the user). Among candidates of one key: what the user set up failing first,
/// then a plan inside its margin (`plan-tight`), then the machine's verdict, then the other
/// findings in the order given.
pub fn headline(verdict: Verdict, findings: &[Finding], inference_fits: Option<bool>) -> Headline {
    use super::impact::{self, Cost};
    let tight_inference = findings.iter().any(|f| {
        f.id == FindingId::PlanTight
            && matches!(f.values.get("plan"), Some(super::Quantity::Text(p)) if p == "inference")
    });
    let mut candidates: Vec<(Cost, u8, Headline)> = Vec::new();
    for f in findings {
        let order = if SET_UP_FAILS.contains(&f.id) {
            0
        } else if f.id == FindingId::PlanTight {
            1
        } else {
            3
        };
        candidates.push((
            impact::cost(f.id),
            order,
            Headline {
                id: HeadlineId::Finding(f.id),
                severity: f.severity,
            },
        ));
    }
    if inference_fits == Some(false) && !tight_inference {
        candidates.push((
            Cost::FailedRun,
            0,
            Headline {
                id: HeadlineId::Plan(PlanOutcome::InferenceDoesNotFit),
                severity: Severity::Critical,
            },
        ));
    }
    candidates.push((
        impact::verdict_cost(verdict),
        2,
        Headline {
            id: HeadlineId::Verdict(verdict),
            severity: verdict.severity(),
        },
    ));
    // Stable: the first of equal keys wins.
    candidates
        .into_iter()
        .min_by_key(|(cost, order, h)| (impact::key(h.severity, *cost), *order))
        .map(|(_, _, h)| h)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_single_channel_desktop_headlines_its_memory_not_its_swappiness() {
        // Issue 35: one DIMM in four slots, vm.swappiness 60, RAM 1.33 × VRAM (the baseline
        // verdict, information). Both problems are warnings; half the memory bandwidth costs
        // every run, the kernel setting only runs under memory pressure.
        let findings = [
            Finding::new(FindingId::SwappinessHigh, Severity::Warning, &[]),
            Finding::new(FindingId::SingleChannelMemory, Severity::Warning, &[]),
            Finding::new(FindingId::RamBelowOffloadTier, Severity::Info, &[]),
        ];
        let h = headline(Verdict::Baseline, &findings, None);
        assert_eq!(h.id, HeadlineId::Finding(FindingId::SingleChannelMemory));
        assert_eq!(h.severity, Severity::Warning);
    }

    #[test]
    fn an_information_verdict_heads_information_findings_only() {
        // Workers beyond the cores (information) don't displace "plenty of RAM"; a warning does.
        let info = [Finding::new(
            FindingId::WorkersOversubscribed,
            Severity::Info,
            &[],
        )];
        let h = headline(Verdict::LargeModelReady, &info, None);
        assert_eq!(h.id, HeadlineId::Verdict(Verdict::LargeModelReady));
        let warning = [Finding::new(
            FindingId::SwappinessHigh,
            Severity::Warning,
            &[],
        )];
        let h = headline(Verdict::LargeModelReady, &warning, None);
        assert_eq!(h.id, HeadlineId::Finding(FindingId::SwappinessHigh));
    }

    #[test]
    fn what_was_set_up_failing_still_heads_a_critical_verdict() {
        let findings = [
            Finding::new(FindingId::RamBelowVram, Severity::Critical, &[]),
            Finding::new(FindingId::WorkloadRamExceeded, Severity::Critical, &[]),
        ];
        let h = headline(Verdict::RamBelowVram, &findings, None);
        assert_eq!(h.id, HeadlineId::Finding(FindingId::WorkloadRamExceeded));
        // Without it, the verdict heads its own finding (same class, the verdict first).
        let h = headline(Verdict::RamBelowVram, &findings[..1], None);
        assert_eq!(h.id, HeadlineId::Verdict(Verdict::RamBelowVram));
    }
}
