//! llama.cpp's own fit (`--fit`, on by default; common/fit.cpp, `common_params_fit_impl`),
//! as it chooses what the user left unset, on GPUs of `free` bytes each with its target of
//! 1024 MiB left free (`common_params::fit_params_target`):
//!
//! 1. The context: unset, it starts from the trained context (`n_ctx_train`); when the model
//!    doesn't fit it shrinks towards `fit_params_min_ctx` (4096) by linear interpolation between
//!    the needs at the trained and at the minimum context (step 2), aligned down to 256, never
//!    below the minimum. Memory isn't quite linear in the context (sliding-window caches stop
//!    growing at the window, the compute buffer grows in steps), so this can be a few hundred
//!    tokens off the largest context that fits — as llama.cpp's own is.
//! 2. The layers, filled back to front (step 3): the largest `-ngl` that fits, the output layer
//!    first. For a mixture-of-experts model every layer goes to the GPUs with its experts in host
//!    memory, then the experts of the last layers move to the GPUs while they fit (step 4):
//!    `--n-cpu-moe N` for the first N layers.
//!
//! Nothing here looks at host RAM — llama.cpp doesn't either, unless there is no GPU at all.

use serde::{Deserialize, Serialize};

use super::kv::KvSettings;
use super::place::{Placement, place};
use super::{FIT_MARGIN_BYTES, LlamaModel, compute};

/// llama.cpp's smallest context the fit sets (common.h `fit_params_min_ctx`).
pub const FIT_MIN_CONTEXT: u64 = 4096;

/// What llama.cpp's fit chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fitted {
    /// Tokens per sequence.
    pub context: u64,
    /// `-ngl` (the `n_layer + 1` slots).
    pub gpu_layers: u64,
    /// `--n-cpu-moe`.
    pub n_cpu_moe: u64,
    /// The largest GPU need at that choice, bytes (the 1024 MiB target not included).
    pub gpu_bytes: u64,
    /// Whether it meets the target (false: even one layer on the CPU doesn't).
    pub fits: bool,
}

/// The largest per-GPU need of `m` placed by `p` with caches `s`.
pub fn gpu_need(m: &LlamaModel, s: &KvSettings, p: &Placement, gpus: u32, flash: bool) -> u64 {
    let placed = place(m, s, p, gpus);
    let compute = if placed.gpu_layers > 0 {
        // With only the output layer there, no attention runs on the GPU.
        compute::gpu_compute_bytes(m, s, flash || placed.gpu_layers <= 1)
    } else {
        0
    };
    placed
        .gpu_weights
        .iter()
        .zip(&placed.gpu_kv)
        .map(|(w, k)| w.saturating_add(*k))
        .max()
        .unwrap_or(0)
        .saturating_add(compute)
}

fn largest(lo: u64, hi: u64, ok: impl Fn(u64) -> bool) -> Option<u64> {
    if lo > hi || !ok(lo) {
        return None;
    }
    let (mut a, mut b) = (lo, hi);
    while a < b {
        let mid = a + (b - a).div_ceil(2);
        if ok(mid) { a = mid } else { b = mid - 1 }
    }
    Some(a)
}

