//! The RAM budget of a data-loading workload and its /dev/shm need.

use serde::{Deserialize, Serialize};

use super::{CacheMode, Workload};
use crate::advisor::pinned::pinned_block;

pub use crate::advisor::capacity::{MAIN_PROCESS_BYTES, OS_BYTES};

/// The training process's own DataLoader memory (the iterator, allocator caches, batches being
/// unpickled): 40 MiB. Fitted with [`WORKER_BASE_BYTES`] by least squares on the PSS of
/// docs/validation.md's fitting runs f1–f8 (35–56 MiB with `num_workers=0` besides the decode
/// buffers).
pub const LOADER_MAIN_BYTES: u64 = 40 << 20;
/// A DataLoader worker's own memory after fork (interpreter pages it writes, its allocator),
/// as unique memory (PSS), not RSS — `top` shows ~380 MiB per worker because it counts the
/// pages shared with the training process. 90 MiB: fitted with [`LOADER_MAIN_BYTES`] on
/// docs/validation.md's fitting runs f1–f8 (75–100 MiB per worker; the first benchmark
/// measured 52–93). A training process holding a model has more pages a worker may touch, so
/// real jobs may see more.
pub const WORKER_BASE_BYTES: u64 = 90 << 20;
/// A spawned DataLoader worker's own memory (Windows, macOS: `profile::StartMethod::Spawn`):
/// a fresh interpreter that re-imports the training script (torch, numpy, torchvision) and
/// shares no written page with the training process, only the libraries' code. 300 MiB.
/// Assumption: the ~380 MiB resident size docs/validation.md's forked workers show, less the
/// libraries' code pages that stay shared; not measured under spawn (docs/validation.md has no
/// Windows or macOS run). Source for the semantics: PyTorch docs, `torch.utils.data`,
/// "Platform-specific behaviors" (workers on Windows re-run the main script and receive the
/// dataset pickled); Python docs, `multiprocessing`, "Contexts and start methods" (spawn is the
/// default on Windows and, since 3.8, on macOS).
pub const WORKER_SPAWN_BASE_BYTES: u64 = 300 << 20;
/// /dev/shm to give a workload, as a multiple of its need: 2× rounded up to a whole GiB, at
/// least 1 GiB. Assumption: the batch the training step holds and the pin thread's copy sit in
/// /dev/shm beside the full queue (measured: workers × prefetch + 1 batches,
/// docs/validation.md), and a size limit costs nothing until it is used.
pub const SHM_MARGIN: f64 = 2.0;

/// Parts of the RAM budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BudgetItemId {
    /// OS and desktop.
    Os,
    /// The training process(es) without data.
    MainProcess,
    /// Each worker's own memory.
    Workers,
    /// Dataset index copied into every worker (copy-on-access).
    WorkerIndexCopies,
    /// Decoded images and augmentation intermediates being prepared.
    DecodeBuffers,
    /// Batches waiting in /dev/shm for the training process.
    PrefetchedBatches,
    /// Pinned (page-locked) batches for host-to-GPU copies.
    PinnedStaging,
    /// The stored files held in RAM (`cache: stored-in-ram`).
    DatasetInRam,
    /// What is left for the page cache to hold the dataset.
    PageCache,
    /// The training process's own DataLoader memory.
    LoaderMain,
    /// Decoded images held in RAM (`cache: decoded-in-ram`).
    DecodedCache,
}

/// One part of the budget, bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetItem {
    /// Which part.
    pub id: BudgetItemId,
    /// Bytes.
    pub bytes: u64,
}

/// The RAM budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryBudget {
    /// The usable RAM the budget is held against, bytes: [`crate::advisor::RamSizes`]'s
    /// `usable_bytes` (`MemTotal`, or the cgroup limit when lower), when known. Read back
    /// under its old name `effective_ram_bytes` too.
    #[serde(alias = "effective_ram_bytes")]
    pub usable_ram_bytes: Option<u64>,
    /// Parts, the page cache last.
    pub items: Vec<BudgetItem>,
    /// Everything but the page cache.
    pub working_set_bytes: u64,
    /// Usable RAM − working set (negative: over by that much). `None` when RAM is unknown.
    pub headroom_bytes: Option<i64>,
    /// Share of the dataset the page cache can hold, 0–1 (1 when a cache holds it in RAM).
    pub dataset_cached_fraction: f64,
    /// Batches waiting for the training process (the queue; not counting the one it holds).
    #[serde(default)]
    pub queued_batches: u64,
    /// How the workers start (spawn on Windows and macOS), which the worker items depend on.
    #[serde(default = "fork")]
    pub start_method: crate::profile::StartMethod,
}

