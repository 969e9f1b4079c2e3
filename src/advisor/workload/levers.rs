//! What to change when a workload doesn't fit or starves its GPUs, each change judged by running
//! the simulator again with it: `num_workers` (only a count that fits), `prefetch_factor`, the
//! batch size, the RAM cache, the index, /dev/shm and, last, RAM itself.

use crate::advisor::findings::Quantity;
use crate::advisor::knobs::KnobId as K;
use crate::advisor::recommend::{AdviceId, Recommendation, Subject};
use crate::advisor::whatif::MachineChange;
use crate::profile::DiskKind;

use super::findings::{INDEX_NOTICEABLE_SHARE, SWAP_RISK_SHARE, shm_flag};
use super::{
    BudgetItemId, CacheMode, DecodeOn, MachineRates, StoredFormat, Workload, WorkloadResult,
    simulate_only,
};
use crate::advisor::capacity::installed_for;

pub(super) use super::lever_base::Base;
pub use super::lever_base::{improves, outcome, ram_fits};

/// Largest `num_workers` tried when the core count is unknown: 32 (assumption: a workstation).
pub const MAX_WORKERS_UNKNOWN_CORES: u32 = 32;

/// Cached image sides are rounded down to a multiple of this: 32 pixels (the stride of the
/// detection models that cache images, e.g. YOLO's).
pub const CACHE_SIDE_STEP: u32 = 32;

fn fits(r: &WorkloadResult) -> bool {
    ram_fits(r)
}

/// The `num_workers` to recommend: among the counts from 1 to the physical cores whose working
/// set fits in RAM, the fewest that reach the best utilisation any of them reaches; 0 (the
/// training process loads the data, between its steps) only when no worker count fits. `None`
/// when decoding doesn't run on CPU workers, or when no count fits.
pub fn recommended_workers(w: &Workload, m: &MachineRates) -> Option<u32> {
    if w.decode_on == DecodeOn::Gpu && w.width > 0 {
        return None;
    }
    let max = m
        .physical_cores
        .map_or(MAX_WORKERS_UNKNOWN_CORES, |c| c.max(1));
    let run = |n: u32| {
        simulate_only(
            &Workload {
                num_workers: n,
                ..w.clone()
            },
            m,
        )
    };
    let mut best: Option<(u32, f64)> = None;
    for n in 1..=max {
        let r = run(n);
        if !fits(&r) {
            // More workers only add memory.
            break;
        }
        let u = r.pipeline.predicted_gpu_utilization.unwrap_or(0.0);
        if best.is_none_or(|(_, b)| u > b + 1e-9) {
            best = Some((n, u));
        }
    }
    best.map(|(n, _)| n).or_else(|| fits(&run(0)).then_some(0))
}

