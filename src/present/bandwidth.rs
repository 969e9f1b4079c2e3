//! Words for the bandwidth part of an assessment: stage names, the pipeline's bottleneck
//! sentence, the seed's bandwidth rule, PCIe lines. Shared by the window and the terminal.

use crate::advisor::RuleStatus;
use crate::advisor::bandwidth::{Bandwidth, BandwidthBasis, PcieView};
use crate::advisor::workload::StageId;
use crate::advisor::workload::view::{PipelineView, StageView};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::Provenance;

use super::provenance;

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
        Some(v) if m.measured_single_pass => {
            super::names::aside(lang, &format::gbps(v), tr(lang, Msg::BenchSinglePassShort))
        }
        Some(v) if m.measured_noisy => {
            super::names::aside(lang, &format::gbps(v), tr(lang, Msg::BwNoisyShort))
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

/// A finding under the Bandwidth page's figures: "Warning: Memory bandwidth limits …" /
/// "警告：…" (its severity and title).
pub fn finding_line(lang: Lang, f: &crate::advisor::Finding) -> String {
    trf(
        lang,
        Msg::BwFindingLine,
        &[
            ("severity", super::severity(lang, f.severity)),
            ("title", &super::finding_title(lang, f)),
        ],
    )
}

/// A stage's name, the same on the Bandwidth and Data loading pages: "RAM bandwidth" /
/// "内存带宽".
pub fn stage_name(lang: Lang, id: StageId) -> &'static str {
    super::workload::stage(lang, id)
}

/// Where a channel count came from: [`provenance::word`], except that "estimated" reads
/// "estimated from slot names" (the only way a channel count is estimated).
pub fn channels_source_word(lang: Lang, s: Provenance) -> &'static str {
    match s {
        Provenance::Estimated => tr(lang, Msg::BwSourceSlotNames),
        other => provenance::word(lang, other),
    }
}

/// A value followed by where it came from: "25.6 GB/s (estimated)"; with `channels`, in the
/// words of [`channels_source_word`].
pub fn with_source(lang: Lang, value: String, s: Option<Provenance>, channels: bool) -> String {
    match s {
        Some(s) if channels => provenance::aside(lang, value, channels_source_word(lang, s)),
        s => provenance::with_word(lang, value, s),
    }
}

/// The sentence about the pipeline `p` (`bandwidth.pipeline`): with a workload, the Data
/// loading page's own sentence ([`super::workload::bottleneck_sentence`], the same numbers);
/// without, that these are the machine's capacities.
pub fn pipeline_sentence(lang: Lang, p: &PipelineView) -> String {
    if p.with_workload {
        super::workload::bottleneck_sentence(lang, p)
    } else {
        tr(lang, Msg::DataloaderMachineOnly).to_string()
    }
}

/// Where a stage's capacity comes from: "theoretical" for a peak from the specification,
/// "measured in /data", "typical for NVMe SSD, an assumption", else [`provenance::word`]
/// ("the default, an assumption").
pub fn figure_source(lang: Lang, p: &PipelineView, s: &StageView) -> String {
    if s.theoretical {
        return provenance::theoretical(lang).to_string();
    }
    match s.source {
        Provenance::Measured => match (&p.storage_path, s.id) {
            (Some(path), StageId::StorageRead) => {
                trf(lang, Msg::DataloaderSourceMeasuredPath, &[("path", path)])
            }
            _ => provenance::word(lang, Provenance::Measured).to_string(),
        },
        Provenance::Typical => trf(
            lang,
            Msg::DataloaderSourceTypical,
            &[(
                "kind",
                super::disk_kind(
                    lang,
                    p.storage_kind.unwrap_or(crate::profile::DiskKind::Unknown),
                ),
            )],
        ),
        other => provenance::word(lang, other).to_string(),
    }
}

/// A stage's capacity in words: GB/s, and for CPU decode the cores and rate behind it.
pub fn capacity(lang: Lang, p: &PipelineView, s: &StageView) -> String {
    let value = format::gbps_or_unknown(lang, s.capacity_bytes_per_s);
    match (s.id, p.decode_cores, s.capacity_bytes_per_s) {
        (StageId::Decode, Some(cores), Some(_)) => format!(
            "{} = {value}",
            trf(
                lang,
                Msg::DataloaderDecodeCapacity,
                &[
                    ("cores", &cores.to_string()),
                    ("rate", &super::bench::mpix(p.decode_mpix_per_core)),
                ],
            )
        ),
        _ => value,
    }
}

/// A stage's capacity with where it comes from: "3.00 GB/s (typical for NVMe SSD, an
/// assumption)"; "unknown" alone when nothing is known.
pub fn capacity_with_source(lang: Lang, p: &PipelineView, s: &StageView) -> String {
    if s.capacity_bytes_per_s.is_none() {
        return format::unknown(lang);
    }
    trf(
        lang,
        Msg::DataloaderCapacityWithSource,
        &[
            ("capacity", &capacity(lang, p, s)),
            ("source", &figure_source(lang, p, s)),
        ],
    )
}

