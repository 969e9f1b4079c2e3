//! The command line: `ramvram detect`, `ramvram advise`, and the window when no command is
//! given. Argument parsing is clap's; rendering text is [`text`]'s.

pub mod text;
pub mod text_bench;
pub mod text_training;
pub mod training_args;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::advisor;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::probe;
use crate::profile::{self, MachineProfile};

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
    /// Language of the output: en or zh (default: RAMVRAM_LANG, else the system locale).
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangArg>,
    /// With no command: open the window showing this profile instead of this machine.
    #[arg(long, value_name = "FILE")]
    pub profile: Option<PathBuf>,
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
        /// Profile to judge (from `ramvram detect --json`); default: this machine.
        #[arg(long, value_name = "FILE")]
        profile: Option<PathBuf>,
        /// Print the assessment as JSON.
        #[arg(long)]
        json: bool,
        /// Memory modules from this file: the output of `sudo dmidecode -t memory`.
        #[arg(long, value_name = "FILE")]
        dmidecode: Option<PathBuf>,
        /// A training plan to check against the machine (training-memory planner).
        #[command(flatten)]
        training: training_args::TrainingArgs,
    },
    /// Measure this machine: memory bandwidth (STREAM-style) or a folder's read speed.
    Bench {
        /// What to measure.
        #[command(subcommand)]
        what: BenchCommand,
    },
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

/// `--lang` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// Simplified Chinese.
    Zh,
}

impl From<LangArg> for Lang {
    fn from(l: LangArg) -> Lang {
        match l {
            LangArg::En => Lang::En,
            LangArg::Zh => Lang::Zh,
        }
    }
}

/// Runs a subcommand. `None` for no subcommand (the caller opens the window).
pub fn run(args: &Args) -> Option<ExitCode> {
    let lang = args
        .lang
        .map(Lang::from)
        .unwrap_or_else(Lang::from_environment);
    let code = match args.command.as_ref()? {
        Command::Detect {
            json,
            out,
            dmidecode,
        } => detect(lang, *json, out.as_deref(), dmidecode.as_deref()),
        Command::Advise {
            profile,
            json,
            dmidecode,
            training,
        } => advise(
            lang,
            profile.as_deref(),
            *json,
            dmidecode.as_deref(),
            training,
        ),
        Command::Bench { what } => bench(lang, what),
    };
    Some(code)
}

/// Replaces the profile's memory modules with those in a `dmidecode -t memory` file.
fn apply_dmidecode(lang: Lang, profile: &mut MachineProfile, file: &Path) -> Result<(), ExitCode> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        fail(
            lang,
            EXIT_BAD_INPUT,
            &format!("{}: cannot read: {e}", file.display()),
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
    Ok(())
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
            Err(e) => fail(lang, EXIT_OUTPUT_FAILED, &e.to_string()),
        };
    }
    let text = if json {
        serde_json::to_string_pretty(&profile).expect("profile serialises") + "\n"
    } else {
        text::hardware(lang, &advisor::assess(&profile))
    };
    print(&text)
}

/// Loads a profile for the command line, printing one line naming the file and field on error.
pub fn load_for_cli(lang: Lang, path: &Path) -> Result<MachineProfile, ExitCode> {
    match profile::load_profile(path) {
        Ok(loaded) => {
            for field in &loaded.ignored_fields {
                eprintln!(
                    "{}",
                    trf(
                        lang,
                        Msg::CliIgnoredField,
                        &[("file", &path.display().to_string()), ("field", field)]
                    )
                );
            }
            Ok(loaded.profile)
        }
        Err(e) => Err(fail(lang, EXIT_BAD_INPUT, &e.to_string())),
    }
}

fn advise(
    lang: Lang,
    profile: Option<&Path>,
    json: bool,
    dmidecode: Option<&Path>,
    training: &training_args::TrainingArgs,
) -> ExitCode {
    let mut machine = match profile {
        Some(path) => match load_for_cli(lang, path) {
            Ok(p) => p,
            Err(code) => return code,
        },
        None => probe::detect(),
    };
    if let Some(file) = dmidecode {
        if let Err(code) = apply_dmidecode(lang, &mut machine, file) {
            return code;
        }
    }
    let plan = match training.plan(&machine) {
        Ok(plan) => plan,
        Err(e) => return fail(lang, EXIT_BAD_INPUT, &e),
    };
    let assessment = advisor::assess_with(&machine, &advisor::Inputs { training: plan });
    if let Some(e) = assessment.training_error {
        return fail(
            lang,
            EXIT_BAD_INPUT,
            &crate::present::training::plan_error(lang, e),
        );
    }
    let text = if json {
        serde_json::to_string_pretty(&assessment).expect("assessment serialises") + "\n"
    } else {
        text::assessment(lang, &assessment, profile)
    };
    print(&text)
}

