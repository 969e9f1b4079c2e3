//! A GGUF's metadata as llama.cpp reads it into `llama_hparams` for sizing its caches: the
//! per-layer kind (full, sliding-window, recurrent, none) and the K/V widths.

use super::{CacheShape, LayerCache};

/// Which of a layer's tensors were seen: attention K (any `attn_k*`, `attn_qkv`,
/// `attn_kv_a_mqa`) and recurrent ones (`ssm_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerTensors {
    /// The layer has attention keys: it holds a KV cache.
    pub attention: bool,
    /// The layer has recurrent (SSM, linear attention) tensors: it holds a state.
    pub recurrent: bool,
}

impl LayerTensors {
    /// Notes the layer tensor `name` (the part after `blk.N.`).
    pub fn see(&mut self, name: &str) {
        let base = name.split('.').next().unwrap_or(name);
        if base.starts_with("attn_k") || base == "attn_qkv" || base == "attn_kv_a_mqa" {
            self.attention = true;
        }
        if base.starts_with("ssm_") {
            self.recurrent = true;
        }
    }
}

/// The default sliding-window pattern of an architecture, as its `load_hparams` passes it to
/// `load_swa_pattern` (llama.cpp `src/models/gemma2.cpp` 2, `gemma3.cpp` 6, `gemma3n.cpp` 5,
/// `cohere2.cpp` 4, `openai-moe.cpp` 2, `exaone4.cpp` 4): `n` means every `n`-th layer is full,
/// the others slide (`llama_hparams::set_swa_pattern`: `il % n < n − 1` slides).
pub fn default_swa_pattern(architecture: &str) -> Option<u64> {
    Some(match architecture {
        "gemma2" | "gpt-oss" => 2,
        "gemma3" => 6,
        "gemma3n" => 5,
        "cohere2" | "exaone4" => 4,
        _ => return None,
    })
}

/// The cache shape of a model from its metadata (`int(key)` reads `{arch}.key`) and its layers'
/// tensors.
///
/// - K width `key_length × head_count_kv` (head size `embedding_length ÷ head_count` when the
///   key is absent), V width `value_length × head_count_kv` (`llama_hparams::n_embd_k_gqa`,
///   `n_embd_v_gqa`). A file with `attention.key_length_mla` is MLA as stored: its K width is
///   the latent plus the rope part and there is no V cache (`llama_hparams::is_mla`).
/// - Sliding window: `attention.sliding_window`, the pattern from
///   `attention.sliding_window_pattern` or the architecture's default.
/// - Recurrent state (f32 elements per layer and sequence, `llama_hparams::n_embd_r`,
///   `n_embd_s`): `r = (ssm.conv_kernel − 1) × (ssm.inner_size + 2 × ssm.group_count ×
///   ssm.state_size)`, `s = ssm.state_size × ssm.inner_size`.
pub fn cache_shape(
    architecture: &str,
    int: &dyn Fn(&str) -> Option<u64>,
    layers: &[LayerTensors],
) -> CacheShape {
    let heads = int("attention.head_count").unwrap_or(0);
    let kv_heads = int("attention.head_count_kv").unwrap_or(heads);
    let head = int("attention.key_length").unwrap_or_else(|| {
        int("embedding_length")
            .unwrap_or(0)
            .checked_div(heads)
            .unwrap_or(0)
    });
    let mla = int("attention.key_length_mla").is_some();
    let k_per_cell = head.saturating_mul(kv_heads);
    let v_per_cell = if mla {
        0
    } else {
        int("attention.value_length")
            .unwrap_or(head)
            .saturating_mul(kv_heads)
    };
    let window = int("attention.sliding_window").unwrap_or(0);
    let pattern = int("attention.sliding_window_pattern")
        .or_else(|| default_swa_pattern(architecture))
        .filter(|_| window > 0);
    let (conv, inner, state, groups) = (
        int("ssm.conv_kernel").unwrap_or(0),
        int("ssm.inner_size").unwrap_or(0),
        int("ssm.state_size").unwrap_or(0),
        int("ssm.group_count").unwrap_or(0),
    );
    let recurrent_r = conv
        .saturating_sub(1)
        .saturating_mul(inner.saturating_add(2u64.saturating_mul(groups).saturating_mul(state)));
    let recurrent_s = state.saturating_mul(inner);
    let layers = layers
        .iter()
        .enumerate()
        .map(|(il, t)| {
            // A linear-attention layer may also hold an `attn_qkv` projection (Qwen3.5,
            // models/qwen35.cpp): its `ssm_*` tensors make it recurrent.
            if t.recurrent {
                LayerCache::Recurrent
            } else if !t.attention {
                LayerCache::Empty
            } else if pattern.is_some_and(|n| n == 0 || (il as u64) % n < n - 1) {
                LayerCache::Sliding
            } else {
                LayerCache::Full
            }
        })
        .collect();
    CacheShape {
        k_per_cell,
        v_per_cell,
        sliding_window: if pattern.is_some() { window } else { 0 },
        layers,
        recurrent_r,
        recurrent_s,
    }
}
