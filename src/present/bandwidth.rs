//! Words for the bandwidth part of an assessment: stage names, the pipeline's bottleneck
//! sentence, the seed's bandwidth rule, PCIe lines. Shared by the window and the terminal.

use crate::advisor::RuleStatus;
use crate::advisor::bandwidth::{Bandwidth, BandwidthBasis, PcieView, StageId};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::ValueSource;

/// The memory table's rows, shared by the window and the terminal: type, speed, channels,
/// modules (when any are listed), theoretical GB/s, measured Triad (marked when noisy) and
/// efficiency, each value with where it came from.
pub fn memory_rows(lang: Lang, b: &Bandwidth) -> Vec<(&'static str, String)> {
    let m = &b.memory;
    let unknown = format::unknown(lang);
    let mut rows = vec![
        (
            tr(lang, Msg::BwRowType),
            m.memory_type.clone().unwrap_or_else(|| unknown.clone()),
        ),
        (
            tr(lang, Msg::BwRowSpeed),
            m.speed_mts.map_or_else(
                || unknown.clone(),
                |s| trf(lang, Msg::BwSpeedValue, &[("mts", &s.to_string())]),
            ),
        ),
        (
            tr(lang, Msg::BwRowChannels),
            with_source(
                lang,
                format::count_or_unknown(lang, m.channels),
                m.channels_source,
                true,
            ),
        ),
    ];
    if m.modules > 0 {
        rows.push((tr(lang, Msg::BwRowModules), m.modules.to_string()));
    }
    let measured = match m.measured_triad_bytes_per_s {
        Some(v) if m.measured_noisy => {
            format!("{} ({})", format::gbps(v), tr(lang, Msg::BwNoisyShort))
        }
        Some(v) => format::gbps(v),
        None => tr(lang, Msg::BwNotMeasured).to_string(),
    };
    rows.extend([
        (
            tr(lang, Msg::BwRowTheoretical),
            with_source(
                lang,
                format::gbps_or_unknown(lang, m.theoretical_bytes_per_s),
                m.theoretical_source,
                false,
            ),
        ),
        (tr(lang, Msg::BwRowMeasured), measured),
        (
            tr(lang, Msg::BwRowEfficiency),
            m.efficiency.map_or(unknown, format::percent),
        ),
    ]);
    rows
}

/// A stage's name: "RAM bandwidth" / "内存带宽".
pub fn stage_name(lang: Lang, id: StageId) -> &'static str {
    tr(
        lang,
        match id {
            StageId::StorageRead => Msg::BwStageStorage,
            StageId::RamBandwidth => Msg::BwStageRam,
            StageId::CpuDecode => Msg::BwStageCpu,
            StageId::PcieH2d => Msg::BwStagePcie,
            StageId::GpuDemand => Msg::BwStageGpu,
        },
    )
}

/// "detected" / "entered" / "estimated".
pub fn source_word(lang: Lang, s: ValueSource) -> &'static str {
    tr(
        lang,
        match s {
            ValueSource::Detected => Msg::BwSourceDetected,
            ValueSource::Entered => Msg::BwSourceEntered,
            ValueSource::Estimated => Msg::BwSourceEstimated,
        },
    )
}

/// Where a channel count came from: "estimated" reads "estimated from slot names".
pub fn channels_source_word(lang: Lang, s: ValueSource) -> &'static str {
    match s {
        ValueSource::Estimated => tr(lang, Msg::BwSourceSlotNames),
        other => source_word(lang, other),
    }
}

/// A value followed by where it came from: "25.6 GB/s (estimated)".
pub fn with_source(lang: Lang, value: String, s: Option<ValueSource>, channels: bool) -> String {
    let word = match s {
        Some(s) if channels => channels_source_word(lang, s),
        Some(s) => source_word(lang, s),
        None => return value,
    };
    trf(
        lang,
        Msg::BwWithSource,
        &[("value", &value), ("source", word)],
    )
}

