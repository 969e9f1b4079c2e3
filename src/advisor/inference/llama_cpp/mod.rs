//! llama.cpp's own memory model for a GGUF file (the types; the rules are in [`kv`] and
//! [`place`]): the file's tensor bytes by layer and kind, the hyper-parameters its KV cache and
//! recurrent state are sized from, and the cache types `--cache-type-k/-v` take. Every rule names
//! the llama.cpp file and function it follows (`docs/model.md` § "llama.cpp as it allocates").

pub mod compute;
pub mod fit;
pub mod ggml;
pub mod hparams;
pub mod kv;
pub mod place;
pub mod quant;
pub mod quant_tensors;

use serde::{Deserialize, Serialize};

/// What a GGUF tensor is, by its llama.cpp name (`src/llama-arch.cpp`, `LLM_TENSOR_NAMES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TensorKind {
    /// `token_embd.weight`: the input embedding, always in host memory.
    TokenEmbedding,
    /// `output.weight`: the output projection (the "output layer" of `-ngl`).
    Output,
    /// A layer's attention or sequence mixer (`attn_*`, `ssm_*`, `time_mix_*`).
    Attention,
    /// A layer's dense FFN, shared experts and router (`ffn_*` but the routed experts).
    Ffn,
    /// A layer's routed experts: common.h `LLM_FFN_EXPS_REGEX`, `ffn_(up|down|gate|gate_up)_(ch|)exps`.
    Experts,
    /// Norms (`*norm*`), inside or outside the layers.
    Norm,
    /// Anything else outside the layers (`rope_freqs`, …).
    Other,
}

/// The kind of a tensor named `name` (the part after `blk.N.` for a layer's tensor). Experts are
/// what llama.cpp's `--cpu-moe` pattern (common.h `LLM_FFN_EXPS_REGEX`) moves to the host.
pub fn kind_of(name: &str, in_layer: bool) -> TensorKind {
    let base = name.split('.').next().unwrap_or(name);
    let is_expert = base.starts_with("ffn_")
        && ["up", "down", "gate", "gate_up"].iter().any(|p| {
            base.strip_prefix("ffn_")
                .and_then(|r| r.strip_prefix(p))
                .is_some_and(|r| r == "_exps" || r == "_chexps")
        });
    if !in_layer {
        return match base {
            "token_embd" => TensorKind::TokenEmbedding,
            "output" => TensorKind::Output,
            b if b.contains("norm") => TensorKind::Norm,
            _ => TensorKind::Other,
        };
    }
    if is_expert {
        TensorKind::Experts
    } else if base.contains("norm") {
        TensorKind::Norm
    } else if base.starts_with("ffn_") {
        TensorKind::Ffn
    } else {
        TensorKind::Attention
    }
}

/// One layer's tensor bytes by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerBytes {
    /// Attention / sequence-mixer weights.
    pub attention: u64,
    /// Dense FFN (and shared experts, router).
    pub ffn: u64,
    /// Routed experts.
    pub experts: u64,
    /// Norms.
    pub norms: u64,
}

impl LayerBytes {
    /// All of the layer's bytes.
    pub fn total(&self) -> u64 {
        self.attention
            .saturating_add(self.ffn)
            .saturating_add(self.experts)
            .saturating_add(self.norms)
    }
}

/// Where each tensor byte of a GGUF file sits: per layer by kind, and outside the layers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GgufLayout {
    /// `blk.N.*` bytes by N.
    pub layers: Vec<LayerBytes>,
    /// `token_embd.weight` bytes.
    pub token_embedding: u64,
    /// `output.weight` bytes; `None` when the file has none and the output reuses the token
    /// embedding (tied).
    pub output: Option<u64>,
    /// Norms and other tensors outside the layers (`output_norm`, `rope_freqs`).
    pub other: u64,
}

