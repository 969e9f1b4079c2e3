//! Inference memory by engine: weights and the KV cache on the GPUs, and the host RAM each
//! engine takes while loading and while serving.

use super::llama_cpp::kv::{self, KvSettings};
use super::llama_cpp::place::{LlamaFit, Placement, place};
use super::llama_cpp::{FIT_MARGIN_BYTES, LlamaModel, compute};
use super::{CheckpointFiles, Engine, InferenceError, InferenceMemory, InferencePlan};
use crate::advisor::headroom::LimitKind;
use crate::advisor::overhead::Overheads;
use crate::advisor::training::{CapacityCheck, Phase, PhaseId, presets::assumed_largest_layer};
use crate::units::{GIB, MIB, saturating_bytes};

/// llama.cpp's own process on the host: a native program with the CUDA runtime, 512 MiB.
/// Assumption (its resident size with a model fully offloaded is a few hundred MiB).
pub const LLAMA_CPP_PROCESS_BYTES: u64 = 512 * MIB;

/// llama.cpp's compute buffer per GPU, 512 MiB. Assumption from the "CUDA0 compute buffer
/// size" it prints for 7B–70B models at a 4,096-token context (a few hundred MiB).
pub const LLAMA_CPP_COMPUTE_BYTES: u64 = 512 * MIB;

fn validate(p: &InferencePlan) -> Result<(), InferenceError> {
    let s = &p.shape;
    if p.params == 0
        || s.layers == 0
        || s.hidden == 0
        || s.heads == Some(0)
        || s.kv_heads == Some(0)
        || p.gpus == 0
        || p.context_len == 0
        || p.concurrent_sequences == 0
    {
        return Err(InferenceError::Zero);
    }
    if !(p.gpu_memory_utilization > 0.0 && p.gpu_memory_utilization <= 1.0) {
        return Err(InferenceError::Utilization);
    }
    // Beyond any model or machine: typos or overflowed arithmetic (as for profiles' caps).
    if p.params > 1 << 50
        || s.layers > 100_000
        || s.hidden > 1 << 24
        || s.heads.is_some_and(|h| h > 1 << 20)
        || s.kv_heads.is_some_and(|h| h > 1 << 20)
        || p.gpus > 1024
        || p.context_len > 1 << 32
        || p.concurrent_sequences > 1 << 24
    {
        return Err(InferenceError::Zero);
    }
    // `-ngl` of any size (99, 999: "all") is clamped to the model's layers, as llama.cpp's
    // `llama_model::load_tensors` does (`act_gpu_layers = min(n_gpu_layers, n_layer + 1)`).
    let ok = |g: f64| (0.0..=1e6).contains(&g);
    if !ok(p.swap_space_gib)
        || !ok(p.cpu_offload_gib)
        || !ok(p.kv_offloading_gib)
        || p.kv_cache_memory_bytes == Some(0)
    {
        return Err(InferenceError::HostGib);
    }
    if !matches!(p.kv_bytes, 1 | 2 | 4) {
        return Err(InferenceError::KvBytes);
    }
    if p.expert_params.is_some_and(|e| e > p.params)
        || (p.experts_on_cpu && p.expert_params.is_none() && p.gguf.is_none())
    {
        return Err(InferenceError::Experts);
    }
    if s.head_dim == Some(0) || s.kv_latent == Some(0) {
        return Err(InferenceError::Zero);
    }
    Ok(())
}

/// KV cache per token: 2 (keys and values) × layers × KV heads × head dimension × bytes per
/// element, the head dimension being the shape's own, else hidden ÷ heads (heads not given:
/// hidden ÷ 128). Multi-head latent attention caches its latent instead: layers ×
/// (`kv_lora_rank + qk_rope_head_dim`) × bytes (DeepSeek-V2 paper §2.1; vLLM's MLA cache).
pub fn kv_bytes_per_token(p: &InferencePlan) -> u64 {
    let s = &p.shape;
    if let Some(latent) = s.kv_latent {
        return s
            .layers
            .saturating_mul(latent)
            .saturating_mul(u64::from(p.kv_bytes));
    }
    let heads = s.heads.unwrap_or((s.hidden / 128).max(1));
    let kv_heads = s.kv_heads.unwrap_or(heads);
    let head_dim = s.head_dim.unwrap_or(s.hidden / heads.max(1));
    2u64.saturating_mul(s.layers)
        .saturating_mul(kv_heads)
        .saturating_mul(head_dim)
        .saturating_mul(u64::from(p.kv_bytes))
}

