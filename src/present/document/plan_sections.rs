//! The report's sections about what the user set up: the training plan, the data-loading workload,
//! the served model, and what to buy for them. Words come from [`crate::present`].

use super::types::Block;
use crate::advisor::Assessment;
use crate::advisor::buying::procurement::{Basis, RamReason};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::{self, training as tw};

/// "Saving and resuming: assumed …": the save and resume the phases were computed with when the
/// plan left either to the framework (`training::default_save` / `default_resume`); `None`
/// when it named both.
fn lifecycle_note(lang: Lang, t: &crate::advisor::training::TrainingMemory) -> Option<String> {
    use crate::present::lifecycle_words as words;
    let l = &t.estimate.lifecycle;
    if !l.save_default && !l.resume_default {
        return None;
    }
    Some(trf(
        lang,
        Msg::LifecycleAssumed,
        &[
            ("save", words::save_state_dict(lang, l.save)),
            ("resume", words::resume_load(lang, l.resume)),
        ],
    ))
}

pub(super) fn training(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    use crate::advisor::standing;
    let Some(t) = &a.training_memory else { return };
    b.push(Block::Heading(tr(lang, Msg::TrainSection).to_string()));
    // The verdict first, in the colour of how the plan stands.
    b.push(Block::Verdict {
        standing: standing::training(t),
        title: tr(lang, tw::verdict_msg(t)).to_string(),
        body: tw::ram_line(lang, t).unwrap_or_default(),
    });
    let (model, plan) = tw::plan_summary(lang, t);
    b.push(Block::KeyValues(vec![
        (tr(lang, Msg::TrainPreset).to_string(), model),
        (tr(lang, Msg::TrainStrategy).to_string(), plan),
    ]));
    let mut rows = vec![
        (
            check_row(lang, Msg::TrainNeedGpu, &t.gpu),
            standing::check(&t.gpu),
        ),
        (
            check_row(lang, Msg::TrainNeedCpu, &t.cpu),
            standing::check(&t.cpu),
        ),
    ];
    if let Some(n) = &t.nvme {
        rows.push((check_row(lang, Msg::TrainNeedNvme, n), standing::check(n)));
    }
    let header = vec![
        String::new(),
        tr(lang, Msg::TrainNeeded).into(),
        tr(lang, Msg::TrainAvailable).into(),
        String::new(),
    ];
    b.push(Block::Checks {
        header,
        rows,
        widths: vec![2.5, 1.5, 1.5, 1.5],
    });
    // Next to the VRAM figure: what it includes of activations.
    b.push(Block::Paragraph(tw::activations_line(lang, t)));
    b.push(Block::Subheading(tr(lang, Msg::PhaseSection).to_string()));
    let (header, rows) = tw::phase_table(lang, t);
    b.push(Block::Table {
        header: header.to_vec(),
        rows: rows.into_iter().map(|r| r.to_vec()).collect(),
        widths: vec![2.5, 1.8, 1.8],
    });
    b.push(Block::Paragraph(tw::loading_line(lang, t)));
    b.push(Block::Note(tw::runtime_note(lang, t)));
    if let Some(n) = lifecycle_note(lang, t) {
        b.push(Block::Note(n));
    }
    if let Some(d) = tw::deepspeed_line(lang, t) {
        b.push(Block::Note(d));
    }
    b.push(Block::Subheading(tr(lang, Msg::TrainBreakdown).to_string()));
    let (header, rows) = tw::breakdown_table(lang, t);
    b.push(Block::Table {
        header: header.to_vec(),
        rows: rows.into_iter().map(|r| r.to_vec()).collect(),
        widths: vec![3.0, 2.0, 1.4, 1.2],
    });
    if let Some(traffic) = nvme_traffic(lang, t) {
        b.push(Block::Paragraph(traffic));
    }
    if !t.estimate.warnings.is_empty() {
        b.push(Block::Bullets(
            t.estimate
                .warnings
                .iter()
                .map(|w| tw::plan_warning(lang, *w).to_string())
                .collect(),
        ));
    }
    b.push(Block::Note(
        tw::source(lang, t.estimate.formula).to_string(),
    ));
    b.push(Block::Note(tr(lang, Msg::TrainUnitsNote).to_string()));
}

/// The NVMe traffic of one optimizer step when the plan offloads to NVMe (read and written,
/// GiB), in a sentence; `None` without NVMe offload. The report's training section and the
/// window's Training page say it in these words.
pub fn nvme_traffic(lang: Lang, t: &crate::advisor::training::TrainingMemory) -> Option<String> {
    let traffic = t.estimate.nvme_traffic_per_step_bytes?;
    Some(trf(
        lang,
        Msg::TrainNvmeTraffic,
        &[("bytes", &format::gib(traffic))],
    ))
}

