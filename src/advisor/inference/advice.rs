//! What to change when serving doesn't fit: each candidate is the plan with one setting or
//! technique changed, judged again on the same machine, kept when it fits or lowers the need
//! that was too high; then the machine-level changes (WSL's cap, swap, hardware).

use super::estimate::judge;
use super::{Engine, InferenceMemory, InferencePlan, WeightFormat};
use crate::advisor::buying::ram_advice::{self, RamNeed};
use crate::advisor::capacity::RamSizes;
use crate::advisor::findings::Quantity;
use crate::advisor::recommend::{AdviceId as R, Limit, Outcome, Recommendation, Subject};
use crate::advisor::training::PhaseId;
use crate::profile::MachineProfile;
use crate::units::GIB;

/// What serving `m` gives, with the headroom of its VRAM and RAM checks.
pub fn outcome(m: &InferenceMemory) -> Outcome {
    Outcome {
        cpu_peak_bytes_per_node: Some(m.cpu_peak_bytes_per_node),
        gpu_peak_bytes_per_gpu: Some(m.gpu_peak_bytes_per_gpu),
        peak_phase: crate::advisor::training::peak_phase(&m.phases, true),
        fits: m.fits,
        ..Outcome::default()
    }
    .with_headroom(&[(Limit::Vram, &m.gpu), (Limit::Ram, &m.cpu)])
}

/// The phases of the served plan `m` that break, as [`crate::advisor::training::failing_phase`]
/// reads a training plan's: the CPU peak's phase when RAM doesn't fit (or a shared pool
/// doesn't), else the GPU peak's; second, the GPU peak's when VRAM breaks too at another phase.
pub fn failing_phase(m: &InferenceMemory) -> (Option<PhaseId>, Option<PhaseId>) {
    use crate::advisor::training::peak_phase;
    if m.fits != Some(false) {
        return (None, None);
    }
    let gpu = (m.gpu.fits == Some(false))
        .then(|| peak_phase(&m.phases, false))
        .flatten();
    if m.cpu.fits != Some(false) && gpu.is_some() {
        return (gpu, None);
    }
    let cpu = peak_phase(&m.phases, true);
    (cpu, gpu.filter(|g| Some(*g) != cpu))
}

/// Fits, or lowers a failing need without breaking one that fit (the training planner's rule,
/// [`crate::advisor::training::helps`]).
fn helps(now: &InferenceMemory, next: &InferenceMemory) -> bool {
    crate::advisor::training::helps(&[&now.gpu, &now.cpu], &[&next.gpu, &next.cpu], next.fits)
}

/// The largest value in `lo..=hi` for which `fits` holds, by bisection (`fits` grows false
/// with the value); `None` when even `lo` doesn't.
fn largest_fitting(lo: u64, hi: u64, fits: impl Fn(u64) -> bool) -> Option<u64> {
    if !fits(lo) {
        return None;
    }
    let (mut a, mut b) = (lo, hi);
    while a < b {
        let mid = a + (b - a).div_ceil(2);
        if fits(mid) {
            a = mid;
        } else {
            b = mid - 1;
        }
    }
    Some(a)
}

/// The shard size [`R::ReshardCheckpoint`] re-saves a pickle checkpoint in: 2 GB
/// (`save_pretrained(max_shard_size="2GB")`, transformers' default before 4.35 and a size the
/// free Colab tier's 12.7 GB holds beside the runtime). Assumption.
pub const RESHARD_BYTES: u64 = 2_000_000_000;

