//! Activation memory of a transformer per GPU: Korthikanti et al. 2022, "Reducing Activation
//! Recomputation in Large Transformer Models", §4, for any model given by its layers, hidden
//! size and heads (a preset's, or the user's numbers).

use serde::{Deserialize, Serialize};

use super::plan::{ActivationInput, TrainingPlan};
use super::presets::TransformerShape;

/// Which formula gave the activation figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActivationFormula {
    /// `s·b·h·(34 + 5·a·s/h)` bytes per layer: 16-bit activations, no tensor or sequence
    /// parallelism, the s × s attention scores stored (eager attention).
    Korthikanti,
    /// `34·s·b·h` bytes per layer: the same without the `5·a·s/h` attention-score term, which
    /// FlashAttention (Dao et al. 2022) and PyTorch's `scaled_dot_product_attention` never
    /// store.
    KorthikantiFlash,
    /// `2·s·b·h` bytes per layer: full recomputation keeps only each layer's input.
    Checkpointed,
}

/// The activation line every output shows next to the VRAM figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activations {
    /// Activations per GPU, bytes; `None` when the plan has no activation input (or no shape).
    pub gpu_bytes_per_gpu: Option<u64>,
    /// True when the figure is part of the per-GPU need (so a `false` means "model states only;
    /// activations not included").
    pub included: bool,
    /// The formula used, when there is a figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formula: Option<ActivationFormula>,
    /// True when the number of heads was not given and h/128 was assumed (head dimension 128,
    /// as in Llama, GPT-3 and most decoders).
    #[serde(default)]
    pub heads_assumed: bool,
}

/// Activation bytes per GPU for a transformer of `layers` layers, hidden size `hidden` and
/// `heads` heads, at sequence length `seq` and micro-batch `batch`.
pub fn activation_bytes(
    seq: u64,
    batch: u64,
    hidden: u64,
    heads: u64,
    layers: u64,
    formula: ActivationFormula,
) -> u64 {
    let (s, b, h, a, l) = (
        seq as f64,
        batch as f64,
        hidden as f64,
        heads as f64,
        layers as f64,
    );
    let per_layer = match formula {
        ActivationFormula::Checkpointed => 2.0 * s * b * h,
        ActivationFormula::KorthikantiFlash => 34.0 * s * b * h,
        ActivationFormula::Korthikanti => s * b * h * (34.0 + 5.0 * a * s / h),
    };
    crate::units::saturating_bytes(per_layer * l)
}

/// The formula for an activation input.
pub fn formula(a: &ActivationInput) -> ActivationFormula {
    if a.checkpointing {
        ActivationFormula::Checkpointed
    } else if a.flash_attention {
        ActivationFormula::KorthikantiFlash
    } else {
        ActivationFormula::Korthikanti
    }
}

/// Heads assumed when a shape gives none: h/128 (at least 1).
pub fn assumed_heads(hidden: u64) -> u64 {
    (hidden / 128).max(1)
}

/// The activation line of `plan`: its input's shape (else the preset's), the formula, and the
/// figure; not included when the plan has no activation input or no shape is known.
pub fn activations(plan: &TrainingPlan) -> Activations {
    let none = Activations {
        gpu_bytes_per_gpu: None,
        included: false,
        formula: None,
        heads_assumed: false,
    };
    let Some(a) = plan.activations else {
        return none;
    };
    let shape: Option<TransformerShape> = a.shape.or_else(|| plan.preset().and_then(|p| p.shape));
    let Some(s) = shape else { return none };
    let (heads, assumed) = match s.heads {
        Some(h) if h > 0 => (h, false),
        _ => (assumed_heads(s.hidden), true),
    };
    let f = formula(&a);
    Activations {
        gpu_bytes_per_gpu: Some(activation_bytes(
            a.seq_len,
            a.micro_batch,
            s.hidden,
            heads,
            s.layers,
            f,
        )),
        included: true,
        formula: Some(f),
        heads_assumed: assumed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_11s_7b_shape_by_hand() {
        // 32 layers, h = 4096, s = 2048, b = 1, a = 32 (4096 / 128).
        // Eager: 2048 × 4096 × (34 + 5 × 32 × 2048 / 4096) = 8,388,608 × 114 per layer.
        let eager = activation_bytes(2048, 1, 4096, 32, 32, ActivationFormula::Korthikanti);
        assert_eq!(eager, 8_388_608 * 114 * 32);
        // Flash: 34 × 8,388,608 per layer; checkpointed: 2 × 8,388,608 per layer.
        let flash = activation_bytes(2048, 1, 4096, 32, 32, ActivationFormula::KorthikantiFlash);
        assert_eq!(flash, 8_388_608 * 34 * 32);
        let ckpt = activation_bytes(2048, 1, 4096, 32, 32, ActivationFormula::Checkpointed);
        assert_eq!(ckpt, 8_388_608 * 2 * 32);
        assert_eq!(assumed_heads(4096), 32);
    }
}