impl GgufLayout {
    /// Adds `bytes` of a tensor of `kind` to layer `layer` (`None`: outside the layers).
    pub fn add(&mut self, layer: Option<usize>, kind: TensorKind, bytes: u64) {
        let Some(n) = layer else {
            match kind {
                TensorKind::TokenEmbedding => {
                    self.token_embedding = self.token_embedding.saturating_add(bytes)
                }
                TensorKind::Output => {
                    self.output = Some(self.output.unwrap_or(0).saturating_add(bytes))
                }
                _ => self.other = self.other.saturating_add(bytes),
            }
            return;
        };
        if self.layers.len() <= n {
            self.layers.resize(n + 1, LayerBytes::default());
        }
        let l = &mut self.layers[n];
        let slot = match kind {
            TensorKind::Experts => &mut l.experts,
            TensorKind::Ffn => &mut l.ffn,
            TensorKind::Norm => &mut l.norms,
            _ => &mut l.attention,
        };
        *slot = slot.saturating_add(bytes);
    }

    /// Every tensor byte of the file.
    pub fn total(&self) -> u64 {
        self.layers
            .iter()
            .map(LayerBytes::total)
            .fold(self.token_embedding, u64::saturating_add)
            .saturating_add(self.output.unwrap_or(0))
            .saturating_add(self.other)
    }
}

/// What a layer keeps per token or per sequence (llama.cpp `llama_hparams::is_swa`, `is_recr`,
/// `has_kv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayerCache {
    /// Full attention: a K (and V) row for every cell of the context.
    Full,
    /// Sliding-window attention: the cells of the window and a micro-batch.
    Sliding,
    /// Recurrent or linear attention: a fixed state per sequence.
    Recurrent,
    /// Neither (an FFN-only layer): no cache (`llama_hparams::has_kv` false).
    Empty,
}

/// The hyper-parameters llama.cpp sizes its caches from, read from the GGUF's metadata.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheShape {
    /// `n_embd_k_gqa`: K elements per cell and layer (`key_length × head_count_kv`;
    /// `kv_lora_rank + rope` for MLA, as stored).
    pub k_per_cell: u64,
    /// `n_embd_v_gqa`: V elements per cell and layer; 0 for MLA, which keeps no V cache
    /// (`llama_kv_cache::llama_kv_cache`, `has_v = !is_mla`).
    pub v_per_cell: u64,
    /// `{arch}.attention.sliding_window` (0: none).
    pub sliding_window: u64,
    /// Each layer's cache.
    pub layers: Vec<LayerCache>,
    /// Recurrent state `r` (convolution) elements per layer and sequence, f32
    /// (`llama_hparams::n_embd_r`).
    pub recurrent_r: u64,
    /// Recurrent state `s` (SSM / linear-attention) elements per layer and sequence, f32
    /// (`llama_hparams::n_embd_s`).
    pub recurrent_s: u64,
}

/// A GGUF model as llama.cpp loads it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlamaModel {
    /// `general.architecture`.
    pub architecture: String,
    /// `{arch}.context_length`: the trained context.
    pub trained_context: u64,
    /// `{arch}.embedding_length`.
    pub embedding: u64,
    /// Vocabulary size (the token embedding's second dimension).
    pub vocab: u64,
    /// `{arch}.attention.head_count`.
    #[serde(default)]
    pub heads: u64,
    /// `{arch}.feed_forward_length` (the dense FFN's width; 0 when per-layer or absent).
    #[serde(default)]
    pub feed_forward: u64,
    /// `{arch}.expert_feed_forward_length × expert_used_count`: the routed experts' width a
    /// token passes through (0 for a dense model).
    #[serde(default)]
    pub expert_feed_forward: u64,
    /// Tensor bytes by layer and kind.
    pub bytes: GgufLayout,
    /// What the caches are sized from.
    pub cache: CacheShape,
}

