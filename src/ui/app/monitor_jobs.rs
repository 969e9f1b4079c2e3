//! The Monitor page's state: a live watch on a background thread (samples arrive over a
//! channel, each one repaints), or a trace opened from a file; and the diagnosis of what is on
//! screen, recomputed when a sample arrives.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use super::RamvramApp;
use super::jobs::{RunningWatch, WatchEvent};
use super::trace_origin::TraceOrigin;
use crate::advisor::diagnose::Summary;
use crate::i18n::{Msg, trf};
use crate::probe::live::{Sampler, gpu, watch};
use crate::trace::{Sample, Trace, TraceHeader};

impl RamvramApp {
    /// Opens a recorded trace on the Monitor page (stopping a live watch); a trace that can't
    /// be read leaves what was shown and says why.
    pub fn open_trace(&mut self, path: &Path) {
        match crate::trace::jsonl::read_trace(path) {
            Ok(loaded) => {
                self.stop_watch();
                let name = path.display().to_string();
                let notes: Vec<String> = loaded
                    .notes
                    .iter()
                    .map(|n| crate::present::monitor::trace_note(self.lang, &name, n))
                    .collect();
                self.monitor.trace = Some(loaded.trace);
                self.monitor.fetched = None;
                self.monitor.origin = Some(TraceOrigin::File(path.to_path_buf()));
                self.monitor.message = (!notes.is_empty()).then(|| notes.join(" "));
                self.monitor.rediagnose();
            }
            Err(e) => {
                self.monitor.message = Some(crate::present::errors::trace_error(self.lang, &e));
            }
        }
        self.tab = crate::ui::panels::Tab::Monitor;
    }

