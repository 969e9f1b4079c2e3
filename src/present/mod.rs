//! Words for an assessment: turns advisor data (ids, severities, numbers) into text in one
//! language. Used by the window, the terminal and reports, so a finding reads the same
//! everywhere. Computes no advice: every number comes from the [`Assessment`].

use crate::advisor::rules::Basis;
use crate::advisor::{
    AdviceId, Assessment, Finding, FindingId, Quantity, RuleId, RuleResult, RuleStatus, Severity,
    Tier, Verdict,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::{DiskKind, Note, NoteId};

pub mod advice_text;
pub mod bandwidth;
pub mod bench;
pub mod cluster;
pub mod dataset;
pub mod document;
pub mod errors;
pub mod fleet;
pub mod hardware;
pub mod headline;
pub mod inference;
pub mod inputs;
pub mod macos;
pub mod memory_words;
pub mod model;
pub mod monitor;
pub mod names;
pub mod provenance;
pub mod purchase;
pub mod ratio;
pub mod recommend;
pub mod serde_words;
pub mod timeline;
pub mod training;
pub mod whatif;
pub mod windows;
pub mod workload;

pub use hardware::{hardware_rows, installed, modules_summary, sizing, thp};

/// Right end of the RAM:VRAM gauge in the window, the terminal and the PDF: 3.5×, past the seed's
/// 2× tier and Cisco's 3× rule, so every published rule's line is on the scale. Ratios above it
/// are drawn at the end.
pub const GAUGE_MAX_RATIO: f64 = 3.5;

/// Items in a run of text: "a, b, c" / "a、b、c" (the locale's list separator).
pub fn join<S: AsRef<str>>(lang: Lang, items: &[S]) -> String {
    let sep = tr(lang, Msg::MonitorListSep);
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(sep)
}

/// Two sentences as one paragraph: a space between them in English, none in Chinese (a
/// Chinese sentence ends in "。", which carries its own space).
pub fn sentences(lang: Lang, first: &str, second: &str) -> String {
    let gap = match lang {
        Lang::En => " ",
        Lang::Zh => "",
    };
    format!("{first}{gap}{second}")
}

/// Severity label: "Critical" / "严重".
pub fn severity(lang: Lang, s: Severity) -> &'static str {
    tr(
        lang,
        match s {
            Severity::Info => Msg::SeverityInfo,
            Severity::Warning => Msg::SeverityWarning,
            Severity::Critical => Msg::SeverityCritical,
        },
    )
}

/// Tier name.
pub fn tier(lang: Lang, t: Tier) -> &'static str {
    tr(
        lang,
        match t {
            Tier::Insufficient => Msg::TierInsufficient,
            Tier::Baseline => Msg::TierBaseline,
            Tier::Offload => Msg::TierOffload,
            Tier::LargeModel => Msg::TierLargeModel,
        },
    )
}

/// The verdict's headline and its one-paragraph explanation, with this machine's numbers.
pub fn verdict(lang: Lang, a: &Assessment) -> (String, String) {
    let (title, detail) = match a.verdict {
        Verdict::RamBelowVram => (
            Msg::VerdictRamBelowVramTitle,
            Msg::VerdictRamBelowVramDetail,
        ),
        Verdict::Baseline => (Msg::VerdictBaselineTitle, Msg::VerdictBaselineDetail),
        Verdict::OffloadReady => (
            Msg::VerdictOffloadReadyTitle,
            Msg::VerdictOffloadReadyDetail,
        ),
        Verdict::LargeModelReady => (
            Msg::VerdictLargeModelReadyTitle,
            Msg::VerdictLargeModelReadyDetail,
        ),
        Verdict::UnifiedMemory => (
            Msg::VerdictUnifiedMemoryTitle,
            Msg::VerdictUnifiedMemoryDetail,
        ),
        Verdict::NoGpu if crate::profile::is_windows(&a.profile) => {
            (Msg::VerdictNoGpuTitle, Msg::WindowsVerdictNoGpu)
        }
        Verdict::NoGpu => (Msg::VerdictNoGpuTitle, Msg::VerdictNoGpuDetail),
        Verdict::CannotJudge => (Msg::VerdictCannotJudgeTitle, Msg::VerdictCannotJudgeDetail),
    };
    // The ratio's own numbers: RAM as sized (installed, or a cgroup limit) and nominal VRAM.
    let ram = format::gib_or_unknown(lang, a.memory.sizing_bytes);
    let vram = format::gib_or_unknown(lang, a.vram.nominal_total_bytes);
    let ratio = format::ratio_or_unknown(lang, a.ratio.ram_to_vram_total);
    let args = [
        ("ram", ram.as_str()),
        ("vram", vram.as_str()),
        ("ratio", ratio.as_str()),
    ];
    (trf(lang, title, &args), trf(lang, detail, &args))
}

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

