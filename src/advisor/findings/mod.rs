//! Findings: what is wrong or worth knowing, as data. A finding has a stable id, a severity,
//! the numbers that triggered it and the ids of its recommendations; the prose lives in the
//! locale files (`finding.<id>.*`, `advice.<id>.finding`), so the window, the terminal and reports say the
//! same thing. This folder holds the vocabulary and the thresholds; what finds them for one
//! machine is [`crate::advisor::finder`].

mod types;

pub use types::{AdviceId, Finding, FindingId, Quantity, Severity};

/// Swap use worth a warning: 256 MiB. Assumption: a few MiB of idle pages in swap is normal on
/// a long-running host; hundreds of MiB means memory pressure happened.
pub const SWAP_IN_USE_WARN_BYTES: u64 = 256 << 20;

/// Swappiness above this is "high": the seed (§四.3) recommends 10–20 for training machines.
pub const SWAPPINESS_MAX: u32 = 20;

/// `/dev/shm` a typical DataLoader needs, used until a workload scenario says otherwise:
/// 8 workers × `prefetch_factor` 2 (PyTorch's default) batches in flight, each an ImageNet
/// batch of 256 samples of 3 × 224 × 224 float32 (154,140,672 bytes): 2,466,250,752 bytes
/// (2.3 GiB). Assumption stated in docs/model.md; PyTorch workers pass batches through shared
/// memory (torch.multiprocessing), so this is what must fit. Docker's 64 MB default fails it.
pub const SHM_NEEDED_DEFAULT_BYTES: u64 = 8 * 2 * 256 * 3 * 224 * 224 * 4;

/// A GPU counts as busy (so a slow link is a fault, not power saving) at this utilisation.
/// Assumption: NVIDIA GPUs raise the link to full speed within milliseconds of load.
pub const BUSY_UTILIZATION_PERCENT: u32 = 50;
