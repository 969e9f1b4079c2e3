//! Ollama as people run it, mapped onto the llama.cpp launch it makes. Current Ollama (read at
//! ollama/ollama commit fb30760, August 2026) no longer places models itself: every GGUF model
//! is served by an upstream `llama-server` subprocess (`NewLlamaServer`, `llm/server.go`), whose
//! own fit (`--fit`, on by default) chooses the layers unless `num_gpu` is given. So Ollama's
//! settings only decide llama-server's arguments (`llamaServerRunner` launch parameters,
//! `llm/llama_server.go`):
//!
//! - `-c num_ctx × OLLAMA_NUM_PARALLEL` and `-np OLLAMA_NUM_PARALLEL`: the KV cache holds every
//!   parallel slot's full context; `num_ctx` is first clamped to the model's trained context
//!   (`NewLlamaServer`);
//! - `--cache-type-k/-v OLLAMA_KV_CACHE_TYPE` when set (f16 otherwise);
//! - `--flash-attn on|off` when `OLLAMA_FLASH_ATTENTION` is set, else `auto`
//!   (`appendFlashAttentionArgs`; `off` where the GPUs can't, `LlamaServerFlashAttention`);
//! - `-ngl num_gpu` for a Modelfile's or request's `num_gpu` > 0, `-ngl 0` for 0, nothing for
//!   the default −1 (llama-server fits it);
//! - `num_ctx` unset: `OLLAMA_CONTEXT_LENGTH`, else a default by the GPUs' total VRAM less
//!   `OLLAMA_GPU_OVERHEAD` each — 262,144 tokens from 47 GiB, 32,768 from 23 GiB, else 4,096
//!   (`Server.Serve`, `server/routes.go`).
//!
//! `OLLAMA_NUM_PARALLEL` defaults to 1 (`envconfig.NumParallel`, `envconfig/config.go`).
//! These functions are pure: the caller reads the environment and the Modelfile.

use crate::units::GIB;

/// Ollama's `OLLAMA_NUM_PARALLEL` when unset (`envconfig.NumParallel`): 1.
pub const DEFAULT_NUM_PARALLEL: u64 = 1;

/// What Ollama asks of llama.cpp's flash attention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlashAttn {
    /// `--flash-attn on` (`OLLAMA_FLASH_ATTENTION=1`).
    On,
    /// `--flash-attn off` (`OLLAMA_FLASH_ATTENTION=0`).
    Off,
    /// `--flash-attn auto`: unset; llama.cpp enables it where the backend supports it.
    Auto,
}

/// Ollama's settings, as the user gives them (environment and Modelfile/request options).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OllamaSettings {
    /// `num_ctx` (Modelfile `PARAMETER num_ctx`, or the request's option); `None`: unset.
    pub num_ctx: Option<u64>,
    /// `OLLAMA_CONTEXT_LENGTH`; `None` or 0: unset.
    pub context_length_env: Option<u64>,
    /// `OLLAMA_NUM_PARALLEL`; `None`: 1.
    pub num_parallel: Option<u64>,
    /// `OLLAMA_KV_CACHE_TYPE` (`f16`, `q8_0`, `q4_0`); `None` or empty: f16.
    pub kv_cache_type: Option<String>,
    /// `OLLAMA_FLASH_ATTENTION`; `None`: unset.
    pub flash_attention: Option<bool>,
    /// `num_gpu` (Modelfile `PARAMETER num_gpu`); `None` or negative: unset (−1).
    pub num_gpu: Option<i64>,
    /// `OLLAMA_GPU_OVERHEAD`, bytes reserved per GPU; `None`: 0.
    pub gpu_overhead_bytes: Option<u64>,
}

/// The llama-server launch Ollama makes from its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct LlamaServerLaunch {
    /// `-c`: tokens of KV cache, all parallel slots together.
    pub ctx: u64,
    /// `-np`: parallel slots.
    pub n_parallel: u64,
    /// `--cache-type-k` and `--cache-type-v`; `None`: llama.cpp's f16.
    pub cache_type: Option<String>,
    /// `--flash-attn`.
    pub flash_attn: FlashAttn,
    /// `-ngl`; `None`: not passed, llama-server's fit chooses.
    pub n_gpu_layers: Option<u64>,
}

/// Ollama's default `num_ctx` for GPUs of `vram_totals` bytes each, less `overhead` per GPU:
/// 262,144 tokens from 47 GiB in all, 32,768 from 23 GiB, else 4,096 (`Server.Serve`,
/// `server/routes.go`; "slightly lower thresholds (47/23 GiB vs. 48/24 GiB)").
pub fn default_num_ctx(vram_totals: &[u64], overhead: u64) -> u64 {
    let total: u64 = vram_totals
        .iter()
        .map(|t| t.saturating_sub(overhead))
        .fold(0, u64::saturating_add);
    if total >= 47 * GIB {
        262_144
    } else if total >= 23 * GIB {
        32_768
    } else {
        4096
    }
}

