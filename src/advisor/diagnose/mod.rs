//! Live diagnosis: what went wrong during a watched run, from its [`Trace`]. Pure: no clock, no
//! I/O; the same trace always gives the same diagnoses, whether it was sampled live, replayed
//! from a file or fetched from a metrics server.
//!
//! Each recogniser reads a window of samples and returns [`Diagnosis`] values: a stable id, a
//! severity, the evidence as numbers with units, the time range it covers and ranked
//! recommendation ids (the same [`AdviceId`](crate::advisor::AdviceId)s the machine's findings use). Prose lives in the
//! locale files (`diagnosis.<id>.*`). Every threshold is a named constant with its reasoning;
//! `docs/model.md` lists them. A value a sample doesn't know never counts for or against a
//! diagnosis.

mod coverage;
mod gpu;
mod io;
mod memory;
mod peaks;
mod series;
mod summary;
mod types;
mod underfed;

#[cfg(test)]
mod tests;

pub use coverage::{MissingData, Unchecked, missing, unchecked};
pub use peaks::Peaks;
pub use summary::Summary;
pub use types::{Diagnosis, DiagnosisId, Evidence, RUN_MERGE_GAP_S, SUSTAIN_S};

use crate::trace::Trace;

/// Diagnoses of a whole trace, and its peaks.
pub fn diagnose(trace: &Trace) -> Summary {
    let mut diagnoses = Vec::new();
    gpu::starved(trace, &mut diagnoses);
    // After the saw-tooth: only GPUs it did not report.
    underfed::underfed(trace, &mut diagnoses);
    memory::swap_thrashing(trace, &mut diagnoses);
    memory::page_cache_thrashing(trace, &mut diagnoses);
    io::io_bound(trace, &mut diagnoses);
    io::shm_exhausted(trace, &mut diagnoses);
    memory::oom_killed(trace, &mut diagnoses);
    memory::near_limit(trace, &mut diagnoses);
    gpu::pcie_saturated(trace, &mut diagnoses);
    gpu::power_unstable(trace, &mut diagnoses);
    diagnoses.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(a.from_s.total_cmp(&b.from_s))
    });
    Summary {
        samples: trace.samples.len(),
        duration_s: trace.duration_s(),
        interval_s: trace.header.interval_s,
        diagnoses,
        peaks: peaks::peaks(trace),
        unchecked: coverage::unchecked(trace),
    }
}

/// Diagnoses of the samples from `from_s` on: the recognisers on part of a trace (tests check
/// that a saw-tooth is still seen in its last stretch).
#[cfg(test)]
pub(crate) fn diagnose_since(trace: &Trace, from_s: f64) -> Summary {
    let window = Trace {
        header: trace.header.clone(),
        samples: trace
            .samples
            .iter()
            .filter(|s| s.t >= from_s)
            .cloned()
            .collect(),
    };
    diagnose(&window)
}
