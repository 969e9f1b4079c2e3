//! The five formats' inputs: bases for JSON mutation, and the GRES and dmidecode grammars.

use super::*;

pub(crate) fn profile_bases() -> Vec<Value> {
    common::all_fixtures()
        .iter()
        .map(|name| serde_json::to_value(common::fixture(name)).unwrap())
        .collect()
}

pub(crate) fn scenario_bases() -> Vec<Value> {
    let mut bases = Vec::new();
    for p in advisor::training::presets::presets().iter() {
        let plan = advisor::training::TrainingPlan::from_preset(p);
        bases.push(json!({"schema_version": 1, "training": plan}));
    }
    for (_, w) in advisor::workload::presets::presets() {
        bases.push(json!({"schema_version": 1, "workload": w}));
    }
    bases
}

pub(crate) fn gres_count(rng: &mut TestRng) -> String {
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
pub(crate) fn gres(rng: &mut TestRng) -> String {
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

pub(crate) fn slurm_mutant() -> impl Strategy<Value = String> {
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
pub(crate) fn dmidecode_text() -> impl Strategy<Value = String> {
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

pub(crate) fn settings_bases() -> Vec<Value> {
    let mut bases = vec![json!({"lang": "zh"}), json!({})];
    for (_, w) in advisor::workload::presets::presets() {
        bases.push(json!({"lang": "en", "workload": w}));
    }
    bases
}
