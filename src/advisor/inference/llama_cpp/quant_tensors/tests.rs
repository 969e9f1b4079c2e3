//! Against llama.cpp itself: `tests/fixtures/llamacpp/*.json` record, per tensor, the type
//! `llama-quantize --dry-run` (llama-cpp-python 0.3.36's vendored llama.cpp) chose for
//! `Q4_K_M`, and the file's tensor bytes by type. The shapes come from the fixtures' own
//! `shape` (the model's config.json), and for the models the catalogue has, from its row.

use super::*;
use crate::catalog::model_shape::{AttentionKind, MlaDims, MoeDims, Norm};
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/llamacpp/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn u(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or(0)
}

/// The fixture's `shape` as a catalogue shape.
fn shape_of(f: &Value) -> ModelShape {
    let s = &f["shape"];
    let moe = (u(s, "n_expert") > 0).then(|| MoeDims {
        experts: u(s, "n_expert"),
        active: u(s, "n_expert_used"),
        shared: u(s, "n_expert_shared"),
        intermediate: u(s, "n_ff_exp"),
        dense_layers: u(s, "n_dense_lead"),
        biases: false,
    });
    let mla = (u(s, "kv_lora_rank") > 0).then(|| MlaDims {
        q_lora_rank: None,
        kv_lora_rank: u(s, "kv_lora_rank"),
        qk_nope_dim: u(s, "qk_nope"),
        qk_rope_dim: u(s, "qk_rope"),
        v_head_dim: u(s, "v_head"),
    });
    let post = s["post_norms"].as_bool().unwrap_or(false);
    ModelShape {
        layers: u(s, "n_layer"),
        hidden: u(s, "n_embd"),
        heads: u(s, "n_head"),
        kv_heads: u(s, "n_head_kv"),
        head_dim: s["head_dim"].as_u64(),
        intermediate: u(s, "n_ff"),
        vocab: u(s, "n_vocab"),
        tied: s["tied"].as_bool().unwrap_or(false),
        attention: if mla.is_some() {
            AttentionKind::Mla
        } else {
            AttentionKind::Gqa
        },
        mla,
        moe,
        bias: Bias::None,
        mlp: Mlp::Gated,
        norm: Norm::Rms,
        norms_per_layer: if post { 4 } else { 2 },
        qk_norm: s["qk_norm"].as_bool().unwrap_or(false),
        learned_positions: 0,
        sinks: false,
    }
}

/// Bytes by ggml type name.
fn by_type(arch: &str, s: &ModelShape) -> std::collections::BTreeMap<String, u64> {
    let tensors = gguf_tensors(s);
    let types = super::super::quant::choose_types(&quant_model(arch, s), &tensors, FileType::Q4KM);
    let mut out = std::collections::BTreeMap::new();
    for (t, ty) in tensors.iter().zip(types) {
        let name = super::super::ggml::ggml_type(ty).unwrap().0.to_string();
        *out.entry(name).or_insert(0) += super::super::quant::tensor_bytes(t, ty).unwrap();
    }
    out
}

