//! The procurement section as a student or a lab's procurement office reads it: what was set up
//! decides what to buy; the published rules are what they ask for, not a need; a plan that fits
//! never gets "another machine" as its answer. Run through the command line, as a user would.

mod common;

use common::{GIB, fixture_path, json_of, ramvram};

/// `advise --json` for `fixture` with `args`.
fn advise(fixture: &str, args: &[&str]) -> serde_json::Value {
    let path = fixture_path(fixture);
    let mut cmd = ramvram();
    cmd.args(["advise", "--json", "--profile"])
        .arg(&path)
        .args(args);
    json_of(&mut cmd)
}

/// The Markdown report for `fixture` with `args` in `lang`, no-break spaces as spaces.
fn report(fixture: &str, args: &[&str], lang: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.md");
    ramvram()
        .args(["report", "--format", "md", "--lang", lang, "--profile"])
        .arg(fixture_path(fixture))
        .args(args)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    std::fs::read_to_string(&out)
        .unwrap()
        .replace('\u{a0}', " ")
}

/// The paragraphs under the "What to buy" heading, up to the next section.
fn what_to_buy<'a>(md: &'a str, heading: &str) -> Vec<&'a str> {
    let Some(start) = md.find(heading) else {
        return Vec::new();
    };
    md[start + heading.len()..]
        .split("\n## ")
        .next()
        .unwrap()
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

#[test]
fn a_plan_that_fits_needs_no_ram_and_the_rules_are_only_room_for_more() {
    // The tryout: QLoRA of Llama 2 13B on a laptop with 16 GiB of soldered LPDDR5 and a 16 GB
    // RTX 4090 Laptop GPU (NVML: 16,376 MiB). The plan fits (the training section says so); the
    // published rules' 2 × 16,376 MiB (32.0 GiB) is room for CPU offload or larger models, not a
    // need.
    let args = ["--preset", "llama2-13b", "--finetune", "qlora"];
    let v = advise("laptop-4090m-lpddr5-soldered", &args);
    let p = &v["procurement"];
    assert_eq!(v["training_memory"]["fits"], true);
    assert_eq!(p["basis"], "work-fits");
    assert!(p["recommended_ram_bytes"].is_null(), "{p}");
    assert!(p["purchase"].is_null(), "nothing to buy: {p}");
    assert_eq!(p["rules_ram_bytes"].as_u64(), Some(2 * (16_376 << 20)));
    assert_eq!(p["rules_purchase"]["kind"], "soldered");
    assert_eq!(p["work"][0]["subject"], "training");
    assert_eq!(p["work"][0]["fits"], true);

    let md = report("laptop-4090m-lpddr5-soldered", &args, "en");
    assert!(!md.contains("RAM needed, at least"), "{md}");
    assert!(
        md.contains("| RAM the published rules ask for | 32.0 GiB |"),
        "{md}"
    );
    let paras = what_to_buy(&md, "### What to buy for this machine");
    assert!(
        paras[0].starts_with("No RAM to buy for what you set up (the training plan): at its peak"),
        "{paras:?}"
    );
    // "Another machine" only after the rules are framed as optional room.
    let room = md
        .find("Only if you want that room")
        .expect("rules framed as room");
    let another = md
        .find("another machine")
        .expect("what the rules would take");
    assert!(room < another, "{md}");

    let zh = report("laptop-4090m-lpddr5-soldered", &args, "zh");
    let paras = what_to_buy(&zh, "### 这台机器该买什么");
    assert!(
        paras[0].starts_with("按你设置的内容（训练计划），不用再买内存"),
        "{paras:?}"
    );
    assert!(zh.find("只有想要这份余量时才需要").unwrap() < zh.find("只能换一台机器").unwrap());
}

#[test]
fn nothing_set_up_sizes_ram_by_the_rules_and_says_so() {
    // The same laptop alone: the rules' 2 × 16,376 MiB is the target, worded as theirs.
    let v = advise("laptop-4090m-lpddr5-soldered", &[]);
    let p = &v["procurement"];
    assert_eq!(p["basis"], "rules");
    assert_eq!(
        p["recommended_ram_bytes"].as_u64(),
        Some(2 * (16_376 << 20))
    );
    assert_eq!(p["purchase"]["kind"], "soldered");
    let md = report("laptop-4090m-lpddr5-soldered", &[], "en");
    let paras = what_to_buy(&md, "### What to buy for this machine");
    assert!(
        paras[0].starts_with("Nothing was set up to check against this machine")
            && paras[0].contains("this follows the published rules: 32.0 GiB"),
        "{paras:?}"
    );
    // A machine that meets every rule (128 GiB for one 24 GB GPU: 2 × 24 = 48) and has nothing
    // set up: no purchase section at all.
    let md = report("lab-4090-128g", &[], "en");
    assert!(
        md.contains("| RAM the published rules ask for | met by the RAM installed |"),
        "{md}"
    );
    assert!(!md.contains("### What to buy for this machine"), "{md}");
}

