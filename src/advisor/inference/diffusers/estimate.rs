//! A diffusion pipeline's memory by phase: loading (the pipeline built in host RAM, an
//! all-in-one checkpoint read whole beside it) and generating (the components on the GPU as
//! diffusers' offload places them, with the denoiser's or the VAE's working memory).

use crate::advisor::diffusion::{CpuOffload, DiffusionMemory, DiffusionPlan, Role, arch};
use crate::advisor::headroom::LimitKind;
use crate::advisor::inference::{CheckpointFiles, InferenceError, InferenceMemory, InferencePlan};
use crate::advisor::overhead::Overheads;
use crate::advisor::training::{CapacityCheck, Phase, PhaseId};
use crate::units::saturating_bytes;

/// The largest side accepted, pixels (diffusers has no limit; beyond 16,384 is a typo).
const MAX_SIDE: u32 = 16_384;

fn validate(p: &InferencePlan, d: &DiffusionPlan) -> Result<arch::Denoiser, InferenceError> {
    let den = arch::denoiser(&d.architecture).ok_or(InferenceError::Zero)?;
    let ok_side = |s: u32| (8..=MAX_SIDE).contains(&s);
    if !ok_side(d.width)
        || !ok_side(d.height)
        || d.images == 0
        || d.images > 1024
        || !(1..=2).contains(&d.guidance_batch)
        || d.components.is_empty()
        || !d.components.iter().any(|c| c.role == Role::Denoiser)
        || d.components
            .iter()
            .any(|c| c.params == 0 || c.params > 1 << 44)
        || p.gpus == 0
    {
        return Err(InferenceError::Zero);
    }
    Ok(den)
}

/// The sum of the components' bytes that play `role`, or the largest when `max`.
fn of_role(bytes: &[(Role, u64)], role: Role, max: bool) -> u64 {
    let it = bytes.iter().filter(|(r, _)| *r == role).map(|(_, b)| *b);
    if max { it.max().unwrap_or(0) } else { it.sum() }
}

