//! llama.cpp's memory model on GGUF files written by llama.cpp's own writer (PyPI `gguf`,
//! gguf-py) as sparse files (`tools/gguf_sparse.py`: real headers, the data a file hole), with
//! the real tensor layout of current models. Every expected figure is worked out here from
//! ggml's block sizes (ggml/src/ggml.c `type_traits`) and the models' published config.json.
//!
//! Needs `python3` with `gguf` and `numpy`; without them the tests fail when `CI` is set and
//! are skipped, with a note, otherwise.

use std::path::Path;

mod common;

use ramvram::advisor::inference::llama_cpp::kv::{self, KvSettings};
use ramvram::advisor::inference::llama_cpp::place::{Placement, place};
use ramvram::advisor::inference::llama_cpp::{LayerCache, LlamaModel};
use ramvram::inputs::model_files::read;
use serde_json::{Value, json};

const GIB: u64 = 1 << 30;

/// Writes `spec` as a sparse GGUF and reads it back; `None` when gguf-py is missing (not CI).
fn written(dir: &Path, name: &str, spec: Value) -> Option<(LlamaModel, u64)> {
    let out = sparse(dir, name, spec)?;
    let r = read(&out).unwrap();
    let bytes = r.tensors.as_ref().unwrap().weight_bytes;
    Some((r.gguf.unwrap().llama, bytes))
}

/// Writes `spec` as a sparse GGUF; its path, or `None` when gguf-py is missing (not CI).
fn sparse(dir: &Path, name: &str, spec: Value) -> Option<std::path::PathBuf> {
    let spec_path = dir.join(format!("{name}.json"));
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    let out = dir.join(format!("{name}.gguf"));
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/gguf_sparse.py");
    let ran = std::process::Command::new("python3")
        .arg(tool)
        .arg(&out)
        .arg(&spec_path)
        .output();
    if !ran.as_ref().is_ok_and(|o| o.status.success()) {
        let why = match &ran {
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
        assert!(!ci, "gguf-py is needed in CI (pip install gguf): {why}");
        eprintln!("skipped: python3 with gguf is not available: {why}");
        return None;
    }
    Some(out)
}

/// Bytes of `elements` of a ggml type, from ggml.c's (block size, bytes per block).
fn b(elements: u64, ty: &str) -> u64 {
    let (block, size) = match ty {
        "F32" => (1, 4),
        "F16" | "BF16" => (1, 2),
        "Q4_K" => (256, 144),
        "Q6_K" => (256, 210),
        "Q8_0" => (32, 34),
        "Q5_0" => (32, 22),
        "Q5_1" => (32, 24),
        "Q4_0" => (32, 18),
        "MXFP4" => (32, 17),
        _ => panic!("{ty}"),
    };
    elements / block * size
}

#[test]
fn every_ggml_type_has_its_block_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // (type, elements per block, bytes per block): ggml/src/ggml.c `type_traits`, the sizes of
    // the block structs in ggml-common.h (e.g. block_q4_K: 2 halves + 12 scale bytes + 128
    // nibble bytes = 144 per 256; block_mxfp4: 1 E8M0 scale + 16 bytes = 17 per 32).
    let types: &[(&str, u64, u64)] = &[
        ("F32", 1, 4),
        ("F16", 1, 2),
        ("BF16", 1, 2),
        ("Q4_0", 32, 18),
        ("Q4_1", 32, 20),
        ("Q5_0", 32, 22),
        ("Q5_1", 32, 24),
        ("Q8_0", 32, 34),
        ("Q2_K", 256, 84),
        ("Q3_K", 256, 110),
        ("Q4_K", 256, 144),
        ("Q5_K", 256, 176),
        ("Q6_K", 256, 210),
        ("IQ2_XXS", 256, 66),
        ("IQ2_XS", 256, 74),
        ("IQ2_S", 256, 82),
        ("IQ3_XXS", 256, 98),
        ("IQ3_S", 256, 110),
        ("IQ1_S", 256, 50),
        ("IQ1_M", 256, 56),
        ("IQ4_NL", 32, 18),
        ("IQ4_XS", 256, 136),
        ("TQ1_0", 256, 54),
        ("TQ2_0", 256, 66),
        ("MXFP4", 32, 17),
        ("NVFP4", 64, 36),
        ("Q1_0", 128, 18),
    ];
    // One 256 × 4 tensor per type in its own layer.
    let tensors: Vec<Value> = types
        .iter()
        .enumerate()
        .map(|(i, (ty, _, _))| json!([format!("blk.{i}.attn_q.weight"), [256, 4], ty]))
        .collect();
    let spec = json!({"arch": "llama", "kv": {"llama.block_count": ["u32", types.len()]},
                      "tensors": tensors});
    let Some((m, total)) = written(dir.path(), "types", spec) else {
        return;
    };
    for (i, (ty, block, size)) in types.iter().enumerate() {
        assert_eq!(m.bytes.layers[i].attention, 1024 / block * size, "{ty}");
    }
    assert_eq!(total, m.bytes.total());
}

