//! The evaluation pause: the training loop stops stepping (an evaluation pass, a checkpoint)
//! while its DataLoader's workers keep going until `num_workers × prefetch_factor` batches wait
//! (PyTorch's `_MultiProcessingDataLoaderIter` keeps that many tasks outstanding:
//! torch/utils/data/dataloader.py, `_try_put_index` up to `_prefetch_factor * _num_workers`),
//! and a validation loader, with its own workers and prefetch, fills its own queue beside it.
//! Every loader is counted at its full queue, pinned (PyTorch's caching host allocator:
//! [`crate::advisor::pinned::pinned_block`]) or in /dev/shm. `docs/model.md` § "Workload simulator:
//! the evaluation pause".

use serde::{Deserialize, Serialize};

use super::budget::{
    LOADER_MAIN_BYTES, WORKER_BASE_BYTES, WORKER_SPAWN_BASE_BYTES, batch_bytes, budget,
};
use super::{BudgetItemId, Loader, Workload};
use crate::advisor::pinned::pinned_block;
use crate::profile::StartMethod;

/// Which loader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoaderRole {
    /// The training loader (the workload's own settings).
    Training,
    /// The validation loader ([`Workload::validation`]).
    Validation,
}

/// One loader at its pause peak, bytes for all concurrent experiments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoaderPause {
    /// Which loader.
    pub role: LoaderRole,
    /// Batches waiting: `num_workers × prefetch_factor`.
    pub queued_batches: u64,
    /// Bytes of one batch.
    pub batch_bytes: u64,
    /// Page-locked host memory: every waiting batch and the one the loop holds, each rounded
    /// up to a power of two.
    pub pinned_bytes: u64,
    /// /dev/shm: the waiting batches without `pin_memory`, the one in transit with it.
    pub shm_bytes: u64,
}

/// The evaluation pause's RAM: the steady budget's items with the training queue full, plus
/// the validation loader's processes and queue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvaluationPause {
    /// Each loader at its pause peak.
    pub loaders: Vec<LoaderPause>,
    /// Everything held in RAM during the pause (no page cache), bytes.
    pub working_set_bytes: u64,
    /// Usable RAM − the working set (negative: over by that much); `None` when RAM is unknown.
    pub headroom_bytes: Option<i64>,
}

/// Pinned and /dev/shm bytes of a loader holding `queued` batches of `batch` bytes plus the
/// one the loop holds (the split of [`super::budget::budget`]): with workers and
/// `pin_memory`, `queued + 1` pinned blocks and one batch in /dev/shm (the pin thread's);
/// with workers and without it, `queued + 1` batches in /dev/shm; without workers the loop
/// pins its one batch itself, or holds it in its own memory.
fn queue(batch: u64, workers: u32, queued: u64, pin: bool) -> (u64, u64) {
    let held = if workers > 0 { queued + 1 } else { 0 };
    match (pin, workers > 0) {
        (false, _) => (0, batch.saturating_mul(held)),
        (true, true) => (pinned_block(batch).saturating_mul(held), batch),
        (true, false) => (pinned_block(batch), 0),
    }
}

/// The validation loader's own processes: its main-process loader state, its workers and the
/// samples each decodes and collates (the same per-process decode buffers as the training
/// loader's: two decoded samples and two batches).
fn validation_processes(w: &Workload, v: &Loader, start: StartMethod) -> u64 {
    let base = if start == StartMethod::Spawn {
        WORKER_SPAWN_BASE_BYTES
    } else {
        WORKER_BASE_BYTES
    };
    let batch = u64::from(v.batch_size).saturating_mul(w.tensor_bytes());
    let decode = w
        .decoded_bytes()
        .saturating_mul(2)
        .saturating_add(batch.saturating_mul(2));
    LOADER_MAIN_BYTES
        .saturating_add(base.saturating_mul(u64::from(v.num_workers)))
        .saturating_add(decode.saturating_mul(u64::from(v.num_workers.max(1))))
}

