//! `ramvram diagnose --prometheus URL --instance NODE --from TIME --to TIME`: a node's past run
//! from the lab's Prometheus through the same recognisers as `watch`; and the machines of
//! `advise --prometheus URL --fleet`. `docs/cluster.md` explains both.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

use super::{EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, fail, print, say};
use crate::advisor::diagnose::{self, Summary};
use crate::advisor::fleet::{FleetInput, Origin};
use crate::i18n::{Lang, Msg, trf};
use crate::import::prometheus::mapping::Mapping;
use crate::import::prometheus::range::{self, Fetched, RangeRequest};
use crate::import::prometheus::time::{parse_step, parse_time, rfc3339};
use crate::import::prometheus::{Client, client, fleet};
use crate::present::cluster as words;

/// The server, the node and the range: `ramvram diagnose --prometheus …`, and without a
/// command the window's Monitor page reading that server. The help shown comes from the
/// locale files (`clihelp.diagnose.*`, `clihelp.root.*`), which word each for its command.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ServerRange {
    /// The Prometheus server (http://prometheus:9090, or with a path prefix). A bearer token
    /// is read from RAMVRAM_PROMETHEUS_TOKEN and never shown.
    #[arg(long, value_name = "URL")]
    pub prometheus: Option<String>,
    /// The node: its instance label, with or without the port (gpu07, gpu07:9100).
    #[arg(long, value_name = "NODE", requires = "prometheus")]
    pub instance: Option<String>,
    /// Start: RFC 3339 (2024-06-01T14:00:00Z), Unix seconds, now, or a time ago (-4h,
    /// now-30m). Default: an hour before --to.
    #[arg(
        long,
        value_name = "TIME",
        requires = "prometheus",
        allow_hyphen_values = true
    )]
    pub from: Option<String>,
    /// End, in the same forms. Default: now.
    #[arg(
        long,
        value_name = "TIME",
        requires = "prometheus",
        allow_hyphen_values = true
    )]
    pub to: Option<String>,
    /// Time between samples: 15s, 1m, 500ms… (default 15s).
    #[arg(long, value_name = "STEP", requires = "prometheus")]
    pub step: Option<String>,
    /// Mapping from series to trace fields (TOML; docs/cluster.md), over the defaults for
    /// node_exporter and the DCGM exporter.
    #[arg(long, value_name = "FILE", requires = "prometheus")]
    pub mapping: Option<PathBuf>,
}

/// `ramvram diagnose --prometheus …`: the server and range, and where to record the trace.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PrometheusArgs {
    /// The server, node and range.
    #[command(flatten)]
    pub server: ServerRange,
    /// Also write the fetched trace to FILE (JSON Lines, docs/trace.md), to replay with
    /// `ramvram diagnose FILE`.
    #[arg(long, value_name = "FILE", requires = "prometheus")]
    pub record: Option<PathBuf>,
}

impl ServerRange {
    /// The same server, node and range for `diagnose` (without a display), recording nothing.
    pub fn as_diagnose(&self) -> PrometheusArgs {
        PrometheusArgs {
            server: self.clone(),
            record: None,
        }
    }
}

fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// The mapping file, or the defaults; `Err` is the message.
pub fn mapping(lang: Lang, file: Option<&Path>) -> Result<Mapping, String> {
    match file {
        None => Ok(Mapping::defaults()),
        Some(path) => Mapping::load(path).map_err(|e| {
            trf(
                lang,
                Msg::ClusterErrorMapping,
                &[
                    ("file", &path.display().to_string()),
                    ("error", &e.to_string()),
                ],
            )
        }),
    }
}

/// A client for `url` with the environment's token; warns when the token would cross the
/// network in clear text. `Err` is the message.
pub fn client(lang: Lang, url: &str) -> Result<Client, String> {
    let c = Client::from_env(url).map_err(|e| words::error(lang, url, &e))?;
    if c.has_token() && client::plain_http_off_host(c.base_url()) {
        say(&format!(
            "ramvram: {}",
            trf(
                lang,
                Msg::ClusterOutClearTextToken,
                &[("url", c.base_url())]
            )
        ));
    }
    Ok(c)
}

/// The range asked for; `Err` is the message.
fn request(lang: Lang, args: &PrometheusArgs) -> Result<RangeRequest, String> {
    let node = args
        .server
        .instance
        .clone()
        .filter(|n| !n.trim().is_empty())
        .ok_or_else(|| crate::i18n::tr(lang, Msg::ClusterErrorNeedsNode).to_string())?;
    let now = now();
    let time = |option: &str, text: &str| {
        parse_time(text, now).map_err(|_| {
            trf(
                lang,
                Msg::ClusterErrorBadTime,
                &[("option", option), ("value", text)],
            )
        })
    };
    let end = time("--to", args.server.to.as_deref().unwrap_or("now"))?;
    let start = match args.server.from.as_deref() {
        Some(text) => time("--from", text)?,
        None => end - 3600.0,
    };
    let step = match args.server.step.as_deref() {
        Some(text) => {
            parse_step(text).map_err(|_| trf(lang, Msg::ClusterUiBadStep, &[("value", text)]))?
        }
        None => 15.0,
    };
    Ok(RangeRequest {
        node: node.trim().to_string(),
        start,
        end,
        step,
    })
}