/// Gemma-3 27B's layout (config.json of google/gemma-3-27b-it: 62 layers, hidden 5376, 32
/// heads and 16 KV heads of 128, intermediate 21504, vocabulary 262208, sliding window 1024,
/// tied embedding) in a Q4_K_M-like mix: attention and gate/up Q4_K, V and down Q6_K, the
/// embedding Q6_K, norms F32.
fn gemma3_27b() -> Value {
    let (e, f, v) = (5376u64, 21504u64, 262_208u64);
    let mut t = vec![
        json!(["token_embd.weight", [e, v], "Q6_K"]),
        json!(["output_norm.weight", [e], "F32"]),
    ];
    for i in 0..62 {
        let n = |s: &str| format!("blk.{i}.{s}.weight");
        t.push(json!([n("attn_q"), [e, 4096], "Q4_K"]));
        t.push(json!([n("attn_k"), [e, 2048], "Q4_K"]));
        t.push(json!([n("attn_v"), [e, 2048], "Q6_K"]));
        t.push(json!([n("attn_output"), [4096, e], "Q4_K"]));
        t.push(json!([n("attn_q_norm"), [128], "F32"]));
        t.push(json!([n("attn_k_norm"), [128], "F32"]));
        for norm in [
            "attn_norm",
            "post_attention_norm",
            "ffn_norm",
            "post_ffw_norm",
        ] {
            t.push(json!([n(norm), [e], "F32"]));
        }
        t.push(json!([n("ffn_gate"), [e, f], "Q4_K"]));
        t.push(json!([n("ffn_up"), [e, f], "Q4_K"]));
        t.push(json!([n("ffn_down"), [f, e], "Q6_K"]));
    }
    json!({"arch": "gemma3", "kv": {
        "gemma3.block_count": ["u32", 62], "gemma3.context_length": ["u32", 131072],
        "gemma3.embedding_length": ["u32", e], "gemma3.feed_forward_length": ["u32", f],
        "gemma3.attention.head_count": ["u32", 32], "gemma3.attention.head_count_kv": ["u32", 16],
        "gemma3.attention.key_length": ["u32", 128], "gemma3.attention.value_length": ["u32", 128],
        "gemma3.attention.sliding_window": ["u32", 1024]}, "tensors": t})
}

#[test]
fn gemma3_27b_bytes_kinds_window_and_tied_copy() {
    let dir = tempfile::tempdir().unwrap();
    let Some((m, total)) = written(dir.path(), "gemma3", gemma3_27b()) else {
        return;
    };
    let e = 5376;
    let attention = b(e * 4096, "Q4_K") * 2 + b(e * 2048, "Q4_K") + b(e * 2048, "Q6_K");
    let ffn = b(e * 21504, "Q4_K") * 2 + b(e * 21504, "Q6_K");
    let norms = b(128, "F32") * 2 + b(e, "F32") * 4;
    let layer = &m.bytes.layers[10];
    assert_eq!(
        (layer.attention, layer.ffn, layer.experts, layer.norms),
        (attention, ffn, 0, norms)
    );
    let embedding = b(e * 262_208, "Q6_K"); // 1,156,337,280 B: the "+1.1 GiB"
    assert_eq!(m.bytes.token_embedding, embedding);
    assert_eq!(m.bytes.output, None);
    assert_eq!(
        total,
        62 * (attention + ffn + norms) + embedding + b(e, "F32")
    );
    assert_eq!(m.vocab, 262_208);
    assert_eq!(m.trained_context, 131_072);
    // Pattern 6 (llama.cpp models/gemma3.cpp): 52 sliding layers, 10 full.
    let sliding = m
        .cache
        .layers
        .iter()
        .filter(|l| **l == LayerCache::Sliding)
        .count();
    assert_eq!((sliding, m.cache.layers.len()), (52, 62));
    assert_eq!(m.cache.layers[5], LayerCache::Full);
    // KV at 4096 tokens, f16: 10 × 4096 cells + 52 × 1536 cells, 8192 B a cell.
    let kv4k = kv::total(&m, &KvSettings::new(4096));
    assert_eq!(kv4k, 8192 * (10 * 4096 + 52 * 1536));
    // -ngl 99 (clamped to 63): every layer, the output as a second copy of the embedding on
    // the GPU, the embedding itself in host memory.
    let p = place(
        &m,
        &KvSettings::new(4096),
        &Placement {
            gpu_layers: Some(99),
            ..Default::default()
        },
        1,
    );
    assert_eq!(p.gpu_layers, 63);
    assert_eq!(p.tied_output_copy, embedding);
    assert_eq!(p.gpu_weights[0], total); // the layers, the norm and the copy = the file
    assert_eq!(p.host_weights, embedding);
    assert!(p.gpu_weights[0] > 15 * GIB && p.gpu_kv[0] == kv4k);
}

