//! A finding in words: its title, explanation and recommendations, with its numbers.

use super::{advice_text, recommend, windows};
use crate::advisor::{AdviceId, Finding, FindingId, Quantity};
use crate::i18n::{Lang, Msg, tr};

use super::words::fill_values;

fn finding_msgs(id: FindingId) -> (Msg, Msg) {
    use FindingId as F;
    match id {
        F::RamBelowVram => (
            Msg::FindingRamBelowVramTitle,
            Msg::FindingRamBelowVramExplain,
        ),
        F::RamBelowLargestGpu => (
            Msg::FindingRamBelowLargestGpuTitle,
            Msg::FindingRamBelowLargestGpuExplain,
        ),
        F::RamBelowOffloadTier => (
            Msg::FindingRamBelowOffloadTierTitle,
            Msg::FindingRamBelowOffloadTierExplain,
        ),
        F::ContainerLimitBelowRam => (
            Msg::FindingContainerLimitBelowRamTitle,
            Msg::FindingContainerLimitBelowRamExplain,
        ),
        F::PoolOverLimit => (
            Msg::FindingPoolOverLimitTitle,
            Msg::FindingPoolOverLimitExplain,
        ),
        F::UnifiedMemory => (
            Msg::FindingUnifiedMemoryTitle,
            Msg::FindingUnifiedMemoryExplain,
        ),
        F::GpuWiredLimitDefault => (
            Msg::MacosFindingWiredDefaultTitle,
            Msg::MacosFindingWiredDefaultExplain,
        ),
        F::GpuWiredLimitSet => (
            Msg::MacosFindingWiredSetTitle,
            Msg::MacosFindingWiredSetExplain,
        ),
        F::NoGpu => (Msg::FindingNoGpuTitle, Msg::FindingNoGpuExplain),
        F::VramUnknown => (Msg::FindingVramUnknownTitle, Msg::FindingVramUnknownExplain),
        F::RamUnknown => (Msg::FindingRamUnknownTitle, Msg::FindingRamUnknownExplain),
        F::SwapAbsent => (Msg::FindingSwapAbsentTitle, Msg::FindingSwapAbsentExplain),
        F::SwapInUse => (Msg::FindingSwapInUseTitle, Msg::FindingSwapInUseExplain),
        F::SwappinessHigh => (
            Msg::FindingSwappinessHighTitle,
            Msg::FindingSwappinessHighExplain,
        ),
        F::ShmSmall => (Msg::FindingShmSmallTitle, Msg::FindingShmSmallExplain),
        F::PcieLinkDegraded => (
            Msg::FindingPcieLinkDegradedTitle,
            Msg::FindingPcieLinkDegradedExplain,
        ),
        F::PcieLinkIdle => (
            Msg::FindingPcieLinkIdleTitle,
            Msg::FindingPcieLinkIdleExplain,
        ),
        F::PlanTight => (Msg::FindingPlanTightTitle, Msg::FindingPlanTightExplain),
        F::TrainingDoesNotFit => (
            Msg::FindingTrainingDoesNotFitTitle,
            Msg::FindingTrainingDoesNotFitExplain,
        ),
        F::TrainingMoreGpusThanMachine => (
            Msg::FindingTrainingMoreGpusThanMachineTitle,
            Msg::FindingTrainingMoreGpusThanMachineExplain,
        ),
        F::WorkloadRamExceeded => (
            Msg::FindingWorkloadRamExceededTitle,
            Msg::FindingWorkloadRamExceededExplain,
        ),
        F::WorkloadSwapRisk => (
            Msg::FindingWorkloadSwapRiskTitle,
            Msg::FindingWorkloadSwapRiskExplain,
        ),
        F::EvaluationPauseExceedsRam => (
            Msg::FindingEvaluationPauseExceedsRamTitle,
            Msg::FindingEvaluationPauseExceedsRamExplain,
        ),
        F::DatasetNotCached => (
            Msg::FindingDatasetNotCachedTitle,
            Msg::FindingDatasetNotCachedExplain,
        ),
        F::DatasetStreamsFromStorage => (
            Msg::FindingDatasetStreamsFromStorageTitle,
            Msg::FindingDatasetStreamsFromStorageExplain,
        ),
        F::StarvedByStorage => (
            Msg::FindingStarvedByStorageTitle,
            Msg::FindingStarvedByStorageExplain,
        ),
        F::StarvedByRamBandwidth => (
            Msg::FindingStarvedByRamBandwidthTitle,
            Msg::FindingStarvedByRamBandwidthExplain,
        ),
        F::StarvedByDecode => (
            Msg::FindingStarvedByDecodeTitle,
            Msg::FindingStarvedByDecodeExplain,
        ),
        F::StarvedByPcie => (
            Msg::FindingStarvedByPcieTitle,
            Msg::FindingStarvedByPcieExplain,
        ),
        F::SingleChannelMemory => (
            Msg::FindingSingleChannelMemoryTitle,
            Msg::FindingSingleChannelMemoryExplain,
        ),
        F::UnevenChannels => (
            Msg::FindingUnevenChannelsTitle,
            Msg::FindingUnevenChannelsExplain,
        ),
        F::MemoryBandwidthBound => (
            Msg::FindingMemoryBandwidthBoundTitle,
            Msg::FindingMemoryBandwidthBoundExplain,
        ),
        F::DatasetOnNetworkStorage => (
            Msg::FindingDatasetOnNetworkStorageTitle,
            Msg::FindingDatasetOnNetworkStorageExplain,
        ),
        F::DatasetOnHdd => (
            Msg::FindingDatasetOnHddTitle,
            Msg::FindingDatasetOnHddExplain,
        ),
        F::WslMemoryCapped => (
            Msg::FindingWslMemoryCappedTitle,
            Msg::FindingWslMemoryCappedExplain,
        ),
        F::CacheDoesNotFit => (
            Msg::FindingCacheDoesNotFitTitle,
            Msg::FindingCacheDoesNotFitExplain,
        ),
        F::DatasetIndexCopied => (
            Msg::FindingDatasetIndexCopiedTitle,
            Msg::FindingDatasetIndexCopiedExplain,
        ),
        F::WorkersOversubscribed => (
            Msg::FindingWorkersOversubscribedTitle,
            Msg::FindingWorkersOversubscribedExplain,
        ),
        F::DatasetSizeInconsistent => (
            Msg::FindingDatasetSizeInconsistentTitle,
            Msg::FindingDatasetSizeInconsistentExplain,
        ),
        F::PageFileAbsent => (
            Msg::FindingPageFileAbsentTitle,
            Msg::FindingPageFileAbsentExplain,
        ),
        F::PageFileInUse => (
            Msg::FindingPageFileInUseTitle,
            Msg::FindingPageFileInUseExplain,
        ),
        F::WddmSysmemFallback => (
            Msg::FindingWddmSysmemFallbackTitle,
            Msg::FindingWddmSysmemFallbackExplain,
        ),
    }
}

