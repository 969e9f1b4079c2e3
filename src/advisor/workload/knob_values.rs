//! The workload's knobs by id ([`crate::advisor::knobs`]): a knob's typed value in a
//! [`Workload`], setting it, and the settings that turn one workload into another (what a
//! recommendation changes, from which its `apply` arguments are written).

use super::{
    Augmentation, CacheMode, CacheScope, DataFormat, DecodeOn, Dtype, InertInput, StoredFormat,
    Workload,
};
use crate::profile::DiskKind;

use crate::advisor::knobs::{
    KnobId, KnobId as K, KnobValue, KnobValue as V, Setting, changed, float, knob, name_of, on,
    variant_of, whole, whole32,
};

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
pub fn get(w: &Workload, id: KnobId) -> Option<KnobValue> {
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
pub fn set(w: &mut Workload, id: KnobId, v: KnobValue) -> bool {
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
    K::PinMemory,
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

/// The settings that turn workload `from` into `to`.
pub fn changes(from: &Workload, to: &Workload) -> Vec<Setting> {
    changed(WORKLOAD_APPLIED, from, to, get)
}

impl InertInput {
    /// The knob behind this input.
    pub fn knob(self) -> KnobId {
        match self {
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
}
