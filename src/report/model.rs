//! The report model: an [`Assessment`] laid out as blocks of localised text, tables and charts.
//! Builds words through [`crate::present`]; computes no advice of its own.

use crate::advisor::procurement::{Basis, RamReason};
use crate::advisor::{Assessment, RuleStatus, Severity};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::{self, training as tw};

/// A chart, drawn as vectors by the PDF writer (and omitted from Markdown).
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    /// The RAM:VRAM gauge with the seed's tier bands.
    RatioGauge {
        /// The ratio.
        ratio: f64,
        /// Tier names, lowest first.
        tier_labels: [String; 4],
    },
    /// RAM each rule requires against this machine's RAM, GiB.
    RulesBars {
        /// (rule name, required GiB).
        rules: Vec<(String, f64)>,
        /// This machine's effective RAM, GiB.
        actual_gib: f64,
        /// Legend for the actual line.
        actual_label: String,
        /// Axis title.
        axis_label: String,
    },
    /// A watched run's charts on one time axis, each diagnosis shaded.
    Timeline {
        /// The charts, top to bottom.
        panels: Vec<crate::present::timeline::TimelinePanel>,
        /// The shaded ranges.
        spans: Vec<crate::present::timeline::TimelineSpan>,
        /// Time axis title (empty: no title, a chart continued by the next one).
        x_label: String,
        /// First and last sample's time, seconds.
        x_range: (f64, f64),
        /// Name the shaded ranges (in the first chart of a stack).
        label_spans: bool,
    },
    /// Machines as points of RAM against VRAM, with the 1×, 1.5× and 2× lines.
    FleetScatter {
        /// The machines with both numbers known.
        points: Vec<FleetPoint>,
        /// X axis title.
        x_label: String,
        /// Y axis title.
        y_label: String,
        /// Names of the lines RAM = 1×, 1.5× and 2× VRAM.
        line_labels: [String; 3],
    },
}

/// A machine on the fleet chart.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetPoint {
    /// Name.
    pub label: String,
    /// Total VRAM, GiB.
    pub vram_gib: f64,
    /// Usable RAM, GiB.
    pub ram_gib: f64,
    /// Tier, for the colour.
    pub tier: Option<crate::advisor::Tier>,
}

/// One block of the report.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Document title.
    Title(String),
    /// Line under the title (date, version, source).
    Meta(String),
    /// Section heading.
    Heading(String),
    /// Sub-heading.
    Subheading(String),
    /// Running text.
    Paragraph(String),
    /// A coloured box with a title and text (the verdict).
    Callout {
        /// Colour.
        severity: Severity,
        /// Bold line.
        title: String,
        /// Text.
        body: String,
    },
    /// Two-column label/value list.
    KeyValues(Vec<(String, String)>),
    /// A table; `widths` are relative column widths.
    Table {
        /// Header row.
        header: Vec<String>,
        /// Body rows.
        rows: Vec<Vec<String>>,
        /// Relative widths, one per column.
        widths: Vec<f32>,
    },
    /// A bulleted list.
    Bullets(Vec<String>),
    /// A numbered list, 1 first (the ranked recommendations: the rank is the point).
    Numbered(Vec<String>),
    /// A finding: severity label, title, explanation, recommendations.
    Finding {
        /// Colour.
        severity: Severity,
        /// "Critical" / "严重".
        label: String,
        /// Title.
        title: String,
        /// Explanation.
        explanation: String,
        /// What to do.
        recommendations: Vec<String>,
    },
    /// A chart.
    Chart(Chart),
    /// Small print.
    Note(String),
}

/// Which languages a report is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportLang {
    /// One language.
    One(Lang),
    /// Each section in Chinese, then in English.
    Both,
}

impl ReportLang {
    /// The languages, in the order sections repeat.
    pub fn langs(self) -> Vec<Lang> {
        match self {
            ReportLang::One(l) => vec![l],
            ReportLang::Both => vec![Lang::Zh, Lang::En],
        }
    }
}

/// Facts about the report itself (not advice): when, by what, and whether it was redacted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportMeta {
    /// Date the report was made, `YYYY-MM-DD`.
    pub date: String,
    /// `ramvram 0.1.0`.
    pub generator: String,
    /// The profile file reported on; `None` for this machine (detected).
    pub source_file: Option<String>,
    /// Identifiers removed.
    pub redacted: bool,
}

