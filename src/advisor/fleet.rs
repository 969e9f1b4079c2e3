//! A lab's machines side by side: one assessment per machine, duplicate host names marked. The
//! types are [`super::fleet_machine`]'s (re-exported here); this file assesses.

use super::assess;
pub use super::fleet_machine::{FleetInput, FleetMachine, Origin};

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
