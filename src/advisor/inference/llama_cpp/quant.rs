//! The type llama.cpp's quantiser gives each tensor of a GGUF file for a file type such as
//! `Q4_K_M`: `llama_tensor_get_type` and `llama_tensor_get_type_impl` in `src/llama-quant.cpp`
//! (llama.cpp as vendored in llama-cpp-python 0.3.36, commit 0c1e570), with its helpers
//! `tensor_allows_quantization`, `tensor_get_category`, `tensor_type_fallback` and
//! `llama_ftype_get_default_type`. Without an importance matrix, manual overrides or
//! `--pure`, which is what the published GGUF files of the common types use. Falcon's own rules
//! are left out (no catalogue model is a Falcon).

use super::ggml::ggml_type;

/// ggml type numbers (`enum ggml_type`, `ggml/include/ggml.h`).
pub mod ty {
    /// 32-bit float.
    pub const F32: u32 = 0;
    /// 16-bit float.
    pub const F16: u32 = 1;
    /// 4.5 bits per weight, blocks of 32.
    pub const Q4_0: u32 = 2;
    /// 5.5 bits per weight, blocks of 32.
    pub const Q5_0: u32 = 6;
    /// 6 bits per weight, blocks of 32.
    pub const Q5_1: u32 = 7;
    /// 8.5 bits per weight, blocks of 32.
    pub const Q8_0: u32 = 8;
    /// 3.4375 bits per weight, super-blocks of 256.
    pub const Q3_K: u32 = 11;
    /// 4.5 bits per weight, super-blocks of 256.
    pub const Q4_K: u32 = 12;
    /// 5.5 bits per weight, super-blocks of 256.
    pub const Q5_K: u32 = 13;
    /// 6.5625 bits per weight, super-blocks of 256.
    pub const Q6_K: u32 = 14;
    /// bfloat16.
    pub const BF16: u32 = 30;
    /// 4.25 bits per weight, blocks of 32 (OCP microscaling FP4).
    pub const MXFP4: u32 = 39;
}

/// A `llama-quantize` file type (`enum llama_ftype`, `include/llama.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    /// `Q4_0`.
    Q4_0,
    /// `Q8_0`.
    Q8_0,
    /// `Q4_K_S`.
    Q4KS,
    /// `Q4_K_M`, the most downloaded.
    Q4KM,
    /// `Q5_K_S`.
    Q5KS,
    /// `Q5_K_M`.
    Q5KM,
    /// `Q6_K`.
    Q6K,
}

impl FileType {
    /// The type of every quantised tensor before the per-tensor rules
    /// (`llama_ftype_get_default_type`).
    pub fn default_type(self) -> u32 {
        match self {
            FileType::Q4_0 => ty::Q4_0,
            FileType::Q8_0 => ty::Q8_0,
            FileType::Q4KS | FileType::Q4KM => ty::Q4_K,
            FileType::Q5KS | FileType::Q5KM => ty::Q5_K,
            FileType::Q6K => ty::Q6_K,
        }
    }
}

/// What the rules read from the model (`llama_model::hparams` and `llama_model::type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantModel {
    /// `hparams.n_layer_all`: decoder layers.
    pub n_layer: u64,
    /// `hparams.n_expert`: routed experts per MoE layer, 0 for a dense model.
    pub n_expert: u64,
    /// `hparams.n_gqa()`: query heads per KV head.
    pub n_gqa: u64,
    /// `model.type == LLM_TYPE_70B` (Llama 2/3 70B and Qwen2 72B: 80 layers with GQA;
    /// `llama_model::load_hparams`).
    pub is_70b: bool,
}

/// One tensor as the converter writes it: its GGUF name, dimensions (`ne`, innermost first)
/// and type before quantising.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    /// GGUF name, e.g. `blk.3.attn_v.weight`.
    pub name: String,
    /// Dimensions, `ne[0]` (a row) first; 1 to 3 of them.
    pub ne: Vec<u64>,
    /// Layer index, `None` outside the decoder layers.
    pub layer: Option<u64>,
    /// Type in the unquantised file (F32 for norms, biases and routers; bf16 for matrices).
    pub source: u32,
}

impl TensorSpec {
    /// Elements: the product of the dimensions (saturating).
    pub fn elements(&self) -> u64 {
        self.ne.iter().fold(1u64, |a, &n| a.saturating_mul(n))
    }
}

/// The categories of `tensor_get_category`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Category {
    TokenEmbd,
    AttnQ,
    AttnV,
    AttnK,
    AttnQkv,
    AttnKvB,
    AttnOutput,
    FfnUp,
    FfnGate,
    FfnDown,
    Output,
    Other,
}

/// `tensor_get_category`: by substring of the name, in llama.cpp's order.
fn category(name: &str) -> Category {
    if name == "output.weight" {
        return Category::Output;
    }
    if name == "token_embd.weight" || name == "per_layer_token_embd.weight" {
        return Category::TokenEmbd;
    }
    let table = [
        ("attn_qkv.weight", Category::AttnQkv),
        ("attn_kv_b.weight", Category::AttnKvB),
        ("attn_v.weight", Category::AttnV),
        ("attn_k.weight", Category::AttnK),
        ("attn_q.weight", Category::AttnQ),
        ("attn_output.weight", Category::AttnOutput),
        ("ffn_up", Category::FfnUp),
        ("ffn_gate", Category::FfnGate),
        ("ffn_down", Category::FfnDown),
    ];
    table
        .iter()
        .find(|(pat, _)| name.contains(pat))
        .map_or(Category::Other, |&(_, c)| c)
}