/// A `--cache-type-k/-v` type (common/arg.cpp `kv_cache_types`), with ggml's block size and
/// bytes per block (ggml/src/ggml.c `type_traits`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheType {
    /// f32: 4 bytes.
    F32,
    /// f16: 2 bytes (llama.cpp's default).
    #[default]
    F16,
    /// bf16: 2 bytes.
    Bf16,
    /// q8_0: 34 bytes per 32.
    Q8_0,
    /// q4_0: 18 bytes per 32.
    Q4_0,
    /// q4_1: 20 bytes per 32.
    Q4_1,
    /// iq4_nl: 18 bytes per 32.
    Iq4Nl,
    /// q5_0: 22 bytes per 32.
    Q5_0,
    /// q5_1: 24 bytes per 32.
    Q5_1,
}

impl CacheType {
    /// (elements per block, bytes per block): ggml/src/ggml.c `type_traits` (`blck_size`,
    /// `type_size`).
    pub fn block(self) -> (u64, u64) {
        match self {
            CacheType::F32 => (1, 4),
            CacheType::F16 | CacheType::Bf16 => (1, 2),
            CacheType::Q8_0 => (32, 34),
            CacheType::Q4_0 | CacheType::Iq4Nl => (32, 18),
            CacheType::Q4_1 => (32, 20),
            CacheType::Q5_0 => (32, 22),
            CacheType::Q5_1 => (32, 24),
        }
    }

    /// ggml's `ggml_row_size`: bytes of `n` elements (whole blocks, rounded up).
    pub fn row_bytes(self, n: u64) -> u64 {
        let (block, bytes) = self.block();
        n.div_ceil(block).saturating_mul(bytes)
    }
}

/// `--flash-attn on|off|auto` (common/arg.cpp; `auto`, the default, turns it on where the
/// device supports it: CUDA, Metal, Vulkan).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlashAttn {
    /// `auto`: on (every GPU backend ramvram advises on supports it).
    #[default]
    Auto,
    /// `on`.
    On,
    /// `off`.
    Off,
}

impl FlashAttn {
    /// Whether flash attention runs.
    pub fn enabled(self) -> bool {
        self != FlashAttn::Off
    }
}

/// llama.cpp's own flags for a plan, each at llama.cpp's default when not given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LlamaSettings {
    /// `--cache-type-k` (default f16).
    #[serde(default)]
    pub cache_type_k: CacheType,
    /// `--cache-type-v` (default f16).
    #[serde(default)]
    pub cache_type_v: CacheType,
    /// `-ub`; `None`: 512.
    #[serde(default)]
    pub ubatch: Option<u64>,
    /// `--flash-attn`.
    #[serde(default)]
    pub flash_attn: FlashAttn,
    /// `--n-cpu-moe N` (0: none; `--cpu-moe` is every layer).
    #[serde(default)]
    pub n_cpu_moe: u64,
    /// `-ts`: each GPU's share (empty: equal).
    #[serde(default)]
    pub tensor_split: Vec<f64>,
    /// No context was given: llama.cpp's fit starts from the trained context
    /// ([`fit::fit`]); the plan's own `context_len` is then ramvram's default.
    #[serde(default)]
    pub context_auto: bool,
    /// The application that starts llama.cpp (`llama-server` itself, or Ollama, whose settings
    /// decide llama-server's arguments: [`super::ollama`]).
    #[serde(default)]
    pub frontend: Frontend,
}

/// The application that launches llama.cpp, and so whose words a change is said in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Frontend {
    /// `llama-server` / `llama-cli` run directly, with llama.cpp's own flags.
    #[default]
    LlamaServer,
    /// Ollama: a Modelfile's `PARAMETER`s and the server's `OLLAMA_*` environment, mapped onto
    /// the `llama-server` launch it makes ([`super::ollama::launch`]).
    Ollama,
}

impl LlamaSettings {
    /// All at llama.cpp's defaults (what a plan without llama.cpp flags serialises as nothing).
    pub fn is_default(&self) -> bool {
        *self == LlamaSettings::default()
    }
}

/// llama.cpp's fit target: 1024 MiB left free on each device (common/common.h,
/// `common_params::fit_params_target`).
pub const FIT_MARGIN_BYTES: u64 = 1024 * 1024 * 1024;
