//! The training plan's knobs by id ([`crate::advisor::knobs`]): a knob's typed value in a
//! [`TrainingPlan`], setting it, and the settings that turn one plan into another.

use super::checkpointing::{ResumeLoad, SaveStateDict};
use super::{
    CheckpointDtype, FineTune, LoadingMethod, NvmeConfig, OffloadTarget, Optimizer, Precision,
    Strategy, TrainingPlan,
};

use crate::advisor::knobs::{
    KnobId, KnobId as K, KnobValue, KnobValue as V, Setting, changed, float, name_of, on,
    variant_of, whole, whole32,
};

const PRECISIONS: [Precision; 3] = [Precision::Mixed16, Precision::Fp32, Precision::Bf16];
const OPTIMIZERS: [Optimizer; 5] = [
    Optimizer::Adam,
    Optimizer::SgdMomentum,
    Optimizer::Adam8bit,
    Optimizer::Adafactor,
    Optimizer::PagedAdam8bit,
];
const STRATEGIES: [Strategy; 5] = [
    Strategy::Ddp,
    Strategy::Zero1,
    Strategy::Zero2,
    Strategy::Zero3,
    Strategy::FsdpFullShard,
];
const OFFLOADS: [OffloadTarget; 3] = [OffloadTarget::None, OffloadTarget::Cpu, OffloadTarget::Nvme];
const FINETUNES: [FineTune; 3] = [FineTune::Full, FineTune::Lora, FineTune::Qlora];
const LOADINGS: [LoadingMethod; 5] = [
    LoadingMethod::EveryRank,
    LoadingMethod::Rank0Broadcast,
    LoadingMethod::MetaDevice,
    LoadingMethod::LowCpuMemUsage,
    LoadingMethod::Mmap,
];
const SAVES: [SaveStateDict; 3] = [
    SaveStateDict::Full,
    SaveStateDict::FullEveryRank,
    SaveStateDict::Sharded,
];
const RESUMES: [ResumeLoad; 3] = [
    ResumeLoad::EveryRank,
    ResumeLoad::Rank0,
    ResumeLoad::PerRank,
];
const CHECKPOINT_DTYPES: [CheckpointDtype; 3] = [
    CheckpointDtype::Bf16,
    CheckpointDtype::Fp32,
    CheckpointDtype::Int4,
];

/// Knob `id`'s value in training plan `p`; `None` for a knob of another plan or one the plan
/// doesn't set (no activation estimate, no NVMe settings, FSDP's ZeRO stage).
pub fn get(p: &TrainingPlan, id: KnobId) -> Option<KnobValue> {
    let act = p.activations.as_ref();
    let shape = act.and_then(|a| a.shape.as_ref());
    let nvme = p.nvme.as_ref();
    Some(match id {
        K::Params => V::Whole(p.params),
        K::LargestLayerParams => V::Whole(p.largest_layer_params?),
        K::Precision => return name_of(id, &PRECISIONS, &p.precision),
        K::Optimizer => return name_of(id, &OPTIMIZERS, &p.optimizer),
        K::Strategy => return name_of(id, &STRATEGIES, &p.strategy),
        K::ZeroStage => V::Whole(STRATEGIES[..4].iter().position(|s| *s == p.strategy)? as u64),
        K::OffloadOptimizer => return name_of(id, &OFFLOADS, &p.offload_optimizer),
        K::OffloadParam => return name_of(id, &OFFLOADS, &p.offload_param),
        K::ZeroInit => V::Bool(p.zero_init),
        K::OptimizerInBackward => V::Bool(p.optimizer_in_backward),
        K::GpusPerNode => V::Whole(u64::from(p.gpus_per_node)),
        K::Nodes => V::Whole(u64::from(p.nodes)),
        K::Finetune => return name_of(id, &FINETUNES, &p.finetune),
        K::LoraShare => V::Float(p.lora_trainable_share),
        K::SeqLen => V::Whole(act?.seq_len),
        K::MicroBatch => V::Whole(act?.micro_batch),
        K::Checkpointing => V::Bool(act?.checkpointing),
        K::EagerAttention => V::Bool(!act?.flash_attention),
        K::Layers => V::Whole(shape?.layers),
        K::HiddenSize => V::Whole(shape?.hidden),
        K::Heads => V::Whole(shape?.heads?),
        K::Loading => return name_of(id, &LOADINGS, &p.loading?),
        K::CheckpointDtype => return name_of(id, &CHECKPOINT_DTYPES, &p.checkpoint_dtype),
        K::SaveStateDict => return name_of(id, &SAVES, &p.save_state_dict?),
        K::ResumeLoad => return name_of(id, &RESUMES, &p.resume_load?),
        K::ResumeWorldSize => V::Whole(u64::from(p.resume_world_size?)),
        K::NvmeBufferCount => V::Whole(u64::from(nvme?.param_buffer_count)),
        K::NvmeBufferSize => V::Whole(nvme?.param_buffer_size),
        K::NvmeMaxInCpu => V::Whole(nvme?.max_in_cpu),
        K::NvmeOptimizerBufferCount => V::Whole(u64::from(nvme?.optimizer_buffer_count)),
        K::AioBlockSize => V::Whole(nvme?.aio_block_size),
        K::AioQueueDepth => V::Whole(u64::from(nvme?.aio_queue_depth)),
        K::AioThreadCount => V::Whole(u64::from(nvme?.aio_thread_count)),
        _ => return None,
    })
}

