//! A watched run in a JSON report: where it came from and its diagnosis. The run's blocks are
//! built by [`crate::present::document::monitor`].

use serde::Serialize;

use crate::advisor::diagnose::Summary;
pub use crate::present::document::MonitorReport;

/// What a JSON report carries of a watched run: where it came from and its diagnosis (not the
/// samples; the trace file has them).
#[derive(Serialize)]
pub struct MonitorJson<'a> {
    /// The trace file, `null` when watched in the window or when the report is redacted.
    pub source: Option<&'a str>,
    /// The diagnosis, as `ramvram diagnose --json` prints it.
    #[serde(flatten)]
    pub summary: &'a Summary,
}

impl MonitorReport {
    /// The JSON form; a redacted report names no file.
    pub fn json(&self, redacted: bool) -> MonitorJson<'_> {
        MonitorJson {
            source: self.source.as_deref().filter(|_| !redacted),
            summary: &self.summary,
        }
    }
}
