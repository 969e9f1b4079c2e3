//! `--inference diffusers`: the diffusion flags, and the plan from `--preset`/`--model` (a
//! pipeline's name, Hub id or one of its components' rows) with them.

use clap::{Args, ValueEnum};

use super::model_args::ModelChoice;
use super::training_args::TrainingArgs;
use crate::advisor::diffusion::{CpuOffload, DiffusionPlan};
use crate::advisor::inference::{Engine, InferencePlan, WeightFormat};
use crate::advisor::knobs::KnobId as K;
use crate::advisor::training::TransformerShape;
use crate::catalog::catalog;
use crate::catalog::pipelines::PipelineEntry;
use crate::i18n::{Lang, Msg, tr};

/// Flags of a diffusion pipeline served with diffusers.
#[derive(Debug, Default, Args)]
pub struct DiffusionArgs {
    /// diffusers: the image's WIDTHxHEIGHT (default: the pipeline's).
    #[arg(long, value_parser = crate::parse::parse_resolution)]
    pub resolution: Option<(u32, u32)>,
    /// diffusers: images generated at once (default 1).
    #[arg(long)]
    pub images: Option<u64>,
    /// diffusers: enable_model_cpu_offload (model) or enable_sequential_cpu_offload (sequential).
    #[arg(long, value_enum)]
    pub cpu_offload: Option<OffloadArg>,
    /// diffusers: enable_attention_slicing().
    #[arg(long)]
    pub attention_slicing: bool,
    /// diffusers: enable_vae_tiling().
    #[arg(long)]
    pub vae_tiling: bool,
    /// diffusers: an all-in-one checkpoint read whole while loading.
    #[arg(long)]
    pub single_file: bool,
}

/// `--cpu-offload` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OffloadArg {
    /// Every component on the GPU.
    None,
    /// enable_model_cpu_offload().
    Model,
    /// enable_sequential_cpu_offload().
    Sequential,
}

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

impl DiffusionArgs {
    /// The diffusion flags and whether each is given.
    pub fn given(&self) -> impl Iterator<Item = (bool, K)> {
        [
            (self.resolution.is_some(), K::DiffusionResolution),
            (self.images.is_some(), K::DiffusionImages),
            (self.cpu_offload.is_some(), K::DiffusionOffload),
            (self.attention_slicing, K::AttentionSlicing),
            (self.vae_tiling, K::VaeTiling),
            (self.single_file, K::SingleFile),
        ]
        .into_iter()
    }

    /// The diffusers plan of the pipeline the model flags name, served in `weights` (default
    /// bf16/fp16), from a diffusers folder of safetensors unless the caller says otherwise.
    ///
    /// # Errors
    /// No pipeline named.
    pub fn plan(
        &self,
        lang: Lang,
        training: &TrainingArgs,
        weights: Option<WeightFormat>,
    ) -> Result<InferencePlan, String> {
        let none = || tr(lang, Msg::DiffusionNeedsPipeline).to_string();
        let pipe = pipeline_of(training).ok_or_else(none)?;
        let mut d = DiffusionPlan::of_pipeline(pipe, &catalog().models).ok_or_else(none)?;
        if let Some((w, h)) = self.resolution {
            (d.width, d.height) = (w, h);
        }
        d.images = self.images.unwrap_or(1);
        d.cpu_offload = match self.cpu_offload {
            None | Some(OffloadArg::None) => CpuOffload::None,
            Some(OffloadArg::Model) => CpuOffload::Model,
            Some(OffloadArg::Sequential) => CpuOffload::Sequential,
        };
        d.attention_slicing = self.attention_slicing;
        d.vae_tiling = self.vae_tiling;
        d.single_file = self.single_file;
        let mut plan = InferencePlan::new(
            Engine::Diffusers,
            d.params(),
            TransformerShape::default(),
            weights.unwrap_or(WeightFormat::Bf16),
        );
        plan.preset = Some(pipe.denoiser.clone());
        plan.diffusion = Some(d);
        Ok(plan)
    }
}
