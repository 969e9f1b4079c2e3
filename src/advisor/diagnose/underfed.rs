//! `gpu-starved` at coarse resolution: a GPU whose duty cycle stays low over minutes while the
//! data loader or the machine's CPUs are saturated, or the CPUs wait for storage.
//!
//! The saw-tooth recogniser ([`super::gpu::starved`]) needs to see each idle and busy half, and
//! calls a half longer than 30 s a phase of the run. At a Prometheus scrape interval (15 s,
//! 60 s) a GPU that idles 45 s of every 75 shows two or three samples per half, so the
//! saw-tooth is invisible; what stays visible is the share of samples the GPU was busy, over
//! minutes, beside a saturated CPU. Same id, cause and advice; the wording says what was seen.

use super::gpu::{
    BUSY_PERCENT, HOST_CPU_SATURATED_PERCENT, IO_WAIT_HIGH_PERCENT,
    LOADER_BUSY_PERCENT_PER_PROCESS, STARVED_CRITICAL_DUTY, STARVED_DUTY_MAX,
};
use super::series;
use super::{Diagnosis, DiagnosisId, Evidence};
use crate::advisor::{AdviceId, Severity};
use crate::trace::{Sample, Trace};

/// A low duty cycle must last this long: 3 minutes. Assumption: an evaluation pass, a
/// checkpoint or the first batches of an epoch idle a GPU for a minute or so; three minutes of
/// a mostly idle GPU beside a saturated CPU is the steady state of the run.
pub const UNDERFED_MIN_S: f64 = 180.0;

/// … and cover at least this many samples: 4 (at a 60 s scrape interval, 4 minutes), so that
/// a duty cycle is a share of several samples, not one or two.
pub const UNDERFED_MIN_SAMPLES: usize = 4;

/// What one stretch of samples shows: the share of them the GPU was busy, and the cause.
struct Window {
    duty: f64,
    util_mean: Option<f64>,
    loader_busy: Option<f64>,
    host_cpu: Option<f64>,
    iowait: Option<f64>,
}

impl Window {
    /// The stretch's figures; `None` when a utilisation is unknown in it.
    fn of(samples: &[Sample], index: u32) -> Option<Window> {
        let utils: Option<Vec<f64>> = samples.iter().map(|s| s.gpu(index)?.util_percent).collect();
        let utils = utils?;
        let busy = utils.iter().filter(|u| **u >= BUSY_PERCENT).count();
        let loader = series::mean(samples, |s| {
            let p = s.process.as_ref()?;
            Some(p.cpu_percent? / f64::from(p.processes()?))
        });
        let iowait = series::mean(samples, |s| s.host.iowait_percent)
            .or_else(|| series::mean(samples, |s| s.host.psi_io_some_avg10));
        Some(Window {
            duty: busy as f64 / utils.len().max(1) as f64,
            util_mean: series::mean(samples, |s| s.gpu(index)?.util_percent),
            loader_busy: loader.filter(|l| *l >= LOADER_BUSY_PERCENT_PER_PROCESS),
            host_cpu: series::mean(samples, |s| s.host.cpu_busy_percent),
            iowait: iowait.filter(|w| *w >= IO_WAIT_HIGH_PERCENT),
        })
    }

    fn cpu_bound(&self) -> bool {
        self.loader_busy.is_some()
            || self
                .host_cpu
                .is_some_and(|c| c >= HOST_CPU_SATURATED_PERCENT)
    }

    /// Underfed: busy some of the time (a GPU never busy is not in use) but at most
    /// [`STARVED_DUTY_MAX`] of it, with a cause in sight.
    fn underfed(&self) -> bool {
        self.duty > 0.0
            && self.duty <= STARVED_DUTY_MAX
            && (self.cpu_bound() || self.iowait.is_some())
    }
}

/// `gpu-starved` for each GPU the saw-tooth recogniser did not already report: stretches of at
/// least [`UNDERFED_MIN_S`] (and [`UNDERFED_MIN_SAMPLES`]) where the GPU is busy at most
/// [`STARVED_DUTY_MAX`] of the samples while the cause holds on average. Overlapping stretches
/// are one diagnosis.
pub(super) fn underfed(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    let interval = trace.header.interval_s;
    let width = ((UNDERFED_MIN_S / interval).ceil() as usize).max(UNDERFED_MIN_SAMPLES);
    if samples.len() < width {
        return;
    }
    for index in trace.gpu_indices() {
        let reported = out.iter().any(|d| {
            d.id == DiagnosisId::GpuStarved
                && matches!(d.evidence.get("gpu"), Some(Evidence::Count(g)) if *g == u64::from(index))
        });
        if reported {
            continue;
        }
        // Stretches made of windows that each qualify, merged where they overlap or touch.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for first in 0..=samples.len() - width {
            let last = first + width - 1;
            if !Window::of(&samples[first..=last], index).is_some_and(|w| w.underfed()) {
                continue;
            }
            match runs.last_mut() {
                Some(run) if first <= run.1 + 1 => run.1 = last,
                _ => runs.push((first, last)),
            }
        }
        for (first, last) in runs {
            let window = &samples[first..=last];
            let Some(w) = Window::of(window, index).filter(Window::underfed) else {
                continue;
            };
            out.push(diagnosis(window, index, interval, &w));
        }
    }
}

fn diagnosis(window: &[Sample], index: u32, interval: f64, w: &Window) -> Diagnosis {
    let severity = if w.duty < STARVED_CRITICAL_DUTY {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let mut recs = Vec::new();
    if w.cpu_bound() {
        recs.extend([
            AdviceId::IncreaseNumWorkers,
            AdviceId::GpuDecode,
            AdviceId::PreResize,
        ]);
    }
    if w.iowait.is_some() {
        recs.extend([AdviceId::PackShards, AdviceId::CopyToLocalNvme]);
    }
    let (from, to) = (window[0].t, window[window.len() - 1].t);
    let workers = window
        .iter()
        .filter_map(|s| s.process.as_ref()?.workers)
        .max();
    Diagnosis::new(DiagnosisId::GpuStarved, severity, from, to)
        .with("gpu", Evidence::Count(u64::from(index)))
        .with("duty_cycle", Evidence::Share(w.duty))
        .with("span", Evidence::Seconds(to - from + interval))
        .with("interval", Evidence::Seconds(interval))
        .with_opt("util_mean", w.util_mean.map(Evidence::Percent))
        .with_opt("loader_cpu", w.loader_busy.map(Evidence::Percent))
        .with_opt(
            "host_cpu",
            w.host_cpu
                .filter(|c| w.loader_busy.is_none() && *c >= HOST_CPU_SATURATED_PERCENT)
                .map(Evidence::Percent),
        )
        .with_opt("workers", workers.map(|n| Evidence::Count(u64::from(n))))
        .with_opt("iowait", w.iowait.map(Evidence::Percent))
        .recs(&recs)
}
