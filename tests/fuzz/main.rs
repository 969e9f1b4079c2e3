//! Structure-aware fuzzing of every format ramvram reads: profiles, scenarios, Slurm inventories
//! (`scontrol show node --json`, and with big GRES around the GPU caps), `dmidecode -t memory`
//! text, the window's settings file, traces (`ramvram watch --record`, and with many GPUs per
//! sample), model headers (safetensors, GGUF, `config.json`, Hugging Face folders) and dataset
//! folders (names and first bytes), the last two written to a temporary folder and read as
//! `--model` and `--dataset` read them.
//!
//! Inputs come from proptest strategies: valid documents (the fixtures, presets, a realistic
//! Slurm node) whose leaves are replaced, removed, multiplied or retyped, GRES strings and
//! dmidecode records from their grammars, and raw byte damage on top. Each input goes through
//! the product path: parse and validate, then (when accepted) assess and render the terminal
//! text and the Markdown and JSON reports (and, now and then, the PDF). An input fails the run
//! if it panics or takes more than 2 s of CPU time (a watchdog aborts the process when one runs
//! for a minute, naming the input).
//!
//! `cargo test --test fuzz` runs a short pass (1,640 inputs, about 15 s in a debug build). The
//! long pass, 1,000,400 inputs (122,000 for each of eight kinds, 12,200 for each of the two
//! kinds whose inputs are large), is ignored by default; run it with
//! `cargo test --release --test fuzz -- --ignored --nocapture`, and set
//! `RAMVRAM_FUZZ_PER_FORMAT` for another count (figures: docs/benchmarks.md).

#[path = "../common/mod.rs"]
mod common;

mod files;
mod formats;
mod mutation;
mod product;
mod trace;

use files::*;
use formats::*;
use mutation::*;
use product::*;
use trace::*;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRng, TestRunner};
use ramvram::advisor::{self, Scenario};
use ramvram::i18n::Lang;
use ramvram::report::{self, Format, ReportLang, ReportOptions};
use serde_json::{Value, json};

/// An input that takes more CPU time than this is a hang. CPU time of the thread, not wall time:
/// on a shared machine a process can wait seconds for a core.
const HANG: Duration = Duration::from_secs(2);

/// Wall time after which the watchdog takes an input for an endless loop and aborts the run.
const WATCHDOG: Duration = Duration::from_secs(60);

/// CPU time this thread has used (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime fills the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

// ---- the runner: counts, times, a watchdog for hangs -----------------------------------------

#[derive(Debug, Default)]
struct Figures {
    inputs: u64,
    accepted: u64,
    panics: u64,
    slowest: Duration,
    slowest_wall: Duration,
}

/// Peak resident memory of this process so far (`VmHWM`), KiB.
fn peak_rss_kib() -> Option<u64> {
    std::fs::read_to_string("/proc/self/status")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

fn fuzz(kind: Kind, strategy: impl Strategy<Value = String>, n: u64, pdf_every: u64) -> Figures {
    fuzz_until(kind, strategy, n, pdf_every, None)
}

/// [`fuzz`], stopping after `n` inputs or at `deadline`, whichever comes first.
fn fuzz_until(
    kind: Kind,
    strategy: impl Strategy<Value = String>,
    n: u64,
    pdf_every: u64,
    deadline: Option<Instant>,
) -> Figures {
    // Deterministic: the same inputs on every run (a failure names its input number).
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let current = Arc::new(Mutex::new(String::new()));
    let started = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let epoch = Instant::now();
    let watchdog = {
        let (current, started, done) = (current.clone(), started.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let s = started.load(Ordering::Relaxed);
                if s > 0 && epoch.elapsed() > Duration::from_micros(s) + WATCHDOG {
                    let input = current.lock().map(|c| c.clone()).unwrap_or_default();
                    eprintln!("{kind:?}: an input hangs (over {WATCHDOG:?}):\n{input}");
                    std::process::abort();
                }
            }
        })
    };
    let mut figures = Figures::default();
    for i in 0..n {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let text = strategy.new_tree(&mut runner).unwrap().current();
        *current.lock().unwrap() = text.clone();
        started.store(epoch.elapsed().as_micros().max(1) as u64, Ordering::Relaxed);
        let (t, cpu) = (Instant::now(), thread_cpu_time());
        let pdf = pdf_every > 0 && i % pdf_every == 0;
        let outcome = catch_unwind(AssertUnwindSafe(|| run_one(kind, &text, pdf)));
        let took = thread_cpu_time().saturating_sub(cpu);
        started.store(0, Ordering::Relaxed);
        figures.inputs += 1;
        figures.slowest = figures.slowest.max(took);
        figures.slowest_wall = figures.slowest_wall.max(t.elapsed());
        match outcome {
            Ok(accepted) => figures.accepted += u64::from(accepted),
            Err(_) => {
                figures.panics += 1;
                eprintln!("{kind:?} input {i} panicked:\n{text}");
            }
        }
        assert!(
            took < HANG,
            "{kind:?} input {i} took {took:?} of CPU time:\n{text}"
        );
    }
    done.store(true, Ordering::Relaxed);
    watchdog.join().unwrap();
    // As each kind ends, so that a long run stopped part-way still says what it did.
    println!(
        "{kind:?} done: {} inputs, {} accepted, {} panics, slowest {:?} CPU, after {:?}",
        figures.inputs,
        figures.accepted,
        figures.panics,
        figures.slowest,
        epoch.elapsed()
    );
    figures
}