/// A finding's title and explanation: [`finding_msgs`], except that a starvation finding
/// without a GPU demand (no `demand` value: none was given, see
/// [`crate::advisor::workload::presets::demand_given`]) says it can't check and how to give one.
fn msgs_of(f: &Finding) -> (Msg, Msg) {
    use FindingId as F;
    if f.values.contains_key("demand") {
        return finding_msgs(f.id);
    }
    // vLLM's start-up check counts its request, not the pool's consumers at a phase.
    let startup = matches!(f.values.get("limit"), Some(Quantity::Text(l)) if l == "startup-free");
    if f.id == F::PoolOverLimit && startup {
        return (
            Msg::FindingPoolOverLimitTitle,
            Msg::FindingPoolOverLimitExplainStartup,
        );
    }
    // A pool inside its limit but not its margin is a warning (`pools::findings`): not
    // "overflows".
    if f.id == F::PoolOverLimit && f.severity == crate::advisor::Severity::Warning {
        return (
            Msg::FindingPoolOverLimitTitleTight,
            Msg::FindingPoolOverLimitExplain,
        );
    }
    if f.id == F::TrainingDoesNotFit && f.values.contains_key("phase") {
        return (
            Msg::FindingTrainingDoesNotFitTitlePhase,
            Msg::FindingTrainingDoesNotFitExplain,
        );
    }
    let title = match f.id {
        F::StarvedByStorage => Msg::FindingStarvedByStorageTitleUnchecked,
        F::StarvedByRamBandwidth => Msg::FindingStarvedByRamBandwidthTitleUnchecked,
        F::StarvedByDecode => Msg::FindingStarvedByDecodeTitleUnchecked,
        F::StarvedByPcie => Msg::FindingStarvedByPcieTitleUnchecked,
        _ => return finding_msgs(f.id),
    };
    (title, Msg::FindingStarvationUncheckedExplain)
}

