//! The diagnoses' types: ids, evidence, one diagnosis, and the thresholds every recogniser
//! shares.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::advisor::{AdviceId, Severity};

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
    pub(super) fn new(id: DiagnosisId, severity: Severity, from_s: f64, to_s: f64) -> Diagnosis {
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
    pub(super) fn with(mut self, name: &str, e: Evidence) -> Diagnosis {
        self.evidence.insert(name.to_string(), e);
        self
    }

    /// Adds a number when it is known.
    pub(super) fn with_opt(self, name: &str, e: Option<Evidence>) -> Diagnosis {
        match e {
            Some(e) => self.with(name, e),
            None => self,
        }
    }

    pub(super) fn recs(mut self, recs: &[AdviceId]) -> Diagnosis {
        self.recommendations = recs.to_vec();
        self
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