/// The machine-independent figures of a plan (host bytes without the machine's usable RAM).
struct Figures {
    weights: u64,
    kv_total: u64,
    kv_per_token: u64,
    gpu_per_gpu: u64,
    host_serving: u64,
    host_loading: u64,
    swap_space: u64,
    weights_on_cpu: u64,
    gpu_layers: u64,
    page_cache: u64,
    runtime: u64,
    /// KV cache on the fullest GPU (what loading doesn't hold yet).
    kv_on_gpu: u64,
    /// llama.cpp's own accounting (a GGUF served by llama.cpp).
    llama: Option<LlamaFit>,
}

fn figures(p: &InferencePlan, o: &Overheads) -> Figures {
    if let (Engine::LlamaCpp, Some(m)) = (p.engine, p.gguf.as_deref()) {
        return llama_figures(p, m, o);
    }
    let t = u64::from(p.gpus);
    let weights = p
        .weight_bytes
        .or_else(|| {
            // llama.cpp at a GGUF type: a catalogue model's tensors at llama-quantize's types.
            let ftype = p
                .weights
                .gguf_file_type()
                .filter(|_| p.engine == Engine::LlamaCpp)?;
            super::llama_cpp::quant_tensors::preset_gguf_bytes(p.preset.as_deref(), p.params, ftype)
        })
        .unwrap_or_else(|| saturating_bytes(p.params as f64 * p.weights.bytes()));
    let kv_per_token = kv_bytes_per_token(p);
    let kv_total = kv_per_token
        .saturating_mul(p.context_len)
        .saturating_mul(p.concurrent_sequences);
    // The largest tensor: the preset's (usually the token embedding), else ramvram's assumption.
    let largest = p
        .preset
        .as_deref()
        .and_then(crate::advisor::training::presets::preset)
        .and_then(|x| x.largest_layer)
        .unwrap_or_else(|| assumed_largest_layer(p.params));
    let tensor = saturating_bytes(largest as f64 * p.weights.bytes());
    let layers = p.shape.layers;
    // What loading reads: the checkpoint as stored, one shard at a time from a sharded
    // checkpoint (transformers' `from_pretrained` loops over the shard files; a pickle shard is
    // read whole by `torch.load`), memory-mapped from safetensors (the bytes in the page cache).
    let stored = p.checkpoint_dtype.map_or(p.weights.bytes(), |d| d.bytes());
    let checkpoint = match (p.checkpoint_dtype, p.weight_bytes) {
        (None, Some(_)) => weights,
        _ => saturating_bytes(p.params as f64 * stored),
    };
    // From safetensors only the tensor being copied is the process's own memory; from a pickle,
    // the shard `torch.load` reads (a single `.bin` holds everything).
    let stored_tensor = saturating_bytes(largest as f64 * stored);
    let read_at_once = match p.files {
        CheckpointFiles::Safetensors => stored_tensor.min(checkpoint),
        CheckpointFiles::Pickle => p
            .checkpoint_shard_bytes
            .unwrap_or(checkpoint)
            .min(checkpoint),
    };
    match p.engine {
        Engine::Vllm => {
            // Tensor parallel: each GPU holds 1/T of the weights and of the KV cache;
            // `cpu_offload_gb` moves that many GiB of each GPU's weights to the host.
            let offload = saturating_bytes(p.cpu_offload_gib * GIB as f64);
            let per_gpu_weights = (weights / t).saturating_sub(offload);
            // The offloaded weights sit in page-locked blocks rounded up to powers of two, from
            // the moment the model is built (so in the loading phase too).
            let pinned = super::pinned::vllm_offload_pinned(p, largest, t, offload);
            let swap = saturating_bytes(p.swap_space_gib * GIB as f64).saturating_mul(t);
            let runtime = o.runtime(t);
            // Every tensor-parallel worker reads the files itself.
            let (loading, page_cache) = match p.files {
                CheckpointFiles::Safetensors => (read_at_once.saturating_mul(t), checkpoint),
                CheckpointFiles::Pickle => (read_at_once.saturating_mul(t), 0),
            };
            // vLLM 0.34: `kv_cache_memory_bytes` is allocated whole; CPU KV offloading takes
            // its GiB of host RAM (`super::vllm`).
            let kv_gpu = super::vllm::kv_charged_per_gpu(p, kv_total / t);
            Figures {
                weights,
                kv_total,
                kv_per_token,
                gpu_per_gpu: per_gpu_weights.saturating_add(kv_gpu),
                host_serving: swap
                    .saturating_add(pinned.saturating_mul(t))
                    .saturating_add(super::vllm::kv_offload_host_bytes(p)),
                host_loading: loading.saturating_add(pinned.saturating_mul(t)),
                swap_space: swap,
                weights_on_cpu: pinned.saturating_mul(t),
                gpu_layers: layers,
                page_cache,
                runtime,
                kv_on_gpu: kv_total / t,
                llama: None,
            }
        }
        Engine::LlamaCpp => {
            // `n_gpu_layers` of the model's layers (weights and their KV cache) on the GPUs,
            // split evenly; the rest stays in RAM, read on every token (memory-mapped GGUF:
            // resident pages of the file).
            let g = p.gpu_layers.unwrap_or(layers).min(layers);
            let on_gpu = |bytes: u64| saturating_bytes(bytes as f64 * g as f64 / layers as f64);
            // `-ot exps=CPU`: the routed experts stay in RAM whatever `-ngl` says.
            let experts = match (p.experts_on_cpu, p.expert_params) {
                (true, Some(e)) => saturating_bytes(e as f64 * p.weights.bytes()).min(weights),
                _ => 0,
            };
            let dense = weights - experts;
            let (w_gpu, kv_gpu) = (on_gpu(dense), on_gpu(kv_total));
            let (w_cpu, kv_cpu) = (
                weights.saturating_sub(w_gpu),
                kv_total.saturating_sub(kv_gpu),
            );
            Figures {
                weights,
                kv_total,
                kv_per_token,
                gpu_per_gpu: w_gpu.saturating_add(kv_gpu) / t + LLAMA_CPP_COMPUTE_BYTES,
                host_serving: w_cpu.saturating_add(kv_cpu),
                host_loading: w_cpu,
                swap_space: 0,
                weights_on_cpu: w_cpu,
                gpu_layers: g,
                page_cache: weights,
                runtime: o.os.bytes.saturating_add(LLAMA_CPP_PROCESS_BYTES),
                kv_on_gpu: kv_total / t,
                llama: None,
            }
        }
        Engine::Transformers | Engine::Diffusers => {
            // `device_map="auto"` splits the layers over the GPUs; loading from safetensors goes
            // shard by shard (the device map implies `low_cpu_mem_usage`), from a single pickle
            // file `torch.load` reads it whole. With `max_memory` capping the GPUs, Accelerate
            // maps the remaining layers to "cpu": their weights stay in host RAM and are copied
            // to the GPU for every forward pass, one layer at a time (the largest tensor's room),
            // while the KV cache stays on the GPUs.
            let (loading, page_cache) = match p.files {
                CheckpointFiles::Safetensors => (read_at_once, checkpoint),
                CheckpointFiles::Pickle => (read_at_once, 0),
            };
            let g = p.gpu_layers.unwrap_or(layers).min(layers);
            let w_gpu = saturating_bytes(weights as f64 * g as f64 / layers as f64);
            let w_cpu = weights.saturating_sub(w_gpu);
            let staging = if w_cpu > 0 { tensor } else { 0 };
            Figures {
                weights,
                kv_total,
                kv_per_token,
                gpu_per_gpu: (w_gpu / t)
                    .saturating_add(kv_total / t)
                    .saturating_add(staging),
                host_serving: w_cpu,
                host_loading: loading,
                swap_space: 0,
                weights_on_cpu: w_cpu,
                gpu_layers: g,
                page_cache,
                runtime: o.runtime(1),
                kv_on_gpu: kv_total / t,
                llama: None,
            }
        }
    }
}

