//! Issue 31's five cases: the machine as memory pools with the soft limits in front of them.
//! Each runs `advise --json`, checks the first item that moves a limit (its id and value, worked
//! out here by hand), then re-runs `advise` with that item's `apply` arguments added and checks
//! the promise: the plan fits and so does every pool.

mod common;

use common::GIB;
use serde_json::{Value, json};

const MIB: u64 = 1 << 20;

/// A fixture with `edit` applied, written to a file of its own.
fn profile(fixture: &str, name: &str, edit: impl FnOnce(&mut Value)) -> std::path::PathBuf {
    let text = std::fs::read_to_string(common::fixture_path(fixture)).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    edit(&mut v);
    let dir = std::env::temp_dir().join(format!("ramvram-pools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    path
}

/// A committed fixture of `tests/fixtures/pools/`.
fn pools_fixture(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pools")
        .join(format!("{name}.json"))
}

fn advise(profile: &std::path::Path, args: &[&str]) -> Value {
    common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(profile)
            .args(args),
    )
}

/// `advise` again with `r`'s `apply` arguments added.
fn applied(profile: &std::path::Path, args: &[&str], r: &Value) -> Value {
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(
        r["apply"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string()),
    );
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    advise(profile, &refs)
}

fn pool<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["pools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pool {name}"))
}

fn limit<'a>(p: &'a Value, id: &str) -> &'a Value {
    p["limits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
        .unwrap_or_else(|| panic!("no limit {id}"))
}

/// `headroom::ram_to_hold`: the least limit `a` with `need + max(5 % of a, 1 GiB) ≤ a`.
fn ram_to_hold(need: u64) -> u64 {
    ((need as f64 / 0.95).ceil() as u64).max(need + GIB)
}

fn all_pools_fit(v: &Value) -> bool {
    v["pools"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["fits"] != false)
}

/// A Slurm job with `--mem=16G` on a 512 GB node, a 13B model (13,015,864,320 parameters)
/// loaded whole in each of 8 FSDP ranks in bf16: 8 × 2 × P bytes plus the OS (2 GiB) and eight
/// 3 GiB training processes. The first item raises the job's limit to the least whole GiB that
/// holds it with the 5 % margin; no module is offered anywhere.
#[test]
fn slurm_job_limit_is_raised_never_modules() {
    let p = profile("dgx-a100", "slurm", |v| {
        v["memory"]["dimms"] = json!([]);
        v["memory"]["installed_bytes"] = json!(512 * GIB);
        v["memory"]["total_bytes"] = json!(528_000_000_000u64);
        v["memory"]["limit_bytes"] = json!(16 * GIB);
    });
    let args = [
        "--preset",
        "llama2-13b",
        "--strategy",
        "fsdp",
        "--gpus-per-node",
        "8",
    ];
    let v = advise(&p, &args);
    let peak = 8 * 2 * 13_015_864_320u64 + 2 * GIB + 8 * 3 * GIB;
    let ram = pool(&v, "ram");
    assert_eq!(ram["fits"], false);
    assert_eq!(ram["binding"], "job-limit");
    assert_eq!(limit(ram, "job-limit")["check"]["needed_bytes"], peak);
    // 219.95 GiB: ÷ 0.95 = 231.5 GiB → 232 GiB.
    let want = ram_to_hold(peak).div_ceil(GIB) * GIB;
    assert_eq!(want, 232 * GIB);
    let first = &v["recommendations"][0];
    assert_eq!(first["id"], "raise-limit");
    assert_eq!(first["apply"], json!(["--memory-limit", "232GiB"]));
    let native: Vec<&str> = first["native"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["text"].as_str().unwrap())
        .collect();
    assert!(native.contains(&"#SBATCH --mem=232G"), "{native:?}");
    let text = v.to_string();
    assert!(!text.contains("\"add-ram\""), "no module purchase");
    let after = applied(&p, &args, first);
    assert_eq!(after["training_memory"]["fits"], true);
    assert!(all_pools_fit(&after));
}