/// Fills `msg` from named values: bytes as GiB (KiB below 1 MiB: a sample's size), ratios as "0.67×", counts as integers, text as
/// written; a placeholder with no value shows as "unknown".
pub fn fill_values(
    lang: Lang,
    msg: Msg,
    values: &std::collections::BTreeMap<String, Quantity>,
) -> String {
    let filled: Vec<(&str, String)> = msg
        .placeholders()
        .iter()
        .map(|name| {
            let text = match values.get(*name) {
                Some(Quantity::Bytes(b)) => format::size(*b),
                Some(Quantity::Ratio(r)) => format::ratio(*r),
                Some(Quantity::Count(c)) => c.to_string(),
                Some(Quantity::Rate(r)) => format::rate(lang, *r),
                Some(Quantity::Share(s)) => format::percent(*s),
                Some(Quantity::BytesPerSecond(b)) => format::gbps(*b),
                Some(Quantity::Text(t)) => t.clone(),
                None => format::unknown(lang),
            };
            (*name, text)
        })
        .collect();
    let args: Vec<(&str, &str)> = filled.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, msg, &args)
}

/// A finding's title, with numbers.
pub fn finding_title(lang: Lang, f: &Finding) -> String {
    fill(lang, finding_msgs(f.id).0, f)
}

/// A finding's explanation: why it matters, with numbers.
pub fn finding_explanation(lang: Lang, f: &Finding) -> String {
    fill(lang, finding_msgs(f.id).1, f)
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

/// A rule's short name ("RAPIDS doctor").
pub fn rule_name(lang: Lang, id: RuleId) -> &'static str {
    tr(
        lang,
        match id {
            RuleId::SeedNoOffload => Msg::RuleSeedNoOffload,
            RuleId::SeedOffload => Msg::RuleSeedOffload,
            RuleId::SeedLargeModel => Msg::RuleSeedLargeModel,
            RuleId::DettmersLargestGpu => Msg::RuleDettmersLargestGpu,
            RuleId::BekmanTotalVram => Msg::RuleBekmanTotalVram,
            RuleId::RapidsDoctor => Msg::RuleRapidsDoctor,
            RuleId::Puget2x => Msg::RulePuget2x,
            RuleId::NvidiaRa128PerGpu => Msg::RuleNvidiaRa128PerGpu,
            RuleId::Cisco3x => Msg::RuleCisco3x,
        },
    )
}

/// The rule as a formula: "RAM ≥ 1.8 × total VRAM", "RAM ≥ 128.0 GiB per GPU".
pub fn rule_statement(lang: Lang, r: &RuleResult) -> String {
    match r.basis {
        Basis::TotalVram => trf(
            lang,
            Msg::RuleStatementTotal,
            &[("factor", &factor(r.factor))],
        ),
        Basis::LargestGpu => trf(
            lang,
            Msg::RuleStatementLargest,
            &[("factor", &factor(r.factor))],
        ),
        Basis::PerGpu => trf(
            lang,
            Msg::RuleStatementPerGpu,
            // In the rule's own unit: NVIDIA writes decimal GB.
            &[("amount", &format::gb(r.factor.round() as u64))],
        ),
    }
}

fn factor(f: f64) -> String {
    if f.fract() == 0.0 {
        format!("{f:.0}")
    } else {
        format!("{f}")
    }
}

/// The rules table's header: rule, formula, required, this machine, result.
pub fn rule_header(lang: Lang) -> [&'static str; 5] {
    [
        Msg::ColRule,
        Msg::ColFormula,
        Msg::ColRequired,
        Msg::ColActual,
        Msg::ColStatus,
    ]
    .map(|m| tr(lang, m))
}

