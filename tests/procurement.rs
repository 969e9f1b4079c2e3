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
    // needs 24 bytes per parameter × 6,738,415,616 parameters to train and, at its peak
    // (resuming: its optimizer partition, 12 bytes per parameter, read beside those states),
    // 36, plus the OS (2 GiB) and one training process (3 GiB), of host RAM. That — not the rules' 2 × 24 = 48 GiB — is what to
    // buy for, with the margin a plan must leave (the need ÷ 0.95: 5 % of the RAM it runs in);
    // LoRA (a technique, not hardware) makes it fit for nothing, and comes first.
    let args = ["--preset", "llama2-7b", "--offload-optimizer", "cpu"];
    let v = advise("aws-g5.xlarge", &args);
    let p = &v["procurement"];
    assert_eq!(p["basis"], "work");
    let need = 36 * 6_738_415_616u64 + 5 * GIB;
    let with_margin = (need as f64 / 0.95).ceil() as u64;
    assert_eq!(p["recommended_ram_bytes"].as_u64(), Some(with_margin));
    assert_eq!(p["rules_ram_bytes"].as_u64(), Some(48 * GIB));
    let fix = &p["cheaper_fixes"][0];
    assert_ne!(fix["kind"], "hardware");
    assert_ne!(fix["kind"], "cloud");
    assert_eq!(fix["result"]["fits"], true);
    let md = report("aws-g5.xlarge", &args, "en");
    assert!(
        md.contains("| RAM needed for what you set up, at least | 243 GiB |"),
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

/// A lab folder holding copies of `fixtures`.
fn lab(fixtures: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in fixtures {
        std::fs::copy(fixture_path(f), dir.path().join(format!("{f}.json"))).unwrap();
    }
    dir
}

/// `report --profile-dir DIR` as Markdown in `lang` with `args`: the text (no-break spaces as
/// spaces), or the failed run's stderr.
fn lab_report(dir: &std::path::Path, args: &[&str], lang: &str) -> Result<String, String> {
    let out = dir.join("lab.md");
    let run = ramvram()
        .args(["report", "--format", "md", "--lang", lang, "--profile-dir"])
        .arg(dir)
        .args(args)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    if !run.status.success() {
        assert_eq!(
            run.status.code(),
            Some(2),
            "refused, never a panic: {run:?}"
        );
        return Err(String::from_utf8_lossy(&run.stderr).into_owned());
    }
    Ok(std::fs::read_to_string(&out)
        .unwrap()
        .replace('\u{a0}', " "))
}

/// The totals row named `key` of the lab's order.
fn total<'a>(md: &'a str, key: &str) -> &'a str {
    let start = md
        .find(&format!("| {key} | "))
        .unwrap_or_else(|| panic!("{key}: {md}"));
    md[start..].lines().next().unwrap()
}

/// Five machines whose purchases are worked out by hand (module sizes from
/// assets/catalog/modules.csv, instance sizes from AWS's g5 table), and one with nothing to buy:
///
/// - desktop-3090-1x32: one 32 GB DDR4-3200 in four slots, a 24 GB GPU; the rules' 2 × 24 =
///   48 GiB takes one more 32 GB module (64 GiB, two channels).
/// - desktop-2x3090-64g: 2 × 24 GB = 48 GB of GPU memory, rules 96 GiB; its CPU sits on a
///   4-channel DDR4 UDIMM platform and its modules can't be read: a full set of 4 × 32 GB =
///   128 GiB (4 × 16 = 64 is short; DDR4 UDIMMs stop at 32 GB).
/// - seed-4090-32g: a 24 GB GPU, rules 48 GiB, board unknown: the 2-channel DDR5 set
///   2 × 24 GB = 48 GiB.
/// - hf-spaces-t4-small: 15 GiB for a 16 GB T4, below its GPU: the fix is 16 GiB, 2 × 8 GB
///   DDR5; the rules' 32 GiB is 2 × 16 GB.
/// - aws-g5.xlarge: 16 GiB for a 24 GB A10G. The fix is the first g5 size with ≥ 24 GiB:
///   g5.2xlarge (32 GiB); the rules' 48 GiB is g5.4xlarge (64 GiB).
/// - dgx-h100: 2 TiB for 640 GB of VRAM, nothing.
///
/// What the rules ask, in all: 1 + 4 + 2 + 2 = 9 modules and one instance; the fixes: 2 modules
/// and one instance. (The report before this counted "1 × 32 GB DDR4-3200" in all.)
const LAB: [&str; 6] = [
    "desktop-3090-1x32-ddr4-4slot",
    "desktop-2x3090-64g",
    "seed-4090-32g",
    "hf-spaces-t4-small",
    "aws-g5.xlarge",
    "dgx-h100",
];

