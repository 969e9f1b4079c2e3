//! Diffusion pipelines served with Hugging Face diffusers (`--inference diffusers`): the types
//! of a plan — the text encoders, the denoiser (UNet or diffusion transformer) and the VAE,
//! the image, diffusers' two CPU offloads (`DiffusionPipeline.enable_model_cpu_offload` and
//! `enable_sequential_cpu_offload` in `src/diffusers/pipelines/pipeline_utils.py`), attention
//! slicing, VAE tiling and an all-in-one checkpoint — and the shapes of the denoisers
//! ([`arch`]). The estimate is [`crate::advisor::inference::diffusers`]. Formulas in
//! `docs/model.md` § "Diffusion pipelines".

pub mod arch;

use serde::{Deserialize, Serialize};

/// Where the pipeline's components wait between their turns on the GPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CpuOffload {
    /// `pipe.to("cuda")`: every component on the GPU for the whole run.
    #[default]
    None,
    /// `enable_model_cpu_offload()`: one whole component (text encoder, denoiser, VAE) on the
    /// GPU at a time, in `model_cpu_offload_seq` order; the others in host RAM.
    Model,
    /// `enable_sequential_cpu_offload()`: one submodule's weights at a time (accelerate's
    /// `cpu_offload` hooks on every leaf module); the whole state dict in host RAM.
    Sequential,
}

/// One component of a pipeline, as the catalogue gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Component {
    /// The model row's id (`sd15-unet`, `clip-vit-l-text`).
    pub id: String,
    /// What it does in the pipeline.
    pub role: Role,
    /// Parameters.
    pub params: u64,
    /// Its largest single tensor, elements (what sequential offload holds on the GPU at once).
    pub largest_tensor: u64,
}

/// A component's part in the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Encodes the prompt (CLIP, OpenCLIP, T5): runs once per prompt.
    TextEncoder,
    /// The UNet or diffusion transformer: runs every step.
    Denoiser,
    /// Decodes the latents into pixels: runs once at the end.
    Vae,
}

/// What a diffusion plan adds to an [`crate::advisor::inference::InferencePlan`] whose engine is
/// [`crate::advisor::inference::Engine::Diffusers`]: the pipeline, the image and the memory switches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffusionPlan {
    /// The pipeline's catalogue id (`sd15`, `sdxl`, `flux1-dev`), if it came from one.
    #[serde(default)]
    pub pipeline: Option<String>,
    /// The components, in the order the pipeline runs them.
    #[serde(default)]
    pub components: Vec<Component>,
    /// The denoiser's architecture key ([`arch::denoiser`]).
    #[serde(default)]
    pub architecture: String,
    /// Denoiser passes per image and step: 2 with classifier-free guidance, 1 for FLUX.1.
    #[serde(default = "two")]
    pub guidance_batch: u64,
    /// Image width and height, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// Images generated at once (`num_images_per_prompt` × prompts).
    #[serde(default = "one")]
    pub images: u64,
    /// diffusers' CPU offload.
    #[serde(default)]
    pub cpu_offload: CpuOffload,
    /// `enable_attention_slicing()`: the sliced attention processor (scores of half the heads at
    /// a time) instead of PyTorch's fused `scaled_dot_product_attention`.
    #[serde(default)]
    pub attention_slicing: bool,
    /// `enable_vae_tiling()`: the VAE decodes tiles of its `sample_size`.
    #[serde(default)]
    pub vae_tiling: bool,
    /// An all-in-one checkpoint (`from_single_file`, a web UI's `.ckpt`/`.safetensors`): one file
    /// holding every component, read whole into host RAM beside the pipeline built from it.
    #[serde(default)]
    pub single_file: bool,
}

impl Default for DiffusionPlan {
    /// No pipeline yet, 512 × 512, one image with guidance, every component on the GPU.
    fn default() -> Self {
        DiffusionPlan {
            pipeline: None,
            components: Vec::new(),
            architecture: String::new(),
            guidance_batch: 2,
            width: 512,
            height: 512,
            images: 1,
            cpu_offload: CpuOffload::None,
            attention_slicing: false,
            vae_tiling: false,
            single_file: false,
        }
    }
}

impl DiffusionPlan {
    /// Pipeline `pipe` as the catalogue gives it (its components' rows from `models`), at its
    /// default resolution, one image, no offload; `None` when a component row is missing.
    pub fn of_pipeline(
        pipe: &crate::catalog::pipelines::PipelineEntry,
        models: &[crate::catalog::models::ModelEntry],
    ) -> Option<DiffusionPlan> {
        let rows = crate::catalog::pipelines::components(pipe, models)?;
        let n_text = pipe.text_encoders.len();
        let components = rows
            .iter()
            .enumerate()
            .map(|(i, m)| Component {
                id: m.id.clone(),
                role: match i {
                    i if i < n_text => Role::TextEncoder,
                    i if i == n_text => Role::Denoiser,
                    _ => Role::Vae,
                },
                params: m.params,
                largest_tensor: m.largest_tensor().unwrap_or(0),
            })
            .collect();
        Some(DiffusionPlan {
            pipeline: Some(pipe.id.clone()),
            components,
            architecture: pipe.architecture.clone(),
            guidance_batch: pipe.guidance_batch,
            width: pipe.resolution,
            height: pipe.resolution,
            ..DiffusionPlan::default()
        })
    }

    /// All the components' parameters.
    pub fn params(&self) -> u64 {
        self.components.iter().map(|c| c.params).sum()
    }
}

fn two() -> u64 {
    2
}
fn one() -> u64 {
    1
}

/// The parts of a diffusion estimate the sentences name (`inference_memory.diffusion` in
/// `advise --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffusionMemory {
    /// Each component's weights in the served format, bytes, in the pipeline's order.
    pub component_bytes: Vec<(String, u64)>,
    /// The denoiser's working memory at the resolution and batch, bytes.
    pub denoiser_activation_bytes: u64,
    /// The VAE decoder's peak working memory, bytes.
    pub vae_decode_bytes: u64,
    /// The checkpoint file read whole while loading (an all-in-one file), bytes; 0 for a
    /// diffusers folder, whose safetensors are memory-mapped.
    pub checkpoint_read_bytes: u64,
    /// The latent's side: width ÷ 8 × height ÷ 8.
    pub latent_pixels: u64,
}
