//! Issue 21's cases: public reports the recommender was never tuned on. Each test runs `advise`
//! as the user would, checks the first recommendation against a value worked out here by hand,
//! then re-runs the same command with that recommendation's `apply` arguments and checks that
//! the promise holds (every limit, with headroom).

mod common;

use common::{GIB, json_of, ramvram};
use serde_json::Value;

/// A case's machine: `tests/fixtures/cases/NAME.json` (apart from the lab folder other tests
/// read whole), or a shared fixture profile.
fn fixture_path(name: &str) -> std::path::PathBuf {
    let case = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cases")
        .join(format!("{name}.json"));
    if case.exists() {
        case
    } else {
        common::fixture_path(name)
    }
}

/// `advise --json --profile FIXTURE ARGS…`.
fn advise(profile: &str, args: &[&str]) -> Value {
    json_of(
        ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(fixture_path(profile))
            .args(args),
    )
}

/// The same command with `rec`'s `apply` arguments added.
fn rerun(profile: &str, args: &[&str], rec: &Value) -> Value {
    let apply: Vec<String> = rec["apply"]
        .as_array()
        .expect("apply")
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    assert!(!apply.is_empty(), "no apply arguments: {rec}");
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(apply);
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    advise(profile, &refs)
}

fn first(v: &Value) -> &Value {
    &v["recommendations"][0]
}

