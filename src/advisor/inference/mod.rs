//! Inference memory: serving a model with vLLM, llama.cpp or Hugging Face transformers —
//! weights and the KV cache on the GPUs, and the host RAM each engine takes (vLLM's pinned swap
//! space and CPU offload, llama.cpp's layers left on the CPU, the loading peak). Formulas and
//! defaults in `docs/model.md` § "Inference memory".

mod advice;
pub mod diffusers;
mod estimate;
pub mod knob_values;
pub mod llama_cpp;
pub mod ollama;
pub mod pinned;
mod serve;
pub mod vllm;
pub mod vllm_release;

use serde::{Deserialize, Serialize};

pub use advice::failing_phase;
pub use advice::outcome as outcome_of;
pub use serve::{judged, serve_against};

use super::training::{CapacityCheck, Phase, TransformerShape};

/// The serving engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// vLLM: pre-allocates `gpu_memory_utilization` of each GPU, tensor parallel over the GPUs.
    Vllm,
    /// llama.cpp: GGUF weights, `n_gpu_layers` on the GPUs, the rest in RAM.
    LlamaCpp,
    /// Hugging Face transformers `generate` with `device_map="auto"`.
    Transformers,
    /// Hugging Face diffusers: a diffusion pipeline on one GPU ([`crate::advisor::diffusion`]).
    Diffusers,
}

/// How the weights are stored and served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeightFormat {
    /// bf16/fp16: 2 bytes per parameter.
    Bf16,
    /// FP8 (E4M3): 1 byte.
    Fp8,
    /// INT8 (`Q8_0` in GGUF: 8.5 bits with its scales): 1.0625 bytes.
    Int8,
    /// 4-bit GPTQ/AWQ/NF4 (4.127 bits with group scales, as QLoRA's NF4 double-quantised).
    Int4,
    /// GGUF `Q4_K_M`: 4.85 bits per parameter on average (llama.cpp's quantize table for a 7B).
    Q4KM,
    /// GGUF `Q5_K_M`: 5.70 bits per parameter (llama-quantize's figure for Llama-3.1-8B).
    Q5KM,
    /// GGUF `Q6_K`: 6.5625 bits (210 bytes per block of 256, ggml.c `type_traits`).
    Q6K,
}

impl WeightFormat {
    /// Bytes per parameter.
    pub fn bytes(self) -> f64 {
        match self {
            WeightFormat::Bf16 => 2.0,
            WeightFormat::Fp8 => 1.0,
            WeightFormat::Int8 => 8.5 / 8.0,
            WeightFormat::Int4 => super::training::QLORA_BASE_BYTES,
            WeightFormat::Q4KM => 4.85 / 8.0,
            WeightFormat::Q5KM => 5.70 / 8.0,
            WeightFormat::Q6K => 210.0 / 256.0,
        }
    }

    /// The `llama-quantize` file type of a GGUF format, whose type mix sizes a catalogue model
    /// tensor by tensor ([`llama_cpp::quant_tensors::preset_gguf_bytes`]); `None` for the
    /// formats other engines serve (`Int8` is GGUF's `Q8_0`).
    pub fn gguf_file_type(self) -> Option<llama_cpp::quant::FileType> {
        use llama_cpp::quant::FileType as F;
        match self {
            WeightFormat::Int8 => Some(F::Q8_0),
            WeightFormat::Q4KM => Some(F::Q4KM),
            WeightFormat::Q5KM => Some(F::Q5KM),
            WeightFormat::Q6K => Some(F::Q6K),
            WeightFormat::Bf16 | WeightFormat::Fp8 | WeightFormat::Int4 => None,
        }
    }
}

/// The checkpoint's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckpointFiles {
    /// safetensors (or GGUF): memory-mapped, the bytes in the page cache.
    #[default]
    Safetensors,
    /// A pickle file (`.bin`, `.pt`) read whole by `torch.load`.
    Pickle,
}

