//! The words for how a training plan saves and resumes its checkpoint (`--save-state-dict`,
//! `--resume-load`), once for every view: the window's choices and the notes beside the phases.

use crate::advisor::training::{ResumeLoad, SaveStateDict};
use crate::i18n::{Lang, Msg, tr};

/// "a full state dict gathered in rank 0's CPU RAM", "a sharded checkpoint, …".
pub fn save_state_dict(lang: Lang, s: SaveStateDict) -> &'static str {
    tr(
        lang,
        match s {
            SaveStateDict::Full => Msg::LifecycleSaveFull,
            SaveStateDict::FullEveryRank => Msg::LifecycleSaveFullEveryRank,
            SaveStateDict::Sharded => Msg::LifecycleSaveSharded,
        },
    )
}

/// "every rank loads the whole checkpoint", "each rank reads its own part", ….
pub fn resume_load(lang: Lang, r: ResumeLoad) -> &'static str {
    tr(
        lang,
        match r {
            ResumeLoad::EveryRank => Msg::LifecycleResumeEveryRank,
            ResumeLoad::Rank0 => Msg::LifecycleResumeRank0,
            ResumeLoad::PerRank => Msg::LifecycleResumePerRank,
        },
    )
}