/// `category_is_attn_v`.
fn is_attn_v(c: Category) -> bool {
    matches!(c, Category::AttnV | Category::AttnQkv | Category::AttnKvB)
}

/// `tensor_allows_quantization`, for the names a catalogue model's tensors have: 2-D and 3-D
/// tensors whose name ends in `weight`, except norms, MoE routers and `ssm_conv1d`.
fn allows_quantization(t: &TensorSpec) -> bool {
    t.ne.len() >= 2
        && t.name.ends_with("weight")
        && !t.name.contains("_norm.weight")
        && !t.name.contains("ffn_gate_inp.weight")
        && !t.name.contains("ssm_conv1d")
}

/// The `use_more_bits` lambda: the first and last eighth of the layers and every third between.
fn use_more_bits(i: u64, n: u64) -> bool {
    let (i, n) = (i as i64, n as i64);
    i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2
}

/// ggml's block size of a type (1 for an unknown number, which then never falls back).
fn block(t: u32) -> u64 {
    ggml_type(t).map_or(1, |(_, b, _)| b)
}

/// `tensor_type_fallback`: a row not divisible by the type's block takes the 32-block type of
/// about the same size, or F16 when even that doesn't divide.
fn fallback(ne0: u64, target: u32) -> u32 {
    if ne0 % block(target) == 0 {
        return target;
    }
    let t = match target {
        ty::Q3_K => ty::Q4_0,
        ty::Q4_K => ty::Q5_0,
        ty::Q5_K => ty::Q5_1,
        ty::Q6_K => ty::Q8_0,
        other => other,
    };
    if ne0 % block(t) == 0 { t } else { ty::F16 }
}

/// The type each tensor gets, in file order: `llama_tensor_get_type` with the counters of
/// `quantize_state_impl` (`n_attention_wv` from `init_quantize_state_counters`; the output
/// rules applied to the token embedding when the file has no `output.weight`).
pub fn choose_types(m: &QuantModel, tensors: &[TensorSpec], ftype: FileType) -> Vec<u32> {
    let n_attention_wv = tensors
        .iter()
        .filter(|t| is_attn_v(category(&t.name)))
        .count() as u64;
    let tied = !tensors
        .iter()
        .any(|t| category(&t.name) == Category::Output);
    let (mut i_attention_wv, mut i_ffn_down) = (0u64, 0u64);
    let default = ftype.default_type();
    tensors
        .iter()
        .map(|t| {
            if !allows_quantization(t) {
                return t.source;
            }
            let c = category(&t.name);
            let ne0 = t.ne.first().copied().unwrap_or(1);
            let mut new = default;
            if c == Category::Output || (tied && c == Category::TokenEmbd) {
                new = if ne0 % block(default) != 0 {
                    ty::Q8_0
                } else if default != ty::Q8_0 {
                    ty::Q6_K
                } else {
                    default
                };
            } else if is_attn_v(c) {
                let more = use_more_bits(i_attention_wv, n_attention_wv);
                if matches!(ftype, FileType::Q4KM | FileType::Q5KM) && more {
                    new = ty::Q6_K;
                } else if ftype == FileType::Q4KS && i_attention_wv < 4 {
                    new = ty::Q5_K;
                }
                if m.is_70b && matches!(new, ty::Q3_K | ty::Q4_K) {
                    new = ty::Q5_K;
                }
                if m.n_expert == 8 {
                    new = ty::Q8_0;
                }
                i_attention_wv += 1;
            } else if c == Category::AttnK && m.n_expert == 8 {
                new = ty::Q8_0;
            } else if c == Category::FfnDown {
                // `layer_info`: the running count for a dense model, the name's layer for MoE.
                let i = if m.n_expert > 1 {
                    t.layer.unwrap_or(0)
                } else {
                    i_ffn_down
                };
                let n = m.n_layer;
                new = match ftype {
                    FileType::Q4KM | FileType::Q5KM if use_more_bits(i, n) => ty::Q6_K,
                    FileType::Q4KS if i < n / 8 => ty::Q5_K,
                    _ => new,
                };
                i_ffn_down += 1;
            } else if c == Category::AttnOutput && m.n_expert == 8 {
                if matches!(ftype, FileType::Q4KS | FileType::Q4KM) {
                    new = ty::Q5_K;
                }
            } else if c == Category::AttnQkv {
                new = match ftype {
                    FileType::Q4KM => ty::Q5_K,
                    FileType::Q5KM => ty::Q6_K,
                    _ => new,
                };
            }
            fallback(ne0, new)
        })
        .collect()
}

/// Bytes of a tensor stored as ggml type `t`: rows × (`ne[0]` ÷ block) × block bytes
/// (`ggml_row_size`); `None` for an unknown type or a row the block doesn't divide.
pub fn tensor_bytes(spec: &TensorSpec, t: u32) -> Option<u64> {
    let (_, blk, size) = ggml_type(t)?;
    let ne0 = *spec.ne.first()?;
    if ne0 % blk != 0 {
        return None;
    }
    let rows = spec.elements() / ne0.max(1);
    rows.checked_mul(ne0 / blk)?.checked_mul(size)
}

/// Total bytes of the tensors as `llama-quantize` writes them for `ftype`.
pub fn quantised_bytes(m: &QuantModel, tensors: &[TensorSpec], ftype: FileType) -> Option<u64> {
    let types = choose_types(m, tensors, ftype);
    tensors
        .iter()
        .zip(types)
        .try_fold(0u64, |acc, (t, ty)| acc.checked_add(tensor_bytes(t, ty)?))
}