/// Sets knob `id` of training plan `p` to `v`. An activation or shape knob needs the plan's
/// activation estimate (and its shape); an NVMe knob starts from DeepSpeed's defaults. False
/// when `v` isn't a value of that knob, or the plan can't hold it.
pub fn set(p: &mut TrainingPlan, id: KnobId, v: KnobValue) -> bool {
    fn put<T>(field: &mut T, v: Option<T>) -> bool {
        v.map(|v| *field = v).is_some()
    }
    fn nvme(p: &mut TrainingPlan) -> &mut NvmeConfig {
        p.nvme.get_or_insert_with(NvmeConfig::default)
    }
    match id {
        K::Params => put(&mut p.params, whole(v)),
        K::LargestLayerParams => put(&mut p.largest_layer_params, whole(v).map(Some)),
        K::Precision => put(&mut p.precision, variant_of(id, &PRECISIONS, v)),
        K::Optimizer => put(&mut p.optimizer, variant_of(id, &OPTIMIZERS, v)),
        K::Strategy => put(&mut p.strategy, variant_of(id, &STRATEGIES, v)),
        K::ZeroStage => put(
            &mut p.strategy,
            whole(v).and_then(|n| STRATEGIES[..4].get(usize::try_from(n).ok()?).copied()),
        ),
        K::OffloadOptimizer => put(&mut p.offload_optimizer, variant_of(id, &OFFLOADS, v)),
        K::OffloadParam => put(&mut p.offload_param, variant_of(id, &OFFLOADS, v)),
        K::ZeroInit => put(&mut p.zero_init, on(v)),
        K::OptimizerInBackward => put(&mut p.optimizer_in_backward, on(v)),
        K::GpusPerNode => put(&mut p.gpus_per_node, whole32(v)),
        K::Nodes => put(&mut p.nodes, whole32(v)),
        K::Finetune => put(&mut p.finetune, variant_of(id, &FINETUNES, v)),
        K::LoraShare => put(&mut p.lora_trainable_share, float(v)),
        K::Loading => put(&mut p.loading, variant_of(id, &LOADINGS, v).map(Some)),
        K::CheckpointDtype => put(
            &mut p.checkpoint_dtype,
            variant_of(id, &CHECKPOINT_DTYPES, v),
        ),
        K::SaveStateDict => put(&mut p.save_state_dict, variant_of(id, &SAVES, v).map(Some)),
        K::ResumeLoad => put(&mut p.resume_load, variant_of(id, &RESUMES, v).map(Some)),
        K::ResumeWorldSize => put(&mut p.resume_world_size, whole32(v).map(Some)),
        K::NvmeBufferCount => put(&mut nvme(p).param_buffer_count, whole32(v)),
        K::NvmeBufferSize => put(&mut nvme(p).param_buffer_size, whole(v)),
        K::NvmeMaxInCpu => put(&mut nvme(p).max_in_cpu, whole(v)),
        K::NvmeOptimizerBufferCount => put(&mut nvme(p).optimizer_buffer_count, whole32(v)),
        K::AioBlockSize => put(&mut nvme(p).aio_block_size, whole(v)),
        K::AioQueueDepth => put(&mut nvme(p).aio_queue_depth, whole32(v)),
        K::AioThreadCount => put(&mut nvme(p).aio_thread_count, whole32(v)),
        _ => {
            let Some(a) = p.activations.as_mut() else {
                return false;
            };
            match id {
                K::SeqLen => put(&mut a.seq_len, whole(v)),
                K::MicroBatch => put(&mut a.micro_batch, whole(v)),
                K::Checkpointing => put(&mut a.checkpointing, on(v)),
                K::EagerAttention => put(&mut a.flash_attention, on(v).map(|e| !e)),
                _ => {
                    let Some(s) = a.shape.as_mut() else {
                        return false;
                    };
                    match id {
                        K::Layers => put(&mut s.layers, whole(v)),
                        K::HiddenSize => put(&mut s.hidden, whole(v)),
                        K::Heads => put(&mut s.heads, whole(v).map(Some)),
                        _ => false,
                    }
                }
            }
        }
    }
}

/// The knobs a training recommendation's `apply` names when they change, in that order.
const TRAINING_APPLIED: &[KnobId] = &[
    K::Strategy,
    K::OffloadOptimizer,
    K::OffloadParam,
    K::ZeroInit,
    K::Finetune,
    K::Loading,
    K::SaveStateDict,
    K::ResumeLoad,
    K::Checkpointing,
    K::MicroBatch,
];

/// The settings that turn training plan `from` into `to`. The command line's default strategy
/// depends on the fine-tuning method (DDP for LoRA and QLoRA, `advisor::defaults::strategy`):
/// a change of method names its strategy too. A switch turned off, or an activation setting
/// of a plan without an activation estimate on either side, is left out.
pub fn changes(from: &TrainingPlan, to: &TrainingPlan) -> Vec<Setting> {
    let mut out = changed(TRAINING_APPLIED, from, to, get);
    if from.finetune != to.finetune && from.strategy == to.strategy {
        if let Some(value) = get(to, K::Strategy) {
            out.insert(
                0,
                Setting {
                    knob: K::Strategy,
                    value,
                },
            );
        }
    }
    out.retain(|s| {
        let act = matches!(s.knob, K::Checkpointing | K::MicroBatch);
        s.value != V::Bool(false) && !(act && from.activations.is_none())
    });
    out
}
