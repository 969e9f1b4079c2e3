//! Model presets: the model catalogue's rows (parameter counts and shapes from the models' own
//! publications and `config.json` files) as the planners take them.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::catalog::catalog;
use crate::catalog::model_shape::ModelShape;
use crate::catalog::models::ModelEntry;

/// Transformer shape, for the activation estimate and the KV cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Width of one attention head; `None`: hidden ÷ heads (Gemma 2 and Qwen3 set their own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u64>,
    /// Multi-head latent attention: elements cached per token and layer (`kv_lora_rank +
    /// qk_rope_head_dim`, 576 for DeepSeek-V3) instead of keys and values per KV head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_latent: Option<u64>,
}

/// A model preset: a row of the model catalogue (`assets/catalog/models.csv`), in the terms the
/// planners use.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// Stable id used on the command line (`--preset llama2-7b`).
    pub id: String,
    /// Display name (a model name, not translated).
    pub name: String,
    /// Hugging Face Hub id; empty when the model isn't on the Hub.
    pub hub_id: String,
    /// Total parameters, as published.
    pub params: u64,
    /// Parameters of the largest single tensor (the one DeepSpeed must gather whole): the
    /// row's figure, else the largest tensor of its shape; `None` when neither is known.
    pub largest_layer: Option<u64>,
    /// Transformer shape, when the model is one.
    pub shape: Option<TransformerShape>,
    /// Where the numbers come from.
    pub source: String,
}

impl Preset {
    fn from_entry(m: &ModelEntry) -> Preset {
        let shape = match (&m.shape, m.vision) {
            (Some(s), _) => Some(TransformerShape::of_model(s)),
            (None, Some((layers, hidden, heads))) => Some(TransformerShape {
                hidden,
                layers,
                heads: Some(heads),
                ..TransformerShape::default()
            }),
            (None, None) => None,
        };
        Preset {
            id: m.id.clone(),
            name: m.name.clone(),
            hub_id: m.hub_id.clone(),
            params: m.params,
            largest_layer: m.largest_tensor(),
            shape,
            source: m.source.clone(),
        }
    }
}

impl TransformerShape {
    /// The planners' view of a catalogue or `config.json` shape: layers, hidden size, heads,
    /// KV heads, head dimension and, for MLA, the latent cached per token and layer.
    pub fn of_model(s: &ModelShape) -> TransformerShape {
        TransformerShape {
            hidden: s.hidden,
            layers: s.layers,
            heads: Some(s.heads),
            kv_heads: Some(s.kv_heads),
            head_dim: Some(s.head_dim()),
            kv_latent: s.mla.map(|_| s.kv_elements_per_layer()),
        }
    }
}

/// Every catalogue model as a preset, in catalogue order.
pub fn presets() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(|| catalog().models.iter().map(Preset::from_entry).collect())
}

/// Finds a preset by id, Hub id or alias (case ignored).
/// A diffusion pipeline's name (`sdxl`, `flux1-dev`) means its denoiser here, the part the
/// training planner trains.
pub fn preset(name: &str) -> Option<&'static Preset> {
    let c = catalog();
    let id = &c
        .model(name)
        .or_else(|| c.model(&c.pipeline(name)?.denoiser))?
        .id;
    presets().iter().find(|p| &p.id == id)
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