pub(super) fn workload(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    use crate::present::workload as ww;
    let (Some(r), Some(p)) = (&a.workload, a.pipeline()) else {
        return;
    };
    let w = &r.workload;
    b.push(Block::Heading(tr(lang, Msg::WorkTitle).to_string()));
    let preset = ww::preset_basis(lang, w).map(|p| (tr(lang, Msg::WorkPresetRow).to_string(), p));
    let mut kv: Vec<(String, String)> = preset.into_iter().collect();
    kv.extend([
        (
            tr(lang, Msg::WorkDataset).to_string(),
            format::gb(w.dataset_bytes),
        ),
        (
            tr(lang, Msg::WorkSamples).to_string(),
            w.samples.to_string(),
        ),
    ]);
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
    let rows = ww::budget_rows(lang, r)
        .into_iter()
        .map(|(item, size)| vec![item.to_string(), size])
        .collect();
    b.push(Block::Table {
        header: vec![String::new(), String::new()],
        rows,
        widths: vec![3.0, 1.2],
    });
    if let Some(note) = ww::spawn_note(lang, r) {
        b.push(Block::Paragraph(note));
    }
    b.push(Block::Paragraph(ww::ram_bar_label(lang, r)));
    if let Some(pause) = ww::pause_line(lang, r) {
        b.push(Block::Paragraph(pause));
    }
    b.push(Block::Subheading(tr(lang, Msg::WorkPipeline).to_string()));
    b.push(pipeline_table(lang, p));
    let mut sentence = ww::bottleneck_sentence(lang, p);
    if p.exceeds_ram {
        sentence.push_str(tr(lang, Msg::JoinUtilizationUnreachableSentence));
    } else if let Some(u) = p.predicted_gpu_utilization {
        sentence.push_str(&trf(
            lang,
            Msg::JoinUtilizationSentence,
            &[("value", &format::percent(u))],
        ));
    }
    b.push(Block::Paragraph(sentence));
    if let Some(note) = ww::decode_assumption(lang, w, p) {
        b.push(Block::Paragraph(note));
    }
}

/// The pipeline's stages with their rates in samples/s (or why a stage has none), storage
/// first, the narrowest stage marked ● as the Bandwidth section marks it, as a table without a
/// header (the workload section of the report and the terminal). `p` is the assessment's
/// pipeline ([`Assessment::pipeline`]).
pub fn pipeline_table(lang: Lang, p: &crate::advisor::workload::view::PipelineView) -> Block {
    use crate::present::workload as ww;
    Block::Table {
        header: vec![String::new(), String::new(), String::new()],
        rows: p
            .stages
            .iter()
            .zip(ww::stage_rows(lang, p))
            .map(|(s, (name, rate))| {
                let mark = if p.narrowest == Some(s.id) { "●" } else { "" };
                vec![name.to_string(), rate, mark.to_string()]
            })
            .collect(),
        widths: vec![3.0, 1.6, 0.4],
    }
}

/// Inference memory: the plan, weights and KV cache, the checks, the phases and what the host
/// holds.
pub(super) fn inference(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    use crate::present::inference as iw;
    let Some(m) = &a.inference_memory else { return };
    b.push(Block::Heading(tr(lang, Msg::InferenceSection).to_string()));
    b.push(Block::Paragraph(iw::summary(lang, m)));
    b.push(Block::Paragraph(iw::weights_and_cache(lang, m)));
    if let Some(c) = iw::context_source(lang, m) {
        b.push(Block::Paragraph(c));
    }
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
    let now = iw::gpu_now_lines(lang, &a.profile);
    if !now.is_empty() {
        b.push(Block::Bullets(now));
    }
    let (header, rows) = iw::phase_table(lang, m);
    b.push(Block::Table {
        header: header.to_vec(),
        rows: rows.into_iter().map(|r| r.to_vec()).collect(),
        widths: vec![2.5, 1.8, 1.8],
    });
    b.push(Block::Bullets(iw::host_lines(lang, m)));
}

pub(super) fn check_row(
    lang: Lang,
    label: Msg,
    c: &crate::advisor::training::CapacityCheck,
) -> Vec<String> {
    tw::check_row(lang, label, c).to_vec()
}

pub(super) fn procurement(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
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
        Basis::RamWontFix => kv.push((
            tr(lang, Msg::ProcRecommended).to_string(),
            trf(
                lang,
                Msg::ProcRamWontFixValue,
                &[("short", &present::purchase::short_of(lang, a))],
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
                            &format::gib_or_unknown(lang, a.memory.usable_bytes),
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
        // The first set is page 1's order; the others wait in the appendix.
        if let Some(first) = s.sets.into_iter().next() {
            b.push(Block::Bullets(vec![first]));
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
