//! The loading phase: CPU RAM a node needs while the checkpoint travels from disk to the GPUs,
//! by loading method, and the runtime every phase carries (the OS and one process per GPU).
//! Formulas and defaults are listed in `docs/model.md` § "Training memory: loading".

use serde::{Deserialize, Serialize};

use super::plan::{
    CheckpointDtype, FineTune, LoadingMethod, QLORA_BASE_BYTES, Strategy, TrainingPlan,
};
use crate::advisor::overhead::Overheads;

/// Size of one checkpoint shard: Hugging Face `save_pretrained`'s default `max_shard_size`,
/// "5GB" = 5 × 10^9 bytes (transformers `modeling_utils.py`). Shard-by-shard loading holds one
/// at a time per rank.
pub const CHECKPOINT_SHARD_BYTES: f64 = 5e9;

/// The loading phase as computed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Loading {
    /// The method used.
    pub method: LoadingMethod,
    /// True when the plan named no method and [`default_method`] chose it.
    pub default: bool,
    /// True when the figure is DeepSpeed's own loading term (its estimator counts an fp32 copy
    /// per rank × `additional_buffer_factor`) rather than ramvram's per-method formula.
    pub deepspeed_copy: bool,
    /// CPU RAM per node for the checkpoint while loading (without the runtime), bytes.
    pub cpu_bytes_per_node: u64,
    /// Checkpoint bytes read through the page cache (memory-mapped safetensors): the kernel can
    /// drop them under pressure, so they are not part of the peak.
    pub page_cache_bytes: u64,
    /// FSDP with CPU offload, when training starts: CPU RAM per node while each sharded flat
    /// parameter has its pinned copy and pinned gradient beside the unpinned shard it was made
    /// from ([`fsdp_offload_init`]); 0 without FSDP CPU offload. Part of the loading phase's
    /// peak (without the runtime).
    #[serde(default)]
    pub fsdp_init_bytes_per_node: u64,
}

/// The CPU RAM per node of FSDP1's lazy initialisation with `CPUOffload(offload_params=True)`,
/// from the sharded parameters it keeps on the CPU (`sharded_on_cpu`, bytes per node):
/// `torch/distributed/fsdp/_flat_param.py::FlatParamHandle.init_flat_param_attributes` makes
/// `_local_shard` a pinned copy of the shard (`pin_memory()`) and a pinned `_cpu_grad` of the
/// same size, while `flat_param.data` keeps the unpinned shard until the unit's first reshard
/// (`_use_sharded_flat_param` sets it to `_local_shard`): three copies, the first gone after
/// the first forward pass; the two pinned ones take `pinned` bytes each, the blocks PyTorch's
/// caching host allocator hands out (`fsdp::pinned_flat_params`). The optimizer's states don't
/// exist yet (made at the first step).
pub fn fsdp_offload_init(sharded_on_cpu: u64, pinned: u64) -> u64 {
    sharded_on_cpu.saturating_add(pinned.saturating_mul(2))
}

/// What the framework does when the plan names no method (the user didn't change it): QLoRA
/// loads shard by shard, sharded or not (transformers turns on `low_cpu_mem_usage` whenever a
/// bitsandbytes `quantization_config` is given, and PEFT + accelerate's FSDP recipe loads
/// through `from_pretrained` that way); ZeRO-3 with `zero.Init` builds the model
/// partitioned and fills it shard by shard, like the meta device; everything else loads the
/// whole checkpoint in every rank — PyTorch DDP scripts, FSDP (whose `sync_module_states`
/// defaults to `False`), and DeepSpeed without `zero.Init` (the copy its estimator counts).
/// DeepSpeed's own loading term, where its estimator applies, is kept over any of these
/// ([`loading`]).
pub fn default_method(plan: &TrainingPlan) -> LoadingMethod {
    if plan.strategy == Strategy::Zero3 && plan.zero_init {
        LoadingMethod::MetaDevice
    } else if plan.finetune == FineTune::Qlora {
        LoadingMethod::LowCpuMemUsage
    } else {
        LoadingMethod::EveryRank
    }
}

/// The runtime every phase carries on a node: the OS and one training process per GPU, each
/// with Python, PyTorch and the CUDA context's host memory, as `overheads` gives them for the
/// machine ([`crate::advisor::overhead::overheads`]). Not in DeepSpeed's estimator, which counts
/// model states only.
pub fn runtime_bytes(gpus_per_node: u32, overheads: &Overheads) -> u64 {
    overheads.runtime(u64::from(gpus_per_node))
}

