//! The weights of a served model: the format `--weights` names or a GGUF file holds, and a
//! catalogue model as released when `--weights` is not given.

use clap::ValueEnum;

use crate::advisor::inference::{InferencePlan, WeightFormat};

/// A catalogue model served with no `--weights` (and its parameters not overridden): its
/// released dtype, the row's `dtype` — FP8 for DeepSeek-V3/R1, gpt-oss's MXFP4 experts and bf16
/// rest as bytes (`catalog::models::ModelEntry::released_weight_bytes`); bf16 otherwise.
pub fn as_released(plan: &mut InferencePlan, preset: Option<&str>) {
    let Some(m) = preset.and_then(|id| crate::catalog::catalog().model(id)) else {
        return;
    };
    plan.weight_bytes = m.released_weight_bytes();
    if m.dtype == "fp8" {
        plan.weights = WeightFormat::Fp8;
    }
}

/// The weight format `--weights` names.
pub fn weight_format(w: WeightsArg) -> WeightFormat {
    match w {
        WeightsArg::Bf16 => WeightFormat::Bf16,
        WeightsArg::Fp8 => WeightFormat::Fp8,
        WeightsArg::Int8 => WeightFormat::Int8,
        WeightsArg::Int4 => WeightFormat::Int4,
        WeightsArg::Q4KM => WeightFormat::Q4KM,
        WeightsArg::Q5KM => WeightFormat::Q5KM,
        WeightsArg::Q6K => WeightFormat::Q6K,
    }
}

/// The weight format a GGUF file holds most bytes in: `Q8_0` is INT8, `Q4_K` is `Q4_K_M`'s main
/// type, F16/BF16 are 16-bit; `None` for a mix ramvram has no format for.
pub fn gguf_format(r: &crate::inputs::model_files::ModelRead) -> Option<WeightFormat> {
    r.gguf.as_ref()?;
    let (name, _) = r.tensors.as_ref()?.by_dtype.first()?;
    Some(match name.as_str() {
        "F16" | "BF16" => WeightFormat::Bf16,
        "Q8_0" => WeightFormat::Int8,
        "Q4_K" => WeightFormat::Q4KM,
        "Q5_K" => WeightFormat::Q5KM,
        "Q6_K" => WeightFormat::Q6K,
        "Q4_0" | "IQ4_XS" | "IQ4_NL" => WeightFormat::Int4,
        _ => return None,
    })
}

/// `--weights` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WeightsArg {
    /// bf16/fp16.
    Bf16,
    /// FP8.
    Fp8,
    /// INT8 / GGUF Q8_0.
    Int8,
    /// 4-bit GPTQ/AWQ/NF4.
    Int4,
    /// GGUF Q4_K_M.
    #[value(name = "q4_k_m", alias = "q4-k-m", alias = "q4km")]
    Q4KM,
    /// GGUF Q5_K_M.
    #[value(name = "q5_k_m", alias = "q5-k-m", alias = "q5km")]
    Q5KM,
    /// GGUF Q6_K.
    #[value(name = "q6_k", alias = "q6-k", alias = "q6k")]
    Q6K,
}
