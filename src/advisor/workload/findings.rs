//! Findings about a data-loading workload: RAM (the working set, a RAM cache, the index copied
//! into every worker), the page cache, /dev/shm, the dataset size's consistency and the stage
//! the GPUs wait for. Data only: ids, severities and numbers.

use crate::advisor::RamSizes;
use crate::advisor::capacity::installed_for;
use crate::advisor::findings::{AdviceId, Finding, FindingId, Quantity, Severity};
use crate::advisor::standing::{FED_UTILIZATION, STARVED_CRITICAL};

use super::{BudgetItemId, CacheMode, ShmNeed, StageId, WorkloadResult};

/// Share of RAM below which the workload's headroom is a swap risk: 10 % (assumption: the
/// kernel starts reclaiming and swapping well before memory is full).
pub const SWAP_RISK_SHARE: f64 = 0.1;

/// Share of usable RAM from which the workers' copies of the dataset index are worth a
/// finding: 5 %. Assumption: below that they hide in the noise of the other terms.
pub const INDEX_NOTICEABLE_SHARE: f64 = 0.05;

/// The `docker run --shm-size` value for `bytes` (a whole number of GiB): `"5g"` (Docker reads
/// `g` as 1024³ bytes).
pub fn shm_flag(bytes: u64) -> String {
    format!("{}g", bytes.div_ceil(1 << 30))
}

/// The `shm-small` finding for a /dev/shm of `shm` bytes against `need`: the need as workers ×
/// prefetch × batch × sample bytes, and the size to give it.
pub fn shm_finding(shm: u64, need: &ShmNeed) -> Finding {
    Finding::new(FindingId::ShmSmall, Severity::Warning, &[AdviceId::GrowShm])
        .with("shm", Quantity::Bytes(shm))
        .with("needed", Quantity::Bytes(need.bytes))
        .with("workers", Quantity::Count(u64::from(need.workers)))
        .with("prefetch", Quantity::Count(u64::from(need.prefetch_factor)))
        .with("batch", Quantity::Count(u64::from(need.batch_size)))
        .with("sample", Quantity::Bytes(need.sample_bytes))
        .with("experiments", Quantity::Count(u64::from(need.experiments)))
        .with("recommended", Quantity::Bytes(need.recommended_bytes))
        .with("shm_flag", Quantity::Text(shm_flag(need.recommended_bytes)))
}

/// The findings about workload `w` on a machine with `ram`.
pub fn findings(w: &WorkloadResult, ram: &RamSizes) -> Vec<Finding> {
    let mut out = Vec::new();
    memory(w, ram, &mut out);
    consistency(w, &mut out);
    starvation(w, ram, &mut out);
    out
}

/// How far the evaluation pause's working set is over usable RAM, bytes; `None` when it fits
/// or RAM is unknown.
fn pause_over(w: &WorkloadResult) -> Option<u64> {
    let h = w.evaluation_pause.as_ref()?.headroom_bytes?;
    (h < 0).then(|| h.unsigned_abs())
}

