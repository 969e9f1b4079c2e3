//! Model presets: parameter counts and shapes from the models' own publications.

use serde::{Deserialize, Serialize};

/// Transformer shape, for the activation estimate and the KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransformerShape {
    /// Hidden size h.
    pub hidden: u64,
    /// Number of layers.
    pub layers: u64,
    /// Attention heads a; `None` when not given (then h/128 is assumed, and said so).
    #[serde(default)]
    pub heads: Option<u64>,
    /// Key/value heads (grouped-query attention); `None`: as many as `heads`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_heads: Option<u64>,
}

/// A model preset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// Stable id used on the command line (`--preset llama2-7b`).
    pub id: &'static str,
    /// Display name (a model name, not translated).
    pub name: &'static str,
    /// Total parameters.
    pub params: u64,
    /// Parameters of the largest single layer (tensor DeepSpeed must gather whole).
    pub largest_layer: u64,
    /// Transformer shape, when the model is one.
    pub shape: Option<TransformerShape>,
    /// Where the numbers come from.
    pub source: &'static str,
}

/// The presets, smallest first.
pub const PRESETS: [Preset; 8] = [
    Preset {
        id: "resnet50",
        name: "ResNet-50",
        params: 25_557_032,
        // layer4's 3×3 convolution, 512 × 512 × 3 × 3.
        largest_layer: 2_359_296,
        shape: None,
        source: "torchvision ResNet50_Weights.IMAGENET1K_V2 (num_params 25,557,032); He et al. 2016",
    },
    Preset {
        id: "vit-l16",
        name: "ViT-L/16",
        params: 304_326_632,
        // An MLP projection, 1024 × 4096 weights + 4096 bias.
        largest_layer: 4_198_400,
        shape: Some(TransformerShape {
            hidden: 1024,
            layers: 24,
            heads: Some(16),
            kv_heads: None,
        }),
        source: "torchvision ViT_L_16_Weights.IMAGENET1K_V1 (num_params 304,326,632); Dosovitskiy et al. 2021",
    },
    Preset {
        id: "opt-1.3b",
        name: "1.3B decoder (OPT-1.3B)",
        params: 1_315_758_080,
        // Token embedding, 50272 × 2048.
        largest_layer: 102_957_056,
        shape: Some(TransformerShape {
            hidden: 2048,
            layers: 24,
            heads: Some(32),
            kv_heads: None,
        }),
        source: "Zhang et al. 2022, OPT: Open Pre-trained Transformer Language Models, Table 1; facebook/opt-1.3b config",
    },
    Preset {
        id: "sdxl-unet",
        name: "SDXL UNet",
        params: 2_567_463_684,
        // A 1280 × 1280 × 3 × 3 convolution (our reading of the architecture).
        largest_layer: 14_745_600,
        shape: None,
        source: "Podell et al. 2023, SDXL (2.6B-parameter UNet); stabilityai/stable-diffusion-xl-base-1.0 unet",
    },
    Preset {
        id: "llama2-7b",
        name: "7B decoder (Llama 2 7B)",
        params: 6_738_415_616,
        // Token embedding, 32000 × 4096.
        largest_layer: 131_072_000,
        shape: Some(TransformerShape {
            hidden: 4096,
            layers: 32,
            heads: Some(32),
            kv_heads: None,
        }),
        source: "Touvron et al. 2023, Llama 2, Table 1; meta-llama/Llama-2-7b-hf config",
    },
    Preset {
        id: "llama2-13b",
        name: "13B decoder (Llama 2 13B)",
        params: 13_015_864_320,
        largest_layer: 163_840_000,
        shape: Some(TransformerShape {
            hidden: 5120,
            layers: 40,
            heads: Some(40),
            kv_heads: None,
        }),
        source: "Touvron et al. 2023, Llama 2, Table 1; meta-llama/Llama-2-13b-hf config",
    },
    Preset {
        id: "llama-65b",
        name: "65B decoder (LLaMA 65B, the seed article's example)",
        params: 65_200_000_000,
        largest_layer: 262_144_000,
        shape: Some(TransformerShape {
            hidden: 8192,
            layers: 80,
            heads: Some(64),
            kv_heads: None,
        }),
        source: "Touvron et al. 2023, LLaMA: Open and Efficient Foundation Language Models, Table 2 (65.2B)",
    },
    Preset {
        id: "llama2-70b",
        name: "70B decoder (Llama 2 70B)",
        params: 68_976_648_192,
        largest_layer: 262_144_000,
        shape: Some(TransformerShape {
            hidden: 8192,
            layers: 80,
            heads: Some(64),
            kv_heads: Some(8),
        }),
        source: "Touvron et al. 2023, Llama 2, Table 1 (GQA for 70B, §2.2); meta-llama/Llama-2-70b-hf config (num_key_value_heads 8)",
    },
];

/// Finds a preset by id.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id.eq_ignore_ascii_case(id))
}

/// The largest-layer assumption when neither the user nor a preset gives one: the token
/// embedding of a decoder whose hidden size follows from the parameter count (P ≈ 12·L·h² with
/// L ≈ h/128, as in GPT-3's family, Brown et al. 2020 Table 2.1) and a 32,000-token vocabulary,
/// i.e. 32000 × (P·128/12)^(1/3), capped at 10 % of the model. Stated in the output as an
/// assumption.
pub fn assumed_largest_layer(params: u64) -> u64 {
    let hidden = (params as f64 * 128.0 / 12.0).cbrt();
    let embedding = 32_000.0 * hidden;
    (embedding.min(params as f64 * 0.1)).round().max(1.0) as u64
}
