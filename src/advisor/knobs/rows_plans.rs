//! The training plan's, the served model's and the machine's knobs
//! ([`crate::advisor::training::TrainingPlan`], [`crate::advisor::inference::InferencePlan`],
//! [`crate::advisor::whatif::MachineChange`]), in the order `advise --help` lists them.

use super::types::{DefaultSource as D, Kind, Knob, KnobId as K, Label as L, Plan, Range};
use crate::i18n::Msg;

const fn row(
    plan: Plan,
    id: K,
    flag: &'static str,
    fields: &'static [&'static str],
    kind: Kind,
    (default, source): (Option<&'static str>, D),
    label: Option<Msg>,
) -> Knob {
    Knob {
        id,
        plan,
        flag,
        fields,
        kind,
        range: None,
        default,
        source,
        label: match label {
            Some(m) => Some(L::Text(m)),
            None => None,
        },
        in_base_note: false,
    }
}

const OFFLOAD: &[&str] = &["none", "cpu", "nvme"];
const T: Plan = Plan::Training;
const I: Plan = Plan::Inference;
const M: Plan = Plan::Machine;
const MO: Plan = Plan::Model;

/// The training plan's knobs (the model's shape and size: `--params`, `--layers`,
/// `--hidden-size`, `--heads` serve the inference plan too).
#[rustfmt::skip]
pub const TRAINING: &[Knob] = &[
    row(MO, K::Params, "params", &["params"], Kind::Count, (None, D::Preset), Some(Msg::TrainParams)),
    row(T, K::LargestLayerParams, "largest-layer-params", &["largest_layer_params"], Kind::Count, (None, D::Preset), Some(Msg::TrainLargestLayer)),
    row(T, K::Precision, "precision", &["precision"], Kind::Choice(&["mixed16", "fp32", "bf16"]), (Some("mixed16"), D::Assumption), Some(Msg::TrainPrecision)),
    row(T, K::Optimizer, "optimizer", &["optimizer"], Kind::Choice(&["adam", "sgd-momentum", "adam8bit", "adafactor", "paged-adam8bit"]), (Some("adam"), D::Assumption), Some(Msg::TrainOptimizer)),
    row(T, K::Strategy, "strategy", &["strategy"], Kind::Choice(&["ddp", "zero1", "zero2", "zero3", "fsdp"]), (None, D::Derived), Some(Msg::TrainStrategy)),
    Knob { range: Some(Range::whole(0, 3)), ..row(T, K::ZeroStage, "zero-stage", &["strategy"], Kind::U32, (None, D::Derived), None) },
    row(T, K::OffloadOptimizer, "offload-optimizer", &["offload_optimizer"], Kind::Choice(OFFLOAD), (Some("none"), D::Off), Some(Msg::TrainOffloadOptimizer)),
    row(T, K::OffloadParam, "offload-param", &["offload_param"], Kind::Choice(OFFLOAD), (Some("none"), D::Off), Some(Msg::TrainOffloadParam)),
    row(T, K::ZeroInit, "zero-init", &["zero_init"], Kind::Switch, (None, D::Off), Some(Msg::TrainZeroInit)),
    row(T, K::OptimizerInBackward, "optimizer-in-backward", &["optimizer_in_backward"], Kind::Switch, (None, D::Off), Some(Msg::TrainOptimizerInBackward)),
    row(MO, K::GpusPerNode, "gpus-per-node", &["gpus_per_node"], Kind::U32, (None, D::Machine), Some(Msg::TrainGpusPerNode)),
    row(T, K::Nodes, "nodes", &["nodes"], Kind::U32, (Some("1"), D::Assumption), Some(Msg::TrainNodes)),
    row(T, K::Finetune, "finetune", &["finetune"], Kind::Choice(&["full", "lora", "qlora"]), (Some("full"), D::Assumption), Some(Msg::TrainFinetune)),
    row(T, K::LoraShare, "lora-share", &["lora_trainable_share"], Kind::Share, (Some("1%"), D::Assumption), Some(Msg::TrainLoraShare)),
    row(T, K::SeqLen, "seq-len", &["seq_len"], Kind::U64, (None, D::Off), Some(Msg::TrainSeqLen)),
    row(T, K::MicroBatch, "micro-batch", &["micro_batch"], Kind::U64, (None, D::Off), Some(Msg::TrainMicroBatch)),
    row(T, K::Checkpointing, "checkpointing", &["checkpointing"], Kind::Switch, (None, D::Off), Some(Msg::TrainCheckpointing)),
    row(T, K::EagerAttention, "eager-attention", &["flash_attention"], Kind::Switch, (None, D::Off), Some(Msg::TrainEagerAttention)),
    row(MO, K::Layers, "layers", &["layers"], Kind::U64, (None, D::Preset), Some(Msg::TrainLayers)),
    row(MO, K::HiddenSize, "hidden-size", &["hidden"], Kind::U64, (None, D::Preset), Some(Msg::TrainHidden)),
    row(MO, K::Heads, "heads", &["heads"], Kind::U64, (None, D::Derived), Some(Msg::TrainHeads)),
    row(T, K::Loading, "loading", &["loading"], Kind::Choice(&["every-rank", "rank0", "meta-device", "low-cpu-mem-usage", "mmap"]), (None, D::Derived), Some(Msg::TrainLoading)),
    row(T, K::CheckpointDtype, "checkpoint-dtype", &["checkpoint_dtype"], Kind::Choice(&["bf16", "fp32", "int4"]), (Some("bf16"), D::Assumption), Some(Msg::TrainCheckpointDtype)),
    row(T, K::SaveStateDict, "save-state-dict", &["save_state_dict"], Kind::Choice(&["full", "full-every-rank", "sharded"]), (None, D::Derived), Some(Msg::TrainSaveStateDict)),
    row(T, K::ResumeLoad, "resume-load", &["resume_load"], Kind::Choice(&["every-rank", "rank0", "per-rank"]), (None, D::Derived), Some(Msg::TrainResumeLoad)),
    Knob { range: Some(Range::positive(1_000_000)), ..row(T, K::ResumeWorldSize, "resume-world-size", &["resume_world_size"], Kind::U32, (None, D::Derived), Some(Msg::TrainResumeWorldSize)) },
    row(T, K::NvmeBufferCount, "nvme-buffer-count", &["param_buffer_count"], Kind::U32, (Some("5"), D::DeepSpeed), None),
    row(T, K::NvmeBufferSize, "nvme-buffer-size", &["param_buffer_size"], Kind::Count, (Some("100000000"), D::DeepSpeed), None),
    row(T, K::NvmeMaxInCpu, "nvme-max-in-cpu", &["max_in_cpu"], Kind::Count, (Some("1000000000"), D::DeepSpeed), None),
    row(T, K::NvmeOptimizerBufferCount, "nvme-optimizer-buffer-count", &["optimizer_buffer_count"], Kind::U32, (Some("4"), D::DeepSpeed), None),
    row(T, K::AioBlockSize, "aio-block-size", &["aio_block_size"], Kind::Count, (Some("1048576"), D::DeepSpeed), None),
    row(T, K::AioQueueDepth, "aio-queue-depth", &["aio_queue_depth"], Kind::U32, (Some("8"), D::DeepSpeed), None),
    row(T, K::AioThreadCount, "aio-thread-count", &["aio_thread_count"], Kind::U32, (Some("1"), D::DeepSpeed), None),
];