use crate::format::GIB;

/// Builds the report's blocks for `a` (already redacted when `meta.redacted`).
pub fn build(a: &Assessment, meta: &ReportMeta, langs: ReportLang) -> Vec<Block> {
    build_with_monitor(a, meta, langs, None)
}

/// [`build`], with a watched run's live diagnosis before the appendix when one is given.
pub fn build_with_monitor(
    a: &Assessment,
    meta: &ReportMeta,
    langs: ReportLang,
    monitor: Option<&super::monitor::MonitorReport>,
) -> Vec<Block> {
    let langs = langs.langs();
    let mut blocks = Vec::new();
    type Section = fn(&mut Vec<Block>, Lang, &Assessment, &ReportMeta);
    let sections: [Section; 13] = [
        title,
        verdict,
        inputs,
        hardware,
        ratio,
        rules,
        bandwidth,
        findings,
        recommendations,
        workload,
        training,
        inference,
        procurement,
    ];
    for section in sections {
        for &lang in &langs {
            section(&mut blocks, lang, a, meta);
        }
    }
    if let Some(m) = monitor {
        for &lang in &langs {
            super::monitor::section(&mut blocks, lang, m, meta.redacted);
        }
    }
    for &lang in &langs {
        appendix(&mut blocks, lang, a);
    }
    blocks
}

fn title(b: &mut Vec<Block>, lang: Lang, a: &Assessment, meta: &ReportMeta) {
    let host = a.profile.host.hostname.clone().unwrap_or_else(|| {
        if meta.redacted {
            tr(lang, Msg::ReportRedactedHost).to_string()
        } else {
            format::unknown(lang)
        }
    });
    b.push(Block::Title(trf(
        lang,
        Msg::ReportTitle,
        &[("host", &host)],
    )));
    let mut line = trf(
        lang,
        Msg::ReportMeta,
        &[("date", &meta.date), ("generator", &meta.generator)],
    );
    // A redacted report names no file (a file name often is the host name).
    if !meta.redacted {
        line.push_str(" · ");
        line.push_str(&match &meta.source_file {
            Some(f) => trf(lang, Msg::ReportSourceFile, &[("file", f)]),
            None => tr(lang, Msg::ReportSourceDetected).to_string(),
        });
    }
    b.push(Block::Meta(line));
    if meta.redacted {
        b.push(Block::Note(tr(lang, Msg::ReportRedactedNote).to_string()));
    }
}

fn verdict(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    let h = present::headline::headline(lang, a);
    b.push(Block::Callout {
        severity: h.severity,
        title: h.title,
        body: h.detail,
    });
}

/// What the report covers: the training plan and the workload the user set up, or the machine
/// alone. Built from the assessment, so it can't disagree with the sections below.
fn inputs(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    b.push(Block::Subheading(tr(lang, Msg::InputsSection).to_string()));
    let mut lines = Vec::new();
    if let Some(t) = &a.training_memory {
        let (model, plan) = tw::plan_summary(lang, t);
        let text = format!("{model} · {plan}");
        lines.push(trf(lang, Msg::InputsTraining, &[("plan", &text)]));
    }
    if let Some(w) = &a.workload {
        let text = present::workload::summary(lang, &w.workload);
        lines.push(trf(lang, Msg::InputsWorkload, &[("workload", &text)]));
    }
    if lines.is_empty() {
        b.push(Block::Paragraph(
            tr(lang, Msg::InputsMachineOnly).to_string(),
        ));
    } else {
        b.push(Block::Bullets(lines));
    }
}

fn hardware(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    b.push(Block::Heading(tr(lang, Msg::HwSection).to_string()));
    b.push(Block::KeyValues(present::hardware_rows(lang, a)));
    if !a.profile.notes.is_empty() {
        b.push(Block::Bullets(
            a.profile
                .notes
                .iter()
                .map(|n| present::note(lang, n))
                .collect(),
        ));
    }
}

