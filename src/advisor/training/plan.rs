//! A training plan: what the user wants to train and how (strategy, offload, precision,
//! optimizer, LoRA/QLoRA, loading, activations), and what can be wrong with one.

use serde::{Deserialize, Serialize};

use super::presets::{self, Preset, TransformerShape};

/// QLoRA's frozen base: 4-bit NF4 weights plus double-quantised constants, 0.127 bits per
/// parameter (Dettmers et al. 2023, QLoRA, §3 "Double Quantization"): (4 + 0.127) / 8 bytes.
pub const QLORA_BASE_BYTES: f64 = (4.0 + 0.127) / 8.0;

/// Numeric precision of training.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Precision {
    /// Everything in fp32.
    Fp32,
    /// bf16/fp16 weights and gradients with fp32 master weights (mixed precision; FSDP's
    /// `MixedPrecision(param_dtype=bfloat16)` over fp32 sharded parameters).
    #[default]
    Mixed16,
    /// Pure bf16: parameters, gradients and optimizer states all in bf16, no fp32 copy
    /// (torchtune's recipes with `dtype: bf16`, which build the model in bf16 and shard it
    /// with FSDP2's `fully_shard` without a `MixedPrecisionPolicy`; an optimizer's states take
    /// the parameters' dtype: `torch.optim.AdamW` makes `exp_avg` and `exp_avg_sq` with
    /// `torch.zeros_like(p)`).
    Bf16,
}

/// Optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Optimizer {
    /// Adam / AdamW: fp32 momentum and variance, 8 bytes per parameter.
    #[default]
    Adam,
    /// SGD with momentum: one fp32 buffer, 4 bytes per parameter.
    SgdMomentum,
    /// bitsandbytes 8-bit Adam: 8-bit momentum and variance, 2 bytes per parameter
    /// (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization").
    Adam8bit,
    /// Adafactor without momentum: factored second moments, O(rows + cols) per matrix,
    /// counted as 0 bytes per parameter (Shazeer & Stern 2018).
    Adafactor,
    /// bitsandbytes' paged 8-bit AdamW (`bnb.optim.PagedAdamW8bit`, torchtune's low-memory
    /// configs): the same 2 bytes per parameter as [`Optimizer::Adam8bit`], in CUDA unified
    /// memory for tensors of 10^5 elements or more (`bitsandbytes/optim/optimizer.py::
    /// get_state_buffer` with `is_paged`: `F.get_paged`, `cudaMallocManaged`) that the driver
    /// pages out to host RAM when the GPU runs short (on CPU parameters, as under FSDP's CPU
    /// offload, newer releases fall back to ordinary tensors); counted where the optimizer's
    /// states are placed.
    PagedAdam8bit,
}

impl Optimizer {
    /// Optimizer-state bytes per parameter under `precision`. Adam's two moments and SGD's
    /// momentum buffer take the dtype of the parameters the optimizer steps
    /// (`torch/optim/adamw.py::_init_group`: `torch.zeros_like(p, memory_format=…)`): fp32
    /// master weights under mixed precision and fp32 (8 and 4 bytes), bf16 parameters in pure
    /// bf16 (4 and 2 bytes). bitsandbytes' 8-bit Adam keeps two 8-bit states whatever the
    /// parameters' dtype (2 bytes); Adafactor's factored moments are counted as 0.
    pub fn state_bytes(self, precision: Precision) -> f64 {
        let element = if precision == Precision::Bf16 {
            2.0
        } else {
            4.0
        };
        match self {
            Optimizer::Adam => 2.0 * element,
            Optimizer::SgdMomentum => element,
            Optimizer::Adam8bit | Optimizer::PagedAdam8bit => 2.0,
            Optimizer::Adafactor => 0.0,
        }
    }
}

/// How model states are spread over GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Plain data parallel: every GPU holds everything.
    Ddp,
    /// ZeRO stage 1: optimizer states partitioned.
    Zero1,
    /// ZeRO stage 2: optimizer states and gradients partitioned.
    #[default]
    Zero2,
    /// ZeRO stage 3: parameters too.
    Zero3,
    /// PyTorch FSDP `FULL_SHARD` (ZeRO-3's partitioning).
    FsdpFullShard,
}

/// Where offloaded states go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum OffloadTarget {
    /// Stay on the GPU.
    #[default]
    None,
    /// CPU RAM (ZeRO-Offload, FSDP CPU offload).
    Cpu,
    /// NVMe (ZeRO-Infinity), ZeRO-3 only.
    Nvme,
}

