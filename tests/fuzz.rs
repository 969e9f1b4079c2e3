//! Structure-aware fuzzing of every format ramvram reads: profiles, scenarios, Slurm inventories
//! (`scontrol show node --json`), `dmidecode -t memory` text and the window's settings file.
//!
//! Inputs come from proptest strategies: valid documents (the fixtures, presets, a realistic
//! Slurm node) whose leaves are replaced, removed, multiplied or retyped, GRES strings and
//! dmidecode records from their grammars, and raw byte damage on top. Each input goes through
//! the product path: parse and validate, then (when accepted) assess and render the terminal
//! text and the Markdown and JSON reports (and, now and then, the PDF). An input fails the run
//! if it panics or takes more than 2 s of CPU time (a watchdog aborts the process when one runs
//! for a minute, naming the input).
//!
//! `cargo test --test fuzz` runs a short pass (a few seconds). The long pass, 1,000,000 inputs
//! (200,000 per format), is ignored by default; run it with
//! `cargo test --release --test fuzz -- --ignored --nocapture` (figures: docs/benchmarks.md).

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRng, TestRunner};
use ramvram::advisor::{self, Inputs};
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

// ---- random leaves and structure-aware mutation ----------------------------------------------

fn pick<T: Copy>(rng: &mut TestRng, items: &[T]) -> T {
    items[(rng.next_u64() % items.len() as u64) as usize]
}

fn chance(rng: &mut TestRng, one_in: u64) -> bool {
    rng.next_u64() % one_in == 0
}

/// Text that has broken parsers and renderers before: controls, bidi overrides,
/// noncharacters, Markdown and HTML, a long string, share sources and user paths.
fn hostile_text(rng: &mut TestRng) -> String {
    let pieces = [
        "",
        " ",
        "node-01",
        "节点-01",
        "\u{1b}]0;x\u{7}",
        "\u{0}",
        "\u{fffe}",
        "\u{202e}abc",
        "\n# h",
        "<img src=x>",
        "[a](b)",
        "|",
        "\\",
        "/home/alice/x",
        "/run/media/bob/DISK",
        "nas:/export/x",
        "//srv/share",
        "GPU-6f1c0b2e-3a4d-4e5f-8a9b-0c1d2e3f4a5b",
        "0c:42:a1:9e:00:01",
        "%s%n",
        "{lang}",
        "\u{10ffff}",
        "🙂",
        "null",
        "1e999",
        "-0",
    ];
    let mut s = String::new();
    for _ in 0..(rng.next_u64() % 4) {
        s.push_str(pick(rng, &pieces));
    }
    if chance(rng, 40) {
        s.push_str(&"x".repeat((rng.next_u64() % 6000) as usize));
    }
    s
}

/// A leaf of any JSON type, biased to boundaries.
fn random_leaf(rng: &mut TestRng) -> Value {
    match rng.next_u64() % 12 {
        0 => Value::Null,
        1 => Value::Bool(chance(rng, 2)),
        2 => json!((rng.next_u64() % 20_000) as i64 - 10),
        3 => json!(pick(
            rng,
            &[
                0u64,
                1,
                7,
                255,
                65_535,
                65_536,
                u32::MAX as u64,
                1 << 50,
                (1 << 50) + 1,
                u64::MAX
            ]
        )),
        4 => json!(pick(rng, &[i64::MIN, -1, -(1 << 40)])),
        5 => json!(pick(
            rng,
            &[
                0.0, -1.0, 1e308, -1e308, 1e-320, 0.5, 3.5e9, 8e10, 1e14, 1e15
            ]
        )),
        6 | 7 => Value::String(hostile_text(rng)),
        8 => json!({}),
        9 => json!([]),
        10 => Value::String((rng.next_u64() % 100_000).to_string()),
        _ => json!([random_leaf(rng), {"k": random_leaf(rng)}]),
    }
}

