//! How a figure stands, judged here once so that every view colours it alike: a view maps a
//! [`Standing`] (or a finding's [`Severity`], a ratio's [`Tier`]) to a colour and judges nothing
//! itself. The thresholds are the advisor's: a utilisation's from [`FED_UTILIZATION`] and
//! [`STARVED_CRITICAL`], a plan's from its capacity checks, a rule's from its status.

use super::check::CapacityCheck;
use super::findings::Severity;
use super::ratio::Tier;
use super::recommend::Outcome;
use super::rules::RuleStatus;
use super::training::TrainingMemory;

/// How a figure stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Fits, passes, keeps the GPUs fed.
    Good,
    /// Falls short, as seriously as this severity.
    Short(Severity),
    /// Can't be judged: a figure it needs is unknown, or the rule does not apply.
    Unknown,
}

/// GPU utilisation from which the GPUs count as fed: 0.9. Assumption: a loader that keeps the
/// GPUs busy nine tenths of the time costs a tenth of the run at most, within the noise of a
/// step's own variation. The one threshold: the window colours a utilisation green from here,
/// and the data-loading workload's starvation finding (`starved-by-*`) is raised only below it
/// (`advisor::workload`), so a green utilisation never sits beside a starvation warning.
pub const FED_UTILIZATION: f64 = 0.9;

/// GPU utilisation below which starvation is critical (a warning from here up to
/// [`FED_UTILIZATION`]): 0.5. Assumption: a GPU idle half the time doubles the run.
pub const STARVED_CRITICAL: f64 = 0.5;

/// A predicted GPU utilisation (0–1): good from [`FED_UTILIZATION`], a warning from
/// [`STARVED_CRITICAL`], critical below it.
pub fn utilization(u: f64) -> Standing {
    if u >= FED_UTILIZATION {
        Standing::Good
    } else if u >= STARVED_CRITICAL {
        Standing::Short(Severity::Warning)
    } else {
        Standing::Short(Severity::Critical)
    }
}

/// One capacity check of a plan: fits, does not (critical), or can't be checked.
pub fn check(c: &CapacityCheck) -> Standing {
    match c.fits {
        Some(true) => Standing::Good,
        Some(false) => Standing::Short(Severity::Critical),
        None => Standing::Short(Severity::Warning),
    }
}

/// A training plan as a whole: fits; fits only without its margin ([`TrainingMemory::tight`],
/// a warning); does not fit (critical); or a check can't be made (a warning: the plan may not
/// fit).
pub fn training(t: &TrainingMemory) -> Standing {
    match t.fits {
        Some(true) => Standing::Good,
        Some(false) if t.tight() => Standing::Short(Severity::Warning),
        Some(false) => Standing::Short(Severity::Critical),
        None => Standing::Short(Severity::Warning),
    }
}

/// A published rule's result: passes, fails (critical), or not checked.
pub fn rule(s: RuleStatus) -> Standing {
    match s {
        RuleStatus::Pass => Standing::Good,
        RuleStatus::Fail => Standing::Short(Severity::Critical),
        _ => Standing::Unknown,
    }
}

/// What a recommendation leads to: everything fits, something still does not (a warning: the
/// change helps, another is needed), or can't tell.
pub fn after_change(o: &Outcome) -> Standing {
    match o.fits {
        Some(true) => Standing::Good,
        Some(false) => Standing::Short(Severity::Warning),
        None => Standing::Unknown,
    }
}

/// The lines RAM = k × VRAM drawn on a lab's chart, at the tiers' bounds ([`Tier::BOUNDS`]):
/// each factor with the tier whose colour it takes. 1× (below it RAM is insufficient), 1.5×
/// (the top of the baseline), 2× (large models). The window's chart and the PDF's draw these.
pub const TIER_LINES: [(f64, Tier); 3] = [
    (Tier::BOUNDS[0], Tier::Insufficient),
    (Tier::BOUNDS[1], Tier::Baseline),
    (Tier::BOUNDS[2], Tier::LargeModel),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utilisation_is_fed_from_nine_tenths_and_critical_below_half() {
        // The thresholds the window coloured by before they moved here: 0.9 and 0.5.
        assert_eq!(utilization(1.0), Standing::Good);
        assert_eq!(utilization(0.9), Standing::Good);
        assert_eq!(utilization(0.89), Standing::Short(Severity::Warning));
        assert_eq!(utilization(0.5), Standing::Short(Severity::Warning));
        assert_eq!(utilization(0.49), Standing::Short(Severity::Critical));
        assert_eq!(utilization(0.0), Standing::Short(Severity::Critical));
    }

    #[test]
    fn the_chart_lines_sit_at_one_one_and_a_half_and_two_times_vram() {
        let factors: Vec<f64> = TIER_LINES.iter().map(|(f, _)| *f).collect();
        assert_eq!(factors, [1.0, 1.5, 2.0]);
        // Each line is the lower bound of the tier above the one it is coloured by, but for
        // 2×, which is the large-model tier's own bound.
        assert_eq!(Tier::of(1.0 - 1e-9), TIER_LINES[0].1);
        assert_eq!(Tier::of(1.5 - 1e-9), TIER_LINES[1].1);
        assert_eq!(Tier::of(2.0), TIER_LINES[2].1);
    }

    #[test]
    fn rules_pass_fail_or_go_unjudged() {
        assert_eq!(rule(RuleStatus::Pass), Standing::Good);
        assert_eq!(rule(RuleStatus::Fail), Standing::Short(Severity::Critical));
        assert_eq!(rule(RuleStatus::NotApplicable), Standing::Unknown);
    }
}
