//! `--inference diffusers`: the diffusion plan from `--preset`/`--model` (a pipeline's name,
//! Hub id or one of its components' rows) and the diffusion flags.

use super::inference_args::{FilesArg, InferenceArgs, OffloadArg, WeightsArg};
use super::model_args::ModelChoice;
use super::training_args::TrainingArgs;
use crate::advisor::inference::diffusers::{CpuOffload, DiffusionPlan};
use crate::advisor::inference::{CheckpointFiles, Engine, InferencePlan, WeightFormat};
use crate::advisor::knobs::{self, KnobId as K};
use crate::advisor::training::TransformerShape;
use crate::catalog::catalog;
use crate::catalog::pipelines::PipelineEntry;
use crate::i18n::{Lang, Msg, tr, trf};

/// The pipeline the model flags name: a pipeline's own name, or the pipeline a component row
/// (`sdxl-unet`) belongs to.
fn pipeline_of(training: &TrainingArgs) -> Option<&'static PipelineEntry> {
    let name = training.preset.as_deref().or(match &training.model {
        Some(ModelChoice::Catalogue(id)) => Some(id.as_str()),
        _ => None,
    })?;
    let c = catalog();
    c.pipeline(name).or_else(|| {
        let id = &c.model(name)?.id;
        c.pipelines
            .iter()
            .find(|p| p.component_ids().any(|x| x == id))
    })
}

/// The diffusers plan these flags describe.
///
/// # Errors
/// No pipeline named, or a flag of a language-model engine or of training.
pub fn plan(
    args: &InferenceArgs,
    lang: Lang,
    training: &TrainingArgs,
) -> Result<InferencePlan, String> {
    let llm_only = [
        (args.context_len.is_some(), K::ContextLen),
        (args.concurrent_sequences.is_some(), K::ConcurrentSequences),
        (args.kv_heads.is_some(), K::KvHeads),
        (args.kv_cache_dtype.is_some(), K::KvCacheDtype),
        (args.n_gpu_layers.is_some(), K::NGpuLayers),
    ];
    if let Some((_, id)) = llm_only.iter().find(|(set, _)| *set) {
        return Err(trf(
            lang,
            Msg::FlagOnlyWith,
            &[
                ("flag", knobs::flag(*id)),
                ("needs", "--inference vllm / llama.cpp / transformers"),
            ],
        ));
    }
    if let Some(flag) = training
        .training_only_flag()
        .filter(|f| *f != knobs::flag(K::CheckpointDtype))
    {
        return Err(trf(lang, Msg::FlagInferenceNotWith, &[("flag", flag)]));
    }
    let Some(pipe) = pipeline_of(training) else {
        return Err(tr(lang, Msg::DiffusionNeedsPipeline).to_string());
    };
    let Some(mut d) = DiffusionPlan::of_pipeline(pipe, &catalog().models) else {
        return Err(tr(lang, Msg::DiffusionNeedsPipeline).to_string());
    };
    let weights = match args.weights {
        None | Some(WeightsArg::Bf16) => WeightFormat::Bf16,
        Some(WeightsArg::Fp8) => WeightFormat::Fp8,
        Some(WeightsArg::Int8) => WeightFormat::Int8,
        Some(WeightsArg::Int4) => WeightFormat::Int4,
        Some(WeightsArg::Q4KM) => WeightFormat::Q4KM,
    };
    let mut plan = InferencePlan::new(
        Engine::Diffusers,
        d.params(),
        TransformerShape::default(),
        weights,
    );
    plan.preset = Some(pipe.denoiser.clone());
    plan.files = match args.checkpoint_files {
        Some(FilesArg::Pickle) => CheckpointFiles::Pickle,
        _ => CheckpointFiles::Safetensors,
    };
    plan.checkpoint_dtype = training.checkpoint_dtype_given();
    plan.checkpoint_shard_bytes = args.checkpoint_shard_size;
    if let Some((w, h)) = args.resolution {
        (d.width, d.height) = (w, h);
    }
    d.images = args.images.unwrap_or(1);
    d.cpu_offload = match args.cpu_offload {
        None | Some(OffloadArg::None) => CpuOffload::None,
        Some(OffloadArg::Model) => CpuOffload::Model,
        Some(OffloadArg::Sequential) => CpuOffload::Sequential,
    };
    d.attention_slicing = args.attention_slicing;
    d.vae_tiling = args.vae_tiling;
    d.single_file = args.single_file;
    plan.diffusion = Some(d);
    Ok(plan)
}