fn fork() -> crate::profile::StartMethod {
    crate::profile::StartMethod::Fork
}

impl MemoryBudget {
    /// The bytes of item `id` (0 when absent).
    pub fn item(&self, id: BudgetItemId) -> u64 {
        self.items
            .iter()
            .find(|i| i.id == id)
            .map_or(0, |i| i.bytes)
    }
}

/// Bytes of one batch as the GPU receives it.
pub fn batch_bytes(w: &Workload) -> u64 {
    u64::from(w.batch_size).saturating_mul(w.tensor_bytes())
}

/// How the /dev/shm need is made up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShmNeed {
    /// `num_workers`.
    pub workers: u32,
    /// `prefetch_factor`.
    pub prefetch_factor: u32,
    /// `batch_size`.
    pub batch_size: u32,
    /// Bytes of one sample as collated.
    pub sample_bytes: u64,
    /// Experiments at once.
    pub experiments: u32,
    /// workers × prefetch_factor × batch × sample bytes × experiments.
    pub bytes: u64,
    /// The size to give /dev/shm: [`SHM_MARGIN`] × the need, rounded up to a whole GiB, at
    /// least 1 GiB; 0 when the need is 0 (no workers).
    pub recommended_bytes: u64,
}

impl ShmNeed {
    /// The need assumed until a workload says otherwise
    /// ([`crate::advisor::findings::SHM_NEEDED_DEFAULT_BYTES`]): 8 workers × `prefetch_factor`
    /// 2 × batches of 256 ImageNet samples of 3 × 224 × 224 float32 (602,112 bytes).
    pub fn default_assumption() -> ShmNeed {
        let sample = 3 * 224 * 224 * 4;
        let bytes = crate::advisor::findings::SHM_NEEDED_DEFAULT_BYTES;
        debug_assert_eq!(bytes, 8 * 2 * 256 * sample);
        ShmNeed {
            workers: 8,
            prefetch_factor: 2,
            batch_size: 256,
            sample_bytes: sample,
            experiments: 1,
            bytes,
            recommended_bytes: recommended_shm(bytes),
        }
    }
}

/// The size to give /dev/shm for a need of `bytes`: [`SHM_MARGIN`] × the need rounded up to a
/// whole GiB, at least 1 GiB; 0 for no need.
pub fn recommended_shm(bytes: u64) -> u64 {
    let gib = 1u64 << 30;
    if bytes == 0 {
        return 0;
    }
    let with_margin = crate::units::saturating_bytes(bytes as f64 * SHM_MARGIN);
    with_margin.div_ceil(gib).max(1).saturating_mul(gib)
}

/// /dev/shm the workload needs: every batch a worker finishes crosses to the training process
/// through shared memory (torch.multiprocessing), and the queue holds up to
/// `num_workers × prefetch_factor` of them (PyTorch DataLoader semantics) — all of them whenever
/// the training loop pauses (a checkpoint, an evaluation pass) or is slower than the loader.
pub fn shm_need(w: &Workload) -> ShmNeed {
    let bytes = u64::from(w.num_workers)
        .saturating_mul(u64::from(w.prefetch_factor))
        .saturating_mul(batch_bytes(w))
        .saturating_mul(u64::from(w.concurrent_experiments));
    ShmNeed {
        workers: w.num_workers,
        prefetch_factor: w.prefetch_factor,
        batch_size: w.batch_size,
        sample_bytes: w.tensor_bytes(),
        experiments: w.concurrent_experiments,
        bytes,
        recommended_bytes: recommended_shm(bytes),
    }
}