/// A GGUF served by llama.cpp, by llama.cpp's own rules: the file's tensor bytes, its KV cache
/// and recurrent state per layer ([`llama_cpp::kv`]), its placement ([`llama_cpp::place`]) and
/// compute buffer ([`llama_cpp::compute`]). The host keeps the CPU's weights resident in the
/// page cache (memory-mapped) and the CPU layers' cache.
fn llama_figures(p: &InferencePlan, m: &LlamaModel, o: &Overheads) -> Figures {
    let s = KvSettings {
        context_per_sequence: p.context_len,
        sequences: p.concurrent_sequences,
        ubatch: p.llama.ubatch.unwrap_or(kv::DEFAULT_UBATCH),
        type_k: p.llama.cache_type_k,
        type_v: p.llama.cache_type_v,
    };
    let placement = Placement {
        gpu_layers: p.gpu_layers,
        cpu_moe_layers: if p.experts_on_cpu {
            u64::MAX
        } else {
            p.llama.n_cpu_moe
        },
        tensor_split: p.llama.tensor_split.clone(),
    };
    let placed = place(m, &s, &placement, p.gpus);
    // With only the output layer on the GPU, no attention runs there.
    let flash = p.llama.flash_attn.enabled() || placed.gpu_layers <= 1;
    let compute = compute::gpu_compute_bytes(m, &s, flash);
    // The fullest GPU sets the need; a GPU with nothing on it needs no compute buffer.
    let (w, kv_gpu) = placed
        .gpu_weights
        .iter()
        .zip(&placed.gpu_kv)
        .map(|(&w, &k)| (w, k))
        .max_by_key(|(w, k)| w.saturating_add(*k))
        .unwrap_or((0, 0));
    let compute_gpu = if placed.gpu_layers > 0 { compute } else { 0 };
    let weights = m.bytes.total();
    Figures {
        weights,
        kv_total: kv::total(m, &s),
        kv_per_token: kv::per_token(m, &s),
        gpu_per_gpu: w.saturating_add(kv_gpu).saturating_add(compute_gpu),
        host_serving: placed.host_weights.saturating_add(placed.host_kv),
        host_loading: placed.host_weights,
        swap_space: 0,
        weights_on_cpu: placed.host_weights,
        gpu_layers: placed.gpu_layers,
        page_cache: weights,
        runtime: o.os.bytes.saturating_add(LLAMA_CPP_PROCESS_BYTES),
        kv_on_gpu: kv_gpu,
        llama: Some(LlamaFit {
            placed,
            compute_bytes: compute_gpu,
            margin_bytes: FIT_MARGIN_BYTES,
        }),
    }
}

