//! The scenario: what the user wants to run on a machine, besides the machine itself. One type
//! for every place that holds one: a scenario file (`inputs::scenario` reads and writes it), the
//! command line's flags, the window's included inputs, and the [`super::Assessment`] that
//! carries the scenario it was computed from (`scenario` in the assessment JSON, a valid
//! scenario file on its own). Types only: [`super::assess`] orchestrates.

use serde::{Deserialize, Serialize};

use super::{inference, training, workload};

/// Format version of scenarios written by this build (scenario files, and the `scenario` of an
/// assessment).
pub const SCENARIO_SCHEMA_VERSION: u32 = 1;

/// What is assessed besides the machine: a training plan, a data-loading workload and a model to
/// serve, each `None` when not asked about. Field names are the scenario file's, documented
/// with the assessment's `scenario` in `docs/profile.md` ("The assessment").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// [`SCENARIO_SCHEMA_VERSION`]; a file without it is read as version 1.
    #[serde(default = "version")]
    pub schema_version: u32,
    /// A training plan for the training-memory planner (`docs/model.md` § Training memory);
    /// `null` for none.
    #[serde(default)]
    pub training: Option<training::TrainingPlan>,
    /// A data-loading workload for the workload simulator (`docs/model.md` § Workload
    /// simulator); `null` for none.
    #[serde(default)]
    pub workload: Option<workload::Workload>,
    /// A model to serve (`docs/model.md` § Inference memory); `null` for none.
    #[serde(default)]
    pub inference: Option<inference::InferencePlan>,
}

fn version() -> u32 {
    SCENARIO_SCHEMA_VERSION
}

impl Scenario {
    /// No plan, no workload, no model: the machine assessed on its own.
    pub const NONE: Scenario = Scenario {
        schema_version: SCENARIO_SCHEMA_VERSION,
        training: None,
        workload: None,
        inference: None,
    };
}

impl Default for Scenario {
    /// [`Scenario::NONE`], at this build's schema version.
    fn default() -> Scenario {
        Scenario::NONE
    }
}