fn ratio(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    b.push(Block::Heading(tr(lang, Msg::RatioSection).to_string()));
    if let Some(r) = a.ratio.ram_to_vram_total {
        let labels = crate::advisor::Tier::ALL.map(|t| present::tier(lang, t).to_string());
        b.push(Block::Chart(Chart::RatioGauge {
            ratio: r,
            tier_labels: labels,
        }));
    }
    b.push(Block::KeyValues(vec![
        (
            tr(lang, Msg::RatioTotal).to_string(),
            format::ratio_or_unknown(lang, a.ratio.ram_to_vram_total),
        ),
        (
            tr(lang, Msg::RatioLargest).to_string(),
            format::ratio_or_unknown(lang, a.ratio.ram_to_largest_gpu),
        ),
        (
            tr(lang, Msg::RatioTier).to_string(),
            a.ratio.tier.map_or_else(
                || format::unknown(lang),
                |t| present::tier(lang, t).to_string(),
            ),
        ),
    ]));
}

fn rules(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    b.push(Block::Heading(tr(lang, Msg::RulesSection).to_string()));
    let header = present::rule_header(lang).map(str::to_string).to_vec();
    let rows = a
        .rules
        .iter()
        .map(|r| present::rule_row(lang, r).to_vec())
        .collect();
    b.push(Block::Table {
        header,
        rows,
        widths: vec![3.0, 3.2, 1.4, 1.4, 1.2],
    });
    let bars: Vec<(String, f64)> = a
        .rules
        .iter()
        .filter(|r| r.status != RuleStatus::NotApplicable)
        .filter_map(|r| {
            r.required_bytes
                .map(|req| (present::rule_name(lang, r.id).to_string(), req as f64 / GIB))
        })
        .collect();
    if let (false, Some(actual)) = (bars.is_empty(), a.memory.sizing_bytes) {
        b.push(Block::Chart(Chart::RulesBars {
            rules: bars,
            actual_gib: actual as f64 / GIB,
            actual_label: trf(
                lang,
                Msg::ReportThisMachineRam,
                &[("ram", &format::gib(actual))],
            ),
            axis_label: tr(lang, Msg::ReportRamAxis).to_string(),
        }));
    }
}

/// Memory bandwidth (theoretical and measured, with where each number came from), the seed's
/// bandwidth rule with its arithmetic, the pipeline's stages and its narrowest one, PCIe per GPU
/// and measured storage: what the window's Bandwidth page and `advise` show.
fn bandwidth(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    use crate::present::bandwidth as words;
    let Some(bw) = &a.bandwidth else { return };
    b.push(Block::Heading(tr(lang, Msg::BwTab).to_string()));
    b.push(Block::Paragraph(words::pipeline_sentence(
        lang,
        a.workload.as_ref(),
    )));
    let p = &bw.pipeline;
    let rows = p
        .stages
        .iter()
        .map(|s| {
            let mark = if p.narrowest == Some(s.id) {
                "●".to_string()
            } else {
                String::new()
            };
            let workload = match s.samples_per_s {
                Some(n) => format::rate(lang, n),
                None if p.with_workload => crate::present::workload::stage_not_limiting(lang, s.id),
                None => String::new(),
            };
            vec![
                words::stage_name(lang, s.id).to_string(),
                words::capacity_with_source(lang, p, s),
                workload,
                mark,
            ]
        })
        .collect();
    b.push(Block::Table {
        header: vec![
            tr(lang, Msg::BwColStage).to_string(),
            tr(lang, Msg::Work2ColCapacity).to_string(),
            tr(lang, Msg::Work2ColWorkload).to_string(),
            tr(lang, Msg::BwColNarrowest).to_string(),
        ],
        rows,
        widths: vec![2.0, 3.4, 1.6, 0.8],
    });
    b.push(Block::KeyValues(
        words::memory_rows(lang, bw)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    ));
    b.push(Block::Paragraph(words::seed_rule_text(lang, bw)));
    let mut lines: Vec<String> = bw.pcie.iter().map(|p| words::pcie_line(lang, p)).collect();
    lines.extend(
        bw.storage
            .iter()
            .filter_map(|s| words::storage_location(lang, s)),
    );
    if !lines.is_empty() {
        b.push(Block::Bullets(lines));
    }
}

fn findings(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    b.push(Block::Heading(tr(lang, Msg::FindingsSection).to_string()));
    if a.findings.is_empty() {
        b.push(Block::Paragraph(tr(lang, Msg::FindingsNone).to_string()));
    }
    for f in &a.findings {
        b.push(Block::Finding {
            severity: f.severity,
            label: present::severity(lang, f.severity).to_string(),
            title: present::finding_title(lang, f),
            explanation: present::finding_explanation(lang, f),
            recommendations: present::finding_recommendations(lang, f),
        });
    }
}