fn memory(w: &WorkloadResult, ram_info: &RamSizes, out: &mut Vec<Finding>) {
    let b = &w.memory_budget;
    let (Some(ram), Some(headroom)) = (b.usable_ram_bytes, b.headroom_bytes) else {
        return;
    };
    let base = |id, sev, recs: &[AdviceId]| {
        Finding::new(id, sev, recs)
            .with("working_set", Quantity::Bytes(b.working_set_bytes))
            .with("ram", Quantity::Bytes(ram))
    };
    let cache = b.item(BudgetItemId::DecodedCache) + b.item(BudgetItemId::DatasetInRam);
    if headroom < 0 {
        let over = headroom.unsigned_abs();
        let target = installed_for(
            crate::advisor::headroom::ram_to_hold(b.working_set_bytes),
            ram_info.usable_share(),
        );
        if cache > 0 && b.working_set_bytes - cache <= ram {
            // The cache alone pushes the working set over: say so, with its size.
            out.push(
                base(FindingId::CacheDoesNotFit, Severity::Critical, &[])
                    .with("cache", Quantity::Bytes(cache))
                    .with("over", Quantity::Bytes(over))
                    .with(
                        "decoded",
                        Quantity::Count(u64::from(w.workload.cache == CacheMode::DecodedInRam)),
                    ),
            );
        } else {
            // A worker count only when one fits; when none does, say so.
            let mut recs = vec![AdviceId::AddRam];
            match w.pipeline.recommended_num_workers {
                Some(n) if n < w.workload.num_workers => recs.insert(0, AdviceId::SetNumWorkers),
                None if w.workload.decode_on == super::DecodeOn::Cpu => {
                    recs.insert(0, AdviceId::NoWorkerCountFits)
                }
                _ => {}
            }
            out.push(
                base(FindingId::WorkloadRamExceeded, Severity::Critical, &recs)
                    .with("over", Quantity::Bytes(over))
                    .with(
                        "workers",
                        Quantity::Count(u64::from(w.pipeline.recommended_num_workers.unwrap_or(0))),
                    )
                    .with("target", Quantity::Bytes(target)),
            );
        }
    } else if let Some(over) = pause_over(w) {
        // Steps fit; the pause, with every loader's queue full, doesn't.
        let p = w
            .evaluation_pause
            .as_ref()
            .map_or(0, |p| p.working_set_bytes);
        let pinned = w
            .evaluation_pause
            .as_ref()
            .map_or(0, |p| p.loaders.iter().map(|l| l.pinned_bytes).sum());
        out.push(
            base(
                FindingId::EvaluationPauseExceedsRam,
                Severity::Critical,
                &[],
            )
            .with("pause", Quantity::Bytes(p))
            .with("pinned", Quantity::Bytes(pinned))
            .with("over", Quantity::Bytes(over)),
        );
    } else if (headroom as f64) < ram as f64 * SWAP_RISK_SHARE {
        out.push(
            base(FindingId::WorkloadSwapRisk, Severity::Warning, &[])
                .with("headroom", Quantity::Bytes(headroom as u64)),
        );
    }
    let index = b.item(BudgetItemId::WorkerIndexCopies);
    let workers = u64::from(w.workload.num_workers) * u64::from(w.workload.concurrent_experiments);
    if workers > 0 && index as f64 >= ram as f64 * INDEX_NOTICEABLE_SHARE {
        out.push(
            Finding::new(
                FindingId::DatasetIndexCopied,
                Severity::Warning,
                &[AdviceId::IndexAsArrays],
            )
            .with("total", Quantity::Bytes(index))
            .with("per_worker", Quantity::Bytes(index / workers))
            .with("workers", Quantity::Count(workers))
            .with("samples", Quantity::Count(w.workload.samples))
            .with("per_sample", Quantity::Count(w.workload.index_bytes()))
            .with("share", Quantity::Share(index as f64 / ram as f64))
            .with("ram", Quantity::Bytes(ram)),
        );
    }
    if b.dataset_cached_fraction < 1.0 {
        page_cache(w, ram_info, out);
    }
}

/// The dataset doesn't fit in the page cache, so every epoch reads the rest from storage. RAM
/// to cache it is advice only when storage delivers fewer samples/s than the GPUs want (a
/// warning when storage is what limits them now, information when a narrower stage does and
/// storage would limit them once that is fixed); when storage keeps up, the dataset streams
/// fast enough and more RAM wouldn't speed training: said with the two rates. Nothing when the
/// dataset isn't read from storage each epoch (a RAM cache holds it).
fn page_cache(w: &WorkloadResult, ram_info: &RamSizes, out: &mut Vec<Finding>) {
    let b = &w.memory_budget;
    let Some(storage) = w.pipeline.rate(StageId::StorageRead) else {
        return;
    };
    let demand = w.workload.gpu_demand_samples_per_s;
    let with_rates = |f: Finding| {
        f.with("dataset", Quantity::Bytes(w.workload.dataset_bytes))
            .with("cache", Quantity::Bytes(b.item(BudgetItemId::PageCache)))
            .with("cached", Quantity::Share(b.dataset_cached_fraction))
            .with("storage", Quantity::Rate(storage))
            .with("demand", Quantity::Rate(demand))
    };
    if storage >= demand {
        out.push(
            with_rates(Finding::new(
                FindingId::DatasetStreamsFromStorage,
                Severity::Info,
                &[],
            ))
            .with(
                "margin",
                Quantity::Ratio(storage / demand.max(f64::MIN_POSITIVE)),
            ),
        );
        return;
    }
    let storage_limits = w.pipeline.bottleneck == Some(StageId::StorageRead);
    out.push(
        with_rates(Finding::new(
            FindingId::DatasetNotCached,
            if storage_limits {
                Severity::Warning
            } else {
                Severity::Info
            },
            &[
                AdviceId::PackShards,
                AdviceId::CopyToLocalNvme,
                AdviceId::AddRam,
            ],
        ))
        .with(
            "target",
            Quantity::Bytes(installed_for(
                crate::advisor::headroom::ram_to_hold(w.ram_to_cache_dataset_bytes),
                ram_info.usable_share(),
            )),
        ),
    );
}

