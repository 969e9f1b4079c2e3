//! The model catalogue (`assets/catalog/models.csv`): models people train and serve, each with
//! its Hub id and aliases, its published parameter count, its shape as `config.json` gives it,
//! and the files its figures were read from. Names are looked up ignoring case; a near miss
//! gets "did you mean".

use serde::{Deserialize, Serialize};

use super::model_shape::{AttentionKind, Bias, MlaDims, Mlp, ModelShape, MoeDims, Norm};
use super::rows::{Named, key};

/// What kind of model a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// A language model (decoder-only transformer); its row carries a full shape.
    Llm,
    /// An image classifier or vision backbone.
    Vision,
    /// An image generator (UNet, MMDiT).
    Image,
}

/// One catalogue row as the CSV spells it: empty cells are `None`.
#[derive(Debug, Deserialize)]
struct Row {
    id: String,
    hub_id: String,
    aliases: String,
    name: String,
    kind: ModelKind,
    architecture: String,
    params: u64,
    active_params: Option<u64>,
    largest_layer: Option<u64>,
    layers: Option<u64>,
    hidden: Option<u64>,
    heads: Option<u64>,
    kv_heads: Option<u64>,
    head_dim: Option<u64>,
    intermediate: Option<u64>,
    vocab: Option<u64>,
    tied: Option<bool>,
    experts: Option<u64>,
    active_experts: Option<u64>,
    shared_experts: Option<u64>,
    expert_intermediate: Option<u64>,
    dense_layers: Option<u64>,
    attention: Option<AttentionKind>,
    q_lora_rank: Option<u64>,
    kv_lora_rank: Option<u64>,
    qk_nope_dim: Option<u64>,
    qk_rope_dim: Option<u64>,
    v_head_dim: Option<u64>,
    bias: Option<Bias>,
    mlp: Option<Mlp>,
    norm: Option<Norm>,
    norms_per_layer: Option<u64>,
    qk_norm: Option<bool>,
    learned_positions: Option<u64>,
    moe_bias: Option<bool>,
    sinks: Option<bool>,
    max_context: Option<u64>,
    dtype: String,
    source: String,
}

/// One catalogue model.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelEntry {
    /// Stable id (`--preset llama2-7b`, `--model qwen2.5-7b`).
    pub id: String,
    /// Hugging Face Hub id ("Qwen/Qwen2.5-7B-Instruct"); empty when the model isn't on the Hub.
    pub hub_id: String,
    /// Other names it goes by (base and instruct ids, Ollama tags).
    pub aliases: Vec<String>,
    /// Display name (a model name, not translated).
    pub name: String,
    /// Language model, vision backbone or image generator.
    pub kind: ModelKind,
    /// `model_type` in `config.json` ("llama", "qwen2", "deepseek_v3"), or the family.
    pub architecture: String,
    /// Published total parameters (the source column says whose count).
    pub params: u64,
    /// Published parameters active per token (mixture of experts), when published.
    pub active_params: Option<u64>,
    /// Largest single tensor, when stated in the row (else the shape's, else unknown).
    pub largest_layer: Option<u64>,
    /// The architecture, for language models.
    pub shape: Option<ModelShape>,
    /// Layers, hidden size and heads of a vision transformer (no full shape).
    pub vision: Option<(u64, u64, u64)>,
    /// `max_position_embeddings`: the longest context the config allows, tokens.
    pub max_context: Option<u64>,
    /// The element type of the released weights ("bf16", "fp8", "mxfp4").
    pub dtype: String,
    /// The files and documents its figures were read from.
    pub source: String,
}

impl Row {
    fn into_entry(self) -> Result<ModelEntry, String> {
        let shape = match self.kind {
            ModelKind::Llm => Some(self.shape()?),
            _ => None,
        };
        let vision = match (self.kind, self.layers, self.hidden, self.heads) {
            (ModelKind::Vision, Some(l), Some(h), Some(a)) => Some((l, h, a)),
            _ => None,
        };
        Ok(ModelEntry {
            aliases: super::rows::list(&self.aliases),
            id: self.id,
            hub_id: self.hub_id,
            name: self.name,
            kind: self.kind,
            architecture: self.architecture,
            params: self.params,
            active_params: self.active_params,
            largest_layer: self.largest_layer,
            shape,
            vision,
            max_context: self.max_context,
            dtype: self.dtype,
            source: self.source,
        })
    }

