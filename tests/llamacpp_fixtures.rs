//! The llama.cpp reference fixtures (`tests/fixtures/llamacpp/*.json`, written by
//! `tools/llamacpp-reference/run.sh`) parse and agree with themselves and with hand-worked KV
//! cache sizes. These check the reference, not ramvram: the comparison of ramvram's placement
//! with these figures lives with the llama.cpp model's own tests.

use serde_json::Value;
use std::path::Path;

fn fixture(name: &str) -> Option<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/llamacpp")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(path).ok()?;
    Some(serde_json::from_str(&text).expect("fixture is JSON"))
}

fn all() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/llamacpp");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .expect("tests/fixtures/llamacpp exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let v = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (name, v)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn u(v: &Value) -> u64 {
    v.as_u64().expect("a whole number")
}

/// The CPU-only figure (every buffer on the host) at these settings.
fn host(fx: &Value, ctx: u64, fa: &str, ctk: &str, ub: u64, np: u64) -> Option<(u64, u64, u64)> {
    fx["figures"].as_array()?.iter().find_map(|f| {
        let s = &f["settings"];
        (f["device_mib"].is_null()
            && u(&s["ctx"]) == ctx
            && s["fa"] == fa
            && s["ctk"] == ctk
            && u(&s["ub"]) == ub
            && u(&s["np"]) == np)
            .then(|| {
                let h = &f["buffers"]["Host"];
                (u(&h["model"]), u(&h["context"]), u(&h["compute"]))
            })
    })
}

#[test]
fn every_fixture_is_self_consistent() {
    let fixtures = all();
    assert!(fixtures.len() >= 3, "at least three reference models");
    for (name, fx) in &fixtures {
        assert_eq!(fx["model"], name.as_str());
        let file = &fx["file"];
        let total = u(&file["tensor_bytes"]);
        let sum = |k: &str| -> u64 { file[k].as_object().unwrap().values().map(u).sum() };
        assert_eq!(sum("tensor_bytes_by_kind"), total, "{name}: kinds add up");
        assert_eq!(sum("tensor_bytes_by_type"), total, "{name}: types add up");
        assert!(u(&file["file_bytes"]) > total, "{name}: header + data");
        let layers = file["layer_bytes"].as_array().unwrap();
        assert_eq!(layers.len() as u64, u(&fx["shape"]["n_layer"]), "{name}");
        // Every figure llama.cpp printed: the run succeeded and has the host row.
        for f in fx["figures"].as_array().unwrap() {
            assert_eq!(f["rc"], 0, "{name}: {}", f["cmd"]);
            assert!(f["buffers"]["Host"].is_object(), "{name}: {}", f["cmd"]);
        }
        // On the CPU alone the model buffer is the file's tensor data (memory-mapped), to within
        // the per-tensor alignment padding (32 bytes each).
        let (model, _, _) = host(fx, 4096, "on", "f16", 512, 1).expect("a 4k CPU figure");
        assert!(
            model >= total && model - total < 1 << 20,
            "{name}: {model} vs {total}"
        );
    }
}

#[test]
fn llama_3_1_8b_kv_cache_by_hand() {
    let Some(fx) = fixture("llama31-8b") else {
        panic!("tests/fixtures/llamacpp/llama31-8b.json is missing");
    };
    // f16 K and V: 2 × 32 layers × 8 KV heads × 128 × 2 B = 131,072 B per token; × 4,096.
    let (_, kv, _) = host(&fx, 4096, "on", "f16", 512, 1).unwrap();
    assert_eq!(kv, 536_870_912);
    // 32,768 tokens: 8 times as much.
    let (_, kv, _) = host(&fx, 32_768, "on", "f16", 512, 1).unwrap();
    assert_eq!(kv, 4_294_967_296);
    // q8_0: blocks of 32 elements in 34 bytes: 536,870,912 × 34 / 64 = 285,212,672.
    let (_, kv, _) = host(&fx, 4096, "on", "q8_0", 512, 1).unwrap();
    assert_eq!(kv, 285_212_672);
    // Q4_K_M of Llama-3.1-8B: 4.8944 bits per weight in llama.cpp's own table
    // (tools/quantize/README.md, "Quantization"). Parameters by hand: embedding and output
    // 2 × 128,256 × 4,096 = 1,050,673,152; per layer q and o 2 × 4,096², k and v 2 × 4,096 ×
    // 1,024, the MLP 3 × 4,096 × 14,336, two norms 2 × 4,096 = 218,112,000, × 32; the final
    // norm 4,096: 8,030,261,248 in all.
    let bpw = u(&fx["file"]["tensor_bytes"]) as f64 * 8.0 / 8_030_261_248.0;
    assert!(
        (bpw - 4.8944).abs() / 4.8944 < 0.002,
        "{bpw} bits per weight"
    );
}

#[test]
fn gemma_3_sliding_window_by_hand() {
    let Some(fx) = fixture("gemma3-27b") else {
        return; // written only when the reference run reached it
    };
    // 62 layers, every 6th global (il % 6 == 5: 10 layers), 52 sliding-window layers of 1,024
    // tokens; per layer and token 2 × 16 KV heads × 128 × 2 B = 8,192 B. The window's cache
    // holds min(n_ctx, pad(1,024 + n_ubatch 512, 256)) = 1,536 cells
    // (llama_kv_cache_iswa's size_swa). At 4,096 tokens: 10 × 4,096 × 8,192 + 52 × 1,536 ×
    // 8,192 = 335,544,320 + 654,311,424.
    let (_, kv, _) = host(&fx, 4096, "on", "f16", 512, 1).unwrap();
    assert_eq!(kv, 335_544_320 + 654_311_424);
}

#[test]
fn deepseek_v2_lite_mla_cache_by_hand() {
    let Some(fx) = fixture("deepseek-v2-lite") else {
        return; // written only when the reference run reached it
    };
    // Multi-head latent attention caches the compressed latent only: kv_lora_rank 512 plus
    // the 64 rotary dimensions, f16, per layer and token — 27 × 576 × 2 B = 31,104 B; × 4,096.
    let (_, kv, _) = host(&fx, 4096, "on", "f16", 512, 1).unwrap();
    assert_eq!(kv, 127_401_984);
}
