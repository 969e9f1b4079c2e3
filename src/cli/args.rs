//! The command line's arguments as clap parses them: the commands, the machine to judge, the
//! report format and the language. Help texts come from the locale files ([`super::help`]).

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use super::{collect, fleet, inference_args, prometheus, training_args, watch, workload_args};

use crate::i18n::{Lang, Msg, trf};
use crate::report::{self, ReportLang};

/// `ramvram`: checks whether a machine's RAM can keep its GPUs fed.
#[derive(Debug, Parser)]
#[command(
    name = "ramvram",
    version,
    about = "RAM·VRAM Advisor (内存·显存顾问): can this machine's RAM keep its GPUs fed?"
)]
pub struct Args {
    /// Language: en, zh, or both (Chinese, then English; for reports and text output).
    /// Default: RAMVRAM_LANG, else the system locale.
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangArg>,
    /// With no command: open the window showing this profile instead of this machine.
    #[arg(long, value_name = "FILE")]
    pub profile: Option<PathBuf>,
    /// With no command: open the window on the lab-machines page with every profile in DIR.
    #[arg(long, value_name = "DIR")]
    pub profile_dir: Option<PathBuf>,
    /// With no command: open the window on the Monitor page with this trace (from
    /// `ramvram watch --record`).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// With no command: open the Monitor page on a Prometheus server's node and range.
    #[command(flatten)]
    pub window_prometheus: prometheus::ServerRange,
    /// What to do; with none, open the window (or print the assessment when there is no display).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Detect this machine: RAM, swap, cgroup limit, CPU, GPUs, /dev/shm, disks.
    Detect {
        /// Print the profile as JSON (the format `--profile` reads).
        #[arg(long)]
        json: bool,
        /// Write the JSON profile to FILE (atomically) instead of printing it.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Memory modules from this file: the output of `sudo dmidecode -t memory`.
        #[arg(long, value_name = "FILE")]
        dmidecode: Option<PathBuf>,
    },
    /// Judge a machine's RAM against its GPUs: ratio, published rules, findings.
    #[command(args_override_self = true, allow_negative_numbers = true)]
    Advise {
        /// Which machine or machines.
        #[command(flatten)]
        machines: MachineArgs,
        /// Print the assessment as JSON.
        #[arg(long)]
        json: bool,
        /// A training plan to check against the machine (training-memory planner).
        #[command(flatten)]
        training: training_args::TrainingArgs,
        /// A data-loading workload to simulate on the machine.
        #[command(flatten)]
        workload: workload_args::WorkloadArgs,
        /// A model to serve (inference memory).
        #[command(flatten)]
        inference: inference_args::InferenceArgs,
    },
    /// Write a report: PDF for procurement, Markdown for wikis, JSON for scripts.
    #[command(args_override_self = true, allow_negative_numbers = true)]
    Report {
        /// Which machine or machines.
        #[command(flatten)]
        machines: MachineArgs,
        /// pdf, md or json; without it, the extension of --out says (.pdf, .md, .json).
        #[arg(long, value_enum)]
        format: Option<FormatArg>,
        /// The file to write (atomically: a failure leaves no partial file behind).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Remove the host name, user names, serial numbers and UUIDs.
        #[arg(long)]
        redact: bool,
        /// A training plan to include (training-memory planner).
        #[command(flatten)]
        training: training_args::TrainingArgs,
        /// A data-loading workload to include (workload simulator).
        #[command(flatten)]
        workload: workload_args::WorkloadArgs,
        /// A model to serve (inference memory).
        #[command(flatten)]
        inference: inference_args::InferenceArgs,
        /// A trace recorded with `ramvram watch --record`: adds its live diagnosis, with the
        /// timeline chart.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// With a lab's machines: the lab's price list (CSV `item,price,currency`, items named
        /// as the purchase lines name them) that prices what to buy, with a total on page 1;
        /// without it, typical prices with their source and date.
        #[arg(long, value_name = "FILE")]
        prices: Option<PathBuf>,
        /// With a lab's machines: also write the items the report prices to FILE (CSV
        /// `item,price,currency`, the price and currency empty) for the lab to fill in.
        #[arg(long, value_name = "FILE")]
        prices_template: Option<PathBuf>,
    },
    /// Measure this machine: memory bandwidth (STREAM-style), JPEG decode speed or a folder's
    /// read speed.
    Bench {
        /// What to measure.
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// Watch this machine, a process (--pid) or a command (-- COMMAND …) while it trains, then
    /// name what went wrong: starved GPUs, swapping, OOM kills, a full /dev/shm, I/O wait.
    Watch(watch::WatchArgs),
    /// Replay a trace recorded with `watch --record` through the same diagnosis, or read a
    /// node's past run from Prometheus (--prometheus URL --instance NODE --from --to).
    Diagnose {
        /// The trace (JSON Lines, docs/trace.md); a last line cut off mid-way is skipped.
        #[arg(required_unless_present = "prometheus", conflicts_with = "prometheus")]
        trace: Option<PathBuf>,
        /// Print the diagnosis as JSON.
        #[arg(long)]
        json: bool,
        /// Read from Prometheus instead of a file.
        #[command(flatten)]
        prometheus: prometheus::PrometheusArgs,
    },
    /// Collect a profile from every node with Slurm: prints one srun line per node writing
    /// DIR/NODE.json (runs them with --run), then checks the folder as the lab view does.
    Collect(collect::CollectArgs),
}

/// `ramvram bench …`
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Memory bandwidth: STREAM's Copy, Scale, Add and Triad on all CPUs (about 3 s).
    Memory {
        /// Print the result as JSON (the profile's `measurements.memory_bandwidth`).
        #[arg(long)]
        json: bool,
        /// Bytes per array instead of max(4 × last-level cache, 256 MiB) (for tests; small
        /// arrays measure the cache, not memory).
        #[arg(long, hide = true)]
        array_bytes: Option<u64>,
        /// Also store the result in this profile file (from `ramvram detect --out`), so that a
        /// server's profile carries its measurements.
        #[arg(long, value_name = "FILE")]
        into: Option<PathBuf>,
    },
    /// JPEG decode speed: a generated image decoded on one thread and on every core (about
    /// 2 s). Its per-core figure is what `advise --decode-rate` takes.
    Decode {
        /// Image size, WIDTHxHEIGHT (default 1920x1080; use the dataset's).
        #[arg(long, value_parser = crate::parse::parse_resolution, default_value = "1920x1080")]
        image_size: (u32, u32),
        /// Threads for the all-cores pass (default: the physical cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// Seconds per pass (default 1).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        seconds: Option<u32>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Storage: sequential and small-file random read in FOLDER (a few seconds; its test files
    /// are deleted afterwards).
    Storage {
        /// A folder on the disk to measure (where the dataset lives).
        folder: PathBuf,
        /// Print the result as JSON (one of the profile's `measurements.storage`).
        #[arg(long)]
        json: bool,
        /// Size of the sequentially read file in MiB (default 512; for tests).
        #[arg(long, hide = true)]
        size_mib: Option<u64>,
        /// Also store the result in this profile file (from `ramvram detect --out`).
        #[arg(long, value_name = "FILE")]
        into: Option<PathBuf>,
    },
}

/// Which machine (`--profile`, else this one) or machines (`--profile-dir`, `--slurm`), and
/// the scenario, for `advise` and `report`.
#[derive(Debug, clap::Args)]
pub struct MachineArgs {
    /// Profile of the machine (from `ramvram detect --json`); default: this machine.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["profile_dir", "slurm"])]
    pub profile: Option<PathBuf>,
    /// Every profile (`*.json`) in a folder, side by side (a lab's machines).
    #[arg(long, value_name = "DIR")]
    pub profile_dir: Option<PathBuf>,
    /// Every node of a Slurm cluster, from `scontrol show node --json` output.
    #[arg(long, value_name = "FILE")]
    pub slurm: Option<PathBuf>,
    /// Every node a Prometheus server's exporters describe (with --fleet): memory, GPUs,
    /// driver, CPUs; the rest unknown. A bearer token is read from RAMVRAM_PROMETHEUS_TOKEN.
    #[arg(
        long,
        value_name = "URL",
        requires = "fleet",
        conflicts_with = "profile"
    )]
    pub prometheus: Option<String>,
    /// With --prometheus: the lab's machines side by side, one per node.
    #[arg(long, requires = "prometheus")]
    pub fleet: bool,
    /// With --prometheus: the mapping from series to machine facts (TOML, docs/cluster.md).
    #[arg(long, value_name = "FILE", requires = "prometheus")]
    pub mapping: Option<PathBuf>,
    /// Scenario file (a training plan and/or a workload; see docs/profile.md). Flags override it.
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// Memory modules from this file: the output of `sudo dmidecode -t memory`.
    #[arg(long, value_name = "FILE")]
    pub dmidecode: Option<PathBuf>,
    /// What if /dev/shm held SIZE (`docker run --shm-size`): 1GiB, 16GiB.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub shm_size: Option<u64>,
    /// What if WSL2's `memory=` in .wslconfig were SIZE: 24GiB.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub wsl_memory: Option<u64>,
    /// What if SIZE of RAM were installed (usable RAM keeps this machine's share): 128GiB.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub ram: Option<u64>,
    /// What if SIZE of swap were configured in all (the page file on Windows): 4GiB. Only a
    /// one-time loading peak may spill into it.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub swap: Option<u64>,
    /// What if the job's memory limit (Slurm `--mem`, a container's `--memory`) were SIZE: 64GiB.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub memory_limit: Option<u64>,
    /// What if Apple Silicon's GPU wired limit (`iogpu.wired_limit_mb`) were SIZE: 24GiB.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub gpu_wired_limit: Option<u64>,
    /// What if Windows' page files totalled SIZE (the commit limit is RAM plus them): 48GiB.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub page_file: Option<u64>,
    /// What if an AMD APU's GTT were SIZE (`amdgpu.gttsize`): 96GiB.
    #[arg(long, value_name = "SIZE", value_parser = crate::parse::parse_size)]
    pub gtt: Option<u64>,
    /// What if the job's memory were bound to NUMA node NODE (`numactl -m NODE`), or to all.
    #[arg(long, value_name = "NODE", value_parser = parse_numa_bind)]
    pub numa_bind: Option<crate::advisor::whatif::NumaBind>,
}

