//! Everything a user reads, rendered: every page of the window (the text egui paints), the
//! Markdown and PDF reports, the terminal's assessment, lab table and benchmark results, and
//! `--help`. Each output comes with the machine's own strings, which are data, not prose.

use std::path::{Path, PathBuf};

use egui::epaint::Shape;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ramvram::advisor::inference::{Engine, InferencePlan, WeightFormat};
use ramvram::advisor::training::{TrainingPlan, presets};
use ramvram::advisor::workload::presets as workloads;
use ramvram::advisor::{Scenario, assess, defaults};
use ramvram::i18n::{Lang, Msg, tr};
use ramvram::inputs::scenario::SCENARIO_SCHEMA_VERSION;
use ramvram::profile::MachineProfile;
use ramvram::report::{self, Format, ReportLang, ReportOptions};
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;

use super::common;
use super::english::json_strings;

/// One rendered output.
pub struct Output {
    /// Where it comes from ("window aws-g5.xlarge, Bandwidth").
    pub name: String,
    /// What the user reads.
    pub text: String,
    /// The machine's own strings (host name, models, paths): data, allowed in any language.
    pub data: Vec<String>,
}

/// Fixtures whose profiles cover the kinds of machine: a cloud VM, a workstation, a
/// container with limits, a laptop with soldered memory, WSL, unified memory, a DGX, a
/// measured lab machine and a single-channel student desktop.
const FIXTURES: [&str; 10] = [
    "aws-g5.xlarge",
    "desktop-3090-1x32-ddr4-4slot",
    "docker-4090-limit32g-shm64m",
    "laptop-4090m-lpddr5-soldered",
    "wsl2-4090-32g",
    "macbook-pro-m4max-128g",
    "dgx-h100",
    "lab-a6000-nfs-measured",
    "student-4090-ddr4-single-channel",
    "seed-4090-32g",
];

/// The profile's strings, plus the paths a report names.
fn data_of(profile: &MachineProfile, name: &str) -> Vec<String> {
    let mut data = Vec::new();
    json_strings(&serde_json::to_value(profile).unwrap(), &mut data);
    data.push(common::fixture_path(name).display().to_string());
    data.push(format!("{name}.json"));
    // Table cells in the PDF lose their spaces in text extraction, and narrow ones break
    // host names at hyphens.
    let squashed: Vec<String> = data.iter().map(|d| d.replace(' ', "")).collect();
    let parts: Vec<String> = data
        .iter()
        .flat_map(|d| d.split(['-', ' ']).map(str::to_string).collect::<Vec<_>>())
        .collect();
    data.extend(squashed);
    data.extend(parts);
    data
}

/// The recommendations' texts in the users' own tools (a DeepSpeed fragment, a pod spec,
/// `llama-server` flags): code, the same in every language, allowed as the profile's strings
/// are: each text, each line and each word.
fn native_data(a: &ramvram::advisor::Assessment) -> Vec<String> {
    let mut data = Vec::new();
    for n in a.recommendations.iter().flat_map(|r| &r.native) {
        data.push(n.text.clone());
        for line in n.text.lines() {
            data.push(line.trim().to_string());
            data.extend(line.split_whitespace().map(str::to_string));
        }
        data.push(n.tool.name().to_string());
    }
    data
}

/// The native texts the window's own Training and Data loading pages show for `profile`: their
/// plan and workload as a fresh window starts them (the advisor's first plan, the seed's 4K
/// example).
fn window_native_data(profile: &MachineProfile) -> Vec<String> {
    let training = Scenario {
        training: Some(ramvram::advisor::defaults::first_plan()),
        ..Scenario::NONE
    };
    let workload = Scenario {
        workload: workloads::preset("seed-4k-medical"),
        ..Scenario::NONE
    };
    let mut data = native_data(&assess(profile, &training));
    data.extend(native_data(&assess(profile, &workload)));
    data
}

/// Every fixture's data at once, for pages that show several machines.
fn all_data() -> Vec<String> {
    common::all_fixtures()
        .iter()
        .flat_map(|n| data_of(&common::fixture(n), n))
        .collect()
}