/// The ranked list of changes, the same list the window and `advise` show.
fn recommendations(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    if a.recommendations.is_empty() {
        return;
    }
    b.push(Block::Heading(
        tr(lang, Msg::RecommendationSection).to_string(),
    ));
    b.push(Block::Numbered(
        a.recommendations
            .iter()
            .map(|r| present::recommend::line(lang, r))
            .collect(),
    ));
}

fn training(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    let Some(t) = &a.training_memory else { return };
    b.push(Block::Heading(tr(lang, Msg::TrainSection).to_string()));
    let (model, plan) = tw::plan_summary(lang, t);
    b.push(Block::KeyValues(vec![
        (tr(lang, Msg::TrainPreset).to_string(), model),
        (tr(lang, Msg::TrainStrategy).to_string(), plan),
    ]));
    let mut rows = vec![
        check_row(lang, Msg::TrainNeedGpu, &t.gpu),
        check_row(lang, Msg::TrainNeedCpu, &t.cpu),
    ];
    if let Some(n) = &t.nvme {
        rows.push(check_row(lang, Msg::TrainNeedNvme, n));
    }
    let header = vec![
        String::new(),
        tr(lang, Msg::TrainNeeded).into(),
        tr(lang, Msg::TrainAvailable).into(),
        String::new(),
    ];
    b.push(Block::Table {
        header,
        rows,
        widths: vec![2.5, 1.5, 1.5, 1.5],
    });
    // Next to the VRAM figure: what it includes of activations.
    b.push(Block::Paragraph(tw::activations_line(lang, t)));
    let (header, rows) = tw::phase_table(lang, t);
    b.push(Block::Table {
        header: header.to_vec(),
        rows: rows.into_iter().map(|r| r.to_vec()).collect(),
        widths: vec![2.5, 1.8, 1.8],
    });
    b.push(Block::Paragraph(tw::loading_line(lang, t)));
    b.push(Block::Note(tw::runtime_note(lang, t)));
    if let Some(d) = tw::deepspeed_line(lang, t) {
        b.push(Block::Note(d));
    }
    let verdict = match t.fits {
        Some(true) => Msg::TrainVerdictFits,
        Some(false) => Msg::TrainVerdictDoesNotFit,
        None => Msg::TrainVerdictUnknown,
    };
    let mut text = tr(lang, verdict).to_string();
    if let Some(r) = t.ram_to_fit_bytes {
        text.push(' ');
        text.push_str(&trf(lang, Msg::TrainRamToFit, &[("ram", &format::gib(r))]));
    }
    b.push(Block::Paragraph(text));
    b.push(Block::Subheading(tr(lang, Msg::TrainBreakdown).to_string()));
    let header = [
        Msg::TrainColState,
        Msg::TrainColWhere,
        Msg::TrainColBytes,
        Msg::TrainColPerParam,
    ]
    .map(|m| tr(lang, m).to_string())
    .to_vec();
    let rows = t
        .estimate
        .breakdown
        .iter()
        .map(|i| {
            vec![
                tw::state_kind(lang, &t.plan, i.kind).to_string(),
                tw::location(lang, i.location).to_string(),
                format::gib(i.bytes),
                format!("{:.2}", i.bytes_per_param),
            ]
        })
        .collect();
    b.push(Block::Table {
        header,
        rows,
        widths: vec![3.0, 2.0, 1.4, 1.2],
    });
    b.push(Block::Note(tw::source(lang, t.estimate.source).to_string()));
    b.push(Block::Note(tr(lang, Msg::TrainUnitsNote).to_string()));
}