/// Builds the budget of `w` against `usable_ram` when `queued` batches wait for the
/// training process (workers × prefetch when the loader keeps up, none when the training loop
/// waits for data: see `pipeline::simulate`), with `gpus` DDP ranks for a per-rank cache.
///
/// Under `spawn` ([`crate::profile::StartMethod`]) each worker is its own interpreter
/// ([`WORKER_SPAWN_BASE_BYTES`]) holding an unpickled copy of the dataset object (its index,
/// as under fork once reference counting has copied it), and a cache the dataset object holds
/// "shared" is copied into every worker too: nothing is shared copy-on-write.
pub fn budget(
    w: &Workload,
    usable_ram: Option<u64>,
    queued: u64,
    gpus: u32,
    start: crate::profile::StartMethod,
    overheads: &crate::advisor::overhead::Overheads,
) -> MemoryBudget {
    let k = u64::from(w.concurrent_experiments);
    let workers = u64::from(w.num_workers);
    let spawn = start == crate::profile::StartMethod::Spawn;
    let worker_base = if spawn {
        WORKER_SPAWN_BASE_BYTES
    } else {
        WORKER_BASE_BYTES
    };
    let batch = batch_bytes(w);
    // A map-style Dataset decodes and augments one sample at a time: each decoding process
    // holds the decoded image and one resampling intermediate, the samples of the batch being
    // collated and the collated batch (docs/validation.md). Crop-first pipelines never hold a
    // full-resolution float copy.
    let image = if w.cache == CacheMode::DecodedInRam && w.width > 0 {
        w.cache_pixels() * u64::from(w.channels.max(1))
    } else {
        w.decoded_bytes()
    };
    let per_process_decode = image
        .saturating_mul(2)
        .saturating_add(batch.saturating_mul(2));
    // Without workers the training process decodes itself.
    let decoding = workers.max(1);
    // With workers, the queue plus the batch the training step holds sit in /dev/shm; with
    // pin_memory the pin thread moves them into page-locked memory and only the batch in
    // transit stays in /dev/shm. Without workers the training process pins each batch itself.
    let held = if workers > 0 { queued + 1 } else { 0 };
    let (shm_batches, pinned_batches) = match (w.pin_memory, workers > 0) {
        (false, _) => (held, 0),
        (true, true) => (1, held),
        (true, false) => (0, 1),
    };
    let scaled = |b: u64| b.saturating_mul(k);
    let mut items = vec![
        BudgetItem {
            id: BudgetItemId::Os,
            bytes: overheads.os.bytes,
        },
        BudgetItem {
            id: BudgetItemId::MainProcess,
            bytes: scaled(overheads.process.bytes),
        },
        BudgetItem {
            id: BudgetItemId::LoaderMain,
            bytes: scaled(LOADER_MAIN_BYTES),
        },
        BudgetItem {
            id: BudgetItemId::Workers,
            bytes: scaled(worker_base.saturating_mul(workers)),
        },
        BudgetItem {
            id: BudgetItemId::WorkerIndexCopies,
            bytes: scaled(
                w.index_bytes()
                    .saturating_mul(w.samples)
                    .saturating_mul(workers),
            ),
        },
        BudgetItem {
            id: BudgetItemId::DecodeBuffers,
            bytes: scaled(per_process_decode.saturating_mul(decoding)),
        },
        BudgetItem {
            id: BudgetItemId::PrefetchedBatches,
            bytes: scaled(batch.saturating_mul(shm_batches)),
        },
    ];
    if w.pin_memory {
        items.push(BudgetItem {
            id: BudgetItemId::PinnedStaging,
            bytes: scaled(pinned_block(batch).saturating_mul(pinned_batches)),
        });
    }
    let copies = match (spawn, w.cache_scope) {
        // The dataset object, cache included, is pickled into every worker.
        (true, super::CacheScope::Shared) if workers > 0 => workers + 1,
        _ => w.cache_copies(gpus),
    };
    let cache = w.cache_bytes_per_copy().saturating_mul(copies);
    match w.cache {
        CacheMode::None => {}
        CacheMode::StoredInRam => items.push(BudgetItem {
            id: BudgetItemId::DatasetInRam,
            bytes: scaled(cache),
        }),
        CacheMode::DecodedInRam => items.push(BudgetItem {
            id: BudgetItemId::DecodedCache,
            bytes: scaled(cache),
        }),
    }
    let working: u64 = items.iter().fold(0u64, |s, i| s.saturating_add(i.bytes));
    let page_cache = usable_ram.map_or(0, |r| r.saturating_sub(working));
    let dataset_cached_fraction = match (w.cache, usable_ram) {
        (CacheMode::StoredInRam | CacheMode::DecodedInRam, _) => 1.0,
        (_, None) => 0.0,
        _ => (page_cache as f64 / w.dataset_bytes.max(1) as f64).min(1.0),
    };
    items.push(BudgetItem {
        id: BudgetItemId::PageCache,
        bytes: page_cache,
    });
    MemoryBudget {
        usable_ram_bytes: usable_ram,
        items,
        working_set_bytes: working,
        headroom_bytes: usable_ram.map(|r| r as i64 - working.min(i64::MAX as u64) as i64),
        dataset_cached_fraction,
        queued_batches: queued,
        start_method: start,
    }
}
