//! A lab's machines side by side: one assessment per machine, duplicate host names marked. The
//! types are [`super::fleet_machine`]'s (re-exported here); this file assesses.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

pub use super::fleet_machine::{FleetInput, FleetMachine, Origin};
use super::{Assessment, assess};
use crate::profile::MachineProfile;

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