#[test]
fn the_lab_order_counts_every_module_and_set_by_hand() {
    let dir = lab(&LAB);
    let md = lab_report(dir.path(), &[], "en").unwrap();
    assert!(total(&md, "Machines with something to buy or change").ends_with("| 5 |"));
    let rules = total(&md, "Modules for what the rules ask");
    for part in [
        "1 × 32 GB DDR4-3200 UDIMM",
        "4 × 32 GB DDR4 UDIMM",
        "2 × 24 GB DDR5 UDIMM",
        "2 × 16 GB DDR5 UDIMM",
        "(9 modules in all)",
    ] {
        assert!(rules.contains(part), "{part}: {rules}");
    }
    let fix = total(&md, "Modules for the cheapest fixes");
    assert!(
        fix.contains("| 2 × 8 GB DDR5 UDIMM (2 modules in all) |"),
        "{fix}"
    );
    assert!(total(&md, "Instances to move to, cheapest fixes").ends_with("| 1 |"));
    assert!(total(&md, "Instances to move to, what the rules ask").ends_with("| 1 |"));
    // Every line names its machine, quantity and unit; the DGX has none.
    assert!(
        md.contains("| desktop-2x3090-64g | What the rules ask | 32 GB DDR4 UDIMM | 4 | module |"),
        "{md}"
    );
    assert!(!md.contains("| dgx-h100 | What the rules ask"), "{md}");
    // The totals come before the table of machines: page 1.
    assert!(md.find("Modules for what the rules ask") < md.find("| Machine | GPUs |"));
    // The "why" is plain words, not "CPU offload".
    let order = &md[..md.find("| Machine | GPUs |").unwrap()];
    assert!(!order.contains("offload"), "{order}");
    assert!(
        order.contains("the GPU isn't left waiting for data"),
        "{order}"
    );
}

#[test]
fn a_g5_xlarge_gets_the_cheapest_fix_beside_what_the_rules_ask() {
    // AWS's g5 sizes with one A10G: xlarge 16 GiB, 2xlarge 32, 4xlarge 64. RAM < VRAM ends at
    // 24 GiB: g5.2xlarge; the 2× rule's 48 GiB: g5.4xlarge.
    let v = advise("aws-g5.xlarge", &[]);
    let p = &v["procurement"];
    assert_eq!(p["fix_purchase"]["target"]["instance_type"], "g5.2xlarge");
    assert_eq!(
        p["fix_purchase"]["target"]["ram_bytes"].as_u64(),
        Some(32 * GIB)
    );
    assert_eq!(p["purchase"]["target"]["instance_type"], "g5.4xlarge");
    assert_eq!(
        p["purchase"]["target"]["ram_bytes"].as_u64(),
        Some(64 * GIB)
    );
    // A machine whose RAM already reaches its GPUs' memory has no fix to buy.
    assert!(advise("seed-4090-32g", &[])["procurement"]["fix_purchase"].is_null());
    let dir = lab(&["aws-g5.xlarge"]);
    for (lang, fix, rules) in [
        (
            "en",
            "| aws-g5.xlarge | Cheapest fix | g5.2xlarge (32.0 GiB of RAM)",
            "| aws-g5.xlarge | What the rules ask | g5.4xlarge (64.0 GiB of RAM)",
        ),
        (
            "zh",
            "| aws-g5.xlarge | 最省钱方案 | g5.2xlarge（内存 32.0 GiB）",
            "| aws-g5.xlarge | 经验法则要求 | g5.4xlarge（内存 64.0 GiB）",
        ),
    ] {
        let md = lab_report(dir.path(), &[], lang).unwrap();
        let (f, r) = (md.find(fix), md.find(rules));
        assert!(f.is_some() && r.is_some() && f < r, "{lang}: {md}");
    }
}