/// The training plans and workloads shown: every model preset (ZeRO-2, optimizer offloaded to
/// the CPU, as the seed's question) and every workload preset.
fn scenarios(profile: &MachineProfile) -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for p in presets::presets() {
        let plan = TrainingPlan {
            offload_optimizer: ramvram::advisor::training::OffloadTarget::Cpu,
            ..defaults::plan_for_preset(p, profile)
        };
        out.push((
            format!("plan {}", p.id),
            Scenario {
                training: Some(plan),
                schema_version: SCENARIO_SCHEMA_VERSION,
                workload: None,
                inference: None,
            },
        ));
    }
    for (id, w) in workloads::presets() {
        out.push((
            format!("workload {id}"),
            Scenario {
                workload: Some(w),
                schema_version: SCENARIO_SCHEMA_VERSION,
                training: None,
                inference: None,
            },
        ));
    }
    // Serving Llama 2 70B with each engine: vLLM and transformers in bf16, llama.cpp in Q4_K_M.
    let llama = presets::preset("llama2-70b").expect("preset");
    let shape = llama.shape.expect("shape");
    for (engine, weights) in [
        (Engine::Vllm, WeightFormat::Bf16),
        (Engine::LlamaCpp, WeightFormat::Q4KM),
        (Engine::Transformers, WeightFormat::Bf16),
    ] {
        let mut plan = InferencePlan::new(engine, llama.params, shape, weights);
        plan.preset = Some(llama.id.to_string());
        out.push((
            format!("inference {engine:?}"),
            Scenario {
                inference: Some(plan),
                schema_version: SCENARIO_SCHEMA_VERSION,
                training: None,
                workload: None,
            },
        ));
    }
    out
}

