//! `ramvram watch` (sample this machine, a process or a command, then diagnose) and
//! `ramvram diagnose FILE` (replay a recorded trace through the same recognisers).

use std::cell::{Cell, RefCell};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde::Serialize;

use super::{EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, fail, print};
use crate::advisor::diagnose::{self, Summary};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::parse::ValueError;
use crate::present::monitor as words;
use crate::probe::live::{self, Sampler, gpu, watch::Step};
use crate::report::terminal::section;
use crate::trace::jsonl::{self, TraceNote, TraceWriter};
use crate::trace::{Trace, TraceHeader};

/// Seconds between two status lines on standard error, at least: three quarters of a second,
/// so that a 1 s interval whose samples come a few milliseconds early (the sampler's own read
/// time, a busy machine) still prints every sample, and a 100 ms interval prints about one line
/// a second rather than ten.
const LIVE_LINE_EVERY_S: f64 = 0.75;

/// Exit status when the command to watch can't be started (as shells report "not found").
pub const EXIT_CANNOT_START: u8 = 127;

/// `ramvram watch` options.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// Watch this process and its children (RSS, PSS, CPU, workers) besides the machine.
    #[arg(long, value_name = "PID", conflicts_with = "command")]
    pub pid: Option<u32>,
    /// Time between samples: 500ms, 1s, 2s… (at least 100ms).
    #[arg(long, value_parser = parse_interval, default_value = "1s")]
    pub interval: Duration,
    /// Stop after this long (10m, 1h); default: until the command ends or Ctrl-C.
    #[arg(long, value_parser = parse_duration)]
    pub duration: Option<Duration>,
    /// Write the trace (JSON Lines, docs/trace.md) to FILE as it is sampled.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print the diagnosis as JSON (the live lines still go to standard error).
    #[arg(long)]
    pub json: bool,
    /// Test hook: GPUs from a fake source playing these utilisations (`98,2,2,2`; several
    /// GPUs separated by `/`) instead of NVML.
    #[arg(long, hide = true, value_name = "SERIES")]
    pub fake_gpu_series: Option<String>,
    /// The command to run and watch, after `--` (`ramvram watch -- python train.py`); its exit
    /// code becomes ramvram's.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

/// Parses a duration: a number with `ms`, `s`, `m` or `h` (`500ms`, `1.5s`, `10m`), or plain
/// seconds.
///
/// # Errors
/// A message naming the text.
pub fn parse_duration(text: &str) -> Result<Duration, ValueError> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    let bad = || ValueError::new(Msg::MonitorCliBadDuration, text);
    let v: f64 = number.trim().parse().map_err(|_| bad())?;
    let secs = v * scale;
    if !(secs.is_finite() && secs > 0.0 && secs <= 366.0 * 86_400.0) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

fn parse_interval(text: &str) -> Result<Duration, ValueError> {
    let d = parse_duration(text)?;
    if d < Duration::from_millis(100) || d > Duration::from_secs(3600) {
        return Err(ValueError::new(Msg::ValueIntervalRange, text));
    }
    Ok(d)
}

fn fake_series(text: &str) -> Result<Vec<Vec<u32>>, String> {
    text.split('/')
        .map(|gpu| {
            gpu.split(',')
                .map(|v| {
                    v.trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|u| *u <= 100)
                        .ok_or_else(|| format!("--fake-gpu-series: `{v}` is not 0–100"))
                })
                .collect()
        })
        .collect()
}

/// What `--json` prints: the summary, and the command's exit code when one was run.
#[derive(Serialize)]
struct JsonReport<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated_line: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ignored_fields: Vec<String>,
}

/// The command's exit status as a shell reports it: its code, or 128 + the signal that
/// ended it.
fn shell_status(status: std::process::ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return 128 + sig;
        }
    }
    status.code().unwrap_or(1)
}