#[test]
fn deepseek_mla_and_experts() {
    let dir = tempfile::tempdir().unwrap();
    // DeepSeek-V3's attention layout (config.json: kv_lora_rank 512, q_lora_rank 1536,
    // qk_nope 128, qk_rope 64, v_head 128, 128 heads) on a small body: hidden 1024, 3 layers,
    // the first dense, 8 experts of 256 and a shared one. The GGUF stores MLA as llama.cpp's
    // converter does: key_length 576, value_length 512, *_mla 192/128, one KV head.
    let (e, r) = (1024u64, 576u64);
    let mut t = vec![
        json!(["token_embd.weight", [e, 1024], "Q8_0"]),
        json!(["output.weight", [e, 1024], "Q8_0"]),
        json!(["output_norm.weight", [e], "F32"]),
    ];
    for i in 0..3 {
        let n = |s: &str| format!("blk.{i}.{s}.weight");
        t.push(json!([n("attn_q_a"), [e, 1536], "Q8_0"]));
        t.push(json!([n("attn_q_b"), [1536, 128 * 192], "Q8_0"]));
        t.push(json!([n("attn_kv_a_mqa"), [e, r], "Q8_0"]));
        t.push(json!([n("attn_k_b"), [128, 512, 128], "Q8_0"]));
        t.push(json!([n("attn_v_b"), [512, 128, 128], "Q8_0"]));
        t.push(json!([n("attn_output"), [128 * 128, e], "Q8_0"]));
        t.push(json!([n("attn_norm"), [e], "F32"]));
        if i == 0 {
            t.push(json!([n("ffn_up"), [e, 2048], "Q8_0"]));
        } else {
            t.push(json!([n("ffn_gate_inp"), [e, 8], "F32"]));
            t.push(json!([n("ffn_up_shexp"), [e, 256], "Q8_0"]));
            t.push(json!([n("ffn_gate_exps"), [e, 256, 8], "Q8_0"]));
            t.push(json!([n("ffn_up_exps"), [e, 256, 8], "Q8_0"]));
            t.push(json!([n("ffn_down_exps"), [256, e, 8], "Q8_0"]));
        }
    }
    let spec = json!({"arch": "deepseek2", "kv": {
        "deepseek2.block_count": ["u32", 3], "deepseek2.context_length": ["u32", 163840],
        "deepseek2.embedding_length": ["u32", e], "deepseek2.attention.head_count": ["u32", 128],
        "deepseek2.attention.head_count_kv": ["u32", 1],
        "deepseek2.attention.key_length": ["u32", r], "deepseek2.attention.value_length": ["u32", 512],
        "deepseek2.attention.key_length_mla": ["u32", 192],
        "deepseek2.attention.value_length_mla": ["u32", 128],
        "deepseek2.attention.kv_lora_rank": ["u32", 512]}, "tensors": t});
    let Some((m, _)) = written(dir.path(), "deepseek", spec) else {
        return;
    };
    // K only, 576 wide: 3 layers × 576 × 2 B per token.
    assert_eq!((m.cache.k_per_cell, m.cache.v_per_cell), (576, 0));
    assert_eq!(kv::per_token(&m, &KvSettings::new(4096)), 3 * 576 * 2);
    let experts = 3 * b(e * 256 * 8, "Q8_0");
    let l1 = m.bytes.layers[1];
    assert_eq!(l1.experts, experts);
    assert_eq!(l1.ffn, b(e * 8, "F32") + b(e * 256, "Q8_0"));
    assert_eq!(m.bytes.layers[0].experts, 0);
    // --n-cpu-moe 2: layer 1's experts (layer 0 has none) go to the host; --cpu-moe: both.
    let s = KvSettings::new(4096);
    let all = place(&m, &s, &Placement::default(), 1);
    let two = place(
        &m,
        &s,
        &Placement {
            cpu_moe_layers: 2,
            ..Default::default()
        },
        1,
    );
    assert_eq!(two.host_weights - all.host_weights, experts);
    assert_eq!(all.gpu_weights[0] - two.gpu_weights[0], experts);
    let every = place(
        &m,
        &s,
        &Placement {
            cpu_moe_layers: u64::MAX,
            ..Default::default()
        },
        1,
    );
    assert_eq!(every.host_weights - all.host_weights, 2 * experts);
}