/// A 16 GB MacBook Air serving Llama 2 13B in Q4_K_M with llama.cpp at 4,096 tokens: weights
/// about 13,015,864,320 × 4.85 / 8 bytes (llama.cpp's type mix), the KV cache 2 × 40 layers × 40 heads × 128 × 2 bytes ×
/// 4,096 tokens, 512 MiB of compute buffers: 10.97 GiB on the GPU side, above macOS's default
/// 2/3 share (10.67 GiB) but with the host side (2.5 GiB) well inside the 16 GiB. First item:
/// raise the wired limit to the least whole GiB holding the GPU side with the 5 % margin.
#[test]
fn mac_metal_share_is_raised_with_its_value() {
    let p = profile("macbook-pro-m4max-128g", "mac16", |v| {
        v["memory"]["total_bytes"] = json!(16 * GIB);
        v["gpus"][0]["name"] = json!("Apple M2 8-core GPU");
    });
    let args = [
        "--preset",
        "llama2-13b",
        "--inference",
        "llama-cpp",
        "--weights",
        "q4_k_m",
        "--context-len",
        "4096",
    ];
    let v = advise(&p, &args);
    // The weights at the Q4_K_M type mix llama.cpp's quantiser chooses per tensor (checked
    // against `llama-quantize --dry-run` in `llama_cpp::quant_tensors`' tests), about 4.85 bits
    // a weight.
    let weights = v["inference_memory"]["weights_bytes"].as_u64().unwrap();
    assert!(weights.abs_diff((13_015_864_320f64 * 4.85 / 8.0) as u64) < 64 * MIB);
    let gpu = weights + 2 * 40 * 40 * 128 * 2 * 4096 + 512 * MIB;
    let unified = pool(&v, "unified");
    let ws = limit(unified, "gpu-working-set");
    assert_eq!(ws["bytes"], 16 * GIB / 3 * 2);
    let charged = ws["check"]["needed_bytes"].as_u64().unwrap();
    assert!(charged.abs_diff(gpu) < 16, "{charged} vs {gpu}");
    assert_eq!(limit(unified, "physical")["check"]["fits"], true);
    assert_eq!(unified["fits"], false);
    // max(10.97 / 0.95, 10.97 + 0.5) = 11.55 GiB → 12 GiB = 12,288 MiB; 4 GiB left.
    let want = ((gpu as f64 / 0.95).ceil() as u64)
        .max(gpu + 512 * MIB)
        .div_ceil(GIB)
        * GIB;
    assert_eq!(want, 12 * GIB);
    let first = &v["recommendations"][0];
    assert_eq!(first["id"], "raise-gpu-wired-limit");
    assert_eq!(first["apply"], json!(["--gpu-wired-limit", "12GiB"]));
    assert_eq!(first["changes"]["wired_limit_mb"]["value"], 12_288);
    let after = applied(&p, &args, first);
    assert_eq!(after["inference_memory"]["fits"], true);
    assert!(all_pools_fit(&after));
}

/// A two-socket 512 GB server (two nodes of 264 × 10^9 bytes), the job bound with
/// `numactl -m 0`, Llama 3.1 405B in 8-bit with llama.cpp and 30 of its 126 layers on the GPUs:
/// 96/126 of 405,853,388,800 × 1.0625 bytes stay on the host (about 300 GiB), more than node 0
/// and less than the machine. First item: drop the binding.
#[test]
fn numa_binding_is_dropped_first() {
    let p = profile("dgx-a100", "numa", |v| {
        v["memory"]["dimms"] = json!([]);
        v["memory"]["installed_bytes"] = json!(512 * GIB);
        v["memory"]["total_bytes"] = json!(528_000_000_000u64);
        v["memory"]["numa_nodes"] = json!([{"id": 0, "total_bytes": 264_000_000_000u64}, {"id": 1, "total_bytes": 264_000_000_000u64}]);
    });
    let args = [
        "--numa-bind",
        "0",
        "--preset",
        "llama-3.1-405b",
        "--inference",
        "llama-cpp",
        "--weights",
        "int8",
        "--n-gpu-layers",
        "30",
        "--gpus-per-node",
        "8",
    ];
    let v = advise(&p, &args);
    let weights = (405_853_388_800f64 * 1.0625) as u64;
    let host_weights = weights - (weights as f64 * 30.0 / 126.0) as u64;
    let ram = pool(&v, "ram");
    let numa = limit(ram, "numa-binding");
    assert_eq!(numa["bytes"], 264_000_000_000u64);
    let needed = numa["check"]["needed_bytes"].as_u64().unwrap();
    assert!(needed > host_weights && needed > 264_000_000_000);
    assert!(needed < 528_000_000_000);
    assert_eq!(ram["binding"], "numa-binding");
    let first = &v["recommendations"][0];
    assert_eq!(first["id"], "drop-numa-binding");
    assert_eq!(first["apply"], json!(["--numa-bind", "all"]));
    let after = applied(&p, &args, first);
    assert_eq!(after["inference_memory"]["fits"], true);
    assert!(all_pools_fit(&after));
}

