//! `config.json` of a Hugging Face model: the shape fields, by the names each `model_type` uses
//! (transformers' `configuration_*.py`), with a multimodal config's `text_config` read for its
//! language model.

use std::path::Path;

use serde_json::{Map, Value};

use super::{ConfigRead, MAX_DIM, MAX_JSON_BYTES, ModelFileError, ModelProblem};
use crate::catalog::model_shape::{AttentionKind, Bias, MlaDims, Mlp, ModelShape, MoeDims, Norm};

struct Fields<'a> {
    map: &'a Map<String, Value>,
    file: &'a Path,
}

impl Fields<'_> {
    /// The first of `keys` that is present, as a count; a value that is not a whole number in
    /// 0..=[`MAX_DIM`] is an error naming the field.
    fn int(&self, keys: &[&str]) -> Result<Option<u64>, ModelFileError> {
        for k in keys {
            match self.map.get(*k) {
                None | Some(Value::Null) => continue,
                Some(v) => {
                    return match v.as_u64().filter(|&n| n <= MAX_DIM) {
                        Some(n) => Ok(Some(n)),
                        None => Err(ModelFileError::new(
                            self.file,
                            ModelProblem::Field((*k).to_string()),
                        )),
                    };
                }
            }
        }
        Ok(None)
    }

    fn bool(&self, key: &str) -> Option<bool> {
        self.map.get(key).and_then(Value::as_bool)
    }

    fn text(&self, key: &str) -> Option<String> {
        self.map
            .get(key)
            .and_then(Value::as_str)
            .map(|s| s.chars().take(64).collect())
    }
}

