//! The verdict: the one-line answer at the top of every view.

use serde::{Deserialize, Serialize};

use super::Severity;

/// The one-line answer shown at the top of every view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Sizing RAM ([`RamSizes::sizing_bytes`](super::RamSizes::sizing_bytes)) is below total VRAM (or below the largest GPU).
    RamBelowVram,
    /// 1.0–1.5×: fine without offload.
    Baseline,
    /// 1.5–2.0×: room for CPU offload.
    OffloadReady,
    /// ≥ 2.0×: room for large models and high resolution.
    LargeModelReady,
    /// The GPU shares system RAM; judge the pool, not a ratio.
    UnifiedMemory,
    /// No GPU found.
    NoGpu,
    /// RAM or VRAM unknown.
    CannotJudge,
}

impl Verdict {
    /// The severity used to colour the verdict.
    pub fn severity(self) -> Severity {
        match self {
            Verdict::RamBelowVram => Severity::Critical,
            Verdict::CannotJudge => Severity::Warning,
            _ => Severity::Info,
        }
    }
}