/// One row of the rules table, matching [`rule_header`].
pub fn rule_row(lang: Lang, r: &RuleResult) -> [String; 5] {
    [
        rule_name(lang, r.id).to_string(),
        rule_statement(lang, r),
        format::gib_or_unknown(lang, r.required_bytes),
        format::gib_or_unknown(lang, r.actual_bytes),
        rule_status(lang, r.status).to_string(),
    ]
}

/// "pass" / "fail" / "can't check" / "n/a".
pub fn rule_status(lang: Lang, s: RuleStatus) -> &'static str {
    tr(
        lang,
        match s {
            RuleStatus::Pass => Msg::StatusPass,
            RuleStatus::Fail => Msg::StatusFail,
            RuleStatus::CantCheck => Msg::StatusCantCheck,
            RuleStatus::NotApplicable => Msg::StatusNotApplicable,
        },
    )
}

/// Why a GPU reading has no value, in words: "not supported by the driver" or "error: …";
/// `None` when it has one or nothing was recorded (then the value shows as "unknown").
pub fn field_status(lang: Lang, status: Option<&crate::profile::FieldStatus>) -> Option<String> {
    use crate::profile::FieldStatus;
    match status? {
        FieldStatus::Value => None,
        FieldStatus::Unsupported => Some(tr(lang, Msg::GpuFieldUnsupported).to_string()),
        FieldStatus::Error(e) => Some(trf(lang, Msg::GpuFieldError, &[("error", e)])),
    }
}

/// A detection note, with the system's own words appended.
pub fn note(lang: Lang, n: &Note) -> String {
    let msg = match n.id {
        NoteId::NvmlUnavailable => Msg::NoteNvmlUnavailable,
        NoteId::GpuQueryFailed => Msg::NoteGpuQueryFailed,
        NoteId::GpuMemoryUnsupported => Msg::NoteGpuMemoryUnsupported,
        NoteId::MountTimedOut => Msg::NoteMountTimedOut,
        NoteId::SourceUnreadable => Msg::NoteSourceUnreadable,
        NoteId::PlatformPartial => Msg::NotePlatformPartial,
        NoteId::GpuTypeUnknown => Msg::NoteGpuTypeUnknown,
        NoteId::WslConfigMalformed => Msg::NoteWslConfigMalformed,
        NoteId::GpuSuspended => Msg::GpuNoteSuspended,
        NoteId::SourceMalformed => Msg::WindowsNoteSourceMalformed,
        NoteId::SysmemFallbackUnknown => Msg::WindowsNoteSysmemFallbackUnknown,
        NoteId::GpuMigEnabled => Msg::GpuNoteMigEnabled,
        NoteId::ValueOutOfRange => Msg::MacosNoteValueOutOfRange,
    };
    match &n.detail {
        Some(d) => names::aside(lang, tr(lang, msg), d),
        None => tr(lang, msg).to_string(),
    }
}

/// Disk kind label.
pub fn disk_kind(lang: Lang, k: DiskKind) -> &'static str {
    tr(
        lang,
        match k {
            DiskKind::Nvme => Msg::DiskNvme,
            DiskKind::Ssd => Msg::DiskSsd,
            DiskKind::Hdd => Msg::DiskHdd,
            DiskKind::Network => Msg::DiskNetwork,
            DiskKind::Unknown => Msg::DiskUnknown,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::assess;
    use crate::probe::gpu::GpuSource;
    use crate::probe::gpu::fake::FakeScenario;
    use crate::profile::MachineProfile;

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
                let (title, explain) = finding_msgs(f.id);
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

    #[test]
    fn rule_statements_read_naturally() {
        let a = assess(
            &MachineProfile {
                gpus: FakeScenario::EightH100.probe().gpus,
                ..MachineProfile::unknown()
            },
            &crate::advisor::Scenario::NONE,
        );
        let rapids = a
            .rules
            .iter()
            .find(|r| r.id == RuleId::RapidsDoctor)
            .unwrap();
        assert_eq!(rule_statement(Lang::En, rapids), "RAM ≥ 1.8 × total VRAM");
        let nvidia = a
            .rules
            .iter()
            .find(|r| r.id == RuleId::NvidiaRa128PerGpu)
            .unwrap();
        assert_eq!(
            rule_statement(Lang::Zh, nvidia),
            "每块 GPU 配内存 ≥ 128\u{a0}GB"
        );
    }
}
