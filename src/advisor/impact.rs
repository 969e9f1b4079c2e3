//! What a finding costs the user, and the one order of findings every view shows: the findings
//! list of an assessment (the Machine page, the report's Findings section, the lab table's
//! "most serious finding") and the headline ([`super::headline`]) are ranked by [`key`], so the
//! window, the terminal, the lab table and page 1 of a PDF name the same problem first.
//!
//! The order: severity first (critical, warning, information); within one severity, by what
//! the problem costs ([`Cost`]): a run that fails, then throughput lost (the GPUs wait, a
//! memory channel or a PCIe link runs at a fraction of what the hardware can), then a risk
//! (a run may fail under some load; a figure can't be checked), then a setting worth changing
//! whose cost isn't measured (a kernel setting), then what is only worth knowing. Assumption
//! (issue 35): a hardware limit that halves the data path costs every run, a high
//! `vm.swappiness` only the runs that meet memory pressure.

use std::cmp::Reverse;

use super::Verdict;
use super::findings::{Finding, FindingId, Severity};

/// What a problem costs the user, most costly first (the derived order is the ranking's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cost {
    /// A run fails: out of memory, workers killed ("Bus error"), a plan that doesn't fit.
    FailedRun,
    /// Throughput lost on every run: the GPUs wait for data, or a part of the data path (a
    /// memory channel, a PCIe link, the storage) runs below what the hardware can.
    LostThroughput,
    /// A run may fail or slow under some load, or a figure needed to check it is unknown.
    Risk,
    /// A setting worth changing whose cost isn't measured (`vm.swappiness`).
    Setting,
    /// Worth knowing; costs nothing now.
    Notice,
}

/// What finding `id` costs the user. One row per finding id: a new id must be placed here.
pub fn cost(id: FindingId) -> Cost {
    use Cost::*;
    use FindingId as F;
    match id {
        F::TrainingDoesNotFit
        | F::PoolOverLimit
        | F::WorkloadRamExceeded
        | F::EvaluationPauseExceedsRam
        | F::CacheDoesNotFit
        | F::PlanTight
        | F::ShmSmall => FailedRun,
        // RAM below VRAM: the machine's verdict says it, "training will crawl" (it swaps); the
        // finding is in the verdict's class so the two stay together.
        F::RamBelowVram
        | F::RamBelowLargestGpu
        | F::SingleChannelMemory
        | F::UnevenChannels
        | F::MemoryBandwidthBound
        | F::PcieLinkDegraded
        | F::StarvedByStorage
        | F::StarvedByRamBandwidth
        | F::StarvedByDecode
        | F::StarvedByPcie
        | F::DatasetNotCached
        | F::DatasetOnNetworkStorage
        | F::DatasetOnHdd
        | F::WorkersOversubscribed => LostThroughput,
        // Only a run that overflows VRAM spills into shared memory and slows.
        F::WddmSysmemFallback
        | F::ContainerLimitBelowRam
        | F::WslMemoryCapped
        | F::PageFileAbsent
        | F::PageFileInUse
        | F::SwapInUse
        | F::SwapAbsent
        | F::WorkloadSwapRisk
        | F::DatasetIndexCopied
        | F::DatasetSizeInconsistent
        | F::TrainingMoreGpusThanMachine
        | F::RamUnknown
        | F::VramUnknown => Risk,
        F::SwappinessHigh => Setting,
        F::RamBelowOffloadTier
        | F::UnifiedMemory
        | F::GpuWiredLimitDefault
        | F::GpuWiredLimitSet
        | F::NoGpu
        | F::PcieLinkIdle
        | F::DatasetStreamsFromStorage => Notice,
    }
}

/// What the machine's verdict costs, in the same classes: RAM below VRAM starves the GPUs
/// (its own words: "it will crawl"); a verdict that can't be made is a risk. A verdict that is
/// only information (enough RAM, plenty of it, unified memory) answers the question the
/// machine was assessed for, so it heads the other information: it counts as costing most of
/// its severity.
pub fn verdict_cost(v: Verdict) -> Cost {
    match v {
        Verdict::RamBelowVram => Cost::LostThroughput,
        Verdict::CannotJudge => Cost::Risk,
        _ => Cost::FailedRun,
    }
}

/// The ranking key of a problem of `severity` costing `cost`: smaller comes first.
pub fn key(severity: Severity, cost: Cost) -> (Reverse<Severity>, Cost) {
    (Reverse(severity), cost)
}

/// The key of finding `f` ([`key`] of its severity and [`cost`]).
pub fn finding_key(f: &Finding) -> (Reverse<Severity>, Cost) {
    key(f.severity, cost(f.id))
}

/// Sorts `findings` most costly first by [`finding_key`]; stable, so findings of one key keep
/// the order they were found in.
pub fn rank(findings: &mut [Finding]) {
    findings.sort_by_key(finding_key);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(id: FindingId, severity: Severity) -> Finding {
        Finding::new(id, severity, &[])
    }

    /// A row of the table: findings as found, and the order expected.
    type Row<'a> = (&'a [(FindingId, Severity)], &'a [FindingId]);

    /// Each row: findings in the order a finder makes them, and the order the user must read
    /// them in, worked out from what each costs (the module's description).
    #[test]
    fn findings_are_ranked_by_what_they_cost() {
        use FindingId as F;
        use Severity::*;
        let table: &[Row<'_>] = &[
            // Issue 35's desktop: one DIMM in four slots (half its bandwidth) and swappiness 60,
            // both warnings, swap's found first: the channel heads.
            (
                &[
                    (F::SwappinessHigh, Warning),
                    (F::SingleChannelMemory, Warning),
                    (F::RamBelowOffloadTier, Info),
                ],
                &[
                    F::SingleChannelMemory,
                    F::SwappinessHigh,
                    F::RamBelowOffloadTier,
                ],
            ),
            // A degraded PCIe link (throughput) before swap in use (a risk) before swappiness.
            (
                &[
                    (F::SwappinessHigh, Warning),
                    (F::SwapInUse, Warning),
                    (F::PcieLinkDegraded, Warning),
                ],
                &[F::PcieLinkDegraded, F::SwapInUse, F::SwappinessHigh],
            ),
            // Workers that die with Bus error (a failed run) before GPUs that wait.
            (
                &[(F::StarvedByDecode, Critical), (F::ShmSmall, Critical)],
                &[F::ShmSmall, F::StarvedByDecode],
            ),
            // Severity first: a critical risk-free throughput loss before a warning that fails.
            (
                &[(F::ShmSmall, Warning), (F::StarvedByStorage, Critical)],
                &[F::StarvedByStorage, F::ShmSmall],
            ),
            // One class: the order found is kept.
            (
                &[(F::DatasetOnHdd, Warning), (F::UnevenChannels, Warning)],
                &[F::DatasetOnHdd, F::UnevenChannels],
            ),
        ];
        for (given, expected) in table {
            let mut v: Vec<Finding> = given.iter().map(|(id, s)| f(*id, *s)).collect();
            rank(&mut v);
            let got: Vec<F> = v.iter().map(|f| f.id).collect();
            assert_eq!(&got, expected, "from {given:?}");
        }
    }

    #[test]
    fn a_hardware_limit_that_halves_bandwidth_outranks_every_kernel_setting() {
        assert!(cost(FindingId::SingleChannelMemory) < cost(FindingId::SwappinessHigh));
        assert!(cost(FindingId::PcieLinkDegraded) < cost(FindingId::SwappinessHigh));
        assert!(cost(FindingId::ShmSmall) < cost(FindingId::SingleChannelMemory));
    }
}