pub(super) fn watch(lang: Lang, args: &WatchArgs) -> ExitCode {
    super::interrupt::catch_interrupts();
    let interrupted = &super::interrupt::INTERRUPTED;
    let meter: Box<dyn gpu::GpuMeter> = match args.fake_gpu_series.as_deref() {
        Some(text) => match fake_series(text) {
            Ok(series) => Box::new(gpu::FakeGpuSeries::new(series)),
            Err(e) => return fail(lang, EXIT_BAD_INPUT, &e),
        },
        None => Box::new(gpu::SystemMeter),
    };
    let profile = crate::probe::live::profile_for_target(crate::probe::detect(), args.pid);
    let header = TraceHeader::new(Some(profile), args.interval.as_secs_f64());
    let mut writer = match args.record.as_deref() {
        Some(path) => match TraceWriter::create(path, &header) {
            Ok(w) => Some(w),
            Err(e) => {
                let text = crate::present::errors::write_failed(lang, path, &e);
                return fail(lang, EXIT_OUTPUT_FAILED, &text);
            }
        },
        None => None,
    };
    let interval = words::duration(lang, args.interval.as_secs_f64());
    let mut child = None;
    let command_name = args
        .command
        .first()
        .map(|c| super::printable(&c.to_string_lossy()));
    let target = if let Some(program) = args.command.first() {
        let name = command_name.clone().unwrap_or_default();
        let mut command = std::process::Command::new(program);
        command.args(&args.command[1..]);
        // Its own process group, so that a signal ramvram gets is passed to the command and
        // every process it started, and to nothing else of the caller's (a pipeline's `tee`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        match command.spawn() {
            Ok(c) => {
                let pid = c.id();
                #[cfg(unix)]
                super::job_control::follow(pid);
                super::say(&trf(
                    lang,
                    Msg::MonitorCliStartedCommand,
                    &[
                        ("command", &name),
                        ("pid", &pid.to_string()),
                        ("interval", &interval),
                    ],
                ));
                child = Some(c);
                Some(pid)
            }
            Err(e) => {
                let msg = trf(
                    lang,
                    Msg::MonitorCliCannotStart,
                    &[("command", &name), ("error", &e.to_string())],
                );
                return fail(lang, EXIT_CANNOT_START, &msg);
            }
        }
    } else {
        args.pid
    };
    let mut sampler = Sampler::new(target, meter);
    if child.is_none() {
        match args.pid {
            Some(pid) if sampler.target_ended() => {
                let msg = trf(lang, Msg::MonitorCliNoSuchPid, &[("pid", &pid.to_string())]);
                return fail(lang, EXIT_BAD_INPUT, &msg);
            }
            Some(pid) => super::say(&trf(
                lang,
                Msg::MonitorCliStartedPid,
                &[("pid", &pid.to_string()), ("interval", &interval)],
            )),
            None => super::say(&trf(
                lang,
                Msg::MonitorCliStartedMachine,
                &[("interval", &interval)],
            )),
        }
    }
    if let Some(path) = &args.record {
        let file = path.display().to_string();
        super::say(&trf(lang, Msg::MonitorCliRecording, &[("file", &file)]));
    }

    let child = RefCell::new(child);
    let status: Cell<Option<std::process::ExitStatus>> = Cell::new(None);
    let stop = || {
        if interrupted.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(c) = child.borrow_mut().as_mut() {
            if let Ok(Some(s)) = c.try_wait() {
                status.set(Some(s));
                return true;
            }
        }
        false
    };
    let mut trace = Trace::new(header);
    let mut record_failed = false;
    let watching_pid = args.pid.is_some();
    let mut last_line: Option<f64> = None;
    let mut on_sample = |s: crate::trace::Sample| {
        if let Some(w) = writer.as_mut() {
            if let Err(e) = w.append(&s) {
                let file = args.record.as_deref().unwrap_or(Path::new("-"));
                let error = crate::present::errors::write_failed(lang, file, &e);
                let at = words::duration(lang, s.t);
                super::say(&format!(
                    "ramvram: {}",
                    trf(
                        lang,
                        Msg::MonitorCliRecordFailed,
                        &[("error", &error), ("t", &at)]
                    )
                ));
                writer = None;
                record_failed = true;
            }
        }
        let ended = s.process.is_none() && watching_pid;
        // About one line a second, however short the interval: a status, not a flood.
        if ended || last_line.is_none_or(|t| s.t - t >= LIVE_LINE_EVERY_S) {
            let mut line = super::printable(&words::live_line(lang, &s));
            if ended {
                let pid = args.pid.unwrap_or_default().to_string();
                line.push_str(&trf(lang, Msg::MonitorLiveProcessGone, &[("pid", &pid)]));
            }
            super::say(&line);
            last_line = Some(s.t);
        }
        trace.samples.push(s);
        if ended { Step::Stop } else { Step::Continue }
    };
    live::watch::run(
        &mut sampler,
        args.interval,
        args.duration,
        &stop,
        &mut on_sample,
    );
    let was_interrupted = interrupted.load(Ordering::Relaxed);
    if was_interrupted {
        super::say(tr(lang, Msg::MonitorCliInterrupted));
    }
    // The signal that stopped ramvram goes to the command's process group, which then has
    // a while to end before it is killed. A command still running after --duration is left
    // running: it is the user's.
    let signal = super::interrupt::interrupting_signal().filter(|_| was_interrupted);
    if let Some(c) = child.borrow_mut().as_mut() {
        if status.get().is_none() && (was_interrupted || args.duration.is_none()) {
            status.set(end_child(c, signal));
        }
    }
    #[cfg(unix)]
    super::job_control::release();
    let exit_code = status.get().map(shell_status);
    if let (Some(code), Some(name)) = (exit_code, command_name.as_deref()) {
        super::say(&trf(
            lang,
            Msg::MonitorCliExitCode,
            &[("command", name), ("code", &code.to_string())],
        ));
    }
    let summary = diagnose::diagnose(&trace);
    let printed = if args.json {
        print(&json(&summary, exit_code, &[]))
    } else {
        super::print_text(&text(lang, &summary, &[]))
    };
    if printed != ExitCode::SUCCESS {
        return printed;
    }
    if was_interrupted {
        // 128 + the signal, as a shell reports a run it stopped (whatever the command did).
        let code = signal.map_or(super::interrupt::EXIT_INTERRUPTED, |s| 128 + s as u8);
        return ExitCode::from(code);
    }
    match exit_code {
        Some(code) if code != 0 => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        // The run went well but its recording stopped part-way: an error.
        _ if record_failed => ExitCode::from(EXIT_OUTPUT_FAILED),
        _ => ExitCode::SUCCESS,
    }
}

