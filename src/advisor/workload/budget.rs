//! The RAM budget of a data-loading workload.

use serde::{Deserialize, Serialize};

use super::{DataFormat, Workload};

/// RAM the OS and a desktop session use. Assumption: a Linux desktop after login uses
/// 1.5–2.5 GiB; 2 GiB.
pub const OS_BYTES: u64 = 2 << 30;
/// The training process without data: Python, PyTorch and the CUDA context's host memory.
/// Assumption: `import torch` plus CUDA initialisation is 2.5–3.5 GiB resident; 3 GiB.
pub const MAIN_PROCESS_BYTES: u64 = 3 << 30;
/// A DataLoader worker's own memory after fork (interpreter pages it writes), as unique memory
/// (PSS), not RSS — `top` shows ~380 MiB per worker because it counts the pages shared with the
/// training process. 96 MiB: measured 52–93 MiB (mean ~75) per torchvision worker, rounded up
/// for a main process with more pages to touch (docs/validation.md).
pub const WORKER_BASE_BYTES: u64 = 96 << 20;
/// Bytes of Python objects per sample in a typical dataset index (a path string, a label, list
/// slots). Each worker touches them, so reference-count writes copy their pages into every
/// worker: PyTorch's documentation ("Multi-process data loading") warns of exactly this growth.
/// Assumption: 150 bytes per sample.
pub const INDEX_BYTES_PER_SAMPLE: u64 = 150;

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
    /// Batches prefetched (`num_workers × prefetch_factor`), in shared memory.
    PrefetchedBatches,
    /// Pinned staging buffers for host-to-GPU copies.
    PinnedStaging,
    /// A dataset loaded fully into RAM.
    DatasetInRam,
    /// What is left for the page cache to hold the dataset.
    PageCache,
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
    /// Effective RAM (cgroup limit applied), when known.
    pub effective_ram_bytes: Option<u64>,
    /// Parts, the page cache last.
    pub items: Vec<BudgetItem>,
    /// Everything but the page cache.
    pub working_set_bytes: u64,
    /// Effective RAM − working set (negative: over by that much). `None` when RAM is unknown.
    pub headroom_bytes: Option<i64>,
    /// Share of the dataset the page cache can hold, 0–1 (1 when the dataset is in RAM).
    pub dataset_cached_fraction: f64,
}

fn batch_bytes(w: &Workload) -> u64 {
    u64::from(w.batch_size).saturating_mul(w.tensor_bytes())
}

/// /dev/shm the workload needs: every prefetched batch crosses from a worker to the training
/// process through shared memory (torch.multiprocessing), `num_workers × prefetch_factor`
/// batches per experiment.
pub fn shm_needed(w: &Workload) -> u64 {
    u64::from(w.num_workers)
        .saturating_mul(u64::from(w.prefetch_factor))
        .saturating_mul(batch_bytes(w))
        .saturating_mul(u64::from(w.concurrent_experiments))
}

/// Builds the budget of `w` against `effective_ram`.
pub fn budget(w: &Workload, effective_ram: Option<u64>) -> MemoryBudget {
    let k = u64::from(w.concurrent_experiments);
    let workers = u64::from(w.num_workers);
    // A map-style Dataset decodes and augments one sample at a time: each decoding process holds
    // the decoded image and one resampling intermediate, any full-resolution float copies its
    // augmentation makes before the crop, and the batch being collated plus the one being
    // sent (docs/validation.md measured this shape).
    let float_bytes =
        (w.pixels() * u64::from(w.channels) * 4) as f64 * w.augmentation.float_copies();
    let per_process_decode =
        2.0 * w.decoded_bytes() as f64 + float_bytes + 2.0 * batch_bytes(w) as f64;
    // Without workers the main process decodes itself.
    let decoding = workers.max(1);
    let mut items = vec![
        BudgetItem {
            id: BudgetItemId::Os,
            bytes: OS_BYTES,
        },
        BudgetItem {
            id: BudgetItemId::MainProcess,
            bytes: MAIN_PROCESS_BYTES.saturating_mul(k),
        },
        BudgetItem {
            id: BudgetItemId::Workers,
            bytes: WORKER_BASE_BYTES.saturating_mul(workers).saturating_mul(k),
        },
        BudgetItem {
            id: BudgetItemId::WorkerIndexCopies,
            bytes: INDEX_BYTES_PER_SAMPLE
                .saturating_mul(w.samples)
                .saturating_mul(workers)
                .saturating_mul(k),
        },
        BudgetItem {
            id: BudgetItemId::DecodeBuffers,
            bytes: ((per_process_decode * decoding as f64 * k as f64).min(u64::MAX as f64)) as u64,
        },
        BudgetItem {
            id: BudgetItemId::PrefetchedBatches,
            bytes: shm_needed(w),
        },
    ];
    if w.pin_memory {
        // The pin-memory thread holds the batch being copied and the next one (assumption).
        items.push(BudgetItem {
            id: BudgetItemId::PinnedStaging,
            bytes: 2 * batch_bytes(w) * k,
        });
    }
    if w.format == DataFormat::InRam {
        items.push(BudgetItem {
            id: BudgetItemId::DatasetInRam,
            bytes: w.dataset_bytes.saturating_mul(k),
        });
    }
    let working: u64 = items.iter().fold(0u64, |s, i| s.saturating_add(i.bytes));
    let cache = effective_ram.map_or(0, |r| r.saturating_sub(working));
    let dataset_cached_fraction = match (w.format, effective_ram) {
        (DataFormat::InRam, _) => 1.0,
        (_, None) => 0.0,
        _ => (cache as f64 / w.dataset_bytes.max(1) as f64).min(1.0),
    };
    items.push(BudgetItem {
        id: BudgetItemId::PageCache,
        bytes: cache,
    });
    MemoryBudget {
        effective_ram_bytes: effective_ram,
        items,
        working_set_bytes: working,
        headroom_bytes: effective_ram.map(|r| r as i64 - working.min(i64::MAX as u64) as i64),
        dataset_cached_fraction,
    }
}
