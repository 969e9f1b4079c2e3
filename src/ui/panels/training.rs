//! The training-memory planner: plan inputs on the left, what the plan needs and whether it
//! fits on the right. All numbers come from the assessment; this panel only edits the plan.

use egui::{RichText, Ui};

use super::Command;
use crate::advisor::Assessment;
use crate::advisor::training::{
    ActivationInput, CapacityCheck, FineTune, OffloadTarget, Optimizer, Precision, Strategy,
    TrainingMemory, TrainingPlan, presets,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::parse::parse_count;
use crate::present::training as words;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

/// Text fields the user is typing in (kept between frames, not yet a valid plan).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingForm {
    /// The plan being edited.
    pub plan: TrainingPlan,
    /// Parameter count as typed ("7B").
    pub params_text: String,
    /// Largest layer as typed ("" = preset's or assumed).
    pub largest_text: String,
    /// What the model list is filtered by, as typed (name, id or Hub id; case ignored).
    pub model_filter: String,
    /// The model files the plan's figures were read from ("Open model…"), while they stand.
    pub read: Option<Box<crate::inputs::model_files::ModelRead>>,
}

impl TrainingForm {
    /// A form showing `plan`.
    pub fn new(plan: TrainingPlan) -> TrainingForm {
        TrainingForm {
            params_text: format::params(plan.params),
            largest_text: plan
                .largest_layer_params
                .map(format::params)
                .unwrap_or_default(),
            model_filter: String::new(),
            read: None,
            plan,
        }
    }
}

impl Default for TrainingForm {
    /// The advisor's first plan ([`crate::advisor::defaults::first_plan`]), the one the
    /// command line assesses for `--preset llama2-7b`.
    fn default() -> TrainingForm {
        TrainingForm::new(crate::advisor::defaults::first_plan())
    }
}

fn combo<T: Copy + PartialEq>(
    ui: &mut Ui,
    id: &str,
    value: &mut T,
    options: &[(T, &str)],
) -> egui::Response {
    let current = options
        .iter()
        .find(|(v, _)| v == value)
        .map_or("", |(_, l)| *l);
    egui::ComboBox::from_id_salt(id)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (v, label) in options {
                ui.selectable_value(value, *v, *label);
            }
        })
        .response
}

/// A grid row: a label and a widget that screen readers (and UI tests) know by that label.
fn row(ui: &mut Ui, label: &str, add: impl FnOnce(&mut Ui) -> egui::Response) -> egui::Response {
    let l = ui.label(label);
    let r = add(ui).labelled_by(l.id);
    ui.end_row();
    r
}

/// Draws the planner for the plan in `form`; `a` is the machine assessed with that plan, and
/// `included` says whether the plan is part of the assessment and the report, `restored` whether
/// it is as restored from the last session. Returns `SetPlan`
/// when the form describes a new plan, `IncludeTraining` when the switch is flipped.
pub fn training(
    ui: &mut Ui,
    lang: Lang,
    form: &mut TrainingForm,
    a: &Assessment,
    (included, restored): (bool, bool),
) -> Vec<Command> {
    let before = form.plan.clone();
    let mut commands = Vec::new();
    // Each column scrolls on its own, both ways: nothing is cut on a small window (800 × 560).
    crate::ui::paragraph::columns(ui, 2, |cols| {
        let (left, right) = cols.split_at_mut(1);
        egui::ScrollArea::both()
            .id_salt("training-in")
            .show(&mut left[0], |ui| {
                super::heading(ui, tr(lang, Msg::TrainSection));
                if let Some(on) = super::include_switch(
                    ui,
                    tr(lang, Msg::IncludeTraining),
                    tr(lang, Msg::IncludeHint),
                    included,
                ) {
                    commands.push(Command::IncludeTraining(on));
                }
                super::restored_note(ui, lang, restored);
                ui.horizontal_wrapped(|ui| {
                    if ui.button(tr(lang, Msg::ModelOpenFile)).clicked() {
                        commands.push(Command::OpenModelFileDialog);
                    }
                    if ui.button(tr(lang, Msg::ModelOpenFolder)).clicked() {
                        commands.push(Command::OpenModelFolderDialog);
                    }
                });
                if let Some(r) = &form.read {
                    ui.label(RichText::new(crate::present::model::read_note(lang, r)).small());
                }
                inputs(ui, lang, form);
            });
        egui::ScrollArea::both()
            .id_salt("training-out")
            .show(&mut right[0], |ui| {
                outputs(ui, lang, a);
            });
    });
    if form.plan != before {
        commands.push(Command::SetPlan(form.plan.clone()));
    }
    commands
}

