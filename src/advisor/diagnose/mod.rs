//! Live diagnosis: what went wrong during a watched run, from its [`Trace`]. Pure: no clock, no
//! I/O; the same trace always gives the same diagnoses, whether it was sampled live, replayed
//! from a file or fetched from a metrics server.
//!
//! Each recogniser reads a window of samples and returns [`Diagnosis`] values: a stable id, a
//! severity, the evidence as numbers with units, the time range it covers and ranked
//! recommendation ids (the same [`AdviceId`]s the machine's findings use). Prose lives in the
//! locale files (`diagnosis.<id>.*`). Every threshold is a named constant with its reasoning;
//! `docs/model.md` lists them. A value a sample doesn't know never counts for or against a
//! diagnosis.

mod coverage;
mod gpu;
mod io;
mod memory;
mod peaks;
mod series;
mod underfed;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use coverage::{MissingData, Unchecked, missing, unchecked};
pub use peaks::Peaks;

use super::{AdviceId, Severity};
use crate::trace::Trace;

/// Stable diagnosis ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagnosisId {
    /// A GPU's utilisation saw-tooths between idle and busy while the data loader is CPU-bound
    /// or waits for storage.
    GpuStarved,
    /// Pages go out to swap and come back: the working set doesn't fit in RAM.
    SwapThrashing,
    /// The disks keep reading more than the page cache holds: every epoch reads the dataset
    /// again.
    PageCacheThrashing,
    /// The CPUs wait for storage.
    IoBound,
    /// `/dev/shm` is (nearly) full: DataLoader workers die with "Bus error".
    ShmExhausted,
    /// The kernel's OOM killer killed a process.
    OomKilled,
    /// Available memory, or the cgroup's limit, is nearly used up.
    RamNearLimit,
    /// A GPU's PCIe link runs near its rate.
    PcieSaturated,
    /// A GPU's power draw jumps up and down.
    PowerUnstable,
}

impl DiagnosisId {
    /// Every id, in the order the documentation lists them.
    pub const ALL: [DiagnosisId; 9] = [
        DiagnosisId::GpuStarved,
        DiagnosisId::SwapThrashing,
        DiagnosisId::PageCacheThrashing,
        DiagnosisId::IoBound,
        DiagnosisId::ShmExhausted,
        DiagnosisId::OomKilled,
        DiagnosisId::RamNearLimit,
        DiagnosisId::PcieSaturated,
        DiagnosisId::PowerUnstable,
    ];

    /// The id as written in JSON (`gpu-starved`).
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosisId::GpuStarved => "gpu-starved",
            DiagnosisId::SwapThrashing => "swap-thrashing",
            DiagnosisId::PageCacheThrashing => "page-cache-thrashing",
            DiagnosisId::IoBound => "io-bound",
            DiagnosisId::ShmExhausted => "shm-exhausted",
            DiagnosisId::OomKilled => "oom-killed",
            DiagnosisId::RamNearLimit => "ram-near-limit",
            DiagnosisId::PcieSaturated => "pcie-saturated",
            DiagnosisId::PowerUnstable => "power-unstable",
        }
    }
}

/// A number behind a diagnosis, with its unit. Serialises as `{"unit": "seconds", "value": 4}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "unit", content = "value", rename_all = "snake_case")]
pub enum Evidence {
    /// Bytes (shown in GiB).
    Bytes(u64),
    /// Bytes per second (shown in GB/s or MB/s, 10^n).
    #[serde(rename = "bytes_per_s")]
    BytesPerSecond(f64),
    /// A percentage, 0–100 (or more for CPU summed over cores).
    Percent(f64),
    /// A share, 0–1 (shown as a percentage).
    Share(f64),
    /// Seconds.
    Seconds(f64),
    /// Events per second (pages, faults).
    #[serde(rename = "per_s")]
    PerSecond(f64),
    /// A count (GPU index, processes, kills).
    Count(u64),
    /// Watts.
    Watts(f64),
    /// Text to paste as it is (a command-line value such as `--shm-size=4g`'s `4g`).
    Text(String),
}

/// One diagnosis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// Stable id.
    pub id: DiagnosisId,
    /// How much it matters.
    pub severity: Severity,
    /// The numbers behind it, by name; the locale texts use the same names as placeholders.
    pub evidence: BTreeMap<String, Evidence>,
    /// Time of the first sample showing it, seconds (the trace's clock).
    pub from_s: f64,
    /// Time of the last sample showing it, seconds.
    pub to_s: f64,
    /// What to do, most useful first.
    pub recommendations: Vec<AdviceId>,
}

impl Diagnosis {
    fn new(id: DiagnosisId, severity: Severity, from_s: f64, to_s: f64) -> Diagnosis {
        Diagnosis {
            id,
            severity,
            evidence: BTreeMap::new(),
            from_s,
            to_s,
            recommendations: Vec::new(),
        }
    }

    /// Adds a number.
    fn with(mut self, name: &str, e: Evidence) -> Diagnosis {
        self.evidence.insert(name.to_string(), e);
        self
    }

    /// Adds a number when it is known.
    fn with_opt(self, name: &str, e: Option<Evidence>) -> Diagnosis {
        match e {
            Some(e) => self.with(name, e),
            None => self,
        }
    }

    fn recs(mut self, recs: &[AdviceId]) -> Diagnosis {
        self.recommendations = recs.to_vec();
        self
    }
}

/// What a trace shows: how much was watched, the diagnoses (most severe first, then by time)
/// and the peaks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Samples in the trace.
    pub samples: usize,
    /// Seconds watched (see [`Trace::duration_s`]).
    pub duration_s: f64,
    /// Seconds between samples as asked for.
    pub interval_s: f64,
    /// The diagnoses.
    pub diagnoses: Vec<Diagnosis>,
    /// Highest (or, for available memory, lowest) values seen.
    pub peaks: Peaks,
    /// The checks the trace had no data for, and what each lacked: these found nothing
    /// because they could not look, not because nothing was wrong.
    #[serde(default)]
    pub unchecked: Vec<Unchecked>,
}

impl Summary {
    /// True when `check` had data to look at.
    pub fn checked(&self, check: DiagnosisId) -> bool {
        !self.unchecked.iter().any(|u| u.check == check)
    }
}

/// A symptom must last this long to count as sustained: 5 s. Assumption: shorter bursts of
/// swapping, I/O wait or PCIe traffic are normal (a checkpoint written, a page reclaim pass);
/// one that lasts 5 s is one a user feels (a shell that hangs, a step that takes longer).
pub const SUSTAIN_S: f64 = 5.0;

/// Two stretches of a symptom this close (seconds between the last sample of one and the first
/// of the next) are one: 3 s. Assumption: a swap storm or an I/O stall that pauses for a sample
/// or two at 1 s sampling is the same event.
pub const RUN_MERGE_GAP_S: f64 = 3.0;

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