/// llama.cpp's fit of `m` on `gpus` GPUs of `free` bytes each. `context`: the user's context
/// (kept), or `None` to let the fit choose it; `s` gives the other cache settings.
pub fn fit(
    m: &LlamaModel,
    s: &KvSettings,
    context: Option<u64>,
    gpus: u32,
    free: u64,
    flash: bool,
) -> Fitted {
    let budget = free.saturating_sub(FIT_MARGIN_BYTES);
    let n_layer = m.bytes.layers.len().max(m.cache.layers.len()) as u64;
    let moe = m.bytes.layers.iter().any(|l| l.experts > 0);
    let with = |ctx: u64| KvSettings {
        context_per_sequence: ctx,
        ..*s
    };
    let all = Placement::default();
    let need = |ctx: u64, p: &Placement| gpu_need(m, &with(ctx), p, gpus, flash);
    // 1. The context: from the trained one (`n_ctx_max`), linearly interpolated down towards
    // `fit_params_min_ctx` by where the target falls between the needs at the two ends, aligned
    // down to 256 (common/fit.cpp, `common_params_fit_impl`, "linear interpolation between minimum
    // and maximum context size"). A trained context at or below the minimum is kept.
    let mut shrunk = false;
    let ctx = match context {
        Some(c) => c,
        None => {
            let top = if m.trained_context > 0 {
                m.trained_context
            } else {
                FIT_MIN_CONTEXT
            };
            let at_top = need(top, &all);
            if at_top <= budget || top <= FIT_MIN_CONTEXT {
                top
            } else {
                let at_min = need(FIT_MIN_CONTEXT, &all);
                if budget > at_min && at_top > at_min {
                    shrunk = true;
                    let add = u128::from(top - FIT_MIN_CONTEXT) * u128::from(budget - at_min)
                        / u128::from(at_top - at_min);
                    let c = FIT_MIN_CONTEXT + u64::try_from(add).unwrap_or(0);
                    (c - c % 256).max(FIT_MIN_CONTEXT)
                } else {
                    FIT_MIN_CONTEXT
                }
            }
        }
    };
    let done = |ngl: u64, cpu_moe: u64| {
        let p = Placement {
            gpu_layers: Some(ngl),
            cpu_moe_layers: cpu_moe,
            ..Placement::default()
        };
        let bytes = need(ctx, &p);
        Fitted {
            context: ctx,
            gpu_layers: ngl,
            n_cpu_moe: cpu_moe,
            gpu_bytes: bytes,
            fits: bytes <= budget,
        }
    };
    // On one GPU llama.cpp stops once the interpolated context is set, with every layer there.
    if need(ctx, &all) <= budget || (shrunk && gpus <= 1) {
        return done(n_layer + 1, 0);
    }
    // 2. MoE: every layer on the GPUs, the experts of the first N layers at home.
    if moe {
        let on_gpu = |n: u64| {
            need(
                ctx,
                &Placement {
                    cpu_moe_layers: n,
                    ..Placement::default()
                },
            ) <= budget
        };
        // The fewest layers whose experts stay home: the largest count of GPU expert layers.
        if let Some(k) = largest(0, n_layer, |k| on_gpu(n_layer - k)) {
            return done(n_layer + 1, n_layer - k);
        }
    }
    // Dense (or MoE experts all home and still too large): the largest -ngl.
    let cpu_moe = if moe { n_layer } else { 0 };
    let ok = |ngl: u64| {
        need(
            ctx,
            &Placement {
                gpu_layers: Some(ngl),
                cpu_moe_layers: cpu_moe,
                ..Placement::default()
            },
        ) <= budget
    };
    let ngl = largest(0, n_layer + 1, ok).unwrap_or(0);
    done(ngl, cpu_moe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::inference::llama_cpp::{CacheShape, GgufLayout, LayerBytes, LayerCache};
    use crate::units::{GIB, MIB};

    /// 32 layers of 256 MiB (dense) or 56 MiB + 200 MiB of experts, a 500 MiB embedding and
    /// output; 128 KiB of cache per token (32 × 4 KiB); trained context 32768.
    fn model(moe: bool) -> LlamaModel {
        let layer = if moe {
            LayerBytes {
                attention: 56 * MIB,
                experts: 200 * MIB,
                ..LayerBytes::default()
            }
        } else {
            LayerBytes {
                attention: 256 * MIB,
                ..LayerBytes::default()
            }
        };
        LlamaModel {
            trained_context: 32_768,
            bytes: GgufLayout {
                layers: vec![layer; 32],
                token_embedding: 500 * MIB,
                output: Some(500 * MIB),
                other: 0,
            },
            cache: CacheShape {
                k_per_cell: 1024,
                v_per_cell: 1024,
                layers: vec![LayerCache::Full; 32],
                ..CacheShape::default()
            },
            ..LlamaModel::default()
        }
    }

    #[test]
    fn context_shrinks_then_layers_go() {
        let s = KvSettings::new(0);
        let m = model(false);
        // Weights on the GPU 8 GiB + 500 MiB; at 32768 tokens the cache is 4 GiB; compute 0
        // (no vocabulary or widths given). A 16 GiB GPU: 12.5 + 1 GiB target fits whole.
        let f = fit(&m, &s, None, 1, 16 * GIB, true);
        assert_eq!((f.context, f.gpu_layers, f.fits), (32_768, 33, true));
        // 11 GiB: 10 GiB budget − 8.5 GiB of weights leaves 1.5 GiB = 12288 tokens of cache.
        let f = fit(&m, &s, None, 1, 11 * GIB, true);
        assert_eq!((f.context, f.gpu_layers), (12_288, 33));
        // 8 GiB: even 4096 tokens (0.5 GiB) doesn't fit: the context stays at 4096 and layers
        // leave. 7168 MiB − 500 MiB of output leave 6668 MiB for layers of 256 MiB + 16 MiB of
        // cache: 24 of them (6528 MiB; 25 would be 6800), so -ngl 25 with the output.
        let f = fit(&m, &s, None, 1, 8 * GIB, true);
        assert_eq!((f.context, f.gpu_layers), (4096, 25));
    }

    #[test]
    fn moe_keeps_layers_and_moves_experts() {
        let s = KvSettings::new(0);
        let m = model(true);
        // 8 GiB at a given 4096 tokens: everything but the experts is 32 × 56 + 500 MiB +
        // 512 MiB of cache = 2804 MiB; the 7168 MiB budget leaves 4364 MiB: 21 layers' experts
        // (4200 MiB) on the GPU, the first 11 at home.
        let f = fit(&m, &s, Some(4096), 1, 8 * GIB, true);
        assert_eq!((f.gpu_layers, f.n_cpu_moe, f.fits), (33, 11, true));
    }

    #[test]
    fn context_is_interpolated_as_llama_cpp_does_not_searched() {
        // Without flash attention the compute buffer is the larger of the logits (vocabulary
        // 524,288 × 512 × 4 B = 1 GiB) and the scores ((31 heads + the mask) × n_kv × 512 × 4 B
        // = n_kv × 64 KiB, 1 GiB at 16,384 cells): not linear in the context.
        let mut m = model(false);
        m.heads = 31;
        m.vocab = 524_288;
        let s = KvSettings::new(0);
        // Weights on the GPU 8,192 + 500 = 8,692 MiB, cache 128 KiB a token. At 32,768 tokens
        // 8,692 + 4,096 + 2,048 = 14,836 MiB; at 4,096 tokens 8,692 + 512 + 1,024 = 10,228 MiB.
        // A 13 GiB GPU, 12,288 MiB budget: 4,096 + 28,672 × (12,288 − 10,228) / (14,836 −
        // 10,228) = 16,913.8, aligned down to 16,896 (common/fit.cpp's interpolation), every
        // layer there. The largest context that fits would be (12,288 − 8,692) MiB / 192 KiB =
        // 19,178 → 18,944; llama.cpp doesn't search for it.
        let f = fit(&m, &s, None, 1, 13 * GIB, false);
        assert_eq!((f.context, f.gpu_layers, f.fits), (16_896, 33, true));
        // A trained context at or below 4,096 is kept (n_ctx_max <= n_ctx_min: "no change").
        m.trained_context = 2048;
        let f = fit(&m, &s, None, 1, 16 * GIB, false);
        assert_eq!(f.context, 2048);
    }
}
