//! Memory recognisers: `swap-thrashing`, `page-cache-thrashing`, `oom-killed`,
//! `ram-near-limit`.

use super::series::{self, Run};
use super::{Diagnosis, DiagnosisId, Evidence, SUSTAIN_S};
use crate::advisor::capacity::installed_for;
use crate::advisor::{AdviceId, Severity};
use crate::trace::{Sample, Trace};

/// Swap-ins per second that make a stretch thrashing: 256 pages/s (1 MiB/s with 4 KiB pages).
/// Assumption: a machine whose working set fits reads nothing back from swap once it has
/// settled; pages coming back at this rate for [`SUSTAIN_S`] mean the working set does not fit
/// (`vmstat`'s `si` column, which prints KiB/s, would show 1024 or more).
pub const SWAP_IN_THRASH_PAGES_PER_S: f64 = 256.0;

/// PSI memory "full" avg10 at which thrashing is critical: 10 %. Source: the kernel's PSI
/// documentation (Documentation/accounting/psi.rst): "full" means every non-idle task was
/// stalled on memory; a tenth of the time is a machine that crawls, SSH included.
pub const PSI_MEMORY_FULL_CRITICAL: f64 = 10.0;

/// Disk reads per second that count as the loader reading: 10 MB/s (10^7 bytes/s).
/// Assumption: below this even an HDD keeps up and the cache question does not matter.
pub const DISK_READ_ACTIVE_BYTES_PER_S: f64 = 10e6;

/// The page cache "does not keep" what is read when it grows by less than this share of the
/// bytes read in the stretch: 0.1. Assumption: a first epoch of a dataset that fits grows the
/// cache by nearly what it reads; a cache at its ceiling evicts as fast as it fills.
pub const CACHE_GROWTH_SHARE_MAX: f64 = 0.1;

/// Available memory below this share of RAM is near the limit: 5 %. Assumption: the kernel
/// starts direct reclaim around its `low` watermarks (about 1–3 % of RAM on large machines);
/// 5 % leaves a margin for a batch or a worker starting.
pub const RAM_NEAR_LIMIT_SHARE: f64 = 0.05;

/// Headroom added to the memory a run used when proposing a RAM size: 10 % (the same share
/// the workload simulator treats as a swap risk, [`crate::advisor::workload::SWAP_RISK_SHARE`]).
pub const RAM_TARGET_HEADROOM: f64 = crate::advisor::workload::SWAP_RISK_SHARE;

/// Installed RAM that would have held the stretch: (usable RAM − least available + most swap
/// in use) plus [`RAM_TARGET_HEADROOM`], as installed RAM rounded up to a common size
/// ([`installed_for`], the same sizing as every add-RAM target). `None` when RAM is unknown,
/// or when that is no more than the machine has installed (the samples did not catch what was
/// missing): a 64 GiB machine whose `MemTotal` is 62.7 GiB is never told to reach 64 GiB.
fn ram_target(trace: &Trace, window: &[Sample]) -> Option<u64> {
    let profile = trace.header.profile.as_ref()?;
    let total = profile.memory.total_bytes?;
    let ram = crate::advisor::capacity::ram_sizes(profile);
    let available = series::min_u64(window, |s| s.host.mem_available_bytes)?;
    let swapped = series::max_u64(window, |s| s.host.swap_used_bytes).unwrap_or(0);
    let used = total.saturating_sub(available).saturating_add(swapped);
    let with_headroom = crate::units::saturating_bytes(used as f64 / (1.0 - RAM_TARGET_HEADROOM));
    let target = installed_for(with_headroom, ram.usable_share());
    let installed = ram.installed_bytes.unwrap_or(total);
    (target > installed).then_some(target)
}

fn swap_in(s: &Sample) -> Option<f64> {
    s.host.swap_in_pages_per_s
}

/// `swap-thrashing`: at least [`SWAP_IN_THRASH_PAGES_PER_S`] swapped in for [`SUSTAIN_S`];
/// critical when PSI memory "full" reaches [`PSI_MEMORY_FULL_CRITICAL`].
pub(super) fn swap_thrashing(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    let runs = series::runs(samples, trace.header.interval_s, SUSTAIN_S, |s| {
        swap_in(s).map(|v| v >= SWAP_IN_THRASH_PAGES_PER_S)
    });
    for run in runs {
        let w = run.of(samples);
        let (from, to) = run.range(samples);
        let full = series::max(w, |s| s.host.psi_memory_full_avg10);
        let severity = if full.is_some_and(|f| f >= PSI_MEMORY_FULL_CRITICAL) {
            Severity::Critical
        } else {
            Severity::Warning
        };
        let target = ram_target(trace, w);
        let mut recs = vec![AdviceId::ReduceNumWorkers, AdviceId::StreamDataset];
        if target.is_some() {
            recs.push(AdviceId::AddRam);
        }
        out.push(
            Diagnosis::new(DiagnosisId::SwapThrashing, severity, from, to)
                .with_opt("swap_in", series::mean(w, swap_in).map(Evidence::PerSecond))
                .with_opt(
                    "swap_out",
                    series::mean(w, |s| s.host.swap_out_pages_per_s).map(Evidence::PerSecond),
                )
                .with_opt(
                    "swap_used",
                    series::max_u64(w, |s| s.host.swap_used_bytes).map(Evidence::Bytes),
                )
                .with_opt(
                    "kswapd",
                    series::max(w, |s| s.host.kswapd_cpu_percent).map(Evidence::Percent),
                )
                .with_opt(
                    "psi_some",
                    series::max(w, |s| s.host.psi_memory_some_avg10).map(Evidence::Percent),
                )
                .with_opt("psi_full", full.map(Evidence::Percent))
                .with_opt("target", target.map(Evidence::Bytes))
                .recs(&recs),
        );
    }
}