/// The lab's prices for [`LAB`]'s items (USD).
const PRICES: &str = "item,price,currency\n\
    32 GB DDR4-3200 UDIMM,89.50,USD\n\
    32 GB DDR4 UDIMM,85,USD\n\
    24 GB DDR5 UDIMM,79.99,usd\n\
    16 GB DDR5 UDIMM,49.90,USD\n\
    8 GB DDR5 UDIMM,29.95,USD\n\
    g5.2xlarge,1.212,USD\n\
    g5.4xlarge,1.624,USD\n";

#[test]
fn a_price_list_prices_every_line_with_totals_worked_by_hand() {
    let dir = lab(&LAB);
    let prices = dir.path().join("prices.csv");
    std::fs::write(&prices, PRICES).unwrap();
    let md = lab_report(dir.path(), &["--prices", prices.to_str().unwrap()], "en").unwrap();
    // What the rules ask, once: 1 × 89.50 + 4 × 85 + 2 × 79.99 + 2 × 49.90
    // = 89.50 + 340.00 + 159.98 + 99.80 = 689.28; by the hour: g5.4xlarge 1.624.
    assert!(
        total(&md, "Cost of what the rules ask").contains("USD 689.28 once, USD 1.624 an hour"),
        "{md}"
    );
    // The fixes: 2 × 29.95 = 59.90 once; g5.2xlarge 1.212 an hour.
    assert!(
        total(&md, "Cost of the cheapest fixes").contains("USD 59.90 once, USD 1.212 an hour"),
        "{md}"
    );
    // Each line's cost: 4 × 85 = 340.
    assert!(
        md.contains("| 4 | module | USD 85.00 | USD 340.00 |"),
        "{md}"
    );
    assert!(!md.contains("Lines without a price"), "{md}");
    assert!(md.contains("Prices from the lab's price list"), "{md}");
    assert!(!md.contains("Prices are typical"), "{md}");
}

#[test]
fn without_a_price_list_instances_have_typical_prices_with_source_and_date_and_modules_none() {
    let dir = lab(&["aws-g5.xlarge", "seed-4090-32g"]);
    let md = lab_report(dir.path(), &[], "en").unwrap();
    // AWS's us-east-1 on-demand g5.2xlarge: 1.212 USD an hour (the source and date below).
    assert!(
        md.contains("| USD 1.212 an hour | USD 1.212 an hour |"),
        "{md}"
    );
    assert!(
        md.contains("Prices are typical, not quotes: AWS EC2 on-demand"),
        "{md}"
    );
    assert!(md.contains("read 2026-12-04"), "{md}");
    assert!(md.contains("| 2 | module | no price | no price |"), "{md}");
    assert!(
        total(&md, "Lines without a price").contains("1 line:"),
        "{md}"
    );
}