/// The sentence of a finding's advice `id`: WSL's `memory=` advice is worded by what the
/// finding knows of Windows' RAM (`windows_ram` and its `windows_ram_provenance`).
fn finding_rec_msg(f: &Finding, id: AdviceId) -> Msg {
    use advice_text::WindowsRamKnown as W;
    let known = match (
        f.values.get("windows_ram"),
        f.values.get("windows_ram_provenance"),
    ) {
        (None, _) => W::Unknown,
        (Some(_), Some(Quantity::Text(p))) if p == "estimated" => W::Estimated,
        (Some(_), _) => W::Entered,
    };
    advice_text::finding_variant_msg(id, known)
}

/// Fills `msg` from a finding's values (see [`fill_values`]).
fn fill(lang: Lang, msg: Msg, f: &Finding) -> String {
    if f.id == FindingId::WddmSysmemFallback {
        return windows::fill_sysmem_finding(lang, msg, &f.values);
    }
    if f.id == FindingId::DatasetSizeInconsistent {
        // The implied bytes per pixel to three decimals (the format's usual range as written).
        let mut values = f.values.clone();
        if let Some(Quantity::Number(n)) = values.get("per_pixel") {
            values.insert("per_pixel".into(), Quantity::Text(format!("{n:.3}")));
        }
        return fill_values(lang, msg, &values);
    }
    if f.id == FindingId::PoolOverLimit {
        // The pool and the limit are ids (`unified`, `commit-limit`): named as the bar names them.
        let mut values = f.values.clone();
        if let Some(Quantity::Text(name)) = values.get("pool") {
            let word = super::pools::pool_name(lang, name);
            values.insert("pool".into(), Quantity::Text(word));
        }
        if let Some(Quantity::Text(id)) = values.get("limit") {
            let limit = serde_json::from_value(serde_json::Value::String(id.clone())).ok();
            if let Some(l) = limit {
                let word = super::pools::limit_name(lang, l).to_string();
                values.insert("limit".into(), Quantity::Text(word));
            }
        }
        return fill_values(lang, msg, &values);
    }
    if f.id == FindingId::TrainingDoesNotFit {
        // The phase that breaks, by its name in this language.
        let mut values = f.values.clone();
        if let Some(Quantity::Text(id)) = values.get("phase") {
            if let Some(p) = crate::advisor::training::PhaseId::from_id(id) {
                let word = super::training::phase_name(lang, p).to_string();
                values.insert("phase".into(), Quantity::Text(word));
            }
        }
        return fill_values(lang, msg, &values);
    }
    if f.id != FindingId::PlanTight {
        return fill_values(lang, msg, &f.values);
    }
    // `plan-tight` names its plan and limit as ids: worded here, the limit as every view
    // names it (`recommend::limit_name`).
    let mut values = f.values.clone();
    if let Some(Quantity::Text(id)) = values.get("plan") {
        let m = match id.as_str() {
            "inference" => Msg::AdvicePlanInference,
            _ => Msg::AdvicePlanTraining,
        };
        values.insert("plan".into(), Quantity::Text(tr(lang, m).to_string()));
    }
    if let Some(Quantity::Text(id)) = values.get("limit") {
        if let Some(l) = crate::advisor::recommend::Limit::from_id(id) {
            let word = recommend::limit_name(lang, l).to_string();
            values.insert("limit".into(), Quantity::Text(word));
        }
    }
    fill_values(lang, msg, &values)
}

