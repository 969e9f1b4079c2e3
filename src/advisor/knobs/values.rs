//! Reading and writing a plan's knobs by id: the row of a knob ([`knob`]), a knob's typed value
//! in a workload, a training or an inference plan, and the settings that turn one plan into
//! another (what a recommendation changes, from which its `apply` arguments are written).

use super::rows_plans::{INFERENCE, MACHINE, TRAINING};
use super::rows_workload::WORKLOAD;
use super::types::{Knob, KnobId, KnobValue, Setting};
use crate::advisor::inference::{CheckpointFiles, InferencePlan, WeightFormat};
use crate::advisor::training::{
    CheckpointDtype, FineTune, LoadingMethod, NvmeConfig, OffloadTarget, Optimizer, Precision,
    Strategy, TrainingPlan,
};
use crate::advisor::whatif::MachineChange;
use crate::advisor::workload::{
    Augmentation, CacheMode, CacheScope, DataFormat, DecodeOn, Dtype, InertInput, StoredFormat,
    Workload,
};
use crate::profile::{DiskKind, Problem};

use KnobId as K;
use KnobValue as V;

/// Every row of the table: the workload's, the training plan's, the served model's, then the
/// machine's.
pub fn all() -> impl Iterator<Item = &'static Knob> {
    WORKLOAD
        .iter()
        .chain(TRAINING)
        .chain(INFERENCE)
        .chain(MACHINE)
}

/// The row of `id`, `None` for an id without a row (the table test finds none).
pub fn find(id: KnobId) -> Option<&'static Knob> {
    all().find(|k| k.id == id)
}

/// The row of `id`. Every id has one ([`find`]; the table test checks), so this never fails;
/// a missing row would read as the first workload knob.
pub fn knob(id: KnobId) -> &'static Knob {
    find(id).unwrap_or(&WORKLOAD[0])
}

/// The flag of `id`, without `--` (`num-workers`).
pub fn flag(id: KnobId) -> &'static str {
    knob(id).flag
}

/// The knob whose flag is `flag` (without `--`).
pub fn of_flag(flag: &str) -> Option<&'static Knob> {
    all().find(|k| k.flag == flag)
}