/// Text of every shape egui painted in the last frame.
fn painted(h: &Harness<'_, RamvramApp>) -> String {
    fn walk(shape: &Shape, out: &mut String) {
        match shape {
            Shape::Text(t) => {
                out.push_str(t.galley.text());
                out.push('\n');
            }
            Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = String::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

fn harness(app: RamvramApp) -> Harness<'static, RamvramApp> {
    // Tall enough that every page is painted whole: egui skips what is scrolled out of view.
    common::window::window(app, 7000.0)
}

const TABS: [Msg; 6] = [
    Msg::TrainMachineTab,
    Msg::TrainTab,
    Msg::BwTab,
    Msg::WorkTab,
    // With no lab loaded yet: the page's introduction and the planner.
    Msg::FleetTab,
    // With nothing watched yet: the page's introduction.
    Msg::MonitorTab,
];

/// Every page of the window for each fixture, with every plan and workload preset on one
/// machine, the export dialog, and the lab page with the fixtures and a planned machine.
pub fn window(lang: Lang) -> Vec<Output> {
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    let mut pages = |h: &mut Harness<'static, RamvramApp>, name: &str, data: &[String]| {
        for tab in TABS {
            // The page's tab, first of the nodes with its name (a table may have a column so
            // named too).
            h.query_all_by_label(tr(lang, tab))
                .next()
                .expect("tab")
                .click();
            h.run();
            out.push(Output {
                name: format!("window {name}, {}", tr(Lang::En, tab)),
                text: painted(h),
                data: data.to_vec(),
            });
        }
    };
    for name in FIXTURES {
        let profile = common::fixture(name);
        let mut data = data_of(&profile, name);
        data.extend(window_native_data(&profile));
        let source = Source::File(common::fixture_path(name));
        let mut h = harness(RamvramApp::with_profile(lang, &profile, source));
        h.run();
        pages(&mut h, name, &data);
    }
    let name = "dgx-h100";
    let profile = common::fixture(name);
    let data = data_of(&profile, name);
    for (what, scenario) in scenarios(&profile) {
        let file = dir.path().join(format!("{}.json", what.replace(' ', "-")));
        std::fs::write(&file, serde_json::to_vec(&scenario).unwrap()).unwrap();
        let source = Source::File(common::fixture_path(name));
        let mut app = RamvramApp::with_profile(lang, &profile, source);
        app.open_scenario(&file);
        let mut h = harness(app);
        h.run();
        let mut data = data.clone();
        data.extend(native_data(&assess(&profile, &scenario)));
        data.extend(window_native_data(&profile));
        pages(&mut h, &format!("{name}, {what}"), &data);
    }
    // The Monitor page with each committed trace.
    for trace in traces() {
        let mut app =
            RamvramApp::with_profile(lang, &profile, Source::File(common::fixture_path(name)));
        app.open_trace(&trace);
        let mut h = harness(app);
        h.run();
        let mut trace_data = data.clone();
        trace_data.push(trace_name(&trace));
        trace_data.extend(trace.file_stem().map(|s| s.to_string_lossy().into_owned()));
        out.push(Output {
            name: format!("window Monitor {}", trace_name(&trace)),
            text: painted(&h),
            data: trace_data,
        });
    }
    // An error banner: a scenario file with a bad field.
    let bad = dir.path().join("bad-scenario.json");
    std::fs::write(&bad, r#"{"schema_version": 0}"#).unwrap();
    let mut app =
        RamvramApp::with_profile(lang, &profile, Source::File(common::fixture_path(name)));
    app.open_scenario(&bad);
    let mut h = harness(app);
    h.run();
    let mut banner_data = data.clone();
    banner_data.push(bad.display().to_string());
    out.push(Output {
        name: "window error banner".into(),
        text: painted(&h),
        data: banner_data,
    });
    // The export dialog.
    let mut h = harness(RamvramApp::with_profile(
        lang,
        &profile,
        Source::File(common::fixture_path(name)),
    ));
    h.run();
    h.get_by_label(tr(lang, Msg::ExportOpen)).click();
    h.run();
    out.push(Output {
        name: "window export dialog".into(),
        text: painted(&h),
        data: data.clone(),
    });
    // The lab page: every fixture and a planned machine.
    let mut app = RamvramApp::with_profile(lang, &profile, Source::Detected);
    app.add_fleet_dir(&fixtures_dir());
    app.add_planned(ramvram::catalog::planner::PlannedMachine::desktop(
        "rtx3090", 2, 64,
    ));
    let mut h = harness(app);
    h.run();
    h.get_by_label(tr(lang, Msg::FleetTab)).click();
    h.run();
    let mut data = all_data();
    data.push("2× rtx3090, 64 GiB".into());
    out.push(Output {
        name: "window lab machines".into(),
        text: painted(&h),
        data,
    });
    out
}

/// The committed traces (`tests/fixtures/traces/*.jsonl`), sorted.
fn traces() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces");
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    out.sort();
    out
}

/// A trace's file name, which the Monitor page and reports show as it is.
fn trace_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The live diagnosis of `path`, as `report --trace` reads it.
fn monitor_of(path: &Path) -> ramvram::report::monitor::MonitorReport {
    let loaded = ramvram::trace::jsonl::read_trace(path).expect("trace reads");
    ramvram::report::monitor::MonitorReport {
        source: Some(path.display().to_string()),
        summary: ramvram::advisor::diagnose::diagnose(&loaded.trace),
        trace: loaded.trace,
    }
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profiles")
}

fn options(format: Format, lang: Lang) -> ReportOptions {
    ReportOptions {
        format,
        lang: ReportLang::One(lang),
        redact: false,
        date: "2026-01-15".into(),
        source_file: None,
    }
}

/// The assessments reports are made of: each fixture alone, and one machine with every plan
/// and workload preset.
fn assessments() -> Vec<(String, ramvram::advisor::Assessment, Vec<String>)> {
    let mut out = Vec::new();
    for name in FIXTURES {
        let profile = common::fixture(name);
        let a = assess(&profile, &Scenario::NONE);
        out.push((name.to_string(), a, data_of(&profile, name)));
    }
    let name = "aws-g5.xlarge";
    let profile = common::fixture(name);
    for (what, s) in scenarios(&profile) {
        let inputs = Scenario {
            training: s.training,
            workload: s.workload,
            inference: s.inference,
            ..Scenario::NONE
        };
        let a = assess(&profile, &inputs);
        let mut data = data_of(&profile, name);
        data.extend(native_data(&a));
        out.push((format!("{name}, {what}"), a, data));
    }
    out
}

fn lab(
    lang: Lang,
) -> (
    Vec<ramvram::advisor::fleet::FleetMachine>,
    ramvram::inputs::fleet::SkippedFiles,
) {
    ramvram::cli::fleet::load(lang, Some(&fixtures_dir()), None, None).expect("fixtures load")
}

/// Markdown reports.
pub fn markdown(lang: Lang) -> Vec<Output> {
    let mut out: Vec<Output> = assessments()
        .into_iter()
        .map(|(name, a, data)| Output {
            name: format!("Markdown {name}"),
            text: String::from_utf8(report::render(&a, &options(Format::Markdown, lang)).unwrap())
                .unwrap(),
            data,
        })
        .collect();
    let profile = common::fixture("seed-4090-32g");
    let a = assess(&profile, &Scenario::NONE);
    for trace in traces() {
        let live = monitor_of(&trace);
        let md = report::render_with_monitor(&a, &options(Format::Markdown, lang), Some(&live));
        let mut data = data_of(&profile, "seed-4090-32g");
        data.push(trace.display().to_string());
        out.push(Output {
            name: format!("Markdown live diagnosis {}", trace_name(&trace)),
            text: String::from_utf8(md.unwrap()).unwrap(),
            data,
        });
    }
    let (machines, skipped) = lab(lang);
    let md = report::render_fleet(&machines, &skipped, &options(Format::Markdown, lang)).unwrap();
    out.push(Output {
        name: "Markdown lab".into(),
        text: String::from_utf8(md).unwrap(),
        data: all_data(),
    });
    out
}

/// The PDF's text as pdf-extract reads it. Chart labels (SVG) come out one glyph at a time
/// ("O ffl o a d", the "ffl" being the font's ligature): a run of three or more pieces of at
/// most three Latin letters (or slashes), one space apart, is joined back into its word.
fn pdf_text(bytes: &[u8]) -> String {
    let text = pdf_extract::extract_text_from_mem(bytes).expect("PDF text extracts");
    text.lines().map(join_glyphs).collect::<Vec<_>>().join("\n")
}

fn join_glyphs(line: &str) -> String {
    // Path separators count as pieces too: a chart label "/dev/shm" comes out "/ dev / shm".
    let short = |w: &str| {
        (1..=3).contains(&w.len()) && w.chars().all(|c| c.is_ascii_alphabetic() || c == '/')
    };
    let words: Vec<&str> = line.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let run = words[i..].iter().take_while(|w| short(w)).count();
        if run >= 3 {
            out.push(words[i..i + run].concat());
            i += run;
        } else {
            out.push(words[i].to_string());
            i += 1;
        }
    }
    out.join(" ")
}