/// Parses `config.json` text.
///
/// # Errors
/// Not JSON (including nesting beyond serde_json's limit of 128), not an object, or a shape
/// field that is not a sane count.
pub(super) fn parse(file: &Path, text: &str) -> Result<ConfigRead, ModelFileError> {
    let root: Value = serde_json::from_str(text)
        .map_err(|e| ModelFileError::new(file, ModelProblem::json(".", &e)))?;
    let Value::Object(outer) = &root else {
        return Err(ModelFileError::new(
            file,
            ModelProblem::Json {
                field: ".".into(),
                problem: crate::profile::ParseProblem::NotObject,
            },
        ));
    };
    let model_type = outer
        .get("model_type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .chars()
        .take(64)
        .collect::<String>();
    let map = match outer.get("text_config") {
        Some(Value::Object(t)) => t,
        _ => outer,
    };
    let f = Fields { map, file };
    let top = Fields { map: outer, file };
    let text_type = f.text("model_type").unwrap_or_else(|| model_type.clone());
    Ok(ConfigRead {
        file: file.to_path_buf(),
        shape: shape(&f, &text_type)?,
        dtype: f
            .text("torch_dtype")
            .or_else(|| f.text("dtype"))
            .or_else(|| top.text("torch_dtype").or_else(|| top.text("dtype"))),
        max_context: f.int(&["max_position_embeddings", "n_positions", "max_seq_len"])?,
        model_type,
    })
}

/// The shape, `None` when the config lacks the core fields (an encoder, a diffusion model).
fn shape(f: &Fields, model_type: &str) -> Result<Option<ModelShape>, ModelFileError> {
    let (Some(layers), Some(hidden), Some(heads), Some(vocab)) = (
        f.int(&["num_hidden_layers", "n_layer", "num_layers"])?,
        f.int(&["hidden_size", "n_embd", "d_model"])?,
        f.int(&["num_attention_heads", "n_head"])?,
        f.int(&["vocab_size"])?,
    ) else {
        return Ok(None);
    };
    if layers == 0 || hidden == 0 || heads == 0 {
        return Err(ModelFileError::new(
            f.file,
            ModelProblem::Field("num_hidden_layers/hidden_size/num_attention_heads".into()),
        ));
    }
    let t = model_type;
    let plain = matches!(t, "opt" | "gpt2" | "gpt_neox" | "gptj" | "bloom" | "falcon");
    let intermediate = f
        .int(&["intermediate_size", "ffn_dim", "n_inner"])?
        .unwrap_or(4 * hidden);
    let kv_heads = f
        .int(&["num_key_value_heads", "n_head_kv", "num_kv_heads"])?
        .unwrap_or(if f.bool("multi_query") == Some(true) {
            1
        } else {
            heads
        });
    let mla = match f.int(&["kv_lora_rank"])? {
        Some(kv_lora_rank) => Some(MlaDims {
            q_lora_rank: f.int(&["q_lora_rank"])?,
            kv_lora_rank,
            qk_nope_dim: f.int(&["qk_nope_head_dim"])?.unwrap_or(0),
            qk_rope_dim: f.int(&["qk_rope_head_dim"])?.unwrap_or(0),
            v_head_dim: f.int(&["v_head_dim"])?.unwrap_or(0),
        }),
        None => None,
    };
    let moe = match f.int(&["num_local_experts", "num_experts", "n_routed_experts"])? {
        Some(experts) if experts > 1 => Some(MoeDims {
            experts,
            active: f
                .int(&["num_experts_per_tok", "experts_per_token", "moe_topk"])?
                .unwrap_or(1),
            shared: f.int(&["n_shared_experts"])?.unwrap_or(0),
            intermediate: f.int(&["moe_intermediate_size"])?.unwrap_or(intermediate),
            dense_layers: f.int(&["first_k_dense_replace"])?.unwrap_or(0),
            biases: t == "gpt_oss",
        }),
        _ => None,
    };
    let attention = match (mla.is_some(), kv_heads) {
        (true, _) => AttentionKind::Mla,
        (false, k) if k == heads => AttentionKind::Mha,
        (false, 1) => AttentionKind::Mqa,
        _ => AttentionKind::Gqa,
    };
    let bias = match t {
        "qwen2" | "qwen2_moe" => Bias::Qkv,
        "opt" | "gpt2" => Bias::All,
        _ if f.bool("attention_bias") == Some(true) => Bias::Attention,
        _ => Bias::None,
    };
    // transformers' PretrainedConfig ties by default; Llama-family configs default to untied.
    let tied_default = matches!(
        t,
        "gemma" | "gemma2" | "gemma3" | "gemma3_text" | "opt" | "gpt2"
    );
    Ok(Some(ModelShape {
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim: f.int(&["head_dim"])?.filter(|&d| d > 0),
        intermediate,
        vocab,
        tied: f.bool("tie_word_embeddings").unwrap_or(tied_default),
        attention,
        mla,
        moe,
        bias,
        mlp: if plain { Mlp::Plain } else { Mlp::Gated },
        norm: if plain { Norm::Layer } else { Norm::Rms },
        norms_per_layer: if t.starts_with("gemma2") || t.starts_with("gemma3") {
            4
        } else {
            2
        },
        qk_norm: t.starts_with("qwen3") || t.starts_with("gemma3"),
        learned_positions: match t {
            "opt" => f.int(&["max_position_embeddings"])?.unwrap_or(0) + 2,
            "gpt2" => f.int(&["n_positions"])?.unwrap_or(0),
            _ => 0,
        },
        sinks: t == "gpt_oss",
    }))
}

/// Reads and parses `config.json`, opened (named `path` in messages), capped at
/// [`MAX_JSON_BYTES`].
///
/// # Errors
/// As [`parse`], and the file can't be read or is over the cap.
pub(super) fn read(
    path: &Path,
    opened: crate::fsutil::InputFile,
) -> Result<ConfigRead, ModelFileError> {
    let text = crate::fsutil::read_opened_string(opened, MAX_JSON_BYTES).map_err(|e| {
        ModelFileError::new(path, ModelProblem::Io(crate::fsutil::IoProblem::of(&e)))
    })?;
    parse(path, &text)
}
