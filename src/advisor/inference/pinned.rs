//! vLLM's `cpu_offload_gb` in page-locked host memory: vLLM moves whole parameters of the
//! first decoder layers to the CPU until the budget is reached (vllm/model_executor/models/
//! utils.py `maybe_offload_to_cpu`: `torch.empty_strided(..., device="cpu",
//! pin_memory=pin_memory)` per parameter), and PyTorch's caching host allocator rounds every
//! pinned allocation up to a power of two (aten/src/ATen/core/CachingHostAllocator.h,
//! `CachingHostAllocatorImpl::allocate`: `c10::llvm::PowerOf2Ceil(size)`). A report measured
//! 1.78× the budget (issue 33). `docs/model.md` § "Inference memory: vLLM's CPU offload".

use super::InferencePlan;
use crate::advisor::pinned::pinned_block;

/// Bytes of one decoder layer's parameters on one of `t` tensor-parallel GPUs, as vLLM holds
/// them (fused): `qkv_proj` (h × (q + 2·kv)), `o_proj` (q × h), `gate_up_proj` (h × 2·i),
/// `down_proj` (i × h), each split over the `t` GPUs. q = heads × head_dim and kv = kv_heads ×
/// head_dim from the shape; the MLP width i from what the layer has left: (P − 2 × the
/// largest tensor, for the untied embedding and output head) ÷ layers − the attention, over
/// 3·h (a gated MLP: gate, up, down). Assumption: a Llama-style decoder; norms and biases left
/// out.
fn layer_tensors(p: &InferencePlan, largest: u64, t: u64) -> [u64; 4] {
    let s = &p.shape;
    let h = s.hidden.max(1);
    let heads = s.heads.unwrap_or((h / 128).max(1));
    let head_dim = s.head_dim.unwrap_or(h / heads.max(1));
    let q = heads.saturating_mul(head_dim);
    let kv = s.kv_heads.unwrap_or(heads).saturating_mul(head_dim);
    let attention = h
        .saturating_mul(q + 2 * kv)
        .saturating_add(q.saturating_mul(h));
    let per_layer = p.params.saturating_sub(2 * largest) / s.layers.max(1);
    let i = per_layer.saturating_sub(attention) / (3 * h);
    let b = p.weights.bytes();
    let bytes = |elements: u64| crate::units::saturating_bytes(elements as f64 * b) / t.max(1);
    [
        bytes(h.saturating_mul(q + 2 * kv)),
        bytes(q.saturating_mul(h)),
        bytes(h.saturating_mul(2 * i)),
        bytes(i.saturating_mul(h)),
    ]
}

/// Page-locked host bytes per GPU for `offload` bytes of `cpu_offload_gb` on one of `t` GPUs:
/// the offloaded bytes × (one layer's tensors each rounded up to a power of two ÷ the layer's
/// bytes). `largest` is the model's largest tensor in parameters.
pub fn vllm_offload_pinned(p: &InferencePlan, largest: u64, t: u64, offload: u64) -> u64 {
    let tensors = layer_tensors(p, largest, t);
    let raw: u64 = tensors.iter().sum();
    if raw == 0 || offload == 0 {
        return offload;
    }
    let pinned: u64 = tensors.iter().map(|&x| pinned_block(x)).sum();
    crate::units::saturating_bytes(offload as f64 * pinned as f64 / raw as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwen2_7b_rounds_its_mlp_up_by_nearly_two() {
        // Qwen2-7B: hidden 3,584, 28 layers, 28 heads of 128, 4 KV heads, MLP 18,944; bf16.
        // Its layer's fused tensors: qkv 3,584 × (3,584 + 1,024) × 2 = 33,030,144 bytes → 2^25;
        // o 3,584 × 3,584 × 2 = 25,690,112 → 2^25; gate_up 3,584 × 37,888 × 2 = 271,581,184 →
        // 2^29; down 18,944 × 3,584 × 2 = 135,790,592 → 2^28. Parameters chosen so the MLP
        // width comes out at 18,944: 28 layers × (3,584 × 4,608 + 3,584² + 3 × 3,584 × 18,944)
        // + 2 × the 152,064 × 3,584 embedding.
        let layer = 3_584 * 4_608 + 3_584 * 3_584 + 3 * 3_584 * 18_944;
        let embed = 152_064 * 3_584;
        let shape = crate::advisor::training::TransformerShape {
            hidden: 3_584,
            layers: 28,
            heads: Some(28),
            kv_heads: Some(4),
            head_dim: Some(128),
            kv_latent: None,
        };
        let p = InferencePlan::new(
            super::super::Engine::Vllm,
            28 * layer + 2 * embed,
            shape,
            super::super::WeightFormat::Bf16,
        );
        let t = layer_tensors(&p, embed, 1);
        assert_eq!(t, [33_030_144, 25_690_112, 271_581_184, 135_790_592]);
        // 8 GiB offloaded: × (2^25 + 2^25 + 2^29 + 2^28) ÷ 466,092,032 = 1.8717…
        let gib = 1u64 << 30;
        let pinned = vllm_offload_pinned(&p, embed, 1, 8 * gib);
        let expect = 8.0 * gib as f64 * 872_415_232.0 / 466_092_032.0;
        assert!((pinned as f64 - expect).abs() < 2.0, "{pinned} vs {expect}");
    }
}
