//! A model's architecture as its `config.json` describes it, and the figures that follow from it
//! alone: the parameter count (embeddings, attention with its KV heads or MLA latent, the MLP or
//! the experts, norms), the parameters active per token, the KV cache per token and the largest
//! tensor. Shared by the catalogue (`assets/catalog/models.csv`) and the model-file readers.

use serde::{Deserialize, Serialize};

/// How attention keeps its keys and values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttentionKind {
    /// Multi-head attention: as many KV heads as heads.
    Mha,
    /// Grouped-query attention: fewer KV heads (Ainslie et al. 2023).
    Gqa,
    /// Multi-query attention: one KV head.
    Mqa,
    /// Multi-head latent attention (DeepSeek-V2/V3): one compressed latent per token and layer.
    Mla,
}

/// Which linear layers carry a bias vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bias {
    /// No biases (Llama, Mistral, Gemma, Phi-3).
    #[default]
    None,
    /// Query, key and value projections (Qwen2 `Qwen2Attention`).
    Qkv,
    /// All four attention projections (gpt-oss `attention_bias`).
    Attention,
    /// Every linear layer, attention and MLP (OPT, GPT-2).
    All,
}

/// The feed-forward block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mlp {
    /// Gated (SwiGLU/GeGLU): gate, up and down projections, 3 × hidden × intermediate.
    #[default]
    Gated,
    /// Two projections, 2 × hidden × intermediate (OPT, GPT-2, ViT).
    Plain,
}

/// The normalisation layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Norm {
    /// RMSNorm: one weight per element.
    #[default]
    Rms,
    /// LayerNorm: a weight and a bias per element.
    Layer,
}

/// Multi-head latent attention sizes (DeepSeek-V3 `config.json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MlaDims {
    /// `q_lora_rank`: the query's low-rank size; `None`: queries are projected directly.
    pub q_lora_rank: Option<u64>,
    /// `kv_lora_rank`: the compressed key/value latent cached per token.
    pub kv_lora_rank: u64,
    /// `qk_nope_head_dim`: the part of each query/key head without rotary position.
    pub qk_nope_dim: u64,
    /// `qk_rope_head_dim`: the rotary part, shared by the heads and cached beside the latent.
    pub qk_rope_dim: u64,
    /// `v_head_dim`.
    pub v_head_dim: u64,
}

/// Mixture-of-experts sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoeDims {
    /// Routed experts per MoE layer (`num_local_experts`, `num_experts`, `n_routed_experts`).
    pub experts: u64,
    /// Routed experts each token uses (`num_experts_per_tok`, `experts_per_token`).
    pub active: u64,
    /// Experts every token uses besides the routed ones (`n_shared_experts`; 0 when none).
    pub shared: u64,
    /// Each expert's intermediate size (`moe_intermediate_size`; else the dense one).
    pub intermediate: u64,
    /// Leading layers with a dense MLP instead of experts (`first_k_dense_replace`).
    pub dense_layers: u64,
    /// The router and the experts carry biases (gpt-oss).
    pub biases: bool,
}

/// A transformer's architecture, in `config.json`'s terms. Sizes are element counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelShape {
    /// `num_hidden_layers`.
    pub layers: u64,
    /// `hidden_size`.
    pub hidden: u64,
    /// `num_attention_heads`.
    pub heads: u64,
    /// `num_key_value_heads` (as many as `heads` when the config has none).
    pub kv_heads: u64,
    /// `head_dim`; `None`: hidden ÷ heads.
    pub head_dim: Option<u64>,
    /// `intermediate_size` of the dense MLP.
    pub intermediate: u64,
    /// `vocab_size`.
    pub vocab: u64,
    /// `tie_word_embeddings`: the output head shares the token embedding.
    pub tied: bool,
    /// How keys and values are kept.
    pub attention: AttentionKind,
    /// Latent sizes when `attention` is MLA.
    pub mla: Option<MlaDims>,
    /// Experts, for a mixture-of-experts model.
    pub moe: Option<MoeDims>,
    /// Linear layers with biases.
    pub bias: Bias,
    /// The feed-forward block.
    pub mlp: Mlp,
    /// The normalisation layers.
    pub norm: Norm,
    /// Norm layers per decoder layer (2 for Llama, 4 for Gemma 2 and 3).
    pub norms_per_layer: u64,
    /// Per-head RMSNorm on queries and keys (Qwen3, Gemma 3).
    pub qk_norm: bool,
    /// Learned position embeddings (rows), 0 for rotary models.
    pub learned_positions: u64,
    /// One learned attention-sink logit per head and layer (gpt-oss).
    pub sinks: bool,
}

impl ModelShape {
    /// The width of one attention head: `head_dim`, else hidden ÷ heads.
    pub fn head_dim(&self) -> u64 {
        self.head_dim
            .unwrap_or_else(|| self.hidden.checked_div(self.heads).unwrap_or(0))
    }

