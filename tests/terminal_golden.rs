//! Golden files of what a user reads: `detect` and `advise` in the terminal, `advise` over a
//! folder of machines, and the Markdown reports of the same machines and plans, in English and
//! Chinese. They are reviewed freezes: a change to any of them is a layout change someone read.
//! Rerun with `RAMVRAM_BLESS=1` to rewrite them, then review `git diff tests/golden/`.

mod common;

use std::path::{Path, PathBuf};

use ramvram::advisor::{Scenario, assess};
use ramvram::i18n::Lang;

/// A machine and what is set up on it, named for its golden files.
struct Case {
    name: &'static str,
    fixture: &'static str,
    plan: &'static [&'static str],
}

/// Four kinds of machine (the seed's 4090 workstation, a cloud instance, an 8-GPU server, a
/// Mac), each alone and with a plan: fine-tuning, a data-loading workload, serving; and two
/// unified pools that overflow (a Jetson training beside its loader, a DGX Spark's vLLM).
const CASES: &[Case] = &[
    Case {
        name: "seed-4090-32g",
        fixture: "seed-4090-32g",
        plan: &[],
    },
    Case {
        name: "seed-4090-32g-lora",
        fixture: "seed-4090-32g",
        plan: &["--model", "llama-3.1-8b", "--finetune", "lora"],
    },
    Case {
        name: "g5",
        fixture: "aws-g5.xlarge",
        plan: &[],
    },
    Case {
        name: "g5-imagenet",
        fixture: "aws-g5.xlarge",
        plan: &["--workload", "imagenet-resnet50"],
    },
    Case {
        name: "dgx-h100",
        fixture: "dgx-h100",
        plan: &[],
    },
    Case {
        name: "dgx-h100-vllm-70b",
        fixture: "dgx-h100",
        plan: &[
            "--preset",
            "llama2-70b",
            "--inference",
            "vllm",
            "--gpus-per-node",
            "4",
        ],
    },
    Case {
        name: "m4max",
        fixture: "macbook-pro-m4max-128g",
        plan: &[],
    },
    Case {
        name: "m4max-qwen-llamacpp",
        fixture: "macbook-pro-m4max-128g",
        plan: &["--model", "qwen2.5-7b", "--inference", "llama.cpp"],
    },
    // Unified pools that overflow: the verdict in the pool's words.
    Case {
        name: "jetson-coco",
        fixture: "pools/jetson-orin-nano-8g",
        plan: &[
            "--workload",
            "coco-detector",
            "--num-workers",
            "4",
            "--batch-size",
            "16",
            "--preset",
            "resnet50",
            "--precision",
            "fp32",
        ],
    },
    Case {
        name: "gb10-vllm-0.33",
        fixture: "pools/dgx-spark-gb10",
        plan: &[
            "--preset",
            "qwen3-30b-a3b",
            "--inference",
            "vllm",
            "--gpu-memory-utilization",
            "0.87",
            "--vllm-version",
            "0.33",
        ],
    },
];

/// The machines of the fleet golden files.
const FLEET: &[&str] = &[
    "seed-4090-32g",
    "aws-g5.xlarge",
    "dgx-h100",
    "macbook-pro-m4max-128g",
    "student-3080-32g",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn lang_arg(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Zh => "zh",
    }
}

/// The fixture's path as a user in the repository's root would type it (the output names it).
/// A name with a folder (`pools/…`) is under `tests/fixtures/`.
fn relative_fixture(name: &str) -> String {
    if name.contains('/') {
        return format!("tests/fixtures/{name}.json");
    }
    format!("tests/fixtures/profiles/{name}.json")
}

/// Compares `text` with the golden file `rel` under tests/golden (rewriting it first when
/// `RAMVRAM_BLESS` is set); a difference is added to `failures`.
fn check(rel: &str, text: &str, failures: &mut Vec<String>) {
    let path: PathBuf = root().join("tests/golden").join(rel);
    if std::env::var_os("RAMVRAM_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == text => {}
        Ok(_) => failures.push(format!("{rel} differs")),
        Err(e) => failures.push(format!("{rel}: {e}")),
    }
}

fn finish(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{}\nreview and rerun with RAMVRAM_BLESS=1",
        failures.join("\n")
    );
}

/// Runs ramvram in the repository's root and returns its standard output (it must succeed).
fn run(args: &[&str]) -> String {
    let out = common::ramvram()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `ramvram detect` for each machine: what the command prints for a detected profile
/// (`detect` reads no file, so the fixture stands in for detection).
#[test]
fn detect_golden() {
    let mut failures = Vec::new();
    for case in CASES.iter().filter(|c| c.plan.is_empty()) {
        let a = assess(&common::fixture(case.fixture), &Scenario::NONE);
        for lang in Lang::ALL {
            let text = ramvram::codespan::plain(&ramvram::cli::text::hardware(lang, &a));
            let rel = format!("terminal/detect-{}-{}.txt", case.name, lang_arg(lang));
            check(&rel, &text, &mut failures);
        }
    }
    finish(failures);
}

/// `ramvram advise --profile F [plan]` for each case, in each language.
#[test]
fn advise_golden() {
    let mut failures = Vec::new();
    for case in CASES {
        let profile = relative_fixture(case.fixture);
        for lang in Lang::ALL {
            let mut args = vec!["advise", "--lang", lang_arg(lang), "--profile", &profile];
            args.extend(case.plan);
            let rel = format!("terminal/advise-{}-{}.txt", case.name, lang_arg(lang));
            check(&rel, &run(&args), &mut failures);
        }
    }
    finish(failures);
}

/// A report's Markdown with its date (today's, on the `_date · ramvram …_` line) replaced by
/// `DATE`; other dates (the typical prices' "read 2026-12-04") are kept.
fn markdown_report(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.md");
    let mut all: Vec<&str> = args.to_vec();
    let out_arg = out.to_str().unwrap().to_string();
    all.extend(["--out", &out_arg]);
    run(&all);
    std::fs::read_to_string(&out)
        .unwrap()
        .replace(&format!("_{} · ", ramvram::report::today()), "_DATE · ")
}

/// `ramvram report --profile F [plan] --out r.md`: the document the terminal's `advise` shares
/// its sections with.
#[test]
fn report_markdown_golden() {
    let mut failures = Vec::new();
    for case in CASES {
        let profile = relative_fixture(case.fixture);
        for lang in Lang::ALL {
            let mut args = vec!["report", "--lang", lang_arg(lang), "--profile", &profile];
            args.extend(case.plan);
            let rel = format!("report/{}-{}.md", case.name, lang_arg(lang));
            check(&rel, &markdown_report(&args), &mut failures);
        }
    }
    finish(failures);
}

/// A folder of five machines: `advise --profile-dir` and `report --profile-dir` in Markdown.
#[test]
fn fleet_golden() {
    let dir = tempfile::tempdir().unwrap();
    for name in FLEET {
        std::fs::copy(
            common::fixture_path(name),
            dir.path().join(format!("{name}.json")),
        )
        .unwrap();
    }
    let folder = dir.path().to_str().unwrap().to_string();
    let mut failures = Vec::new();
    for lang in Lang::ALL {
        let l = lang_arg(lang);
        let text = run(&["advise", "--lang", l, "--profile-dir", &folder]);
        check(&format!("terminal/fleet-{l}.txt"), &text, &mut failures);
        let md = markdown_report(&["report", "--lang", l, "--profile-dir", &folder]);
        check(&format!("report/fleet-{l}.md"), &md, &mut failures);
    }
    finish(failures);
}