fn consistency(w: &WorkloadResult, out: &mut Vec<Finding>) {
    let Some(c) = w.consistency.filter(|c| !c.plausible) else {
        return;
    };
    out.push(
        Finding::new(FindingId::DatasetSizeInconsistent, Severity::Warning, &[])
            .with("implied", Quantity::Bytes(c.implied_bytes_per_sample))
            .with("per_pixel", Quantity::Number(c.implied_bytes_per_pixel))
            .with("low", Quantity::Number(c.low_bytes_per_pixel))
            .with("high", Quantity::Number(c.high_bytes_per_pixel))
            .with("typical", Quantity::Bytes(c.typical_bytes_per_sample))
            .with("width", Quantity::Count(u64::from(w.workload.width)))
            .with("height", Quantity::Count(u64::from(w.workload.height)))
            .with("samples", Quantity::Count(w.workload.samples))
            .with("dataset", Quantity::Bytes(w.workload.dataset_bytes)),
    );
}

fn starvation(w: &WorkloadResult, ram_info: &RamSizes, out: &mut Vec<Finding>) {
    let (Some(bottleneck), Some(util)) =
        (w.pipeline.bottleneck, w.pipeline.predicted_gpu_utilization)
    else {
        return;
    };
    // The GPUs count as fed from the one threshold the views colour by: a stage a little below
    // demand is named in the pipeline's sentence, not raised as a finding.
    if util >= FED_UTILIZATION {
        return;
    }
    let supply = w.pipeline.rate(bottleneck).unwrap_or(0.0);
    let (id, recs): (FindingId, &[AdviceId]) = match bottleneck {
        StageId::StorageRead => (
            FindingId::StarvedByStorage,
            &[
                AdviceId::PackShards,
                AdviceId::CopyToLocalNvme,
                AdviceId::AddRam,
            ],
        ),
        StageId::RamBandwidth => (
            FindingId::StarvedByRamBandwidth,
            &[AdviceId::PopulateChannels, AdviceId::GpuDecode],
        ),
        StageId::Decode => (
            FindingId::StarvedByDecode,
            &[
                AdviceId::SetNumWorkers,
                AdviceId::GpuDecode,
                AdviceId::PreResize,
            ],
        ),
        StageId::PcieHostToDevice => (
            FindingId::StarvedByPcie,
            &[AdviceId::PinMemory, AdviceId::CheckPcieSlot],
        ),
        StageId::GpuDemand => return,
    };
    // Recommend a worker count only when one fits and is more than the current one: a smaller
    // count (when RAM limits workers) would slow decoding further.
    let recommended = w.pipeline.recommended_num_workers;
    let more = recommended.filter(|n| *n > w.workload.num_workers);
    let recs: Vec<AdviceId> = recs
        .iter()
        .copied()
        .filter(|r| *r != AdviceId::SetNumWorkers || more.is_some())
        .filter(|r| *r != AdviceId::PinMemory || !w.workload.pin_memory)
        .collect();
    // Against a demand nobody gave (the generic preset's), starvation can't be checked: said as
    // information, never a warning or critical.
    // Nor does it carry the placeholder's demand or the utilisation against it: its words say
    // it can't check and how to give a demand (present::finding).
    let given = super::presets::demand_given(&w.workload);
    let severity = if !given {
        Severity::Info
    } else if util < STARVED_CRITICAL {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let mut f = Finding::new(id, severity, &recs);
    if given {
        f = f.with("utilization", Quantity::Share(util)).with(
            "demand",
            Quantity::Rate(w.workload.gpu_demand_samples_per_s),
        );
    }
    out.push(
        f.with("supply", Quantity::Rate(supply))
            .with(
                "workers",
                Quantity::Count(u64::from(more.unwrap_or(w.workload.num_workers))),
            )
            .with(
                "target",
                Quantity::Bytes(installed_for(
                    crate::advisor::headroom::ram_to_hold(w.ram_to_cache_dataset_bytes),
                    ram_info.usable_share(),
                )),
            )
            .with("gpu", Quantity::Count(0)),
    );
}