/// A finding's title, with numbers.
pub fn finding_title(lang: Lang, f: &Finding) -> String {
    fill(lang, msgs_of(f).0, f)
}

/// A finding's explanation: why it matters, with numbers.
pub fn finding_explanation(lang: Lang, f: &Finding) -> String {
    fill(lang, msgs_of(f).1, f)
}

/// A finding's recommendations, in order, with numbers.
pub fn finding_recommendations(lang: Lang, f: &Finding) -> Vec<String> {
    f.recommendations
        .iter()
        .map(|r| fill(lang, finding_rec_msg(f, *r), f))
        .collect()
}

/// One recommendation of a finding, with the finding's numbers.
pub fn recommendation(lang: Lang, f: &Finding, rec: AdviceId) -> String {
    fill(lang, finding_rec_msg(f, rec), f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::Assessment;
    use crate::advisor::assess;
    use crate::probe::gpu::GpuSource;
    use crate::probe::gpu::fake::FakeScenario;
    use crate::profile::{DiskKind, MachineProfile};

    /// Every finding the fixtures produce must carry a value for every placeholder its title,
    /// explanation and recommendations use; otherwise a user would read "unknown" in a sentence.
    #[test]
    fn every_placeholder_of_every_finding_has_a_value() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profiles");
        let mut profiles: Vec<MachineProfile> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                crate::profile::load_profile(&e.unwrap().path())
                    .unwrap()
                    .profile
            })
            .collect();
        for scenario in [
            FakeScenario::EightH100,
            FakeScenario::OneGpuErroring,
            FakeScenario::MemoryInfoUnsupported,
        ] {
            let mut p = MachineProfile::unknown();
            p.memory.total_bytes = Some(64 << 30);
            p.gpus = scenario.probe().gpus;
            profiles.push(p);
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut assessments: Vec<Assessment> = profiles
            .iter()
            .map(|p| assess(p, &crate::advisor::Scenario::NONE))
            .collect();
        // Workloads raise their own findings: every preset on three kinds of storage, plus one
        // that can't fit in RAM.
        let seed = profiles
            .iter()
            .find(|p| p.host.hostname.as_deref() == Some("seed-4090-32g"))
            .unwrap();
        for (_, w) in crate::advisor::workload::presets::presets() {
            for storage in [DiskKind::Hdd, DiskKind::Nvme, DiskKind::Network] {
                let mut w = w.clone();
                w.storage = Some(storage);
                w.gpu_demand_samples_per_s *= 4.0;
                let inputs = crate::advisor::Scenario {
                    workload: Some(w.clone()),
                    ..Default::default()
                };
                assessments.push(crate::advisor::assess(seed, &inputs));
                w.num_workers = 64;
                let inputs = crate::advisor::Scenario {
                    workload: Some(w),
                    ..Default::default()
                };
                assessments.push(crate::advisor::assess(seed, &inputs));
            }
        }
        for a in assessments {
            for f in a.findings {
                seen.insert(f.id);
                let (title, explain) = msgs_of(&f);
                let recs = f.recommendations.iter().map(|r| finding_rec_msg(&f, *r));
                for msg in [title, explain].into_iter().chain(recs) {
                    for name in msg.placeholders() {
                        assert!(
                            f.values.contains_key(*name),
                            "{:?}: {} needs {name}",
                            f.id,
                            msg.key()
                        );
                    }
                }
            }
        }
        assert!(
            seen.len() >= 10,
            "fixtures exercise most findings: {seen:?}"
        );
    }
}