/// The candidate changes of a serving plan that doesn't fit.
pub(super) fn advice(
    now: &InferenceMemory,
    gpu_total: Option<u64>,
    profile: &MachineProfile,
    ram: &RamSizes,
) -> Vec<Recommendation> {
    let p = &now.plan;
    let usable = ram.usable_bytes;
    let o = crate::advisor::overhead::overheads(profile);
    let mut out = Vec::new();
    let mut consider = |id: R, changed: InferencePlan, changes: Vec<(&str, Quantity)>| {
        let Ok(next) = judge(&changed, gpu_total, usable, &o) else {
            return;
        };
        if changed != *p && helps(now, &next) {
            let mut r = Recommendation::new(id, Subject::Inference, outcome(&next))
                .sets(super::knob_values::changes(p, &changed));
            for (name, q) in changes {
                r = r.with(name, q);
            }
            out.push(r);
        }
    };
    let gpu_fits = |plan: &InferencePlan| {
        judge(plan, gpu_total, usable, &o).is_ok_and(|m| m.gpu.fits != Some(false))
    };
    if now.gpu.fits == Some(false) {
        // The longest context, in steps of 256 tokens, that fits.
        let steps = p.context_len / 256;
        let ctx = |n: u64| InferencePlan {
            context_len: n * 256,
            ..p.clone()
        };
        if let Some(n) = largest_fitting(1, steps.saturating_sub(1), |n| gpu_fits(&ctx(n))) {
            consider(
                R::ReduceContext,
                ctx(n),
                vec![("context_len", Quantity::Count(n * 256))],
            );
        }
        if p.engine == Engine::Vllm && p.kv_bytes > 1 {
            consider(
                R::KvCacheFp8,
                InferencePlan {
                    kv_bytes: 1,
                    ..p.clone()
                },
                vec![],
            );
        }
        if p.engine == Engine::Vllm {
            let excess = (now.gpu.needed_bytes + now.gpu.margin_bytes)
                .saturating_sub(now.gpu.available_bytes.unwrap_or(0));
            let gib = excess.div_ceil(GIB) as f64 + p.cpu_offload_gib;
            consider(
                R::CpuOffloadGb,
                InferencePlan {
                    cpu_offload_gib: gib,
                    ..p.clone()
                },
                vec![("cpu_offload_gb", Quantity::Count(gib as u64))],
            );
        }
        if matches!(p.engine, Engine::LlamaCpp | Engine::Transformers) {
            let with = |g: u64| InferencePlan {
                gpu_layers: Some(g),
                ..p.clone()
            };
            let top = now.gpu_layers.saturating_sub(1);
            if let Some(g) = largest_fitting(0, top, |g| gpu_fits(&with(g))) {
                let (id, changes) = if p.engine == Engine::LlamaCpp {
                    (R::GpuLayers, vec![("n_gpu_layers", Quantity::Count(g))])
                } else {
                    let cpu = p.shape.layers - g;
                    (
                        R::DeviceMapOffload,
                        vec![
                            ("gpu_layers", Quantity::Count(g)),
                            ("cpu_layers", Quantity::Count(cpu)),
                        ],
                    )
                };
                consider(id, with(g), changes);
            }
        }
        let four_bit = match p.engine {
            Engine::LlamaCpp => WeightFormat::Q4KM,
            _ => WeightFormat::Int4,
        };
        if p.weights.bytes() > four_bit.bytes() {
            let name = match four_bit {
                WeightFormat::Q4KM => "GGUF Q4_K_M",
                _ => "GPTQ / AWQ",
            };
            consider(
                R::QuantizeWeights,
                InferencePlan {
                    weights: four_bit,
                    weight_bytes: None,
                    ..p.clone()
                },
                vec![("weights", Quantity::Text(name.into()))],
            );
        }
    }
    if now.cpu.fits == Some(false) && p.engine == Engine::Vllm && p.swap_space_gib > 0.0 {
        // The largest whole GiB of swap space per GPU that fits the host.
        let over =
            (now.cpu.needed_bytes + now.cpu.margin_bytes).saturating_sub(usable.unwrap_or(0));
        let per_gpu = (over.div_ceil(u64::from(p.gpus)) as f64 / GIB as f64).ceil();
        let left = (p.swap_space_gib - per_gpu).max(0.0).floor();
        consider(
            R::ReduceSwapSpace,
            InferencePlan {
                swap_space_gib: left,
                ..p.clone()
            },
            vec![("swap_space", Quantity::Count(left as u64))],
        );
    }
    let cpu = |id| crate::advisor::training::phase_cpu(&now.phases, id);
    let serving = cpu(PhaseId::Serving);
    // The checkpoint as read: a pickle read whole (or a shard at a time) while loading is the
    // peak. safetensors files are memory-mapped (the bytes in the page cache, one tensor held);
    // where only a pickle exists, re-saving it in small shards bounds what is held.
    if now.cpu.fits == Some(false)
        && cpu(PhaseId::Loading) > serving
        && p.files == super::CheckpointFiles::Pickle
    {
        consider(
            R::UseSafetensors,
            InferencePlan {
                files: super::CheckpointFiles::Safetensors,
                ..p.clone()
            },
            vec![],
        );
        let small = RESHARD_BYTES;
        if p.checkpoint_shard_bytes.is_none_or(|b| b > small) {
            consider(
                R::ReshardCheckpoint,
                InferencePlan {
                    checkpoint_shard_bytes: Some(small),
                    ..p.clone()
                },
                // The shard size, bytes (`present` writes it as `save_pretrained` does: decimal
                // GB).
                vec![("shard", Quantity::Bytes(small))],
            );
        }
    }
    out.extend(ram_advice::recommendations(
        profile,
        ram,
        &RamNeed {
            subject: Subject::Inference,
            peak: now.cpu.needed_bytes,
            steady: (cpu(PhaseId::Loading) > serving).then_some(serving),
            others_fit: now.gpu.fits,
            outcome: outcome(now),
        },
    ));
    out
}

