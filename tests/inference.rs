//! Issue 11's inference and WSL cases, with the right values worked out here.

mod common;

use common::GIB;

/// vLLM serving Llama 2 70B in bf16 on 4 × 80 GB with 4 GiB of swap space each: 16 GiB of
/// pinned host RAM for the swap space, plus the loading peak; the KV cache per token is
/// 2 × 80 layers × 8 KV heads × 128 (8192 / 64 heads) × 2 bytes = 327,680 bytes.
#[test]
fn vllm_70b_on_four_gpus_pins_16_gib_of_swap_space() {
    let v = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(common::fixture_path("dgx-h100"))
            .args([
                "--preset",
                "llama2-70b",
                "--inference",
                "vllm",
                "--gpus-per-node",
                "4",
            ])
            .args(["--swap-space", "4"]),
    );
    let m = &v["inference_memory"];
    assert_eq!(m["kv_bytes_per_token"], 327_680);
    assert_eq!(m["kv_cache_bytes"], 327_680u64 * 4096);
    assert_eq!(m["swap_space_bytes"], 16 * GIB);
    // 68,976,648,192 parameters × 2 bytes.
    assert_eq!(m["weights_bytes"], 2 * 68_976_648_192u64);
    // Per GPU: a quarter of the weights and of the cache.
    let per_gpu = 2 * 68_976_648_192u64 / 4 + 327_680 * 4096 / 4;
    assert_eq!(m["gpu_peak_bytes_per_gpu"], per_gpu);
    // Host while serving: the swap space, the OS (2 GiB) and four 3 GiB workers.
    let serving = &m["phases"][1];
    assert_eq!(serving["phase"], "serving");
    assert_eq!(
        serving["cpu_bytes_per_node"],
        16 * GIB + 2 * GIB + 4 * 3 * GIB
    );
    // Loading memory-maps the safetensors: each worker holds one tensor (the 262,144,000-element
    // embedding at 2 bytes); the file passes through the page cache.
    let loading = &m["phases"][0];
    assert_eq!(
        loading["cpu_bytes_per_node"],
        4 * 2 * 262_144_000u64 + 2 * GIB + 4 * 3 * GIB
    );
    assert_eq!(m["page_cache_bytes"], 2 * 68_976_648_192u64);
    assert_eq!(m["fits"], true);
}

/// WSL2 on a 32 GB Windows machine (Linux sees 15.6 GiB), a 24 GB GPU, a 30B-class model in
/// 4-bit read whole by `torch.load` (a single-file GPTQ checkpoint: converting it to
/// safetensors would itself need to load it). Loading needs 32.5 × 10^9 × 4.127 / 8 bytes
/// (15.6 GiB) plus the runtime (5 GiB): more than Linux sees, so the first change is raising
/// WSL's cap — not buying RAM.
#[test]
fn wsl2_with_a_30b_4bit_model_raises_the_wsl_cap_first() {
    let v = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(common::fixture_path("wsl2-4090-32g"))
            .args([
                "--params",
                "32.5B",
                "--layers",
                "60",
                "--hidden-size",
                "6656",
                "--heads",
                "52",
            ])
            .args(["--inference", "transformers", "--weights", "int4"])
            .args(["--checkpoint-files", "pickle"]),
    );
    let weights = (32.5e9_f64 * 4.127 / 8.0).round() as u64;
    let m = &v["inference_memory"];
    assert_eq!(m["weights_bytes"], weights);
    // The runtime: the OS as the fixture's detection saw it at rest (MemTotal 16,756,101,120 −
    // MemAvailable 15,200,000,000 = 1,556,101,120 B, under the 2 GiB bound) and one 3 GiB
    // process (`advisor::overhead`).
    let os = 16_756_101_120u64 - 15_200_000_000;
    assert_eq!(m["phases"][0]["cpu_bytes_per_node"], weights + os + 3 * GIB);
    assert_eq!(m["cpu"]["fits"], false);
    assert_eq!(m["gpu"]["fits"], true);
    let first = &v["recommendations"][0];
    assert_eq!(first["id"], "wsl-raise-memory");
    assert_eq!(first["kind"], "os");
    assert_eq!(first["result"]["fits"], true);
    // Enough for the peak with its margin (5 % of the cap, at least 1 GiB: the peak ÷ 0.95),
    // whole GiB, as .wslconfig writes it.
    let peak = weights + 5 * GIB;
    let need_gib = ((peak as f64 / 0.95).ceil() as u64).div_ceil(GIB);
    assert_eq!(first["changes"]["memory"]["value"], format!("{need_gib}GB"));
    assert!(
        v["recommendations"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["id"] != "add-ram" || r != first)
    );
}