/// vLLM's releases as `--vllm-version` names them, newest first: the V1 engine's (its default
/// since 0.8.0) up to 0.34, the release ramvram's vLLM rules were read from
/// (`advisor::inference::vllm_release::RELEASES` holds them in the same order).
const VLLM_RELEASES: &[&str] = &[
    "0.34", "0.33", "0.32", "0.31", "0.30", "0.29", "0.28", "0.27", "0.26", "0.25", "0.24", "0.23",
    "0.22", "0.21", "0.20", "0.19", "0.18", "0.17", "0.16", "0.15", "0.14", "0.13", "0.12", "0.11",
    "0.10", "0.9", "0.8",
];

/// The served model's knobs (besides `--inference`, which picks the engine).
#[rustfmt::skip]
pub const INFERENCE: &[Knob] = &[
    row(I, K::Weights, "weights", &["weights"], Kind::Choice(&["bf16", "fp8", "int8", "int4", "q4_k_m", "q5_k_m", "q6_k"]), (Some("bf16"), D::Assumption), None),
    row(I, K::ContextLen, "context-len", &["context_len"], Kind::U64, (Some("4096"), D::Assumption), None),
    row(I, K::ConcurrentSequences, "concurrent-sequences", &["concurrent_sequences"], Kind::U64, (Some("1"), D::Assumption), None),
    row(I, K::KvHeads, "kv-heads", &["kv_heads"], Kind::U64, (None, D::Preset), None),
    row(I, K::KvCacheDtype, "kv-cache-dtype", &["kv_bytes"], Kind::Choice(&["auto", "fp8"]), (Some("auto"), D::Assumption), None),
    row(I, K::GpuMemoryUtilization, "gpu-memory-utilization", &["gpu_memory_utilization"], Kind::Float, (Some("1"), D::Engine), None),
    row(I, K::VllmVersion, "vllm-version", &["vllm_version"], Kind::Choice(VLLM_RELEASES), (Some("0.34"), D::Engine), None),
    row(I, K::SwapSpace, "swap-space", &["swap_space_gib"], Kind::Float, (Some("0"), D::Engine), None),
    row(I, K::CpuOffloadGb, "cpu-offload-gb", &["cpu_offload_gib"], Kind::Float, (Some("0"), D::Engine), None),
    row(I, K::KvCacheMemoryBytes, "kv-cache-memory-bytes", &["kv_cache_memory_bytes"], Kind::Size, (None, D::Engine), None),
    row(I, K::KvOffloadingSize, "kv-offloading-size", &["kv_offloading_gib"], Kind::Float, (Some("0"), D::Engine), None),
    row(I, K::NGpuLayers, "n-gpu-layers", &["gpu_layers"], Kind::U64, (None, D::Off), None),
    row(I, K::ExpertsOnCpu, "experts-on-cpu", &["experts_on_cpu"], Kind::Switch, (None, D::Off), None),
    row(I, K::NCpuMoe, "n-cpu-moe", &["n_cpu_moe"], Kind::U64, (Some("0"), D::Engine), None),
    row(I, K::CacheTypeK, "cache-type-k", &["cache_type_k"], Kind::Choice(&["f16", "f32", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"]), (Some("f16"), D::Engine), None),
    row(I, K::CacheTypeV, "cache-type-v", &["cache_type_v"], Kind::Choice(&["f16", "f32", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"]), (Some("f16"), D::Engine), None),
    row(I, K::FlashAttn, "flash-attn", &["flash_attn"], Kind::Choice(&["auto", "on", "off"]), (Some("auto"), D::Engine), None),
    row(I, K::UbatchSize, "ubatch-size", &["ubatch"], Kind::U64, (Some("512"), D::Engine), None),
    row(I, K::CheckpointFiles, "checkpoint-files", &["files"], Kind::Choice(&["safetensors", "pickle"]), (Some("safetensors"), D::Preset), None),
    row(I, K::CheckpointShardSize, "checkpoint-shard-size", &["checkpoint_shard_bytes"], Kind::Size, (None, D::Preset), None),
    row(I, K::DiffusionResolution, "resolution", &["diffusion.width", "diffusion.height"], Kind::Resolution, (None, D::Preset), None),
    row(I, K::DiffusionImages, "images", &["diffusion.images"], Kind::U64, (Some("1"), D::Assumption), None),
    row(I, K::DiffusionOffload, "cpu-offload", &["diffusion.cpu_offload"], Kind::Choice(&["none", "model", "sequential"]), (Some("none"), D::Engine), None),
    row(I, K::AttentionSlicing, "attention-slicing", &["diffusion.attention_slicing"], Kind::Switch, (None, D::Off), None),
    row(I, K::VaeTiling, "vae-tiling", &["diffusion.vae_tiling"], Kind::Switch, (None, D::Off), None),
    row(I, K::SingleFile, "single-file", &["diffusion.single_file"], Kind::Switch, (None, D::Off), None),
];

/// The machine's what-if knobs.
#[rustfmt::skip]
pub const MACHINE: &[Knob] = &[
    row(M, K::ShmSize, "shm-size", &["shm_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::WslMemory, "wsl-memory", &["wsl_memory_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::Ram, "ram", &["ram_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::Swap, "swap", &["swap_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::MemoryLimit, "memory-limit", &["memory_limit_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::GpuWiredLimit, "gpu-wired-limit", &["gpu_wired_limit_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::PageFile, "page-file", &["page_file_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::Gtt, "gtt", &["gtt_bytes"], Kind::Size, (None, D::Machine), None),
    row(M, K::NumaBind, "numa-bind", &["numa_bind"], Kind::Choice(crate::advisor::whatif::NUMA_BIND_NAMES), (None, D::Machine), None),
];
