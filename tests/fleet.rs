//! Many machines: the 14 published machines side by side, a Slurm cluster audit, planned
//! machines from the catalogue.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use ramvram::advisor::fleet::{Origin, assess_fleet};
use ramvram::advisor::{FindingId, RuleId, RuleStatus, Tier, Verdict};
use ramvram::catalog::planner::{PlannedMachine, build};
use ramvram::import::slurm;
use std::path::Path;

fn published_dir() -> tempfile::TempDir {
    // The 14 machines of shared/reference/machines.csv (fixtures named after them).
    let dir = tempfile::tempdir().unwrap();
    let names = [
        "dgx-station-v100",
        "dgx-a100",
        "dgx-station-a100",
        "dgx-h100",
        "gh200",
        "aws-p4d.24xlarge",
        "aws-g4dn.xlarge",
        "aws-g5.xlarge",
        "hf-spaces-t4-small",
        "puget-2x3090-128g",
        "student-3080-32g",
        "desktop-2x3090-64g",
        "lab-4090-128g",
        "macbook-pro-m4max-128g",
    ];
    for n in names {
        std::fs::copy(
            common::fixture_path(n),
            dir.path().join(format!("{n}.json")),
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("notes.txt"), "not a profile").unwrap();
    std::fs::write(dir.path().join("broken.json"), "{\"schema_version\": 1,").unwrap();
    dir
}

#[test]
fn the_fourteen_published_machines_in_one_table_with_the_right_tiers() {
    let dir = published_dir();
    let out = Command::cargo_bin("ramvram")
        .unwrap()
        .args(["advise", "--json", "--profile-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let machines = v["machines"].as_array().unwrap();
    assert_eq!(machines.len(), 14);
    let tier = |host: &str| {
        let m = machines.iter().find(|m| m["label"] == host).unwrap();
        m["assessment"]["ratio"]["tier"]
            .as_str()
            .map(str::to_string)
    };
    // Tiers from the published ratios (machines.csv): < 1, 1–1.5, 1.5–2, ≥ 2.
    assert_eq!(tier("aws-g5.xlarge").as_deref(), Some("insufficient"));
    assert_eq!(tier("hf-spaces-t4-small").as_deref(), Some("insufficient"));
    assert_eq!(tier("aws-g4dn.xlarge").as_deref(), Some("baseline"));
    assert_eq!(tier("desktop-2x3090-64g").as_deref(), Some("baseline"));
    assert_eq!(tier("dgx-station-a100").as_deref(), Some("offload"));
    assert_eq!(tier("dgx-h100").as_deref(), Some("large-model"));
    assert_eq!(
        tier("macbook-pro-m4max-128g"),
        None,
        "unified memory has no ratio"
    );
    let skipped: Vec<&str> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["file"].as_str().unwrap())
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(
        skipped.iter().any(|f| f.ends_with("broken.json"))
            && skipped.iter().any(|f| f.ends_with("notes.txt"))
    );
}

#[test]
fn slurm_cluster_with_three_node_types_is_audited() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/slurm/scontrol-show-node.json");
    let profiles = slurm::import(&path).unwrap();
    assert_eq!(profiles.len(), 4);
    let dgx = &profiles[0];
    // RealMemory 2063425 MiB (Slurm's "MB" are MiB); 8 × H100 80 GiB.
    assert_eq!(dgx.memory.total_bytes, Some(2_063_425u64 << 20));
    assert_eq!(dgx.gpus.len(), 8);
    assert_eq!(dgx.gpus[0].vram_total_bytes, Some(80 << 30));
    assert_eq!(dgx.cpu.physical_cores, Some(112));
    // An unknown GRES type stays, with VRAM unknown and a note.
    let k80 = &profiles[3];
    assert_eq!(k80.gpus.len(), 4);
    assert_eq!(k80.gpus[0].vram_total_bytes, None);
    assert!(
        k80.notes
            .iter()
            .any(|n| n.detail.as_deref() == Some("gpu:k80:4"))
    );
    let fleet = assess_fleet(
        profiles
            .into_iter()
            .map(|p| {
                (
                    p.host.hostname.clone().unwrap(),
                    Origin::Slurm("x".into()),
                    p,
                    vec![],
                )
            })
            .collect(),
    );
    // RealMemory 2,063,425 MiB is 2015.1 GiB, 98.4 % of 2 TiB: installed 2048 GiB (estimated),
    // and 2048 / 640 GiB = 3.2, the large-model tier; 62.5 GiB → 64 GiB installed, / 48 GiB =
    // 1.33: baseline.
    let dgx = &fleet[0].assessment;
    assert_eq!(dgx.memory.installed_bytes, Some(2048 << 30));
    assert_eq!(dgx.ratio.tier, Some(Tier::LargeModel));
    assert!((dgx.ratio.ram_to_vram_total.unwrap() - 3.2).abs() < 1e-12);
    assert_eq!(fleet[2].assessment.ratio.tier, Some(Tier::Baseline));
    assert_eq!(fleet[3].assessment.verdict, Verdict::CannotJudge);
    assert!(
        fleet[3]
            .assessment
            .findings
            .iter()
            .any(|f| f.id == FindingId::VramUnknown)
    );
    Command::cargo_bin("ramvram")
        .unwrap()
        .args(["advise", "--lang", "en", "--slurm"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("dgx02"))
        .stdout(predicate::str::contains("old-k80"));
}

#[test]
fn two_3090s_pass_the_2x_rule_with_128_gib_but_not_with_64() {
    let (small, issues) = build(&PlannedMachine::desktop("rtx3090", 2, 64));
    assert!(issues.is_empty());
    let (big, _) = build(&PlannedMachine::desktop("rtx3090", 2, 128));
    let fleet = assess_fleet(vec![
        ("64".into(), Origin::Planned, small, vec![]),
        ("128".into(), Origin::Planned, big, vec![]),
    ]);
    let puget = |i: usize| {
        fleet[i]
            .assessment
            .rules
            .iter()
            .find(|r| r.id == RuleId::Puget2x)
            .unwrap()
            .clone()
    };
    // 2 × 24 GiB × 2 = 96 GiB required: 64 fails, 128 passes (Puget's own worked example).
    assert_eq!(puget(0).required_bytes, Some(96 << 30));
    assert_eq!(puget(0).status, RuleStatus::Fail);
    assert_eq!(puget(1).status, RuleStatus::Pass);
}

#[test]
fn duplicate_host_names_are_both_shown_and_marked() {
    let p = common::fixture("aws-g5.xlarge");
    let fleet = assess_fleet(vec![
        ("a".into(), Origin::File("a.json".into()), p.clone(), vec![]),
        ("b".into(), Origin::File("b.json".into()), p, vec![]),
    ]);
    assert_eq!(fleet.len(), 2);
    assert!(fleet.iter().all(|m| m.duplicate_hostname));
    // The rows say which file each is.
    let names: Vec<String> = fleet
        .iter()
        .map(|m| ramvram::present::fleet::row(ramvram::i18n::Lang::En, m)[0].clone())
        .collect();
    assert_eq!(
        names,
        [
            "a (duplicate host name: a.json)",
            "b (duplicate host name: b.json)"
        ]
    );
}

/// Issue 25: `advise --slurm --json` is written one machine at a time (each assessed, written
/// and dropped), and reads as the fleet document would: 1,500 nodes (a name repeated, marked on
/// both), the same JSON as `FleetDocument` holding every assessment at once.
#[test]
fn the_fleet_json_is_streamed_and_is_the_fleet_document() {
    let dir = tempfile::tempdir().unwrap();
    let mut nodes: Vec<String> = (0..1500)
        .map(|i| format!(r#"{{"name":"n{i:04}","gres":"gpu:a100:8","real_memory":1048576}}"#))
        .collect();
    nodes[7] = r#"{"name":"n0003","gres":"gpu:a100:8","real_memory":1048576}"#.into();
    let file = dir.path().join("nodes.json");
    std::fs::write(&file, format!(r#"{{"nodes":[{}]}}"#, nodes.join(","))).unwrap();
    let out = Command::cargo_bin("ramvram")
        .unwrap()
        .args(["advise", "--json", "--lang", "en", "--slurm"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let origin = Origin::Slurm(file.display().to_string());
    let inputs = slurm::import(&file)
        .unwrap()
        .into_iter()
        .map(|p| {
            (
                p.host.hostname.clone().unwrap(),
                origin.clone(),
                p,
                Vec::new(),
            )
        })
        .collect();
    let machines = assess_fleet(inputs);
    let doc = ramvram::report::FleetDocument::new(ramvram::i18n::Lang::En, &machines, &[]);
    let whole = serde_json::to_string_pretty(&doc).unwrap() + "\n";
    assert_eq!(String::from_utf8(out.stdout).unwrap(), whole);
    let dup: Vec<bool> = machines.iter().map(|m| m.duplicate_hostname).collect();
    assert_eq!(dup.iter().filter(|d| **d).count(), 2, "n0003 twice");
}

/// Issue 25: streamed, `advise --slurm --json` holds one assessment at a time. 4,000 nodes
/// held at once took about 230 MiB (measured: 20,000 took 1.1 GiB); with the data segment
/// limited to 64 MiB (`RLIMIT_DATA`, which counts the heap) the whole answer is still written.
#[cfg(target_os = "linux")]
#[test]
fn the_fleet_json_of_thousands_of_nodes_fits_in_a_small_heap() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let nodes: Vec<String> = (0..4000)
        .map(|i| format!(r#"{{"name":"n{i:04}","gres":"gpu:a100:8","real_memory":1048576}}"#))
        .collect();
    let file = dir.path().join("nodes.json");
    std::fs::write(&file, format!(r#"{{"nodes":[{}]}}"#, nodes.join(","))).unwrap();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("ramvram"));
    cmd.args(["advise", "--json", "--slurm"]).arg(&file);
    // SAFETY: only setrlimit between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = 64 << 20;
            let rl = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_DATA, &rl) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["machines"].as_array().unwrap().len(), 4000);
}

/// The lab comparison's purchase table: each machine's order line and the totals, in the
/// window's order. Figures by hand: the desktop holds one 32 GB DDR4-3200 module in four slots
/// and the rules ask for 2 × 24 GB = 48 GiB, so one more module each (32 GiB added each); the
/// g5.xlarge (16 GiB) moves to the g5.4xlarge (64 GiB, AWS's table), the first g5 size with 48.
#[test]
fn the_lab_report_adds_up_what_to_buy_and_follows_the_window_order() {
    use ramvram::advisor::buying::lab::{LabTotals, machine_lines, typical_prices};
    use ramvram::present::fleet::FleetSort;
    let desk = common::fixture("desktop-3090-1x32-ddr4-4slot");
    let fleet = assess_fleet(vec![
        (
            "desk-a".into(),
            Origin::File("a.json".into()),
            desk.clone(),
            vec![],
        ),
        ("desk-b".into(), Origin::File("b.json".into()), desk, vec![]),
        (
            "g5".into(),
            Origin::File("g5.json".into()),
            common::fixture("aws-g5.xlarge"),
            vec![],
        ),
        (
            "dgx".into(),
            Origin::File("dgx.json".into()),
            common::fixture("dgx-h100"),
            vec![],
        ),
    ]);
    let mut t = LabTotals::default();
    for m in &fleet {
        let a = &m.assessment;
        let lines = machine_lines(
            &m.label,
            &a.procurement,
            a.profile.memory.channels_populated,
        );
        t.add(&lines, &typical_prices());
    }
    assert_eq!(
        t.machines, 3,
        "the DGX H100 (2 TiB for 640 GB of VRAM) needs nothing"
    );
    assert_eq!(
        t.modules_rules,
        [("32 GB DDR4-3200 UDIMM".to_string(), 2)],
        "one 32 GB module for each desktop"
    );
    assert!(
        t.modules_fix.is_empty(),
        "the desktops' RAM reaches their GPU's"
    );
    assert_eq!((t.instances_fix, t.instances_rules), (1, 1));
    let options = ramvram::report::ReportOptions {
        format: ramvram::report::Format::Markdown,
        lang: ramvram::report::ReportLang::One(ramvram::i18n::Lang::En),
        redact: false,
        date: "2026-12-01".into(),
        source_file: None,
    };
    // Sorted by RAM:VRAM, largest first (column 4): DGX H100 2048/640 = 3.2×, the desktops
    // 32/24 = 1.33×, the g5 16/24 = 0.67×.
    let sort = Some(FleetSort {
        column: 4,
        ascending: false,
    });
    let md = String::from_utf8(
        ramvram::report::render_fleet_sorted(&fleet, &[], &options, sort).unwrap(),
    )
    .unwrap();
    // The machines' table, after the lab's order (page 1).
    let table = md.find("| Machine | GPUs |").expect("the machines' table");
    let at = |s: &str| {
        md[table..]
            .find(&format!("| {s} "))
            .unwrap_or_else(|| panic!("{s}: {md}"))
    };
    assert!(at("dgx") < at("desk-a") && at("desk-b") < at("g5"), "{md}");
    // The order's lines follow the same order: the desktops (1.33×) before the g5 (0.67×).
    let order = &md[..table];
    let line = |s: &str| {
        order
            .find(&format!("| {s} |"))
            .unwrap_or_else(|| panic!("{s}: {md}"))
    };
    assert!(
        line("desk-a") < line("desk-b") && line("desk-b") < line("g5"),
        "{md}"
    );
    assert!(order.contains("### What to buy, across the lab"), "{md}");
    assert!(
        order.contains(
            "| Modules for what the rules ask | 2 × 32 GB DDR4-3200 UDIMM (2 modules in all) |"
        ),
        "{md}"
    );
    assert!(order.contains("g5.4xlarge (64.0\u{a0}GiB of RAM)"), "{md}");
    // The g5's cheapest fix beside it: g5.2xlarge (32 GiB ≥ its 24 GB A10G).
    assert!(order.contains("g5.2xlarge (32.0\u{a0}GiB of RAM)"), "{md}");
}

/// The fleet assessor shares one assessment among machines that differ only in their host
/// name; each machine's answer must still be exactly what `assess` gives it alone.
#[test]
fn machines_of_one_shape_get_the_assessment_assess_gives_each_alone() {
    use ramvram::advisor::fleet::{FleetAssessor, FleetInput};
    use ramvram::advisor::{Scenario, assess};
    let mut inputs: Vec<FleetInput> = Vec::new();
    // Every fixture three times, interleaved, so a shape comes back after others: under two
    // host names and once with none.
    for round in 0..3 {
        for name in common::all_fixtures() {
            let mut p = common::fixture(&name);
            p.host.hostname = (round < 2).then(|| format!("{name}-{round}"));
            inputs.push((name.clone(), Origin::File(name), p, vec![]));
        }
    }
    // More shapes than the assessor keeps (64): one profile with 70 RAM sizes, twice.
    for round in 0..2 {
        for gib in 0..70u64 {
            let mut p = common::fixture("seed-4090-32g");
            p.memory.total_bytes = Some((16 + gib) << 30);
            p.host.hostname = Some(format!("n{gib}-{round}"));
            inputs.push((format!("n{gib}"), Origin::Slurm("x".into()), p, vec![]));
        }
    }
    assert!(inputs.len() > 200);
    let fleet = assess_fleet(inputs.clone());
    let mut assessor = FleetAssessor::new();
    let none = Default::default();
    for (input, m) in inputs.into_iter().zip(&fleet) {
        let alone = assess(&input.2, &Scenario::NONE);
        assert_eq!(m.assessment, alone, "{}", input.0);
        assert_eq!(m.assessment.profile, input.2, "{}", input.0);
        // Looked at in place (a table row), the machine is the same as the one handed out.
        let label = input.0.clone();
        let seen = assessor.marked_with(input, &none, |m| m.clone());
        assert_eq!(seen.assessment, alone, "{label}");
    }
}

/// A node whose ratio can't be judged is told to see what detection could not read: the lab
/// report lists it under the verdict (the K80's GRES type is not in the catalogue).
#[test]
fn a_fleet_verdict_that_cannot_judge_lists_what_was_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lab.md");
    let slurm =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/slurm/scontrol-show-node.json");
    Command::cargo_bin("ramvram")
        .unwrap()
        .args(["report", "--lang", "en", "--slurm"])
        .arg(&slurm)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let md = std::fs::read_to_string(&out).unwrap();
    let verdict = md
        .find("**old-k80: Can't judge the RAM:VRAM ratio**")
        .expect(&md);
    let after = &md[verdict..];
    let bullet = after.find("\n- ").expect(after);
    assert!(
        after[bullet..]
            .lines()
            .nth(1)
            .unwrap()
            .contains("gpu:k80:4"),
        "{after}"
    );
}