/// The pipeline `p` (its [`DiffusionPlan`]) on a GPU of `gpu_total` bytes with `usable` bytes
/// of host RAM.
///
/// - GPU while generating: without offload every component plus the larger of the denoiser's
///   and the VAE's working memory; with `enable_model_cpu_offload` the largest of (each text
///   encoder), (the denoiser + its working memory), (the VAE + its decode peak), since the
///   hook of each component moves the previous one back to the CPU; with
///   `enable_sequential_cpu_offload` the largest single tensor plus that working memory.
/// - Host while generating: nothing of the weights without offload (`.to("cuda")` moves
///   them); all of them with either offload (accelerate keeps the CPU copy, not pinned).
/// - Host while loading: the pipeline built in host RAM in the served dtype, plus what is read
///   at once: an all-in-one file whole (`torch.load` of a pickle; `safetensors.torch.load_file`
///   of a single `.safetensors`, as `from_single_file` and web UIs read it), a component's
///   pickle (`.bin`), or one tensor of a memory-mapped safetensors folder.
///
/// The OS and the one Python process are the machine's (`o`, [`crate::advisor::overhead`]).
///
/// # Errors
/// [`InferenceError::Zero`] for a missing or out-of-range diffusion plan.
pub fn judge(
    p: &InferencePlan,
    gpu_total: Option<u64>,
    usable: Option<u64>,
    o: &Overheads,
) -> Result<InferenceMemory, InferenceError> {
    let d = p.diffusion.as_ref().ok_or(InferenceError::Zero)?;
    let den = validate(p, d)?;
    let per = p.weights.bytes();
    let stored = p.checkpoint_dtype.map_or(per, |c| c.bytes());
    let bytes: Vec<(Role, u64)> = d
        .components
        .iter()
        .map(|c| (c.role, saturating_bytes(c.params as f64 * per)))
        .collect();
    let total: u64 = bytes.iter().map(|(_, b)| *b).sum();
    let params: u64 = d.components.iter().map(|c| c.params).sum();
    let (w, h) = (u64::from(d.width), u64::from(d.height));
    let (lw, lh) = (w / arch::VAE_SCALE, h / arch::VAE_SCALE);
    let batch = d.images.saturating_mul(d.guidance_batch);
    let act_denoise = arch::denoiser_bytes(&den, lw, lh, batch, per, d.attention_slicing);
    let act_vae = arch::vae_decode_bytes(&den, w, h, d.images, per, d.vae_tiling);
    let largest = d
        .components
        .iter()
        .map(|c| c.largest_tensor)
        .max()
        .unwrap_or(0);
    let (gpu_loading, gpu_generating, host_generating) = match d.cpu_offload {
        CpuOffload::None => (total, total.saturating_add(act_denoise.max(act_vae)), 0),
        CpuOffload::Model => {
            let text = of_role(&bytes, Role::TextEncoder, true);
            let denoise = of_role(&bytes, Role::Denoiser, false).saturating_add(act_denoise);
            let decode = of_role(&bytes, Role::Vae, false).saturating_add(act_vae);
            (0, text.max(denoise).max(decode), total)
        }
        CpuOffload::Sequential => {
            let tensor = saturating_bytes(largest as f64 * per);
            (0, tensor.saturating_add(act_denoise.max(act_vae)), total)
        }
    };
    let file = saturating_bytes(params as f64 * stored);
    let (read, page_cache) = match (d.single_file, p.files) {
        (true, _) => (p.checkpoint_shard_bytes.unwrap_or(file), 0),
        (false, CheckpointFiles::Pickle) => {
            let biggest = d.components.iter().map(|c| c.params).max().unwrap_or(0);
            (saturating_bytes(biggest as f64 * stored), 0)
        }
        (false, CheckpointFiles::Safetensors) => {
            (saturating_bytes(largest as f64 * stored).min(file), file)
        }
    };
    let runtime = o.runtime(1);
    let phases = vec![
        Phase {
            phase: PhaseId::Loading,
            cpu_bytes_per_node: total.saturating_add(read).saturating_add(runtime),
            gpu_bytes_per_gpu: gpu_loading,
        },
        Phase {
            phase: PhaseId::Serving,
            cpu_bytes_per_node: host_generating.saturating_add(runtime),
            gpu_bytes_per_gpu: gpu_generating,
        },
    ];
    let cpu_peak = crate::advisor::training::peak_cpu(&phases);
    let gpu_peak = crate::advisor::training::peak_gpu(&phases);
    let gpu = CapacityCheck::new(LimitKind::Vram, gpu_peak, gpu_total);
    let cpu = CapacityCheck::new(LimitKind::Ram, cpu_peak, usable);
    let fits = crate::advisor::check::all_fit(&[Some(gpu.fits), Some(cpu.fits)]);
    Ok(InferenceMemory {
        plan: p.clone(),
        weights_bytes: total,
        kv_cache_bytes: 0,
        kv_bytes_per_token: 0,
        phases,
        cpu_peak_bytes_per_node: cpu_peak,
        gpu_peak_bytes_per_gpu: gpu_peak,
        gpu_reserved_bytes_per_gpu: None,
        swap_space_bytes: 0,
        weights_on_cpu_bytes: host_generating,
        gpu_layers: 0,
        page_cache_bytes: page_cache,
        runtime_bytes_per_node: runtime,
        gpu,
        cpu,
        fits,
        llama_cpp: None,
        diffusion: Some(DiffusionMemory {
            component_bytes: d
                .components
                .iter()
                .zip(&bytes)
                .map(|(c, (_, b))| (c.id.clone(), *b))
                .collect(),
            denoiser_activation_bytes: act_denoise,
            vae_decode_bytes: act_vae,
            checkpoint_read_bytes: if d.single_file { read } else { 0 },
            latent_pixels: lw.saturating_mul(lh),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::inference::{Engine, WeightFormat};
    use crate::advisor::training::{CheckpointDtype, TransformerShape};
    use crate::catalog::catalog;
    use crate::units::GIB;

    /// On a workstation: the OS 2 GiB and the process 3 GiB (`Overheads::TYPICAL`).
    fn judge(
        p: &InferencePlan,
        gpu_total: Option<u64>,
        usable: Option<u64>,
    ) -> Result<InferenceMemory, InferenceError> {
        super::judge(p, gpu_total, usable, &Overheads::TYPICAL)
    }

    /// Pipeline `id` in fp16/bf16 with `f` applied to its diffusion part.
    fn plan(id: &str, f: impl Fn(&mut DiffusionPlan)) -> InferencePlan {
        let c = catalog();
        let mut d = DiffusionPlan::of_pipeline(c.pipeline(id).unwrap(), &c.models).unwrap();
        f(&mut d);
        let mut p = InferencePlan::new(
            Engine::Diffusers,
            d.params(),
            TransformerShape::default(),
            WeightFormat::Bf16,
        );
        p.diffusion = Some(d);
        p
    }

    fn phase(m: &InferenceMemory, id: PhaseId) -> Phase {
        *m.phases.iter().find(|p| p.phase == id).unwrap()
    }

    /// Issue 33, case 3: SD 1.5 served from its all-in-one safetensors at 512 × 512 on a 4 GB
    /// GPU with `enable_model_cpu_offload()`, worked by hand from the components' sizes.
    ///
    /// The Hub's `v1-5-pruned-emaonly.safetensors` is 4,265,146,304 bytes: its 1,066,235,307
    /// parameters (UNet 859,520,964 + CLIP-L 123,060,480 + VAE 83,653,863) × 4 bytes =
    /// 4,264,941,228 plus the header, so the "4 GB" file holds fp32 tensors; served in fp16
    /// (`torch_dtype=torch.float16`).
    #[test]
    fn case_3_sd15_single_file_model_offload_on_a_4_gb_gpu() {
        let mut p = plan("sd15", |d| {
            d.cpu_offload = CpuOffload::Model;
            d.single_file = true;
        });
        p.checkpoint_dtype = Some(CheckpointDtype::Fp32);
        let gpu = 4 * GIB;
        let m = judge(&p, Some(gpu), Some(16 * GIB)).unwrap();
        // Weights in fp16, 2 bytes a parameter.
        let (unet, clip, vae) = (859_520_964 * 2, 123_060_480 * 2, 83_653_863 * 2);
        assert_eq!((unet, clip, vae), (1_719_041_928, 246_120_960, 167_307_726));
        assert_eq!(m.weights_bytes, 2_132_470_614);
        // The UNet's working memory: at its first level the latent is 512 / 8 = 64 per side,
        // 4,096 tokens of 320 channels, 2 latents (classifier-free guidance), the GEGLU
        // feed-forward's 17 widths alive: 2 × 4,096 × 320 × 17 × 2 bytes.
        let unet_act = 2 * 4096 * 320 * 17 * 2;
        assert_eq!(unet_act, 89_128_960);
        // The VAE decoder at full resolution: 3 tensors × 256 channels × 512 × 512 × 2 bytes.
        let vae_act = 3 * 256 * 512 * 512 * 2;
        assert_eq!(vae_act, 402_653_184);
        let d = m.diffusion.as_ref().unwrap();
        assert_eq!(d.denoiser_activation_bytes, unet_act);
        assert_eq!(d.vae_decode_bytes, vae_act);
        // One component at a time: the largest of CLIP (246 MB), UNet + its activations
        // (1,808,170,888) and VAE + its decode (569,960,910) — 1.68 GiB.
        let generating = phase(&m, PhaseId::Serving);
        assert_eq!(generating.gpu_bytes_per_gpu, unet + unet_act);
        assert_eq!(generating.gpu_bytes_per_gpu, 1_808_170_888);
        // Nothing is on the GPU before the first call; every weight waits in host RAM, with
        // the OS (2 GiB) and the Python process (3 GiB).
        let loading = phase(&m, PhaseId::Loading);
        assert_eq!(loading.gpu_bytes_per_gpu, 0);
        let runtime = 5 * GIB;
        assert_eq!(generating.cpu_bytes_per_node, 2_132_470_614 + runtime);
        // Loading: the 4,264,941,228-byte fp32 file read whole beside the fp16 pipeline built
        // from it: 6,397,411,842 bytes + the runtime = 10.96 GiB.
        assert_eq!(
            loading.cpu_bytes_per_node,
            4_264_941_228 + 2_132_470_614 + runtime
        );
        assert_eq!(m.cpu_peak_bytes_per_node, 11_766_120_962);
        // 1.68 GiB fits under 4 GiB less the 512 MiB VRAM margin; 10.96 GiB under 16 GiB.
        assert_eq!(m.gpu.fits, Some(true));
        assert_eq!(m.fits, Some(true));
        // On 8 GiB of RAM the loading peak, not generating, breaks; the diffusers folder
        // (memory-mapped) is the first thing to try.
        let small = judge(&p, Some(gpu), Some(8 * GIB)).unwrap();
        assert_eq!(small.cpu.fits, Some(false));
        let recs =
            super::super::advice::advice(&small, Some(gpu), Some(8 * GIB), &Overheads::TYPICAL);
        assert_eq!(
            recs.first().map(|r| r.id),
            Some(crate::advisor::recommend::AdviceId::DiffusersFolder)
        );
    }

    /// diffusers' memory guide says `enable_sequential_cpu_offload()` on SD 1.5 in fp16 "can
    /// reduce memory consumption to less than 3GB" (`docs/source/en/optimization/memory.md`,
    /// "CPU offloading"), and IOPaint 0.33.0's release notes measured 2 GB at 512 × 512 in fp16
    /// with its `--cpu-offload`; both count the CUDA context and the caching allocator's
    /// reserve, which the figure here leaves to the VRAM margin. Ours: CLIP's 49,408 × 768
    /// token embedding (the largest tensor) + the VAE's 402,653,184-byte decode.
    #[test]
    fn sequential_offload_stays_under_the_published_3_gb() {
        let p = plan("sd15", |d| d.cpu_offload = CpuOffload::Sequential);
        let m = judge(&p, None, None).unwrap();
        let by_hand = 49_408 * 768 * 2 + 402_653_184;
        assert_eq!(m.gpu_peak_bytes_per_gpu, by_hand);
        assert!(by_hand < 2_000_000_000);
        // Without offload the whole pipeline is on the GPU: 2,132,470,614 + the VAE's decode.
        let all = judge(&plan("sd15", |_| ()), None, None).unwrap();
        assert_eq!(all.gpu_peak_bytes_per_gpu, 2_132_470_614 + 402_653_184);
        assert_eq!(phase(&all, PhaseId::Serving).cpu_bytes_per_node, 5 * GIB);
    }

    /// FLUX.1 [dev] in bf16 at 1024 × 1024: the transformer alone is 23.8 GB, so on a 24 GB
    /// card only the offloads fit; model offload keeps the transformer plus its working
    /// memory: (1024/16)² = 4,096 image tokens + 512 text tokens, hidden 3,072, the GELU
    /// feed-forward's 9 widths, one pass per step (guidance-distilled).
    #[test]
    fn flux_dev_needs_an_offload_on_a_24_gb_gpu() {
        let gpu = 24 * GIB;
        let none = judge(&plan("flux1-dev", |_| ()), Some(gpu), Some(64 * GIB)).unwrap();
        assert_eq!(none.gpu.fits, Some(false));
        let recs =
            super::super::advice::advice(&none, Some(gpu), Some(64 * GIB), &Overheads::TYPICAL);
        assert!(
            recs.iter()
                .any(|r| r.id == crate::advisor::recommend::AdviceId::DiffusersCpuOffload)
        );
        let model = judge(
            &plan("flux1-dev", |d| d.cpu_offload = CpuOffload::Model),
            Some(gpu),
            Some(64 * GIB),
        )
        .unwrap();
        let act = (4096 + 512) * 3072 * 9 * 2;
        assert_eq!(act, 254_803_968);
        assert_eq!(model.gpu_peak_bytes_per_gpu, 11_901_408_320 * 2 + act);
        assert_eq!(model.gpu.fits, Some(true));
    }

    /// Attention slicing replaces PyTorch's fused attention with scores of half the heads:
    /// SD 1.5 at 512 × 512 holds 2 × 4 × 4,096² × 2 bytes = 268,435,456 more at its first
    /// level; VAE tiling decodes a 2048 × 2048 SDXL image in 1024 × 1024 tiles (a quarter).
    #[test]
    fn slicing_and_tiling() {
        let plain = judge(&plan("sd15", |_| ()), None, None).unwrap();
        let sliced = judge(&plan("sd15", |d| d.attention_slicing = true), None, None).unwrap();
        let (a, b) = (
            plain.diffusion.unwrap().denoiser_activation_bytes,
            sliced.diffusion.unwrap().denoiser_activation_bytes,
        );
        assert_eq!(b - a, 2 * 4 * 4096 * 4096 * 2);
        let big = |t: bool| {
            judge(
                &plan("sdxl", |d| {
                    (d.width, d.height, d.vae_tiling) = (2048, 2048, t);
                }),
                None,
                None,
            )
            .unwrap()
            .diffusion
            .unwrap()
            .vae_decode_bytes
        };
        assert_eq!(big(false), 3 * 256 * 2048 * 2048 * 2);
        assert_eq!(big(true), big(false) / 4);
        // Out of range: no pipeline, a zero side.
        let mut bad = plan("sd15", |d| d.width = 0);
        assert_eq!(judge(&bad, None, None), Err(InferenceError::Zero));
        bad.diffusion = None;
        assert_eq!(judge(&bad, None, None), Err(InferenceError::Zero));
    }
}
