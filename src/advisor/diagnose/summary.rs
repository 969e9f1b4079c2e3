//! What a whole trace shows: the diagnoses, the peaks and the checks it had no data for.

use serde::{Deserialize, Serialize};

use super::coverage::Unchecked;
use super::peaks::Peaks;
use super::types::{Diagnosis, DiagnosisId};

/// What a trace shows: how much was watched, the diagnoses (most severe first, then by time)
/// and the peaks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Samples in the trace.
    pub samples: usize,
    /// Seconds watched (see [`Trace::duration_s`](crate::trace::Trace::duration_s)).
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