fn inputs(ui: &mut Ui, lang: Lang, form: &mut TrainingForm) {
    let plan = &mut form.plan;
    egui::Grid::new("training-inputs")
        .num_columns(2)
        .spacing([12.0, 8.0])
        .show(ui, |ui| {
            let current = plan.preset().map_or(tr(lang, Msg::TrainCustom), |p| {
                crate::present::names::preset_name(lang, p)
            });
            row(ui, tr(lang, Msg::TrainPreset), |ui| {
                // A long preset name ends in "…" inside the column rather than running past
                // it; the whole name is in the list and on hover.
                // Typing in the search field must not close the list; choosing a model does.
                egui::ComboBox::from_id_salt("preset")
                    .selected_text(current)
                    .truncate()
                    .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
                    // Room for the search field and the eight classic presets at once.
                    .height(420.0)
                    .show_ui(ui, |ui| {
                        let label = ui.label(tr(lang, Msg::ModelSearchLabel));
                        ui.add(
                            egui::TextEdit::singleline(&mut form.model_filter)
                                .hint_text(tr(lang, Msg::ModelSearchHint)),
                        )
                        .labelled_by(label.id);
                        let filter = form.model_filter.trim().to_lowercase();
                        let shown = presets::presets().iter().filter(|p| {
                            filter.is_empty()
                                || [p.id.as_str(), p.name.as_str(), p.hub_id.as_str()]
                                    .iter()
                                    .any(|n| n.to_lowercase().contains(&filter))
                        });
                        for p in shown {
                            if ui
                                .selectable_label(
                                    plan.preset.as_deref() == Some(p.id.as_str()),
                                    crate::present::names::preset_name(lang, p),
                                )
                                .clicked()
                            {
                                // A preset is a model: strategy, offload, precision and the
                                // rest stay as the user set them.
                                plan.preset = Some(p.id.clone());
                                form.read = None;
                                plan.params = p.params;
                                plan.largest_layer_params = p.largest_layer;
                                form.params_text = format::params(p.params);
                                form.largest_text =
                                    p.largest_layer.map(format::params).unwrap_or_default();
                                ui.close();
                            }
                        }
                    })
                    .response
                    .on_hover_text(current)
            });

            let r = row(ui, tr(lang, Msg::TrainParams), |ui| {
                ui.text_edit_singleline(&mut form.params_text)
            });
            if r.changed() {
                if let Ok(p) = parse_count(&form.params_text) {
                    plan.params = p;
                    plan.preset = None;
                }
            }
            if let Err(e) = parse_count(&form.params_text) {
                ui.label("");
                ui.label(
                    RichText::new(crate::codespan::plain(&e.text(lang)))
                        .color(theme::severity(crate::advisor::Severity::Critical)),
                );
                ui.end_row();
            }
            let r = row(ui, tr(lang, Msg::TrainLargestLayer), |ui| {
                ui.text_edit_singleline(&mut form.largest_text)
            });
            if r.changed() {
                plan.largest_layer_params = parse_count(&form.largest_text).ok();
            }
            row(ui, tr(lang, Msg::TrainPrecision), |ui| {
                combo(
                    ui,
                    "precision",
                    &mut plan.precision,
                    &[
                        (
                            Precision::Mixed16,
                            words::precision(lang, Precision::Mixed16),
                        ),
                        (Precision::Fp32, words::precision(lang, Precision::Fp32)),
                    ],
                )
            });
            let optimizers = [
                Optimizer::Adam,
                Optimizer::SgdMomentum,
                Optimizer::Adam8bit,
                Optimizer::Adafactor,
            ];
            let options: Vec<_> = optimizers
                .iter()
                .map(|o| (*o, words::optimizer(lang, *o)))
                .collect();
            row(ui, tr(lang, Msg::TrainOptimizer), |ui| {
                combo(ui, "optimizer", &mut plan.optimizer, &options)
            });

            ui.label(tr(lang, Msg::TrainFinetune));
            ui.horizontal(|ui| {
                for f in [FineTune::Full, FineTune::Lora, FineTune::Qlora] {
                    ui.radio_value(&mut plan.finetune, f, words::finetune(lang, f));
                }
            });
            ui.end_row();

            let strategies = [
                Strategy::Ddp,
                Strategy::Zero1,
                Strategy::Zero2,
                Strategy::Zero3,
                Strategy::FsdpFullShard,
            ];
            let options: Vec<_> = strategies
                .iter()
                .map(|s| (*s, words::strategy(lang, *s)))
                .collect();
            row(ui, tr(lang, Msg::TrainStrategy), |ui| {
                combo(ui, "strategy", &mut plan.strategy, &options)
            });
            let targets = [OffloadTarget::None, OffloadTarget::Cpu, OffloadTarget::Nvme];
            let options: Vec<_> = targets
                .iter()
                .map(|t| (*t, words::offload(lang, *t)))
                .collect();
            row(ui, tr(lang, Msg::TrainOffloadOptimizer), |ui| {
                combo(
                    ui,
                    "offload-optimizer",
                    &mut plan.offload_optimizer,
                    &options,
                )
            });
            row(ui, tr(lang, Msg::TrainOffloadParam), |ui| {
                combo(ui, "offload-param", &mut plan.offload_param, &options)
            });
            if plan.strategy == Strategy::Zero3 {
                ui.label("");
                // A checkbox's label is one line of plain text: the code span without its
                // backticks.
                let label = crate::codespan::plain(tr(lang, Msg::TrainZeroInit));
                ui.checkbox(&mut plan.zero_init, label);
                ui.end_row();
            }
            if plan.finetune != FineTune::Full {
                let mut pct = plan.lora_trainable_share * 100.0;
                let r = row(ui, tr(lang, Msg::TrainLoraShare), |ui| {
                    ui.add(
                        super::slider(&mut pct, 0.01..=100.0)
                            .logarithmic(true)
                            .suffix(" %"),
                    )
                });
                if r.changed() {
                    plan.lora_trainable_share = (pct / 100.0).clamp(1e-4, 1.0);
                }
            }
            loading_inputs(ui, lang, plan);
            row(ui, tr(lang, Msg::TrainGpusPerNode), |ui| {
                ui.add(super::number(&mut plan.gpus_per_node, 1..=64))
            });
            row(ui, tr(lang, Msg::TrainNodes), |ui| {
                ui.add(super::number(&mut plan.nodes, 1..=4096))
            });

            let mut with_activations = plan.activations.is_some();
            ui.label("");
            if ui
                .checkbox(&mut with_activations, tr(lang, Msg::TrainActivations))
                .changed()
            {
                plan.activations = with_activations.then_some(ActivationInput {
                    flash_attention: true,
                    seq_len: 4096,
                    micro_batch: 1,
                    checkpointing: true,
                    shape: None,
                });
            }
            ui.end_row();
            if let Some(act) = plan.activations.as_mut() {
                row(ui, tr(lang, Msg::TrainSeqLen), |ui| {
                    ui.add(super::number(&mut act.seq_len, 1..=1_048_576))
                });
                row(ui, tr(lang, Msg::TrainMicroBatch), |ui| {
                    ui.add(super::number(&mut act.micro_batch, 1..=4096))
                });
                ui.label("");
                ui.checkbox(&mut act.checkpointing, tr(lang, Msg::TrainCheckpointing));
                ui.end_row();
                let mut eager = !act.flash_attention;
                ui.label("");
                ui.checkbox(&mut eager, tr(lang, Msg::TrainEagerAttention));
                ui.end_row();
                act.flash_attention = !eager;
                if plan.preset.is_none() || act.shape.is_some() {
                    shape_inputs(ui, lang, act);
                }
            }
        });
    ui.add_space(8.0);
    egui::CollapsingHeader::new(tr(lang, Msg::TrainSeedNoteTitle))
        .id_salt("seed-65b")
        .show(ui, |ui| {
            ui.add(Paragraph::new(tr(lang, Msg::TrainSeedNote)));
        });
}