/// `page-cache-thrashing`: disks read at least [`DISK_READ_ACTIVE_BYTES_PER_S`] for
/// [`SUSTAIN_S`] without swapping, the stretch reads more bytes than the page cache holds, and
/// the cache grows by less than [`CACHE_GROWTH_SHARE_MAX`] of what was read: what is read does
/// not stay, so the next epoch reads it again. Major faults (reads of memory-mapped files such
/// as LMDB or numpy memmaps) are shown when known.
pub(super) fn page_cache_thrashing(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    let interval = trace.header.interval_s;
    let runs = series::runs(samples, interval, SUSTAIN_S, |s| {
        let reading = s.host.disk_read_bytes_per_s? >= DISK_READ_ACTIVE_BYTES_PER_S;
        let swapping = swap_in(s)? >= SWAP_IN_THRASH_PAGES_PER_S;
        Some(reading && !swapping)
    });
    for run in runs {
        let w = run.of(samples);
        let Some(read) = bytes_read(samples, run, interval) else {
            continue;
        };
        let caches: Vec<u64> = w.iter().filter_map(|s| s.host.page_cache_bytes).collect();
        let (Some(first), Some(last), Some(biggest)) =
            (caches.first(), caches.last(), caches.iter().max())
        else {
            continue;
        };
        let growth = last.saturating_sub(*first);
        if read <= *biggest || growth as f64 >= CACHE_GROWTH_SHARE_MAX * read as f64 {
            continue;
        }
        let (from, to) = run.range(samples);
        out.push(
            Diagnosis::new(DiagnosisId::PageCacheThrashing, Severity::Warning, from, to)
                .with("read", Evidence::Bytes(read))
                .with("cache", Evidence::Bytes(*biggest))
                .with(
                    "duration",
                    Evidence::Seconds(run.duration(samples, interval)),
                )
                .with_opt(
                    "read_rate",
                    series::mean(w, |s| s.host.disk_read_bytes_per_s).map(Evidence::BytesPerSecond),
                )
                .with_opt(
                    "major_faults",
                    series::mean(w, |s| s.host.major_faults_per_s).map(Evidence::PerSecond),
                )
                .recs(&[
                    AdviceId::ReduceNumWorkers,
                    AdviceId::PackShards,
                    AdviceId::CopyToLocalNvme,
                ]),
        );
    }
}

/// Bytes read in a stretch: each sample's rate times the time since the sample before (one
/// interval for the first sample of the trace).
fn bytes_read(samples: &[Sample], run: Run, interval_s: f64) -> Option<u64> {
    let mut total = 0.0;
    for i in run.first..=run.last {
        let dt = if i == 0 {
            interval_s
        } else {
            samples[i].t - samples[i - 1].t
        };
        total += samples[i].host.disk_read_bytes_per_s? * dt;
    }
    Some(total as u64)
}

/// `oom-killed`: the kernel's OOM-kill counter, or the cgroup's, went up between two samples.
/// Names the watched tree's lost processes when it had fewer afterwards (or ended).
pub(super) fn oom_killed(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    let step = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    for (i, w) in samples.windows(2).enumerate() {
        let (before, after) = (&w[0], &w[1]);
        let host = step(before.host.oom_kills_total, after.host.oom_kills_total);
        let cgroup = step(
            before.host.cgroup_oom_kills_total,
            after.host.cgroup_oom_kills_total,
        );
        if host.is_none() && cgroup.is_none() {
            continue;
        }
        let lost = match (&before.process, &after.process) {
            (Some(b), Some(a)) => match (b.processes(), a.processes()) {
                (Some(x), Some(y)) if y < x => Some(u64::from(x - y)),
                _ => None,
            },
            (Some(b), None) => b.processes().map(u64::from),
            _ => None,
        };
        let pid = before.process.as_ref().map(|p| u64::from(p.pid));
        let window = &samples[..=i + 1];
        let target = ram_target(trace, window);
        let mut recs = vec![AdviceId::ReduceNumWorkers, AdviceId::StreamDataset];
        let limit = trace.header.profile.as_ref().and_then(|p| {
            Some((p.memory.limit_bytes?, p.memory.total_bytes?)).filter(|(l, t)| l < t)
        });
        if cgroup.is_some() && limit.is_some() {
            recs.push(AdviceId::RaiseLimit);
        }
        if target.is_some() {
            recs.push(AdviceId::AddRam);
        }
        out.push(
            Diagnosis::new(
                DiagnosisId::OomKilled,
                Severity::Critical,
                before.t,
                after.t,
            )
            .with("kills", Evidence::Count(host.or(cgroup).unwrap_or(0)))
            .with_opt("cgroup_kills", cgroup.map(Evidence::Count))
            .with_opt("lost_processes", lost.map(Evidence::Count))
            .with_opt("pid", pid.filter(|_| lost.is_some()).map(Evidence::Count))
            .with_opt("limit", limit.map(|l| Evidence::Bytes(l.0)))
            .with_opt("physical", limit.map(|l| Evidence::Bytes(l.1)))
            .with_opt("target", target.map(Evidence::Bytes))
            .recs(&recs),
        );
    }
}