/// Windows 11, 32 GB of RAM (31.8 GiB `MemTotal`), an 8 GB system-managed page file: a 30B
/// model's bf16 safetensors loaded whole (`low_cpu_mem_usage=False`, `--loading every-rank`)
/// for LoRA on a 96 GB GPU. The main process's commit charge is the loading peak plus 2 GiB for
/// the CUDA libraries (ultralytics/yolov3#1643), above RAM + the page file. The page file that
/// fits: the commit limit must be `ram_to_hold(commit)`, less the RAM part, in whole GiB. The
/// setting `low-cpu-mem-usage` (gives up nothing) ranks before it by the ranking rule; the page
/// file is the first change that keeps the user's loading, ranked before any hardware.
#[test]
fn windows_commit_limit_grows_the_page_file() {
    let p = profile("windows-4070-32g", "win", |v| {
        v["gpus"][0]["name"] = json!("NVIDIA RTX PRO 6000 Blackwell");
        v["gpus"][0]["vram_total_bytes"] = json!(97_887_535_104u64);
        v["windows"]["page_files"] = json!([{"path": "C:\\pagefile.sys", "sizing": "system-managed", "size_bytes": 8 * GIB}]);
        let total = v["memory"]["total_bytes"].as_u64().unwrap();
        v["windows"]["commit_limit_bytes"] = json!(total + 8 * GIB);
    });
    let args = [
        "--preset",
        "qwen3-30b-a3b",
        "--finetune",
        "lora",
        "--loading",
        "every-rank",
        "--gpus-per-node",
        "1",
    ];
    let v = advise(&p, &args);
    let ram = pool(&v, "ram");
    let commit = limit(ram, "commit-limit");
    let host = ram["consumers"][0]["bytes"].as_u64().unwrap();
    assert_eq!(ram["consumers"][0]["commit_bytes"], host + 2 * GIB);
    assert_eq!(commit["check"]["fits"], false);
    let ram_part = commit["bytes"].as_u64().unwrap() - 8 * GIB;
    let total = (ram_to_hold(host + 2 * GIB) - ram_part).div_ceil(GIB) * GIB;
    let recs = v["recommendations"].as_array().unwrap();
    let at = recs
        .iter()
        .position(|r| r["id"] == "grow-page-file")
        .expect("grow-page-file");
    let hardware = recs
        .iter()
        .position(|r| r["kind"] == "hardware")
        .unwrap_or(usize::MAX);
    assert!(at < hardware);
    assert!(recs[..at].iter().all(|r| r["kind"] == "setting"));
    let r = &recs[at];
    assert_eq!(
        r["apply"],
        json!(["--page-file", format!("{}GiB", total / GIB)])
    );
    let after = applied(&p, &args, r);
    assert_eq!(after["training_memory"]["fits"], true);
    assert!(all_pools_fit(&after));
}