#[test]
fn the_price_template_round_trips() {
    let dir = lab(&LAB);
    let template = dir.path().join("template.csv");
    lab_report(
        dir.path(),
        &["--prices-template", template.to_str().unwrap()],
        "en",
    )
    .unwrap();
    let text = std::fs::read_to_string(&template).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.remove(0), "item,price,currency");
    let mut items: Vec<&str> = lines
        .iter()
        .map(|l| l.strip_suffix(",,").unwrap())
        .collect();
    items.sort_unstable();
    // Every item of the order once: the hand count above.
    assert_eq!(
        items,
        [
            "16 GB DDR5 UDIMM",
            "24 GB DDR5 UDIMM",
            "32 GB DDR4 UDIMM",
            "32 GB DDR4-3200 UDIMM",
            "8 GB DDR5 UDIMM",
            "g5.2xlarge",
            "g5.4xlarge",
        ]
    );
    // The template as written is a price list (all unpriced) ...
    let md = lab_report(dir.path(), &["--prices", template.to_str().unwrap()], "en").unwrap();
    // Seven lines: one each for the three desktops, two each for the T4 and the g5; the g5's
    // two instance lines the lab left empty take AWS's typical price (g5.2xlarge USD 1.212,
    // g5.4xlarge USD 1.624 an hour), said as typical: five lines stay without a price.
    assert!(
        total(&md, "Lines without a price").contains("5 lines"),
        "{md}"
    );
    assert!(
        total(&md, "Cost of the cheapest fixes").contains("USD 1.212 an hour"),
        "{md}"
    );
    assert!(
        md.contains("Lines the list doesn't price take typical prices"),
        "{md}"
    );
    // ... and filled in, it prices every line.
    let filled: String = std::iter::once("item,price,currency\n".to_string())
        .chain(items.iter().map(|i| format!("{i},10,EUR\n")))
        .collect();
    std::fs::write(&template, filled).unwrap();
    let md = lab_report(dir.path(), &["--prices", template.to_str().unwrap()], "en").unwrap();
    assert!(!md.contains("Lines without a price"), "{md}");
    // The rules' 9 modules and the fixes' 2, at 10 each; one instance each, 10 an hour.
    assert!(
        total(&md, "Cost of what the rules ask").contains("EUR 90.00 once, EUR 10.00 an hour"),
        "{md}"
    );
    assert!(
        total(&md, "Cost of the cheapest fixes").contains("EUR 20.00 once, EUR 10.00 an hour"),
        "{md}"
    );
}

#[test]
fn a_bad_price_list_is_refused_naming_the_file_line_and_field() {
    let dir = lab(&["aws-g5.xlarge"]);
    let file = dir.path().join("prices.csv");
    let cases: [(&[u8], &str, &str); 8] = [
        (
            b"name,cost\ng5.2xlarge,1\n",
            "line 1: the header must be item,price,currency",
            "第 1 行：表头必须是",
        ),
        (
            b"item,price,currency\ng5.2xlarge,abc,USD\n",
            "line 2, field price: “abc” is not a price",
            "第 2 行 price 字段",
        ),
        (
            b"item,price,currency\ng5.2xlarge,-1,USD\n",
            "line 2, field price",
            "第 2 行 price 字段",
        ),
        (
            b"item,price,currency\ng5.2xlarge,\"1,5\",USD\n",
            "line 2, field price",
            "第 2 行 price 字段",
        ),
        (
            b"item,price,currency\ng5.2xlarge,1\n",
            "line 2: 2 fields found",
            "第 2 行：有 2 个字段",
        ),
        (
            b"item,price,currency\ng5.2xlarge,1,\n",
            "line 2: the currency field is empty",
            "第 2 行：currency 字段为空",
        ),
        (
            b"item,price,currency\ng5.2xlarge,1,USD\nG5.2XLARGE,2,USD\n",
            "line 3, field item: “G5.2XLARGE” is already priced on line 2",
            "第 3 行 item 字段",
        ),
        (
            b"item,price,currency\n\xff\xfe,1,USD\n",
            "is not UTF-8 text",
            "不是 UTF-8 文本",
        ),
    ];
    for (bytes, en, zh) in cases {
        std::fs::write(&file, bytes).unwrap();
        let arg = file.to_str().unwrap();
        let err = lab_report(dir.path(), &["--prices", arg], "en").unwrap_err();
        assert!(
            err.contains("prices.csv") && err.contains(en),
            "{en}: {err}"
        );
        let err = lab_report(dir.path(), &["--prices", arg], "zh").unwrap_err();
        assert!(
            err.contains("prices.csv") && err.contains(zh),
            "{zh}: {err}"
        );
    }
    // A missing file is named too; a price list for one machine is refused with the reason.
    let err = lab_report(dir.path(), &["--prices", "/nonexistent/p.csv"], "en").unwrap_err();
    assert!(err.contains("/nonexistent/p.csv"), "{err}");
    let run = ramvram()
        .args(["report", "--profile"])
        .arg(fixture_path("aws-g5.xlarge"))
        .args(["--prices", "x.csv", "--out"])
        .arg(dir.path().join("one.md"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--profile-dir"));
}