/// The loading phase of `plan`. `deepspeed_loading` is the loading term of DeepSpeed's own
/// estimator when the plan uses DeepSpeed (ZeRO-1/2/3) and names no loading method: its
/// figure is kept as it is. `largest_layer` sizes the one tensor a memory-mapped load holds.
///
/// Per method, with G ranks per node and C the checkpoint's bytes (P × its dtype; a QLoRA base
/// comes in at 16 bits and is quantised on the way):
/// - every rank: G × C;
/// - rank 0 and broadcast: C (on the first node);
/// - meta device, `low_cpu_mem_usage`: G × min(C, one shard);
/// - memory-mapped safetensors: G × the largest tensor, with C in the page cache.
///
/// A QLoRA base quantised on the way in and sharded by FSDP or ZeRO-3, loaded by rank 0, is
/// Answer.AI's `fsdp_qlora` `--low_memory` loading (`train.py`, `sync_module_states=True`): every
/// rank opens each safetensors file (`safetensors.torch.load_file`, so that every rank makes the
/// bitsandbytes quantisation state, `load_and_quantize`'s comment), whose tensors are views of a
/// private file mapping (`torch.UntypedStorage.from_file(…, shared=False)`: the page cache,
/// shared by the ranks), copies each tensor to its GPU and quantises it there, and rank 0 keeps
/// the quantised base (4.127 bits per parameter) in CPU RAM until FSDP broadcasts it:
/// G × the largest tensor + the base, the checkpoint in the page cache. On the meta device
/// each rank loads one shard at a time and the loading rank keeps the quantised base: G × one
/// shard + the base. Shard by shard (`low_cpu_mem_usage`, transformers with a bitsandbytes
/// config) the base is quantised straight onto each GPU: G × one shard. Every-rank loading is
/// larger than all of these.
pub fn loading(plan: &TrainingPlan, largest_layer: u64, deepspeed_loading: Option<f64>) -> Loading {
    let default = plan.loading.is_none();
    let method = plan.loading.unwrap_or_else(|| default_method(plan));
    if let (true, Some(term)) = (default, deepspeed_loading) {
        return Loading {
            method,
            default,
            deepspeed_copy: true,
            cpu_bytes_per_node: crate::units::saturating_bytes(term),
            page_cache_bytes: 0,
            fsdp_init_bytes_per_node: 0,
        };
    }
    let p = plan.params as f64;
    let g = f64::from(plan.gpus_per_node);
    let dtype = plan.checkpoint_dtype.bytes();
    let checkpoint = p * dtype;
    let shard = checkpoint.min(CHECKPOINT_SHARD_BYTES);
    let sharded = matches!(plan.strategy, Strategy::Zero3 | Strategy::FsdpFullShard);
    let quantised_on_load =
        plan.finetune == FineTune::Qlora && plan.checkpoint_dtype != CheckpointDtype::Int4;
    let low_memory = quantised_on_load && sharded && method == LoadingMethod::Rank0Broadcast;
    let base_on_rank0 = quantised_on_load && sharded && method == LoadingMethod::MetaDevice;
    let (cpu, page_cache) = match method {
        _ if low_memory => (
            g * largest_layer as f64 * dtype + p * QLORA_BASE_BYTES,
            checkpoint,
        ),
        LoadingMethod::EveryRank => (g * checkpoint, 0.0),
        LoadingMethod::Rank0Broadcast => (checkpoint, 0.0),
        LoadingMethod::MetaDevice if base_on_rank0 => (g * shard + p * QLORA_BASE_BYTES, 0.0),
        LoadingMethod::MetaDevice | LoadingMethod::LowCpuMemUsage => (g * shard, 0.0),
        LoadingMethod::Mmap => (g * largest_layer as f64 * dtype, checkpoint),
    };
    Loading {
        method,
        default,
        deepspeed_copy: false,
        cpu_bytes_per_node: crate::units::saturating_bytes(cpu),
        page_cache_bytes: crate::units::saturating_bytes(page_cache),
        fsdp_init_bytes_per_node: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(params: u64, gpus: u32) -> TrainingPlan {
        TrainingPlan {
            gpus_per_node: gpus,
            strategy: Strategy::FsdpFullShard,
            ..TrainingPlan::new(params)
        }
    }

    #[test]
    fn issue_11s_40b_fp32_checkpoint_on_eight_ranks() {
        // 8 ranks × 40 × 10^9 parameters × 4 bytes = 1,280 × 10^9 bytes at load.
        let mut p = plan(40_000_000_000, 8);
        p.checkpoint_dtype = CheckpointDtype::Fp32;
        assert_eq!(loading(&p, 1, None).cpu_bytes_per_node, 1_280_000_000_000);
        // Rank 0 alone: 160 × 10^9; shard by shard: 8 × 5 × 10^9.
        p.loading = Some(LoadingMethod::Rank0Broadcast);
        assert_eq!(loading(&p, 1, None).cpu_bytes_per_node, 160_000_000_000);
        p.loading = Some(LoadingMethod::MetaDevice);
        assert_eq!(loading(&p, 1, None).cpu_bytes_per_node, 40_000_000_000);
    }

    #[test]
    fn deepspeeds_term_is_kept_when_no_method_is_named() {
        let mut p = plan(1_000, 2);
        p.strategy = Strategy::Zero2;
        let l = loading(&p, 1, Some(12_345.0));
        assert!(l.deepspeed_copy && l.default);
        assert_eq!(l.cpu_bytes_per_node, 12_345);
        p.loading = Some(LoadingMethod::Rank0Broadcast);
        assert!(!loading(&p, 1, Some(12_345.0)).deepspeed_copy);
    }

    #[test]
    fn runtime_is_the_os_and_one_process_per_gpu() {
        assert_eq!(
            runtime_bytes(2, &Overheads::TYPICAL),
            (2 << 30) + 2 * (3 << 30)
        );
    }
}
