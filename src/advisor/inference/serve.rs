//! Serving a plan on a machine: judges it ([`super::estimate`]) and, when it doesn't fit,
//! asks the advice for what to change ([`super::advice`]); the one file that calls both.

use super::{InferenceError, InferenceMemory, InferencePlan};
use crate::advisor::capacity::{RamSizes, VramTotals};
use crate::advisor::recommend::Recommendation;
use crate::profile::MachineProfile;

/// Judges `p` on the machine (the smallest discrete GPU, or an Apple GPU's working-set limit;
/// usable RAM) and, when it doesn't fit,
/// computes what to change.
///
/// # Errors
/// An [`InferenceError`] for an input that can't be right.
pub fn serve_against(
    p: &InferencePlan,
    profile: &MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
) -> Result<(InferenceMemory, Vec<Recommendation>), InferenceError> {
    let gpu_total = gpu_total(profile, ram, vram);
    let o = crate::advisor::overhead::overheads(profile);
    let p = &as_launched(p, profile, gpu_total);
    let m = judge(p, gpu_total, ram.usable_bytes, &o)?;
    let mut recs = if m.fits == Some(false) && p.engine == super::Engine::Diffusers {
        super::diffusers::advice::advice(&m, gpu_total, ram.usable_bytes, &o)
    } else if m.fits == Some(false) {
        super::advice::advice(&m, gpu_total, profile, ram)
    } else {
        Vec::new()
    };
    // llama.cpp's own fit, with the host check it leaves out, first.
    if let Some(r) = super::advice::llama_fit(&m, gpu_total, &o) {
        recs.insert(0, r);
    }
    Ok((m, recs))
}

/// The GPU memory a plan is judged against: the smallest discrete GPU, or on Apple Silicon the
/// GPU's share of the unified memory (Metal's working-set limit, [`crate::advisor::unified`],
/// the figure llama.cpp checks its Metal buffers against), on another unified GPU the usable
/// RAM of the one pool.
///
/// On the machine itself ([`MachineProfile::live`]) a discrete GPU counts only its free memory,
/// total − used (NVML's `nvmlDeviceGetMemoryInfo`, what other processes hold included): the
/// figure llama.cpp's `--fit` (`llama_params_fit` in `src/llama.cpp`, from each device's free
/// bytes, `llama_get_device_memory_data`) and Ollama's scheduler (`server/sched.go`, the GPUs'
/// `FreeMemory`) place a model against. A GPU whose
/// use wasn't read counts its total. A profile file or a catalogue machine (procurement) keeps
/// the nominal totals.
fn gpu_total(profile: &MachineProfile, ram: &RamSizes, vram: &VramTotals) -> Option<u64> {
    let cap = crate::advisor::training::capacity(profile, ram, vram);
    let free = profile
        .gpus
        .iter()
        .filter(|g| !g.unified_memory)
        .filter_map(|g| {
            let total = g.vram_total_bytes?;
            Some(total.saturating_sub(g.vram_used_bytes.unwrap_or(0)))
        })
        .min();
    match cap.gpu {
        Some(_) if profile.live => free,
        // A unified GPU without a working-set limit of its own (GB10, Jetson, an APU) has the
        // pool: the usable RAM, as the training check judges it (`training::memory`) and as
        // vLLM's `total_memory` counts it there.
        _ => cap
            .gpu
            .or(cap.gpu_working_set)
            .or(if cap.unified { cap.cpu } else { None }),
    }
}

/// Judges `p` on the machine, as [`serve_against`] does, without asking for advice: what a
/// recommendation's plan is priced from ([`crate::advisor::speed`]).
///
/// # Errors
/// An [`InferenceError`] for an input that can't be right.
pub fn judged(
    p: &InferencePlan,
    profile: &MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
) -> Result<InferenceMemory, InferenceError> {
    let gpu_total = gpu_total(profile, ram, vram);
    judge(
        &as_launched(p, profile, gpu_total),
        gpu_total,
        ram.usable_bytes,
        &crate::advisor::overhead::overheads(profile),
    )
}

/// `p` as its frontend launches llama.cpp: Ollama always passes `-c num_ctx ×
/// OLLAMA_NUM_PARALLEL`, and when `num_ctx` isn't given (`llama.context_auto`) its default by the
/// GPUs' total memory, clamped to the trained context ([`super::ollama::num_ctx`]). The GPUs'
/// totals are the discrete GPUs' nominal memory (Ollama's `TotalMemory`, not the free memory), or
/// a unified GPU's share ([`gpu_total`]). Every other plan is returned as it is.
fn as_launched<'a>(
    p: &'a InferencePlan,
    profile: &MachineProfile,
    gpu_total: Option<u64>,
) -> std::borrow::Cow<'a, InferencePlan> {
    use super::llama_cpp::Frontend;
    if p.engine != super::Engine::LlamaCpp
        || p.llama.frontend != Frontend::Ollama
        || !p.llama.context_auto
    {
        return std::borrow::Cow::Borrowed(p);
    }
    let mut totals: Vec<u64> = profile
        .gpus
        .iter()
        .filter(|g| !g.unified_memory)
        .filter_map(|g| g.vram_total_bytes)
        .collect();
    if totals.is_empty() {
        totals.extend(gpu_total);
    }
    let trained = p.gguf.as_ref().map(|m| m.trained_context).or_else(|| {
        p.preset
            .as_deref()
            .and_then(|id| crate::catalog::catalog().model(id))
            .and_then(|m| m.max_context)
    });
    let mut q = p.clone();
    q.context_len = super::ollama::num_ctx(
        &super::ollama::OllamaSettings::default(),
        trained.unwrap_or(0),
        &totals,
    );
    std::borrow::Cow::Owned(q)
}

/// A diffusers plan by [`super::diffusers::estimate::judge`], every other engine's by
/// [`super::estimate::judge`].
fn judge(
    p: &InferencePlan,
    gpu_total: Option<u64>,
    usable: Option<u64>,
    o: &crate::advisor::overhead::Overheads,
) -> Result<InferenceMemory, InferenceError> {
    if p.engine == super::Engine::Diffusers {
        super::diffusers::estimate::judge(p, gpu_total, usable, o)
    } else {
        super::estimate::judge(p, gpu_total, usable, o)
    }
}