fn parse_numa_bind(s: &str) -> Result<crate::advisor::whatif::NumaBind, String> {
    crate::advisor::whatif::NumaBind::parse(s).ok_or_else(|| format!("{s}: all or a node number"))
}

impl MachineArgs {
    /// The machine change the what-if flags ask for.
    pub(crate) fn what_if(&self) -> crate::advisor::whatif::MachineChange {
        crate::advisor::whatif::MachineChange {
            shm_bytes: self.shm_size,
            wsl_memory_bytes: self.wsl_memory,
            ram_bytes: self.ram,
            swap_bytes: self.swap,
            memory_limit_bytes: self.memory_limit,
            gpu_wired_limit_bytes: self.gpu_wired_limit,
            page_file_bytes: self.page_file,
            gtt_bytes: self.gtt,
            numa_bind: self.numa_bind,
        }
    }

    pub(crate) fn is_fleet(&self) -> bool {
        self.profile_dir.is_some() || self.slurm.is_some() || self.prometheus.is_some()
    }

    pub(crate) fn prometheus_source(&self) -> Option<fleet::PrometheusSource<'_>> {
        Some(fleet::PrometheusSource {
            url: self.prometheus.as_deref()?,
            mapping: self.mapping.as_deref(),
        })
    }
}

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// PDF (A4).
    Pdf,
    /// Markdown.
    Md,
    /// JSON (the assessment, as `advise --json`).
    Json,
}