#[test]
fn qwen35_hybrid_layers_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // Qwen3.5's layout (models/qwen35.cpp) on 4 layers of hidden 1024: layers 0–2 gated
    // delta-net (attn_qkv, ssm_*), layer 3 full attention; ssm keys as the converter writes
    // them for Qwen3.5-27B (conv 4, inner 6144, state 128, 16 groups).
    let e = 1024u64;
    let mut t = vec![json!(["token_embd.weight", [e, 512], "F16"])];
    for i in 0..4 {
        let n = |s: &str| format!("blk.{i}.{s}.weight");
        if i == 3 {
            t.push(json!([n("attn_q"), [e, 1024], "F16"]));
            t.push(json!([n("attn_k"), [e, 1024], "F16"]));
            t.push(json!([n("attn_v"), [e, 1024], "F16"]));
        } else {
            t.push(json!([n("attn_qkv"), [e, 1024], "F16"]));
            t.push(json!([n("ssm_conv1d"), [4, 1024], "F32"]));
            t.push(json!([n("ssm_out"), [1024, e], "F16"]));
        }
    }
    let spec = json!({"arch": "qwen35", "kv": {
        "qwen35.block_count": ["u32", 4], "qwen35.embedding_length": ["u32", e],
        "qwen35.attention.head_count": ["u32", 24], "qwen35.attention.head_count_kv": ["u32", 4],
        "qwen35.attention.key_length": ["u32", 256], "qwen35.attention.value_length": ["u32", 256],
        "qwen35.full_attention_interval": ["u32", 4],
        "qwen35.ssm.conv_kernel": ["u32", 4], "qwen35.ssm.inner_size": ["u32", 6144],
        "qwen35.ssm.state_size": ["u32", 128], "qwen35.ssm.group_count": ["u32", 16],
        "qwen35.ssm.time_step_rank": ["u32", 48]}, "tensors": t});
    let Some((m, _)) = written(dir.path(), "qwen35", spec) else {
        return;
    };
    use LayerCache::{Full, Recurrent};
    assert_eq!(m.cache.layers, vec![Recurrent, Recurrent, Recurrent, Full]);
    // n_embd_r = 3 × (6144 + 2·16·128) = 30720; n_embd_s = 128 × 6144 = 786432 (f32).
    assert_eq!(
        (m.cache.recurrent_r, m.cache.recurrent_s),
        (30_720, 786_432)
    );
    // 8192 tokens: one full layer of 4·256 K and V f16 cells, three recurrent states.
    let kv = kv::total(&m, &KvSettings::new(8192));
    assert_eq!(kv, 8192 * 4096 + 3 * 4 * (30_720 + 786_432));
}

