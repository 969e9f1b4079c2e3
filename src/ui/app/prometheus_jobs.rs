//! The Monitor page's Prometheus source: listing a server's nodes and fetching a node's range
//! on a background thread (one at a time), the result handed back over a channel and shown as
//! any trace, with what the server did not have.

use std::path::PathBuf;
use std::sync::mpsc;

use super::RamvramApp;
use super::jobs::{PromEvent, PromJob};
use super::trace_origin::TraceOrigin;
use crate::advisor::diagnose;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::import::prometheus::mapping::Mapping;
use crate::import::prometheus::range::{self, RangeRequest};
use crate::import::prometheus::time::{parse_step, parse_time};
use crate::import::prometheus::{Client, fleet};
use crate::present::cluster as words;
use crate::trace::Trace;

/// What the window opens with from the command line: `ramvram --prometheus URL [--instance
/// NODE] [--from T] [--to T] [--mapping FILE]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrometheusStart {
    /// The server.
    pub url: String,
    /// The node; with one, the range is fetched at once.
    pub node: Option<String>,
    /// Start of the range, as typed.
    pub from: Option<String>,
    /// End of the range, as typed.
    pub to: Option<String>,
    /// The step, as typed.
    pub step: Option<String>,
    /// A mapping file.
    pub mapping: Option<PathBuf>,
}

fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// The form's range as a request; `Err` is the message.
fn request(
    lang: Lang,
    f: &crate::ui::panels::prometheus::PrometheusForm,
) -> Result<RangeRequest, String> {
    if f.node.trim().is_empty() {
        return Err(tr(lang, Msg::ClusterErrorNeedsNode).to_string());
    }
    let now = now();
    let time = |label: Msg, text: &str| {
        parse_time(text, now).map_err(|_| {
            trf(
                lang,
                Msg::ClusterErrorBadTime,
                &[("option", tr(lang, label)), ("value", text)],
            )
        })
    };
    let end = time(Msg::ClusterUiTo, &f.to)?;
    let start = time(Msg::ClusterUiFrom, &f.from)?;
    let step =
        parse_step(&f.step).map_err(|_| trf(lang, Msg::ClusterUiBadStep, &[("value", &f.step)]))?;
    Ok(RangeRequest {
        node: f.node.trim().to_string(),
        start,
        end,
        step,
    })
}

impl RamvramApp {
    /// The mapping and a client for the form's server; `Err` is the message.
    fn prometheus_client(&self) -> Result<(Mapping, Client), String> {
        let f = &self.monitor.prometheus;
        let mapping = match &f.mapping {
            Some(path) => Mapping::load(path).map_err(|e| {
                trf(
                    self.lang,
                    Msg::ClusterErrorMapping,
                    &[
                        ("file", &path.display().to_string()),
                        ("error", &e.to_string()),
                    ],
                )
            })?,
            None => Mapping::defaults(),
        };
        let client = Client::from_env(&f.url).map_err(|e| words::error(self.lang, &f.url, &e))?;
        Ok((mapping, client))
    }

    fn spawn_prometheus(
        &mut self,
        ctx: &egui::Context,
        work: impl FnOnce() -> PromEvent + Send + 'static,
    ) {
        if self.monitor.prometheus_job.is_some() {
            return;
        }
        let (tx, rx) = mpsc::channel();
        let repaint = ctx.clone();
        let lang = self.lang;
        let spawned = std::thread::Builder::new()
            .name("ramvram-prometheus".into())
            .spawn(move || {
                let event = super::worker::run_caught(work).unwrap_or_else(|e| {
                    let task = tr(lang, Msg::ClusterUiFetch).to_string();
                    let msg = trf(lang, Msg::UiTaskFailed, &[("task", &task), ("error", &e)]);
                    PromEvent::Fetched(Err(msg))
                });
                let _ = tx.send(event);
                repaint.request_repaint();
            });
        if spawned.is_ok() {
            let url = self.monitor.prometheus.url.clone();
            self.monitor.message = None;
            self.monitor.prometheus_job = Some(PromJob {
                rx,
                what: trf(self.lang, Msg::ClusterUiAsking, &[("url", &url)]),
            });
        }
    }

