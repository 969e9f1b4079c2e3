//! The inputs the window keeps between sessions: the Training and Data loading pages' inputs
//! and whether each is included in the assessment and the report (an explicit choice, saved
//! like the inputs). Restored inputs say so on their page until they are changed.

use crate::advisor::training::TrainingPlan;
use crate::advisor::workload::Workload;
use crate::ui::settings::Settings;

/// The inputs as saved in the settings file (or as shown at start).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Remembered {
    /// The Data loading page's workload.
    pub workload: Workload,
    /// The Training page's plan.
    pub training: TrainingPlan,
    /// The plan is included.
    pub include_training: bool,
    /// The workload is included.
    pub include_workload: bool,
}

impl Remembered {
    /// The inputs `settings` hold, each replaced by its default when missing or no longer
    /// valid (a workload that fails validation, a plan that doesn't estimate); an input that
    /// was replaced is not included. The flags say which inputs came from the file.
    pub fn from_settings(s: &Settings) -> (Remembered, Restored) {
        let workload = s.workload.clone().filter(|w| w.validate().is_ok());
        let training = s
            .training
            .clone()
            .filter(|t| crate::advisor::training::estimate(t).is_ok());
        let restored = Restored {
            workload: workload.is_some(),
            training: training.is_some(),
        };
        let r = Remembered {
            include_training: s.include_training && restored.training,
            include_workload: s.include_workload && restored.workload,
            workload: workload.unwrap_or_else(|| {
                crate::advisor::workload::presets::preset("seed-4k-medical").expect("preset exists")
            }),
            training: training.unwrap_or_else(crate::advisor::defaults::first_plan),
        };
        (r, restored)
    }
}

/// Which inputs came from the settings file, so their pages can say they were restored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Restored {
    /// The workload was restored.
    pub workload: bool,
    /// The training plan was restored.
    pub training: bool,
}