/// What llama.cpp's own fit would choose for a GGUF served by llama.cpp with no placement
/// given ([`super::llama_cpp::fit`]), as a recommendation whose `apply` carries the context,
/// `--n-gpu-layers` and `--n-cpu-moe`; its outcome checks the host side (the weights and cache
/// the fit leaves in RAM), which llama.cpp does not. `None` for another plan, an unknown GPU,
/// or when the plan already is the fit.
pub(super) fn llama_fit(
    now: &InferenceMemory,
    gpu_total: Option<u64>,
    o: &crate::advisor::overhead::Overheads,
) -> Option<Recommendation> {
    let p = &now.plan;
    let m = p.gguf.as_deref()?;
    let given = p.gpu_layers.is_some() || p.experts_on_cpu || p.llama.n_cpu_moe > 0;
    if p.engine != Engine::LlamaCpp || given {
        return None;
    }
    let s = super::llama_cpp::kv::KvSettings {
        context_per_sequence: p.context_len,
        sequences: p.concurrent_sequences,
        ubatch: p
            .llama
            .ubatch
            .unwrap_or(super::llama_cpp::kv::DEFAULT_UBATCH),
        type_k: p.llama.cache_type_k,
        type_v: p.llama.cache_type_v,
    };
    // Ollama always passes `-c`, so llama-server's fit keeps the context and places the layers.
    let fixed = !p.llama.context_auto || p.llama.frontend == super::llama_cpp::Frontend::Ollama;
    let context = fixed.then_some(p.context_len);
    let f = super::llama_cpp::fit::fit(
        m,
        &s,
        context,
        p.gpus,
        gpu_total?,
        p.llama.flash_attn.enabled(),
    );
    let mut changed = p.clone();
    changed.context_len = f.context;
    changed.gpu_layers = Some(f.gpu_layers);
    changed.llama.n_cpu_moe = f.n_cpu_moe;
    changed.llama.context_auto = false;
    let next = judge(&changed, gpu_total, now.cpu.available_bytes, o).ok()?;
    let host = next.llama_cpp.as_ref().map_or(0, |l| {
        l.placed.host_weights.saturating_add(l.placed.host_kv)
    });
    let r = Recommendation::new(R::LlamaFit, Subject::Inference, outcome(&next))
        .sets(super::knob_values::changes(p, &changed))
        .with("context_len", Quantity::Count(f.context))
        .with("n_gpu_layers", Quantity::Count(f.gpu_layers))
        .with("n_cpu_moe", Quantity::Count(f.n_cpu_moe))
        .with("gpu_bytes", Quantity::Bytes(f.gpu_bytes))
        .with("host_bytes", Quantity::Bytes(host));
    Some(r)
}