/// How the checkpoint is loaded ("the framework's default" until the user picks one) and its
/// element type on disk.
fn loading_inputs(ui: &mut Ui, lang: Lang, plan: &mut TrainingPlan) {
    use crate::advisor::training::{CheckpointDtype, LoadingMethod, loading::default_method};
    let default = trf(
        lang,
        Msg::TrainLoadingDefault,
        &[("method", words::loading_method(lang, default_method(plan)))],
    );
    let mut options: Vec<(Option<LoadingMethod>, String)> = vec![(None, default)];
    for m in [
        LoadingMethod::EveryRank,
        LoadingMethod::Rank0Broadcast,
        LoadingMethod::MetaDevice,
        LoadingMethod::LowCpuMemUsage,
        LoadingMethod::Mmap,
    ] {
        options.push((Some(m), words::loading_method(lang, m).to_string()));
    }
    let labels: Vec<(Option<LoadingMethod>, &str)> =
        options.iter().map(|(v, l)| (*v, l.as_str())).collect();
    row(ui, tr(lang, Msg::TrainLoading), |ui| {
        combo(ui, "loading", &mut plan.loading, &labels)
    });
    let dtypes = [
        (CheckpointDtype::Bf16, "bf16 / fp16"),
        (CheckpointDtype::Fp32, "fp32"),
        (CheckpointDtype::Int4, "4-bit"),
    ];
    row(ui, tr(lang, Msg::TrainCheckpointDtype), |ui| {
        combo(ui, "checkpoint-dtype", &mut plan.checkpoint_dtype, &dtypes)
    });
}

