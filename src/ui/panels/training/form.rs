//! The planner's inputs: the form being typed in (kept between frames) and its grid of
//! fields: model, precision, optimizer, strategy, offload, loading, saving and resuming
//! (`lifecycle_inputs`), GPUs and activations.

use egui::{RichText, Ui};

use crate::advisor::training::{
    ActivationInput, FineTune, OffloadTarget, Optimizer, Precision, Strategy, TrainingPlan, presets,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr};
use crate::parse::parse_count;
use crate::present::training as words;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

use super::grid::{combo, default_first, row};

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

pub(super) fn inputs(ui: &mut Ui, lang: Lang, form: &mut TrainingForm) {
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
                        (Precision::Bf16, words::precision(lang, Precision::Bf16)),
                    ],
                )
            });
            let optimizers = [
                Optimizer::Adam,
                Optimizer::SgdMomentum,
                Optimizer::Adam8bit,
                Optimizer::PagedAdam8bit,
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
            if matches!(plan.strategy, Strategy::FsdpFullShard | Strategy::Ddp) {
                ui.label("");
                let label = crate::codespan::plain(tr(lang, Msg::TrainOptimizerInBackward));
                ui.checkbox(&mut plan.optimizer_in_backward, label);
                ui.end_row();
            }
            if plan.finetune != FineTune::Full {
                let mut pct = plan.lora_trainable_share * 100.0;
                let r = row(ui, tr(lang, Msg::TrainLoraShare), |ui| {
                    ui.add(
                        crate::ui::panels::slider(&mut pct, 0.01..=100.0)
                            .logarithmic(true)
                            .suffix(" %"),
                    )
                });
                if r.changed() {
                    plan.lora_trainable_share = (pct / 100.0).clamp(1e-4, 1.0);
                }
            }
            loading_inputs(ui, lang, plan);
            super::lifecycle_inputs::lifecycle_inputs(ui, lang, plan);
            row(ui, tr(lang, Msg::TrainGpusPerNode), |ui| {
                ui.add(crate::ui::panels::number(&mut plan.gpus_per_node, 1..=64))
            });
            row(ui, tr(lang, Msg::TrainNodes), |ui| {
                ui.add(crate::ui::panels::number(&mut plan.nodes, 1..=4096))
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
                    ui.add(crate::ui::panels::number(&mut act.seq_len, 1..=1_048_576))
                });
                row(ui, tr(lang, Msg::TrainMicroBatch), |ui| {
                    ui.add(crate::ui::panels::number(&mut act.micro_batch, 1..=4096))
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
    let default = default_method(plan);
    default_first(
        ui,
        lang,
        tr(lang, Msg::TrainLoading),
        "loading",
        &mut plan.loading,
        default,
        &[
            LoadingMethod::EveryRank,
            LoadingMethod::Rank0Broadcast,
            LoadingMethod::MetaDevice,
            LoadingMethod::LowCpuMemUsage,
            LoadingMethod::Mmap,
        ],
        words::loading_method,
    );
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
        ui.add(crate::ui::panels::number(&mut shape.layers, 1..=1024))
    });
    row(ui, tr(lang, Msg::TrainHidden), |ui| {
        ui.add(crate::ui::panels::number(&mut shape.hidden, 64..=65_536))
    });
    let mut heads = shape.heads.unwrap_or(0);
    row(ui, tr(lang, Msg::TrainHeads), |ui| {
        ui.add(crate::ui::panels::number(&mut heads, 0..=1024))
    });
    shape.heads = (heads > 0).then_some(heads);
}
