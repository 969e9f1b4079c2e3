//! The scenario file: what the user wants to run on a machine, as versioned JSON — the one
//! [`Scenario`] type of the advisor (a training plan, a data-loading workload, a model to serve,
//! each of which may be `null`). Written by hand or saved from the window; read by `advise`,
//! `report` and the window. This file reads, checks and writes it; the type lives in
//! `advisor::scenario`.

use std::path::{Path, PathBuf};

use crate::advisor::training::PlanError;
use crate::profile::{Problem, ProfileError, parse_document};

pub use crate::advisor::scenario::{SCENARIO_SCHEMA_VERSION, Scenario};

/// Why a scenario file can't be used. Worded by `present::errors::scenario_error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// Reading, parsing, a value that can't be right, or writing (as for profiles).
    File(ProfileError),
    /// The training plan can't be estimated; `field` is its path in the file (`training.nodes`).
    Plan {
        /// The file.
        path: PathBuf,
        /// JSON path of the field.
        field: String,
        /// What is wrong.
        error: PlanError,
    },
}

impl From<ProfileError> for ScenarioError {
    fn from(e: ProfileError) -> ScenarioError {
        ScenarioError::File(e)
    }
}

/// Reads a scenario file (`-` for standard input; a regular file of at most
/// [`crate::fsutil::MAX_INPUT_BYTES`]); returns it with the paths of fields that were ignored.
///
/// # Errors
/// [`ScenarioError`] naming the file and, for bad content, the field.
pub fn load_scenario(path: &Path) -> Result<(Scenario, Vec<String>), ScenarioError> {
    let text = crate::fsutil::read_input_string(path, crate::fsutil::MAX_INPUT_BYTES)
        .map_err(|e| ProfileError::read(path, &e))?;
    parse_scenario(&text, path)
}

/// Parses and validates scenario JSON; `path` is used only in error messages.
///
/// # Errors
/// As [`load_scenario`], without the read error.
pub fn parse_scenario(text: &str, path: &Path) -> Result<(Scenario, Vec<String>), ScenarioError> {
    let (scenario, ignored): (Scenario, Vec<String>) = parse_document(text, path)?;
    let invalid = |field: String, problem: Problem| ProfileError::Invalid {
        path: path.to_path_buf(),
        field,
        problem: Box::new(problem),
    };
    if scenario.schema_version == 0 {
        return Err(invalid("schema_version".into(), Problem::SchemaVersion).into());
    }
    // The only free text in a scenario: preset ids, capped like a profile's strings.
    let max = crate::profile::limits::MAX_STRING_BYTES;
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
            return Err(invalid(field.into(), Problem::TooLong { max }).into());
        }
    }
    if let Some(w) = &scenario.workload {
        w.validate()
            .map_err(|(field, problem)| invalid(format!("workload.{field}"), problem))?;
    }
    if let Some(t) = &scenario.training {
        if let Err(error) = crate::advisor::training::estimate(t) {
            return Err(ScenarioError::Plan {
                path: path.to_path_buf(),
                field: format!("training.{}", error.scenario_field()),
                error,
            });
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
    crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| ProfileError::write(path, &e))
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
        let e = parse_document::<Scenario>(text, Path::new("s.json")).unwrap_err();
        assert!(
            matches!(&e, ProfileError::Parse { path, field, .. }
                if path == Path::new("s.json") && field == "training.params"),
            "{e:?}"
        );
    }
}