/// Layers, hidden size and heads of a model that isn't a preset, for the activation estimate.
fn shape_inputs(ui: &mut Ui, lang: Lang, act: &mut ActivationInput) {
    let shape = act
        .shape
        .get_or_insert(crate::advisor::training::TransformerShape {
            hidden: 4096,
            layers: 32,
            ..Default::default()
        });
    row(ui, tr(lang, Msg::TrainLayers), |ui| {
        ui.add(super::number(&mut shape.layers, 1..=1024))
    });
    row(ui, tr(lang, Msg::TrainHidden), |ui| {
        ui.add(super::number(&mut shape.hidden, 64..=65_536))
    });
    let mut heads = shape.heads.unwrap_or(0);
    row(ui, tr(lang, Msg::TrainHeads), |ui| {
        ui.add(super::number(&mut heads, 0..=1024))
    });
    shape.heads = (heads > 0).then_some(heads);
}

fn check_row(ui: &mut Ui, lang: Lang, label: Msg, c: &CapacityCheck) {
    let [name, needed, available, fits] = words::check_row(lang, label, c);
    ui.label(name);
    ui.label(RichText::new(needed).strong());
    ui.label(available);
    let colour = match c.fits {
        Some(true) => theme::tier(crate::advisor::Tier::LargeModel),
        Some(false) => theme::severity(crate::advisor::Severity::Critical),
        None => theme::severity(crate::advisor::Severity::Warning),
    };
    ui.label(RichText::new(fits).color(colour).strong());
    ui.end_row();
}

/// The loading and training phases with the peak, how the checkpoint is loaded, the runtime in
/// the CPU figures and, where it applies, DeepSpeed's own figure.
fn phases(ui: &mut Ui, lang: Lang, t: &TrainingMemory) {
    super::heading(ui, tr(lang, Msg::PhaseSection));
    let (header, rows) = words::phase_table(lang, t);
    egui::Grid::new("training-phases")
        .num_columns(3)
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for h in &header {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            let last = rows.len().saturating_sub(1);
            for (i, r) in rows.iter().enumerate() {
                for cell in r {
                    let text = RichText::new(cell);
                    ui.label(if i == last { text.strong() } else { text });
                }
                ui.end_row();
            }
        });
    ui.add(Paragraph::new(words::loading_line(lang, t)));
    ui.add(Paragraph::new(
        RichText::new(words::runtime_note(lang, t)).weak(),
    ));
    if let Some(d) = words::deepspeed_line(lang, t) {
        ui.add(Paragraph::new(RichText::new(d).weak()));
    }
}