/// The knob of `plan`'s rows that sets JSON field `field` (`num_workers`, `width`).
pub fn of_field(rows: &'static [Knob], field: &str) -> Option<&'static Knob> {
    rows.iter().find(|k| k.fields.contains(&field))
}

/// The value name of variant `v` of a choice knob: `variants` lists them in the order of the
/// row's names.
fn name_of<T: PartialEq>(id: KnobId, variants: &[T], v: &T) -> Option<KnobValue> {
    let i = variants.iter().position(|x| x == v)?;
    knob(id).choices().get(i).map(|n| V::Choice(n))
}

/// The variant a choice knob's value names.
fn variant_of<T: Copy>(id: KnobId, variants: &[T], v: KnobValue) -> Option<T> {
    let V::Choice(name) = v else { return None };
    let i = knob(id).choices().iter().position(|n| *n == name)?;
    variants.get(i).copied()
}

fn whole(v: KnobValue) -> Option<u64> {
    match v {
        V::Whole(n) => Some(n),
        _ => None,
    }
}

fn whole32(v: KnobValue) -> Option<u32> {
    whole(v).and_then(|n| u32::try_from(n).ok())
}

fn float(v: KnobValue) -> Option<f64> {
    match v {
        V::Float(f) => Some(f),
        _ => None,
    }
}

fn on(v: KnobValue) -> Option<bool> {
    match v {
        V::Bool(b) => Some(b),
        _ => None,
    }
}

const STORED: [StoredFormat; 3] = [StoredFormat::Jpeg, StoredFormat::Png, StoredFormat::Raw];
const DTYPES: [Dtype; 3] = [Dtype::U8, Dtype::F16, Dtype::F32];
const AUGMENTATIONS: [Augmentation; 3] =
    [Augmentation::None, Augmentation::Light, Augmentation::Heavy];
const FORMATS: [DataFormat; 3] = [DataFormat::Files, DataFormat::Shards, DataFormat::Mmap];
const DECODES: [DecodeOn; 2] = [DecodeOn::Cpu, DecodeOn::Gpu];
const STORAGE: [DiskKind; 4] = [
    DiskKind::Nvme,
    DiskKind::Ssd,
    DiskKind::Hdd,
    DiskKind::Network,
];
const CACHES: [CacheMode; 3] = [
    CacheMode::None,
    CacheMode::StoredInRam,
    CacheMode::DecodedInRam,
];
const SCOPES: [CacheScope; 3] = [
    CacheScope::Shared,
    CacheScope::PerRank,
    CacheScope::PerWorker,
];

/// Knob `id`'s value in workload `w`; `None` for a knob of another plan or a value the flag
/// can't say (no image size for non-image data, storage left to the machine, the default
/// decode rate).
pub fn workload(w: &Workload, id: KnobId) -> Option<KnobValue> {
    Some(match id {
        K::DatasetSize => V::Whole(w.dataset_bytes),
        K::Samples => V::Whole(w.samples),
        K::ImageSize if w.width > 0 && w.height > 0 => V::Pair(w.width, w.height),
        K::Crop => V::Whole(u64::from(w.crop)),
        K::Stored => return name_of(id, &STORED, &w.stored),
        K::SampleBytes => V::Whole(w.sample_bytes?),
        K::Dtype => return name_of(id, &DTYPES, &w.dtype),
        K::BatchSize => V::Whole(u64::from(w.batch_size)),
        K::NumWorkers => V::Whole(u64::from(w.num_workers)),
        K::PrefetchFactor => V::Whole(u64::from(w.prefetch_factor)),
        K::PinMemory => V::Bool(w.pin_memory),
        K::PersistentWorkers => V::Bool(w.persistent_workers),
        K::Augmentation => return name_of(id, &AUGMENTATIONS, &w.augmentation),
        // Files loaded whole into RAM (old scenario files) are files with a RAM cache.
        K::DataFormat if w.format == DataFormat::InRam => V::Choice(knob(id).choices()[0]),
        K::DataFormat => return name_of(id, &FORMATS, &w.format),
        K::DecodeOn => return name_of(id, &DECODES, &w.decode_on),
        K::GpuDemand => V::Float(w.gpu_demand_samples_per_s),
        K::ConcurrentExperiments => V::Whole(u64::from(w.concurrent_experiments)),
        K::Storage => return name_of(id, &STORAGE, &w.storage?),
        K::DecodeRate => V::Float(w.measured_decode_mpix_per_core?),
        K::Cache => return name_of(id, &CACHES, &w.cache),
        K::CacheSize if w.cache_width > 0 && w.cache_height > 0 => {
            V::Pair(w.cache_width, w.cache_height)
        }
        K::CacheDtype => return name_of(id, &DTYPES, &w.cache_dtype),
        K::CacheScope => return name_of(id, &SCOPES, &w.cache_scope),
        K::IndexBytes => V::Whole(w.index_bytes_per_sample?),
        _ => return None,
    })
}

/// Sets knob `id` of workload `w` to `v`, field by field (no other field follows: the command
/// line's `--dataset-size` and `--image-size` keep the base's file size themselves). False when
/// `v` isn't a value of that knob, or the knob isn't the workload's.
pub fn set_workload(w: &mut Workload, id: KnobId, v: KnobValue) -> bool {
    fn put<T>(field: &mut T, v: Option<T>) -> bool {
        v.map(|v| *field = v).is_some()
    }
    match (id, v) {
        (K::DatasetSize, _) => put(&mut w.dataset_bytes, whole(v)),
        (K::Samples, _) => put(&mut w.samples, whole(v)),
        (K::ImageSize | K::CacheSize, V::Pair(width, height)) => {
            if id == K::ImageSize {
                (w.width, w.height) = (width, height);
            } else {
                (w.cache_width, w.cache_height) = (width, height);
            }
            true
        }
        (K::Crop, _) => put(&mut w.crop, whole32(v)),
        (K::Stored, _) => put(&mut w.stored, variant_of(id, &STORED, v)),
        (K::SampleBytes, _) => put(&mut w.sample_bytes, whole(v).map(Some)),
        (K::Dtype, _) => put(&mut w.dtype, variant_of(id, &DTYPES, v)),
        (K::BatchSize, _) => put(&mut w.batch_size, whole32(v)),
        (K::NumWorkers, _) => put(&mut w.num_workers, whole32(v)),
        (K::PrefetchFactor, _) => put(&mut w.prefetch_factor, whole32(v)),
        (K::PinMemory, _) => put(&mut w.pin_memory, on(v)),
        (K::PersistentWorkers, _) => put(&mut w.persistent_workers, on(v)),
        (K::Augmentation, _) => put(&mut w.augmentation, variant_of(id, &AUGMENTATIONS, v)),
        (K::DataFormat, _) => put(&mut w.format, variant_of(id, &FORMATS, v)),
        (K::DecodeOn, _) => put(&mut w.decode_on, variant_of(id, &DECODES, v)),
        (K::GpuDemand, _) => put(&mut w.gpu_demand_samples_per_s, float(v)),
        (K::ConcurrentExperiments, _) => put(&mut w.concurrent_experiments, whole32(v)),
        (K::Storage, _) => put(&mut w.storage, variant_of(id, &STORAGE, v).map(Some)),
        (K::DecodeRate, _) => put(&mut w.measured_decode_mpix_per_core, float(v).map(Some)),
        (K::Cache, _) => put(&mut w.cache, variant_of(id, &CACHES, v)),
        (K::CacheDtype, _) => put(&mut w.cache_dtype, variant_of(id, &DTYPES, v)),
        (K::CacheScope, _) => put(&mut w.cache_scope, variant_of(id, &SCOPES, v)),
        (K::IndexBytes, _) => put(&mut w.index_bytes_per_sample, whole(v).map(Some)),
        _ => false,
    }
}

/// The knobs a workload recommendation's `apply` names when they change, in that order. Left
/// out: what follows from them (the sample count follows the dataset size) and what no lever
/// changes.
const WORKLOAD_APPLIED: &[KnobId] = &[
    K::NumWorkers,
    K::PrefetchFactor,
    K::BatchSize,
    K::ImageSize,
    K::DatasetSize,
    K::Stored,
    K::DataFormat,
    K::DecodeOn,
    K::Storage,
    K::Cache,
    K::CacheSize,
    K::IndexBytes,
];

/// The knobs of `applied` whose value differs between `from` and `to`, with `to`'s value; a
/// knob `to` has no value for (storage left to the machine) is left out.
fn changed<P>(
    applied: &[KnobId],
    from: &P,
    to: &P,
    get: impl Fn(&P, KnobId) -> Option<KnobValue>,
) -> Vec<Setting> {
    applied
        .iter()
        .filter_map(|&id| {
            let value = get(to, id)?;
            (get(from, id) != Some(value)).then_some(Setting { knob: id, value })
        })
        .collect()
}

/// The settings that turn workload `from` into `to`.
pub fn workload_changes(from: &Workload, to: &Workload) -> Vec<Setting> {
    changed(WORKLOAD_APPLIED, from, to, workload)
}

const PRECISIONS: [Precision; 2] = [Precision::Mixed16, Precision::Fp32];
const OPTIMIZERS: [Optimizer; 4] = [
    Optimizer::Adam,
    Optimizer::SgdMomentum,
    Optimizer::Adam8bit,
    Optimizer::Adafactor,
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
const CHECKPOINT_DTYPES: [CheckpointDtype; 3] = [
    CheckpointDtype::Bf16,
    CheckpointDtype::Fp32,
    CheckpointDtype::Int4,
];

/// Knob `id`'s value in training plan `p`; `None` for a knob of another plan or one the plan
/// doesn't set (no activation estimate, no NVMe settings, FSDP's ZeRO stage).
pub fn training(p: &TrainingPlan, id: KnobId) -> Option<KnobValue> {
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
pub fn set_training(p: &mut TrainingPlan, id: KnobId, v: KnobValue) -> bool {
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
        K::GpusPerNode => put(&mut p.gpus_per_node, whole32(v)),
        K::Nodes => put(&mut p.nodes, whole32(v)),
        K::Finetune => put(&mut p.finetune, variant_of(id, &FINETUNES, v)),
        K::LoraShare => put(&mut p.lora_trainable_share, float(v)),
        K::Loading => put(&mut p.loading, variant_of(id, &LOADINGS, v).map(Some)),
        K::CheckpointDtype => put(
            &mut p.checkpoint_dtype,
            variant_of(id, &CHECKPOINT_DTYPES, v),
        ),
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
    K::Checkpointing,
    K::MicroBatch,
];

/// The settings that turn training plan `from` into `to`. The command line's default strategy
/// depends on the fine-tuning method (DDP for LoRA and QLoRA, `advisor::defaults::strategy`):
/// a change of method names its strategy too. A switch turned off, or an activation setting
/// of a plan without an activation estimate on either side, is left out.
pub fn training_changes(from: &TrainingPlan, to: &TrainingPlan) -> Vec<Setting> {
    let mut out = changed(TRAINING_APPLIED, from, to, training);
    if from.finetune != to.finetune && from.strategy == to.strategy {
        if let Some(value) = training(to, K::Strategy) {
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

const WEIGHTS: [WeightFormat; 5] = [
    WeightFormat::Bf16,
    WeightFormat::Fp8,
    WeightFormat::Int8,
    WeightFormat::Int4,
    WeightFormat::Q4KM,
];
const FILES: [CheckpointFiles; 2] = [CheckpointFiles::Safetensors, CheckpointFiles::Pickle];
/// Bytes of a KV-cache element for each `--kv-cache-dtype` name: the model's 16 bits, 8 bits.
const KV_BYTES: [u8; 2] = [2, 1];

/// Knob `id`'s value in inference plan `p`; `None` for a knob of another plan or one the plan
/// doesn't set.
pub fn inference(p: &InferencePlan, id: KnobId) -> Option<KnobValue> {
    Some(match id {
        K::Weights => return name_of(id, &WEIGHTS, &p.weights),
        K::ContextLen => V::Whole(p.context_len),
        K::ConcurrentSequences => V::Whole(p.concurrent_sequences),
        K::KvHeads => V::Whole(p.shape.kv_heads?),
        K::KvCacheDtype => {
            let bytes = if p.kv_bytes == 1 { 1 } else { 2 };
            return name_of(id, &KV_BYTES, &bytes);
        }
        K::GpuMemoryUtilization => V::Float(p.gpu_memory_utilization),
        K::SwapSpace => V::Float(p.swap_space_gib),
        K::CpuOffloadGb => V::Float(p.cpu_offload_gib),
        K::NGpuLayers => V::Whole(p.gpu_layers?),
        K::ExpertsOnCpu => V::Bool(p.experts_on_cpu),
        K::CheckpointFiles => return name_of(id, &FILES, &p.files),
        K::CheckpointShardSize => V::Whole(p.checkpoint_shard_bytes?),
        _ => return None,
    })
}

/// Sets knob `id` of inference plan `p` to `v`. False when `v` isn't a value of that knob.
pub fn set_inference(p: &mut InferencePlan, id: KnobId, v: KnobValue) -> bool {
    fn put<T>(field: &mut T, v: Option<T>) -> bool {
        v.map(|v| *field = v).is_some()
    }
    match id {
        K::Weights => put(&mut p.weights, variant_of(id, &WEIGHTS, v)),
        K::ContextLen => put(&mut p.context_len, whole(v)),
        K::ConcurrentSequences => put(&mut p.concurrent_sequences, whole(v)),
        K::KvHeads => put(&mut p.shape.kv_heads, whole(v).map(Some)),
        K::KvCacheDtype => put(&mut p.kv_bytes, variant_of(id, &KV_BYTES, v)),
        K::GpuMemoryUtilization => put(&mut p.gpu_memory_utilization, float(v)),
        K::SwapSpace => put(&mut p.swap_space_gib, float(v)),
        K::CpuOffloadGb => put(&mut p.cpu_offload_gib, float(v)),
        K::NGpuLayers => put(&mut p.gpu_layers, whole(v).map(Some)),
        K::ExpertsOnCpu => put(&mut p.experts_on_cpu, on(v)),
        K::CheckpointFiles => put(&mut p.files, variant_of(id, &FILES, v)),
        K::CheckpointShardSize => put(&mut p.checkpoint_shard_bytes, whole(v).map(Some)),
        _ => false,
    }
}

/// The knobs an inference recommendation's `apply` names when they change, in that order.
const INFERENCE_APPLIED: &[KnobId] = &[
    K::Weights,
    K::ContextLen,
    K::ConcurrentSequences,
    K::KvCacheDtype,
    K::SwapSpace,
    K::CpuOffloadGb,
    K::NGpuLayers,
    K::CheckpointFiles,
    K::CheckpointShardSize,
];

/// The settings that turn inference plan `from` into `to`.
pub fn inference_changes(from: &InferencePlan, to: &InferencePlan) -> Vec<Setting> {
    changed(INFERENCE_APPLIED, from, to, inference)
}

/// The settings of machine change `c`: `/dev/shm`, WSL's `memory=`, RAM.
pub fn machine_settings(c: &MachineChange) -> Vec<Setting> {
    [
        (K::ShmSize, c.shm_bytes),
        (K::WslMemory, c.wsl_memory_bytes),
        (K::Ram, c.ram_bytes),
    ]
    .into_iter()
    .filter_map(|(knob, b)| {
        b.map(|b| Setting {
            knob,
            value: V::Whole(b),
        })
    })
    .collect()
}

/// The knob behind a workload input that can be inert.
pub fn of_inert(i: InertInput) -> KnobId {
    match i {
        InertInput::SampleBytes => K::SampleBytes,
        InertInput::Crop => K::Crop,
        InertInput::Dtype => K::Dtype,
        InertInput::Stored => K::Stored,
        InertInput::Augmentation => K::Augmentation,
        InertInput::DecodeRate => K::DecodeRate,
        InertInput::PrefetchFactor => K::PrefetchFactor,
        InertInput::PersistentWorkers => K::PersistentWorkers,
        InertInput::CacheSize => K::CacheSize,
        InertInput::CacheDtype => K::CacheDtype,
        InertInput::CacheScope => K::CacheScope,
        InertInput::IndexBytes => K::IndexBytes,
        InertInput::Storage => K::Storage,
    }
}

/// Checks `v` against `k`'s range: the field it sets (the width's or the height's of a
/// resolution) and what is wrong when outside.
///
/// # Errors
/// A value below the minimum or above the maximum (a rate of 0 or less for a range above zero).
pub fn check_range(k: &Knob, v: KnobValue) -> Result<(), (&'static str, Problem)> {
    let Some(r) = k.range else {
        return Ok(());
    };
    let field = |i: usize| k.fields.get(i).or(k.fields.first()).copied().unwrap_or("");
    let whole = |n: u64, i: usize| {
        if (n as f64) < r.min || n as f64 > r.max {
            Err((
                field(i),
                Problem::out_of_range(n, r.min as u64, r.max as u64),
            ))
        } else {
            Ok(())
        }
    };
    match v {
        V::Whole(n) => whole(n, 0),
        V::Pair(w, h) => whole(u64::from(w), 0).and(whole(u64::from(h), 1)),
        V::Float(f) if !(f.is_finite() && f <= r.max && (f > r.min || !r.above_min && f == r.min)) => {
            Err((
                field(0),
                Problem::AboveZeroAtMost {
                    value: f.to_string(),
                    hi: r.max.to_string(),
                },
            ))
        }
        _ => Ok(()),
    }
}
