//! PyTorch FSDP (`FULL_SHARD`) as PyTorch sizes it, without DeepSpeed's buffer factor: each
//! rank keeps its shard of the parameters, of their gradients and of the optimizer states, on
//! the GPU or, with `CPUOffload(offload_params=True)` (FSDP1) / `CPUOffloadPolicy` (FSDP2), in
//! CPU RAM, where the optimizer step runs. Sources, in pytorch/pytorch:
//! - `torch/distributed/fsdp/_flat_param.py::FlatParamHandle.init_flat_param_attributes`: with
//!   `offload_params` the sharded flat parameter `_local_shard` is pinned in CPU RAM and a
//!   sharded gradient `_cpu_grad` of the same size and dtype is pre-allocated, pinned, beside
//!   it, for every flat parameter (frozen ones too); under `MixedPrecision` the sharded
//!   parameter keeps its original dtype (fp32) and only `_mp_shard`, the bf16 copy that is
//!   all-gathered, lives on the GPU;
//! - `torch/distributed/fsdp/_fully_shard/_fsdp_param.py` (FSDP2): with `CPUOffloadPolicy` the
//!   sharded parameter is moved to CPU (pinned by default), and `_fsdp_collectives.py::
//!   foreach_reduce` copies each reduced gradient shard to the CPU; parameters that don't
//!   require gradients get none.
//!
//! The optimizer's states take the sharded parameters' dtype ([`super::Optimizer::state_bytes`]).

use super::amounts::{Bytes, Lines, Totals};
use super::breakdown::{EstimateFormula, Location, StateKind};
use super::plan::{OffloadTarget, Precision, TrainingPlan};
use super::zero::Run;
use crate::advisor::pinned::pinned_block;

/// Bytes per parameter of FSDP's sharded parameter: the master copy under mixed precision (the
/// fp32 flat parameter that `MixedPrecision` casts to bf16 for the all-gather), the working
/// weights otherwise (bf16 in pure bf16, fp32 in fp32).
pub(super) fn sharded_param_bytes(b: &Bytes) -> f64 {
    if b.master > 0.0 { b.master } else { b.weights }
}

/// Full-parameter training under FSDP `FULL_SHARD`, per GPU and per node:
///
/// - sharded parameters `s·P`, their gradients `g·P` and the optimizer states `o·P` (s = 4,
///   g = 4, o = 8 for mixed-precision or fp32 AdamW; 2, 2, 4 in pure bf16), over the T GPUs
///   on the GPU, or over the N nodes in CPU RAM with CPU offload;
/// - on each GPU, one FSDP unit gathered whole with its unsharded gradient, in the compute
///   dtype: `2·w·L` (w = 2 bytes in bf16 and mixed precision, 4 in fp32);
/// - with the optimizer in the backward pass (`TrainingPlan::optimizer_in_backward`), the
///   gradients of one unit, `g·L`, instead of `g·P`.
///
/// There is no loading term: the checkpoint comes in by the plan's loading method
/// (`loading::loading`), and nothing is multiplied by DeepSpeed's `additional_buffer_factor`.
pub(super) fn fsdp(plan: &TrainingPlan, run: &Run, lines: &mut Lines) -> Totals {
    let b = Bytes::of(plan);
    let p = run.params as f64;
    let t = (run.gpus_per_node * run.nodes) as f64;
    let n = run.nodes as f64;
    let offload = plan.offload_param == OffloadTarget::Cpu;
    let (at, div) = if offload {
        (Location::Cpu, n)
    } else {
        (Location::Gpu, t)
    };
    lines.add(
        StateKind::GatheredLayer,
        Location::Gpu,
        2.0 * b.weights * run.largest_layer as f64,
    );
    let param_kind = if plan.precision == Precision::Mixed16 {
        StateKind::MasterWeights
    } else {
        StateKind::Weights
    };
    lines.add(param_kind, at, sharded_param_bytes(&b) * p / div);
    // With the optimizer in the backward pass each gradient is stepped and freed as soon as it
    // is reduced: one unit's gradient shard at a time instead of all of them.
    let graded = if plan.optimizer_in_backward {
        run.largest_layer as f64
    } else {
        p
    };
    lines.add(StateKind::Gradients32, at, b.grads32 * graded / div);
    lines.add(StateKind::OptimizerStates, at, b.states * p / div);
    let sum = |loc: Location| -> u64 {
        lines
            .items
            .iter()
            .filter(|i| i.location == loc)
            .map(|i| i.bytes)
            .fold(0, u64::saturating_add)
    };
    let cpu = sum(Location::Cpu);
    Totals {
        cpu,
        gpu: sum(Location::Gpu),
        nvme: 0,
        traffic: None,
        formula: EstimateFormula::PytorchFsdp,
        states_cpu: cpu,
        deepspeed_loading: None,
    }
}