#[test]
fn advise_a_gguf_with_llama_cpp_gives_file_bytes_and_the_fit() {
    let dir = tempfile::tempdir().unwrap();
    let Some(path) = sparse(dir.path(), "gemma3", gemma3_27b()) else {
        return;
    };
    let v = common::json_of(common::ramvram().args([
        "advise",
        "--profile",
        common::fixture_path("student-3080-32g").to_str().unwrap(),
        "--model",
        path.to_str().unwrap(),
        "--inference",
        "llama.cpp",
        "--json",
    ]));
    let e = 5376;
    let layer = b(e * 4096, "Q4_K") * 2
        + b(e * 2048, "Q4_K")
        + b(e * 2048, "Q6_K")
        + b(e * 21504, "Q4_K") * 2
        + b(e * 21504, "Q6_K")
        + b(128, "F32") * 2
        + b(e, "F32") * 4;
    let embedding = b(e * 262_208, "Q6_K");
    let file = 62 * layer + embedding + b(e, "F32");
    let m = &v["inference_memory"];
    assert_eq!(m["weights_bytes"], file);
    // llama.cpp's fit on the 10 GiB RTX 3080 (1 GiB left free): the context shrinks to 4096
    // and the largest -ngl that fits is chosen; one more layer (a sliding one, 1536 cells of
    // 8192 B) would not fit.
    let r = &v["recommendations"][0];
    assert_eq!(r["id"], "llama-fit");
    assert_eq!(r["changes"]["context_len"]["value"], 4096);
    let ngl = r["changes"]["n_gpu_layers"]["value"].as_u64().unwrap();
    let gpu = r["changes"]["gpu_bytes"]["value"].as_u64().unwrap();
    let budget = 9 * GIB;
    assert!(
        gpu <= budget && gpu + layer + 1536 * 8192 > budget,
        "{ngl} {gpu}"
    );
    assert!((20..40).contains(&ngl), "{ngl}");
    let apply: Vec<&str> = r["apply"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(apply, ["--n-gpu-layers".to_string(), ngl.to_string()]);
    // The host keeps the embedding and the CPU layers: what llama.cpp doesn't check.
    let host = r["changes"]["host_bytes"]["value"].as_u64().unwrap();
    assert!(host >= embedding + (63 - ngl) * layer, "{host}");
}

/// llama.cpp's own figures (tests/fixtures/llamacpp/*.json, written by the llama.cpp reference
/// helper: llama-cpp-python 0.3.36's vendored llama.cpp, `llama-fit-params --fit-print`, a GPU
/// emulated over RPC): each model's file layout and the buffers llama.cpp allocates.
fn reference(name: &str) -> Value {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/llamacpp/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The model the fixture describes: each layer's bytes, the routed experts spread evenly over
/// the MoE layers (those after `n_dense_lead`), the output tied when the file has none.
fn model_of(r: &Value) -> LlamaModel {
    use ramvram::advisor::inference::llama_cpp::hparams::default_swa_pattern;
    use ramvram::advisor::inference::llama_cpp::{CacheShape, GgufLayout, LayerBytes};
    let sh = &r["shape"];
    let n = |k: &str| sh[k].as_u64().unwrap_or(0);
    let kinds = &r["file"]["tensor_bytes_by_kind"];
    let totals: Vec<u64> = r["file"]["layer_bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect();
    let n_layer = totals.len() as u64;
    let lead = n("n_dense_lead");
    // Each MoE layer's experts: gate, up and down of n_embd × n_ff_exp × n_expert elements in the
    // types llama-quantize chose for that layer.
    let types = &r["file"]["tensor_types"];
    let experts = |j: usize| -> u64 {
        ["gate", "up", "down"]
            .iter()
            .map(|t| {
                let ty = &types[format!("blk.*.ffn_{t}_exps.weight")];
                let ty = ty.as_str().or_else(|| ty[j].as_str());
                ty.map_or(0, |ty| b(n("n_embd") * n("n_ff_exp") * n("n_expert"), ty))
            })
            .sum()
    };
    let layers: Vec<LayerBytes> = totals
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let e = if (i as u64) < lead {
                0
            } else {
                experts(i - lead as usize)
            };
            LayerBytes {
                attention: t - e,
                experts: e,
                ..LayerBytes::default()
            }
        })
        .collect();
    let mla = sh.get("kv_lora_rank").is_some();
    let (k, v) = if mla {
        (n("kv_lora_rank") + n("qk_rope"), 0)
    } else {
        (
            n("n_head_kv") * n("head_dim"),
            n("n_head_kv") * n("head_dim"),
        )
    };
    let window = n("sliding_window");
    let cache_layers = (0..n_layer)
        .map(|il| {
            // The architecture's pattern (Gemma-3: 6, gpt-oss: 2; llama.cpp src/models/*.cpp).
            let n = default_swa_pattern(sh["arch"].as_str().unwrap()).unwrap_or(1);
            if window > 0 && il % n < n - 1 {
                LayerCache::Sliding
            } else {
                LayerCache::Full
            }
        })
        .collect();
    LlamaModel {
        architecture: sh["arch"].as_str().unwrap().into(),
        trained_context: n("n_ctx_train"),
        embedding: n("n_embd"),
        vocab: n("n_vocab"),
        heads: n("n_head"),
        feed_forward: n("n_ff"),
        expert_feed_forward: n("n_ff_exp") * n("n_expert_used"),
        cache: CacheShape {
            k_per_cell: k,
            v_per_cell: v,
            sliding_window: window,
            layers: cache_layers,
            recurrent_r: 0,
            recurrent_s: 0,
        },
        bytes: GgufLayout {
            layers,
            token_embedding: kinds["token_embd"].as_u64().unwrap(),
            output: kinds["output"].as_u64(),
            // output_norm: n_embd f32.
            other: n("n_embd") * 4,
        },
    }
}

fn cache_type(t: &str) -> ramvram::advisor::inference::llama_cpp::CacheType {
    use ramvram::advisor::inference::llama_cpp::CacheType as C;
    match t {
        "f16" => C::F16,
        "q8_0" => C::Q8_0,
        "q4_0" => C::Q4_0,
        _ => panic!("{t}"),
    }
}

#[test]
fn gpu_bytes_match_llama_cpps_own_buffers() {
    use ramvram::advisor::inference::llama_cpp::fit::gpu_need;
    for name in [
        "llama31-8b",
        "qwen3-8b",
        "gemma3-27b",
        "deepseek-v2-lite",
        "qwen3-30b-a3b",
    ] {
        let r = reference(name);
        let m = model_of(&r);
        assert_eq!(
            m.bytes.total(),
            r["file"]["tensor_bytes"].as_u64().unwrap(),
            "{name}"
        );
        let mut checked = 0;
        for f in r["figures"].as_array().unwrap() {
            let st = &f["settings"];
            let u = |k: &str| st[k].as_u64().unwrap();
            let np = u("np");
            let s = KvSettings {
                context_per_sequence: u("ctx") / np,
                sequences: np,
                ubatch: u("ub"),
                type_k: cache_type(st["ctk"].as_str().unwrap()),
                type_v: cache_type(st["ctv"].as_str().unwrap()),
            };
            let fa = st["fa"] == "on";
            let b = &f["buffers"];
            let host = &b["Host"];
            let ngl = u("ngl");
            let p = Placement {
                gpu_layers: Some(ngl),
                cpu_moe_layers: st["ncmoe"].as_u64().unwrap_or(0),
                ..Default::default()
            };
            let placed = place(&m, &s, &p, 1);
            if f["device_mib"].is_null() {
                // CPU only: the whole cache on the host, exactly.
                assert_eq!(
                    kv::total(&m, &s),
                    host["context"].as_u64().unwrap(),
                    "{name} {st}"
                );
                continue;
            }
            // A GPU: weights and cache exactly, the total within 3 % or 256 MiB.
            let gpu = &b["RPC0"];
            let g = |k: &str| gpu[k].as_u64().unwrap();
            assert_eq!(placed.gpu_weights[0], g("model"), "{name} {st}");
            assert_eq!(placed.gpu_kv[0], g("context"), "{name} {st}");
            assert_eq!(
                placed.host_weights,
                host["model"].as_u64().unwrap(),
                "{name} {st}"
            );
            assert_eq!(
                placed.host_kv,
                host["context"].as_u64().unwrap(),
                "{name} {st}"
            );
            let theirs = g("model") + g("context") + g("compute");
            let ours = gpu_need(&m, &s, &p, 1, fa);
            let diff = ours.abs_diff(theirs);
            assert!(
                diff <= (theirs * 3 / 100).max(256 << 20),
                "{name} {st}: ours {ours}, llama.cpp {theirs}"
            );
            checked += 1;
        }
        assert!(checked >= 4, "{name}: {checked} GPU figures");
    }
}

/// llama.cpp's own fit (`llama-fit-params` against an emulated GPU of 8–48 GiB, the `fits` of
/// each fixture) beside ramvram's (`llama_cpp::fit::fit`) on the same model and GPU: the
/// context the same, `-ngl` within one layer for dense models, and for MoE models the count of
/// layers whose experts stay in host memory within one (llama.cpp's `-ot` list names layers by
/// index; it moves whole layers' experts plus, at the boundary, part of one layer's, and its
/// list runs one index past the last layer, which has no tensors, so only indices below
/// `n_layer` count). Flash attention is llama.cpp's default `auto`, which its fit resolves to on
/// (common/fit.cpp, `common_params_fit_impl`).
#[test]
fn fit_matches_llama_cpps_fit_params() {
    use ramvram::advisor::inference::llama_cpp::fit::fit;
    const MIB: u64 = 1 << 20;
    let mut rows = Vec::new();
    for name in [
        "llama31-8b",
        "llama31-70b",
        "qwen3-8b",
        "gemma3-27b",
        "qwen3-30b-a3b",
        "deepseek-v2-lite",
        "gpt-oss-20b",
    ] {
        let r = reference(name);
        let m = model_of(&r);
        let n_layer = m.bytes.layers.len() as u64;
        let fits = r["fits"].as_array().unwrap();
        assert_eq!(fits.len(), 10, "{name}: 5 GPU sizes × (default, -c 8192)");
        for f in fits {
            assert_eq!(f["rc"], 0, "{name}");
            let free = f["device_mib"].as_u64().unwrap() * MIB;
            let given = f["cmd"].as_str().unwrap().contains("-c 8192");
            let s = KvSettings::new(8192);
            let ours = fit(&m, &s, given.then_some(8192), 1, free, true);
            let their_ctx = f["n_ctx"].as_u64().unwrap();
            // -1: every layer (n_layer + 1 slots with the output).
            let their_ngl = f["n_gpu_layers"]
                .as_i64()
                .map_or(n_layer + 1, |v| if v < 0 { n_layer + 1 } else { v as u64 });
            let their_moe = f["layers_with_experts_on_host"].as_array().map_or(0, |l| {
                l.iter().filter(|i| i.as_u64().unwrap() < n_layer).count()
            }) as u64;
            let our_moe = m
                .bytes
                .layers
                .iter()
                .take(ours.n_cpu_moe as usize)
                .filter(|l| l.experts > 0)
                .count() as u64;
            rows.push(format!(
                "{name} {} GiB{}: llama.cpp ctx {their_ctx} ngl {their_ngl} cpu-moe {their_moe}; \
                 ramvram ctx {} ngl {} cpu-moe {our_moe}",
                free >> 30,
                if given { " -c 8192" } else { "" },
                ours.context,
                ours.gpu_layers,
            ));
            // Two contexts differ, both MoE models with every layer on the GPU and the context
            // shrunk to fit: llama.cpp's compute buffer there (236 MiB for DeepSeek-V2-Lite,
            // 408 MiB for gpt-oss-20b, their "compute" at -ngl 999 in this fixture's figures)
            // is larger than ramvram's logits + residual (204 MiB, 398 MiB: the MoE graph's own
            // peak isn't modelled), so ramvram leaves room for 32 MiB / 31,104 B per token of
            // MLA cache ≈ 1,079 tokens (1,024 after 256-alignment) and 10 MiB / 24,576 B (12 full
            // layers × 8 heads × 64 × 2 × 2 B) ≈ 400 tokens (256) more. Exactly those, no others.
            let known = match (name, free >> 30, given) {
                ("deepseek-v2-lite", 12, false) => 1024,
                ("gpt-oss-20b", 16, false) => 256,
                _ => 0,
            };
            let ok = ours.context == their_ctx + known
                && ours.gpu_layers.abs_diff(their_ngl) <= 1
                && our_moe.abs_diff(their_moe) <= 1;
            if !ok {
                rows.last_mut().unwrap().push_str("  <-- differs");
            }
        }
    }
    let report = rows.join("\n");
    eprintln!("{report}");
    assert!(!report.contains("differs"), "{report}");
}

/// Ollama (`--inference ollama`) starts llama-server with `-c num_ctx × OLLAMA_NUM_PARALLEL`
/// always. With `num_ctx` unset its default follows the GPUs' total memory (ollama
/// `server/routes.go`: 32,768 tokens from 23 GiB, 4,096 below), so llama.cpp's fit keeps that
/// context and only places the layers, where llama.cpp run by hand shrinks the context to fit.
#[test]
fn ollama_passes_its_default_context_and_the_fit_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let Some(path) = sparse(dir.path(), "gemma3", gemma3_27b()) else {
        return;
    };
    let advise = |profile: &str, extra: &[&str]| {
        let fixture = common::fixture_path(profile);
        let mut args = vec![
            "advise",
            "--profile",
            fixture.to_str().unwrap(),
            "--model",
            path.to_str().unwrap(),
            "--inference",
            "ollama",
            "--json",
        ];
        args.extend_from_slice(extra);
        common::json_of(common::ramvram().args(args))
    };
    // An RTX 4090 (24 GiB, 25,769,803,776 B): the 32,768-token tier, under the trained 131,072.
    let v = advise("lab-4090-128g", &[]);
    let m = &v["inference_memory"];
    assert_eq!(m["plan"]["context_len"], 32_768);
    // Gemma-3's KV: 10 global layers (every sixth of 62) hold all 32,768 cells; the 52 sliding
    // layers pad256(min(32,768, 1,024 + 512)) = 1,536 cells; each cell 2 × 16 KV heads × 128 ×
    // 2 B = 8,192 B per layer.
    let kv = 10 * 32_768 * 8192 + 52 * 1536 * 8192u64;
    assert_eq!(kv, 3_338_665_984);
    assert_eq!(m["kv_cache_bytes"], kv);
    // llama-server's fit under Ollama places layers at that context: the context is not
    // changed, so `apply` carries only the layers.
    let r = &v["recommendations"][0];
    assert_eq!(r["id"], "llama-fit");
    assert_eq!(r["changes"]["context_len"]["value"], 32_768);
    let apply = r["apply"].as_array().unwrap();
    assert_eq!(apply[0], "--n-gpu-layers", "{apply:?}");
    assert_eq!(apply.len(), 2, "{apply:?}");
    // The Modelfile's words for it.
    let native = r["native"].to_string();
    assert!(native.contains("PARAMETER num_gpu"), "{native}");
    // The same model with llama.cpp run by hand: its fit shrinks the context instead.
    let fixture = common::fixture_path("lab-4090-128g");
    let l = common::json_of(common::ramvram().args([
        "advise",
        "--profile",
        fixture.to_str().unwrap(),
        "--model",
        path.to_str().unwrap(),
        "--inference",
        "llama.cpp",
        "--json",
    ]));
    assert_ne!(
        l["recommendations"][0]["changes"]["context_len"]["value"],
        32_768
    );
    // The RTX 3080's 10 GiB is below 23 GiB: 4,096 tokens.
    let v = advise("student-3080-32g", &[]);
    assert_eq!(v["inference_memory"]["plan"]["context_len"], 4096);
    // `num_ctx 8192` with `OLLAMA_NUM_PARALLEL=2`: every slot keeps its whole context
    // (llama-server `-c 16384 -np 2`).
    let v = advise(
        "lab-4090-128g",
        &["--num-ctx", "8192", "--num-parallel", "2"],
    );
    let m = &v["inference_memory"];
    assert_eq!(m["plan"]["context_len"], 8192);
    assert_eq!(m["plan"]["concurrent_sequences"], 2);
}