    /// Asks the form's server for its nodes (the `up` series' instance labels).
    pub fn list_prometheus_nodes(&mut self, ctx: &egui::Context) {
        let (mapping, client) = match self.prometheus_client() {
            Ok(p) => p,
            Err(e) => return self.monitor.message = Some(e),
        };
        let lang = self.lang;
        self.spawn_prometheus(ctx, move || {
            PromEvent::Nodes(
                fleet::list_nodes(&client, &mapping)
                    .map_err(|e| client.redact(&words::error(lang, client.base_url(), &e))),
            )
        });
    }

    /// Fetches the form's node and range.
    pub fn fetch_prometheus(&mut self, ctx: &egui::Context) {
        let prepared = request(self.lang, &self.monitor.prometheus)
            .and_then(|r| Ok((r, self.prometheus_client()?)));
        let (req, (mapping, client)) = match prepared {
            Ok(p) => p,
            Err(e) => return self.monitor.message = Some(e),
        };
        let lang = self.lang;
        self.spawn_prometheus(ctx, move || {
            PromEvent::Fetched(
                range::fetch(&client, &mapping, &req)
                    .map(Box::new)
                    .map_err(|e| client.redact(&words::error(lang, client.base_url(), &e))),
            )
        });
    }

    /// Opens the Monitor page with the form filled in from the command line; with a node, its
    /// range is fetched at once.
    pub fn open_prometheus(&mut self, ctx: &egui::Context, start: PrometheusStart) {
        let f = &mut self.monitor.prometheus;
        f.open = true;
        f.url = start.url;
        f.mapping = start.mapping;
        if let Some(from) = start.from {
            f.from = from;
        }
        if let Some(to) = start.to {
            f.to = to;
        }
        if let Some(step) = start.step {
            f.step = step;
        }
        self.tab = crate::ui::panels::Tab::Monitor;
        match start.node {
            Some(node) => {
                self.monitor.prometheus.node = node;
                self.fetch_prometheus(ctx);
            }
            None => self.list_prometheus_nodes(ctx),
        }
    }

    /// True while a Prometheus request runs.
    pub fn prometheus_busy(&self) -> bool {
        self.monitor.prometheus_job.is_some()
    }

    /// The form (tests fill it).
    pub fn prometheus_form(&mut self) -> &mut crate::ui::panels::prometheus::PrometheusForm {
        &mut self.monitor.prometheus
    }

    /// Takes the thread's answer when it has come.
    pub(super) fn poll_prometheus(&mut self) {
        let Some(job) = self.monitor.prometheus_job.take() else {
            return;
        };
        let event = match job.rx.try_recv() {
            Ok(e) => e,
            Err(mpsc::TryRecvError::Empty) => {
                self.monitor.prometheus_job = Some(job);
                return;
            }
            Err(mpsc::TryRecvError::Disconnected) => return,
        };
        match event {
            PromEvent::Nodes(Ok(nodes)) => {
                let f = &mut self.monitor.prometheus;
                if f.node.is_empty() {
                    f.node = nodes.first().cloned().unwrap_or_default();
                }
                f.nodes = nodes;
            }
            PromEvent::Fetched(Ok(fetched)) => {
                self.stop_watch();
                let mut fetched = *fetched;
                let header = fetched.trace.header.clone();
                let trace = std::mem::replace(&mut fetched.trace, Trace::new(header));
                let r = &fetched.request;
                self.monitor.origin = Some(TraceOrigin::Prometheus {
                    url: self.monitor.prometheus.url.trim().to_string(),
                    node: r.node.clone(),
                    start: r.start,
                    end: r.end,
                    step: r.step,
                });
                self.monitor.summary = Some(diagnose::diagnose(&trace));
                self.monitor.trace = Some(trace);
                self.monitor.fetched = Some(fetched);
                self.monitor.message = None;
            }
            PromEvent::Nodes(Err(e)) | PromEvent::Fetched(Err(e)) => {
                self.monitor.message = Some(e);
            }
        }
    }
}