/// `ram-near-limit`: available memory below [`RAM_NEAR_LIMIT_SHARE`] of RAM, or the cgroup's
/// memory within that share of its limit, in any sample (no minimum duration: one batch more
/// and the OOM killer acts). RAM and the limit come from the trace's profile.
pub(super) fn near_limit(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let Some(profile) = &trace.header.profile else {
        return;
    };
    let samples = &trace.samples;
    let interval = trace.header.interval_s;
    if let Some(total) = profile.memory.total_bytes {
        let runs = series::runs(samples, interval, 0.0, |s| {
            Some((s.host.mem_available_bytes? as f64) < RAM_NEAR_LIMIT_SHARE * total as f64)
        });
        for run in runs {
            let w = run.of(samples);
            let (from, to) = run.range(samples);
            let least = series::min_u64(w, |s| s.host.mem_available_bytes).unwrap_or(0);
            let target = ram_target(trace, w);
            let mut recs = vec![AdviceId::ReduceNumWorkers, AdviceId::StreamDataset];
            if target.is_some() {
                recs.push(AdviceId::AddRam);
            }
            out.push(
                Diagnosis::new(DiagnosisId::RamNearLimit, Severity::Warning, from, to)
                    .with("available", Evidence::Bytes(least))
                    .with("ram", Evidence::Bytes(total))
                    .with("share", Evidence::Share(least as f64 / total as f64))
                    .with_opt("target", target.map(Evidence::Bytes))
                    .recs(&recs),
            );
        }
    }
    if let Some(limit) = profile.memory.limit_bytes {
        let runs = series::runs(samples, interval, 0.0, |s| {
            Some(s.host.cgroup_mem_used_bytes? as f64 > (1.0 - RAM_NEAR_LIMIT_SHARE) * limit as f64)
        });
        for run in runs {
            let w = run.of(samples);
            let (from, to) = run.range(samples);
            let most = series::max_u64(w, |s| s.host.cgroup_mem_used_bytes).unwrap_or(0);
            let physical = profile.memory.total_bytes.filter(|t| *t > limit);
            let mut recs = vec![AdviceId::ReduceNumWorkers, AdviceId::StreamDataset];
            if physical.is_some() {
                recs.push(AdviceId::RaiseLimit);
            }
            out.push(
                Diagnosis::new(DiagnosisId::RamNearLimit, Severity::Warning, from, to)
                    .with("used", Evidence::Bytes(most))
                    .with("limit", Evidence::Bytes(limit))
                    .with("share", Evidence::Share(most as f64 / limit as f64))
                    .with_opt("physical", physical.map(Evidence::Bytes))
                    .recs(&recs),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::synthetic;

    /// A machine with 64 GiB installed shows `MemTotal` 65,745,012 kB (62.7 GiB). A stretch
    /// that used 55 GiB asks for 55 / 0.9 = 61.1 GiB usable, 62.4 GiB installed: the 64 GiB it
    /// has. No target; the earlier sizing compared 64 GiB with `MemTotal` and asked for the RAM
    /// the machine already had. 60 GiB used asks for 66.7 / (62.7 / 64) = 68.0 → 96 GiB.
    #[test]
    fn the_target_is_installed_ram_and_never_what_the_machine_has() {
        const GIB: u64 = 1 << 30;
        let mem_total = 65_745_012u64 * 1024;
        let trace = |used: u64| {
            let mut t = synthetic::build(3, |_, s| {
                s.host.mem_available_bytes = Some(mem_total - used);
                s.host.swap_used_bytes = Some(0);
            });
            if let Some(p) = t.header.profile.as_mut() {
                p.memory.total_bytes = Some(mem_total);
            }
            t
        };
        let t = trace(55 * GIB);
        assert_eq!(ram_target(&t, &t.samples), None);
        let t = trace(60 * GIB);
        assert_eq!(ram_target(&t, &t.samples), Some(96 * GIB));
    }
}