    /// Starts watching this machine, or the process whose PID is `pid_text` (empty: the
    /// machine), on a background thread.
    pub fn start_watch(&mut self, ctx: &egui::Context, pid_text: &str) {
        if self.monitor.running.is_some() {
            return;
        }
        let pid = if pid_text.is_empty() {
            None
        } else {
            match pid_text.parse::<u32>() {
                Ok(p) => Some(p),
                Err(_) => {
                    self.monitor.message = Some(trf(
                        self.lang,
                        Msg::MonitorUiPidInvalid,
                        &[("value", pid_text)],
                    ));
                    return;
                }
            }
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let (stop, repaint) = (cancel.clone(), ctx.clone());
        let interval = self.monitor.interval;
        let fake = self.monitor.fake_gpus.clone();
        let profile = self.profile.clone().filter(|_| self.can_measure());
        let spawned = std::thread::Builder::new()
            .name("ramvram-watch".into())
            .spawn(move || {
                let (failed, wake) = (tx.clone(), repaint.clone());
                let outcome = super::worker::run_caught(move || {
                    let meter: Box<dyn gpu::GpuMeter> = match fake {
                        Some(series) => Box::new(gpu::FakeGpuSeries::new(series)),
                        None => Box::new(gpu::SystemMeter),
                    };
                    let profile = crate::probe::live::profile_for_target(
                        profile.unwrap_or_else(crate::probe::detect),
                        pid,
                    );
                    let header = TraceHeader::new(Some(profile), interval.as_secs_f64());
                    if tx.send(WatchEvent::Header(Box::new(header))).is_err() {
                        return;
                    }
                    let mut sampler = Sampler::new(pid, meter);
                    let ended = sampler.target_ended();
                    let mut send = |s: Sample| {
                        let gone = pid.is_some() && s.process.is_none();
                        let sent = tx.send(WatchEvent::Sample(Box::new(s))).is_ok();
                        repaint.request_repaint();
                        if sent && !gone {
                            watch::Step::Continue
                        } else {
                            watch::Step::Stop
                        }
                    };
                    if !ended {
                        let stopped = || stop.load(Ordering::Relaxed);
                        watch::run(&mut sampler, interval, None, &stopped, &mut send);
                    }
                });
                if let Err(e) = outcome {
                    let _ = failed.send(WatchEvent::Failed(e));
                }
                wake.request_repaint();
            });
        if spawned.is_ok() {
            self.monitor.trace = None;
            self.monitor.summary = None;
            self.monitor.fetched = None;
            self.monitor.message = None;
            self.monitor.origin = Some(TraceOrigin::Live(pid));
            self.monitor.running = Some(RunningWatch { cancel, rx });
        }
    }

    /// Stops a live watch; what was sampled stays on screen.
    pub fn stop_watch(&mut self) {
        if let Some(r) = self.monitor.running.take() {
            r.cancel.store(true, Ordering::Relaxed);
            self.drain(&r.rx);
        }
    }

    /// True while a live watch runs.
    pub fn watching(&self) -> bool {
        self.monitor.running.is_some()
    }

    /// The trace on the Monitor page and its diagnosis.
    pub fn monitor_trace(&self) -> Option<(&Trace, &Summary)> {
        Some((self.monitor.trace.as_ref()?, self.monitor.summary.as_ref()?))
    }

    /// Test hook: sample every `interval` and read GPUs from a fake meter playing `series`.
    pub fn set_watch_source(&mut self, interval: Duration, series: Option<Vec<Vec<u32>>>) {
        self.monitor.interval = interval;
        self.monitor.fake_gpus = series;
    }

    /// Takes what the thread sent; true when the thread has ended.
    fn drain(&mut self, rx: &Receiver<WatchEvent>) -> bool {
        let mut changed = false;
        let ended = loop {
            match rx.try_recv() {
                Ok(WatchEvent::Header(h)) => self.monitor.trace = Some(Trace::new(*h)),
                Ok(WatchEvent::Sample(s)) => {
                    if let Some(t) = &mut self.monitor.trace {
                        t.samples.push(*s);
                    }
                }
                Ok(WatchEvent::Failed(e)) => {
                    let task = crate::i18n::tr(self.lang, Msg::MonitorUiStart).to_string();
                    self.monitor.message = Some(trf(
                        self.lang,
                        Msg::UiTaskFailed,
                        &[("task", &task), ("error", &e)],
                    ));
                }
                Err(mpsc::TryRecvError::Empty) => break false,
                Err(mpsc::TryRecvError::Disconnected) => break true,
            }
            changed = true;
        };
        if changed {
            self.monitor.rediagnose();
        }
        ended
    }

    pub(super) fn poll_watch(&mut self) {
        let Some(running) = self.monitor.running.take() else {
            return;
        };
        // The thread ends when told to, or when the watched process has ended.
        if !self.drain(&running.rx) {
            self.monitor.running = Some(running);
        }
    }

    /// The status line of the Monitor page.
    pub(super) fn monitor_status(&self) -> Option<String> {
        let trace = self.monitor.trace.as_ref()?;
        Some(match self.monitor.origin.as_ref()? {
            TraceOrigin::File(p) => {
                let name = p
                    .file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
                crate::ui::panels::monitor::status(self.lang, None, Some(&name), trace)
            }
            TraceOrigin::Live(pid) => {
                let what =
                    pid.map(|p| trf(self.lang, Msg::MonitorUiPidWhat, &[("pid", &p.to_string())]));
                crate::ui::panels::monitor::status(self.lang, what.as_deref(), None, trace)
            }
            TraceOrigin::Prometheus {
                node,
                start,
                end,
                step,
                ..
            } => {
                let (from, to) = crate::present::cluster::range_ends(*start, *end);
                trf(
                    self.lang,
                    Msg::ClusterUiStatus,
                    &[
                        ("node", node),
                        ("from", &from),
                        ("to", &to),
                        ("samples", &trace.samples.len().to_string()),
                        ("step", &crate::present::monitor::duration(self.lang, *step)),
                    ],
                )
            }
        })
    }

    /// What the shown Prometheus range could not fill, as lines (empty for other traces).
    pub(super) fn monitor_gaps(&self) -> Vec<String> {
        self.monitor
            .fetched
            .as_ref()
            .map(|f| crate::present::cluster::gaps(self.lang, f))
            .unwrap_or_default()
    }

    /// The live diagnosis for a report of the machine `shown` (its profile). A run watched in
    /// this window is this machine's: it goes only into a report of this machine (the same host
    /// name, or, where either is unnamed, the machine detected here), never into another
    /// machine's. A trace opened from a file or fetched from Prometheus goes in as the user
    /// chose it, and the report names the host its header names
    /// ([`crate::present::document::monitor`]).
    pub(super) fn monitor_report_for(
        &self,
        shown: &crate::profile::MachineProfile,
    ) -> Option<crate::report::monitor::MonitorReport> {
        let r = self.monitor_report()?;
        if !matches!(self.monitor.origin, Some(TraceOrigin::Live(_))) {
            return Some(r);
        }
        let watched = r
            .trace
            .header
            .profile
            .as_ref()
            .and_then(|p| p.host.hostname.as_deref());
        let same = match (watched, shown.host.hostname.as_deref()) {
            (Some(w), Some(s)) => w == s,
            _ => self.source == super::source::Source::Detected,
        };
        same.then_some(r)
    }

    /// The live diagnosis for a report: the trace on the Monitor page, when it has samples.
    pub(super) fn monitor_report(&self) -> Option<crate::report::monitor::MonitorReport> {
        let trace = self
            .monitor
            .trace
            .as_ref()
            .filter(|t| !t.samples.is_empty())?;
        let source = match self.monitor.origin.as_ref()? {
            TraceOrigin::File(p) => Some(p.display().to_string()),
            TraceOrigin::Live(_) => None,
            TraceOrigin::Prometheus {
                url,
                node,
                start,
                end,
                ..
            } => Some(format!(
                "Prometheus {url}, {node}, {}",
                crate::present::cluster::utc_range(self.lang, *start, *end)
            )),
        };
        Some(crate::report::monitor::MonitorReport {
            source,
            trace: trace.clone(),
            summary: self.monitor.summary.clone()?,
        })
    }
}