fn outputs(ui: &mut Ui, lang: Lang, a: &Assessment) {
    if let Some(e) = a.training_error {
        let text = trf(
            lang,
            Msg::TrainInvalid,
            &[("error", &words::plan_error(lang, e))],
        );
        ui.label(
            RichText::new(text)
                .color(theme::severity(crate::advisor::Severity::Critical))
                .strong(),
        );
        return;
    }
    let Some(t) = &a.training_memory else { return };
    verdict(ui, lang, t);
    egui::Grid::new("training-checks")
        .num_columns(4)
        .striped(true)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
            ui.label("");
            ui.label(RichText::new(tr(lang, Msg::TrainNeeded)).strong());
            ui.label(RichText::new(tr(lang, Msg::TrainAvailable)).strong());
            ui.label("");
            ui.end_row();
            check_row(ui, lang, Msg::TrainNeedGpu, &t.gpu);
            check_row(ui, lang, Msg::TrainNeedCpu, &t.cpu);
            if let Some(n) = &t.nvme {
                check_row(ui, lang, Msg::TrainNeedNvme, n);
            }
        });
    // Next to the VRAM figure: what it includes of activations.
    ui.add(Paragraph::new(
        RichText::new(words::activations_line(lang, t)).italics(),
    ));
    if let Some(line) = words::ram_line(lang, t) {
        ui.label(line);
    }
    phases(ui, lang, t);
    super::heading(ui, tr(lang, Msg::TrainBreakdown));
    // What each row is can take a long name ("loading copies and buffers (DeepSpeed's ×1.5
    // buffer factor)"): it wraps within its column rather than pushing the table past the
    // window's edge.
    let name_width = (ui.available_width() * 0.34).max(120.0);
    egui::Grid::new("training-breakdown")
        .num_columns(4)
        .striped(true)
        .spacing([14.0, 4.0])
        .max_col_width(name_width)
        .show(ui, |ui| {
            let (header, rows) = words::breakdown_table(lang, t);
            for h in header {
                // Headers on one line ("Bytes/param" broken into three read as noise).
                ui.add(egui::Label::new(RichText::new(h).strong()).extend());
            }
            ui.end_row();
            for [state, place, bytes, per_param] in rows {
                ui.add(egui::Label::new(state).wrap());
                ui.label(place);
                ui.label(bytes);
                ui.label(per_param);
                ui.end_row();
            }
        });
    if let Some(traffic) = crate::present::document::plan_sections::nvme_traffic(lang, t) {
        ui.add(Paragraph::new(traffic));
    }
    super::recommendations::recommendations(
        ui,
        lang,
        &a.recommendations,
        Some(crate::advisor::recommend::Subject::Training),
    );
    ui.add_space(6.0);
    for w in &t.estimate.warnings {
        ui.add(Paragraph::new(
            RichText::new(format!("! {}", words::plan_warning(lang, *w))).italics(),
        ));
    }
    ui.add(Paragraph::new(
        RichText::new(words::source(lang, t.estimate.formula)).weak(),
    ));
    ui.add(Paragraph::new(
        RichText::new(tr(lang, Msg::TrainUnitsNote)).weak(),
    ));
}

fn verdict(ui: &mut Ui, lang: Lang, t: &TrainingMemory) {
    let msg = crate::present::training::verdict_msg(t);
    let colour = match t.fits {
        Some(true) => theme::tier(crate::advisor::Tier::LargeModel),
        Some(false) if t.tight() => theme::severity(crate::advisor::Severity::Warning),
        Some(false) => theme::severity(crate::advisor::Severity::Critical),
        None => theme::severity(crate::advisor::Severity::Warning),
    };
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, colour))
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(
                RichText::new(tr(lang, msg))
                    .size(20.0)
                    .strong()
                    .color(colour),
            );
            let (model, plan) = words::plan_summary(lang, t);
            ui.label(model);
            ui.add(Paragraph::new(RichText::new(plan).weak()));
        });
}
