//! Where llama.cpp puts each byte (`src/llama-model.cpp`, `llama_model::load_tensors`):
//!
//! - The input layer (the token embedding) always stays on the CPU ("there is very little
//!   benefit to offloading the input layer").
//! - `-ngl N` counts the `n_layer` layers and the output layer: layers from
//!   `i_gpu_start = max(n_layer + 1 − N, 0)` go to the GPUs, the output layer (index `n_layer`)
//!   first of all; `N` above `n_layer + 1` is clamped (`act_gpu_layers = min(N, n_layer + 1)`).
//! - Over several GPUs, layer `il` goes to the first device whose cumulative `-ts` share
//!   exceeds `(il − i_gpu_start) / act_gpu_layers` (`std::upper_bound` over the split points).
//! - A file without `output.weight` loads the token embedding a second time as the output
//!   (`TENSOR_DUPLICATED`), on the output layer's device.
//! - `--n-cpu-moe N` keeps the routed experts of layers 0‥N−1 on the CPU and `--cpu-moe` those
//!   of every layer (common/arg.cpp; common.h `llm_add_n_cpu_ffn_overrides`,
//!   `LLM_FFN_EXPS_REGEX`).
//! - Each layer's KV cache lives with the layer (`llama_kv_cache`, `model.dev_layer(il)`, with
//!   `offload_kqv` on by default).

use serde::{Deserialize, Serialize};

use super::kv::{KvSettings, per_layer};
use super::{GgufLayout, LlamaModel};

/// How the user places the model (llama.cpp's flags).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// `-ngl`; `None`: every layer (llama.cpp's "all").
    pub gpu_layers: Option<u64>,
    /// `--n-cpu-moe N`: experts of the first N layers on the CPU; `u64::MAX` for `--cpu-moe`.
    pub cpu_moe_layers: u64,
    /// `-ts`: each GPU's share; empty: equal shares (llama.cpp splits by free memory, equal on
    /// equal idle GPUs).
    pub tensor_split: Vec<f64>,
}

/// llama.cpp's accounting of a plan (`inference_memory.llama_cpp` in `advise --json`): the bytes
/// on each device at the plan's placement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlamaFit {
    /// Weights and KV cache per device.
    pub placed: Placed,
    /// The compute buffer on each GPU ([`super::compute::gpu_compute_bytes`]).
    pub compute_bytes: u64,
    /// What llama.cpp's fit leaves free on each GPU (common.h `fit_params_target`, 1024 MiB).
    pub margin_bytes: u64,
}

/// The bytes on each device.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    /// `-ngl` as llama.cpp uses it (clamped to `n_layer + 1`).
    pub gpu_layers: u64,
    /// Model weights on each GPU.
    pub gpu_weights: Vec<u64>,
    /// KV cache on each GPU.
    pub gpu_kv: Vec<u64>,
    /// Weights on the host (the token embedding, CPU layers, experts kept there).
    pub host_weights: u64,
    /// KV cache of the CPU layers.
    pub host_kv: u64,
    /// The second copy of a tied embedding on a GPU (0 when not tied or the output is on the
    /// CPU), included in `gpu_weights`.
    pub tied_output_copy: u64,
}

/// The device of layer `il` (0‥=n_layer, n_layer being the output): `None` for the CPU, else the
/// GPU's index.
pub fn device_of(il: u64, n_layer: u64, ngl: u64, splits: &[f64]) -> Option<usize> {
    let start = (n_layer + 1).saturating_sub(ngl);
    let act = ngl.min(n_layer + 1);
    if splits.is_empty() || il < start || il - start >= act {
        return None;
    }
    let x = (il - start) as f64 / act as f64;
    let i = splits
        .iter()
        .position(|&s| s > x)
        .unwrap_or(splits.len() - 1);
    Some(i)
}

/// Cumulative, normalised split points of `-ts` over `gpus` devices (equal when none is given).
pub fn split_points(tensor_split: &[f64], gpus: u32) -> Vec<f64> {
    let n = gpus as usize;
    let shares: Vec<f64> = if tensor_split.iter().take(n).any(|&x| x > 0.0) {
        (0..n)
            .map(|i| tensor_split.get(i).copied().unwrap_or(0.0).max(0.0))
            .collect()
    } else {
        vec![1.0; n]
    };
    let sum: f64 = shares.iter().sum();
    let mut acc = 0.0;
    shares
        .iter()
        .map(|s| {
            acc += s;
            acc / sum
        })
        .collect()
}