fn ids(v: &Value) -> Vec<String> {
    v["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

/// Free Colab (MemTotal 12.7 GiB, a 15 GB T4): Mistral-7B (7.24 × 10^9 parameters, 32 layers,
/// hidden 4,096, 8 KV heads) from its `.bin` checkpoint — two bf16 pickle shards of 9.94 and
/// 5.06 GB — served in 4 bits with `device_map="auto"`. transformers reads one shard at a time
/// and `torch.load` holds it whole: 9.94 × 10^9 B + the runtime (OS 2 GiB + one process 3 GiB)
/// = 14.3 GiB, over 12.7 GiB: "session crashed after using all available RAM". The
/// safetensors files are memory-mapped: only one tensor is the process's own.
#[test]
fn colab_loading_a_pickle_checkpoint_is_fixed_by_its_safetensors_files() {
    let args = [
        "--inference",
        "transformers",
        "--params",
        "7.24B",
        "--layers",
        "32",
        "--hidden-size",
        "4096",
        "--heads",
        "32",
        "--kv-heads",
        "8",
        "--weights",
        "int4",
        "--checkpoint-files",
        "pickle",
        "--checkpoint-dtype",
        "bf16",
        "--checkpoint-shard-size",
        "9.94GB",
    ];
    let v = advise("colab-free-t4", &args);
    let m = &v["inference_memory"];
    let loading = 9_940_000_000u64 + 5 * GIB;
    assert_eq!(m["phases"][0]["cpu_bytes_per_node"], loading);
    assert_eq!(m["cpu"]["available_bytes"], 13_290_452u64 * 1024);
    assert_eq!(m["cpu"]["fits"], false);
    assert_eq!(v["headline"]["id"], "inference-does-not-fit");
    assert_eq!(v["headline"]["severity"], "critical");
    let r = first(&v);
    assert_eq!(r["id"], "use-safetensors", "{:?}", ids(&v));
    assert_eq!(r["gives_up"], "nothing");
    assert_eq!(r["result"]["fits"], true);
    assert_eq!(
        r["apply"],
        serde_json::json!(["--checkpoint-files", "safetensors"])
    );
    // Re-run: loading is one tensor (assumed largest layer) + the runtime; it fits, with at
    // least the 1 GiB margin left.
    let after = rerun("colab-free-t4", &args, r);
    let m = &after["inference_memory"];
    assert_eq!(m["fits"], true);
    assert!(m["cpu"]["headroom_bytes"].as_i64().unwrap() >= GIB as i64);
    assert_eq!(m["plan"]["files"], "safetensors");
}

/// Docker's default 64 MiB `/dev/shm`, the seed article's 4K example with 2 workers and batch 8:
/// no change marked "fits" may leave `/dev/shm` short, and more workers come with the size they
/// need. Each worker's prefetched batches sit in shared memory: workers × prefetch_factor ×
/// batch × one 1024² × 3 float32 sample (12,582,912 B).
#[test]
fn docker_shm_every_fitting_change_has_the_shared_memory_it_needs() {
    let args = [
        "--workload",
        "seed-4k-medical",
        "--num-workers",
        "2",
        "--batch-size",
        "8",
    ];
    let v = advise("docker-4090-limit32g-shm64m", &args);
    let shm = 64u64 << 20;
    assert_eq!(v["profile"]["memory"]["shm_bytes"], shm);
    let sample = 3 * 1024 * 1024 * 4u64;
    for r in v["recommendations"].as_array().unwrap() {
        if r["result"]["fits"] != true {
            continue;
        }
        let need = r["result"]["shm_needed_bytes"].as_u64().unwrap_or(0);
        let has = r["machine_change"]["shm_bytes"].as_u64().unwrap_or(shm);
        assert!(need <= has, "{} fits with /dev/shm short: {r}", r["id"]);
        if r["id"] == "increase-num-workers" {
            let n = r["changes"]["num_workers"]["value"].as_u64().unwrap();
            assert!(need >= n * 2 * 8 * sample, "{r}");
            assert!(
                r["apply"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|a| a == "--shm-size"),
                "{r}"
            );
        }
    }
    // The first one, re-run: no shm-small finding, the working set fits.
    let r = first(&v);
    assert_eq!(r["result"]["fits"], true);
    let after = rerun("docker-4090-limit32g-shm64m", &args, r);
    assert!(
        after["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["id"] != "shm-small"),
        "{}",
        after["findings"]
    );
    assert!(after["memory_budget"]["headroom_bytes"].as_i64().unwrap() > 0);
}

/// SDXL's UNet (2,567,463,684 parameters), ZeRO-2 with the optimizer in CPU RAM, one 12 GB
/// GPU, 64 GB installed (MemTotal 62.7 GiB, 2 GiB of swap). Training: DeepSpeed's estimate
/// p × 16 × 1.5 = 61,619,128,416 B plus the runtime (2 GiB OS + one 3 GiB process) =
/// 66,987,837,536 B leaves 337,233,824 B — less than the margin, 5 % of 62.7 GiB = 3.1 GiB.
/// The real machine ran out of memory; the user moved to 128 GB. Resuming (every run may),
/// the rank reads its optimizer partition (fp32 weights and Adam's two moments, 12 × p =
/// 30,809,564,208 B) beside the offloaded states it replaces (deepspeed/runtime/engine.py,
/// `_get_all_zero_checkpoint_state_dicts`, map_location='cpu'): 97,797,401,744 B, past RAM by
/// 28.4 GiB, once. So the plan does not fit, at its resume phase. A swap file for that
/// one-off peak (RAM to hold it with the margin, 97,797,401,744 ÷ 0.95 = 102,944,633,414 B, over
/// usable by 35,619,562,054 B × 1.1 = 36.5 GiB → 37 GiB, less the 2 GiB configured: 35 GiB)
/// leaves the training phase without its margin, so it doesn't fit when re-run; the first
/// change is the RAM the user bought: 102,944,633,414 B usable ÷ (65,747,140 kB ÷ 64 GiB) =
/// 97.9 GiB installed → 128 GiB.
#[test]
fn sdxl_with_optimizer_offload_on_64_gb_is_tight_to_train_and_over_when_resuming() {
    let args = [
        "--preset",
        "sdxl-unet",
        "--strategy",
        "zero2",
        "--offload-optimizer",
        "cpu",
    ];
    let v = advise("desktop-4070-64g", &args);
    let t = &v["training_memory"];
    let usable = 65_747_140u64 * 1024;
    let p = 2_567_463_684u64;
    let training = 24 * p + 5 * GIB;
    assert_eq!(training, 66_987_837_536);
    let phase = |id: &str| {
        t["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["phase"] == id)
            .unwrap()["cpu_bytes_per_node"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(phase("training"), training);
    let margin = (usable as f64 * 0.05).round() as u64;
    assert_eq!(t["cpu"]["margin_bytes"], margin);
    assert!(
        training <= usable && training + margin > usable,
        "tight to train"
    );
    let resume = training + 12 * p;
    assert_eq!(phase("resume"), resume);
    assert_eq!(t["cpu_peak_phase"], "resume");
    assert_eq!(t["cpu"]["needed_bytes"], resume);
    assert_eq!(t["cpu"]["headroom_bytes"], usable as i64 - resume as i64);
    assert_eq!(t["fits"], false);
    assert_eq!(v["headline"]["id"], "training-does-not-fit");
    // The text headline names the phase that breaks.
    let out = ramvram()
        .args(["advise", "--lang", "en", "--profile"])
        .arg(fixture_path("desktop-4070-64g"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("its Resume phase needs"), "{text}");
    let hold = (resume as f64 / 0.95).ceil() as u64;
    let wanted = ((hold - usable) as f64 * 1.1 / GIB as f64).ceil() as u64;
    assert_eq!(wanted, 37);
    let swap = v["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "add-swap")
        .expect("add-swap");
    assert_eq!(swap["changes"]["swap"]["value"], (wanted - 2) * GIB);
    assert_eq!(swap["result"]["fits"], false);
    // Re-run with the swap it says (`--swap`, 37 GiB in all): the resume peak goes to swap,
    // the training phase still lacks its margin.
    let after = rerun("desktop-4070-64g", &args, swap);
    assert_eq!(after["training_memory"]["fits"], false);
    let r = first(&v);
    assert_eq!(r["id"], "add-ram", "{:?}", ids(&v));
    let installed = hold as f64 / (65_747_140.0 * 1024.0 / (64 * GIB) as f64);
    assert!((installed / GIB as f64 - 97.9).abs() < 0.05, "{installed}");
    assert_eq!(r["changes"]["ram_bytes"]["value"], 128 * GIB);
    let after = rerun("desktop-4070-64g", &args, r);
    assert_eq!(after["training_memory"]["fits"], true);
}

/// A 7B full fine-tune (Llama 2 7B, 6,738,415,616 parameters) with ZeRO-3, optimizer and
/// parameter offload and `zero.Init` on 8 × A100 40 GB with 94 GiB of RAM. Without offload
/// ZeRO-3 needs per GPU, by DeepSpeed's estimator, 4 × largest layer + 18 × P ÷ 8 GPUs =
/// 4 × 131,072,000 + 15,161,435,136 B = 14.6 GiB, and on the CPU to train the runtime
/// (2 GiB + 8 × 3 GiB) plus `zero.Init`'s share, 4 × 131,072,000 × 8 GPUs × 1.5 =
/// 6,291,456,000 B: 34,208,743,424 B. Resuming, each of the 8 ranks reads its optimizer
/// partition (fp32 weights and Adam's two moments, 12 × P ÷ 8) to the CPU before copying it to
/// its GPU (deepspeed/runtime/zero/stage3.py `_rigid_load_state_dict`, map_location='cpu'),
/// adding 12 × P = 80,860,987,392 B: 107.2 GiB in all, over the 94 GiB usable by 13.2 GiB,
/// once — a swap file of 13.2 × 1.1 → 15 GiB takes it. Faster than any offload: the first item is
/// `drop-offload` with that swap file, ahead of LoRA.
#[test]
fn seven_b_zero3_with_offload_on_94_gb_drops_the_offload_first() {
    let args = [
        "--preset",
        "llama2-7b",
        "--strategy",
        "zero3",
        "--offload-optimizer",
        "cpu",
        "--offload-param",
        "cpu",
        "--zero-init",
    ];
    let v = advise("server-8xa100-40g-94g", &args);
    assert_eq!(v["training_memory"]["fits"], false);
    let r = first(&v);
    assert_eq!(r["id"], "drop-offload", "{:?}", ids(&v));
    assert_eq!(r["gives_up"], "nothing");
    let p = 6_738_415_616u64;
    let gpu = 4 * 131_072_000 + 18 * p / 8;
    assert_eq!(r["result"]["gpu_peak_bytes_per_gpu"], gpu);
    assert!((to_gib(gpu) - 14.6).abs() < 0.05);
    let cpu = r["result"]["cpu_peak_bytes_per_node"].as_u64().unwrap();
    let training = 2 * GIB + 8 * 3 * GIB + 4 * 131_072_000 * 8 * 3 / 2;
    assert_eq!(training, 34_208_743_424);
    assert_eq!(cpu, training + 12 * p);
    assert!((to_gib(cpu) - 107.2).abs() < 0.05, "{}", to_gib(cpu));
    let usable = 100_931_731_456u64;
    let swap = (((cpu - usable) as f64 * 1.1) / GIB as f64).ceil() as u64;
    assert_eq!(swap, 15);
    assert_eq!(r["changes"]["swap"]["value"], swap * GIB);
    let at = |id: &str| ids(&v).iter().position(|x| x == id);
    assert!(at("lora").is_none_or(|l| l > 0));
    let after = rerun("server-8xa100-40g-94g", &args, r);
    assert_eq!(after["training_memory"]["fits"], true);
    assert_eq!(
        after["training_memory"]["plan"]["offload_optimizer"],
        "none"
    );
}

fn to_gib(b: u64) -> f64 {
    b as f64 / GIB as f64
}

/// ImageNet (the ResNet-50 preset: 1,281,167 JPEGs, 138 GB) on a hard disk, 6 cores, 10
/// workers, 2,000 samples/s wanted: the GPU waits for storage (one seek per file). The first
/// item is a storage change with its predicted utilisation; the headline is a warning or worse.
#[test]
fn imagenet_on_a_hard_disk_gets_a_storage_change_first() {
    let args = [
        "--workload",
        "imagenet-resnet50",
        "--num-workers",
        "10",
        "--gpu-demand",
        "2000",
        "--storage",
        "hdd",
    ];
    let v = advise("workstation-6c-hdd", &args);
    // One pipeline in the JSON: the Bandwidth page's, with the simulator's verdict.
    assert!(v.get("pipeline").is_none(), "no second pipeline");
    let p = &v["bandwidth"]["pipeline"];
    assert_eq!(p["narrowest_stage"], "storage-read");
    assert_eq!(p["starves_gpus"], true);
    let before = p["predicted_gpu_utilization"].as_f64().unwrap();
    assert!(before < 0.5);
    assert!(
        matches!(
            v["headline"]["severity"].as_str(),
            Some("warning" | "critical")
        ),
        "{}",
        v["headline"]
    );
    // 10 workers on 6 cores: a note that they time-share them.
    let over = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "workers-oversubscribed")
        .expect("oversubscription note");
    assert_eq!(over["values"]["workers"]["value"], 10);
    assert_eq!(over["values"]["cores"]["value"], 6);
    let r = first(&v);
    let id = r["id"].as_str().unwrap();
    assert!(
        matches!(id, "copy-to-local-nvme" | "pack-shards"),
        "{:?}",
        ids(&v)
    );
    let util = r["result"]["predicted_gpu_utilization"].as_f64().unwrap();
    assert!(util > before + 0.5, "{util}");
    let after = rerun("workstation-6c-hdd", &args, r);
    let u = after["bandwidth"]["pipeline"]["predicted_gpu_utilization"]
        .as_f64()
        .unwrap();
    assert!((u - util).abs() < 1e-9, "{u} vs {util}");
}

/// A profile that names WSL2 only by its kernel release (`5.10.16.3-microsoft-standard-WSL2`),
/// 15.6 GiB seen, a 24 GB GPU, a 30B-class model in 4 bits from a single pickle file:
/// loading needs 32.5 × 10^9 × 4.127 ÷ 8 B + 5 GiB. WSL2 is recognised from the kernel; the first
/// item raises `memory=` to hold that with its margin (÷ 0.95, whole GiB), and every view gives
/// the one value.
#[test]
fn wsl2_known_only_by_its_kernel_raises_the_wsl_cap_first() {
    let args = [
        "--params",
        "32.5B",
        "--layers",
        "60",
        "--hidden-size",
        "6656",
        "--heads",
        "52",
        "--inference",
        "transformers",
        "--weights",
        "int4",
        "--checkpoint-files",
        "pickle",
    ];
    let v = advise("wsl2-kernel-only-4090", &args);
    assert_eq!(v["profile"]["memory"]["wsl"]["version"], 2);
    let r = first(&v);
    assert_eq!(r["id"], "wsl-raise-memory", "{:?}", ids(&v));
    let peak = (32.5e9_f64 * 4.127 / 8.0).round() as u64 + 5 * GIB;
    let gib = ((peak as f64 / 0.95).ceil() as u64).div_ceil(GIB);
    assert_eq!(r["changes"]["memory"]["value"], format!("{gib}GB"));
    assert_eq!(
        r["apply"],
        serde_json::json!(["--wsl-memory", format!("{gib}GiB")])
    );
    assert_eq!(r["result"]["fits"], true);
    let after = rerun("wsl2-kernel-only-4090", &args, r);
    assert_eq!(after["inference_memory"]["fits"], true);
    // The terminal and the Markdown report name the same value.
    let memory = format!("memory={gib}GB");
    let out = ramvram()
        .args(["advise", "--lang", "en", "--profile"])
        .arg(fixture_path("wsl2-kernel-only-4090"))
        .args(args)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(&memory));
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("r.md");
    ramvram()
        .args(["report", "--lang", "en", "--out"])
        .arg(&md)
        .arg("--profile")
        .arg(fixture_path("wsl2-kernel-only-4090"))
        .args(args)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&md).unwrap().contains(&memory));
}

/// Every recommendation on every fixture, for a plan that doesn't fit, carries arguments the
/// command line accepts: re-running with them never fails to parse.
#[test]
fn every_apply_is_accepted_by_the_command_line() {
    let cases: [(&str, &[&str]); 4] = [
        (
            "aws-g5.xlarge",
            &["--preset", "llama2-7b", "--offload-optimizer", "cpu"],
        ),
        // The strategy written as `--zero-stage`: the items' `--strategy` must still apply.
        (
            "desktop-2x3090-64g",
            &[
                "--preset",
                "llama2-7b",
                "--zero-stage",
                "2",
                "--offload-optimizer",
                "cpu",
            ],
        ),
        (
            "seed-4090-32g",
            &["--workload", "seed-4k-medical", "--num-workers", "40"],
        ),
        (
            "aws-g5.xlarge",
            &["--preset", "llama2-13b", "--inference", "transformers"],
        ),
    ];
    for (profile, args) in cases {
        let v = advise(profile, args);
        for r in v["recommendations"].as_array().unwrap() {
            if r["apply"].as_array().is_some_and(|a| !a.is_empty()) {
                rerun(profile, args, r);
            }
        }
    }
}

/// No single change is enough: Llama 2 7B with ZeRO-2, 4,096-token sequences and micro-batch
/// 16 on 8 × A100 40 GB. Activation checkpointing alone leaves ZeRO-2's 2P + 2P + 12P ÷ 8 bytes
/// of states (37.06 × 10^9 B, 34.5 GiB) plus the checkpoints — over the 38 GiB a 40 GiB GPU
/// holds with its margin; ZeRO-3 alone leaves the full activations. Together they fit on the
/// GPUs; on the CPU, resuming, each of the 8 ranks reads its ZeRO-3 optimizer partition
/// (12 × P ÷ 8) beside the runtime and `zero.Init`'s share (the ZeRO-3 case above):
/// 34,208,743,424 + 12 × P = 107.2 GiB, over the 94 GiB usable by 13.2 GiB once — a 15 GiB
/// swap file takes it. The pair is listed with that file, and re-running its `apply` fits.
#[test]
fn a_pair_is_listed_when_no_single_change_fits() {
    let args = [
        "--preset",
        "llama2-7b",
        "--strategy",
        "zero2",
        "--seq-len",
        "4096",
        "--micro-batch",
        "16",
    ];
    let v = advise("server-8xa100-40g-94g", &args);
    let recs = v["recommendations"].as_array().unwrap();
    assert!(
        recs.iter()
            .filter(|r| r["also"].as_array().is_none_or(|a| a.is_empty()))
            .filter(|r| r["kind"] != "hardware" && r["kind"] != "cloud")
            .all(|r| r["result"]["fits"] != true),
        "a single change fits: {:?}",
        ids(&v)
    );
    let p = 6_738_415_616u64;
    let zero2_states = 2 * p + 2 * p + 12 * p / 8;
    assert_eq!(zero2_states, 26_953_662_464 + 10_107_623_424);
    let r = first(&v);
    assert_eq!(r["id"], "gradient-checkpointing");
    assert_eq!(r["also"], serde_json::json!(["zero3-instead-of-zero2"]));
    assert_eq!(r["result"]["fits"], true);
    assert_eq!(
        r["result"]["cpu_peak_bytes_per_node"],
        34_208_743_424 + 12 * p
    );
    assert_eq!(r["changes"]["swap"]["value"], 15 * GIB);
    let after = rerun("server-8xa100-40g-94g", &args, r);
    assert_eq!(after["training_memory"]["fits"], true);
    assert_eq!(after["training_memory"]["plan"]["strategy"], "zero3");
}

/// Issue 37 item 6: a change that fits only because a swap file absorbs its one-time loading
/// peak says that swap file in its `apply`, so re-running it fits as promised. Llama 2 70B
/// QLoRA sharded by FSDP over 4 GPUs on 64 GB of RAM, its script loading on every rank
/// (`--loading every-rank`; transformers' own QLoRA load goes shard by shard and fits): every
/// rank loads the 16-bit base,
/// 4 × 2 × 68,976,648,192 B + the runtime (2 GiB + 4 × 3 GiB) = 565.8 GB, far past 62.7 GiB
/// usable; the meta-device setting leaves 4 × 5 GB + the 4-bit base + the runtime, a few GB
/// past RAM while loading only (`training_advice.rs` works out the 2 GiB swap file). Every
/// recommendation that promises a fit must fit when its `apply` is re-run.
#[test]
fn every_apply_that_promises_a_fit_fits_when_re_run_swap_file_included() {
    let args = [
        "--preset",
        "llama2-70b",
        "--finetune",
        "qlora",
        "--strategy",
        "fsdp",
        "--gpus-per-node",
        "4",
        "--loading",
        "every-rank",
    ];
    let profile = "live-4x4080-64g";
    let v = advise(profile, &args);
    let recs = v["recommendations"].as_array().unwrap();
    let swapped: Vec<&Value> = recs
        .iter()
        .filter(|r| r["changes"].get("swap").is_some())
        .collect();
    assert!(!swapped.is_empty(), "no swap file assumed: {:?}", ids(&v));
    let mut rerun_count = 0;
    for r in recs {
        if r["result"]["fits"] != true || r["apply"].as_array().is_none_or(|a| a.is_empty()) {
            continue;
        }
        let after = rerun(profile, &args, r);
        assert_eq!(after["training_memory"]["fits"], true, "{r}");
        rerun_count += 1;
    }
    assert!(rerun_count > 0);
    // The swap it assumed is in its arguments: the 2 GiB configured + the 2 GiB file added.
    let meta = swapped
        .iter()
        .find(|r| r["id"] == "meta-device-init")
        .expect("meta-device-init with a swap file");
    let apply: Vec<&str> = meta["apply"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let at = apply.iter().position(|a| *a == "--swap").expect("--swap");
    assert_eq!(apply[at + 1], "4GiB");
}

/// The same promise on every fixture machine, for training plans whose loading peaks the
/// recommender meets with loading settings and swap files (QLoRA 70B sharded by FSDP over 2 or
/// 4 GPUs, QLoRA 70B on one, full 13B, LoRA 7B under FSDP on 2): every training item that says
/// it fits and has arguments must fit when they are re-run — a swap file it assumed (`--swap`)
/// or swap already configured (`swap_used`) included.
#[test]
fn every_fitting_training_item_on_every_fixture_fits_when_re_run() {
    let plans: [&[&str]; 5] = [
        &[
            "--preset",
            "llama2-70b",
            "--finetune",
            "qlora",
            "--strategy",
            "fsdp",
            "--gpus-per-node",
            "4",
        ],
        &[
            "--preset",
            "llama2-70b",
            "--finetune",
            "qlora",
            "--strategy",
            "fsdp",
            "--gpus-per-node",
            "2",
        ],
        &["--preset", "llama2-70b", "--finetune", "qlora"],
        &["--preset", "llama2-13b"],
        &[
            "--preset",
            "llama2-7b",
            "--finetune",
            "lora",
            "--strategy",
            "fsdp",
            "--gpus-per-node",
            "2",
        ],
    ];
    let (mut reruns, mut swapped, mut broken) = (0, 0, Vec::new());
    for profile in common::all_fixtures() {
        for args in plans {
            let v = advise(&profile, args);
            for r in v["recommendations"].as_array().unwrap() {
                let promised = r["result"]["fits"] == true && r["subject"] == "training";
                if !promised || r["apply"].as_array().is_none_or(|a| a.is_empty()) {
                    continue;
                }
                reruns += 1;
                if r["changes"].get("swap").is_some() || r["changes"].get("swap_used").is_some() {
                    swapped += 1;
                }
                let after = rerun(&profile, args, r);
                if after["training_memory"]["fits"] != true {
                    broken.push(format!("{profile} {args:?} {}: {}", r["id"], r["apply"]));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} of {reruns}:\n{}",
        broken.len(),
        broken.join("\n")
    );
    // The sweep meets swap files: it can fail on them.
    assert!(swapped >= 5, "{swapped} of {reruns}");
}