/// Qwen3-8B in BF16 (config.json of Qwen/Qwen3-8B: 36 layers, hidden 4096, 32 heads and 8 KV
/// heads of 128, intermediate 12288, vocabulary 151936, output not tied; norms F32).
fn qwen3_8b_bf16() -> Value {
    let (e, f, v) = (4096u64, 12288u64, 151_936u64);
    let mut t = vec![
        json!(["token_embd.weight", [e, v], "BF16"]),
        json!(["output.weight", [e, v], "BF16"]),
        json!(["output_norm.weight", [e], "F32"]),
    ];
    for i in 0..36 {
        let n = |s: &str| format!("blk.{i}.{s}.weight");
        t.push(json!([n("attn_q"), [e, 4096], "BF16"]));
        t.push(json!([n("attn_k"), [e, 1024], "BF16"]));
        t.push(json!([n("attn_v"), [e, 1024], "BF16"]));
        t.push(json!([n("attn_output"), [4096, e], "BF16"]));
        t.push(json!([n("attn_q_norm"), [128], "F32"]));
        t.push(json!([n("attn_k_norm"), [128], "F32"]));
        t.push(json!([n("attn_norm"), [e], "F32"]));
        t.push(json!([n("ffn_norm"), [e], "F32"]));
        t.push(json!([n("ffn_gate"), [e, f], "BF16"]));
        t.push(json!([n("ffn_up"), [e, f], "BF16"]));
        t.push(json!([n("ffn_down"), [f, e], "BF16"]));
    }
    json!({"arch": "qwen3", "kv": {
        "qwen3.block_count": ["u32", 36], "qwen3.context_length": ["u32", 40960],
        "qwen3.embedding_length": ["u32", e], "qwen3.feed_forward_length": ["u32", f],
        "qwen3.attention.head_count": ["u32", 32], "qwen3.attention.head_count_kv": ["u32", 8],
        "qwen3.attention.key_length": ["u32", 128], "qwen3.attention.value_length": ["u32", 128]},
        "tensors": t})
}