fn workload(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    use crate::present::workload as ww;
    let Some(r) = &a.workload else { return };
    let w = &r.workload;
    b.push(Block::Heading(tr(lang, Msg::WorkTitle).to_string()));
    let mut kv = vec![
        (
            tr(lang, Msg::WorkDataset).to_string(),
            format::gb(w.dataset_bytes),
        ),
        (
            tr(lang, Msg::WorkSamples).to_string(),
            w.samples.to_string(),
        ),
    ];
    if w.width > 0 {
        kv.push((
            tr(lang, Msg::WorkImageSize).to_string(),
            format!("{} × {} px", w.width, w.height),
        ));
        kv.push((
            tr(lang, Msg::WorkCrop).to_string(),
            format!("{} px", w.crop),
        ));
    }
    let loader = format!(
        "{} · {} · {}",
        w.batch_size, w.num_workers, w.prefetch_factor
    );
    kv.push((
        "batch_size · num_workers · prefetch_factor".to_string(),
        loader,
    ));
    kv.push((
        tr(lang, Msg::WorkAugmentation).to_string(),
        ww::augmentation(lang, w.augmentation).to_string(),
    ));
    kv.push((
        tr(lang, Msg::WorkFormat).to_string(),
        ww::data_format(lang, w.format).to_string(),
    ));
    kv.push((
        tr(lang, Msg::WorkDemand).to_string(),
        format::rate(lang, w.gpu_demand_samples_per_s),
    ));
    b.push(Block::KeyValues(kv));
    b.push(Block::Subheading(tr(lang, Msg::WorkRamBudget).to_string()));
    let rows = r
        .memory_budget
        .items
        .iter()
        .map(|i| {
            vec![
                ww::budget_item(lang, i.id).to_string(),
                format::gib(i.bytes),
            ]
        })
        .collect();
    b.push(Block::Table {
        header: vec![String::new(), String::new()],
        rows,
        widths: vec![3.0, 1.2],
    });
    let budget = &r.memory_budget;
    b.push(Block::Paragraph(trf(
        lang,
        Msg::WorkRamBarLabel,
        &[
            ("working", &format::gib(budget.working_set_bytes)),
            (
                "ram",
                &format::gib_or_unknown(lang, budget.effective_ram_bytes),
            ),
        ],
    )));
    b.push(Block::Subheading(tr(lang, Msg::WorkPipeline).to_string()));
    let rows = r
        .pipeline
        .stages
        .iter()
        .map(|s| {
            let rate = s.samples_per_s.map_or_else(
                || ww::stage_not_limiting(lang, s.id),
                |v| format::rate(lang, v),
            );
            vec![ww::stage(lang, s.id).to_string(), rate]
        })
        .collect();
    b.push(Block::Table {
        header: vec![String::new(), String::new()],
        rows,
        widths: vec![3.0, 1.6],
    });
    let mut sentence = ww::bottleneck_sentence(lang, r);
    if let Some(u) = r.pipeline.predicted_gpu_utilization {
        sentence.push_str(&trf(
            lang,
            Msg::JoinUtilizationSentence,
            &[("value", &format::percent(u))],
        ));
    }
    b.push(Block::Paragraph(sentence));
    if let Some(note) = ww::decode_assumption(lang, r) {
        b.push(Block::Paragraph(note));
    }
}

/// Inference memory: the plan, weights and KV cache, the checks, the phases and what the host
/// holds.
fn inference(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    use crate::present::inference as iw;
    let Some(m) = &a.inference_memory else { return };
    b.push(Block::Heading(tr(lang, Msg::InferenceSection).to_string()));
    b.push(Block::Paragraph(iw::summary(lang, m)));
    b.push(Block::Paragraph(iw::weights_and_cache(lang, m)));
    b.push(Block::Table {
        header: vec![
            String::new(),
            tr(lang, Msg::TrainNeeded).into(),
            tr(lang, Msg::TrainAvailable).into(),
            String::new(),
        ],
        rows: vec![
            check_row(lang, Msg::TrainNeedGpu, &m.gpu),
            check_row(lang, Msg::TrainNeedCpu, &m.cpu),
        ],
        widths: vec![2.5, 1.5, 1.5, 1.5],
    });
    let (header, rows) = iw::phase_table(lang, m);
    b.push(Block::Table {
        header: header.to_vec(),
        rows: rows.into_iter().map(|r| r.to_vec()).collect(),
        widths: vec![2.5, 1.8, 1.8],
    });
    b.push(Block::Bullets(iw::host_lines(lang, m)));
}

fn check_row(lang: Lang, label: Msg, c: &crate::advisor::training::CapacityCheck) -> Vec<String> {
    vec![
        tr(lang, label).to_string(),
        format::gib(c.needed_bytes),
        format::gib_or_unknown(lang, c.available_bytes),
        tw::fits_word(lang, c.fits).to_string(),
    ]
}