    fn shape(&self) -> Result<ModelShape, String> {
        let need = |v: Option<u64>, field: &str| v.ok_or_else(|| format!("{field} is empty"));
        let heads = need(self.heads, "heads")?;
        let moe = match self.experts {
            Some(experts) => Some(MoeDims {
                experts,
                active: need(self.active_experts, "active_experts")?,
                shared: self.shared_experts.unwrap_or(0),
                intermediate: self
                    .expert_intermediate
                    .or(self.intermediate)
                    .ok_or("expert_intermediate is empty")?,
                dense_layers: self.dense_layers.unwrap_or(0),
                biases: self.moe_bias.unwrap_or(false),
            }),
            None => None,
        };
        let mla = match self.kv_lora_rank {
            Some(kv_lora_rank) => Some(MlaDims {
                q_lora_rank: self.q_lora_rank,
                kv_lora_rank,
                qk_nope_dim: need(self.qk_nope_dim, "qk_nope_dim")?,
                qk_rope_dim: need(self.qk_rope_dim, "qk_rope_dim")?,
                v_head_dim: need(self.v_head_dim, "v_head_dim")?,
            }),
            None => None,
        };
        Ok(ModelShape {
            layers: need(self.layers, "layers")?,
            hidden: need(self.hidden, "hidden")?,
            heads,
            kv_heads: self.kv_heads.unwrap_or(heads),
            head_dim: self.head_dim,
            intermediate: need(self.intermediate, "intermediate")?,
            vocab: need(self.vocab, "vocab")?,
            tied: self.tied.ok_or("tied is empty")?,
            attention: self.attention.ok_or("attention is empty")?,
            mla,
            moe,
            bias: self.bias.unwrap_or_default(),
            mlp: self.mlp.unwrap_or_default(),
            norm: self.norm.unwrap_or_default(),
            norms_per_layer: self.norms_per_layer.unwrap_or(2),
            qk_norm: self.qk_norm.unwrap_or(false),
            learned_positions: self.learned_positions.unwrap_or(0),
            sinks: self.sinks.unwrap_or(false),
        })
    }
}

/// Parses `models.csv`; a malformed row is a build defect, reported with its row number.
pub(super) fn parse(text: &str) -> Vec<ModelEntry> {
    super::rows::parse("models.csv", text, Row::into_entry)
}

impl Named for ModelEntry {
    fn id(&self) -> &str {
        &self.id
    }
    fn hub_id(&self) -> &str {
        &self.hub_id
    }
    fn aliases(&self) -> &[String] {
        &self.aliases
    }
}

impl ModelEntry {
    /// The largest single tensor, elements: the row's figure, else the shape's.
    pub fn largest_tensor(&self) -> Option<u64> {
        self.largest_layer
            .or_else(|| self.shape.as_ref().map(ModelShape::largest_tensor))
    }

    /// Bytes of the weights as released when the row's `dtype` mixes types: `mxfp4` (gpt-oss)
    /// stores the routed experts' weight matrices in MXFP4, 17 bytes per block of 32 (ggml's
    /// `block_mxfp4`; the model's config.json `quantization_config` `quant_method: mxfp4`,
    /// `modules_to_not_convert` attention, router and embeddings), everything else bf16 (the
    /// experts' biases too). `None` for a single-type row (params × its dtype says it) or
    /// without a shape.
    pub fn released_weight_bytes(&self) -> Option<u64> {
        if self.dtype != "mxfp4" {
            return None;
        }
        let s = self.shape.as_ref()?;
        let m = s.moe.as_ref()?;
        let moe_layers = s.layers.saturating_sub(m.dense_layers);
        let biases = if m.biases {
            (2 * m.intermediate + s.hidden) * m.experts * moe_layers
        } else {
            0
        };
        let matrices = s.routed_expert_params()?.checked_sub(biases)?;
        let rest = self.params.checked_sub(matrices)?;
        (matrices / 32)
            .checked_mul(17)?
            .checked_add(rest.checked_mul(2)?)
    }
}

/// The model `name` names (id, Hub id, its model part or an alias), ignoring case.
pub fn find<'a>(models: &'a [ModelEntry], name: &str) -> Option<&'a ModelEntry> {
    super::rows::find(models, name)
}

