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

/// Assesses one machine of a fleet; `duplicate_hostname` says whether another machine of the
/// fleet has its host name (see [`duplicate_names`]).
pub fn assess_machine(input: FleetInput, duplicate_hostname: bool) -> FleetMachine {
    let (label, origin, profile, plan_issues) = input;
    FleetMachine {
        label,
        origin,
        duplicate_hostname,
        plan_issues,
        assessment: assess(&profile, &crate::advisor::Scenario::NONE),
    }
}

/// The host names that appear more than once among `names`. Linear: one pass counting names
/// in a hash map.
pub fn duplicate_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> std::collections::HashSet<String> {
    let mut counts: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    for n in names {
        *counts.entry(n).or_default() += 1;
    }
    counts
        .into_iter()
        .filter(|(_, c)| *c > 1)
        .map(|(n, _)| n.to_string())
        .collect()
}

/// Assesses one machine, marked when its host name is among `duplicates`
/// ([`duplicate_names`] of the whole fleet).
pub fn assess_marked(
    input: FleetInput,
    duplicates: &std::collections::HashSet<String>,
) -> FleetMachine {
    let dup = input
        .2
        .host
        .hostname
        .as_deref()
        .is_some_and(|n| duplicates.contains(n));
    assess_machine(input, dup)
}

/// Assesses every machine and marks host names that appear more than once. Linear in the
/// number of machines besides the assessments themselves.
pub fn assess_fleet(inputs: Vec<FleetInput>) -> Vec<FleetMachine> {
    let duplicates = duplicate_names(inputs.iter().filter_map(|i| i.2.host.hostname.as_deref()));
    inputs
        .into_iter()
        .map(|input| assess_marked(input, &duplicates))
        .collect()
}