fn procurement(b: &mut Vec<Block>, lang: Lang, a: &Assessment, _: &ReportMeta) {
    let p = &a.procurement;
    b.push(Block::Heading(tr(lang, Msg::ProcSection).to_string()));
    let mut kv = vec![(
        tr(lang, Msg::ProcCurrent).to_string(),
        format::gib_or_unknown(lang, p.current_ram_bytes),
    )];
    // What was set up comes first; the published rules are what they ask for, not a need.
    match p.basis {
        Basis::Rules => {}
        Basis::Work => kv.push((
            tr(lang, Msg::ProcRecommended).to_string(),
            format::gib_or_unknown(
                lang,
                p.recommended_ram_bytes
                    .or_else(|| present::purchase::work_need(a)),
            ),
        )),
        Basis::WorkFits => {
            let need = p.work.iter().map(|w| w.needed_bytes).max().unwrap_or(0);
            kv.push((
                tr(lang, Msg::ProcWorkFits).to_string(),
                trf(
                    lang,
                    Msg::ProcWorkFitsValue,
                    &[
                        ("need", &format::gib(need)),
                        (
                            "usable",
                            &format::gib_or_unknown(lang, a.memory.effective_bytes),
                        ),
                    ],
                ),
            ))
        }
    }
    kv.push((
        tr(lang, Msg::ProcRules).to_string(),
        p.rules_ram_bytes
            .map_or_else(|| tr(lang, Msg::ProcRulesMet).to_string(), format::gib),
    ));
    b.push(Block::KeyValues(kv));
    if !p.targets.is_empty() {
        let header = vec![
            tr(lang, Msg::ProcColReason).into(),
            tr(lang, Msg::ColRequired).into(),
        ];
        let vram = format::gib_or_unknown(lang, p.vram_bytes);
        let rows = p
            .targets
            .iter()
            .map(|t| {
                let reason = match t.reason {
                    RamReason::TwiceVram => trf(lang, Msg::ProcReasonTwiceVram, &[("vram", &vram)]),
                    RamReason::LargestGpu => tr(lang, Msg::ProcReasonLargestGpu).to_string(),
                    RamReason::TrainingPlan => tr(lang, Msg::ProcReasonTrainingPlan).to_string(),
                    RamReason::InferencePlan => tr(lang, Msg::ProcReasonInferencePlan).to_string(),
                    RamReason::Workload => tr(lang, Msg::ProcReasonWorkload).to_string(),
                };
                vec![reason, format::gib(t.required_bytes)]
            })
            .collect();
        b.push(Block::Table {
            header,
            rows,
            widths: vec![5.0, 1.4],
        });
    }
    // What to buy for this kind of machine (a larger instance, modules that exist, …), or
    // that what was set up needs none.
    if let Some(s) = present::purchase::section(lang, a) {
        b.push(Block::Subheading(
            tr(lang, Msg::PurchaseSection).to_string(),
        ));
        b.extend(s.paragraphs.into_iter().map(Block::Paragraph));
        if !s.sets.is_empty() {
            b.push(Block::Bullets(s.sets));
        }
    }
    if !p.other.is_empty() {
        b.push(Block::Paragraph(tr(lang, Msg::ProcOther).to_string()));
        let advice = p
            .other
            .iter()
            .filter_map(|r| {
                let f = a.findings.iter().find(|f| f.recommendations.contains(r))?;
                Some(present::recommendation(lang, f, *r))
            })
            .collect();
        b.push(Block::Bullets(advice));
    }
}

fn appendix(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.push(Block::Heading(tr(lang, Msg::ReportAppendix).to_string()));
    b.push(Block::Paragraph(tr(lang, Msg::ReportUnits).to_string()));
    let mut sources: Vec<String> = present::names::rule_sources(lang, &a.rules)
        .into_iter()
        .map(str::to_string)
        .collect();
    // The /dev/shm need the findings used: the workload's own, else the default assumption.
    sources.push(match &a.workload {
        Some(r) => {
            let w = &r.workload;
            trf(
                lang,
                Msg::ReportShmWorkload,
                &[
                    ("workers", &w.num_workers.to_string()),
                    ("prefetch", &w.prefetch_factor.to_string()),
                    ("batch", &w.batch_size.to_string()),
                    ("sample", &format::size(w.tensor_bytes())),
                    ("experiments", &w.concurrent_experiments.to_string()),
                    ("total", &format::gib(r.shm_needed_bytes)),
                ],
            )
        }
        None => tr(lang, Msg::ReportAssumptionShm).to_string(),
    });
    // The DIMM-set assumption only where sets are listed; the purchase's own where it is shown.
    let purchase = present::purchase::shown(a).map(|(p, _)| p);
    let sets_shown = purchase.is_some_and(|p| !present::purchase::alternative(p).is_empty());
    if sets_shown {
        sources.push(tr(lang, Msg::ReportAssumptionDimms).to_string());
    }
    if purchase.is_some() {
        sources.push(tr(lang, Msg::PurchaseAssumption).to_string());
    }
    sources.push(tr(lang, Msg::ReportModelDoc).to_string());
    b.push(Block::Bullets(sources));
}

