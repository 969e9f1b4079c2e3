//! Storage and shared-memory recognisers: `io-bound`, `shm-exhausted`.

use super::gpu::IO_WAIT_HIGH_PERCENT;
use super::series;
use super::{Diagnosis, DiagnosisId, Evidence, SUSTAIN_S};
use crate::advisor::findings::SHM_NEEDED_DEFAULT_BYTES;
use crate::advisor::workload::shm_flag;
use crate::advisor::{AdviceId, Severity};
use crate::trace::{Sample, Trace};

/// GPUs this busy on average don't suffer from the I/O wait (then it is information only):
/// 90 %. Assumption: the loader's prefetch hides waits the GPU never sees.
pub const GPU_BUSY_ENOUGH_PERCENT: f64 = 90.0;

/// `/dev/shm` this full is exhausted: 90 %. Assumption: PyTorch workers put whole batches
/// there (`torch.multiprocessing` file descriptors); with a tenth left, the next batches of
/// several workers no longer fit and a worker dies with "Bus error".
pub const SHM_FULL_SHARE: f64 = 0.9;

/// Full enough to be critical: 99 % (the next allocation fails).
pub const SHM_CRITICAL_SHARE: f64 = 0.99;

fn waiting(s: &Sample) -> Option<bool> {
    match (s.host.iowait_percent, s.host.psi_io_some_avg10) {
        (None, None) => None,
        (a, b) => Some(
            a.is_some_and(|v| v >= IO_WAIT_HIGH_PERCENT)
                || b.is_some_and(|v| v >= IO_WAIT_HIGH_PERCENT),
        ),
    }
}

/// `io-bound`: iowait or PSI I/O "some" at least [`IO_WAIT_HIGH_PERCENT`] for [`SUSTAIN_S`].
/// A warning, or information when every GPU stayed [`GPU_BUSY_ENOUGH_PERCENT`] busy.
pub(super) fn io_bound(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    let runs = series::runs(samples, trace.header.interval_s, SUSTAIN_S, waiting);
    for run in runs {
        let w = run.of(samples);
        let (from, to) = run.range(samples);
        let gpu_util = series::mean(w, |s| {
            let known: Vec<f64> = s.gpus.iter().filter_map(|g| g.util_percent).collect();
            (!known.is_empty()).then(|| known.iter().copied().fold(f64::MAX, f64::min))
        });
        let severity = if gpu_util.is_some_and(|u| u >= GPU_BUSY_ENOUGH_PERCENT) {
            Severity::Info
        } else {
            Severity::Warning
        };
        out.push(
            Diagnosis::new(DiagnosisId::IoBound, severity, from, to)
                .with_opt(
                    "iowait",
                    series::mean(w, |s| s.host.iowait_percent).map(Evidence::Percent),
                )
                .with_opt(
                    "psi_io",
                    series::max(w, |s| s.host.psi_io_some_avg10).map(Evidence::Percent),
                )
                .with_opt(
                    "read_rate",
                    series::mean(w, |s| s.host.disk_read_bytes_per_s).map(Evidence::BytesPerSecond),
                )
                .with_opt("gpu_util", gpu_util.map(Evidence::Percent))
                .with(
                    "duration",
                    Evidence::Seconds(run.duration(samples, trace.header.interval_s)),
                )
                .recs(&[
                    AdviceId::PackShards,
                    AdviceId::CopyToLocalNvme,
                    AdviceId::IncreaseNumWorkers,
                ]),
        );
    }
}

/// `shm-exhausted`: `/dev/shm` at least [`SHM_FULL_SHARE`] full in any sample; critical from
/// [`SHM_CRITICAL_SHARE`]. Recommends twice its size in whole GiB (at least the advisor's
/// default need, [`SHM_NEEDED_DEFAULT_BYTES`]): when it filled, the loader needed at least
/// what it had, how much more is unknown.
pub(super) fn shm_exhausted(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    let share = |s: &Sample| {
        let total = s.host.shm_total_bytes.filter(|t| *t > 0)?;
        Some(s.host.shm_used_bytes? as f64 / total as f64)
    };
    let runs = series::runs(samples, trace.header.interval_s, 0.0, |s| {
        share(s).map(|x| x >= SHM_FULL_SHARE)
    });
    for run in runs {
        let w = run.of(samples);
        let (from, to) = run.range(samples);
        let peak = series::max(w, share).unwrap_or(0.0);
        let total = series::max_u64(w, |s| s.host.shm_total_bytes).unwrap_or(0);
        let used = series::max_u64(w, |s| s.host.shm_used_bytes).unwrap_or(0);
        // It needed at least what it had: the simulator's sizing (twice the need, whole GiB)
        // of that, or of the advisor's default need when that is more.
        let recommended =
            crate::advisor::workload::recommended_shm(total.max(SHM_NEEDED_DEFAULT_BYTES / 2));
        let severity = if peak >= SHM_CRITICAL_SHARE {
            Severity::Critical
        } else {
            Severity::Warning
        };
        out.push(
            Diagnosis::new(DiagnosisId::ShmExhausted, severity, from, to)
                .with("shm_used", Evidence::Bytes(used))
                .with("shm", Evidence::Bytes(total))
                .with("share", Evidence::Share(peak))
                .with("needed", Evidence::Bytes(total))
                .with("recommended", Evidence::Bytes(recommended))
                .with("shm_flag", Evidence::Text(shm_flag(recommended)))
                .recs(&[AdviceId::GrowShm, AdviceId::ReduceNumWorkers]),
        );
    }
}