/// Full training or a parameter-efficient method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum FineTune {
    /// All parameters trained.
    #[default]
    Full,
    /// LoRA: frozen 16-bit base, trained low-rank adapters (Hu et al. 2021).
    Lora,
    /// QLoRA: frozen 4-bit NF4 base, trained adapters (Dettmers et al. 2023).
    Qlora,
}

/// Optional activation estimate input (kept apart from model states).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationInput {
    /// Sequence length s (tokens).
    pub seq_len: u64,
    /// Micro-batch size b per GPU.
    pub micro_batch: u64,
    /// Full activation checkpointing (recompute everything but each layer's input).
    pub checkpointing: bool,
    /// Transformer shape; `None` takes the preset's.
    pub shape: Option<TransformerShape>,
    /// Attention that never stores the s × s score matrix (FlashAttention, PyTorch's
    /// `scaled_dot_product_attention`, the default attention of Hugging Face transformers since
    /// 4.36); `false` for eager attention, which stores it (Korthikanti et al.'s `5·a·s/h`
    /// term). Default `true`.
    #[serde(default = "yes")]
    pub flash_attention: bool,
}

fn yes() -> bool {
    true
}

/// How the checkpoint gets from disk to the GPUs: the loading phase's CPU RAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadingMethod {
    /// Every rank loads the whole checkpoint into CPU RAM: PyTorch DDP and FSDP scripts
    /// (`sync_module_states=False` is FSDP's default), DeepSpeed without `zero.Init` (its
    /// estimator counts this copy), Hugging Face `from_pretrained` without
    /// `low_cpu_mem_usage`.
    EveryRank,
    /// Rank 0 loads, the other ranks build an empty model and receive a broadcast (FSDP
    /// `sync_module_states=True`; accelerate's `fsdp_cpu_ram_efficient_loading`).
    Rank0Broadcast,
    /// The model is built on the meta device and each rank loads only what it keeps, a shard
    /// at a time (FSDP with `param_init_fn`, `torch.distributed.checkpoint`).
    MetaDevice,
    /// Hugging Face `from_pretrained(low_cpu_mem_usage=True)` (implied by `device_map` and by
    /// bitsandbytes quantisation): one checkpoint shard at a time per rank.
    LowCpuMemUsage,
    /// safetensors files memory-mapped: the bytes sit in the page cache, which the kernel can
    /// drop, not in the process's anonymous memory; only the tensor being copied is held.
    Mmap,
}

/// The checkpoint's element type on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CheckpointDtype {
    /// bf16/fp16, 2 bytes per parameter (how Hugging Face hub models are published).
    #[default]
    Bf16,
    /// fp32, 4 bytes per parameter.
    Fp32,
    /// Pre-quantised 4-bit (GPTQ, AWQ, NF4 saved): QLoRA's 4.127 bits per parameter.
    Int4,
}

impl CheckpointDtype {
    /// Bytes per parameter on disk.
    pub fn bytes(self) -> f64 {
        match self {
            CheckpointDtype::Bf16 => 2.0,
            CheckpointDtype::Fp32 => 4.0,
            CheckpointDtype::Int4 => QLORA_BASE_BYTES,
        }
    }
}

/// DeepSpeed's NVMe offload settings that size pinned host buffers (ZeRO-Infinity). Defaults
/// are DeepSpeed's (docs "ZeRO-Infinity / offload_param, offload_optimizer, aio",
/// deepspeed/runtime/zero/offload_config.py, deepspeed/runtime/swap_tensor/aio_config.py).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NvmeConfig {
    /// `offload_param.buffer_count`: parameter swap buffers per rank. Default 5.
    #[serde(default = "param_buffer_count")]
    pub param_buffer_count: u32,
    /// `offload_param.buffer_size`: elements per parameter buffer (16-bit). Default 1e8.
    #[serde(default = "param_buffer_size")]
    pub param_buffer_size: u64,
    /// `offload_param.max_in_cpu`: parameter elements kept in CPU RAM when parameters are on
    /// NVMe. Default 1e9.
    #[serde(default = "max_in_cpu")]
    pub max_in_cpu: u64,
    /// `offload_optimizer.buffer_count`: optimizer swap buffers per rank, each as large as
    /// the largest layer's fp32 states. Default 4.
    #[serde(default = "optimizer_buffer_count")]
    pub optimizer_buffer_count: u32,
    /// `aio.block_size`, bytes. Default 1,048,576.
    #[serde(default = "aio_block_size")]
    pub aio_block_size: u64,
    /// `aio.queue_depth`. Default 8.
    #[serde(default = "aio_queue_depth")]
    pub aio_queue_depth: u32,
    /// `aio.thread_count`. Default 1.
    #[serde(default = "aio_thread_count")]
    pub aio_thread_count: u32,
}