/// One line per stage: its capacity and where it comes from, and with a workload what the
/// stage delivers for it (samples/s × bytes per sample = GB/s), or why it doesn't limit. GPU
/// demand, which only a workload has, reads as that product alone.
pub fn stage_lines(lang: Lang, b: &Bandwidth) -> Vec<String> {
    let p = &b.pipeline;
    p.stages
        .iter()
        .map(|s| {
            let stage = stage_name(lang, s.id);
            let pace = match (
                s.samples_per_s,
                s.bytes_per_sample,
                s.workload_bytes_per_s(),
            ) {
                (Some(n), Some(bytes), Some(pace)) => Some(trf(
                    lang,
                    Msg::DataloaderPace,
                    &[
                        ("samples", &format::rate(lang, n)),
                        ("per_sample", &format::sample_size(bytes)),
                        ("pace", &format::gbps(pace)),
                    ],
                )),
                _ => None,
            };
            let cap = capacity_with_source(lang, p, s);
            match (p.with_workload, pace) {
                (true, Some(pace)) if s.id == StageId::GpuDemand => trf(
                    lang,
                    Msg::DataloaderStageLine,
                    &[
                        ("stage", stage),
                        (
                            "capacity",
                            &trf(
                                lang,
                                Msg::DataloaderCapacityWithSource,
                                &[("capacity", &pace), ("source", &figure_source(lang, p, s))],
                            ),
                        ),
                    ],
                ),
                (true, Some(pace)) => trf(
                    lang,
                    Msg::DataloaderStageLineWorkload,
                    &[("stage", stage), ("capacity", &cap), ("pace", &pace)],
                ),
                (true, None) if s.capacity_bytes_per_s.is_some() => trf(
                    lang,
                    Msg::DataloaderStageLineNotLimiting,
                    &[
                        ("stage", stage),
                        ("capacity", &cap),
                        ("note", &super::workload::stage_not_limiting(lang, s.id)),
                    ],
                ),
                _ => trf(
                    lang,
                    Msg::DataloaderStageLine,
                    &[("stage", stage), ("capacity", &cap)],
                ),
            }
        })
        .collect()
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
                _ => provenance::theoretical(lang),
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
    fn a_single_timed_pass_says_so_instead_of_a_spread() {
        let mut p = fixture("lab-a6000-nfs-measured");
        let m = p.measurements.memory_bandwidth.as_mut().unwrap();
        m.repetitions = 1;
        m.spread = 0.0;
        m.noisy = true;
        let one = m.clone();
        let a = assess(&p, &crate::advisor::Scenario::NONE);
        let rows = memory_rows(Lang::En, a.bandwidth.as_ref().unwrap());
        let measured = &rows
            .iter()
            .find(|(l, _)| l.starts_with("Measured"))
            .unwrap()
            .1;
        // The fixture's Triad is 80.0 GB/s.
        assert_eq!(
            measured,
            "80.0\u{a0}GB/s (one timed pass: whether the machine was busy can't be told)"
        );
        let details = super::super::bench::memory_details(Lang::En, &one);
        assert!(details.ends_with("one timed pass."), "{details}");
        assert!(!details.contains("passes differed"), "{details}");
        let zh = super::super::bench::memory_details(Lang::Zh, &one);
        assert!(zh.ends_with("只计时了一轮。"), "{zh}");
    }

    #[test]
    fn without_a_workload_the_page_lists_capacities_and_names_no_stage() {
        let a = assess(
            &fixture("student-4090-ddr4-single-channel"),
            &crate::advisor::Scenario::NONE,
        );
        let b = a.bandwidth.as_ref().unwrap();
        assert_eq!(b.pipeline.narrowest, None);
        assert!(pipeline_sentence(Lang::En, &b.pipeline).starts_with("No workload is set up"));
        assert!(pipeline_sentence(Lang::Zh, &b.pipeline).starts_with("还没有设定数据加载任务"));
        let lines = stage_lines(Lang::En, b);
        // One channel × 3200 MT/s × 8 B = 25.6 GB/s, inferred from slot names.
        assert_eq!(lines[1], "RAM bandwidth: 25.6\u{a0}GB/s (theoretical)");
        assert_eq!(
            pcie_line(Lang::En, &b.pcie[0]),
            "GPU 0: Gen4 x16 = 31.5\u{a0}GB/s; the link can reach Gen4 x16 = 31.5\u{a0}GB/s"
        );
    }

    #[test]
    fn pcie_traffic_from_nvml_counters() {
        use crate::probe::gpu::fake::FakeScenario;
        // The fake H100s report 12,000,000 KB/s received and 1,500,000 KB/s sent (KB = 1000 B).
        let p = crate::probe::detect_with(&FakeScenario::EightH100);
        let b = assess(&p, &crate::advisor::Scenario::NONE)
            .bandwidth
            .unwrap();
        assert_eq!(b.pcie[0].rx_bytes_per_s, Some(12e9));
        assert!(
            pcie_line(Lang::En, &b.pcie[0]).ends_with(
                "; traffic at detection: 12.0\u{a0}GB/s to the GPU, 1.50\u{a0}GB/s from it"
            ),
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
        let b = assess(&p, &crate::advisor::Scenario::NONE)
            .bandwidth
            .unwrap();
        // Gen1 x16 = 16 × 0.25 = 4.0 GB/s now; the pipeline counts Gen4 x16 (31.5 GB/s).
        assert_eq!(
            pcie_line(Lang::En, &b.pcie[0]).replace('\u{a0}', " "),
            "GPU 0: Gen1 x16 = 4.00 GB/s; the link can reach Gen4 x16 = 31.5 GB/s (idle: the \
             GPU slows its link down to save power and speeds it up under load; not a fault)"
        );
        assert!(
            (b.pcie[0].effective_bytes_per_s.unwrap() - 16.0 * 16e9 * 128.0 / 130.0 / 8.0).abs()
                < 1.0
        );
        p.gpus[0].utilization_percent = Some(97);
        let b = assess(&p, &crate::advisor::Scenario::NONE)
            .bandwidth
            .unwrap();
        assert!(!b.pcie[0].idle_slowdown);
        assert!((b.pcie[0].effective_bytes_per_s.unwrap() - 4e9).abs() < 1.0);
    }
}