/// Set by Ctrl-C during a benchmark, so that it stops and removes its files.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_signal: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Makes Ctrl-C (SIGINT) and SIGTERM cancel the benchmark instead of killing the process, so
/// the storage benchmark's guard can delete its temporary folder.
fn catch_interrupts() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to an atomic.
    unsafe {
        let handler = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

fn bench(lang: Lang, what: &BenchCommand) -> ExitCode {
    catch_interrupts();
    let cancel = &INTERRUPTED;
    match what {
        BenchCommand::Memory {
            json,
            array_bytes,
            into,
        } => {
            // Read the profile first: a bad file is reported before the benchmark runs.
            let mut target = match into.as_deref().map(|p| load_for_cli(lang, p)).transpose() {
                Ok(t) => t,
                Err(code) => return code,
            };
            let available = probe::detect_available_memory();
            let mut config = crate::bench::memory::MemoryBenchConfig::for_this_machine(available);
            if let Some(b) = array_bytes {
                config.array_elements = (*b / 8).max(1) as usize;
            }
            eprintln!(
                "{}",
                trf(
                    lang,
                    Msg::BenchMemoryRunning,
                    &[
                        ("threads", &config.threads.to_string()),
                        (
                            "array",
                            &crate::format::gib(8 * config.array_elements as u64)
                        ),
                    ]
                )
            );
            let result = crate::bench::memory::run(&config, cancel, &|_| {});
            if let (Ok(m), Some(p), Some(path)) = (&result, target.as_mut(), into.as_deref()) {
                p.measurements.memory_bandwidth = Some(m.clone());
                if let Err(e) = profile::save_profile(p, path) {
                    return fail(lang, EXIT_OUTPUT_FAILED, &e.to_string());
                }
            }
            match result {
                Ok(m) if *json => {
                    print(&(serde_json::to_string_pretty(&m).expect("serialises") + "\n"))
                }
                Ok(m) => print(&text_bench::memory(lang, &m)),
                Err(crate::bench::BenchError::Cancelled) => cancelled(lang),
                Err(e) => fail(
                    lang,
                    EXIT_OUTPUT_FAILED,
                    &crate::present::bench::error(lang, &e),
                ),
            }
        }
        BenchCommand::Storage {
            folder,
            json,
            size_mib,
            into,
        } => {
            let mut target = match into.as_deref().map(|p| load_for_cli(lang, p)).transpose() {
                Ok(t) => t,
                Err(code) => return code,
            };
            let mut config = crate::bench::storage::StorageBenchConfig::default();
            if let Some(m) = size_mib {
                config.sequential_bytes = (*m).max(1) << 20;
            }
            eprintln!(
                "{}",
                trf(
                    lang,
                    Msg::BenchStorageRunning,
                    &[("path", &folder.display().to_string())]
                )
            );
            let result = crate::bench::storage::run(folder, &config, cancel, &|_| {});
            if let (Ok(r), Some(p), Some(path)) = (&result, target.as_mut(), into.as_deref()) {
                // One entry per folder, the latest first.
                p.measurements.storage.retain(|o| o.path != r.path);
                p.measurements.storage.insert(0, r.clone());
                if let Err(e) = profile::save_profile(p, path) {
                    return fail(lang, EXIT_OUTPUT_FAILED, &e.to_string());
                }
            }
            match result {
                Ok(s) if *json => {
                    print(&(serde_json::to_string_pretty(&s).expect("serialises") + "\n"))
                }
                Ok(s) => print(&text_bench::storage(lang, &s)),
                Err(crate::bench::BenchError::Cancelled) => cancelled(lang),
                Err(e @ crate::bench::BenchError::Path { .. }) => fail(
                    lang,
                    EXIT_BAD_INPUT,
                    &crate::present::bench::error(lang, &e),
                ),
                Err(e) => fail(
                    lang,
                    EXIT_OUTPUT_FAILED,
                    &crate::present::bench::error(lang, &e),
                ),
            }
        }
    }
}

/// Exit status after Ctrl-C: 128 + SIGINT, as shells report it.
pub const EXIT_INTERRUPTED: u8 = 130;

fn cancelled(lang: Lang) -> ExitCode {
    eprintln!("ramvram: {}", tr(lang, Msg::BenchCancelled));
    ExitCode::from(EXIT_INTERRUPTED)
}

fn print(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`ramvram advise | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(EXIT_OUTPUT_FAILED),
    }
}

fn fail(lang: Lang, code: u8, message: &str) -> ExitCode {
    eprintln!("ramvram: {}: {message}", tr(lang, Msg::CliError));
    ExitCode::from(code)
}

/// With no command and no display: print this machine's (or `--profile`'s) assessment and a
/// one-line hint on how to get the window.
pub fn headless_fallback(args: &Args, reason: &str) -> ExitCode {
    let lang = args
        .lang
        .map(Lang::from)
        .unwrap_or_else(Lang::from_environment);
    let code = advise(
        lang,
        args.profile.as_deref(),
        false,
        None,
        &training_args::TrainingArgs::default(),
    );
    eprintln!(
        "{}",
        trf(lang, Msg::CliNoDisplayHint, &[("reason", reason)])
    );
    code
}
