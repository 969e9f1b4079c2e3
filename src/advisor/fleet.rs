//! A lab's machines side by side: one assessment per machine, duplicate host names marked.

use serde::{Deserialize, Serialize};

use super::{Assessment, Finding, assess};
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

/// Assesses every machine and marks host names that appear more than once.
pub fn assess_fleet(inputs: Vec<FleetInput>) -> Vec<FleetMachine> {
    let mut machines: Vec<FleetMachine> = inputs
        .into_iter()
        .map(|(label, origin, profile, plan_issues)| FleetMachine {
            label,
            origin,
            duplicate_hostname: false,
            plan_issues,
            assessment: assess(&profile),
        })
        .collect();
    let names: Vec<Option<String>> = machines
        .iter()
        .map(|m| m.assessment.profile.host.hostname.clone())
        .collect();
    for (i, m) in machines.iter_mut().enumerate() {
        if let Some(n) = &names[i] {
            m.duplicate_hostname = names.iter().filter(|x| x.as_ref() == Some(n)).count() > 1;
        }
    }
    machines
}