/// The recommendations for workload `r` on machine `m` with `shm` bytes of /dev/shm (`None`:
/// unknown), each with the simulator's result after the change and every limit re-checked
/// (RAM with its margin, `/dev/shm`); unranked (see [`crate::advisor::recommend::rank`]).
/// `rates_on` gives the machine's rates with the dataset on another kind of storage (the
/// local-copy lever).
pub fn recommendations(
    r: &WorkloadResult,
    m: &MachineRates,
    shm: Option<u64>,
    rates_on: &dyn Fn(DiskKind) -> Option<MachineRates>,
) -> Vec<Recommendation> {
    use AdviceId as R;
    let w = &r.workload;
    let base = Base { given: w, shm };
    let rec = |id, after: &WorkloadResult| base.rec(id, after);
    let run = |changed: Workload| simulate_only(&changed, m);
    let mut out = Vec::new();
    let fits_now = fits(r);
    // num_workers: only a count that fits, and only when it differs.
    if let Some(n) = r
        .pipeline
        .recommended_num_workers
        .filter(|n| *n != w.num_workers)
    {
        let after = run(Workload {
            num_workers: n,
            ..w.clone()
        });
        let id = if n < w.num_workers {
            R::ReduceNumWorkers
        } else {
            R::IncreaseNumWorkers
        };
        // Fewer workers when the current count doesn't fit; more when they feed the GPUs
        // better.
        // More workers only against a demand that is known: else their gain is invented.
        let better = if n < w.num_workers {
            !fits_now
        } else {
            super::presets::demand_given(w)
                && after.pipeline.predicted_gpu_utilization > r.pipeline.predicted_gpu_utilization
        };
        if better {
            // More workers put more batches in /dev/shm: `Base::rec` gives the size that holds
            // them with the change.
            out.push(rec(id, &after).with_knob(K::NumWorkers, Quantity::Count(u64::from(n))));
        }
    }
    if !fits_now {
        // prefetch_factor: the largest that fits, else 1 with its numbers.
        if w.num_workers > 0 && w.prefetch_factor > 1 {
            let (p, after) = largest_fitting(w.prefetch_factor - 1, |p| {
                run(Workload {
                    prefetch_factor: p,
                    ..w.clone()
                })
            });
            out.push(
                rec(R::ReducePrefetchFactor, &after)
                    .with_knob(K::PrefetchFactor, Quantity::Count(u64::from(p))),
            );
        }
        // batch size: halving until it fits, else the smallest tried.
        if w.batch_size > 1 {
            let mut b = w.batch_size / 2;
            let mut after = run(Workload {
                batch_size: b,
                ..w.clone()
            });
            while !fits(&after) && b > 1 {
                b /= 2;
                after = run(Workload {
                    batch_size: b,
                    ..w.clone()
                });
            }
            out.push(
                rec(R::ReduceBatchSize, &after)
                    .with_knob(K::BatchSize, Quantity::Count(u64::from(b))),
            );
        }
        // pin_memory=False, and the three loader settings searched together.
        super::loader_levers::recommendations(r, &base, m, &mut out);
    }
    cache_levers(r, &base, m, fits_now, &mut out);
    let index = r.memory_budget.item(BudgetItemId::WorkerIndexCopies);
    let ram = r.memory_budget.usable_ram_bytes;
    let noticeable = ram.is_some_and(|ram| index as f64 >= ram as f64 * INDEX_NOTICEABLE_SHARE);
    if index > 0 && (noticeable || !fits_now) {
        let after = run(Workload {
            index_bytes_per_sample: Some(0),
            ..w.clone()
        });
        out.push(rec(R::IndexAsArrays, &after));
    }
    if let (Some(shm), Some(need)) = (shm, r.shm.filter(|s| s.bytes > 0)) {
        if shm < need.bytes {
            let give = need.recommended_bytes;
            out.push(
                base.rec_with_shm(R::GrowShm, r, Some(give))
                    .with("shm", Quantity::Bytes(give))
                    .with("shm_flag", Quantity::Text(shm_flag(give)))
                    .on_machine(MachineChange {
                        shm_bytes: Some(give),
                        ..Default::default()
                    }),
            );
        }
    }
    out.extend(super::pipeline_levers::recommendations(
        r, &base, m, rates_on,
    ));
    if !fits_now && !m.ram_capped {
        // RAM: the installed size whose usable part holds the working set, judged by running
        // the simulator on the machine with that RAM; kept only when that run does better.
        // (Under a cgroup limit more RAM gives the job nothing: raising the limit is the fix.)
        let installed = installed_for(
            crate::advisor::headroom::ram_to_hold(r.memory_budget.working_set_bytes),
            m.usable_share,
        );
        let after = with_ram(w, m, installed);
        if improves(&outcome(r, shm), &outcome(&after, shm)) {
            out.push(
                Recommendation::new(R::AddRam, Subject::Workload, outcome(&after, shm))
                    .with("ram_bytes", Quantity::Bytes(installed))
                    .on_machine(MachineChange {
                        ram_bytes: Some(installed),
                        ..Default::default()
                    }),
            );
        }
    }
    out
}