/// Places `m` with `p` over `gpus` GPUs, its caches sized by `s`.
pub fn place(m: &LlamaModel, s: &KvSettings, p: &Placement, gpus: u32) -> Placed {
    let b: &GgufLayout = &m.bytes;
    let n_layer = b.layers.len().max(m.cache.layers.len()) as u64;
    let ngl = p.gpu_layers.unwrap_or(u64::MAX).min(n_layer + 1);
    let splits = split_points(&p.tensor_split, gpus);
    let n = splits.len();
    let mut out = Placed {
        gpu_layers: ngl,
        gpu_weights: vec![0; n],
        gpu_kv: vec![0; n],
        host_weights: b.token_embedding,
        ..Placed::default()
    };
    let kv = per_layer(m, s);
    for il in 0..n_layer {
        let i = il as usize;
        let layer = b.layers.get(i).copied().unwrap_or_default();
        let cache = kv.get(i).copied().unwrap_or(0);
        let experts_on_cpu = il < p.cpu_moe_layers;
        let (dev_w, host_w) = if experts_on_cpu {
            (layer.total() - layer.experts, layer.experts)
        } else {
            (layer.total(), 0)
        };
        out.host_weights = out.host_weights.saturating_add(host_w);
        match device_of(il, n_layer, ngl, &splits) {
            Some(g) => {
                out.gpu_weights[g] = out.gpu_weights[g].saturating_add(dev_w);
                out.gpu_kv[g] = out.gpu_kv[g].saturating_add(cache);
            }
            None => {
                out.host_weights = out.host_weights.saturating_add(dev_w);
                out.host_kv = out.host_kv.saturating_add(cache);
            }
        }
    }
    // The output layer: `output.weight` (or the tied embedding's copy) and what sits outside
    // the layers (output_norm).
    let output = b.output.unwrap_or(b.token_embedding);
    let head = output.saturating_add(b.other);
    match device_of(n_layer, n_layer, ngl, &splits) {
        Some(g) => {
            out.gpu_weights[g] = out.gpu_weights[g].saturating_add(head);
            if b.output.is_none() {
                out.tied_output_copy = b.token_embedding;
            }
        }
        // On the CPU a tied output reads the same mapped embedding: no second copy.
        None => {
            let own = if b.output.is_some() { output } else { 0 };
            out.host_weights = out.host_weights.saturating_add(own + b.other);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::inference::llama_cpp::{CacheShape, LayerBytes, LayerCache};

    /// 4 layers of 100 B (60 of it experts), a 1000 B embedding, a 500 B output, 10 B norm;
    /// 4 cache bytes per cell for every layer.
    fn toy(tied: bool) -> LlamaModel {
        LlamaModel {
            bytes: GgufLayout {
                layers: vec![
                    LayerBytes {
                        attention: 30,
                        ffn: 0,
                        experts: 60,
                        norms: 10,
                    };
                    4
                ],
                token_embedding: 1000,
                output: (!tied).then_some(500),
                other: 10,
            },
            cache: CacheShape {
                k_per_cell: 1,
                v_per_cell: 1,
                layers: vec![LayerCache::Full; 4],
                ..CacheShape::default()
            },
            ..LlamaModel::default()
        }
    }

    #[test]
    fn ngl_counts_the_output_layer_first() {
        let s = KvSettings::new(256); // 256 cells × 4 B = 1024 B per layer
        let m = toy(false);
        // -ngl 1: only the output layer (500 + 10) on the GPU.
        let p = place(
            &m,
            &s,
            &Placement {
                gpu_layers: Some(1),
                ..Default::default()
            },
            1,
        );
        assert_eq!(p.gpu_weights, vec![510]);
        assert_eq!(p.gpu_kv, vec![0]);
        assert_eq!(p.host_weights, 1000 + 400);
        // -ngl 3: the output and layers 2, 3.
        let p = place(
            &m,
            &s,
            &Placement {
                gpu_layers: Some(3),
                ..Default::default()
            },
            1,
        );
        assert_eq!(p.gpu_weights, vec![510 + 200]);
        assert_eq!(p.gpu_kv, vec![2048]);
        assert_eq!(p.host_kv, 2048);
        // -ngl 999 is every layer (clamped to n_layer + 1 = 5); the embedding stays home.
        let p = place(
            &m,
            &s,
            &Placement {
                gpu_layers: Some(999),
                ..Default::default()
            },
            1,
        );
        assert_eq!(p.gpu_layers, 5);
        assert_eq!(p.gpu_weights, vec![510 + 400]);
        assert_eq!(p.host_weights, 1000);
    }

    #[test]
    fn tied_embedding_gets_a_gpu_copy() {
        let s = KvSettings::new(256);
        let p = place(&toy(true), &s, &Placement::default(), 1);
        assert_eq!(p.tied_output_copy, 1000);
        assert_eq!(p.gpu_weights, vec![1000 + 10 + 400]);
        assert_eq!(p.host_weights, 1000);
    }

    #[test]
    fn cpu_moe_keeps_the_first_layers_experts_home() {
        let s = KvSettings::new(256);
        let m = toy(false);
        let p = place(
            &m,
            &s,
            &Placement {
                cpu_moe_layers: 3,
                ..Default::default()
            },
            1,
        );
        assert_eq!(p.host_weights, 1000 + 3 * 60);
        assert_eq!(p.gpu_weights, vec![510 + 400 - 180]);
        let all = place(
            &m,
            &s,
            &Placement {
                cpu_moe_layers: u64::MAX,
                ..Default::default()
            },
            1,
        );
        assert_eq!(all.host_weights, 1000 + 4 * 60);
    }

    #[test]
    fn tensor_split_over_two_gpus() {
        // 5 slots (4 layers + output) split 1:1: slot x = k/5 goes to GPU 0 while x < 0.5, so
        // layers 0, 1, 2 (x = 0, 0.2, 0.4) on GPU 0; layer 3 and the output on GPU 1.
        let s = KvSettings::new(256);
        let p = place(&toy(false), &s, &Placement::default(), 2);
        assert_eq!(p.gpu_weights, vec![300, 100 + 510]);
        assert_eq!(p.gpu_kv, vec![3 * 1024, 1024]);
        // -ts 3,1: split point 0.75, layers 0–3 (x ≤ 0.6) on GPU 0.
        let ts = Placement {
            tensor_split: vec![3.0, 1.0],
            ..Default::default()
        };
        let p = place(&toy(false), &s, &ts, 2);
        assert_eq!(p.gpu_weights, vec![400, 510]);
    }
}