impl FormatArg {
    /// The value as written after `--format`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FormatArg::Pdf => "pdf",
            FormatArg::Md => "md",
            FormatArg::Json => "json",
        }
    }

    pub(crate) fn of(f: report::Format) -> FormatArg {
        match f {
            report::Format::Pdf => FormatArg::Pdf,
            report::Format::Markdown => FormatArg::Md,
            report::Format::Json => FormatArg::Json,
        }
    }
}

/// The report's format: `--format`, or what `--out`'s extension names (as the window's save
/// dialogs read it, [`report::Format::from_path`]). `Err` is the message when the two
/// disagree (`--format pdf --out report.md`) or when neither says.
pub fn report_format(
    lang: Lang,
    format: Option<FormatArg>,
    out: &Path,
) -> Result<report::Format, String> {
    let named = report::Format::from_path(out);
    let file = out.display().to_string();
    match (format, named) {
        (Some(f), Some(n)) if report::Format::from(f) != n => {
            let ext = out
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default();
            let suggested = out
                .with_extension(report::Format::from(f).extension())
                .display()
                .to_string();
            Err(trf(
                lang,
                Msg::CliReportFormatMismatch,
                &[
                    ("file", &file),
                    ("ext", &ext),
                    ("format", f.as_str()),
                    ("suggested", &suggested),
                    ("named_format", FormatArg::of(n).as_str()),
                ],
            ))
        }
        (Some(f), _) => Ok(f.into()),
        (None, Some(n)) => Ok(n),
        (None, None) => Err(trf(lang, Msg::CliReportFormatUnknown, &[("file", &file)])),
    }
}

impl From<FormatArg> for report::Format {
    fn from(f: FormatArg) -> report::Format {
        match f {
            FormatArg::Pdf => report::Format::Pdf,
            FormatArg::Md => report::Format::Markdown,
            FormatArg::Json => report::Format::Json,
        }
    }
}

/// `--lang` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// Simplified Chinese.
    Zh,
    /// Chinese, then English.
    Both,
}

/// The languages `--lang` asks for, else the environment's one.
pub fn languages(arg: Option<LangArg>) -> ReportLang {
    match arg {
        Some(LangArg::En) => ReportLang::One(Lang::En),
        Some(LangArg::Zh) => ReportLang::One(Lang::Zh),
        Some(LangArg::Both) => ReportLang::Both,
        None => ReportLang::One(Lang::from_environment()),
    }
}

/// The one language for the command line's own messages ("report written", errors) and the
/// window: `--lang en|zh`, else the environment's. `--lang both` asks for a bilingual report or
/// text, not bilingual messages: on an English system they stay English.
pub fn primary_language(arg: Option<LangArg>) -> Lang {
    match arg {
        Some(LangArg::En) => Lang::En,
        Some(LangArg::Zh) => Lang::Zh,
        Some(LangArg::Both) | None => Lang::from_environment(),
    }
}
