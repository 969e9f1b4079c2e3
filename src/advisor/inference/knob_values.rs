//! The served model's knobs by id ([`crate::advisor::knobs`]): a knob's typed value in an
//! [`InferencePlan`], setting it, and the settings that turn one plan into another.

use super::llama_cpp::{CacheType, FlashAttn};
use super::{CheckpointFiles, InferencePlan, WeightFormat, vllm};
use crate::advisor::diffusion::{CpuOffload, DiffusionPlan};

use crate::advisor::knobs::{
    KnobId, KnobId as K, KnobValue, KnobValue as V, Setting, changed, float, name_of, on,
    variant_of, whole,
};

const WEIGHTS: [WeightFormat; 7] = [
    WeightFormat::Bf16,
    WeightFormat::Fp8,
    WeightFormat::Int8,
    WeightFormat::Int4,
    WeightFormat::Q4KM,
    WeightFormat::Q5KM,
    WeightFormat::Q6K,
];
const FILES: [CheckpointFiles; 2] = [CheckpointFiles::Safetensors, CheckpointFiles::Pickle];
/// llama.cpp's `--cache-type-k/-v` types, in the rows' order.
const CACHE_TYPES: [CacheType; 9] = [
    CacheType::F16,
    CacheType::F32,
    CacheType::Bf16,
    CacheType::Q8_0,
    CacheType::Q4_0,
    CacheType::Q4_1,
    CacheType::Iq4Nl,
    CacheType::Q5_0,
    CacheType::Q5_1,
];
const FLASH: [FlashAttn; 3] = [FlashAttn::Auto, FlashAttn::On, FlashAttn::Off];
const OFFLOADS: [CpuOffload; 3] = [CpuOffload::None, CpuOffload::Model, CpuOffload::Sequential];
/// Bytes of a KV-cache element for each `--kv-cache-dtype` name: the model's 16 bits, 8 bits.
const KV_BYTES: [u8; 2] = [2, 1];

/// Knob `id`'s value in inference plan `p`; `None` for a knob of another plan or one the plan
/// doesn't set.
pub fn get(p: &InferencePlan, id: KnobId) -> Option<KnobValue> {
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
        K::VllmVersion => return name_of(id, &vllm::RELEASES, &p.vllm_version),
        K::SwapSpace => V::Float(p.swap_space_gib),
        K::CpuOffloadGb => V::Float(p.cpu_offload_gib),
        K::KvCacheMemoryBytes => V::Whole(p.kv_cache_memory_bytes?),
        K::KvOffloadingSize => V::Float(p.kv_offloading_gib),
        K::NGpuLayers => V::Whole(p.gpu_layers?),
        K::ExpertsOnCpu => V::Bool(p.experts_on_cpu),
        K::NCpuMoe => V::Whole(p.llama.n_cpu_moe),
        K::CacheTypeK => return name_of(id, &CACHE_TYPES, &p.llama.cache_type_k),
        K::CacheTypeV => return name_of(id, &CACHE_TYPES, &p.llama.cache_type_v),
        K::FlashAttn => return name_of(id, &FLASH, &p.llama.flash_attn),
        K::UbatchSize => V::Whole(p.llama.ubatch?),
        K::CheckpointFiles => return name_of(id, &FILES, &p.files),
        K::CheckpointShardSize => V::Whole(p.checkpoint_shard_bytes?),
        K::DiffusionResolution => {
            let d = p.diffusion.as_ref()?;
            V::Pair(d.width, d.height)
        }
        K::DiffusionImages => V::Whole(p.diffusion.as_ref()?.images),
        K::DiffusionOffload => return name_of(id, &OFFLOADS, &p.diffusion.as_ref()?.cpu_offload),
        K::AttentionSlicing => V::Bool(p.diffusion.as_ref()?.attention_slicing),
        K::VaeTiling => V::Bool(p.diffusion.as_ref()?.vae_tiling),
        K::SingleFile => V::Bool(p.diffusion.as_ref()?.single_file),
        _ => return None,
    })
}