#[test]
fn a_plan_that_does_not_fit_buys_for_its_need_after_the_cheaper_change() {
    // Full fine-tuning of Llama 2 7B with optimizer offload on a g5.xlarge (16 GiB): the plan
    // needs 24 bytes per parameter × 6,738,415,616 parameters, plus the OS (2 GiB) and one
    // training process (3 GiB), of host RAM. That — not the rules' 2 × 24 = 48 GiB — is what to
    // buy for, with the margin a plan must leave (the need ÷ 0.95: 5 % of the RAM it runs in);
    // LoRA (a technique, not hardware) makes it fit for nothing, and comes first.
    let args = ["--preset", "llama2-7b", "--offload-optimizer", "cpu"];
    let v = advise("aws-g5.xlarge", &args);
    let p = &v["procurement"];
    assert_eq!(p["basis"], "work");
    let need = 24 * 6_738_415_616u64 + 5 * GIB;
    let with_margin = (need as f64 / 0.95).ceil() as u64;
    assert_eq!(p["recommended_ram_bytes"].as_u64(), Some(with_margin));
    assert_eq!(p["rules_ram_bytes"].as_u64(), Some(48 * GIB));
    let fix = &p["cheaper_fixes"][0];
    assert_ne!(fix["kind"], "hardware");
    assert_ne!(fix["kind"], "cloud");
    assert_eq!(fix["result"]["fits"], true);
    let md = report("aws-g5.xlarge", &args, "en");
    assert!(
        md.contains("| RAM needed for what you set up, at least | 164 GiB |"),
        "{md}"
    );
    let paras = what_to_buy(&md, "### What to buy for this machine");
    assert!(
        paras[0].starts_with("A cheaper change makes what you set up fit without buying anything")
            && paras[1].starts_with("Move to g5.16xlarge"),
        "{paras:?}"
    );
}

#[test]
fn a_workload_waiting_for_storage_hears_of_cheaper_fixes_before_page_cache_ram() {
    // ImageNet from a hard disk on a 32 GiB machine: the working set fits (no RAM to buy to run
    // it), but the GPUs wait for storage. Shards or a local NVMe copy come before the RAM that
    // would hold the dataset in the page cache — the same figure as the finding's.
    let args = ["--workload", "imagenet-resnet50", "--storage", "hdd"];
    let v = advise("student-3080-32g", &args);
    let p = &v["procurement"];
    assert_eq!(p["basis"], "work-fits");
    let target = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "dataset-not-cached")
        .unwrap()["values"]["target"]["value"]
        .as_u64();
    assert_eq!(p["work"][0]["page_cache_bytes"].as_u64(), target);
    let md = report("student-3080-32g", &args, "en");
    let paras = what_to_buy(&md, "### What to buy for this machine");
    assert!(paras[0].starts_with("No RAM to buy for what you set up (the data-loading workload)"));
    assert!(
        paras[1].starts_with("The GPUs wait for storage, though")
            && paras[1].contains("shards or copying it to a local NVMe drive costs less than RAM"),
        "{paras:?}"
    );
}

/// Llama 2 7B, FSDP without offload, on four 16 GB RTX 4080s with 64 GiB (the tryout): each GPU
/// would hold 16 × 6.74e9 / 4 B = 25.1 GiB of sharded states plus the unsharded largest layer,
/// more than 16 GiB, so no amount of RAM makes the plan fit. Procurement buys nothing for it and
/// says why; the training section names what falls short instead of a RAM size.
#[test]
fn ram_that_cannot_make_a_plan_fit_is_not_bought_for_it() {
    let args = ["--preset", "llama2-7b", "--strategy", "fsdp"];
    let v = advise("live-4x4080-64g", &args);
    let t = &v["training_memory"];
    assert_eq!(t["gpu"]["fits"], false);
    assert_eq!(t["cpu"]["fits"], false);
    assert!(t["ram_to_fit_bytes"].is_null(), "{t}");
    let p = &v["procurement"];
    assert_eq!(p["basis"], "ram-wont-fix");
    assert!(p["recommended_ram_bytes"].is_null());
    assert_eq!(p["work"][0]["others_fit"], false);
    // Only the rules' targets remain, and the training plan's isn't among them.
    for target in p["targets"].as_array().unwrap() {
        assert_ne!(target["reason"], "training-plan", "{target}");
    }
    assert!(
        v["recommendations"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["id"] != "add-ram")
    );
    let md = report("live-4x4080-64g", &args, "en");
    assert!(md.contains("More RAM alone wouldn't make it fit: each GPU's memory falls short."));
    let buy = what_to_buy(&md, "### What to buy for this machine");
    assert!(
        buy[0].starts_with("No RAM to buy for what you set up (the training plan)"),
        "{buy:?}"
    );
    let zh = report("live-4x4080-64g", &args, "zh");
    assert!(
        zh.contains("光加内存放不下它：卡在每块 GPU 的显存上。"),
        "{zh}"
    );
}