/// llama.cpp with a model that doesn't fit the GPU: the number of layers that fit, found by
/// trying them, is the first change.
#[test]
fn llama_cpp_finds_the_layers_that_fit() {
    // Llama 2 70B in Q4_K_M (4.85 bits): 41.8 GB of weights; 80 layers, 8 KV heads; one 24 GiB
    // RTX 4090 with 32 GiB of RAM (the seed article's workstation).
    let v = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(common::fixture_path("seed-4090-32g"))
            .args([
                "--preset",
                "llama2-70b",
                "--inference",
                "llama.cpp",
                "--weights",
                "q4_k_m",
            ]),
    );
    let m = &v["inference_memory"];
    assert_eq!(m["gpu"]["fits"], false);
    let rec = v["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "gpu-layers")
        .expect("a layer count")
        .clone();
    let layers = rec["changes"]["n_gpu_layers"]["value"].as_u64().unwrap();
    // By hand: each layer is 1/80 of the weights and of the 4,096-token cache; 512 MiB of compute
    // buffer; the GPU holds 24 GiB (fixture), less the 5 % VRAM margin a plan must leave
    // (docs/model.md § Headroom).
    let weights = 68_976_648_192f64 * 4.85 / 8.0;
    let kv = 327_680f64 * 4096.0;
    let per_layer = (weights + kv) / 80.0;
    let gpu = m["gpu"]["available_bytes"].as_f64().unwrap();
    assert_eq!(
        m["gpu"]["margin_bytes"].as_f64().unwrap(),
        (gpu * 0.05).round()
    );
    let fit = ((gpu * 0.95 - 512.0 * 1048576.0) / per_layer).floor() as u64;
    assert!(layers.abs_diff(fit) <= 1, "{layers} vs {fit}");
    assert_eq!(rec["kind"], "setting");
}

/// transformers with a model a bit too big for the GPU: `device_map="auto"` with `max_memory`
/// keeps the layers that fit on the GPU and the rest in CPU RAM. Llama 2 13B in bf16 on a g5.xlarge
/// (one 24 GiB A10G): 13,015,864,320 × 2 B of weights in 40 layers of 650,793,216 B each, a
/// 4,096-token cache of 819,200 B per token, and room for the largest tensor that crosses
/// PCIe (the 32,000 × 5,120 embedding, 327,680,000 B), leaving the 5 % VRAM margin (1.2 GiB):
/// (24 GiB × 0.95 − cache − tensor) / layer = 31.9 → 31 layers on the GPU, 9 in RAM.
#[test]
fn transformers_offloads_the_layers_that_dont_fit_with_device_map() {
    let v = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(common::fixture_path("aws-g5.xlarge"))
            .args(["--preset", "llama2-13b", "--inference", "transformers"]),
    );
    assert_eq!(v["inference_memory"]["gpu"]["fits"], false);
    let rec = v["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "device-map-offload")
        .expect("a device-map offload")
        .clone();
    let weights = 13_015_864_320u64 * 2;
    let layer = weights / 40;
    let cache = 819_200u64 * 4096;
    let margin = (24.0 * 0.05 * GIB as f64).round() as u64;
    let fit = (24 * GIB - margin - cache - 163_840_000 * 2) / layer;
    assert_eq!(fit, 31);
    assert_eq!(rec["changes"]["gpu_layers"]["value"], fit);
    assert_eq!(rec["changes"]["cpu_layers"]["value"], 40 - fit);
    assert_eq!(rec["kind"], "setting");
    assert_eq!(rec["result"]["fits"], true);
    // The 9 layers in RAM: 9/40 of the weights on top of the serving runtime (OS + one process).
    let in_ram = weights - weights * fit / 40;
    let peak = rec["result"]["cpu_peak_bytes_per_node"].as_u64().unwrap();
    assert!(peak >= in_ram + 5 * GIB, "{peak} vs {in_ram}");
}

/// An inference flag without --inference, or a vLLM flag for llama.cpp, is an error naming it.
#[test]
fn inference_flags_that_cant_apply_are_named() {
    common::ramvram()
        .args([
            "advise",
            "--preset",
            "llama2-7b",
            "--swap-space",
            "8",
            "--profile",
        ])
        .arg(common::fixture_path("seed-4090-32g"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--swap-space only applies with --inference vllm",
        ));
    common::ramvram()
        .args([
            "advise",
            "--preset",
            "llama2-7b",
            "--inference",
            "llama.cpp",
            "--swap-space",
            "8",
        ])
        .arg("--profile")
        .arg(common::fixture_path("seed-4090-32g"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--swap-space only applies with --inference vllm",
        ));
    common::ramvram()
        .args([
            "advise",
            "--preset",
            "llama2-7b",
            "--inference",
            "vllm",
            "--zero-stage",
            "3",
        ])
        .arg("--profile")
        .arg(common::fixture_path("seed-4090-32g"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--zero-stage is a training setting",
        ));
}

/// A catalogue model served by llama.cpp in the GGUF types people download after Q4_K_M:
/// its bytes are llama-quantize's type mix, against `llama-quantize --dry-run` on the bf16
/// Llama-3.1-8B (llama.cpp vendored by llama-cpp-python 0.3.36): Q5_K_M 5459.93 MiB, Q6_K
/// 6282.97 MiB, Q8_0 (`--weights int8`) 8137.64 MiB.
#[test]
fn gguf_types_beyond_q4_k_m_are_sized_as_llama_quantize_writes_them() {
    for (weights, mib) in [("q5_k_m", 5459.93), ("q6_k", 6282.97), ("int8", 8137.64)] {
        let v = common::json_of(common::ramvram().args([
            "advise",
            "--profile",
            common::fixture_path("lab-4090-128g").to_str().unwrap(),
            "--preset",
            "llama-3.1-8b",
            "--inference",
            "llama.cpp",
            "--weights",
            weights,
            "--json",
        ]));
        let got = v["inference_memory"]["weights_bytes"].as_u64().unwrap() as f64 / 1048576.0;
        assert!(
            (got - mib).abs() / mib < 0.005,
            "{weights}: {got:.2} MiB vs {mib}"
        );
    }
}