/// PDF reports, as text.
pub fn pdf(lang: Lang) -> Vec<Output> {
    let mut out: Vec<Output> = assessments()
        .into_iter()
        .map(|(name, a, data)| Output {
            name: format!("PDF {name}"),
            text: pdf_text(&report::render(&a, &options(Format::Pdf, lang)).unwrap()),
            data,
        })
        .collect();
    // One live diagnosis with its timeline chart: the saw-tooth.
    let profile = common::fixture("seed-4090-32g");
    let a = assess(&profile, &Scenario::NONE);
    let trace = traces()
        .into_iter()
        .find(|t| trace_name(t) == "sawtooth.jsonl");
    let live = monitor_of(&trace.expect("sawtooth trace"));
    let pdf = report::render_with_monitor(&a, &options(Format::Pdf, lang), Some(&live)).unwrap();
    let mut data = data_of(&profile, "seed-4090-32g");
    data.extend(live.source.clone());
    out.push(Output {
        name: "PDF live diagnosis sawtooth.jsonl".into(),
        text: pdf_text(&pdf),
        data,
    });
    let (machines, skipped) = lab(lang);
    let bytes = report::render_fleet(&machines, &skipped, &options(Format::Pdf, lang)).unwrap();
    out.push(Output {
        name: "PDF lab".into(),
        text: pdf_text(&bytes),
        data: all_data(),
    });
    out
}