/// The sentence naming the pipeline's narrowest stage.
pub fn pipeline_sentence(lang: Lang, b: &Bandwidth) -> String {
    let p = &b.pipeline;
    let Some(id) = p.narrowest else {
        return tr(lang, Msg::BwPipelineUnknown).to_string();
    };
    let value = p
        .stages
        .iter()
        .find(|s| s.id == id)
        .and_then(|s| s.bytes_per_s)
        .map(format::gbps)
        .unwrap_or_else(|| format::unknown(lang));
    let demand = p
        .stages
        .iter()
        .find(|s| s.id == StageId::GpuDemand)
        .and_then(|s| s.bytes_per_s)
        .map(format::gbps);
    let stage = stage_name(lang, id);
    match (p.starves_gpus, demand) {
        (Some(true), Some(d)) => trf(
            lang,
            Msg::BwPipelineStarves,
            &[("stage", stage), ("value", &value), ("demand", &d)],
        ),
        (Some(false), Some(d)) => trf(
            lang,
            Msg::BwPipelineOk,
            &[("stage", stage), ("value", &value), ("demand", &d)],
        ),
        _ => trf(
            lang,
            Msg::BwPipelineNoDemand,
            &[("stage", stage), ("value", &value)],
        ),
    }
}

/// "At 150 KiB per sample, Storage read (the narrowest stage) carries about 2279 samples per
/// second."; `None` without a narrowest stage or a sample size.
pub fn samples_sentence(lang: Lang, b: &Bandwidth, sample_bytes: u64) -> Option<String> {
    let id = b.pipeline.narrowest?;
    let v = b.pipeline.stages.iter().find(|s| s.id == id)?.bytes_per_s?;
    let n = crate::advisor::bandwidth::samples_per_s(v, sample_bytes)?;
    Some(trf(
        lang,
        Msg::BwSamplesSentence,
        &[
            ("size", &format::size(sample_bytes)),
            ("stage", stage_name(lang, id)),
            ("samples", &format!("{n:.0}")),
        ],
    ))
}

/// The seed's rule with this machine's arithmetic.
pub fn seed_rule_text(lang: Lang, b: &Bandwidth) -> String {
    let r = &b.seed_rule;
    match r.status {
        RuleStatus::NotApplicable => tr(lang, Msg::BwRuleNa).to_string(),
        RuleStatus::CantCheck => tr(lang, Msg::BwRuleCant).to_string(),
        RuleStatus::Pass | RuleStatus::Fail => {
            let basis = match r.basis {
                Some(BandwidthBasis::Measured) => tr(lang, Msg::BwBasisMeasured),
                _ => tr(lang, Msg::BwBasisTheoretical),
            };
            trf(
                lang,
                Msg::BwRuleText,
                &[
                    (
                        "actual",
                        &format::gbps_or_unknown(lang, r.actual_bytes_per_s),
                    ),
                    ("basis", basis),
                    ("covers", &format::gib_or_unknown(lang, r.covers_vram_bytes)),
                    ("vram", &format::gib_or_unknown(lang, r.vram_bytes)),
                    (
                        "required",
                        &format::gbps_or_unknown(lang, r.required_bytes_per_s),
                    ),
                ],
            )
        }
    }
}

/// Where a measured folder lives: "/mnt/datasets/imagenet is on /mnt/datasets (network file
/// system)"; `None` when its mount is unknown.
pub fn storage_location(lang: Lang, s: &crate::advisor::bandwidth::StorageView) -> Option<String> {
    let (mount, kind) = (s.mount_point.as_deref()?, s.kind?);
    Some(trf(
        lang,
        Msg::BwStorageOn,
        &[
            ("path", &s.path),
            ("mount", mount),
            ("kind", super::disk_kind(lang, kind)),
        ],
    ))
}