fn expected_by_type(f: &Value) -> std::collections::BTreeMap<String, u64> {
    f["file"]["tensor_bytes_by_type"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

#[test]
fn q4_k_m_type_mix_matches_llama_quantize_byte_for_byte() {
    // (fixture, llama.cpp architecture as the quantiser sees it)
    for (name, arch) in [
        ("llama31-8b", "llama"),
        ("llama31-70b", "llama"),
        ("qwen3-8b", "qwen3"),
        ("qwen3-30b-a3b", "qwen3_moe"),
        ("gemma3-27b", "gemma3"),
        ("deepseek-v2-lite", "deepseek_v2"),
    ] {
        let f = fixture(name);
        let s = shape_of(&f);
        assert_eq!(by_type(arch, &s), expected_by_type(&f), "{name}");
        assert_eq!(
            catalogue_gguf_bytes(arch, &s, FileType::Q4KM),
            f["file"]["tensor_bytes"].as_u64(),
            "{name}"
        );
    }
}

#[test]
fn deepseek_v2_lite_falls_back_to_q5_0_and_q8_0() {
    // Rows of 1408 (expert ffn_down), 10944 (the dense ffn_down) and 128 (attn_k_b) don't divide
    // into Q4_K's/Q6_K's 256: llama.cpp's fallback gives Q5_0 and Q8_0. Fixture: 1,795,751,936
    // bytes of Q5_0 and 2,376,818,688 of Q8_0.
    let f = fixture("deepseek-v2-lite");
    let got = by_type("deepseek_v2", &shape_of(&f));
    assert_eq!(got.get("Q5_0"), Some(&1_795_751_936));
    assert_eq!(got.get("Q8_0"), Some(&2_376_818_688));
}

#[test]
fn llama31_8b_q4_k_m_is_4_8944_bits_per_weight() {
    // llama.cpp tools/quantize/README.md: Llama-3.1-8B at Q4_K_M, 4.8944 bits per weight over
    // its 8,030,261,248 parameters.
    let s = crate::catalog::catalog()
        .model("llama-3.1-8b")
        .and_then(|m| m.shape.clone())
        .unwrap();
    let bytes = catalogue_gguf_bytes("llama", &s, FileType::Q4KM).unwrap();
    let bpw = bytes as f64 * 8.0 / 8_030_261_248.0;
    assert!((bpw - 4.8944).abs() < 0.00005, "{bpw}");
}

#[test]
fn catalogue_rows_give_the_fixture_bytes() {
    for (id, fixture_name) in [
        ("llama-3.1-8b", "llama31-8b"),
        ("llama-3.1-70b", "llama31-70b"),
        ("qwen3-8b", "qwen3-8b"),
        ("qwen3-30b-a3b", "qwen3-30b-a3b"),
    ] {
        let m = crate::catalog::catalog().model(id).unwrap();
        let s = m.shape.clone().unwrap();
        let got = catalogue_gguf_bytes(&m.architecture, &s, FileType::Q4KM).unwrap();
        let want = fixture(fixture_name)["file"]["tensor_bytes"]
            .as_u64()
            .unwrap();
        let off = (got as f64 - want as f64).abs() / want as f64;
        assert!(off < 0.005, "{id}: {got} vs {want}");
    }
}

#[test]
fn the_fallback_and_the_output_rules_by_hand() {
    use super::super::quant::{QuantModel, TensorSpec, choose_types};
    let m = QuantModel {
        n_layer: 8,
        n_expert: 0,
        n_gqa: 4,
        is_70b: false,
    };
    let t = |name: &str, ne: &[u64]| TensorSpec {
        name: name.into(),
        ne: ne.to_vec(),
        layer: Some(0),
        source: ty::BF16,
    };
    let tensors = [
        t("blk.0.attn_v.weight", &[4096, 1024]),
        t("blk.0.ffn_down.weight", &[1000, 4096]),
        t("blk.0.attn_norm.weight", &[4096]),
        t("output.weight", &[4096, 32000]),
    ];
    // Layer 0 of 8 is in the first eighth: attn_v and ffn_down take Q6_K; ffn_down's row of
    // 1000 is not a multiple of 256 nor of 32, so F16; the norm is never quantised and keeps its type (bf16 here); output Q6_K.
    assert_eq!(
        choose_types(&m, &tensors, FileType::Q4KM),
        vec![ty::Q6_K, ty::F16, ty::BF16, ty::Q6_K]
    );
    assert_eq!(
        choose_types(&m, &tensors, FileType::Q8_0),
        vec![ty::Q8_0, ty::F16, ty::BF16, ty::Q8_0]
    );
}

#[test]
fn gpt_oss_20b_as_released_is_the_mxfp4_files_size() {
    // The GGUF converted from openai/gpt-oss-20b keeps its MXFP4 experts and bf16 rest: the
    // fixture's tensor bytes, 13,779,630,336 (12.8 GiB, not the 39 GiB of bf16). Norms, biases
    // and sinks are F32 in the GGUF but bf16 as released, so within 0.5 %.
    let m = crate::catalog::catalog().model("gpt-oss-20b").unwrap();
    let got = m.released_weight_bytes().unwrap() as f64;
    let want = fixture("gpt-oss-20b")["file"]["tensor_bytes"]
        .as_f64()
        .unwrap();
    assert!((got - want).abs() / want < 0.005, "{got} vs {want}");
    // A single-type row has none.
    let llama = crate::catalog::catalog().model("llama-3.1-8b").unwrap();
    assert_eq!(llama.released_weight_bytes(), None);
}

#[test]
fn other_file_types_match_llama_quantize() {
    // `llama-quantize --dry-run MODEL.gguf TYPE` (llama.cpp vendored by llama-cpp-python 0.3.36,
    // run on the reference run's sparse bf16 GGUFs of these models, tools/llamacpp-reference):
    // its "quant size" in MiB, printed to two decimals.
    let dry_run: &[(&str, FileType, f64)] = &[
        ("llama-3.1-8b", FileType::Q5KM, 5459.93),
        ("llama-3.1-8b", FileType::Q6K, 6282.97),
        ("llama-3.1-8b", FileType::Q8_0, 8137.64),
        ("qwen3-8b", FileType::Q5KM, 5574.38),
        ("qwen3-8b", FileType::Q6K, 6408.64),
        ("qwen3-8b", FileType::Q8_0, 8300.36),
        ("llama-3.1-70b", FileType::Q5KM, 47628.36),
        ("llama-3.1-70b", FileType::Q6K, 55198.94),
        ("llama-3.1-70b", FileType::Q8_0, 71494.28),
        ("qwen3-30b-a3b", FileType::Q5KM, 20713.44),
        ("qwen3-30b-a3b", FileType::Q6K, 23924.41),
        ("qwen3-30b-a3b", FileType::Q8_0, 30973.40),
    ];
    for &(id, ftype, mib) in dry_run {
        let m = crate::catalog::catalog().model(id).unwrap();
        let s = m.shape.clone().unwrap();
        let got = catalogue_gguf_bytes(&m.architecture, &s, ftype).unwrap() as f64 / 1048576.0;
        let off = (got - mib).abs() / mib;
        assert!(
            off < 0.005,
            "{id} {ftype:?}: {got:.2} MiB vs llama-quantize's {mib}"
        );
    }
}
