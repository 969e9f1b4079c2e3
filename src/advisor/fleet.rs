//! A lab's machines side by side: one assessment per machine, duplicate host names marked, and
//! for a redacted report each profile and label redacted before it is assessed. The types are
//! [`super::fleet_machine`]'s (re-exported here); this file assesses.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

pub use super::fleet_machine::{FleetInput, FleetInputs, FleetMachine, Origin};
use super::redacted::redacted_assessment_with;
use super::{Assessment, assess};
use crate::profile::MachineProfile;
use crate::profile::redact::Scrubber;

/// How many machine shapes (profiles apart from the host name) a [`FleetAssessor`] keeps.
const SHAPES_KEPT: usize = 64;

/// Assesses a fleet's machines one at a time, reusing the assessment of an earlier machine
/// whose profile is the same apart from the host name, which the advisor never reads: a
/// 100,000-node Slurm inventory has a few dozen shapes, so it is assessed a few dozen times,
/// not 100,000 (docs/benchmarks.md). Every answer is the one [`assess`] gives for the machine
/// (tests/fleet.rs compares them). Keeps at most [`SHAPES_KEPT`] shapes; a machine of another
/// shape is assessed on its own.
#[derive(Default)]
pub struct FleetAssessor {
    /// A cheap hash of each shape ([`shape_hash`]) and its assessment, whose profile has no
    /// host name.
    shapes: Vec<(u64, Assessment)>,
}

impl FleetAssessor {
    /// An assessor that has seen no machine.
    pub fn new() -> FleetAssessor {
        FleetAssessor::default()
    }

    /// Assesses one machine of a fleet; `duplicate_hostname` says whether another machine of the
    /// fleet has its host name (see [`duplicate_names`]).
    pub fn machine(&mut self, input: FleetInput, duplicate_hostname: bool) -> FleetMachine {
        self.machine_with(input, duplicate_hostname, FleetMachine::clone)
    }

    /// [`FleetAssessor::machine`], marked when its host name is among `duplicates`
    /// ([`duplicate_names`] of the whole fleet).
    pub fn marked(&mut self, input: FleetInput, duplicates: &HashSet<String>) -> FleetMachine {
        let dup = is_duplicate(&input, duplicates);
        self.machine(input, dup)
    }

    /// What `f` makes of the machine [`FleetAssessor::marked`] would give, without copying an
    /// assessment that is shared with earlier machines (a table row of a 100,000-node fleet).
    pub fn marked_with<R>(
        &mut self,
        input: FleetInput,
        duplicates: &HashSet<String>,
        f: impl FnOnce(&FleetMachine) -> R,
    ) -> R {
        let dup = is_duplicate(&input, duplicates);
        self.machine_with(input, dup, f)
    }

    /// [`FleetAssessor::marked`] for a redacted report: the machine number `i` of the fleet
    /// (from 0, in the order read) is marked by its own host name, then its profile is redacted
    /// by `scrubber` (one that learned every machine's profile) before it is assessed, and its
    /// label is redacted ([`redact_label`]).
    pub fn marked_redacted(
        &mut self,
        input: FleetInput,
        i: usize,
        duplicates: &HashSet<String>,
        scrubber: &Scrubber,
    ) -> FleetMachine {
        let dup = is_duplicate(&input, duplicates);
        let (mut label, mut origin, profile, plan_issues) = input;
        redact_label(&mut label, &mut origin, i, scrubber);
        let redacted = (label, origin, profile.redacted_with(scrubber), plan_issues);
        self.machine(redacted, dup)
    }

    fn machine_with<R>(
        &mut self,
        input: FleetInput,
        duplicate_hostname: bool,
        f: impl FnOnce(&FleetMachine) -> R,
    ) -> R {
        let (label, origin, mut profile, plan_issues) = input;
        let hostname = profile.host.hostname.take();
        let hash = shape_hash(&profile);
        let seen = self
            .shapes
            .iter()
            .position(|(h, a)| *h == hash && a.profile == profile);
        let (shape, assessment) = match seen {
            Some(i) => {
                let (_, mut a) = self.shapes.swap_remove(i);
                let shape = std::mem::replace(&mut a.profile, profile);
                (Some(shape), a)
            }
            None => {
                let a = assess(&profile, &crate::advisor::Scenario::NONE);
                if self.shapes.len() < SHAPES_KEPT {
                    self.shapes.push((hash, a.clone()));
                }
                (None, a)
            }
        };
        let mut m = FleetMachine {
            label,
            origin,
            duplicate_hostname,
            plan_issues,
            assessment,
        };
        m.assessment.profile.host.hostname = hostname;
        let out = f(&m);
        if let Some(shape) = shape {
            let mut a = m.assessment;
            a.profile = shape;
            self.shapes.push((hash, a));
        }
        out
    }
}

/// Whether `input`'s host name is among `duplicates`.
fn is_duplicate(input: &FleetInput, duplicates: &HashSet<String>) -> bool {
    input
        .2
        .host
        .hostname
        .as_deref()
        .is_some_and(|n| duplicates.contains(n))
}

