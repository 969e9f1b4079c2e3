//! `--inference diffusers` from the command line: a pipeline's name means the pipeline, the
//! training planner takes its denoiser, the diffusion flags need the engine (issue 33, item 5).

mod common;

const GIB: u64 = 1 << 30;

fn advise(args: &[&str]) -> serde_json::Value {
    let profile = common::fixture_path("hf-spaces-t4-small");
    common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(&profile)
            .args(args),
    )
}

/// Case 3 through the command line: SD 1.5 from its all-in-one fp32 safetensors, served in
/// fp16 at 512 × 512 with `enable_model_cpu_offload()`: the GPU holds the UNet
/// (859,520,964 × 2 B) and its working memory (2 × 4,096 × 320 × 17 × 2 B); the host holds the
/// three components (1,066,235,307 × 2 B) and, while loading, the file (× 4 B) beside them.
#[test]
fn sd15_from_one_file_with_model_offload() {
    let v = advise(&[
        "--model",
        "runwayml/stable-diffusion-v1-5",
        "--inference",
        "diffusers",
        "--cpu-offload",
        "model",
        "--single-file",
        "--checkpoint-dtype",
        "fp32",
        "--resolution",
        "512x512",
    ]);
    let m = &v["inference_memory"];
    assert_eq!(m["plan"]["engine"], "diffusers");
    assert_eq!(m["plan"]["diffusion"]["pipeline"], "sd15");
    let phases = m["phases"].as_array().unwrap();
    assert_eq!(phases[0]["phase"], "loading");
    assert_eq!(phases[0]["gpu_bytes_per_gpu"], 0);
    assert_eq!(
        phases[0]["cpu_bytes_per_node"],
        1_066_235_307 * 4 + 1_066_235_307 * 2 + 5 * GIB
    );
    assert_eq!(
        phases[1]["gpu_bytes_per_gpu"],
        859_520_964 * 2 + 2 * 4096 * 320 * 17 * 2
    );
    assert_eq!(phases[1]["cpu_bytes_per_node"], 1_066_235_307 * 2 + 5 * GIB);
    assert_eq!(m["fits"], true);
}

/// The names people use (`sdxl`, the Hub id) train the pipeline's denoiser, as `sdxl-unet` did.
#[test]
fn a_pipeline_name_trains_its_denoiser() {
    for name in [
        "sdxl",
        "stabilityai/stable-diffusion-xl-base-1.0",
        "sdxl-unet",
    ] {
        let v = advise(&["--preset", name, "--finetune", "lora"]);
        assert_eq!(
            v["training_memory"]["plan"]["params"], 2_567_463_684_u64,
            "{name}"
        );
    }
}

/// The diffusion flags need `--inference diffusers`; the engine needs a pipeline.
#[test]
fn flags_and_models_that_cant_apply() {
    let profile = common::fixture_path("hf-spaces-t4-small");
    let out = common::ramvram()
        .args(["advise", "--profile"])
        .arg(&profile)
        .args([
            "--preset",
            "sd15",
            "--inference",
            "vllm",
            "--resolution",
            "512x512",
        ])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("--resolution") && err.contains("--inference diffusers"),
        "{err}"
    );
    let out = common::ramvram()
        .args(["advise", "--profile"])
        .arg(&profile)
        .args(["--preset", "llama2-7b", "--inference", "diffusers"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("diffusion pipeline"), "{err}");
}