/// Replaces, removes, multiplies and adds parts of a valid document, about `rate` in 1,000
/// leaves changed.
fn mutate(v: &mut Value, rng: &mut TestRng, rate: u64) {
    if rng.next_u64() % 1000 < rate {
        *v = random_leaf(rng);
        return;
    }
    match v {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                if chance(rng, 40) {
                    map.remove(&k);
                } else if let Some(x) = map.get_mut(&k) {
                    mutate(x, rng, rate);
                }
            }
            if chance(rng, 30) {
                map.insert(hostile_text(rng), random_leaf(rng));
            }
        }
        Value::Array(items) => {
            for x in items.iter_mut() {
                mutate(x, rng, rate);
            }
            if !items.is_empty() && chance(rng, 25) {
                // Many copies: list caps (1,024 GPUs, modules) and the renderers' time.
                let n = pick(rng, &[2usize, 10, 300, 1100]);
                let x = items[0].clone();
                items.extend(std::iter::repeat_n(x, n));
            }
            if chance(rng, 30) {
                items.clear();
            }
        }
        _ => {}
    }
}

/// Byte damage on the text: truncation, a random byte, a duplicated span.
fn damage(mut text: String, rng: &mut TestRng) -> String {
    match rng.next_u64() % 8 {
        0 if !text.is_empty() => {
            let mut cut = (rng.next_u64() % text.len() as u64) as usize;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
        1 => {
            let mut at = (rng.next_u64() % (text.len() as u64 + 1)) as usize;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert(
                at,
                pick(rng, &['{', '}', '"', ',', ':', '\\', '\u{0}', 'é']),
            );
        }
        2 => text = format!("{text}{text}"),
        _ => {}
    }
    text
}

/// JSON text from `bases`, mutated; now and then damaged as bytes.
fn json_mutant(bases: Vec<Value>, rate: u64) -> impl Strategy<Value = String> {
    (0..bases.len(), any::<bool>()).prop_perturb(move |(i, raw), mut rng| {
        let mut v = bases[i].clone();
        mutate(&mut v, &mut rng, rate);
        let text = if chance(&mut rng, 2) {
            serde_json::to_string(&v).unwrap()
        } else {
            serde_json::to_string_pretty(&v).unwrap()
        };
        if raw && chance(&mut rng, 4) {
            damage(text, &mut rng)
        } else {
            text
        }
    })
}

// ---- the five formats ------------------------------------------------------------------------

fn profile_bases() -> Vec<Value> {
    common::all_fixtures()
        .iter()
        .map(|name| serde_json::to_value(common::fixture(name)).unwrap())
        .collect()
}

fn scenario_bases() -> Vec<Value> {
    let mut bases = Vec::new();
    for p in advisor::training::presets::PRESETS.iter() {
        let plan = advisor::training::TrainingPlan::from_preset(p);
        bases.push(json!({"schema_version": 1, "training": plan}));
    }
    for (_, w) in advisor::workload::presets::presets() {
        bases.push(json!({"schema_version": 1, "workload": w}));
    }
    bases
}

fn gres_count(rng: &mut TestRng) -> String {
    pick(
        rng,
        &[
            "0",
            "1",
            "8",
            "1024",
            "1025",
            "4294967295",
            "4294967296",
            "10000000",
            "-1",
            "",
            "2K",
            "18446744073709551616",
            "08",
            " 4",
        ],
    )
    .to_string()
}

/// A GRES string from Slurm's grammar (`gpu:TYPE:COUNT(S:0-1)`, `gpu:COUNT`, other
/// resources, comma lists), with broken parts.
fn gres(rng: &mut TestRng) -> String {
    let mut items = Vec::new();
    for _ in 0..(rng.next_u64() % 4) {
        let kind = pick(
            rng,
            &["a100", "h100", "v100", "rtx_3090", "", "gb10", "x:y"],
        );
        let item = match rng.next_u64() % 6 {
            0 => format!("gpu:{kind}:{}(S:0-1)", gres_count(rng)),
            1 => format!("gpu:{}", gres_count(rng)),
            2 => format!("gpu:{kind}:{}", gres_count(rng)),
            3 => format!("shard:{}", gres_count(rng)),
            4 => format!("gpu:{kind}:{}(S:0,1", gres_count(rng)),
            _ => hostile_text(rng),
        };
        items.push(item);
    }
    items.join(",")
}

fn slurm_mutant() -> impl Strategy<Value = String> {
    any::<bool>().prop_perturb(|_, mut rng| {
        let nodes: Vec<Value> = (0..(rng.next_u64() % 6))
            .map(|i| {
                let mut node = json!({
                    "name": format!("gpu{i:03}"), "hostname": format!("gpu{i:03}"),
                    "real_memory": 515_000, "gres": gres(&mut rng), "cpus": 128,
                    "cores": 32, "sockets": 2, "architecture": "x86_64",
                    "operating_system": "Linux 5.15.0", "state": "IDLE"
                });
                if chance(&mut rng, 3) {
                    mutate(&mut node, &mut rng, 60);
                }
                node
            })
            .collect();
        let mut doc = json!({"meta": {"plugin": {"data_parser": "v0.0.40"}}, "nodes": nodes});
        if chance(&mut rng, 10) {
            mutate(&mut doc, &mut rng, 30);
        }
        let text = serde_json::to_string(&doc).unwrap();
        if chance(&mut rng, 8) {
            damage(text, &mut rng)
        } else {
            text
        }
    })
}

/// `dmidecode -t memory` text from its grammar: records of `Key: value` lines under
/// `Handle …` and `Memory Device`, with odd sizes, speeds and junk.
fn dmidecode_text() -> impl Strategy<Value = String> {
    any::<bool>().prop_perturb(|_, mut rng| {
        let mut out = String::from("# dmidecode 3.4\nGetting SMBIOS data from sysfs.\n\n");
        for h in 0..(rng.next_u64() % 12) {
            out.push_str(&format!("Handle 0x{h:04X}, DMI type 17, 92 bytes\n"));
            out.push_str(pick(
                &mut rng,
                &[
                    "Memory Device\n",
                    "Memory Device\n",
                    "Memory Device\n",
                    "Memory Array\n",
                ],
            ));
            // Mostly a module that is there, so that the records get past the parser.
            let size = pick(
                &mut rng,
                &["16 GB", "32 GB", "8192 MB", "64 GB", "No Module Installed"],
            );
            out.push_str(&format!("\tSize: {size}\n"));
            for _ in 0..(rng.next_u64() % 14) {
                let key = pick(
                    &mut rng,
                    &[
                        "Size",
                        "Locator",
                        "Bank Locator",
                        "Type",
                        "Speed",
                        "Configured Memory Speed",
                        "Data Width",
                        "Form Factor",
                        "Part Number",
                        "Rank",
                        "Manufacturer",
                        "Serial Number",
                    ],
                );
                let value = match rng.next_u64() % 4 {
                    0 => pick(
                        &mut rng,
                        &[
                            "16 GB",
                            "32768 MB",
                            "No Module Installed",
                            "4294967295 TB",
                            "18446744073709551615 kB",
                            "0 GB",
                            "Unknown",
                            "3200 MT/s",
                            "4294967295 MT/s",
                            "64 bits",
                            "DDR5",
                            "DIMM",
                            "-1 GB",
                        ],
                    )
                    .to_string(),
                    1 => hostile_text(&mut rng),
                    _ => format!(
                        "{} {}",
                        rng.next_u64() % 100_000,
                        pick(&mut rng, &["GB", "MT/s", "bits", "MHz"])
                    ),
                };
                out.push_str(&format!("\t{key}: {value}\n"));
            }
            out.push('\n');
        }
        out
    })
}

fn settings_bases() -> Vec<Value> {
    let mut bases = vec![json!({"lang": "zh"}), json!({})];
    for (_, w) in advisor::workload::presets::presets() {
        bases.push(json!({"lang": "en", "workload": w}));
    }
    bases
}

// ---- the product path for each format --------------------------------------------------------

fn options(format: Format) -> ReportOptions {
    ReportOptions {
        format,
        lang: ReportLang::Both,
        redact: false,
        date: "2026-01-15".into(),
        source_file: None,
    }
}

/// What the command line and the window do with an assessment.
fn render_all(a: &advisor::Assessment, pdf: bool) {
    for lang in Lang::ALL {
        let _ = ramvram::cli::text::assessment(lang, a, None);
        let _ = ramvram::present::hardware_rows(lang, a);
    }
    report::render(a, &options(Format::Markdown)).unwrap();
    report::render(a, &options(Format::Json)).unwrap();
    let mut redacted = options(Format::Markdown);
    redacted.redact = true;
    report::render(a, &redacted).unwrap();
    if pdf {
        report::render(a, &options(Format::Pdf)).unwrap();
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Profile,
    Scenario,
    Slurm,
    Dmidecode,
    Settings,
}

/// The machine that scenarios, modules and settings are tried on (read once).
fn base_machine() -> &'static ramvram::profile::MachineProfile {
    static BASE: std::sync::OnceLock<ramvram::profile::MachineProfile> = std::sync::OnceLock::new();
    BASE.get_or_init(|| common::fixture("dgx-a100"))
}

/// Runs one input through the product path; whether its parser accepted it (to show the
/// fuzzer reaches past the parsers).
fn run_one(kind: Kind, text: &str, pdf: bool) -> bool {
    let path = Path::new("fuzz.json");
    match kind {
        Kind::Profile => {
            let Ok(loaded) = ramvram::profile::parse_profile(text, path) else {
                return false;
            };
            render_all(&advisor::assess(&loaded.profile), pdf);
        }
        Kind::Scenario => {
            let Ok((s, _)) = ramvram::profile::scenario::parse_scenario(text, path) else {
                return false;
            };
            let inputs = Inputs {
                training: s.training,
                workload: s.workload,
            };
            render_all(&advisor::assess_with(base_machine(), &inputs), pdf);
        }
        Kind::Slurm => {
            let Ok(profiles) = ramvram::catalog::slurm::parse(text, path) else {
                return false;
            };
            let inputs = profiles
                .into_iter()
                .map(|p| {
                    let label = p.host.hostname.clone().unwrap_or_default();
                    (
                        label,
                        advisor::fleet::Origin::Slurm("f".into()),
                        p,
                        Vec::new(),
                    )
                })
                .collect();
            let machines = advisor::fleet::assess_fleet(inputs);
            for m in &machines {
                let _ = ramvram::present::fleet::row(Lang::Zh, m);
            }
            report::render_fleet(&machines, &[], &options(Format::Markdown)).unwrap();
            if pdf {
                report::render_fleet(&machines, &[], &options(Format::Pdf)).unwrap();
            }
        }
        Kind::Dmidecode => {
            let dimms = ramvram::probe::dimm::parse_dmidecode(text);
            if dimms.is_empty() {
                return false;
            }
            let mut p = base_machine().clone();
            ramvram::probe::dimm::apply_dimms(&mut p.memory, dimms);
            if ramvram::profile::limits::check(&mut p).is_ok() {
                render_all(&advisor::assess(&p), pdf);
            }
        }
        Kind::Settings => {
            let Ok(s) = serde_json::from_str::<ramvram::ui::settings::Settings>(text) else {
                return false;
            };
            if let Some(w) = s.workload.filter(|w| w.validate().is_ok()) {
                let inputs = Inputs {
                    training: None,
                    workload: Some(w),
                };
                render_all(&advisor::assess_with(base_machine(), &inputs), false);
            }
        }
    }
    true
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
        assert!(took < HANG, "{kind:?} input {i} took {took:?} of CPU time:\n{text}");
    }
    done.store(true, Ordering::Relaxed);
    watchdog.join().unwrap();
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
#[ignore = "long: 1,000,000 inputs; cargo test --release --test fuzz -- --ignored --nocapture"]
fn fuzz_long_run() {
    let per_format: u64 = std::env::var("RAMVRAM_FUZZ_PER_FORMAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let start = Instant::now();
    let results = all_formats(per_format, 2000);
    report_figures(&results, start.elapsed());
    assert!(results.iter().all(|(_, f)| f.panics == 0));
}