/// The terminal: the assessment of each fixture and plan, the lab table, and benchmark results
/// read from a measured profile.
pub fn terminal(lang: Lang) -> Vec<Output> {
    let mut out: Vec<Output> = assessments()
        .into_iter()
        .map(|(name, a, data)| Output {
            name: format!("terminal {name}"),
            text: ramvram::codespan::plain(&ramvram::cli::text::assessment(lang, &a, None)),
            data,
        })
        .collect();
    let lab = common::ramvram()
        .args(["advise", "--profile-dir"])
        .arg(fixtures_dir())
        .args(["--lang", lang.code()])
        .output()
        .unwrap();
    out.push(Output {
        name: "terminal lab table".into(),
        text: String::from_utf8(lab.stdout).unwrap() + &String::from_utf8(lab.stderr).unwrap(),
        data: all_data(),
    });
    for trace in traces() {
        let run = common::ramvram()
            .arg("diagnose")
            .arg(&trace)
            .args(["--lang", lang.code()])
            .output()
            .unwrap();
        out.push(Output {
            name: format!("terminal diagnose {}", trace_name(&trace)),
            text: String::from_utf8(run.stdout).unwrap() + &String::from_utf8(run.stderr).unwrap(),
            data: vec![trace.display().to_string()],
        });
    }
    let collect = common::ramvram()
        .args([
            "collect",
            "--slurm",
            "--nodes",
            "gpu[01-02]",
            "--lang",
            lang.code(),
        ])
        .output()
        .unwrap();
    // The script: its comments are words, every other line is a shell command (data).
    let script = String::from_utf8(collect.stdout).unwrap();
    let (comments, commands): (Vec<&str>, Vec<&str>) =
        script.lines().partition(|l| l.starts_with('#'));
    let mut data: Vec<String> = commands.iter().map(|c| c.to_string()).collect();
    data.push("profiles".into());
    out.push(Output {
        name: "terminal collect --slurm".into(),
        text: comments.join("\n") + "\n" + &String::from_utf8(collect.stderr).unwrap(),
        data,
    });
    let measured = common::fixture("lab-a6000-nfs-measured");
    let m = &measured.measurements;
    let mut bench = String::new();
    if let Some(mb) = &m.memory_bandwidth {
        bench += &ramvram::cli::text_bench::memory(lang, mb);
        let mut one = mb.clone();
        one.repetitions = 1;
        bench += &ramvram::cli::text_bench::memory(lang, &one);
    }
    for s in &m.storage {
        bench += &ramvram::cli::text_bench::storage(lang, s);
    }
    bench += &ramvram::cli::text_bench::decode(
        lang,
        &ramvram::bench::decode::DecodeRate {
            width: 1920,
            height: 1080,
            file_bytes: 400_000,
            quality: 90,
            decoder: "zune-jpeg".into(),
            single_thread_mpix_per_s: 120.0,
            threads: 8,
            all_threads_mpix_per_s: 900.0,
            per_core_mpix_per_s: 120.0,
            single_thread_cpu_share: Some(0.5),
            contended: true,
        },
    );
    out.push(Output {
        name: "terminal benchmarks".into(),
        text: ramvram::codespan::plain(&bench),
        data: data_of(&measured, "lab-a6000-nfs-measured"),
    });
    out
}