/// A hash of the figures that set fleet machines apart (RAM, CPUs, GPUs), to skip most full
/// comparisons of profiles.
fn shape_hash(p: &MachineProfile) -> u64 {
    let mut h = DefaultHasher::new();
    p.memory.total_bytes.hash(&mut h);
    p.memory.limit_bytes.hash(&mut h);
    p.cpu.logical_cpus.hash(&mut h);
    p.gpus.len().hash(&mut h);
    for g in &p.gpus {
        g.name.hash(&mut h);
        g.vram_total_bytes.hash(&mut h);
    }
    h.finish()
}

/// Assesses one machine of a fleet on its own; `duplicate_hostname` says whether another
/// machine of the fleet has its host name (see [`duplicate_names`]).
pub fn assess_machine(input: FleetInput, duplicate_hostname: bool) -> FleetMachine {
    FleetAssessor::new().machine(input, duplicate_hostname)
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

/// Assesses every machine and marks host names that appear more than once. Linear in the
/// number of machines besides the assessments themselves, which are shared between machines
/// of one shape ([`FleetAssessor`]).
pub fn assess_fleet(inputs: Vec<FleetInput>) -> Vec<FleetMachine> {
    let duplicates = duplicate_names(inputs.iter().filter_map(|i| i.2.host.hostname.as_deref()));
    let mut assessor = FleetAssessor::new();
    inputs
        .into_iter()
        .map(|input| assessor.marked(input, &duplicates))
        .collect()
}

/// A scrubber that learned every machine's profile of a fleet: one host's name can appear in
/// another's mounts (an NFS server).
fn fleet_scrubber<'a>(profiles: impl IntoIterator<Item = &'a MachineProfile>) -> Scrubber {
    let mut scrubber = Scrubber::new();
    for p in profiles {
        scrubber.learn(p);
    }
    scrubber
}

/// Assessed machines as a redacted fleet report shows them: each profile redacted by a
/// scrubber that learned every one ([`fleet_scrubber`]) and assessed again under its scenario,
/// each label redacted by the machine's number ([`redact_label`]). For a caller that holds
/// assessed machines already (the tests); the command line redacts before it assesses
/// ([`AssessedFleet`]).
pub fn redacted_fleet(machines: &[FleetMachine]) -> Vec<FleetMachine> {
    let scrubber = fleet_scrubber(machines.iter().map(|m| &m.assessment.profile));
    machines
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let a = &m.assessment;
            let mut m = FleetMachine {
                assessment: redacted_assessment_with(&a.profile, &a.scenario, &scrubber),
                ..m.clone()
            };
            redact_label(&mut m.label, &mut m.origin, i, &scrubber);
            m
        })
        .collect()
}

/// The label and origin of the fleet's machine number `i` (from 0, in the order read) in a
/// redacted report: a planned machine's label is scrubbed; any other (a host or file name)
/// becomes `#i+1`, from [`Origin::Redacted`].
pub fn redact_label(label: &mut String, origin: &mut Origin, i: usize, scrubber: &Scrubber) {
    if *origin == Origin::Planned {
        scrubber.scrub_in_place(label);
    } else {
        *label = format!("#{}", i + 1);
        *origin = Origin::Redacted;
    }
}

/// A fleet's machines as a report takes them: assessed one at a time (shapes shared,
/// [`FleetAssessor`]), duplicate host names marked, and for a redacted report redacted before
/// they are assessed. Memory does not grow with the fleet: nothing is kept but the scrubber and
/// the assessor's few shapes.
pub struct AssessedFleet<'a> {
    inputs: &'a mut dyn FleetInputs,
    duplicates: &'a HashSet<String>,
    /// Learned from every machine's profile, for a redacted report.
    scrubber: Option<Scrubber>,
    assessor: FleetAssessor,
}

impl<'a> AssessedFleet<'a> {
    /// The machines of `inputs`, `duplicates` being the host names met more than once
    /// ([`duplicate_names`]); with `redact`, every profile is read once now to learn the names
    /// to remove.
    pub fn new(
        inputs: &'a mut dyn FleetInputs,
        duplicates: &'a HashSet<String>,
        redact: bool,
    ) -> AssessedFleet<'a> {
        let scrubber = redact.then(|| {
            let mut scrubber = Scrubber::new();
            for i in 0..inputs.count() {
                scrubber.learn(&inputs.input(i).2);
            }
            scrubber
        });
        AssessedFleet {
            inputs,
            duplicates,
            scrubber,
            assessor: FleetAssessor::new(),
        }
    }

    /// How many machines there are.
    pub fn count(&self) -> usize {
        self.inputs.count()
    }

    /// Machine `i`'s label and origin as the report shows them (redacted for a redacted
    /// report), without assessing it.
    pub fn label(&mut self, i: usize) -> (String, Origin) {
        let (mut label, mut origin, ..) = self.inputs.input(i);
        if let Some(s) = &self.scrubber {
            redact_label(&mut label, &mut origin, i, s);
        }
        (label, origin)
    }

    /// Machine `i` (from 0, in the order read) assessed, and redacted for a redacted report.
    pub fn machine(&mut self, i: usize) -> FleetMachine {
        let input = self.inputs.input(i);
        match &self.scrubber {
            Some(s) => self.assessor.marked_redacted(input, i, self.duplicates, s),
            None => self.assessor.marked(input, self.duplicates),
        }
    }
}