/// The plan on a GPU of `gpu_total` bytes (the smallest one) with `usable` bytes of host RAM,
/// on a machine whose OS and processes take `o` ([`crate::advisor::overhead::overheads`]).
pub(super) fn judge(
    p: &InferencePlan,
    gpu_total: Option<u64>,
    usable: Option<u64>,
    o: &Overheads,
) -> Result<InferenceMemory, InferenceError> {
    validate(p)?;
    let f = figures(p, o);
    let phases = vec![
        Phase {
            phase: PhaseId::Loading,
            cpu_bytes_per_node: f.host_loading.saturating_add(f.runtime),
            gpu_bytes_per_gpu: f.gpu_per_gpu.saturating_sub(f.kv_on_gpu),
        },
        Phase {
            phase: PhaseId::Serving,
            cpu_bytes_per_node: f.host_serving.saturating_add(f.runtime),
            gpu_bytes_per_gpu: f.gpu_per_gpu,
        },
    ];
    let cpu_peak = crate::advisor::training::peak_cpu(&phases);
    let gpu_peak = crate::advisor::training::peak_gpu(&phases);
    // vLLM's budget on each GPU (`super::vllm::budget_per_gpu`): the weights and the cache must
    // fit in it.
    let weights_per_gpu = gpu_peak.saturating_sub(super::vllm::kv_charged_per_gpu(
        p,
        f.kv_total / u64::from(p.gpus),
    ));
    let reserved = (p.engine == Engine::Vllm)
        .then(|| gpu_total.map(|g| super::vllm::budget_per_gpu(p, g, weights_per_gpu)))
        .flatten();
    // vLLM's budget already keeps its own margin free (1 − `gpu_memory_utilization`, at least
    // 1 GiB): the need is checked against the budget without another.
    let mut gpu = match reserved {
        Some(r) => CapacityCheck::new(LimitKind::Space, gpu_peak, Some(r)),
        None => CapacityCheck::new(LimitKind::Vram, gpu_peak, gpu_total),
    };
    // llama.cpp's fit leaves its own flat margin on each device.
    if let (Some(fit), Some(_)) = (&f.llama, gpu_total) {
        gpu = gpu.with_margin(fit.margin_bytes);
    }
    let cpu = CapacityCheck::new(LimitKind::Ram, cpu_peak, usable);
    let fits = crate::advisor::check::all_fit(&[Some(gpu.fits), Some(cpu.fits)]);
    Ok(InferenceMemory {
        plan: p.clone(),
        weights_bytes: f.weights,
        kv_cache_bytes: f.kv_total,
        kv_bytes_per_token: f.kv_per_token,
        phases,
        cpu_peak_bytes_per_node: cpu_peak,
        gpu_peak_bytes_per_gpu: gpu_peak,
        gpu_reserved_bytes_per_gpu: reserved,
        swap_space_bytes: f.swap_space,
        weights_on_cpu_bytes: f.weights_on_cpu,
        gpu_layers: f.gpu_layers,
        page_cache_bytes: f.page_cache,
        runtime_bytes_per_node: f.runtime,
        gpu,
        cpu,
        fits,
        llama_cpp: f.llama,
        diffusion: None,
    })
}