fn all_formats(per_format: u64, pdf_every: u64) -> Vec<(Kind, Figures)> {
    vec![
        (
            Kind::Profile,
            fuzz(
                Kind::Profile,
                json_mutant(profile_bases(), 8),
                per_format,
                pdf_every,
            ),
        ),
        (
            Kind::Scenario,
            fuzz(
                Kind::Scenario,
                json_mutant(scenario_bases(), 30),
                per_format,
                pdf_every,
            ),
        ),
        (
            Kind::Slurm,
            fuzz(Kind::Slurm, slurm_mutant(), per_format, pdf_every),
        ),
        (
            Kind::Dmidecode,
            fuzz(Kind::Dmidecode, dmidecode_text(), per_format, pdf_every),
        ),
        (
            Kind::Settings,
            fuzz(
                Kind::Settings,
                json_mutant(settings_bases(), 30),
                per_format,
                0,
            ),
        ),
        (
            Kind::Trace,
            fuzz(Kind::Trace, trace_mutant(), per_format, pdf_every),
        ),
        (
            Kind::TraceManyGpus,
            // A tenth as many: each input is up to 5,000 GPUs.
            fuzz(
                Kind::TraceManyGpus,
                many_gpus_trace(),
                (per_format / 10).max(20),
                0,
            ),
        ),
        (
            Kind::SlurmBigGres,
            // A tenth as many: each input is up to 600 nodes of 1,025 GPUs.
            fuzz(
                Kind::SlurmBigGres,
                slurm_big_gres(),
                (per_format / 10).max(20),
                0,
            ),
        ),
        (
            Kind::ModelFiles,
            fuzz(Kind::ModelFiles, model_files(), per_format, 0),
        ),
        (
            Kind::Dataset,
            fuzz(Kind::Dataset, dataset_folder(), per_format, 0),
        ),
    ]
}

fn report_figures(results: &[(Kind, Figures)], wall: Duration) {
    for (kind, f) in results {
        println!(
            "{kind:?}: {} inputs, {} accepted, {} panics, slowest {:?} CPU ({:?} wall)",
            f.inputs, f.accepted, f.panics, f.slowest, f.slowest_wall
        );
    }
    let total: u64 = results.iter().map(|(_, f)| f.inputs).sum();
    println!(
        "total {total} inputs in {wall:?}; peak memory (VmHWM) {} KiB",
        peak_rss_kib().map_or("unknown".into(), |k| k.to_string())
    );
}

#[test]
fn fuzz_short_run() {
    let start = Instant::now();
    let results = all_formats(200, 50);
    report_figures(&results, start.elapsed());
    for (kind, f) in &results {
        assert_eq!(f.panics, 0, "{kind:?}");
        // Past the parsers: a fuzzer whose inputs are all rejected tests nothing but them.
        if *kind != Kind::Dmidecode {
            assert!(f.accepted > 0, "{kind:?}: no input was accepted");
        }
    }
}

#[test]
#[ignore = "long: 1,000,400 inputs; cargo test --release --test fuzz -- --ignored --nocapture"]
fn fuzz_long_run() {
    // 8 × 122,000 + 2 × 12,200 = 1,000,400 inputs.
    let per_format: u64 = std::env::var("RAMVRAM_FUZZ_PER_FORMAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(122_000);
    let start = Instant::now();
    let results = all_formats(per_format, 2000);
    report_figures(&results, start.elapsed());
    assert!(results.iter().all(|(_, f)| f.panics == 0));
    let total: u64 = results.iter().map(|(_, f)| f.inputs).sum();
    if std::env::var_os("RAMVRAM_FUZZ_PER_FORMAT").is_none() {
        assert!(total >= 1_000_000, "{total} inputs");
    }
}

#[test]
#[ignore = "timed: model and dataset inputs for RAMVRAM_FUZZ_SECONDS (600) seconds in all"]
fn fuzz_model_and_dataset_inputs_for_minutes() {
    // Issue 37: a 10-minute run over the inputs a user names (`--model`, `--dataset`), half the
    // time each, the same deterministic inputs as the long run's first ones.
    let seconds: u64 = std::env::var("RAMVRAM_FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let start = Instant::now();
    let half = start + Duration::from_secs(seconds / 2);
    let end = start + Duration::from_secs(seconds);
    let results = vec![
        (
            Kind::ModelFiles,
            fuzz_until(Kind::ModelFiles, model_files(), u64::MAX, 0, Some(half)),
        ),
        (
            Kind::Dataset,
            fuzz_until(Kind::Dataset, dataset_folder(), u64::MAX, 0, Some(end)),
        ),
    ];
    report_figures(&results, start.elapsed());
    for (kind, f) in &results {
        assert_eq!(f.panics, 0, "{kind:?}");
        assert!(f.accepted > 0, "{kind:?}: no input was accepted");
    }
}
