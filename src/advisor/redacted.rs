//! Assessments for redacted reports: the profile goes through the scrubber before the one
//! assessment, so that no copy of a profile string the assessment holds (a host name, a measured
//! folder, a memory type) reaches a report. The command line, the window and the tests redact
//! this one way; the report's renderers only lay out what they are given.

use super::{Assessment, Scenario, assess};
use crate::profile::MachineProfile;
use crate::profile::redact::Scrubber;

/// The assessment of `profile` redacted by a scrubber that learned `profile` alone, under
/// `scenario`: what a redacted machine report shows.
pub fn redacted_assessment(profile: &MachineProfile, scenario: &Scenario) -> Assessment {
    redacted_assessment_with(profile, scenario, &Scrubber::for_profile(profile))
}

/// The assessment of `profile` redacted by `scrubber` (one that learned a whole fleet, whose
/// host names can appear in each other's mounts), under `scenario`.
pub fn redacted_assessment_with(
    profile: &MachineProfile,
    scenario: &Scenario,
    scrubber: &Scrubber,
) -> Assessment {
    assess(&profile.redacted_with(scrubber), scenario)
}

/// `a` as a redacted report shows it: its profile redacted and assessed again under its
/// scenario ([`redacted_assessment`]), for a caller that holds an assessment already (the
/// window's export).
pub fn redacted(a: &Assessment) -> Assessment {
    redacted_assessment(&a.profile, &a.scenario)
}