/// Sets knob `id` of inference plan `p` to `v`. False when `v` isn't a value of that knob.
pub fn set(p: &mut InferencePlan, id: KnobId, v: KnobValue) -> bool {
    fn put<T>(field: &mut T, v: Option<T>) -> bool {
        v.map(|v| *field = v).is_some()
    }
    match id {
        K::Weights => {
            let before = p.weights;
            let ok = put(&mut p.weights, variant_of(id, &WEIGHTS, v));
            // Bytes known tensor by tensor belong to the format they were sized for.
            if p.weights != before {
                p.weight_bytes = None;
            }
            ok
        }
        K::ContextLen => {
            // A context set is given: neither llama.cpp's fit nor Ollama's default chooses it.
            let ok = put(&mut p.context_len, whole(v));
            p.llama.context_auto &= !ok;
            ok
        }
        K::ConcurrentSequences => put(&mut p.concurrent_sequences, whole(v)),
        K::KvHeads => put(&mut p.shape.kv_heads, whole(v).map(Some)),
        K::KvCacheDtype => put(&mut p.kv_bytes, variant_of(id, &KV_BYTES, v)),
        K::GpuMemoryUtilization => put(&mut p.gpu_memory_utilization, float(v)),
        K::VllmVersion => put(&mut p.vllm_version, variant_of(id, &vllm::RELEASES, v)),
        K::SwapSpace => put(&mut p.swap_space_gib, float(v)),
        K::CpuOffloadGb => put(&mut p.cpu_offload_gib, float(v)),
        K::KvCacheMemoryBytes => put(&mut p.kv_cache_memory_bytes, whole(v).map(Some)),
        K::KvOffloadingSize => put(&mut p.kv_offloading_gib, float(v)),
        K::NGpuLayers => put(&mut p.gpu_layers, whole(v).map(Some)),
        K::ExpertsOnCpu => put(&mut p.experts_on_cpu, on(v)),
        K::NCpuMoe => put(&mut p.llama.n_cpu_moe, whole(v)),
        K::CacheTypeK => put(&mut p.llama.cache_type_k, variant_of(id, &CACHE_TYPES, v)),
        K::CacheTypeV => put(&mut p.llama.cache_type_v, variant_of(id, &CACHE_TYPES, v)),
        K::FlashAttn => put(&mut p.llama.flash_attn, variant_of(id, &FLASH, v)),
        K::UbatchSize => put(&mut p.llama.ubatch, whole(v).map(Some)),
        K::CheckpointFiles => put(&mut p.files, variant_of(id, &FILES, v)),
        K::CheckpointShardSize => put(&mut p.checkpoint_shard_bytes, whole(v).map(Some)),
        K::DiffusionResolution => match v {
            V::Pair(w, h) => {
                let d = p.diffusion.get_or_insert_with(DiffusionPlan::default);
                (d.width, d.height) = (w, h);
                true
            }
            _ => false,
        },
        K::DiffusionImages => put(&mut diffusion(p).images, whole(v)),
        K::DiffusionOffload => put(&mut diffusion(p).cpu_offload, variant_of(id, &OFFLOADS, v)),
        K::AttentionSlicing => put(&mut diffusion(p).attention_slicing, on(v)),
        K::VaeTiling => put(&mut diffusion(p).vae_tiling, on(v)),
        K::SingleFile => put(&mut diffusion(p).single_file, on(v)),
        _ => false,
    }
}

/// The plan's diffusion part, made with its defaults when it has none.
fn diffusion(p: &mut InferencePlan) -> &mut DiffusionPlan {
    p.diffusion.get_or_insert_with(DiffusionPlan::default)
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
    K::NCpuMoe,
    K::CacheTypeK,
    K::CacheTypeV,
    K::CheckpointFiles,
    K::CheckpointShardSize,
    K::DiffusionOffload,
    K::AttentionSlicing,
    K::VaeTiling,
    K::SingleFile,
];

/// The settings that turn inference plan `from` into `to`.
pub fn changes(from: &InferencePlan, to: &InferencePlan) -> Vec<Setting> {
    changed(INFERENCE_APPLIED, from, to, get)
}
