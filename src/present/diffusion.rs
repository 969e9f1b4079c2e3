//! Words for a diffusion pipeline's memory (`--inference diffusers`): the plan in one line, the
//! components' weights and the working memory at the resolution. Shared by the terminal, the
//! reports and the window through [`super::inference`].

use crate::advisor::diffusion::CpuOffload;
use crate::advisor::inference::InferenceMemory;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

/// The offload as diffusers names it.
fn offload(lang: Lang, o: CpuOffload) -> &'static str {
    match o {
        CpuOffload::None => tr(lang, Msg::DiffusionOffloadNone),
        CpuOffload::Model => "enable_model_cpu_offload()",
        CpuOffload::Sequential => "enable_sequential_cpu_offload()",
    }
}

/// "diffusers · sd15 · 512×512 × 1 image · bf16 · enable_model_cpu_offload()", `weights` being
/// the served format's name; `None` for another engine's plan.
pub fn summary(lang: Lang, m: &InferenceMemory, weights: &str) -> Option<String> {
    let d = m.plan.diffusion.as_ref()?;
    let mut switches = vec![offload(lang, d.cpu_offload)];
    if d.attention_slicing {
        switches.push("enable_attention_slicing()");
    }
    if d.vae_tiling {
        switches.push("enable_vae_tiling()");
    }
    if d.single_file {
        switches.push("from_single_file()");
    }
    Some(trf(
        lang,
        Msg::DiffusionSummary,
        &[
            ("pipeline", d.pipeline.as_deref().unwrap_or("?")),
            ("params", &format::params(m.plan.params)),
            ("weights", weights),
            ("width", &d.width.to_string()),
            ("height", &d.height.to_string()),
            ("images", &d.images.to_string()),
            ("switches", &switches.join(" · ")),
        ],
    ))
}

/// The components' weights and the working memory: "Weights 1.99 GiB (sd15-unet 1.6 GiB, …);
/// the denoiser's working memory 85 MiB at a 64×64 latent, the VAE decoder's peak 384 MiB";
/// `None` for another engine's plan.
pub fn weights_and_activations(lang: Lang, m: &InferenceMemory) -> Option<String> {
    let d = m.diffusion.as_ref()?;
    let parts: Vec<String> = d
        .component_bytes
        .iter()
        .map(|(id, b)| format!("{id} {}", format::gib(*b)))
        .collect();
    let mut s = trf(
        lang,
        Msg::DiffusionWeightsAndActivations,
        &[
            ("weights", &format::gib(m.weights_bytes)),
            ("parts", &parts.join(", ")),
            ("denoiser", &format::gib(d.denoiser_activation_bytes)),
            ("latent", &format::thousands(d.latent_pixels)),
            ("vae", &format::gib(d.vae_decode_bytes)),
        ],
    );
    if d.checkpoint_read_bytes > 0 {
        s.push(' ');
        s.push_str(&trf(
            lang,
            Msg::DiffusionSingleFile,
            &[("bytes", &format::gib(d.checkpoint_read_bytes))],
        ));
    }
    Some(s)
}
