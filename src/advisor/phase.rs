//! The phases of a run (loading, steps or serving, the evaluation pause, a checkpoint save, a
//! resume), each checked at its own peak: the one name every plan, recommendation and view
//! uses for them. Types only.

use serde::{Deserialize, Serialize};

/// The phases of a run, each checked at its own peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseId {
    /// The checkpoint travels from disk to the GPUs.
    Loading,
    /// Steps run.
    Training,
    /// Requests are served (inference).
    Serving,
    /// The training loop pauses (evaluation, a checkpoint) while the DataLoaders' queues fill:
    /// `prefetch_factor × num_workers` batches of every loader, pinned or in /dev/shm.
    EvaluationPause,
    /// The training state is written (`--save-state-dict`).
    CheckpointSave,
    /// A saved training state is read back (`--resume-load`, `--resume-world-size`).
    Resume,
}

impl PhaseId {
    /// The phase's JSON name (`checkpoint-save`).
    pub fn as_str(self) -> &'static str {
        match self {
            PhaseId::Loading => "loading",
            PhaseId::Training => "training",
            PhaseId::Serving => "serving",
            PhaseId::EvaluationPause => "evaluation-pause",
            PhaseId::CheckpointSave => "checkpoint-save",
            PhaseId::Resume => "resume",
        }
    }

    /// The phase whose JSON name is `s`.
    pub fn from_id(s: &str) -> Option<PhaseId> {
        [
            PhaseId::Loading,
            PhaseId::Training,
            PhaseId::Serving,
            PhaseId::EvaluationPause,
            PhaseId::CheckpointSave,
            PhaseId::Resume,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }
}