/// One GPU's PCIe line.
pub fn pcie_line(lang: Lang, p: &PcieView) -> String {
    let c = |v: Option<u32>| format::count_or_unknown(lang, v);
    let mut line = trf(
        lang,
        Msg::BwPcieLine,
        &[
            ("gpu", &p.gpu.to_string()),
            ("gen", &c(p.link.gen_current)),
            ("width", &c(p.link.width_current)),
            (
                "current",
                &format::gbps_or_unknown(lang, p.current_bytes_per_s),
            ),
            ("gen_max", &c(p.link.gen_max)),
            ("width_max", &c(p.link.width_max)),
            ("max", &format::gbps_or_unknown(lang, p.max_bytes_per_s)),
        ],
    );
    if p.idle_slowdown {
        line.push(' ');
        line.push_str(tr(lang, Msg::BwPcieIdle));
    }
    if let (Some(rx), Some(tx)) = (p.rx_bytes_per_s, p.tx_bytes_per_s) {
        line.push_str(&trf(
            lang,
            Msg::BwPcieTraffic,
            &[("rx", &format::gbps(rx)), ("tx", &format::gbps(tx))],
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::assess;

    fn fixture(name: &str) -> crate::profile::MachineProfile {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/profiles")
            .join(format!("{name}.json"));
        crate::profile::load_profile(&path).unwrap().profile
    }

    #[test]
    fn bottleneck_sentence_in_both_languages() {
        let a = assess(&fixture("student-4090-ddr4-single-channel"));
        let b = a.bandwidth.unwrap();
        assert_eq!(
            pipeline_sentence(Lang::En, &b),
            "The narrowest known stage is RAM bandwidth (25.6 GB/s)."
        );
        assert_eq!(
            pipeline_sentence(Lang::Zh, &b),
            "已知环节中最窄的是内存带宽（25.6 GB/s）。"
        );
        // With a demand from a scenario (here 40 GB/s), the sentence says whether it starves.
        let p = fixture("student-4090-ddr4-single-channel");
        let vram = crate::advisor::capacity::vram_totals(&p);
        let with = crate::advisor::bandwidth::bandwidth_with_demand(&p, &vram, Some(40e9)).unwrap();
        assert_eq!(
            pipeline_sentence(Lang::En, &with),
            "The narrowest stage is RAM bandwidth (25.6 GB/s), below the 40.0 GB/s the GPUs \
             need: the GPUs will wait for data."
        );
        assert_eq!(
            pipeline_sentence(Lang::Zh, &with),
            "最窄的一环是内存带宽（25.6 GB/s），低于 GPU 需要的 40.0 GB/s：GPU 会等数据。"
        );
        assert_eq!(
            pcie_line(Lang::En, &b.pcie[0]),
            "GPU 0: Gen4 x16 = 31.5 GB/s; the link can reach Gen4 x16 = 31.5 GB/s"
        );
    }

    #[test]
    fn samples_per_second_at_the_narrowest_stage() {
        let b = assess(&fixture("lab-a6000-nfs-measured"))
            .bandwidth
            .unwrap();
        // 0.35 × 10^9 B/s ÷ (150 × 1024 B) = 2278.6 samples/s.
        assert_eq!(
            samples_sentence(Lang::En, &b, 150 * 1024).unwrap(),
            "At 150 KiB per sample, Storage read (the narrowest stage) carries about 2279 \
             samples per second."
        );
        assert_eq!(
            samples_sentence(Lang::Zh, &b, 150 * 1024).unwrap(),
            "按每个样本 150 KiB 计算，最窄的一环（存储读取）每秒大约能送 2279 个样本。"
        );
        assert_eq!(samples_sentence(Lang::En, &b, 0), None);
    }

    #[test]
    fn pcie_traffic_from_nvml_counters() {
        use crate::probe::gpu::fake::FakeScenario;
        // The fake H100s report 12,000,000 KB/s received and 1,500,000 KB/s sent (KB = 1000 B).
        let p = crate::probe::detect_with(&FakeScenario::EightH100);
        let b = assess(&p).bandwidth.unwrap();
        assert_eq!(b.pcie[0].rx_bytes_per_s, Some(12e9));
        assert!(
            pcie_line(Lang::En, &b.pcie[0])
                .ends_with("; traffic at detection: 12.0 GB/s to the GPU, 1.50 GB/s from it"),
            "{}",
            pcie_line(Lang::En, &b.pcie[0])
        );
    }

    #[test]
    fn an_idle_link_is_reported_as_power_saving() {
        let mut p = fixture("student-4090-ddr4-single-channel");
        let link = p.gpus[0].pcie.as_mut().unwrap();
        link.gen_current = Some(1);
        p.gpus[0].utilization_percent = Some(0);
        let b = assess(&p).bandwidth.unwrap();
        // Gen1 x16 = 16 × 0.25 = 4.0 GB/s now; the pipeline counts Gen4 x16 (31.5 GB/s).
        assert_eq!(
            pcie_line(Lang::En, &b.pcie[0]),
            "GPU 0: Gen1 x16 = 4.00 GB/s; the link can reach Gen4 x16 = 31.5 GB/s (idle: the \
             GPU slows its link down to save power and speeds it up under load; not a fault)"
        );
        assert!(
            (b.pcie[0].effective_bytes_per_s.unwrap() - 16.0 * 16e9 * 128.0 / 130.0 / 8.0).abs()
                < 1.0
        );
        p.gpus[0].utilization_percent = Some(97);
        let b = assess(&p).bandwidth.unwrap();
        assert!(!b.pcie[0].idle_slowdown);
        assert!((b.pcie[0].effective_bytes_per_s.unwrap() - 4e9).abs() < 1.0);
    }
}
