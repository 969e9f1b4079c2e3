//! A catalogue model's GGUF tensors, built from its shape: the names and dimensions
//! llama.cpp's converter (`convert_hf_to_gguf.py`) writes and `llama_model::load_tensors`
//! (`src/llama-model.cpp`) reads, for the decoder architectures of the catalogue (Llama, Qwen2/3,
//! Qwen3-MoE, Mixtral, Gemma 2/3, DeepSeek-V2/V3 with MLA, gpt-oss). Each layer's tensors come in
//! the converter's order (attention, then the feed-forward block), which is the order
//! `llama-quantize` counts them in ([`super::quant::choose_types`]).

use super::quant::{FileType, QuantModel, TensorSpec, quantised_bytes, ty};
use crate::catalog::model_shape::{Bias, Mlp, ModelShape};

fn tensor(name: String, ne: &[u64], layer: Option<u64>, source: u32) -> TensorSpec {
    TensorSpec {
        name,
        ne: ne.to_vec(),
        layer,
        source,
    }
}

/// The model facts the quantiser reads: `n_expert`, `n_gqa`, and the 70B type llama.cpp gives
/// an 80-layer GQA Llama or Qwen2 (`llama_model::load_hparams`, `case 80`).
pub fn quant_model(architecture: &str, s: &ModelShape) -> QuantModel {
    QuantModel {
        n_layer: s.layers,
        n_expert: s.moe.map_or(0, |m| m.experts),
        n_gqa: s.heads.checked_div(s.kv_heads).unwrap_or(1),
        is_70b: matches!(architecture, "llama" | "qwen2") && s.layers == 80 && s.kv_heads < s.heads,
    }
}

/// The attention tensors of layer `i` (`blk.i.attn_*`).
fn attention(s: &ModelShape, i: u64, out: &mut Vec<TensorSpec>) {
    let h = s.hidden;
    let l = Some(i);
    let n = |x: &str| format!("blk.{i}.{x}");
    out.push(tensor(n("attn_norm.weight"), &[h], l, ty::F32));
    if let Some(m) = s.mla {
        let qk = m.qk_nope_dim + m.qk_rope_dim;
        match m.q_lora_rank {
            Some(r) => {
                out.push(tensor(n("attn_q_a.weight"), &[h, r], l, ty::BF16));
                out.push(tensor(n("attn_q_a_norm.weight"), &[r], l, ty::F32));
                out.push(tensor(
                    n("attn_q_b.weight"),
                    &[r, s.heads * qk],
                    l,
                    ty::BF16,
                ));
            }
            None => out.push(tensor(n("attn_q.weight"), &[h, s.heads * qk], l, ty::BF16)),
        }
        let kv = m.kv_lora_rank;
        out.push(tensor(
            n("attn_kv_a_mqa.weight"),
            &[h, kv + m.qk_rope_dim],
            l,
            ty::BF16,
        ));
        out.push(tensor(n("attn_kv_a_norm.weight"), &[kv], l, ty::F32));
        // The converter splits `kv_b_proj` into per-head k_b and v_b (3-D).
        out.push(tensor(
            n("attn_k_b.weight"),
            &[m.qk_nope_dim, kv, s.heads],
            l,
            ty::BF16,
        ));
        out.push(tensor(
            n("attn_v_b.weight"),
            &[kv, m.v_head_dim, s.heads],
            l,
            ty::BF16,
        ));
        out.push(tensor(
            n("attn_output.weight"),
            &[s.heads * m.v_head_dim, h],
            l,
            ty::BF16,
        ));
        return;
    }
    let d = s.head_dim();
    let (q, kv) = (s.heads * d, s.kv_heads * d);
    out.push(tensor(n("attn_q.weight"), &[h, q], l, ty::BF16));
    out.push(tensor(n("attn_k.weight"), &[h, kv], l, ty::BF16));
    out.push(tensor(n("attn_v.weight"), &[h, kv], l, ty::BF16));
    out.push(tensor(n("attn_output.weight"), &[q, h], l, ty::BF16));
    if s.bias != Bias::None {
        for (b, len) in [("attn_q.bias", q), ("attn_k.bias", kv), ("attn_v.bias", kv)] {
            out.push(tensor(n(b), &[len], l, ty::F32));
        }
    }
    if matches!(s.bias, Bias::Attention | Bias::All) {
        out.push(tensor(n("attn_output.bias"), &[h], l, ty::F32));
    }
    if s.qk_norm {
        out.push(tensor(n("attn_q_norm.weight"), &[d], l, ty::F32));
        out.push(tensor(n("attn_k_norm.weight"), &[d], l, ty::F32));
    }
    if s.sinks {
        out.push(tensor(n("attn_sinks.weight"), &[s.heads], l, ty::F32));
    }
}