/// The context of each parallel slot Ollama runs with: `num_ctx`, else
/// `OLLAMA_CONTEXT_LENGTH`, else [`default_num_ctx`] for GPUs of `vram_totals` bytes, clamped to
/// the trained context `n_ctx_train` (0: unknown) (`NewLlamaServer`, `llm/server.go`).
pub fn num_ctx(s: &OllamaSettings, n_ctx_train: u64, vram_totals: &[u64]) -> u64 {
    let num_ctx = s
        .num_ctx
        .filter(|&n| n > 0)
        .or(s.context_length_env.filter(|&n| n > 0))
        .unwrap_or_else(|| default_num_ctx(vram_totals, s.gpu_overhead_bytes.unwrap_or(0)));
    if n_ctx_train > 0 {
        num_ctx.min(n_ctx_train)
    } else {
        num_ctx
    }
}

/// The llama-server arguments Ollama passes for `s`, a model trained on `n_ctx_train` tokens
/// (0: unknown) and GPUs of `vram_totals` bytes (`llm/llama_server.go`, `llm/server.go`).
pub fn launch(s: &OllamaSettings, n_ctx_train: u64, vram_totals: &[u64]) -> LlamaServerLaunch {
    let num_ctx = num_ctx(s, n_ctx_train, vram_totals);
    let n_parallel = s
        .num_parallel
        .filter(|&n| n > 0)
        .unwrap_or(DEFAULT_NUM_PARALLEL);
    LlamaServerLaunch {
        ctx: num_ctx.saturating_mul(n_parallel),
        n_parallel,
        cache_type: s
            .kv_cache_type
            .as_deref()
            .map(str::to_ascii_lowercase)
            .filter(|t| !t.is_empty()),
        flash_attn: match s.flash_attention {
            Some(true) => FlashAttn::On,
            Some(false) => FlashAttn::Off,
            None => FlashAttn::Auto,
        },
        n_gpu_layers: s.num_gpu.and_then(|n| u64::try_from(n).ok()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_context_follows_the_vram_tiers() {
        // server/routes.go: ≥ 47 GiB → 262,144; ≥ 23 GiB → 32,768; else 4,096.
        assert_eq!(default_num_ctx(&[8 * GIB], 0), 4096);
        // An RTX 4090's 24 GiB is the middle tier; with 2 GiB of OLLAMA_GPU_OVERHEAD, 22 GiB is not.
        assert_eq!(default_num_ctx(&[24 * GIB], 0), 32_768);
        assert_eq!(default_num_ctx(&[24 * GIB], 2 * GIB), 4096);
        // Two 24 GiB cards count together: 48 GiB.
        assert_eq!(default_num_ctx(&[24 * GIB, 24 * GIB], 0), 262_144);
        assert_eq!(default_num_ctx(&[], 0), 4096);
    }

    #[test]
    fn kv_for_every_parallel_slot() {
        // num_ctx 8192 with OLLAMA_NUM_PARALLEL=4: llama-server -c 32768 -np 4.
        let s = OllamaSettings {
            num_ctx: Some(8192),
            num_parallel: Some(4),
            kv_cache_type: Some("Q8_0".into()),
            flash_attention: Some(true),
            ..OllamaSettings::default()
        };
        let l = launch(&s, 131_072, &[24 * GIB]);
        assert_eq!(l.ctx, 32_768);
        assert_eq!(l.n_parallel, 4);
        assert_eq!(l.cache_type.as_deref(), Some("q8_0"));
        assert_eq!(l.flash_attn, FlashAttn::On);
        assert_eq!(l.n_gpu_layers, None);
    }

    #[test]
    fn defaults_and_the_trained_context() {
        // Nothing set on a 12 GiB GPU: num_ctx 4096, one slot, f16, auto, llama-server's fit.
        let l = launch(&OllamaSettings::default(), 131_072, &[12 * GIB]);
        assert_eq!(
            l,
            LlamaServerLaunch {
                ctx: 4096,
                n_parallel: 1,
                cache_type: None,
                flash_attn: FlashAttn::Auto,
                n_gpu_layers: None,
            }
        );
        // On 48 GiB the 262,144-token default is clamped to a 40,960-token model (Qwen3-8B).
        let l = launch(&OllamaSettings::default(), 40_960, &[48 * GIB]);
        assert_eq!(l.ctx, 40_960);
        // OLLAMA_CONTEXT_LENGTH beats the tier; a Modelfile's num_ctx beats both.
        let mut s = OllamaSettings {
            context_length_env: Some(16_384),
            ..OllamaSettings::default()
        };
        assert_eq!(launch(&s, 0, &[48 * GIB]).ctx, 16_384);
        s.num_ctx = Some(2048);
        assert_eq!(launch(&s, 0, &[48 * GIB]).ctx, 2048);
    }

    #[test]
    fn num_gpu_maps_to_ngl() {
        // num_gpu −1 (the default): no -ngl; 0: -ngl 0 (CPU only); 20: -ngl 20.
        let mut s = OllamaSettings {
            num_gpu: Some(-1),
            ..OllamaSettings::default()
        };
        assert_eq!(launch(&s, 0, &[]).n_gpu_layers, None);
        s.num_gpu = Some(0);
        assert_eq!(launch(&s, 0, &[]).n_gpu_layers, Some(0));
        s.num_gpu = Some(20);
        assert_eq!(launch(&s, 0, &[]).n_gpu_layers, Some(20));
        s.flash_attention = Some(false);
        assert_eq!(launch(&s, 0, &[]).flash_attn, FlashAttn::Off);
    }
}