/// A Jetson Orin Nano 8 GB (7.27 GiB `MemTotal`, one pool for the CPU and the GPU) training a
/// detector with 4 DataLoader workers at batch size 16: the training process (the OS and one
/// process as `advisor::overhead` sizes them for this board), its GPU side and the loader's
/// buffers together overflow the pool, which the verdict names; the first item is a DataLoader
/// change (fewer batches in flight: a lower `prefetch_factor` or fewer workers) or a swap file,
/// never memory modules, and after it the pool fits.
#[test]
fn jetson_pool_overflows_and_fewer_workers_fix_it() {
    // The committed board: 6 cores, 7,802,880,000 B of `MemTotal`, one unified Orin GPU.
    let p = pools_fixture("jetson-orin-nano-8g");
    let args = [
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
    ];
    let v = advise(&p, &args);
    let unified = pool(&v, "unified");
    let charged: u64 = unified["consumers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["bytes"].as_u64().unwrap())
        .sum();
    // Every consumer, CPU side and GPU side, against the one physical limit with its margin.
    assert_eq!(limit(unified, "physical")["check"]["needed_bytes"], charged);
    assert!(charged + GIB > 7_802_880_000);
    assert_eq!(unified["fits"], false);
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "pool-over-limit")
        .expect("the pool's finding");
    assert_eq!(f["values"]["pool"]["value"], "unified");
    assert_eq!(v["training_memory"]["fits"], false);
    let first = &v["recommendations"][0];
    let loader_or_swap = ["reduce-prefetch-factor", "reduce-num-workers", "add-swap"];
    assert!(
        loader_or_swap.contains(&first["id"].as_str().unwrap()),
        "{}",
        first["id"]
    );
    let ids: Vec<&str> = v["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&"add-ram"), "{ids:?}");
    // Buying is sized for the pool: each plan charged to it needs what the pool holds in all.
    for w in v["procurement"]["work"].as_array().unwrap() {
        assert_eq!(w["needed_bytes"], charged, "{w}");
        assert_eq!(w["fits"], false, "{w}");
    }
    // The training plan overflows only with the loader beside it in the one pool: the headline
    // names a change that clears the pool, not "no change … makes it fit".
    let out = common::ramvram()
        .args(["advise", "--lang", "en", "--profile"])
        .arg(&p)
        .args(args)
        .env("COLUMNS", "200")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Cheapest change that makes it fit"), "{text}");
    assert!(!text.contains("No change ramvram knows of"), "{text}");
    // The plan's verdict says the pool, with everything charged to it, not each side alone
    // (both of which fit: "each GPU needs 390 MiB of 7.3 GiB; CPU RAM … 4.3 GiB of 7.3 GiB").
    let line = text
        .lines()
        .skip_while(|l| !l.contains("Training plan:"))
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
        .replace('\u{a0}', " ");
    let need = format!(
        "the unified pool needs {:.1} GiB of 7.3 GiB",
        charged as f64 / GIB as f64
    );
    assert!(line.contains(&need), "{line}");
    assert!(
        line.contains("training") && line.contains("data loading"),
        "{line}"
    );
    assert!(!line.contains("each GPU needs"), "{line}");
    let after = applied(&p, &args, first);
    assert!(all_pools_fit(&after));
}

/// A 32 GB Mac serving Llama 2 70B in Q4_K_M with 36 of its 80 layers on the GPU: the GPU side
/// (36/80 of 68,976,648,192 × 4.85 / 8 bytes, its share of the KV cache, 512 MiB of compute
/// buffers: about 18.6 GiB) fits Metal's 21.3 GiB share, and the host side (the other 44
/// layers, their KV cache, 2.5 GiB of runtime: about 24.6 GiB) fits the 32 GiB on its own; the
/// two together don't. Each side's own check says "fits"; the one pool says no.
#[test]
fn a_mac_plan_does_not_fit_twice() {
    let p = profile("macbook-pro-m4max-128g", "mac32", |v| {
        v["memory"]["total_bytes"] = json!(32 * GIB);
    });
    let args = [
        "--preset",
        "llama2-70b",
        "--inference",
        "llama-cpp",
        "--weights",
        "q4_k_m",
        "--n-gpu-layers",
        "36",
    ];
    let v = advise(&p, &args);
    let m = &v["inference_memory"];
    assert_eq!(m["gpu"]["fits"], true, "the GPU side alone fits");
    assert_eq!(m["cpu"]["fits"], true, "the host side alone fits");
    let weights = 68_976_648_192f64 * 4.85 / 8.0;
    let both = weights + 2.5 * GIB as f64 + 512.0 * MIB as f64;
    assert!(both > 32.0 * GIB as f64);
    let unified = pool(&v, "unified");
    let physical = limit(unified, "physical");
    assert!(physical["check"]["needed_bytes"].as_f64().unwrap() >= both);
    assert_eq!(physical["check"]["fits"], false);
    assert_eq!(m["fits"], false);
}

/// A DGX Spark (GB10, 121.69 GiB of unified memory as the OS sees it) serving Qwen3-30B-A3B
/// with vLLM at `gpu_memory_utilization` 0.87: the GPU has no memory of its own and no
/// working-set limit, so the serving check is judged against the pool — vLLM's budget,
/// ceil(usable × 0.87) (`request_memory`, vllm/v1/worker/utils.py) — never "unknown".
#[test]
fn a_gb10_gpu_is_judged_against_the_pool() {
    let usable: u64 = 130_662_014_894; // 121.69 GiB
    let p = profile("macbook-pro-m4max-128g", "gb10", |v| {
        v["host"] = json!({"hostname": "spark", "os": "DGX OS", "arch": "aarch64"});
        v["memory"]["total_bytes"] = json!(usable);
        v["memory"]["installed_bytes"] = json!(128_000_000_000u64);
        v["gpus"][0]["vendor"] = json!("nvidia");
        v["gpus"][0]["name"] = json!("NVIDIA GB10");
    });
    let v = advise(
        &p,
        &[
            "--preset",
            "qwen3-30b-a3b",
            "--inference",
            "vllm",
            "--gpu-memory-utilization",
            "0.87",
        ],
    );
    let usable = v["memory"]["usable_bytes"].as_u64().unwrap();
    let budget = (usable as f64 * 0.87).ceil() as u64;
    assert_eq!(v["inference_memory"]["gpu"]["available_bytes"], budget);
    assert_eq!(v["inference_memory"]["gpu"]["fits"], true);
}

/// MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks#47: on a DGX Spark (GB10; `MemTotal` 121.69 GiB =
/// 130,662,014,894 B) whose free memory at boot caps at about 102 GiB (headless, caches
/// dropped), vLLM at `gpu_memory_utilization` 0.87 never starts: a release before 0.34 checks
/// that the free memory holds ceil(total × 0.87) = 105.87 GiB (`request_memory`,
/// vllm/v1/worker/utils.py; on an integrated GPU the free memory is `MemAvailable`). The thread
/// lowers the share (it runs at 0.82–0.83). Here: the start-up check fails and names the pool,
/// the first item lowers `gpu_memory_utilization` to a share that both the free memory at start
/// and the pool (19.69 GiB in use at rest, charged whole on a unified pool) hold with their
/// margins, and after it everything fits. With 0.34's extensible KV cache there is no start-up
/// check at all.
#[test]
fn gb10_start_up_check_lowers_the_share() {
    let p = pools_fixture("dgx-spark-gb10");
    let size: u64 = 130_662_014_894;
    let free: u64 = 102 * GIB;
    let args = [
        "--preset",
        "qwen3-30b-a3b",
        "--inference",
        "vllm",
        "--gpu-memory-utilization",
        "0.87",
        "--vllm-version",
        "0.33",
    ];
    let v = advise(&p, &args);
    let unified = pool(&v, "unified");
    let startup = limit(unified, "startup-free");
    // ceil(130,662,014,894 × 0.87) = 113,675,952,958 B: the thread's "(0.87, 105.87 GiB)".
    assert_eq!(startup["bytes"], free);
    assert_eq!(startup["check"]["needed_bytes"], 113_675_952_958u64);
    assert_eq!(startup["check"]["fits"], false);
    assert_eq!(unified["fits"], false);
    assert_eq!(v["inference_memory"]["fits"], false);
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "pool-over-limit")
        .expect("the pool's finding");
    assert_eq!(f["severity"], "critical");
    assert_eq!(f["values"]["limit"]["value"], "startup-free");
    // The OS and what the GPU's driver hold at rest, measured, whole: 130,662,014,894 − 102 GiB
    // = 21,140,348,846 B; with vLLM's process (3 GiB) the serving phase's host side.
    let at_rest = size - free;
    assert_eq!(at_rest, 21_140_348_846);
    let serving = &v["inference_memory"]["phases"][1];
    assert_eq!(serving["cpu_bytes_per_node"], at_rest + 3 * GIB);
    // The share: the largest hundredth that (a) the free memory at start holds with the 5 %
    // margin, floor(100 × 102 GiB × 0.95 ÷ size) = floor(79.6) → 0.79, and (b) leaves the pool's
    // host side (the worst phase's) its bytes with the 5 % margin of the pool.
    let host = unified["consumers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "host")
        .unwrap()["bytes"]
        .as_u64()
        .unwrap();
    assert!(host >= at_rest + 3 * GIB);
    let by_start = (100.0 * (free as f64 * 0.95) / size as f64).floor();
    assert_eq!(by_start, 79.0);
    let by_pool = (100.0 * (size as f64 * 0.95 - host as f64) / size as f64).floor();
    let share = by_start.min(by_pool) / 100.0;
    assert!(share < 0.83, "no higher than the thread's working share");
    let first = &v["recommendations"][0];
    assert_eq!(first["id"], "lower-gpu-memory-utilization");
    assert_eq!(
        first["apply"],
        json!(["--gpu-memory-utilization", format!("{share}")])
    );
    let after = applied(&p, &args, first);
    assert_eq!(after["inference_memory"]["fits"], true);
    assert!(all_pools_fit(&after));
    assert_eq!(
        limit(pool(&after, "unified"), "startup-free")["check"]["fits"],
        true
    );
    // vLLM 0.34 (the default): the extensible KV cache skips the check.
    let current = advise(&p, &args[..6]);
    let unified = pool(&current, "unified");
    assert!(
        unified["limits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["id"] != "startup-free")
    );
}

/// A discrete RTX 4090 (24 GiB as NVML reports it) with 6 GiB held by other processes, serving
/// Llama 3.1 8B in bf16 with vLLM 0.33 and its default share, 0.92 (`CacheConfig` before 0.34):
/// vLLM asks for ceil(24 GiB × 0.92) = ceil(23,708,219,473.92) = 23,708,219,474 B at start, more than the 18 GiB free
/// (`cudaMemGetInfo`), and refuses to start. The lever: the largest hundredth whose request the
/// free memory holds with the VRAM margin, floor(100 × 18 GiB × 0.95 ÷ 24 GiB) = floor(71.25)
/// → 0.71; the weights (16 GB) and the KV cache still fit under it. vLLM 0.34 has no such
/// check, and its default share is 1.0.
#[test]
fn a_busy_gpu_fails_vllm_0_33s_start_up_check() {
    let total: u64 = 24 * GIB;
    let p = profile("seed-4090-32g", "busy4090", |v| {
        v["gpus"][0]["vram_used_bytes"] = json!(6 * GIB);
    });
    let args = [
        "--preset",
        "llama-3.1-8b",
        "--inference",
        "vllm",
        "--vllm-version",
        "0.33",
    ];
    let v = advise(&p, &args);
    assert_eq!(
        v["inference_memory"]["plan"]["gpu_memory_utilization"],
        0.92
    );
    assert_eq!(v["inference_memory"]["plan"]["vllm_version"], "0.33");
    let gpu0 = pool(&v, "gpu0");
    let startup = limit(gpu0, "startup-free");
    let request = (total as f64 * 0.92).ceil() as u64;
    assert_eq!(request, 23_708_219_474);
    assert_eq!(startup["bytes"], 18 * GIB);
    assert_eq!(startup["check"]["needed_bytes"], request);
    assert_eq!(startup["check"]["fits"], false);
    assert_eq!(v["inference_memory"]["fits"], false);
    let share = (100.0 * (18 * GIB) as f64 * 0.95 / total as f64).floor() / 100.0;
    assert_eq!(share, 0.71);
    let first = &v["recommendations"][0];
    assert_eq!(first["id"], "lower-gpu-memory-utilization");
    assert_eq!(first["apply"], json!(["--gpu-memory-utilization", "0.71"]));
    let after = applied(&p, &args, first);
    assert_eq!(after["inference_memory"]["fits"], true);
    assert!(all_pools_fit(&after));
    // 0.34: no start-up check, the share 1.0.
    let current = advise(&p, &args[..4]);
    assert_eq!(
        current["inference_memory"]["plan"]["gpu_memory_utilization"],
        1.0
    );
    assert!(
        pool(&current, "gpu0")["limits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["id"] != "startup-free")
    );
}

/// amd/playbooks#791: LM Studio's gpt-oss-120b runs out of memory on a 64 GB Ryzen AI Max 388
/// (Strix Halo); AMD's fix is the playbook's minimum, 128 GB ("uses about 61GB of GPU memory.
/// Seeing as the SKU has 64GB total, it might be too little to hold the model and other system
/// resources"). The weights alone, 65,248,815,744 B as released (MXFP4 experts, BF16 rest; 60.8
/// GiB), with the OS and llama.cpp beside them, pass the 62.5 GiB pool: it overflows its
/// physical size, so no GTT change is offered (the GTT can't hold more than the RAM), and buying
/// is a machine with more unified memory, never modules.
#[test]
fn strix_halo_64g_needs_a_larger_machine_not_the_gtt() {
    let p = pools_fixture("strix-halo-64g");
    let args = ["--preset", "gpt-oss-120b", "--inference", "llama.cpp"];
    let v = advise(&p, &args);
    let unified = pool(&v, "unified");
    let physical = limit(unified, "physical");
    let size = (62.5 * GIB as f64) as u64;
    assert_eq!(physical["bytes"], size);
    let weights: u64 = 65_248_815_744;
    assert!(physical["check"]["needed_bytes"].as_u64().unwrap() > weights);
    assert!(
        weights + 2 * GIB > size - GIB,
        "the weights and the OS pass the margin"
    );
    assert_eq!(physical["check"]["fits"], false);
    assert_eq!(v["inference_memory"]["fits"], false);
    let ids: Vec<&str> = v["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&"raise-gtt-limit"), "{ids:?}");
    assert!(!ids.contains(&"add-ram"), "{ids:?}");
    let out = common::ramvram()
        .args(["advise", "--lang", "en", "--profile"])
        .arg(&p)
        .args(args)
        .env("COLUMNS", "400")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace('\u{a0}', " ");
    assert!(text.contains("of unified memory"), "{text}");
    assert!(text.contains("modules won't help"), "{text}");
}

/// kyuz0/amd-strix-halo-vllm-toolboxes#63: on a 128 GB Strix Halo whose BIOS keeps a 64 GB
/// carve-out, vLLM (a 0.2x build) stops with "Free memory on device cuda:0 (57.38/124.0 GiB) on
/// startup is less than desired GPU memory utilization (0.8, 99.2 GiB)". HIP's device total on
/// an APU is the GTT (124 GiB here), the free memory `MemAvailable` (57.38 GiB): the start-up
/// check fails with the thread's figures, ceil(124 GiB × 0.8) = ceil(106,515,188,940.8) =
/// 106,515,188,941 B (99.2 GiB).
/// The thread's fix, the carve-out set to its minimum in the BIOS, is not a lever ramvram has.
#[test]
fn strix_halo_carveout_fails_vllms_start_up_check() {
    let p = pools_fixture("strix-halo-128g-carveout64");
    let args = [
        "--preset",
        "qwen3-30b-a3b",
        "--inference",
        "vllm",
        "--gpu-memory-utilization",
        "0.8",
        "--vllm-version",
        "0.22",
    ];
    let v = advise(&p, &args);
    let startup = limit(pool(&v, "unified"), "startup-free");
    let request = (124.0 * GIB as f64 * 0.8).ceil() as u64;
    assert_eq!(request, 106_515_188_941);
    assert_eq!(startup["check"]["needed_bytes"], request);
    assert_eq!(startup["bytes"], (57.38 * GIB as f64) as u64);
    assert_eq!(startup["check"]["fits"], false);
    assert_eq!(v["inference_memory"]["fits"], false);
}
