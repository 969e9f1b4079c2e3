//! LoRA and QLoRA: a frozen base (16-bit, or 4-bit NF4 for QLoRA) and trained low-rank
//! adapters, on plain data parallel or sharded by FSDP / ZeRO-3, with the frozen base and the
//! adapters' optimizer states optionally offloaded to the CPU (Hu et al. 2021, LoRA; Dettmers
//! et al. 2023, QLoRA; Answer.AI 2024, "You can now train a 70b language model at home":
//! FSDP + QLoRA with CPU offload).

use super::amounts::{Bytes, Lines, Totals};
use super::breakdown::{EstimateFormula, Location, StateKind};
use super::plan::{FineTune, OffloadTarget, QLORA_BASE_BYTES, Strategy, TrainingPlan};
use super::zero::Run;

/// Where an offloaded state goes.
fn place(target: OffloadTarget) -> Location {
    match target {
        OffloadTarget::None => Location::Gpu,
        OffloadTarget::Cpu => Location::Cpu,
        OffloadTarget::Nvme => Location::Nvme,
    }
}

/// Model states of a LoRA or QLoRA plan.
///
/// - Frozen base, `B` bytes per parameter (QLoRA 4.127/8, LoRA the training precision):
///   replicated on every GPU (DDP, ZeRO-1/2), or sharded over the T GPUs (FSDP, ZeRO-3) with one
///   layer gathered whole at a time (`B × L` more per GPU); parameter offload keeps the sharded
///   base in CPU RAM (`B × P / N` per node) and only the gathered layer on the GPU.
/// - FSDP with CPU offload: a pinned CPU gradient buffer as large as the sharded base (FSDP1's
///   `_cpu_grad`, `B × P / N` more per node).
/// - FSDP with CPU offload: the pinned blocks' rounding of the sharded base and adapters and
///   of their `_cpu_grad` (`fsdp::pinned_flat_params`), twice `pinned − shard` more per node.
/// - Adapters, `s × P` trained parameters: their 16-bit weights like the base's sharding, and
///   gradients, fp32 master weights and optimizer states partitioned over T under any ZeRO stage
///   or FSDP (replicated under DDP), in CPU RAM with optimizer offload.
pub(super) fn peft(plan: &TrainingPlan, run: &Run, lines: &mut Lines) -> Totals {
    let b = Bytes::of(plan);
    let p = run.params as f64;
    let t = (run.gpus_per_node * run.nodes) as f64;
    let n = run.nodes as f64;
    let l = run.largest_layer as f64;
    let base = if plan.finetune == FineTune::Qlora {
        QLORA_BASE_BYTES
    } else {
        b.weights
    };
    let sharded = matches!(plan.strategy, Strategy::Zero3 | Strategy::FsdpFullShard);
    let per = |loc: Location| if loc == Location::Gpu { t } else { n };
    if sharded {
        let base_at = place(plan.offload_param);
        lines.add(StateKind::Weights, base_at, base * p / per(base_at));
        // FSDP1 with CPU offload pins a sharded gradient `_cpu_grad` beside every flat
        // parameter, frozen or not, as large as its shard (`torch/distributed/fsdp/
        // _flat_param.py::FlatParamHandle.init_flat_param_attributes`); QLoRA's base is stored
        // in bf16 elements (`bnb_4bit_quant_storage`), so the buffer is as large as the base.
        // Answer.AI's fsdp_qlora and accelerate's FSDP plugin (`fsdp_version: 1`) wrap with it.
        if plan.strategy == Strategy::FsdpFullShard && base_at == Location::Cpu {
            lines.add(StateKind::FrozenGradients, base_at, base * p / per(base_at));
        }
        // One layer gathered whole for its forward and backward pass.
        lines.add(StateKind::GatheredLayer, Location::Gpu, base * l);
    } else {
        lines.add(StateKind::Weights, Location::Gpu, base * p);
    }
    let trained = plan.lora_trainable_share * p;
    let adapters_at = place(plan.offload_param);
    let weights_div = if sharded { per(adapters_at) } else { 1.0 };
    let adapter_weights_at = if sharded { adapters_at } else { Location::Gpu };
    let rest_at = place(plan.offload_optimizer);
    let rest_div = if plan.strategy == Strategy::Ddp {
        1.0
    } else {
        per(rest_at)
    };
    lines.add(
        StateKind::Adapters,
        adapter_weights_at,
        trained * b.weights / weights_div,
    );
    if plan.strategy == Strategy::FsdpFullShard && plan.offload_param == OffloadTarget::Cpu {
        // FSDP1 pins each rank's shard of every flat parameter and its `_cpu_grad` on their
        // own, each rounded up to a power of two by PyTorch's caching host allocator.
        let shard = super::fsdp::sharded_on_cpu(lines);
        let pinned = super::fsdp::pinned_flat_params(plan, run, shard);
        lines.add(
            StateKind::PinnedBlocks,
            Location::Cpu,
            2.0 * pinned.saturating_sub(shard) as f64,
        );
    }
    lines.add(
        StateKind::AdapterStates,
        rest_at,
        trained * (b.replicated_gradients() + b.master + b.states) / rest_div,
    );
    let sum = |loc: Location| -> u64 {
        lines
            .items
            .iter()
            .filter(|i| i.location == loc)
            .map(|i| i.bytes)
            .sum()
    };
    let cpu = sum(Location::Cpu);
    Totals {
        cpu,
        gpu: sum(Location::Gpu),
        nvme: sum(Location::Nvme),
        traffic: None,
        formula: EstimateFormula::RamvramEstimate,
        states_cpu: cpu,
        deepspeed_loading: None,
    }
}
