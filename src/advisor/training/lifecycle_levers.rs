//! The settings that lower a plan's save or resume peak: a sharded save, gathering on rank 0
//! only, and resuming with each rank reading its own part. The advice module judges each one.

use super::checkpointing::{ResumeLoad, SaveStateDict};
use super::lifecycle::{default_resume, default_save};
use super::memory::Judged;
use super::plan::{Strategy, TrainingPlan};
use crate::advisor::recommend::AdviceId;

/// The save and resume changes worth trying for `plan` judged as `j`: each the changed plan and
/// its id. Only when the plan's CPU RAM doesn't fit and saving or resuming is what sets the
/// peak (the framework's default save and resume when the plan names neither). In order: gathering on rank 0
/// only (the same file), a sharded save, reading per rank.
pub(super) fn candidates(plan: &TrainingPlan, j: &Judged) -> Vec<(AdviceId, TrainingPlan)> {
    use super::breakdown::PhaseId;
    let one_off = matches!(
        j.estimate.cpu_peak_phase,
        Some(PhaseId::CheckpointSave | PhaseId::Resume)
    );
    if j.cpu.fits != Some(false) || !one_off || plan.strategy == Strategy::Ddp {
        return Vec::new();
    }
    let save = plan.save_state_dict.unwrap_or_else(|| default_save(plan));
    let resume = plan
        .resume_load
        .unwrap_or_else(|| default_resume(plan, save));
    let mut out = Vec::new();
    let with = |f: &dyn Fn(&mut TrainingPlan)| {
        let mut p = plan.clone();
        f(&mut p);
        p
    };
    if save == SaveStateDict::FullEveryRank {
        out.push((
            AdviceId::SaveOnRank0Only,
            with(&|p| p.save_state_dict = Some(SaveStateDict::Full)),
        ));
    }
    if save != SaveStateDict::Sharded {
        // A sharded save is read back per rank unless the plan says otherwise.
        out.push((
            AdviceId::SaveSharded,
            with(&|p| p.save_state_dict = Some(SaveStateDict::Sharded)),
        ));
    }
    if resume != ResumeLoad::PerRank {
        out.push((
            AdviceId::ResumePerRank,
            with(&|p| p.resume_load = Some(ResumeLoad::PerRank)),
        ));
    }
    out
}
