//! A machine of a lab's fleet, as the fleet views and the buying advice read it: where it came
//! from, its label and its assessment. Types only: [`super::fleet`] assesses.

use serde::{Deserialize, Serialize};

use super::{Assessment, Finding};
use crate::catalog::planner::PlanIssue;
use crate::profile::MachineProfile;

/// Where a machine in the fleet comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "detail")]
pub enum Origin {
    /// A profile file.
    File(String),
    /// A Slurm inventory file.
    Slurm(String),
    /// A Prometheus server's exporters (its base URL, which carries no credentials).
    Prometheus(String),
    /// Planned from the catalogue.
    Planned,
    /// Detected here.
    Detected,
    /// Removed by redaction.
    Redacted,
}

/// One machine of the fleet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FleetMachine {
    /// Display name: the host name, else the file name.
    pub label: String,
    /// Where it comes from.
    pub origin: Origin,
    /// Another machine in the fleet has the same host name.
    pub duplicate_hostname: bool,
    /// What can't be right about a planned configuration.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plan_issues: Vec<PlanIssue>,
    /// The assessment.
    pub assessment: Assessment,
}

impl FleetMachine {
    /// The most severe finding, if any.
    pub fn worst_finding(&self) -> Option<&Finding> {
        self.assessment.findings.first()
    }
}

/// One machine to assess: its label, origin, profile and (for planned ones) issues.
pub type FleetInput = (String, Origin, MachineProfile, Vec<PlanIssue>);

/// The machines of a fleet, built one at a time and in any order (a report lists them by name
/// and may read each more than once), so a 100,000-node inventory is never held whole.
pub trait FleetInputs {
    /// How many machines there are.
    fn count(&self) -> usize;
    /// Machine `i` (from 0, in the order read; `i` < [`FleetInputs::count`]), built now.
    fn input(&mut self, i: usize) -> FleetInput;
}
