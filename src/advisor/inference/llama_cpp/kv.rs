//! The KV cache and recurrent state as llama.cpp allocates them, layer by layer.
//!
//! - Cells: `-c` is padded to 256 and split over the sequences (`-np`), each sequence's share
//!   padded to 256 again (`src/llama-context.cpp`, `llama_context::llama_context`); without
//!   `--kv-unified` (common.h default) each sequence is its own stream of that many cells.
//! - A full-attention layer holds `row(type_k, n_embd_k_gqa) + row(type_v, n_embd_v_gqa)` bytes
//!   per cell; MLA keeps K only (`src/llama-kv-cache.cpp`, `llama_kv_cache::llama_kv_cache`,
//!   `has_v = !is_mla`).
//! - A sliding-window layer holds `pad256(min(cells, n_swa + n_ubatch))` cells per stream
//!   (`src/llama-kv-cache-iswa.cpp`, `llama_kv_cache_iswa::llama_kv_cache_iswa`; `--swa-full`
//!   off by default).
//! - A recurrent layer holds `(n_embd_r + n_embd_s) × 4` bytes (f32) per sequence
//!   (`src/llama-memory-recurrent.cpp`; `src/llama-hparams.cpp`, `n_embd_r`, `n_embd_s`;
//!   `src/llama-model.cpp`, `create_memory`: `rs_size = max(1, n_seq_max)`).

use serde::{Deserialize, Serialize};

use super::{CacheType, LayerCache, LlamaModel};

/// llama.cpp's default physical batch (`-ub`, common.h `n_ubatch = 512`).
pub const DEFAULT_UBATCH: u64 = 512;

/// What sizes the caches: the context and sequences, the micro-batch, the cache types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KvSettings {
    /// Tokens per sequence (llama.cpp's `-c` ÷ `-np`).
    pub context_per_sequence: u64,
    /// Sequences (`-np`).
    pub sequences: u64,
    /// `-ub` (default 512).
    pub ubatch: u64,
    /// `--cache-type-k`.
    pub type_k: CacheType,
    /// `--cache-type-v`.
    pub type_v: CacheType,
}

impl KvSettings {
    /// f16 caches, one sequence of `context` tokens, the default micro-batch.
    pub fn new(context: u64) -> Self {
        KvSettings {
            context_per_sequence: context,
            sequences: 1,
            ubatch: DEFAULT_UBATCH,
            type_k: CacheType::F16,
            type_v: CacheType::F16,
        }
    }
}

fn pad256(n: u64) -> u64 {
    n.div_ceil(256).saturating_mul(256)
}

/// Cells per stream of a full-attention layer: `-c` (the sequences' contexts together) padded
/// to 256, divided over the sequences and padded again.
pub fn cells_per_stream(s: &KvSettings) -> u64 {
    let seqs = s.sequences.max(1);
    pad256(pad256(s.context_per_sequence.saturating_mul(seqs)) / seqs)
}

/// Bytes one cell of one attention layer takes (K and, unless MLA, V).
pub fn bytes_per_cell(m: &LlamaModel, s: &KvSettings) -> u64 {
    let c = &m.cache;
    let v = if c.v_per_cell == 0 {
        0
    } else {
        s.type_v.row_bytes(c.v_per_cell)
    };
    s.type_k.row_bytes(c.k_per_cell).saturating_add(v)
}

/// The cache bytes of each layer (index = layer), as llama.cpp allocates them.
pub fn per_layer(m: &LlamaModel, s: &KvSettings) -> Vec<u64> {
    let seqs = s.sequences.max(1);
    let cells = cells_per_stream(s);
    let cell = bytes_per_cell(m, s);
    let c = &m.cache;
    let swa_cells = pad256(cells.min(c.sliding_window.saturating_add(s.ubatch))).min(cells);
    let state = c
        .recurrent_r
        .saturating_add(c.recurrent_s)
        .saturating_mul(4)
        .saturating_mul(seqs);
    c.layers
        .iter()
        .map(|l| match l {
            LayerCache::Full => cell.saturating_mul(cells).saturating_mul(seqs),
            LayerCache::Sliding if c.sliding_window > 0 => {
                cell.saturating_mul(swa_cells).saturating_mul(seqs)
            }
            LayerCache::Sliding => cell.saturating_mul(cells).saturating_mul(seqs),
            LayerCache::Recurrent => state,
            LayerCache::Empty => 0,
        })
        .collect()
}

/// All the layers' cache bytes.
pub fn total(m: &LlamaModel, s: &KvSettings) -> u64 {
    per_layer(m, s).into_iter().fold(0, u64::saturating_add)
}

