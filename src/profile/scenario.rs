//! The scenario file: what the user wants to run on a machine. Versioned JSON; today it holds a
//! training plan for the training-memory planner (the workload simulator's data-loading fields
//! will join it). Written by hand or saved from the window; read by `advise` and `report`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::io::{ProfileError, parse_document};
use crate::advisor::training::TrainingPlan;

/// Format version of scenario files written by this build.
pub const SCENARIO_SCHEMA_VERSION: u32 = 1;

/// A scenario.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// [`SCENARIO_SCHEMA_VERSION`].
    #[serde(default = "version")]
    pub schema_version: u32,
    /// A training plan (see `docs/model.md` § Training memory); `null` for none.
    #[serde(default)]
    pub training: Option<TrainingPlan>,
    /// A data-loading workload (see `docs/model.md` § Workload simulator); `null` for none.
    #[serde(default)]
    pub workload: Option<crate::advisor::workload::Workload>,
}

fn version() -> u32 {
    SCENARIO_SCHEMA_VERSION
}

/// Reads a scenario file (`-` for standard input; a regular file of at most
/// [`crate::fsutil::MAX_INPUT_BYTES`]); returns it with the paths of fields that were ignored.
///
/// # Errors
/// [`ProfileError`] naming the file and, for bad content, the field.
pub fn load_scenario(path: &Path) -> Result<(Scenario, Vec<String>), ProfileError> {
    let text = crate::fsutil::read_input_string(path, crate::fsutil::MAX_INPUT_BYTES).map_err(
        |source| ProfileError::Read {
            path: path.to_path_buf(),
            source,
        },
    )?;
    parse_scenario(&text, path)
}

/// Parses and validates scenario JSON; `path` is used only in error messages.
///
/// # Errors
/// As [`load_scenario`], without the read error.
pub fn parse_scenario(text: &str, path: &Path) -> Result<(Scenario, Vec<String>), ProfileError> {
    let (scenario, ignored): (Scenario, Vec<String>) = parse_document(text, path)?;
    let invalid = |field: String, message: String| ProfileError::Invalid {
        path: path.to_path_buf(),
        field,
        message,
    };
    if scenario.schema_version == 0 {
        return Err(invalid(
            "schema_version".into(),
            "must be 1 or higher".into(),
        ));
    }
    // The only free text in a scenario: preset ids, capped like a profile's strings.
    let max = super::limits::MAX_STRING_BYTES;
    for (field, preset) in [
        (
            "training.preset",
            scenario.training.as_ref().and_then(|t| t.preset.as_ref()),
        ),
        (
            "workload.preset",
            scenario.workload.as_ref().and_then(|w| w.preset.as_ref()),
        ),
    ] {
        if preset.is_some_and(|p| p.len() > max) {
            return Err(invalid(field.into(), format!("is longer than {max} bytes")));
        }
    }
    if let Some(w) = &scenario.workload {
        w.validate()
            .map_err(|(field, message)| invalid(format!("workload.{field}"), message))?;
    }
    if let Some(t) = &scenario.training {
        if let Err(e) = crate::advisor::training::estimate(t) {
            let message = crate::present::training::plan_error_text(crate::i18n::Lang::En, e);
            return Err(invalid(
                format!("training.{}", e.scenario_field()),
                message.to_string(),
            ));
        }
    }
    Ok((scenario, ignored))
}

/// Writes a scenario atomically.
///
/// # Errors
/// [`ProfileError::Write`].
pub fn save_scenario(scenario: &Scenario, path: &Path) -> Result<(), ProfileError> {
    let text = serde_json::to_string_pretty(scenario).expect("scenario serialises") + "\n";
    crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|source| ProfileError::Write {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_training_plan_scenario_parses_with_defaults() {
        let text = r#"{"schema_version": 1, "training": {"params": 7000000000, "gpus_per_node": 1,
            "nodes": 1, "strategy": "zero2", "offload_optimizer": "cpu"}}"#;
        let (s, ignored) = parse_document::<Scenario>(text, Path::new("s.json")).unwrap();
        let t = s.training.unwrap();
        assert_eq!(t.params, 7_000_000_000);
        assert_eq!(
            t.offload_optimizer,
            crate::advisor::training::OffloadTarget::Cpu
        );
        assert!(ignored.is_empty());
    }

    #[test]
    fn a_bad_field_is_named() {
        let text = r#"{"training": {"params": "seven", "gpus_per_node": 1, "nodes": 1}}"#;
        let e = parse_document::<Scenario>(text, Path::new("s.json"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("s.json") && e.contains("training.params"), "{e}");
    }
}