/// Levenshtein distance, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Up to three catalogue ids closest to `name` (a quarter of its length in edits at most, or
/// names that contain it), nearest first, for "did you mean".
pub fn suggestions(models: &[ModelEntry], name: &str) -> Vec<String> {
    let n = key(name);
    if n.is_empty() || n.chars().count() > 200 {
        return Vec::new();
    }
    let limit = (n.chars().count() / 4).max(2);
    let mut scored: Vec<(usize, &str)> = models
        .iter()
        .filter_map(|m| {
            let best = m
                .names()
                .map(|a| {
                    let a = key(a);
                    if a.contains(&n) { 1 } else { distance(&a, &n) }
                })
                .min()?;
            (best <= limit).then_some((best, m.id.as_str()))
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(3)
        .map(|(_, id)| id.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    /// Every language model's shape, summed module by module, lands within 0.5 % of its
    /// published count (Hugging Face's safetensors count, or the paper's for DeepSeek): a
    /// mistyped layer count, KV-head count or vocabulary can't slip in.
    #[test]
    fn every_llm_row_adds_up_to_its_published_count() {
        let models = &catalog().models;
        assert!(models.len() >= 40, "{} rows", models.len());
        let mut llms = 0;
        for m in models {
            assert!(!m.source.trim().is_empty(), "{}: no source", m.id);
            assert!(m.params > 0, "{}", m.id);
            let Some(shape) = &m.shape else {
                assert_ne!(m.kind, ModelKind::Llm, "{}", m.id);
                continue;
            };
            llms += 1;
            let computed = shape.params().expect("no overflow") as f64;
            let off = (computed - m.params as f64).abs() / m.params as f64;
            assert!(
                off <= 0.005,
                "{}: shape gives {computed}, published {} ({:.3} % off)",
                m.id,
                m.params,
                off * 100.0
            );
            if let (Some(published), Some(active)) = (m.active_params, shape.active_params()) {
                // Active counts are published rounded ("37B"): within 2 %.
                let off = (active as f64 - published as f64).abs() / published as f64;
                assert!(off <= 0.02, "{}: active {active} vs {published}", m.id);
            }
            assert_eq!(
                shape.mla.is_some(),
                shape.attention == AttentionKind::Mla,
                "{}",
                m.id
            );
            if shape.attention != AttentionKind::Mla {
                let kind = match shape.kv_heads {
                    k if k == shape.heads => AttentionKind::Mha,
                    1 => AttentionKind::Mqa,
                    _ => AttentionKind::Gqa,
                };
                assert_eq!(shape.attention, kind, "{}", m.id);
            }
        }
        assert!(llms >= 35, "{llms} language models");
    }

    #[test]
    fn exact_counts_from_hand_sums() {
        let c = catalog();
        let shape = |id: &str| c.model(id).unwrap().shape.clone().unwrap();
        // Qwen2.5-7B, summed by hand from its config.json: embedding and head 2 × 152,064 ×
        // 3,584; per layer q/o 2 × 3,584², k/v 2 × 3,584 × 512, biases 3,584 + 2 × 512, MLP
        // 3 × 3,584 × 18,944, two norms 2 × 3,584; final norm 3,584.
        let per_layer =
            2 * 3584 * 3584 + 2 * 3584 * 512 + (3584 + 2 * 512) + 3 * 3584 * 18944 + 2 * 3584;
        let by_hand: u64 = 2 * 152_064 * 3584 + 28 * per_layer + 3584;
        assert_eq!(by_hand, 7_615_616_512);
        assert_eq!(shape("Qwen/Qwen2.5-7B-Instruct").params(), Some(by_hand));
        // The KV figure: 28 layers × 4 KV heads × 128 × 2 (K and V) × 2 bytes.
        assert_eq!(shape("qwen2.5-7b").kv_elements_per_layer() * 28 * 2, 57_344);
        // DeepSeek-V3's MLA latent: kv_lora_rank 512 + qk_rope_head_dim 64 per layer.
        assert_eq!(shape("deepseek-v3").kv_elements_per_layer(), 576);
        // Mixtral 8x7B, 2 of 8 experts: 46.7 B total, 12.9 B active (Mistral AI's announcement).
        let mixtral = shape("mixtral-8x7b");
        assert_eq!(mixtral.params(), Some(46_702_792_704));
        let active = mixtral.active_params().unwrap() as f64;
        assert!((active / 12.9e9 - 1.0).abs() < 0.005, "{active}");
        // The old presets keep their ids and figures.
        let llama = c.model("llama2-7b").unwrap();
        assert_eq!(llama.params, 6_738_415_616);
        assert_eq!(llama.largest_tensor(), Some(131_072_000));
        assert_eq!(
            c.model("resnet50").unwrap().largest_tensor(),
            Some(2_359_296)
        );
    }

    #[test]
    fn names_ignore_case_and_near_misses_get_suggestions() {
        let c = catalog();
        let id = |n: &str| c.model(n).map(|m| m.id.as_str());
        assert_eq!(id("qwen/qwen2.5-7b-instruct"), Some("qwen2.5-7b"));
        assert_eq!(id("Qwen2.5-7B-Instruct"), Some("qwen2.5-7b"));
        assert_eq!(id("meta-llama/Llama-3.1-8B"), Some("llama-3.1-8b"));
        assert_eq!(id("LLAMA2-70B"), Some("llama2-70b"));
        assert_eq!(id("no-such-model"), None);
        assert_eq!(id(""), None);
        let s = suggestions(&c.models, "Qwen2.5-7B-Instrct");
        assert_eq!(s.first().map(String::as_str), Some("qwen2.5-7b"));
        assert!(suggestions(&c.models, "zzzzzzzzzzzzzzzzzzzz").is_empty());
        // Ids, Hub ids and aliases are unique across rows.
        let mut seen = std::collections::HashMap::new();
        for m in &c.models {
            for n in m.names() {
                if let Some(other) = seen.insert(key(n), m.id.clone()) {
                    assert_eq!(other, m.id, "{n} names two models");
                }
            }
        }
    }
}