/// Bytes each further token of context adds (the full-attention layers'), for "per token".
pub fn per_token(m: &LlamaModel, s: &KvSettings) -> u64 {
    let full = m
        .cache
        .layers
        .iter()
        .filter(|l| matches!(l, LayerCache::Full))
        .count() as u64;
    bytes_per_cell(m, s).saturating_mul(full)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::inference::llama_cpp::CacheShape;
    use crate::units::GIB;

    fn model(layers: Vec<LayerCache>, k: u64, v: u64, window: u64) -> LlamaModel {
        LlamaModel {
            cache: CacheShape {
                k_per_cell: k,
                v_per_cell: v,
                sliding_window: window,
                layers,
                recurrent_r: 0,
                recurrent_s: 0,
            },
            ..LlamaModel::default()
        }
    }

    /// Within 5 % of a published figure.
    fn near(ours: u64, published_gib: f64) {
        let r = ours as f64 / GIB as f64 / published_gib;
        assert!(
            (0.95..=1.05).contains(&r),
            "{ours} B vs {published_gib} GiB ({r:.3})"
        );
    }

    // Published: unslothai/unsloth PR #4757 ("Architecture-aware KV cache VRAM estimation"),
    // the "Correct Estimate" column, f16 cache at each model's trained context (its "GB" are
    // GiB: the legacy column's 81.38 for Gemma-3 27B is 2·16·168·62·131072·2 B / 2^30).

    #[test]
    fn gemma3_27b_sliding_window_matches_unsloth() {
        // config.json (google/gemma-3-27b-it): 62 layers, 16 KV heads, head_dim 128,
        // sliding_window 1024, every 6th layer global (llama.cpp models/gemma3.cpp pattern 6:
        // layers 5, 11, …, 59 are full: 10 of them).
        let layers: Vec<LayerCache> = (0..62)
            .map(|i| {
                if i % 6 == 5 {
                    LayerCache::Full
                } else {
                    LayerCache::Sliding
                }
            })
            .collect();
        let m = model(layers, 16 * 128, 16 * 128, 1024);
        let s = KvSettings::new(131_072);
        // By hand: a cell is 2·2048·2 = 8192 B; 10 full layers × 131072 cells = 10 GiB;
        // 52 sliding layers × pad256(1024 + 512) = 1536 cells = 624 MiB.
        assert_eq!(total(&m, &s), 10 * GIB + 52 * 8192 * 1536);
        near(total(&m, &s), 10.41);
        // Without the window (the legacy error): far above.
        let all_full = model(vec![LayerCache::Full; 62], 2048, 2048, 0);
        assert!(total(&all_full, &s) > 5 * total(&m, &s));
    }

    #[test]
    fn qwen35_27b_hybrid_matches_unsloth() {
        // config.json (Qwen/Qwen3.5-27B): 64 layers, full_attention_interval 4 (16 attention
        // layers), 4 KV heads of 256; linear attention: 16 key heads, 48 value heads of 128,
        // conv kernel 4. llama.cpp models/qwen35.cpp: ssm_d_inner = 48·128 = 6144,
        // d_state 128, n_group 16 → n_embd_r = 3·(6144 + 2·16·128) = 30720,
        // n_embd_s = 128·6144 = 786432 (llama-hparams.cpp).
        let layers: Vec<LayerCache> = (0..64)
            .map(|i| {
                if (i + 1) % 4 == 0 {
                    LayerCache::Full
                } else {
                    LayerCache::Recurrent
                }
            })
            .collect();
        let mut m = model(layers, 4 * 256, 4 * 256, 0);
        m.cache.recurrent_r = 30_720;
        m.cache.recurrent_s = 786_432;
        let s = KvSettings::new(262_144);
        // 16 layers × 262144 cells × 4096 B = 16 GiB, plus 48 × 3,268,608 B of state.
        assert_eq!(total(&m, &s), 16 * GIB + 48 * 3_268_608);
        near(total(&m, &s), 16.00);
    }

    #[test]
    fn deepseek_v31_mla_matches_unsloth() {
        // config.json (deepseek-ai/DeepSeek-V3.1): 61 layers, kv_lora_rank 512,
        // qk_rope_head_dim 64, max_position_embeddings 163840; the GGUF stores K as 576 × 1
        // head and no V.
        let m = model(vec![LayerCache::Full; 61], 576, 0, 0);
        let s = KvSettings::new(163_840);
        assert_eq!(total(&m, &s), 61 * 576 * 2 * 163_840);
        near(total(&m, &s), 10.72);
    }

    #[test]
    fn quantised_cache_rows_and_sequences() {
        // Llama-3-8B shape: 32 layers, 8 KV heads of 128 → 1024 per cell each for K and V.
        let m = model(vec![LayerCache::Full; 32], 1024, 1024, 0);
        let mut s = KvSettings::new(4096);
        assert_eq!(total(&m, &s), 32 * 4096 * 2048 * 2); // 512 MiB, f16
        s.type_k = CacheType::Q8_0;
        s.type_v = CacheType::Q8_0;
        // q8_0: 1024 elements = 32 blocks × 34 B = 1088 B per row.
        assert_eq!(total(&m, &s), 32 * 4096 * 1088 * 2);
        s.type_k = CacheType::Q4_0;
        s.type_v = CacheType::Q4_0;
        assert_eq!(total(&m, &s), 32 * 4096 * 576 * 2);
        // 3 sequences of 1000 tokens: -c 3000 → 3072, 1024 per stream.
        let s = KvSettings {
            context_per_sequence: 1000,
            sequences: 3,
            ..KvSettings::new(0)
        };
        assert_eq!(cells_per_stream(&s), 1024);
        assert_eq!(total(&m, &s), 32 * 1024 * 3 * 4096);
    }
}