/// The feed-forward tensors of layer `i`: a dense MLP, or the router, the routed experts (3-D,
/// one slice per expert) and the shared experts.
fn feed_forward(s: &ModelShape, i: u64, out: &mut Vec<TensorSpec>) {
    let h = s.hidden;
    let l = Some(i);
    let n = |x: &str| format!("blk.{i}.{x}");
    // The second norm and any extra ones (Gemma's post-norms).
    for k in 1..s.norms_per_layer.max(2) {
        let name = if k == 1 {
            "ffn_norm.weight".to_string()
        } else {
            format!("post_norm_{k}.weight")
        };
        out.push(tensor(n(&name), &[h], l, ty::F32));
    }
    let moe = s.moe.filter(|m| i >= m.dense_layers);
    let Some(m) = moe else {
        let f = s.intermediate;
        if s.mlp == Mlp::Gated {
            out.push(tensor(n("ffn_gate.weight"), &[h, f], l, ty::BF16));
        }
        out.push(tensor(n("ffn_up.weight"), &[h, f], l, ty::BF16));
        out.push(tensor(n("ffn_down.weight"), &[f, h], l, ty::BF16));
        return;
    };
    let (e, f) = (m.experts, m.intermediate);
    out.push(tensor(n("ffn_gate_inp.weight"), &[h, e], l, ty::F32));
    out.push(tensor(n("ffn_gate_exps.weight"), &[h, f, e], l, ty::BF16));
    out.push(tensor(n("ffn_up_exps.weight"), &[h, f, e], l, ty::BF16));
    out.push(tensor(n("ffn_down_exps.weight"), &[f, h, e], l, ty::BF16));
    if m.biases {
        out.push(tensor(n("ffn_gate_inp.bias"), &[e], l, ty::F32));
        out.push(tensor(n("ffn_gate_exps.bias"), &[f, e], l, ty::F32));
        out.push(tensor(n("ffn_up_exps.bias"), &[f, e], l, ty::F32));
        out.push(tensor(n("ffn_down_exps.bias"), &[h, e], l, ty::F32));
    }
    if m.shared > 0 {
        let fs = f * m.shared;
        out.push(tensor(n("ffn_gate_shexp.weight"), &[h, fs], l, ty::BF16));
        out.push(tensor(n("ffn_up_shexp.weight"), &[h, fs], l, ty::BF16));
        out.push(tensor(n("ffn_down_shexp.weight"), &[fs, h], l, ty::BF16));
    }
}

/// Every tensor of the model's GGUF file before quantising: the token embedding, each layer's
/// attention and feed-forward tensors, the final norm, and `output.weight` unless the
/// embedding is tied.
pub fn gguf_tensors(s: &ModelShape) -> Vec<TensorSpec> {
    let h = s.hidden;
    let mut out = vec![tensor(
        "token_embd.weight".into(),
        &[h, s.vocab],
        None,
        ty::BF16,
    )];
    for i in 0..s.layers {
        attention(s, i, &mut out);
        feed_forward(s, i, &mut out);
    }
    out.push(tensor("output_norm.weight".into(), &[h], None, ty::F32));
    if !s.tied {
        out.push(tensor(
            "output.weight".into(),
            &[h, s.vocab],
            None,
            ty::BF16,
        ));
    }
    out
}

/// Bytes of a catalogue model's GGUF of file type `ftype`, every tensor at the type
/// `llama-quantize` gives it; `None` when a figure overflows.
pub fn catalogue_gguf_bytes(architecture: &str, s: &ModelShape, ftype: FileType) -> Option<u64> {
    quantised_bytes(&quant_model(architecture, s), &gguf_tensors(s), ftype)
}

/// A catalogue model's weights (its preset id, when the plan's parameters are the row's) as
/// llama.cpp serves it in file type `ftype`: the bytes of llama-quantize's type mix
/// ([`catalogue_gguf_bytes`]) instead of params × a flat bits-per-weight; `None` for any other
/// model.
pub fn preset_gguf_bytes(preset: Option<&str>, params: u64, ftype: FileType) -> Option<u64> {
    let m = crate::catalog::catalog().model(preset?)?;
    if m.params != params {
        return None;
    }
    catalogue_gguf_bytes(&m.architecture, m.shape.as_ref()?, ftype)
}

#[cfg(test)]
mod tests;