/// What to serve, and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InferencePlan {
    /// The engine.
    pub engine: Engine,
    /// Preset id the shape came from, if any.
    #[serde(default)]
    pub preset: Option<String>,
    /// Total parameters.
    pub params: u64,
    /// Layers, hidden size, heads and KV heads (for the KV cache).
    pub shape: TransformerShape,
    /// Weight format.
    pub weights: WeightFormat,
    /// GPUs (vLLM's tensor-parallel size; llama.cpp and transformers split layers over them).
    pub gpus: u32,
    /// Tokens per sequence (vLLM `max_model_len`, llama.cpp `-c`).
    pub context_len: u64,
    /// Sequences served at once (each with a full-length KV cache).
    pub concurrent_sequences: u64,
    /// Bytes per KV-cache element: 2 (fp16/bf16, every engine's default), 1 (vLLM
    /// `kv_cache_dtype=fp8`).
    #[serde(default = "two")]
    pub kv_bytes: u8,
    /// vLLM `gpu_memory_utilization`; default 1.0, what vLLM 0.34 resolves it to when unset
    /// on CUDA and ROCm ([`vllm::DEFAULT_UTILIZATION`]).
    #[serde(default = "utilization")]
    pub gpu_memory_utilization: f64,
    /// The vLLM release ([`vllm::VllmRelease`], `--vllm-version`): before 0.34 vLLM refuses to
    /// start when the free memory is below its share ([`vllm::checks_free_memory_at_start`]).
    #[serde(default)]
    pub vllm_version: vllm_release::VllmRelease,
    /// vLLM `swap_space`, GiB of pinned host RAM per GPU worker: V0-era engines only (default
    /// 4 there); vLLM 0.34's V1 engine has none, so the default is 0 ([`vllm`]).
    #[serde(default = "swap_space")]
    pub swap_space_gib: f64,
    /// vLLM `cpu_offload_gb`, GiB of weights per GPU kept in host RAM (default 0).
    #[serde(default)]
    pub cpu_offload_gib: f64,
    /// vLLM `kv_cache_memory_bytes`: the KV cache per GPU, replacing the sizing from
    /// `gpu_memory_utilization` ([`vllm::budget_per_gpu`]); `None`: sized by vLLM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache_memory_bytes: Option<u64>,
    /// vLLM `kv_offloading_size`: GiB of host RAM for CPU KV offloading, all tensor-parallel
    /// ranks together ([`vllm::kv_offload_host_bytes`]); 0: off.
    #[serde(default)]
    pub kv_offloading_gib: f64,
    /// llama.cpp `n_gpu_layers`; `None`: every layer on the GPUs.
    #[serde(default)]
    pub gpu_layers: Option<u64>,
    /// The checkpoint's files.
    #[serde(default)]
    pub files: CheckpointFiles,
    /// The checkpoint's element type on disk, what loading reads (a 16-bit checkpoint
    /// quantised to 4 bits while loading reads 2 bytes per parameter); `None`: the served
    /// format (a pre-quantised checkpoint).
    #[serde(default)]
    pub checkpoint_dtype: Option<super::training::CheckpointDtype>,
    /// The largest checkpoint file (shard), bytes; `None`: Hugging Face's default
    /// `max_shard_size` of 5 GB for safetensors, one file holding everything for a pickle.
    #[serde(default)]
    pub checkpoint_shard_bytes: Option<u64>,
    /// Parameters of the routed experts of a mixture-of-experts model (all layers), when known:
    /// memory holds every expert, each token reads only the ones it is routed to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expert_params: Option<u64>,
    /// llama.cpp `--override-tensor exps=CPU` (`-ot`, `--cpu-moe`): the routed experts'
    /// weights stay in host RAM for every layer; attention, norms and shared experts follow
    /// `n_gpu_layers`.
    #[serde(default)]
    pub experts_on_cpu: bool,
    /// The weights' bytes when known tensor by tensor rather than as params × the format's
    /// bytes: a catalogue model as `llama-quantize` writes it (`Q4_K_M`'s type mix,
    /// [`llama_cpp::quant_tensors::catalogue_gguf_bytes`]) or as released (gpt-oss's MXFP4
    /// experts, `catalog::models::ModelEntry::released_weight_bytes`); `None`: params × format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_bytes: Option<u64>,
    /// The GGUF file as llama.cpp loads it (`--model FILE.gguf`): with it, llama.cpp's own
    /// rules size and place every byte ([`llama_cpp`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gguf: Option<Box<llama_cpp::LlamaModel>>,
    /// llama.cpp's own flags (cache types, micro-batch, flash attention, `--n-cpu-moe`, `-ts`).
    #[serde(default, skip_serializing_if = "llama_cpp::LlamaSettings::is_default")]
    pub llama: llama_cpp::LlamaSettings,
    /// The pipeline, image and switches of a diffusers plan; `None` for the other engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diffusion: Option<crate::advisor::diffusion::DiffusionPlan>,
}

