//! Diffusion pipelines (`assets/catalog/pipelines.csv`): what people load when they name
//! `sdxl` or `stabilityai/stable-diffusion-xl-base-1.0` — the denoiser (UNet or transformer),
//! the text encoders and the VAE, each a row of the model catalogue with its own name
//! (`sdxl-unet`, `clip-vit-l-text`, `sd-vae`), as the pipeline's `model_index.json` lists them.

use serde::Deserialize;

use super::models::ModelEntry;
use super::rows::{Named, list};

/// One catalogue row as the CSV spells it.
#[derive(Debug, Deserialize)]
struct Row {
    id: String,
    hub_id: String,
    aliases: String,
    name: String,
    denoiser: String,
    text_encoders: String,
    vae: String,
    architecture: String,
    guidance_batch: u64,
    resolution: u32,
    source: String,
}

/// One diffusion pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct PipelineEntry {
    /// Stable id (`--preset sdxl`).
    pub id: String,
    /// Hugging Face Hub id of the diffusers repository.
    pub hub_id: String,
    /// Other names it goes by.
    pub aliases: Vec<String>,
    /// Display name (a model name, not translated).
    pub name: String,
    /// The denoiser's model row id (`sdxl-unet`).
    pub denoiser: String,
    /// The text encoders' model row ids, in the order the pipeline runs them.
    pub text_encoders: Vec<String>,
    /// The VAE's model row id.
    pub vae: String,
    /// The denoiser's architecture, a key of
    /// [`crate::advisor::diffusion::arch::denoiser`] (`sd15-unet`, `flux-dit`).
    pub architecture: String,
    /// Denoiser passes per image and step: 2 with classifier-free guidance (the pipeline
    /// concatenates the unconditional and the conditional batch), 1 for guidance-distilled
    /// models (FLUX.1).
    pub guidance_batch: u64,
    /// The default side, pixels (the denoiser's `sample_size` × the VAE's scale factor 8).
    pub resolution: u32,
    /// The files its figures were read from.
    pub source: String,
}

/// Parses `pipelines.csv`; a malformed row is a build defect, reported with its row number.
pub(super) fn parse(text: &str) -> Vec<PipelineEntry> {
    super::rows::parse("pipelines.csv", text, |r: Row| {
        Ok(PipelineEntry {
            aliases: list(&r.aliases),
            text_encoders: list(&r.text_encoders),
            id: r.id,
            hub_id: r.hub_id,
            name: r.name,
            denoiser: r.denoiser,
            vae: r.vae,
            architecture: r.architecture,
            guidance_batch: r.guidance_batch,
            resolution: r.resolution,
            source: r.source,
        })
    })
}

impl Named for PipelineEntry {
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

impl PipelineEntry {
    /// The component rows' ids in the order the pipeline runs them: text encoders, denoiser,
    /// VAE.
    pub fn component_ids(&self) -> impl Iterator<Item = &str> {
        self.text_encoders
            .iter()
            .map(String::as_str)
            .chain([self.denoiser.as_str(), self.vae.as_str()])
    }
}

/// The pipeline `name` names (id, Hub id, its model part or an alias), ignoring case.
pub fn find<'a>(pipelines: &'a [PipelineEntry], name: &str) -> Option<&'a PipelineEntry> {
    super::rows::find(pipelines, name)
}

/// The model rows of `p`'s components, in the order it runs them; `None` when a row is missing
/// (a catalogue defect the tests catch).
pub fn components<'a>(p: &PipelineEntry, models: &'a [ModelEntry]) -> Option<Vec<&'a ModelEntry>> {
    p.component_ids()
        .map(|id| models.iter().find(|m| m.id == id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    /// The names people use mean the pipeline; the component rows keep names of their own.
    #[test]
    fn names_mean_the_pipeline_and_components_keep_theirs() {
        let c = catalog();
        let id = |n: &str| c.pipeline(n).map(|p| p.id.as_str());
        assert_eq!(id("sdxl"), Some("sdxl"));
        assert_eq!(id("stabilityai/stable-diffusion-xl-base-1.0"), Some("sdxl"));
        assert_eq!(id("black-forest-labs/FLUX.1-dev"), Some("flux1-dev"));
        assert_eq!(id("runwayml/stable-diffusion-v1-5"), Some("sd15"));
        assert_eq!(id("sdxl-unet"), None);
        assert_eq!(c.model("sdxl-unet").map(|m| m.params), Some(2_567_463_684));
        assert!(c.model("sdxl").is_none());
        // No pipeline name is also a model row's name.
        for p in &c.pipelines {
            for n in p.names() {
                assert!(c.model(n).is_none(), "{n} names a pipeline and a model");
            }
        }
    }

    /// Every component row exists, and the pipelines add up to their published sizes: SD 1.5's
    /// UNet 859,520,964 + CLIP-L 123,060,480 + VAE 83,653,863 = 1,066,235,307 parameters, which
    /// at 4 bytes are the 4.27 GB of `v1-5-pruned-emaonly.safetensors` and at 2 bytes the
    /// 2.13 GB of its fp16 file (sizes on the Hub's file list).
    #[test]
    fn components_exist_and_add_up() {
        let c = catalog();
        for p in &c.pipelines {
            let parts = components(p, &c.models).unwrap_or_else(|| panic!("{}", p.id));
            assert_eq!(parts.len(), p.text_encoders.len() + 2, "{}", p.id);
            assert!(!p.source.is_empty());
            assert!(crate::advisor::diffusion::arch::denoiser(&p.architecture).is_some());
        }
        let sum = |id: &str| -> u64 {
            components(c.pipeline(id).unwrap(), &c.models)
                .unwrap()
                .iter()
                .map(|m| m.params)
                .sum()
        };
        assert_eq!(sum("sd15"), 859_520_964 + 123_060_480 + 83_653_863);
        assert_eq!(sum("sd15"), 1_066_235_307);
        assert!((sum("sd15") as f64 * 4.0 / 1e9 - 4.265).abs() < 0.001);
        // FLUX.1 [dev]: 11.9 B transformer + 4.76 B T5 + 0.12 B CLIP + 0.08 B VAE ≈ 16.87 B
        // (the bf16 repository's ~33.7 GB of weights).
        let flux = sum("flux1-dev");
        assert_eq!(
            flux,
            11_901_408_320 + 4_762_310_656 + 123_060_480 + 83_819_683
        );
    }
}