/// The evaluation pause of `w` (clamped) against `usable_ram`, with `gpus` ranks for a
/// per-rank cache and workers started by `start`.
pub fn evaluation_pause(
    w: &Workload,
    usable_ram: Option<u64>,
    gpus: u32,
    start: StartMethod,
    overheads: &crate::advisor::overhead::Overheads,
) -> EvaluationPause {
    let k = u64::from(w.concurrent_experiments);
    let full = u64::from(w.num_workers) * u64::from(w.prefetch_factor);
    let b = budget(w, usable_ram, full, gpus, start, overheads);
    let mut loaders = vec![LoaderPause {
        role: LoaderRole::Training,
        queued_batches: full,
        batch_bytes: batch_bytes(w),
        pinned_bytes: b.item(BudgetItemId::PinnedStaging),
        shm_bytes: b.item(BudgetItemId::PrefetchedBatches),
    }];
    let mut working = b.working_set_bytes;
    if let Some(v) = w.validation {
        let queued = u64::from(v.num_workers) * u64::from(v.prefetch_factor);
        let batch = u64::from(v.batch_size).saturating_mul(w.tensor_bytes());
        let (pinned, shm) = queue(batch, v.num_workers, queued, v.pin_memory);
        let l = LoaderPause {
            role: LoaderRole::Validation,
            queued_batches: queued,
            batch_bytes: batch,
            pinned_bytes: pinned.saturating_mul(k),
            shm_bytes: shm.saturating_mul(k),
        };
        working = working
            .saturating_add(l.pinned_bytes)
            .saturating_add(l.shm_bytes)
            .saturating_add(validation_processes(w, &v, start).saturating_mul(k));
        loaders.push(l);
    }
    EvaluationPause {
        loaders,
        working_set_bytes: working,
        headroom_bytes: usable_ram.map(|r| r as i64 - working.min(i64::MAX as u64) as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::workload::presets;

    /// A workload whose every budget item is easy to work by hand: 1,000,000-byte samples
    /// (non-image), batches of 100 (100,000,000 bytes: a 134,217,728-byte pinned block, 2^27),
    /// no index, one experiment.
    fn workload() -> Workload {
        Workload {
            width: 0,
            height: 0,
            crop: 0,
            sample_bytes: Some(1_000_000),
            samples: 1_000,
            dataset_bytes: 1_000_000_000,
            batch_size: 100,
            num_workers: 8,
            prefetch_factor: 4,
            pin_memory: true,
            index_bytes_per_sample: Some(0),
            concurrent_experiments: 1,
            validation: Some(Loader {
                batch_size: 100,
                num_workers: 4,
                prefetch_factor: 2,
                pin_memory: false,
            }),
            ..presets::preset("imagenet-resnet50").unwrap()
        }
    }

    #[test]
    fn training_and_validation_loaders_at_the_pause_on_64_gib() {
        // Issue 33, case 4. Training loader: 8 workers × prefetch 4 = 32 batches waiting plus
        // the one the loop holds, pinned: 33 × 2^27 = 4,429,185,024; one batch in /dev/shm for
        // the pin thread: 100,000,000.
        let gib = 1u64 << 30;
        let mib = 1u64 << 20;
        let r = evaluation_pause(
            &workload(),
            Some(64 * gib),
            1,
            StartMethod::Fork,
            &crate::advisor::overhead::Overheads::TYPICAL,
        );
        let t = r.loaders[0];
        assert_eq!(t.queued_batches, 32);
        assert_eq!(t.pinned_bytes, 33 * 134_217_728);
        assert_eq!(t.shm_bytes, 100_000_000);
        // Validation loader: 4 workers × prefetch 2 = 8 waiting plus the one the loop holds,
        // not pinned: 9 × 100,000,000 in /dev/shm.
        let v = r.loaders[1];
        assert_eq!(v.queued_batches, 8);
        assert_eq!((v.pinned_bytes, v.shm_bytes), (0, 900_000_000));
        // Everything else: the OS 2 GiB, the training process 3 GiB, each loader's main state
        // 40 MiB, 12 workers × 90 MiB, and each worker decoding two samples and two batches,
        // 2 × 1,000,000 + 2 × 100,000,000 = 202,000,000 bytes, × 12.
        let rest = 2 * gib + 3 * gib + 2 * 40 * mib + 12 * 90 * mib + 12 * 202_000_000;
        let total = rest + 33 * 134_217_728 + 100_000_000 + 900_000_000;
        assert_eq!(r.working_set_bytes, total);
        // 14,438,242,304 bytes = 13.4 GiB, leaving 50.6 GiB of the 64.
        assert_eq!(total, 14_438_242_304);
        assert_eq!(r.headroom_bytes, Some(54_281_234_432));
    }

    #[test]
    fn the_pinned_figure_follows_prefetch_factor() {
        // The report in issue 33: a host OOM went away when prefetch_factor 8 became 2. At
        // the pause, 8 workers hold 8 × 8 + 1 = 65 pinned blocks at prefetch 8 and
        // 8 × 2 + 1 = 17 at prefetch 2.
        let mut w = workload();
        w.validation = None;
        w.prefetch_factor = 8;
        let at8 = evaluation_pause(
            &w,
            None,
            1,
            StartMethod::Fork,
            &crate::advisor::overhead::Overheads::TYPICAL,
        )
        .loaders[0]
            .pinned_bytes;
        w.prefetch_factor = 2;
        let at2 = evaluation_pause(
            &w,
            None,
            1,
            StartMethod::Fork,
            &crate::advisor::overhead::Overheads::TYPICAL,
        )
        .loaders[0]
            .pinned_bytes;
        assert_eq!((at8, at2), (65 * 134_217_728, 17 * 134_217_728));
    }

    #[test]
    fn a_pause_over_ram_is_a_finding_when_steps_fit() {
        // Prefetch 8 on a 12 GiB machine: steps that wait for data hold no queue, but the
        // pause holds 8 × 8 + 1 = 65 pinned 2^27-byte blocks (8.1 GiB) besides the rest.
        use crate::advisor::workload::{MachineRates, findings, simulate};
        let mut w = workload();
        w.validation = None;
        w.prefetch_factor = 8;
        w.gpu_demand_samples_per_s = 1e7;
        let m = MachineRates {
            usable_ram_bytes: Some(12 << 30),
            ..MachineRates::default()
        };
        let r = simulate(&w, &m);
        let p = r.evaluation_pause.as_ref().unwrap();
        assert_eq!(p.loaders[0].pinned_bytes, 65 * 134_217_728);
        assert!(p.headroom_bytes.unwrap() < 0);
        let ram = crate::advisor::RamSizes {
            mem_total_bytes: Some(12 << 30),
            limit_bytes: None,
            usable_bytes: Some(12 << 30),
            limited_by_cgroup: false,
            installed_bytes: Some(12 << 30),
            installed_provenance: None,
            installed_basis: None,
            sizing_bytes: Some(12 << 30),
        };
        let ids: Vec<_> = findings(&r, &ram).iter().map(|f| f.id).collect();
        // Steps wait for data (an empty queue) and fit; the pause doesn't.
        assert_eq!(r.memory_budget.queued_batches, 0);
        assert!(r.memory_budget.headroom_bytes.unwrap() >= 0);
        assert!(ids.contains(&crate::advisor::findings::FindingId::EvaluationPauseExceedsRam));
        // At prefetch 2 the pause holds 17 blocks (2.1 GiB) and fits.
        w.prefetch_factor = 2;
        let r = simulate(&w, &m);
        assert!(r.evaluation_pause.unwrap().headroom_bytes.unwrap() >= 0);
    }
}