fn param_buffer_count() -> u32 {
    5
}
fn param_buffer_size() -> u64 {
    100_000_000
}
fn max_in_cpu() -> u64 {
    1_000_000_000
}
fn optimizer_buffer_count() -> u32 {
    4
}
fn aio_block_size() -> u64 {
    1_048_576
}
fn aio_queue_depth() -> u32 {
    8
}
fn aio_thread_count() -> u32 {
    1
}

impl Default for NvmeConfig {
    /// DeepSpeed's defaults.
    fn default() -> NvmeConfig {
        NvmeConfig {
            param_buffer_count: param_buffer_count(),
            param_buffer_size: param_buffer_size(),
            max_in_cpu: max_in_cpu(),
            optimizer_buffer_count: optimizer_buffer_count(),
            aio_block_size: aio_block_size(),
            aio_queue_depth: aio_queue_depth(),
            aio_thread_count: aio_thread_count(),
        }
    }
}

/// A training plan: what the user wants to train, and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingPlan {
    /// Preset id this plan started from, if any.
    #[serde(default)]
    pub preset: Option<String>,
    /// Total parameters P.
    pub params: u64,
    /// Parameters of the largest layer L; `None` takes the preset's or an assumption.
    #[serde(default)]
    pub largest_layer_params: Option<u64>,
    /// Precision.
    #[serde(default)]
    pub precision: Precision,
    /// Optimizer.
    #[serde(default)]
    pub optimizer: Optimizer,
    /// Strategy.
    #[serde(default)]
    pub strategy: Strategy,
    /// Optimizer offload.
    #[serde(default)]
    pub offload_optimizer: OffloadTarget,
    /// Parameter offload.
    #[serde(default)]
    pub offload_param: OffloadTarget,
    /// DeepSpeed `zero.Init` (ZeRO-3: partition while constructing, no full copy per rank).
    #[serde(default)]
    pub zero_init: bool,
    /// The optimizer steps each parameter in the backward pass, as soon as its gradient is
    /// ready, and frees that gradient (torchtune's `optimizer_in_bwd: True`,
    /// `torchtune/training/memory.py::register_optim_in_bwd_hooks`, a
    /// `register_post_accumulate_grad_hook` per parameter): no full gradient buffer. Counted
    /// under FSDP and DDP.
    #[serde(default)]
    pub optimizer_in_backward: bool,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// Nodes.
    pub nodes: u32,
    /// Full training, LoRA or QLoRA.
    #[serde(default)]
    pub finetune: FineTune,
    /// Share of parameters LoRA trains (0–1). Default 1 % (assumption: LoRA on all linear
    /// layers of a 7B decoder at rank 16 trains about 0.6 %).
    #[serde(default = "default_lora_share")]
    pub lora_trainable_share: f64,
    /// Optional activation estimate.
    #[serde(default)]
    pub activations: Option<ActivationInput>,
    /// How the checkpoint is loaded; `None`: what the framework does by default for the
    /// strategy ([`super::loading::default_method`]).
    #[serde(default)]
    pub loading: Option<LoadingMethod>,
    /// The checkpoint's element type on disk (bf16 unless said otherwise).
    #[serde(default)]
    pub checkpoint_dtype: CheckpointDtype,
    /// NVMe offload settings (DeepSpeed's defaults when `None`).
    #[serde(default)]
    pub nvme: Option<NvmeConfig>,
    /// How the training state is saved; `None`: the framework's default
    /// (`lifecycle::default_save`).
    #[serde(default)]
    pub save_state_dict: Option<super::checkpointing::SaveStateDict>,
    /// How a saved state is read back; `None`: the framework's default
    /// (`lifecycle::default_resume`).
    #[serde(default)]
    pub resume_load: Option<super::checkpointing::ResumeLoad>,
    /// Ranks that wrote the checkpoint being resumed; `None`: this plan's own.
    #[serde(default)]
    pub resume_world_size: Option<u32>,
}

fn default_lora_share() -> f64 {
    0.01
}

impl TrainingPlan {
    /// A plan for `params` parameters with defaults: mixed-precision Adam, ZeRO-2, no offload,
    /// full training, one GPU on one node.
    pub fn new(params: u64) -> TrainingPlan {
        TrainingPlan {
            preset: None,
            params,
            largest_layer_params: None,
            precision: Precision::default(),
            optimizer: Optimizer::default(),
            strategy: Strategy::default(),
            offload_optimizer: OffloadTarget::None,
            offload_param: OffloadTarget::None,
            zero_init: false,
            optimizer_in_backward: false,
            gpus_per_node: 1,
            nodes: 1,
            finetune: FineTune::Full,
            lora_trainable_share: default_lora_share(),
            activations: None,
            loading: None,
            checkpoint_dtype: CheckpointDtype::Bf16,
            nvme: None,
            save_state_dict: None,
            resume_load: None,
            resume_world_size: None,
        }
    }

