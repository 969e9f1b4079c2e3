//! The training form's save and resume inputs: how the checkpoint is saved
//! (`--save-state-dict`), how a saved state is read back (`--resume-load`) and how many ranks
//! wrote it (`--resume-world-size`). Each reads "the framework's default" until the user picks
//! one; labels come from the knob table. A change edits the plan, so the page sends `SetPlan`
//! and the window reassesses, as for every other control.

use egui::Ui;

use super::grid::{default_first, row};
use crate::advisor::knobs::KnobId as K;
use crate::advisor::training::{
    ResumeLoad, SaveStateDict, TrainingPlan, default_resume, default_save,
};
use crate::i18n::{Lang, Msg, trf};
use crate::present::lifecycle_words as words;
use crate::ui::panels::workload_inputs::label;

/// The three rows: save, resume and the ranks that wrote the checkpoint (0: this plan's own).
pub(super) fn lifecycle_inputs(ui: &mut Ui, lang: Lang, plan: &mut TrainingPlan) {
    let save_default = default_save(plan);
    default_first(
        ui,
        lang,
        label(lang, K::SaveStateDict, 0),
        "save-state-dict",
        &mut plan.save_state_dict,
        save_default,
        &[
            SaveStateDict::Full,
            SaveStateDict::FullEveryRank,
            SaveStateDict::Sharded,
        ],
        words::save_state_dict,
    );
    let save = plan.save_state_dict.unwrap_or(save_default);
    let resume_default = default_resume(plan, save);
    default_first(
        ui,
        lang,
        label(lang, K::ResumeLoad, 0),
        "resume-load",
        &mut plan.resume_load,
        resume_default,
        &[
            ResumeLoad::EveryRank,
            ResumeLoad::Rank0,
            ResumeLoad::PerRank,
        ],
        words::resume_load,
    );

    // 0 stands for "this plan's own" (`None`), said in the field itself.
    let own = u64::from(plan.gpus_per_node) * u64::from(plan.nodes);
    let own_text = trf(
        lang,
        Msg::TrainResumeWorldSizeOwn,
        &[("ranks", &own.to_string())],
    );
    let mut ranks = plan.resume_world_size.unwrap_or(0);
    row(ui, label(lang, K::ResumeWorldSize, 0), |ui| {
        ui.add(
            crate::ui::panels::number(&mut ranks, 0..=1_000_000).custom_formatter(move |n, _| {
                if n < 1.0 {
                    own_text.clone()
                } else {
                    format!("{n:.0}")
                }
            }),
        )
    });
    plan.resume_world_size = (ranks > 0).then_some(ranks);
}