/// `--help` and `-h` of every command, with the language given by `--lang`.
pub fn help(lang: Lang) -> Vec<Output> {
    let commands: [&[&str]; 12] = [
        &[],
        &["detect"],
        &["advise"],
        &["report"],
        &["bench"],
        &["bench", "memory"],
        &["bench", "decode"],
        &["bench", "storage"],
        &["watch"],
        &["diagnose"],
        &["collect"],
        &["help", "bench"],
    ];
    let mut out = Vec::new();
    for c in commands {
        for flag in ["--help", "-h"] {
            let o = common::ramvram()
                .args(c)
                .args(["--lang", lang.code(), flag])
                .output()
                .unwrap();
            out.push(Output {
                name: format!("ramvram {} {flag}", c.join(" ")),
                text: String::from_utf8(o.stdout).unwrap(),
                data: help_identifiers(),
            });
        }
    }
    out
}

/// Usage errors: an unknown option and command, a missing, bad or out-of-range value, a
/// value not among the choices, a conflict; what was typed is the user's data.
pub fn usage_errors(lang: Lang) -> Vec<Output> {
    let cases: [&[&str]; 12] = [
        &["advise", "--bogus"],
        &["advize"],
        &["advise", "--gpus-per-nod", "8"],
        &["advise", "--params"],
        &["advise", "--num-workers", "abc"],
        &["bench", "decode", "--seconds", "300"],
        &["advise", "--params", "7Q"],
        &["advise", "--dataset-size", "2XB"],
        &["advise", "--strategy", "zero9"],
        &["advise", "--profile", "a.json", "--profile-dir", "lab"],
        &["watch", "--interval", "abc"],
        &["bench", "storage"],
    ];
    cases
        .iter()
        .map(|args| {
            let o = common::ramvram()
                .args(["--lang", lang.code()])
                .args(*args)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            let mut data = help_identifiers();
            data.extend(args.iter().map(|a| a.to_string()));
            data.push("xb".into());
            Output {
                name: format!("usage error ramvram {}", args.join(" ")),
                text: String::from_utf8(o.stderr).unwrap(),
                data,
            }
        })
        .collect()
}

/// What `--help` names as it is typed: commands, flags, their values and value names, and
/// the product's English name beside the Chinese one.
fn help_identifiers() -> Vec<String> {
    fn walk(cmd: &clap::Command, out: &mut Vec<String>) {
        out.push(cmd.get_name().to_string());
        for a in cmd.get_arguments() {
            out.push(a.get_id().to_string());
            for v in a.get_possible_values() {
                out.push(v.get_name().to_string());
            }
        }
        for s in cmd.get_subcommands() {
            walk(s, out);
        }
    }
    let mut out = vec!["RAM·VRAM Advisor".to_string(), "help".into()];
    walk(
        &<ramvram::cli::Args as clap::CommandFactory>::command(),
        &mut out,
    );
    out
}

/// Opens the planner on `fixture` (its first plan: ZeRO-2 without offload), sets the optimizer
/// offload to the CPU, picks the preset shown as `label` and returns the plan on screen.
pub fn pick_preset(fixture: &str, label: &str) -> TrainingPlan {
    let profile = common::fixture(fixture);
    let app = RamvramApp::with_profile(Lang::Zh, &profile, Source::Detected);
    let mut h = harness(app);
    h.run();
    h.get_by_label(tr(Lang::Zh, Msg::TrainTab)).click();
    h.run();
    // The user's own choice first: the optimizer states offloaded to the CPU.
    h.get_by_label(tr(Lang::Zh, Msg::TrainOffloadOptimizer))
        .click();
    h.run();
    h.get_all_by_label("CPU")
        .last()
        .expect("the CPU choice")
        .click();
    h.run();
    // The form's list, not the results' "模型" row (the Training section's model line).
    h.get_by_role_and_label(
        egui::accesskit::Role::ComboBox,
        tr(Lang::Zh, Msg::TrainPreset),
    )
    .click();
    h.run();
    h.get_by_label(label).click();
    h.run();
    let preview = h.state().preview().expect("the planner's preview");
    preview
        .training_memory
        .as_ref()
        .expect("a plan on screen")
        .plan
        .clone()
}
