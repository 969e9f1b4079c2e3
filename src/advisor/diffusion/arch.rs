//! The denoisers' and the VAE's shapes as their `config.json` files give them, and the working
//! memory of a generation at a resolution: the widest live set of one level of the denoiser
//! (the latent is the image ÷ 8; a UNet halves it at each level, a diffusion transformer
//! patches it 2 × 2), the attention scores when attention is sliced, and the VAE decoder's peak
//! at full resolution.

/// The VAE's scale factor: `2 ** (len(vae.config.block_out_channels) - 1)` = 8 for every
/// catalogued pipeline (diffusers `StableDiffusionPipeline.__init__`, `vae_scale_factor`).
pub const VAE_SCALE: u64 = 8;

/// Channels entering the VAE decoder's last, full-resolution up block: `block_out_channels`
/// `[128, 256, 512, 512]` reversed, the third up block (256 channels) upsamples into full
/// resolution (diffusers `Decoder` in `autoencoders/vae.py`).
pub const VAE_FULL_RES_CHANNELS: u64 = 256;

/// Tensors of that width alive at once in the decoder's first full-resolution `ResnetBlock2D`:
/// its input (kept for the residual), GroupNorm's output and SiLU's output
/// (`ResnetBlock2D.forward` in diffusers `models/resnet.py`; neither is in place).
pub const VAE_LIVE_TENSORS: u64 = 3;

/// One level of a denoiser: where the latent is `downscale` times smaller per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Per-side reduction from the latent (1, 2, 4, 8 for a UNet's down blocks).
    pub downscale: u64,
    /// Channels (`block_out_channels`) or the transformer's hidden size.
    pub channels: u64,
    /// Attention heads at this level; 0: no attention (SDXL's first block, a UNet's last).
    pub heads: u64,
}

/// A denoiser's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Denoiser {
    /// Its levels.
    pub levels: &'static [Level],
    /// Latent pixels per token: 1 for a UNet, 2 × 2 for SD3's and FLUX's patches.
    pub patch: u64,
    /// Text tokens joined to the image tokens in attention (MMDiT): 0 for a UNet (cross
    /// attention to 77 tokens), 77 + 256 for SD3, 512 T5 tokens for FLUX.1.
    pub text_tokens: u64,
    /// Channel widths alive at once in a block's feed-forward, in units of `channels`: GEGLU
    /// (the UNet's `FeedForward`, mult 4) keeps the input, its 8-wide projection and two 4-wide
    /// halves, 1 + 8 + 4 + 4 = 17; GELU (SD3, FLUX) the input, the 4-wide projection and its
    /// activation, 1 + 4 + 4 = 9 (diffusers `models/attention.py`, `FeedForward`).
    pub ff_live: u64,
    /// The latent's channels (`in_channels` of the UNet, `latent_channels` of the VAE).
    pub latent_channels: u64,
    /// The VAE's tile side with `enable_vae_tiling()`: its `sample_size`, pixels.
    pub vae_tile: u64,
}