    /// A plan from a preset (parameters, largest layer and shape from the model's publication).
    pub fn from_preset(p: &Preset) -> TrainingPlan {
        TrainingPlan {
            preset: Some(p.id.clone()),
            largest_layer_params: p.largest_layer,
            ..TrainingPlan::new(p.params)
        }
    }

    /// The preset this plan names.
    pub fn preset(&self) -> Option<&'static Preset> {
        self.preset.as_deref().and_then(presets::preset)
    }
}

/// An input that can't be right, naming the input (`params`, `largest_layer_params`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanError {
    /// Zero parameters.
    ParamsZero,
    /// More parameters than [`super::estimate::MAX_PARAMS`].
    ParamsTooMany,
    /// More GPUs per node than [`super::estimate::MAX_GPUS_PER_NODE`].
    GpusTooMany,
    /// More nodes than [`super::estimate::MAX_NODES`].
    NodesTooMany,
    /// Largest layer bigger than the model.
    LargestLayerTooBig,
    /// Zero GPUs per node.
    GpusZero,
    /// Zero nodes.
    NodesZero,
    /// Optimizer offload asked for with DDP or ZeRO-1, which this planner does not estimate.
    OffloadNeedsZero2,
    /// An activation estimate with a zero sequence length or micro-batch.
    ActivationsZero,
    /// NVMe offload needs ZeRO-3 (DeepSpeed allows NVMe offload only with stage 3).
    NvmeNeedsZero3,
    /// Parameter offload needs ZeRO-3 or FSDP.
    ParamOffloadNeedsZero3,
    /// FSDP's CPUOffload moves parameters, gradients and optimizer states together.
    FsdpOffloadTogether,
    /// LoRA share outside (0, 1].
    LoraShareOutOfRange,
    /// A transformer shape with zero layers, hidden size or heads.
    ShapeZero,
    /// An NVMe setting of zero (buffer count or size, AIO block size, queue depth, threads).
    NvmeConfigZero,
}

impl PlanError {
    /// The input the error is about, as a scenario file names it (`training.<field>`).
    pub fn scenario_field(self) -> &'static str {
        match self {
            PlanError::ParamsZero | PlanError::ParamsTooMany => "params",
            PlanError::LargestLayerTooBig => "largest_layer_params",
            PlanError::GpusZero | PlanError::GpusTooMany => "gpus_per_node",
            PlanError::NodesZero | PlanError::NodesTooMany => "nodes",
            PlanError::ActivationsZero => "activations",
            PlanError::NvmeNeedsZero3
            | PlanError::FsdpOffloadTogether
            | PlanError::OffloadNeedsZero2 => "offload_optimizer",
            PlanError::ParamOffloadNeedsZero3 => "offload_param",
            PlanError::LoraShareOutOfRange => "lora_trainable_share",
            PlanError::ShapeZero => "activations.shape",
            PlanError::NvmeConfigZero => "nvme",
        }
    }

    /// The input the error is about, as the command-line flag names it.
    pub fn field(self) -> &'static str {
        match self {
            PlanError::ParamsZero | PlanError::ParamsTooMany => "params",
            PlanError::LargestLayerTooBig => "largest-layer-params",
            PlanError::GpusZero | PlanError::GpusTooMany => "gpus-per-node",
            PlanError::NodesZero | PlanError::NodesTooMany => "nodes",
            PlanError::ActivationsZero => "seq-len",
            PlanError::NvmeNeedsZero3
            | PlanError::FsdpOffloadTogether
            | PlanError::OffloadNeedsZero2 => "offload-optimizer",
            PlanError::ParamOffloadNeedsZero3 => "offload-param",
            PlanError::LoraShareOutOfRange => "lora-share",
            PlanError::ShapeZero => "layers",
            PlanError::NvmeConfigZero => "nvme-buffer-count",
        }
    }
}

/// Something the user should know about how the plan was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanWarning {
    /// The largest layer was not given; [`presets::assumed_largest_layer`] was used.
    LargestLayerAssumed,
    /// ZeRO-3 parameter offload without optimizer offload: DeepSpeed's estimator ignores it.
    ParamOffloadIgnored,
    /// The plan uses more GPUs per node than the machine has.
    MoreGpusThanMachine,
    /// Activations asked for but no transformer shape known.
    ActivationsNeedShape,
}