/// Builds the fleet comparison report: the table, the chart, and each planned machine's
/// problems, in each language.
pub fn build_fleet(
    machines: &[crate::advisor::fleet::FleetMachine],
    skipped: &[(String, Option<crate::profile::dir::Skip>)],
    meta: &ReportMeta,
    langs: ReportLang,
) -> Vec<Block> {
    use crate::present::fleet::{header, plan_issue, row};
    // Machines by host name (then by where they came from), as a reader looks them up.
    let mut machines: Vec<&crate::advisor::fleet::FleetMachine> = machines.iter().collect();
    machines.sort_by_cached_key(|m| {
        (
            m.label.to_lowercase(),
            m.label.clone(),
            format!("{:?}", m.origin),
        )
    });
    let mut b = Vec::new();
    for lang in langs.langs() {
        b.push(Block::Title(tr(lang, Msg::FleetReportTitle).to_string()));
        b.push(Block::Meta(trf(
            lang,
            Msg::ReportMeta,
            &[("date", &meta.date), ("generator", &meta.generator)],
        )));
        if meta.redacted {
            b.push(Block::Note(tr(lang, Msg::ReportRedactedNote).to_string()));
        }
        let rows = machines.iter().map(|m| row(lang, m).to_vec()).collect();
        b.push(Block::Table {
            header: header(lang).iter().map(|h| h.to_string()).collect(),
            rows,
            widths: vec![2.2, 2.4, 1.2, 1.2, 1.0, 1.8, 3.0],
        });
        let points: Vec<FleetPoint> = machines
            .iter()
            .filter_map(|m| {
                Some(FleetPoint {
                    label: m.label.clone(),
                    vram_gib: m.assessment.vram.nominal_total_bytes? as f64 / GIB,
                    ram_gib: m.assessment.memory.sizing_bytes? as f64 / GIB,
                    tier: m.assessment.ratio.tier,
                })
            })
            .collect();
        let data: Vec<(f64, f64)> = points.iter().map(|p| (p.vram_gib, p.ram_gib)).collect();
        let log = crate::chart::fleet_axes(&data).0.log;
        let axis = |msg: Msg| {
            let title = tr(lang, msg);
            if log {
                trf(lang, Msg::FleetChartLogAxis, &[("axis", title)])
            } else {
                title.to_string()
            }
        };
        let line = |factor: &str| trf(lang, Msg::FleetRuleLine, &[("factor", factor)]);
        b.push(Block::Chart(Chart::FleetScatter {
            points,
            x_label: axis(Msg::FleetVramAxis),
            y_label: axis(Msg::FleetRamAxis),
            line_labels: [line("1×"), line("1.5×"), line("2×")],
        }));
        if !skipped.is_empty() {
            let skipped_lines = skipped
                .iter()
                .map(|(f, r)| {
                    present::names::labelled(lang, f, &super::skip_reason(lang, r.as_ref()))
                })
                .collect();
            b.push(Block::Subheading(tr(lang, Msg::FleetSkipped).to_string()));
            b.push(Block::Bullets(skipped_lines));
        }
        for m in &machines {
            let (title, body) = present::verdict(lang, &m.assessment);
            b.push(Block::Callout {
                severity: m.assessment.verdict.severity(),
                title: present::names::host_line(lang, &m.label, &title),
                body,
            });
            if !m.plan_issues.is_empty() {
                b.push(Block::Bullets(
                    m.plan_issues.iter().map(|i| plan_issue(lang, i)).collect(),
                ));
            }
        }
    }
    b
}