/// The denoiser architecture named `key` (`pipelines.csv`'s `architecture`).
///
/// Sources: stable-diffusion-v1-5 `unet/config.json` (`block_out_channels` [320, 640, 1280,
/// 1280], `attention_head_dim` 8, three cross-attention down blocks); SDXL base `unet/config.json`
/// ([320, 640, 1280], `attention_head_dim` [5, 10, 20], the first block without attention);
/// SD3 medium `transformer/config.json` (24 heads × 64, `patch_size` 2; the pipeline's 77 CLIP
/// and 256 T5 tokens); FLUX.1 `transformer/config.json` (24 heads × 128, 2 × 2 packed latents;
/// `max_sequence_length` 512).
pub fn denoiser(key: &str) -> Option<Denoiser> {
    const SD15: &[Level] = &[
        Level {
            downscale: 1,
            channels: 320,
            heads: 8,
        },
        Level {
            downscale: 2,
            channels: 640,
            heads: 8,
        },
        Level {
            downscale: 4,
            channels: 1280,
            heads: 8,
        },
        Level {
            downscale: 8,
            channels: 1280,
            heads: 0,
        },
    ];
    const SDXL: &[Level] = &[
        Level {
            downscale: 1,
            channels: 320,
            heads: 0,
        },
        Level {
            downscale: 2,
            channels: 640,
            heads: 10,
        },
        Level {
            downscale: 4,
            channels: 1280,
            heads: 20,
        },
    ];
    const SD3: &[Level] = &[Level {
        downscale: 1,
        channels: 1536,
        heads: 24,
    }];
    const FLUX: &[Level] = &[Level {
        downscale: 1,
        channels: 3072,
        heads: 24,
    }];
    let unet = |levels, vae_tile| Denoiser {
        levels,
        patch: 1,
        text_tokens: 0,
        ff_live: 17,
        latent_channels: 4,
        vae_tile,
    };
    let dit = |levels, text_tokens| Denoiser {
        levels,
        patch: 2,
        text_tokens,
        ff_live: 9,
        latent_channels: 16,
        vae_tile: 1024,
    };
    Some(match key {
        "sd15-unet" => unet(SD15, 512),
        "sdxl-unet" => unet(SDXL, 1024),
        "sd3-mmdit" => dit(SD3, 77 + 256),
        "flux-dit" => dit(FLUX, 512),
        _ => return None,
    })
}

/// Heads whose scores the sliced attention processor holds at once: `slice_size = "auto"` is
/// half the heads (`DiffusionPipeline.enable_attention_slicing`), at least 1.
fn sliced_heads(heads: u64) -> u64 {
    (heads / 2).max(1)
}

/// The denoiser's working memory for `batch` latents (images × guidance passes) of
/// `latent_w × latent_h`, `bytes` per element: the largest over its levels of the
/// feed-forward's live set (`tokens × channels × ff_live`) plus, with attention slicing, the
/// scores and their softmax for half the heads (`2 × heads/2 × tokens²`). With PyTorch's
/// `scaled_dot_product_attention` (diffusers' `AttnProcessor2_0`, the default on PyTorch 2)
/// no score matrix is stored.
pub fn denoiser_bytes(
    d: &Denoiser,
    latent_w: u64,
    latent_h: u64,
    batch: u64,
    bytes: f64,
    sliced: bool,
) -> u64 {
    d.levels
        .iter()
        .map(|l| {
            let side = l.downscale.saturating_mul(d.patch).max(1);
            let tokens = (latent_w / side)
                .saturating_mul(latent_h / side)
                .saturating_add(d.text_tokens);
            let ff = batch
                .saturating_mul(tokens)
                .saturating_mul(l.channels)
                .saturating_mul(d.ff_live);
            let scores = if sliced && l.heads > 0 {
                2u64.saturating_mul(sliced_heads(l.heads))
                    .saturating_mul(tokens)
                    .saturating_mul(tokens)
            } else {
                0
            };
            crate::units::saturating_bytes(ff.saturating_add(scores) as f64 * bytes)
        })
        .max()
        .unwrap_or(0)
}

/// The VAE decoder's peak for `images` images of `width × height` pixels, `bytes` per element:
/// [`VAE_LIVE_TENSORS`] × [`VAE_FULL_RES_CHANNELS`] × the decoded area; with tiling, the area of
/// one tile when the image is larger than a tile (`AutoencoderKL.tiled_decode`).
pub fn vae_decode_bytes(
    d: &Denoiser,
    width: u64,
    height: u64,
    images: u64,
    bytes: f64,
    tiling: bool,
) -> u64 {
    let (w, h) = if tiling {
        (width.min(d.vae_tile), height.min(d.vae_tile))
    } else {
        (width, height)
    };
    let elements = VAE_LIVE_TENSORS
        .saturating_mul(VAE_FULL_RES_CHANNELS)
        .saturating_mul(w)
        .saturating_mul(h)
        .saturating_mul(images);
    crate::units::saturating_bytes(elements as f64 * bytes)
}
