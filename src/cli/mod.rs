//! The command line: `ramvram detect`, `advise`, `report`, and the window when no command is
//! given. Argument parsing is clap's; rendering text is [`text`]'s.

mod args;
mod bench_cmd;
#[cfg(unix)]
mod child_group;
pub mod collect;
pub mod diffusion_args;
pub mod fleet;
mod fleet_json;
mod fleet_report;
pub mod help;
pub mod inference_args;
mod interrupt;
#[cfg(unix)]
mod job_control;
pub mod knob_args;
pub mod llama_args;
pub mod model_args;
mod output;
mod profile_file;
pub mod prometheus;
pub mod text;
pub mod text_bench;
pub mod training_args;
pub mod training_values;
pub mod usage_error;
pub mod watch;
pub mod weights_args;
pub mod workload_args;

use std::path::Path;
use std::process::ExitCode;

use crate::advisor;
use crate::i18n::{Lang, Msg, trf};
use crate::present::errors::profile_error;
use crate::probe;
use crate::profile::{self, MachineProfile};
use crate::report::{self};
pub use args::*;
pub use output::{
    EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, columns, exit_status, printable, warn_unknown_language,
};
pub(crate) use output::{fail, print, print_text, say};
pub use profile_file::load_for_cli;
use profile_file::warn_ignored;

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
                fleet_json::print(
                    lang,
                    machines.profile_dir.as_deref(),
                    machines.slurm.as_deref(),
                    machines.prometheus_source(),
                )
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
        } => match assessment(lang, machines, training, workload, inference, false) {
            Ok(a) if *json => print(&json_text(&a)),
            Ok(a) => {
                let texts: Vec<String> = langs
                    .langs()
                    .into_iter()
                    .map(|l| text::assessment_at(l, &a, machines.profile.as_deref(), columns()))
                    .collect();
                print_text(&texts.join("\n"))
            }
            Err(code) => code,
        },
        Command::Report {
            machines,
            out,
            redact,
            prices,
            prices_template,
            ..
        } if machines.is_fleet() => {
            let options = report::ReportOptions {
                format: chosen_format(),
                lang: langs,
                redact: *redact,
                date: report::today(),
                source_file: None,
            };
            let from = fleet_report::FleetSources {
                dir: machines.profile_dir.as_deref(),
                slurm: machines.slurm.as_deref(),
                prometheus: machines.prometheus_source(),
            };
            let prices = fleet_report::Prices {
                list: prices.as_deref(),
                template: prices_template.as_deref(),
            };
            fleet_report::write(lang, from, &options, prices, out)
        }
        Command::Report {
            prices,
            prices_template,
            ..
        } if prices.is_some() || prices_template.is_some() => fail(
            lang,
            EXIT_BAD_INPUT,
            crate::i18n::tr(lang, Msg::LabOrderPricesNeedFleet),
        ),
        Command::Report {
            machines,
            out,
            redact,
            training,
            workload,
            inference,
            trace,
            ..
        } => match assessment(lang, machines, training, workload, inference, *redact) {
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
    Some(exit_status(code))
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
        crate::codespan::plain(&text::hardware_at(
            lang,
            &advisor::assess(&profile, &crate::advisor::Scenario::NONE),
            columns(),
        ))
    };
    print(&text)
}

/// The machine (a profile file, or detected), the scenario and the flags, assessed; with
/// `redact`, the redacted machine is assessed ([`advisor::redacted`]), for a redacted report.
/// Bad input prints one line and gives exit status 2.
fn assessment(
    lang: Lang,
    machines: &MachineArgs,
    training: &training_args::TrainingArgs,
    workload: &workload_args::WorkloadArgs,
    inference: &inference_args::InferenceArgs,
    redact: bool,
) -> Result<advisor::Assessment, ExitCode> {
    let (profile, scenario) = (machines.profile.as_deref(), machines.scenario.as_deref());
    let mut machine = match profile {
        Some(path) => load_for_cli(lang, path)?,
        // This machine, now: its GPUs' free memory and who holds the rest count.
        None => profile::MachineProfile {
            live: true,
            ..probe::detect()
        },
    };
    if let Some(file) = machines.dmidecode.as_deref() {
        apply_dmidecode(lang, &mut machine, file)?;
    }
    let what_if = machines.what_if();
    if !what_if.is_empty() {
        machine = advisor::whatif::apply(&machine, &what_if);
        say(&crate::present::whatif::note(lang, &what_if));
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
        Ok(Some(mut w)) => {
            say(&format!("ramvram: {}", w.note));
            // The dataset's own file system, when the machine is this one and --storage wasn't
            // given.
            let storage = workload.knobs.0.get(crate::advisor::knobs::KnobId::Storage);
            let disk = match (&workload.dataset, storage, profile) {
                (Some(scan), None, None) => {
                    crate::inputs::dataset::disk_of(&scan.root, &machine.disks)
                }
                _ => None,
            };
            if let Some(d) = disk.filter(|d| d.kind != crate::profile::DiskKind::Unknown) {
                w.workload.storage = Some(d.kind);
                say(&format!(
                    "ramvram: {}",
                    trf(
                        lang,
                        Msg::DatasetStorage,
                        &[
                            ("mount", &crate::sanitize::path(&d.mount_point)),
                            ("kind", crate::present::disk_kind(lang, d.kind)),
                        ],
                    )
                ));
            }
            Some(w.workload)
        }
        Ok(None) => from_file.workload,
        Err(e) => return Err(fail(lang, EXIT_BAD_INPUT, &e)),
    };
    if let Some(m) = &training.model {
        let overridden = training.model_overrides(inference.kv_heads.is_some());
        let overridden: Vec<&str> = overridden.iter().map(String::as_str).collect();
        say(&format!("ramvram: {}", m.note(lang, &overridden)));
    }
    let scenario = advisor::Scenario {
        training: plan,
        workload: work,
        inference: serve,
        ..advisor::Scenario::NONE
    };
    let a = match redact {
        true => advisor::redacted::redacted_assessment(&machine, &scenario),
        false => advisor::assess(&machine, &scenario),
    };
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

/// With no command and no window: print this machine's (or `--profile`'s) assessment and a
/// one-line hint on how to get the window; `reason` says why there is no window, in the
/// language of [`primary_language`].
pub fn headless_fallback(args: &Args, reason: &str) -> ExitCode {
    exit_status(fallback(args, reason))
}

fn fallback(args: &Args, reason: &str) -> ExitCode {
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
        shm_size: None,
        wsl_memory: None,
        ram: None,
        swap: None,
        memory_limit: None,
        gpu_wired_limit: None,
        page_file: None,
        gtt: None,
        numa_bind: None,
    };
    let no_inference = inference_args::InferenceArgs::default();
    let code = match assessment(lang, &machines, &none, &no_workload, &no_inference, false) {
        Ok(a) => print_text(&text::assessment_at(
            lang,
            &a,
            args.profile.as_deref(),
            columns(),
        )),
        Err(code) => code,
    };
    say(&trf(lang, Msg::CliNoDisplayHint, &[("reason", reason)]));
    code
}

pub use interrupt::EXIT_INTERRUPTED;