/// The sharded flat parameters FSDP keeps in CPU RAM with CPU offload, bytes per node: the
/// CPU lines of weights, fp32 master copies and adapters (what `_local_shard` holds).
pub(super) fn sharded_on_cpu(lines: &Lines) -> u64 {
    lines
        .items
        .iter()
        .filter(|i| i.location == Location::Cpu)
        .filter(|i| {
            matches!(
                i.kind,
                StateKind::Weights | StateKind::MasterWeights | StateKind::Adapters
            )
        })
        .map(|i| i.bytes)
        .fold(0, u64::saturating_add)
}

/// Decoder layers of `plan`'s model: its activation input's shape, else its preset's; `None`
/// when neither is known.
fn layers(plan: &TrainingPlan) -> Option<u64> {
    plan.activations
        .and_then(|a| a.shape)
        .or_else(|| plan.preset().and_then(|p| p.shape))
        .map(|s| s.layers)
        .filter(|&l| l > 0)
}

/// Page-locked bytes per node that `bytes` per node of FSDP1 sharded flat parameters take in
/// CPU RAM with `CPUOffload(offload_params=True)`: each rank pins its shard of every flat
/// parameter on its own (`_local_shard.pin_memory()`, and `_cpu_grad` as
/// `torch.zeros_like(_local_shard).pin_memory()`:
/// `torch/distributed/fsdp/_flat_param.py::FlatParamHandle.init_flat_param_attributes`), and
/// PyTorch's caching host allocator rounds each of those blocks up to a power of two
/// ([`pinned_block`]).
///
/// The flat parameters are those of the recipes' wrapping, one FSDP unit per decoder layer
/// (accelerate's `TRANSFORMER_BASED_WRAP`, fsdp_qlora's `get_wrapping_policy`): `layers` units
/// of `(P − 2·L) / layers` parameters and the root unit with the rest (the input embedding and
/// the output head, `2·L`, L the largest tensor). Each holds its parameters' share of `bytes`
/// (the same bytes per parameter throughout), split over the T ranks; the G ranks of a node
/// each pin their shard: `G × Σ pinned_block(unit's bytes / T)`. Assumption: LoRA adapters sit
/// in their layer's unit (fsdp_qlora wraps them in units of their own: small blocks, rounded
/// too, left out); a tied embedding is counted as two tensors. `bytes` unchanged when the
/// layer count isn't known.
pub(super) fn pinned_flat_params(plan: &TrainingPlan, run: &Run, bytes: u64) -> u64 {
    let Some(layers) = layers(plan) else {
        return bytes;
    };
    let p = run.params.max(1);
    let per_layer = p.saturating_sub(2 * run.largest_layer) / layers;
    let root = p - per_layer * layers;
    if per_layer == 0 || bytes == 0 {
        return bytes;
    }
    let g = run.gpus_per_node.max(1);
    // One rank's shard of a unit of `u` parameters: bytes per node × N / P per parameter,
    // over T ranks, that is bytes × u / (P × G).
    let shard =
        |u: u64| crate::units::saturating_bytes(bytes as f64 * u as f64 / (p as f64 * g as f64));
    let mut pinned = pinned_block(shard(per_layer)).saturating_mul(layers);
    if root > 0 {
        pinned = pinned.saturating_add(pinned_block(shard(root)));
    }
    pinned.saturating_mul(g).max(bytes)
}