fn two() -> u8 {
    2
}
/// vLLM 0.34's `gpu_memory_utilization` when unset on CUDA and ROCm, 1.0 (the same figure as
/// `vllm::DEFAULT_UTILIZATION`, which a test there checks).
fn utilization() -> f64 {
    1.0
}
fn swap_space() -> f64 {
    0.0
}

impl InferencePlan {
    /// A plan with each engine's defaults: 1 GPU, 4,096 tokens, one sequence, fp16 KV cache,
    /// vLLM 0.34's 1.0 utilisation, no swap space and no KV offloading, every layer on the GPU,
    /// safetensors.
    pub fn new(
        engine: Engine,
        params: u64,
        shape: TransformerShape,
        weights: WeightFormat,
    ) -> Self {
        InferencePlan {
            engine,
            preset: None,
            params,
            shape,
            weights,
            gpus: 1,
            context_len: 4096,
            concurrent_sequences: 1,
            kv_bytes: 2,
            gpu_memory_utilization: utilization(),
            vllm_version: vllm_release::VllmRelease::CURRENT,
            swap_space_gib: swap_space(),
            cpu_offload_gib: 0.0,
            kv_cache_memory_bytes: None,
            kv_offloading_gib: 0.0,
            gpu_layers: None,
            files: CheckpointFiles::Safetensors,
            checkpoint_dtype: None,
            checkpoint_shard_bytes: None,
            expert_params: None,
            experts_on_cpu: false,
            weight_bytes: None,
            gguf: None,
            llama: llama_cpp::LlamaSettings::default(),
            diffusion: None,
        }
    }
}

/// An inference input that can't be right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InferenceError {
    /// Zero (or beyond any real model or machine) parameters, layers, hidden size, heads, GPUs,
    /// tokens or sequences.
    Zero,
    /// `gpu_memory_utilization` outside (0, 1].
    Utilization,
    /// More GPU layers than the model has (no longer raised: `-ngl` of any size is clamped to
    /// the model's layers, as llama.cpp does).
    GpuLayers,
    /// Negative or non-finite swap space, CPU offload or KV offloading, or a zero
    /// `kv_cache_memory_bytes`.
    HostGib,
    /// KV bytes other than 1, 2 or 4.
    KvBytes,
    /// Experts kept on the CPU for a model with no expert figure, or experts larger than the
    /// model.
    Experts,
}

/// The inference estimate on a machine (`inference_memory` in `advise --json`): the same shape
/// as `training_memory`'s phases and peaks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InferenceMemory {
    /// The plan.
    pub plan: InferencePlan,
    /// All the weights, bytes.
    pub weights_bytes: u64,
    /// KV cache for `context_len × concurrent_sequences` tokens, all GPUs together, bytes.
    pub kv_cache_bytes: u64,
    /// KV cache per token, bytes: 2 × layers × KV heads × head dim × KV bytes.
    pub kv_bytes_per_token: u64,
    /// Loading, then serving.
    pub phases: Vec<Phase>,
    /// The larger phase's host RAM, bytes (runtime included).
    pub cpu_peak_bytes_per_node: u64,
    /// The larger phase's VRAM per GPU, bytes.
    pub gpu_peak_bytes_per_gpu: u64,
    /// What vLLM lets its weights, activations and cache take on each GPU
    /// ([`vllm::budget_per_gpu`]), when known.
    pub gpu_reserved_bytes_per_gpu: Option<u64>,
    /// Pinned host RAM for vLLM's swap space, all workers, bytes.
    pub swap_space_bytes: u64,
    /// Weights kept in host RAM (vLLM `cpu_offload_gb`, llama.cpp's CPU layers), bytes.
    pub weights_on_cpu_bytes: u64,
    /// Layers on the GPUs (llama.cpp).
    pub gpu_layers: u64,
    /// Checkpoint bytes read through the page cache (memory-mapped), not in the peak.
    pub page_cache_bytes: u64,
    /// The OS and the engine's processes, in both phases' host figure.
    pub runtime_bytes_per_node: u64,
    /// Per-GPU need against the smallest GPU (for vLLM: against its reserved share).
    pub gpu: CapacityCheck,
    /// Host need against usable RAM.
    pub cpu: CapacityCheck,
    /// Everything fits (`None`: can't tell).
    pub fits: Option<bool>,
    /// llama.cpp's own accounting, for a GGUF served by llama.cpp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llama_cpp: Option<llama_cpp::place::LlamaFit>,
    /// A diffusion pipeline's components and working memory (diffusers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diffusion: Option<crate::advisor::diffusion::DiffusionMemory>,
}
