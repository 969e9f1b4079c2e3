//! The Monitor page's state: the trace on screen and its diagnosis, where it came from, a
//! live watch or a Prometheus request running, and the page's forms.

use std::time::Duration;

use super::jobs::{PromJob, RunningWatch};
use super::trace_origin::TraceOrigin;
use crate::advisor::diagnose::{self, Summary};
use crate::trace::Trace;

/// The Monitor page's state.
pub(super) struct MonitorState {
    pub(super) trace: Option<Trace>,
    pub(super) summary: Option<Summary>,
    pub(super) origin: Option<TraceOrigin>,
    pub(super) running: Option<RunningWatch>,
    pub(super) pid_text: String,
    pub(super) message: Option<String>,
    /// Seconds between samples (tests shorten it).
    pub(super) interval: Duration,
    /// Test hook: GPU utilisation series for a fake meter instead of NVML.
    pub(super) fake_gpus: Option<Vec<Vec<u32>>>,
    /// The "From Prometheus…" form.
    pub(super) prometheus: crate::ui::panels::prometheus::PrometheusForm,
    /// A Prometheus request running.
    pub(super) prometheus_job: Option<PromJob>,
    /// What the shown Prometheus range could not fill (its trace is in `trace`).
    pub(super) fetched: Option<crate::import::prometheus::range::Fetched>,
}

impl MonitorState {
    pub(super) fn new() -> MonitorState {
        MonitorState {
            trace: None,
            summary: None,
            origin: None,
            running: None,
            pid_text: String::new(),
            message: None,
            interval: Duration::from_secs(1),
            fake_gpus: None,
            prometheus: Default::default(),
            prometheus_job: None,
            fetched: None,
        }
    }

    pub(super) fn rediagnose(&mut self) {
        self.summary = self.trace.as_ref().map(diagnose::diagnose);
    }
}