/// What `diagnose --prometheus --json` prints.
#[derive(Serialize)]
struct JsonReport<'a> {
    source: JsonSource<'a>,
    #[serde(flatten)]
    summary: &'a Summary,
    missing: Vec<String>,
    unmapped: Vec<String>,
    notes: Vec<String>,
}

#[derive(Serialize)]
struct JsonSource<'a> {
    prometheus: &'a str,
    instance: &'a str,
    from: String,
    to: String,
    from_unix: f64,
    to_unix: f64,
    step_s: f64,
}

/// `ramvram diagnose --prometheus …`.
pub(super) fn diagnose(lang: Lang, args: &PrometheusArgs, as_json: bool) -> ExitCode {
    let url = args.server.prometheus.as_deref().unwrap_or("");
    let prepared = request(lang, args).and_then(|r| {
        let m = mapping(lang, args.server.mapping.as_deref())?;
        let c = client(lang, url)?;
        Ok((r, m, c))
    });
    let (req, map, client) = match prepared {
        Ok(p) => p,
        Err(e) => return fail(lang, EXIT_BAD_INPUT, &e),
    };
    let fetched = match range::fetch(&client, &map, &req) {
        Ok(f) => f,
        Err(e) => {
            let text = client.redact(&words::error(lang, client.base_url(), &e));
            return fail(lang, EXIT_BAD_INPUT, &text);
        }
    };
    if let Some(path) = &args.record {
        let text = crate::trace::jsonl::to_jsonl(&fetched.trace);
        if let Err(e) = crate::fsutil::write_atomic(path, text.as_bytes()) {
            let text = crate::present::errors::write_failed(lang, path, &e);
            return fail(lang, EXIT_OUTPUT_FAILED, &text);
        }
        let file = path.display().to_string();
        say(&trf(lang, Msg::ClusterOutRecorded, &[("file", &file)]));
    }
    let summary = diagnose::diagnose(&fetched.trace);
    // Code spans lose their backticks in text (as [`super::print_text`] does), never in JSON.
    let out = if as_json {
        json(lang, client.base_url(), &fetched, &summary)
    } else {
        crate::codespan::plain(&text(lang, client.base_url(), &fetched, &summary))
    };
    print(&client.redact(&out))
}

fn json(lang: Lang, url: &str, f: &Fetched, summary: &Summary) -> String {
    let r = &f.request;
    let report = JsonReport {
        source: JsonSource {
            prometheus: url,
            instance: &r.node,
            from: rfc3339(r.start),
            to: rfc3339(r.end),
            from_unix: r.start,
            to_unix: r.end,
            step_s: r.step,
        },
        summary,
        missing: f.missing.iter().map(|x| x.path()).collect(),
        unmapped: f.unmapped.iter().map(|x| x.path()).collect(),
        notes: f.notes.iter().map(|n| words::note(lang, n)).collect(),
    };
    serde_json::to_string_pretty(&report).expect("summary serialises") + "\n"
}

fn text(lang: Lang, url: &str, f: &Fetched, summary: &Summary) -> String {
    let mut notes = vec![words::source_line(lang, url, f)];
    notes.extend(words::gaps(lang, f));
    let origin = f.request.start;
    super::watch::text_with(lang, summary, &notes, &|d| {
        trf(
            lang,
            Msg::MonitorTitledRange,
            &[
                ("title", &crate::present::monitor::title(lang, d)),
                ("range", &words::diagnosis_range(lang, origin, d)),
            ],
        )
    })
}

/// The fleet as the exporters of `url` describe it, as fleet inputs; `Err` is the message.
pub fn fleet_inputs(
    lang: Lang,
    url: &str,
    mapping_file: Option<&Path>,
) -> Result<Vec<FleetInput>, String> {
    let m = mapping(lang, mapping_file)?;
    let c = client(lang, url)?;
    let nodes =
        fleet::fleet(&c, &m).map_err(|e| c.redact(&words::error(lang, c.base_url(), &e)))?;
    if nodes.is_empty() {
        return Err(trf(
            lang,
            Msg::ClusterErrorNoNodes,
            &[("url", c.base_url())],
        ));
    }
    let origin = Origin::Prometheus(c.base_url().to_string());
    Ok(nodes
        .into_iter()
        .map(|(node, profile)| (c.redact(&node), origin.clone(), profile, Vec::new()))
        .collect())
}