    fn attention_params(&self) -> u128 {
        let h = u128::from(self.hidden);
        let heads = u128::from(self.heads);
        if let Some(m) = self.mla {
            let (nope, rope, v) = (
                u128::from(m.qk_nope_dim),
                u128::from(m.qk_rope_dim),
                u128::from(m.v_head_dim),
            );
            let kv = u128::from(m.kv_lora_rank);
            // DeepSeek-V3 modeling: q_a_proj, q_a_layernorm, q_b_proj (or q_proj);
            // kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj; o_proj.
            let q = match m.q_lora_rank {
                Some(r) => {
                    let r = u128::from(r);
                    h * r + r + r * heads * (nope + rope)
                }
                None => h * heads * (nope + rope),
            };
            return q + h * (kv + rope) + kv + kv * heads * (nope + v) + heads * v * h;
        }
        let d = u128::from(self.head_dim());
        let kv = u128::from(self.kv_heads);
        let mut p = 2 * h * heads * d + 2 * h * kv * d;
        p += match self.bias {
            Bias::None => 0,
            Bias::Qkv => heads * d + 2 * kv * d,
            Bias::Attention | Bias::All => heads * d + 2 * kv * d + h,
        };
        if self.qk_norm {
            p += 2 * d;
        }
        if self.sinks {
            p += heads;
        }
        p
    }

    fn mlp_params(&self, intermediate: u64) -> u128 {
        let (h, i) = (u128::from(self.hidden), u128::from(intermediate));
        match self.mlp {
            Mlp::Gated => 3 * h * i,
            Mlp::Plain if self.bias == Bias::All => 2 * h * i + i + h,
            Mlp::Plain => 2 * h * i,
        }
    }

    /// One expert's parameters (its MLP, and with `biases` gpt-oss's gate/up and down biases).
    fn expert_params(&self, m: &MoeDims) -> u128 {
        let (h, i) = (u128::from(self.hidden), u128::from(m.intermediate));
        self.mlp_params(m.intermediate) + if m.biases { 2 * i + h } else { 0 }
    }

    fn moe_layers(&self, m: &MoeDims) -> u128 {
        u128::from(self.layers.saturating_sub(m.dense_layers))
    }

    fn total(&self) -> u128 {
        let h = u128::from(self.hidden);
        let l = u128::from(self.layers);
        let norm = if self.norm == Norm::Layer { 2 } else { 1 };
        let embeddings = u128::from(self.vocab) * h * if self.tied { 1 } else { 2 }
            + u128::from(self.learned_positions) * h;
        let per_layer_norms = u128::from(self.norms_per_layer) * h * norm;
        let mlp = match &self.moe {
            None => l * self.mlp_params(self.intermediate),
            Some(m) => {
                let router =
                    h * u128::from(m.experts) + if m.biases { u128::from(m.experts) } else { 0 };
                let experts = u128::from(m.experts + m.shared) * self.expert_params(m);
                u128::from(m.dense_layers) * self.mlp_params(self.intermediate)
                    + self.moe_layers(m) * (router + experts)
            }
        };
        embeddings + l * (self.attention_params() + per_layer_norms) + mlp + h * norm
    }

    /// Total parameters: token embedding (and the output head unless tied), learned positions,
    /// per layer attention (with its KV heads, biases and q/k norms, or MLA's latent
    /// projections), the MLP or the router and every expert (shared ones included), the norms,
    /// and the final norm. `None` when the figure overflows (a hostile config).
    ///
    /// Source: the modules of Hugging Face transformers' `modeling_llama.py`,
    /// `modeling_qwen2.py`, `modeling_qwen3(_moe).py`, `modeling_mixtral.py`,
    /// `modeling_gemma2/3.py`, `modeling_phi3.py`, `modeling_opt.py`, `modeling_gpt_oss.py` and
    /// DeepSeek-V3's `modeling_deepseek.py` (the multi-token-prediction module excluded).
    pub fn params(&self) -> Option<u64> {
        u64::try_from(self.total()).ok()
    }

    /// Parameters one token goes through: all of them for a dense model; for a mixture of
    /// experts, the total less the routed experts it skips (experts − active per MoE layer).
    pub fn active_params(&self) -> Option<u64> {
        let total = self.total();
        let skipped = match &self.moe {
            None => 0,
            Some(m) => {
                u128::from(m.experts.saturating_sub(m.active))
                    * self.expert_params(m)
                    * self.moe_layers(m)
            }
        };
        u64::try_from(total.saturating_sub(skipped)).ok()
    }

    /// Parameters of the routed experts, all MoE layers together (what llama.cpp's
    /// `-ot exps=CPU` keeps in host RAM); `None` for a dense model.
    pub fn routed_expert_params(&self) -> Option<u64> {
        let m = self.moe.as_ref()?;
        u64::try_from(u128::from(m.experts) * self.expert_params(m) * self.moe_layers(m)).ok()
    }

    /// Elements cached per token and layer: keys and values, 2 × KV heads × head dimension; for
    /// MLA the latent and the shared rotary key, `kv_lora_rank + qk_rope_head_dim` (vLLM's and
    /// SGLang's MLA cache, DeepSeek-V2 paper §2.1).
    pub fn kv_elements_per_layer(&self) -> u64 {
        match self.mla {
            Some(m) => m.kv_lora_rank.saturating_add(m.qk_rope_dim),
            None => 2u64
                .saturating_mul(self.kv_heads)
                .saturating_mul(self.head_dim()),
        }
    }

    /// The largest single tensor, elements: the token embedding, an MLP or expert projection,
    /// or the query projection, whichever is largest (each expert counted as its own tensors).
    pub fn largest_tensor(&self) -> u64 {
        let h = self.hidden;
        let expert = self.moe.map_or(0, |m| m.intermediate);
        [
            self.vocab,
            self.intermediate,
            expert,
            self.heads.saturating_mul(self.head_dim()),
        ]
        .into_iter()
        .map(|x| x.saturating_mul(h))
        .max()
        .unwrap_or(0)
    }
}