/// llama.cpp's fit leaves 1 GiB free per device (`common_params::fit_params_target`), less
/// than the 5 % VRAM margin ramvram keeps elsewhere (1.2 GiB of 24 GiB): a placement the fit
/// chooses must fit the GPU's pool too, so re-running the `llama-fit` change's `apply` keeps
/// the promise everywhere (the plan's check and every pool). The case is ollama/ollama#14116's:
/// a 24 GiB GPU, `OLLAMA_NUM_PARALLEL=4` and the 32,768-token default, 131,072 cells of KV.
#[test]
fn the_fit_s_promise_holds_in_the_pools() {
    let dir = tempfile::tempdir().unwrap();
    let Some(path) = sparse(dir.path(), "qwen3", qwen3_8b_bf16()) else {
        return;
    };
    let fixture = common::fixture_path("lab-4090-128g");
    let base = [
        "advise",
        "--profile",
        fixture.to_str().unwrap(),
        "--model",
        path.to_str().unwrap(),
        "--inference",
        "ollama",
        "--num-parallel",
        "4",
        "--json",
    ];
    let v = common::json_of(common::ramvram().args(base));
    // KV: 2 × 36 layers × 8 KV heads × 128 × 2 B = 147,456 B per cell; 32,768 × 4 cells.
    assert_eq!(
        v["inference_memory"]["kv_cache_bytes"],
        147_456u64 * 32_768 * 4
    );
    let r = &v["recommendations"][0];
    assert_eq!(r["id"], "llama-fit");
    assert_eq!(r["result"]["fits"], true);
    let gpu = r["changes"]["gpu_bytes"]["value"].as_u64().unwrap();
    // Within llama.cpp's 1 GiB of the 24 GiB card, but not within 5 % of it: the case where
    // the two margins disagree.
    assert!(gpu + GIB <= 24 * GIB, "{gpu}");
    assert!(gpu * 100 > 24 * GIB * 95, "{gpu}");
    let apply: Vec<String> = r["apply"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let after = common::json_of(common::ramvram().args(base).args(&apply));
    assert_eq!(after["inference_memory"]["fits"], true);
    for p in after["pools"].as_array().unwrap() {
        assert_eq!(p["fits"], true, "{p}");
    }
}