/// Passes `signal` (when ramvram was stopped by one) to the command's process group, waits up
/// to 10 s for every process of the group to end (the command and whatever it started in its
/// group: a worker that ignores the signal counts too), then kills the group (`SIGKILL`) and
/// waits for it ([`super::child_group::end_groups`]). Without a signal, waits up to 5 s for the
/// command alone. Returns how the command ended, when it did.
fn end_child(c: &mut std::process::Child, signal: Option<i32>) -> Option<std::process::ExitStatus> {
    #[cfg(unix)]
    if let (Some(sig), Ok(group)) = (signal, libc::pid_t::try_from(c.id())) {
        let mut status = None;
        super::child_group::end_groups(&[group], sig, &mut || {
            if status.is_none() {
                status = c.try_wait().ok().flatten();
            }
        });
        return status.or_else(|| c.wait().ok());
    }
    let waits = if signal.is_some() { 200 } else { 100 };
    for _ in 0..waits {
        if let Ok(Some(s)) = c.try_wait() {
            return Some(s);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // Without a signal the command is the user's: left running.
    signal?;
    let _ = c.kill();
    c.wait().ok()
}

pub(super) fn diagnose_file(lang: Lang, file: &Path, as_json: bool) -> ExitCode {
    let loaded = match jsonl::read_trace(file) {
        Ok(l) => l,
        Err(e) => {
            let text = crate::present::errors::trace_error(lang, &e);
            return fail(lang, EXIT_BAD_INPUT, &text);
        }
    };
    let summary = diagnose::diagnose(&loaded.trace);
    let name = file.display().to_string();
    let notes: Vec<String> = loaded
        .notes
        .iter()
        .map(|n| words::trace_note(lang, &name, n))
        .collect();
    for n in &notes {
        super::say(&format!("ramvram: {n}"));
    }
    if as_json {
        print(&json(&summary, None, &loaded.notes))
    } else {
        super::print_text(&text(lang, &summary, &[]))
    }
}

/// A trace file read and diagnosed for a report; notes go to standard error. Bad input prints
/// one line and gives exit status 2.
pub(super) fn monitor_report(
    lang: Lang,
    file: &Path,
) -> Result<crate::report::monitor::MonitorReport, ExitCode> {
    let loaded = jsonl::read_trace(file).map_err(|e| {
        fail(
            lang,
            EXIT_BAD_INPUT,
            &crate::present::errors::trace_error(lang, &e),
        )
    })?;
    let name = file.display().to_string();
    for n in &loaded.notes {
        super::say(&format!("ramvram: {}", words::trace_note(lang, &name, n)));
    }
    Ok(crate::report::monitor::MonitorReport {
        source: Some(name),
        summary: diagnose::diagnose(&loaded.trace),
        trace: loaded.trace,
    })
}

fn json(summary: &Summary, exit_code: Option<i32>, notes: &[TraceNote]) -> String {
    let report = JsonReport {
        summary,
        exit_code,
        truncated_line: notes.iter().find_map(|n| match n {
            TraceNote::TruncatedLastLine(l) => Some(*l),
            _ => None,
        }),
        ignored_fields: notes
            .iter()
            .flat_map(|n| match n {
                TraceNote::IgnoredFields(f) => f.clone(),
                _ => Vec::new(),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&report).expect("summary serialises") + "\n"
}

/// The diagnosis as text: summary, peaks, then each diagnosis with its time range and advice.
pub fn text(lang: Lang, s: &Summary, notes: &[String]) -> String {
    text_with(lang, s, notes, &|d| words::title_with_range(lang, d))
}

/// [`text`] with each diagnosis's heading from `heading` (a trace from a metrics server shows
/// its ranges on the clock).
pub fn text_with(
    lang: Lang,
    s: &Summary,
    notes: &[String],
    heading: &dyn Fn(&diagnose::Diagnosis) -> String,
) -> String {
    let mut out = String::new();
    section(&mut out, tr(lang, Msg::MonitorCliHeading));
    let _ = writeln!(out, "  {}", words::summary_line(lang, s));
    for n in notes {
        let _ = writeln!(out, "  {n}");
    }
    if s.samples == 0 {
        let _ = writeln!(out, "  {}", tr(lang, Msg::MonitorNoSamples));
        return out;
    }
    // Peaks and diagnoses: the report's blocks, drawn for the terminal.
    out.push_str(&crate::report::terminal::render_width(
        &crate::present::document::monitor::diagnoses(lang, s, heading),
        super::output::columns(),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("3"), Ok(Duration::from_secs(3)));
        for bad in ["", "fast", "-1s", "0s", "NaNs", "1e30h"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert!(parse_interval("50ms").is_err());
        assert_eq!(parse_interval("250ms"), Ok(Duration::from_millis(250)));
    }

    #[test]
    fn fake_series_parse() {
        assert_eq!(fake_series("98,2/95"), Ok(vec![vec![98, 2], vec![95]]));
        assert!(fake_series("101").is_err());
    }
}