/// `w` simulated on machine `m` with `installed` bytes of RAM installed: usable RAM is
/// `installed` × the machine's usable share (the firmware and kernel keep the same share of a
/// larger installation).
pub fn with_ram(w: &Workload, m: &MachineRates, installed: u64) -> WorkloadResult {
    let usable = crate::units::saturating_bytes(installed as f64 * m.usable_share);
    let more = MachineRates {
        usable_ram_bytes: Some(usable),
        ..m.clone()
    };
    simulate_only(w, &more)
}

/// Tries `start`, `start − 1`, … 1 and returns the first value whose run fits, else 1's.
fn largest_fitting(start: u32, run: impl Fn(u32) -> WorkloadResult) -> (u32, WorkloadResult) {
    let mut v = start.max(1);
    loop {
        let r = run(v);
        if fits(&r) || v == 1 {
            return (v, r);
        }
        v -= 1;
    }
}

/// Cache levers: cache the decoded images on disk instead (they are read back as raw arrays
/// of the cached size), don't cache, or cache smaller images (the largest size in steps of
/// [`CACHE_SIDE_STEP`] with the same aspect ratio that leaves [`SWAP_RISK_SHARE`] of RAM free).
fn cache_levers(
    r: &WorkloadResult,
    base: &Base<'_>,
    m: &MachineRates,
    fits_now: bool,
    out: &mut Vec<Recommendation>,
) {
    use AdviceId as R;
    let rec = |id, after: &WorkloadResult| base.rec(id, after);
    let w = &r.workload;
    if w.cache == CacheMode::None || fits_now {
        return;
    }
    let run = |changed: Workload| simulate_only(&changed, m);
    if w.cache == CacheMode::DecodedInRam && w.width > 0 {
        let (cw, ch) = w.cache_size();
        let per_sample = w.cache_pixels() * u64::from(w.channels.max(1)) * w.cache_dtype.bytes();
        let on_disk = Workload {
            cache: CacheMode::None,
            stored: StoredFormat::Raw,
            width: cw,
            height: ch,
            dataset_bytes: per_sample.saturating_mul(w.samples),
            ..w.clone()
        };
        out.push(rec(R::CacheOnDisk, &run(on_disk)));
        out.push(rec(
            R::NoCache,
            &run(Workload {
                cache: CacheMode::None,
                ..w.clone()
            }),
        ));
        // The largest cached size that fits with the headroom the swap-risk finding asks
        // (SWAP_RISK_SHARE): scale both sides by √(room ÷ cache).
        let cache = r.memory_budget.item(BudgetItemId::DecodedCache);
        let others = r.memory_budget.working_set_bytes - cache;
        let ram = r.memory_budget.usable_ram_bytes.unwrap_or(0) as f64;
        let room = ((ram * (1.0 - SWAP_RISK_SHARE)) as u64).saturating_sub(others);
        let scale = (room as f64 / cache.max(1) as f64).sqrt().min(1.0);
        let side = |s: u32| ((f64::from(s) * scale) as u32 / CACHE_SIDE_STEP) * CACHE_SIDE_STEP;
        let (sw, sh) = (side(cw), side(ch));
        if sw >= CACHE_SIDE_STEP && sh >= CACHE_SIDE_STEP && (sw, sh) != (cw, ch) {
            let after = run(Workload {
                cache_width: sw,
                cache_height: sh,
                ..w.clone()
            });
            out.push(
                rec(R::SmallerCacheImages, &after)
                    .with(
                        "cache_size",
                        Quantity::Pixels {
                            width: sw,
                            height: sh,
                        },
                    )
                    .with(
                        "cache",
                        Quantity::Bytes(after.memory_budget.item(BudgetItemId::DecodedCache)),
                    ),
            );
        }
    } else {
        out.push(rec(
            R::NoCache,
            &run(Workload {
                cache: CacheMode::None,
                ..w.clone()
            }),
        ));
    }
}
