//! llama.cpp's compute buffer on a GPU: the largest set of intermediate tensors its graph
//! keeps alive for one micro-batch of `n_ubatch` tokens (`src/llama-context.cpp`,
//! `llama_context::graph_reserve`, which reserves the worst-case graph once with `n_ubatch`
//! tokens and the whole KV cache; ggml-alloc reuses memory between nodes, so the buffer is the
//! peak, not the sum). The peaks of the graph (`src/llama-graph.cpp`, `build_attn_mha`,
//! `build_ffn`, the model's `build_inp_embd` … `lm_head`), each in f32:
//!
//! - logits: `n_vocab × n_ubatch × 4` (the output layer's result for every token of the
//!   reserved batch);
//! - the FFN: gate and up outputs, `2 × n_ff × n_ubatch × 4` (MoE: the used experts' width);
//! - attention without flash attention: the `KQ` scores, `n_head × n_kv × n_ubatch × 4`, with
//!   `n_kv` the cells of a full-attention layer, its mask `n_kv × n_ubatch × 4` and the
//!   projections beside them (`3 × n_embd × n_ubatch × 4`); with flash attention the scores are
//!   never materialised;
//!
//! plus one `n_embd × n_ubatch × 4` row of the residual stream held across each of them.
//! Checked against llama.cpp's own "compute buffer" figures (`llama-fit-params --fit-print`,
//! tests/fixtures/llamacpp): Llama-3.1-8B's 271,056,896 B with flash attention is exactly
//! `128256 × 512 × 4 + 4096 × 512 × 4`.

use super::kv::{KvSettings, cells_per_stream};
use super::{LayerCache, LlamaModel};

/// The compute buffer on the GPU holding the output layer, bytes.
pub fn gpu_compute_bytes(m: &LlamaModel, s: &KvSettings, flash_attn: bool) -> u64 {
    let ub = s.ubatch.max(1);
    let f32s = |n: u64| n.saturating_mul(ub).saturating_mul(4);
    let logits = f32s(m.vocab);
    let ffn = f32s(2u64.saturating_mul(m.feed_forward.max(m.expert_feed_forward)));
    let has_full = m.cache.layers.contains(&LayerCache::Full)
        || (m.cache.sliding_window == 0 && m.cache.layers.contains(&LayerCache::Sliding));
    let n_kv = if has_full {
        cells_per_stream(s)
    } else {
        cells_per_stream(s).min(m.cache.sliding_window.saturating_add(ub))
    };
    let attention = if flash_attn {
        f32s(m.cache.k_per_cell.max(m.embedding))
    } else {
        f32s(m.heads.saturating_add(1).saturating_mul(n_kv))
            .saturating_add(f32s(3u64.saturating_mul(m.embedding)))
    };
    let residual = f32s(m.embedding);
    logits.max(ffn).max(attention).saturating_add(residual)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::inference::llama_cpp::CacheShape;
    use crate::units::MIB;

    #[test]
    fn logits_dominate_with_flash_attention_and_scores_without() {
        // Llama-3-8B: vocabulary 128256, hidden 4096, FFN 14336, 32 heads.
        let m = LlamaModel {
            vocab: 128_256,
            embedding: 4096,
            feed_forward: 14_336,
            heads: 32,
            cache: CacheShape {
                k_per_cell: 1024,
                v_per_cell: 1024,
                layers: vec![LayerCache::Full; 32],
                ..CacheShape::default()
            },
            ..LlamaModel::default()
        };
        let s = KvSettings::new(8192);
        // Logits 128256 × 512 × 4 = 250.5 MiB, plus 4096 × 512 × 4 = 8 MiB: llama.cpp's own
        // figure for Llama-3.1-8B (271,056,896 B, tests/fixtures/llamacpp/llama31-8b.json).
        assert_eq!(gpu_compute_bytes(&m, &s, true), 271_056_896);
        // Without flash attention at 8192 cells: 32 × 8192 × 512 × 4 = 512 MiB of scores, a
        // 16 MiB mask, 24 MiB of projections, 8 MiB of residual.
        assert_eq!(gpu_compute_bytes(&m, &s, false), (512 + 16 + 24 + 8) * MIB);
    }
}
