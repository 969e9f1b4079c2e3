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
pub const SET_UP_FAILS: [FindingId; 3] = [
    FindingId::TrainingDoesNotFit,
    FindingId::WorkloadRamExceeded,
    FindingId::CacheDoesNotFit,
];

/// The worst of `verdict`, `findings` and whether the inference plan fits (`inference_fits`,
/// `None` without one). Among equally severe candidates: what the user set up failing first,
/// then a plan inside its margin (`plan-tight`), then the machine's verdict, then the other
/// findings in the order given.
pub fn headline(verdict: Verdict, findings: &[Finding], inference_fits: Option<bool>) -> Headline {
    let tight_inference = findings.iter().any(|f| {
        f.id == FindingId::PlanTight
            && matches!(f.values.get("plan"), Some(super::Quantity::Text(p)) if p == "inference")
    });
    let mut candidates: Vec<(u8, Headline)> = Vec::new();
    for f in findings {
        let order = if SET_UP_FAILS.contains(&f.id) {
            0
        } else if f.id == FindingId::PlanTight {
            1
        } else {
            3
        };
        candidates.push((
            order,
            Headline {
                id: HeadlineId::Finding(f.id),
                severity: f.severity,
            },
        ));
    }
    if inference_fits == Some(false) && !tight_inference {
        candidates.push((
            0,
            Headline {
                id: HeadlineId::Plan(PlanOutcome::InferenceDoesNotFit),
                severity: Severity::Critical,
            },
        ));
    }
    candidates.push((
        2,
        Headline {
            id: HeadlineId::Verdict(verdict),
            severity: verdict.severity(),
        },
    ));
    // Stable: the first of equal keys wins.
    candidates
        .into_iter()
        .min_by_key(|(order, h)| (std::cmp::Reverse(h.severity), *order))
        .map(|(_, h)| h)
        .unwrap_or_default()
}
