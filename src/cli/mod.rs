//! The command line: `ramvram detect`, `advise`, `report`, and the window when no command is
//! given. Argument parsing is clap's; rendering text is [`text`]'s.

mod bench_cmd;
pub mod collect;
pub mod fleet;
pub mod help;
pub mod inference_args;
mod layout;
pub mod prometheus;
pub mod text;
pub mod text_bench;
pub mod text_inference;
pub mod text_training;
pub mod text_workload;
pub mod training_args;
pub mod usage_error;
pub mod watch;
pub mod workload_args;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::advisor;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::errors::profile_error;
use crate::probe;
use crate::profile::{self, MachineProfile};
use crate::report::{self, ReportLang};

/// Exit status for bad input (a missing or invalid profile), as for clap's usage errors.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when output could not be written.
pub const EXIT_OUTPUT_FAILED: u8 = 1;

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
}

impl MachineArgs {
    fn is_fleet(&self) -> bool {
        self.profile_dir.is_some() || self.slurm.is_some() || self.prometheus.is_some()
    }

    fn prometheus_source(&self) -> Option<fleet::PrometheusSource<'_>> {
        Some(fleet::PrometheusSource {
            url: self.prometheus.as_deref()?,
            mapping: self.mapping.as_deref(),
        })
    }

    fn load_fleet(
        &self,
        lang: Lang,
    ) -> Result<
        (
            Vec<advisor::fleet::FleetMachine>,
            crate::inputs::fleet::SkippedFiles,
        ),
        String,
    > {
        fleet::load(
            lang,
            self.profile_dir.as_deref(),
            self.slurm.as_deref(),
            self.prometheus_source(),
        )
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
    fn as_str(self) -> &'static str {
        match self {
            FormatArg::Pdf => "pdf",
            FormatArg::Md => "md",
            FormatArg::Json => "json",
        }
    }

    fn of(f: report::Format) -> FormatArg {
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

/// Runs a subcommand. `None` for no subcommand (the caller opens the window).
pub fn run(args: &Args) -> Option<ExitCode> {
    let langs = languages(args.lang);
    let lang = primary_language(args.lang);
    // A report's format, checked against its file name before anything is assessed.
    let chosen_format = match args.command.as_ref()? {
        Command::Report { format, out, .. } => match report_format(lang, *format, out) {
            Ok(f) => Some(f),
            Err(e) => return Some(fail(lang, EXIT_BAD_INPUT, &e)),
        },
        _ => None,
    };
    let chosen_format = || chosen_format.expect("a report's format was chosen");
    let code = match args.command.as_ref()? {
        Command::Detect {
            json,
            out,
            dmidecode,
        } => detect(lang, *json, out.as_deref(), dmidecode.as_deref()),
        Command::Bench { what } => bench_cmd::bench(lang, what),
        Command::Watch(w) => watch::watch(lang, w),
        Command::Diagnose {
            trace: Some(trace),
            json,
            ..
        } => watch::diagnose_file(lang, trace, *json),
        Command::Diagnose {
            json, prometheus, ..
        } => prometheus::diagnose(lang, prometheus, *json),
        Command::Collect(c) => collect::collect(lang, c),
        Command::Advise { machines, json, .. } if machines.is_fleet() => {
            if *json {
                match machines.load_fleet(lang) {
                    Ok((machines, skipped)) => fleet::print(lang, &machines, &skipped, true),
                    Err(e) => fail(lang, EXIT_BAD_INPUT, &e),
                }
            } else {
                fleet::print_table(
                    lang,
                    machines.profile_dir.as_deref(),
                    machines.slurm.as_deref(),
                    machines.prometheus_source(),
                )
            }
        }
        Command::Advise {
            machines,
            json,
            training,
            workload,
            inference,
        } => match assessment(lang, machines, training, workload, inference) {
            Ok(a) if *json => print(&json_text(&a)),
            Ok(a) => {
                let texts: Vec<String> = langs
                    .langs()
                    .into_iter()
                    .map(|l| text::assessment(l, &a, machines.profile.as_deref()))
                    .collect();
                print_text(&texts.join("\n"))
            }
            Err(code) => code,
        },
        Command::Report {
            machines,
            out,
            redact,
            ..
        } if machines.is_fleet() => match machines.load_fleet(lang) {
            Ok((machines, skipped)) => {
                let options = report::ReportOptions {
                    format: chosen_format(),
                    lang: langs,
                    redact: *redact,
                    date: report::today(),
                    source_file: None,
                };
                let written =
                    report::render_fleet(&machines, &skipped, &options).and_then(|bytes| {
                        crate::fsutil::write_atomic(out, &bytes)
                            .map_err(|e| crate::present::errors::write_failed(lang, out, &e))
                    });
                match written {
                    Ok(()) => {
                        let file = out.display().to_string();
                        say(&trf(lang, Msg::CliReportWritten, &[("file", &file)]));
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(lang, EXIT_OUTPUT_FAILED, &e),
                }
            }
            Err(e) => fail(lang, EXIT_BAD_INPUT, &e),
        },
        Command::Report {
            machines,
            out,
            redact,
            training,
            workload,
            inference,
            trace,
            ..
        } => match assessment(lang, machines, training, workload, inference) {
            Ok(a) => {
                let live = match trace.as_deref().map(|t| watch::monitor_report(lang, t)) {
                    Some(Ok(m)) => Some(m),
                    Some(Err(code)) => return Some(code),
                    None => None,
                };
                let options = report::ReportOptions {
                    format: chosen_format(),
                    lang: langs,
                    redact: *redact,
                    date: report::today(),
                    source_file: machines.profile.as_ref().map(|p| p.display().to_string()),
                };
                match report::write_with_monitor(&a, &options, live.as_ref(), out) {
                    Ok(()) => {
                        let file = out.display().to_string();
                        say(&trf(lang, Msg::CliReportWritten, &[("file", &file)]));
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(lang, EXIT_OUTPUT_FAILED, &e.text(lang)),
                }
            }
            Err(code) => code,
        },
    };
    Some(code)
}

fn json_text(a: &advisor::Assessment) -> String {
    serde_json::to_string_pretty(a).expect("assessment serialises") + "\n"
}

/// Replaces the profile's memory modules with those in a `dmidecode -t memory` file.
fn apply_dmidecode(lang: Lang, profile: &mut MachineProfile, file: &Path) -> Result<(), ExitCode> {
    let text =
        crate::fsutil::read_input_string(file, crate::fsutil::MAX_INPUT_BYTES).map_err(|e| {
            fail(
                lang,
                EXIT_BAD_INPUT,
                &crate::present::errors::read_failed(lang, file, &e),
            )
        })?;
    let dimms = probe::dimm::parse_dmidecode(&text);
    if dimms.is_empty() {
        return Err(fail(
            lang,
            EXIT_BAD_INPUT,
            &trf(
                lang,
                Msg::CliDmidecodeEmpty,
                &[("file", &file.display().to_string())],
            ),
        ));
    }
    probe::dimm::apply_dimms(&mut profile.memory, dimms);
    probe::dimm::apply_slots(&mut profile.memory, probe::dimm::dmidecode_slots(&text));
    // The modules join the profile: the profile's caps apply (module count, string lengths).
    profile::limits::check(profile).map_err(|(field, problem)| {
        let e = profile::ProfileError::Invalid {
            path: file.to_path_buf(),
            field,
            problem: Box::new(problem),
        };
        fail(lang, EXIT_BAD_INPUT, &profile_error(lang, &e))
    })
}

fn detect(lang: Lang, json: bool, out: Option<&Path>, dmidecode: Option<&Path>) -> ExitCode {
    let mut profile = probe::detect();
    if let Some(file) = dmidecode {
        if let Err(code) = apply_dmidecode(lang, &mut profile, file) {
            return code;
        }
    }
    if let Some(path) = out {
        return match profile::save_profile(&profile, path) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(lang, EXIT_OUTPUT_FAILED, &profile_error(lang, &e)),
        };
    }
    let text = if json {
        serde_json::to_string_pretty(&profile).expect("profile serialises") + "\n"
    } else {
        crate::codespan::plain(&text::hardware(lang, &advisor::assess(&profile)))
    };
    print(&text)
}

fn warn_ignored(lang: Lang, path: &Path, fields: &[String]) {
    for field in fields {
        let file = path.display().to_string();
        say(&trf(
            lang,
            Msg::CliIgnoredField,
            &[("file", &file), ("field", field)],
        ));
    }
}

/// Loads a profile for the command line, printing one line naming the file and field on error.
pub fn load_for_cli(lang: Lang, path: &Path) -> Result<MachineProfile, ExitCode> {
    match profile::load_profile(path) {
        Ok(loaded) => {
            warn_ignored(lang, path, &loaded.ignored_fields);
            Ok(loaded.profile)
        }
        Err(e) => Err(fail(lang, EXIT_BAD_INPUT, &profile_error(lang, &e))),
    }
}

/// The machine (a profile file, or detected), the scenario and the flags, assessed. Bad input
/// prints one line and gives exit status 2.
fn assessment(
    lang: Lang,
    machines: &MachineArgs,
    training: &training_args::TrainingArgs,
    workload: &workload_args::WorkloadArgs,
    inference: &inference_args::InferenceArgs,
) -> Result<advisor::Assessment, ExitCode> {
    let (profile, scenario) = (machines.profile.as_deref(), machines.scenario.as_deref());
    let mut machine = match profile {
        Some(path) => load_for_cli(lang, path)?,
        None => probe::detect(),
    };
    if let Some(file) = machines.dmidecode.as_deref() {
        apply_dmidecode(lang, &mut machine, file)?;
    }
    let from_file = match scenario {
        Some(path) => match crate::inputs::scenario::load_scenario(path) {
            Ok((s, ignored)) => {
                warn_ignored(lang, path, &ignored);
                s
            }
            Err(e) => {
                return Err(fail(
                    lang,
                    EXIT_BAD_INPUT,
                    &crate::present::errors::scenario_error(lang, &e),
                ));
            }
        },
        None => crate::inputs::scenario::Scenario::default(),
    };
    // With --inference the model flags describe the model served, not a training plan.
    let serve = match inference.plan(lang, training, &machine) {
        Ok(p) => p,
        Err(e) => return Err(fail(lang, EXIT_BAD_INPUT, &e)),
    };
    let plan = match serve {
        Some(_) => from_file.training,
        None => match training.plan(lang, &machine) {
            Ok(Some(plan)) => Some(plan),
            Ok(None) => from_file.training,
            Err(e) => return Err(fail(lang, EXIT_BAD_INPUT, &e)),
        },
    };
    let serve = serve.or(from_file.inference);
    let work = match workload.workload(lang) {
        Ok(Some(w)) => {
            say(&format!("ramvram: {}", w.note));
            Some(w.workload)
        }
        Ok(None) => from_file.workload,
        Err(e) => return Err(fail(lang, EXIT_BAD_INPUT, &e)),
    };
    let a = advisor::assess_with(
        &machine,
        &advisor::Inputs {
            training: plan,
            workload: work,
            inference: serve,
        },
    );
    if let Some(e) = a.inference_error {
        return Err(fail(
            lang,
            EXIT_BAD_INPUT,
            crate::present::inference::error(lang, e),
        ));
    }
    match a.training_error {
        Some(e) => Err(fail(
            lang,
            EXIT_BAD_INPUT,
            &crate::present::training::plan_error(lang, e),
        )),
        None => Ok(a),
    }
}

/// Removes terminal control characters, bidirectional formatting and noncharacters
/// ([`crate::sanitize::clean`]): profiles come from other machines, and a host name must not be
/// able to move the cursor or retitle the terminal.
pub fn printable(text: &str) -> String {
    crate::sanitize::clean(text).into_owned()
}

/// Writes one line to standard error, code spans without their backticks
/// ([`crate::codespan`]). A closed or full stderr (`2>/dev/full`, a closed pipe)
/// is ignored rather than a panic, as `eprintln!` would give: the exit status still says what
/// happened.
pub(crate) fn say(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", printable(&crate::codespan::plain(text)));
    let _ = err.flush();
}

/// Prints text for a reader (not JSON): code spans lose their backticks ([`crate::codespan`]),
/// as the commands in hints must be copied without them.
pub(crate) fn print_text(text: &str) -> ExitCode {
    print(&crate::codespan::plain(text))
}

/// Prints `text` as it is (JSON, or text already without code-span markup).
pub(crate) fn print(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out
        .write_all(printable(text).as_bytes())
        .and_then(|()| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`ramvram advise | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            say(&format!(
                "ramvram: {}: stdout: {e}",
                tr(Lang::from_environment(), Msg::CliError)
            ));
            ExitCode::from(EXIT_OUTPUT_FAILED)
        }
    }
}

/// Tells stderr when `RAMVRAM_LANG` names a language ramvram doesn't have, in the language used
/// instead (the system's, else English).
pub fn warn_unknown_language() {
    if let Some(value) = Lang::unknown_override() {
        let lang = Lang::from_environment();
        say(&format!(
            "ramvram: {}",
            printable(&trf(
                lang,
                Msg::CliLangUnknown,
                &[("value", &value), ("lang", lang.native_name())],
            ))
        ));
    }
}

fn fail(lang: Lang, code: u8, message: &str) -> ExitCode {
    say(&format!("ramvram: {}: {message}", tr(lang, Msg::CliError)));
    ExitCode::from(code)
}

/// With no command and no window: print this machine's (or `--profile`'s) assessment and a
/// one-line hint on how to get the window; `reason` says why there is no window, in the
/// language of [`primary_language`].
pub fn headless_fallback(args: &Args, reason: &str) -> ExitCode {
    let lang = primary_language(args.lang);
    // `ramvram --prometheus URL --instance NODE …` without a display: the same range as text.
    if args.window_prometheus.prometheus.is_some() {
        let code = prometheus::diagnose(lang, &args.window_prometheus.as_diagnose(), false);
        say(&trf(lang, Msg::CliNoDisplayHint, &[("reason", reason)]));
        return code;
    }
    let (none, no_workload) = (
        training_args::TrainingArgs::default(),
        workload_args::WorkloadArgs::default(),
    );
    let machines = MachineArgs {
        profile: args.profile.clone(),
        profile_dir: None,
        slurm: None,
        prometheus: None,
        fleet: false,
        mapping: None,
        scenario: None,
        dmidecode: None,
    };
    let no_inference = inference_args::InferenceArgs::default();
    let code = match assessment(lang, &machines, &none, &no_workload, &no_inference) {
        Ok(a) => print_text(&text::assessment(lang, &a, args.profile.as_deref())),
        Err(code) => code,
    };
    say(&trf(lang, Msg::CliNoDisplayHint, &[("reason", reason)]));
    code
}

pub use bench_cmd::EXIT_INTERRUPTED;
