//! A phase's name in one language (loading, training, serving, the evaluation pause, a
//! checkpoint save, a resume): what every section and line that names a phase says.

use crate::i18n::{Lang, Msg, tr};

/// A phase's name.
pub fn phase_name(lang: Lang, p: crate::advisor::training::PhaseId) -> &'static str {
    use crate::advisor::training::PhaseId;
    tr(
        lang,
        match p {
            PhaseId::Loading => Msg::PhaseLoading,
            PhaseId::Training => Msg::PhaseTraining,
            PhaseId::Serving => Msg::PhaseServing,
            PhaseId::EvaluationPause => Msg::PhaseEvaluationPause,
            PhaseId::CheckpointSave => Msg::PhaseCheckpointSave,
            PhaseId::Resume => Msg::PhaseResume,
        },
    )
}
