//! GPU recognisers: `gpu-starved` (the seed's saw-tooth), `pcie-saturated`, `power-unstable`.

use super::series::{self, Run};
use super::{Diagnosis, DiagnosisId, Evidence, SUSTAIN_S};
use crate::advisor::bandwidth::pcie_bytes_per_s;
use crate::advisor::{AdviceId, Severity};
use crate::trace::{GpuSample, Sample, Trace};

/// Utilisation at or below this is the idle half of a saw-tooth: 30 %. Assumption: a GPU that
/// waits for its next batch shows near 0 %; 30 % leaves room for the tail of the last step in
/// the same NVML sample period.
pub const STARVED_LOW_PERCENT: f64 = 30.0;

/// Utilisation at or above this is the busy half: 70 %. Between the two a sample keeps the
/// half it was in (hysteresis), so noise around 50 % does not count as a cycle.
pub const STARVED_HIGH_PERCENT: f64 = 70.0;

/// A half (idle or busy) longer than this is a phase of the run, not part of a saw-tooth:
/// 30 s. Assumption: data-loading stalls last seconds; start-up, a validation pass or steady
/// training last longer.
pub const STARVED_MAX_HALF_S: f64 = 30.0;

/// A sample counts as busy for the duty cycle at this utilisation: 50 %.
pub const BUSY_PERCENT: f64 = 50.0;

/// Idle-to-busy transitions needed to call it a saw-tooth: 3. Assumption: one or two dips are
/// an epoch boundary, a validation pass or a checkpoint; three or more in a row are a pattern.
pub const STARVED_MIN_CYCLES: usize = 3;

/// Above this duty cycle the GPU is busy enough not to report: 0.85. Assumption: the last 15 %
/// is hard to win back with data-loading changes alone.
pub const STARVED_DUTY_MAX: f64 = 0.85;

/// Below this duty cycle starvation is critical: 0.5 (the GPU idles more than it works).
pub const STARVED_CRITICAL_DUTY: f64 = 0.5;

/// The loader is CPU-bound when its processes use this much CPU each on average: 80 % of a
/// core. Source: a DataLoader worker decoding and augmenting flat out shows ~100 % in `top`;
/// the main process waiting in `next()` shows little, so 80 % per process means the workers are
/// saturated.
pub const LOADER_BUSY_PERCENT_PER_PROCESS: f64 = 80.0;

/// The machine's CPUs count as saturated at this share busy: 90 %.
pub const HOST_CPU_SATURATED_PERCENT: f64 = 90.0;

/// The CPUs wait on storage when iowait (or PSI I/O "some") reaches this: 20 %. Assumption:
/// `vmstat`'s `wa` stays in single digits on a machine reading from local NVMe; a fifth of the
/// time spent waiting means reads are on the critical path.
pub const IO_WAIT_HIGH_PERCENT: f64 = 20.0;

/// PCIe traffic at this share of the link's rate (per direction) is saturation: 0.8.
/// Assumption: real transfers reach 80–90 % of the encoded rate (TLP headers, flow control), so
/// 80 % is close to the most the link carries.
pub const PCIE_SATURATED_SHARE: f64 = 0.8;

/// A sample-to-sample change of power by this share of the GPU's peak counts as a jump: 0.3.
pub const POWER_JUMP_SHARE: f64 = 0.3;

/// … and by at least this many watts (an idle GPU's 20 → 35 W is not a jump): 50 W.
pub const POWER_JUMP_MIN_W: f64 = 50.0;

/// Jumps closer than this belong to one unstable stretch: 10 s.
pub const POWER_JUMP_GAP_S: f64 = 10.0;

/// Jumps needed for `power-unstable`: 4 (two up, two down).
pub const POWER_MIN_JUMPS: usize = 4;

fn gpu(s: &Sample, index: u32) -> Option<&GpuSample> {
    s.gpu(index)
}

fn util(s: &Sample, index: u32) -> Option<f64> {
    gpu(s, index)?.util_percent
}

/// `gpu-starved`, per GPU: a saw-tooth of at least [`STARVED_MIN_CYCLES`] idle-to-busy cycles
/// with a duty cycle at most [`STARVED_DUTY_MAX`], while the loader is CPU-bound or the CPUs
/// wait on storage. The duty cycle is the share of samples at least [`BUSY_PERCENT`] busy in
/// the saw-tooth's range; the period is the mean time between its rising edges.
pub(super) fn starved(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    for index in trace.gpu_indices() {
        for region in sawtooth_regions(samples, index, trace.header.interval_s) {
            let (run, rises) = region;
            let window = run.of(samples);
            let known: Vec<f64> = window.iter().filter_map(|s| util(s, index)).collect();
            let busy = known.iter().filter(|u| **u >= BUSY_PERCENT).count();
            let duty = busy as f64 / known.len() as f64;
            if duty > STARVED_DUTY_MAX {
                continue;
            }
            let period = (samples[*rises.last().unwrap()].t - samples[rises[0]].t)
                / (rises.len() - 1) as f64;
            let loader = series::mean(window, |s| {
                let p = s.process.as_ref()?;
                Some(p.cpu_percent? / f64::from(p.processes()?))
            });
            let host_cpu = series::mean(window, |s| s.host.cpu_busy_percent);
            let iowait = series::mean(window, |s| s.host.iowait_percent);
            let psi_io = series::mean(window, |s| s.host.psi_io_some_avg10);
            let loader_busy = loader.filter(|l| *l >= LOADER_BUSY_PERCENT_PER_PROCESS);
            let cpu_bound =
                loader_busy.is_some() || host_cpu.is_some_and(|c| c >= HOST_CPU_SATURATED_PERCENT);
            let io_wait = iowait.is_some_and(|w| w >= IO_WAIT_HIGH_PERCENT)
                || psi_io.is_some_and(|w| w >= IO_WAIT_HIGH_PERCENT);
            // No cause in sight (or no data about one): no conclusion.
            if !cpu_bound && !io_wait {
                continue;
            }
            let severity = if duty < STARVED_CRITICAL_DUTY {
                Severity::Critical
            } else {
                Severity::Warning
            };
            let mut recs = Vec::new();
            if cpu_bound {
                recs.extend([
                    AdviceId::IncreaseNumWorkers,
                    AdviceId::GpuDecode,
                    AdviceId::PreResize,
                ]);
            }
            if io_wait {
                recs.extend([AdviceId::PackShards, AdviceId::CopyToLocalNvme]);
            }
            let (from, to) = run.range(samples);
            let workers = window
                .iter()
                .filter_map(|s| s.process.as_ref()?.workers)
                .max();
            out.push(
                Diagnosis::new(DiagnosisId::GpuStarved, severity, from, to)
                    .with("gpu", Evidence::Count(u64::from(index)))
                    .with("duty_cycle", Evidence::Share(duty))
                    .with("period", Evidence::Seconds(period))
                    .with("cycles", Evidence::Count(rises.len() as u64))
                    .with_opt(
                        "util_mean",
                        series::mean(window, |s| util(s, index)).map(Evidence::Percent),
                    )
                    .with_opt("loader_cpu", loader_busy.map(Evidence::Percent))
                    .with_opt(
                        "host_cpu",
                        host_cpu
                            .filter(|c| loader_busy.is_none() && *c >= HOST_CPU_SATURATED_PERCENT)
                            .map(Evidence::Percent),
                    )
                    .with_opt("workers", workers.map(|w| Evidence::Count(u64::from(w))))
                    .with_opt(
                        "iowait",
                        iowait.or(psi_io).filter(|_| io_wait).map(Evidence::Percent),
                    )
                    .recs(&recs),
            );
        }
    }
}

/// The saw-tooth stretches of one GPU: each with the indices of its rising edges (the first
/// busy sample after an idle half). A stretch begins at the idle half before the first rise
/// and ends with the busy half after the last; an unknown sample, or a half longer than
/// [`STARVED_MAX_HALF_S`], ends it.
fn sawtooth_regions(samples: &[Sample], index: u32, interval_s: f64) -> Vec<(Run, Vec<usize>)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Half {
        Low,
        High,
    }
    let mut out = Vec::new();
    let mut state: Option<Half> = None;
    let mut half_start = 0usize;
    let mut region_start: Option<usize> = None;
    let mut rises: Vec<usize> = Vec::new();
    let mut last_high = 0usize;
    let mut close = |start: &mut Option<usize>, rises: &mut Vec<usize>, end: usize| {
        if let Some(first) = start.take() {
            if rises.len() >= STARVED_MIN_CYCLES && end >= first {
                out.push((Run { first, last: end }, std::mem::take(rises)));
            }
        }
        rises.clear();
    };
    for (i, s) in samples.iter().enumerate() {
        let Some(u) = util(s, index) else {
            close(&mut region_start, &mut rises, last_high);
            state = None;
            continue;
        };
        let next = if u <= STARVED_LOW_PERCENT {
            Some(Half::Low)
        } else if u >= STARVED_HIGH_PERCENT {
            Some(Half::High)
        } else {
            state
        };
        if next != state {
            if (state, next) == (Some(Half::Low), Some(Half::High)) {
                if region_start.is_none() {
                    let low_len = samples[i - 1].t - samples[half_start].t + interval_s;
                    region_start = Some(if low_len <= STARVED_MAX_HALF_S {
                        half_start
                    } else {
                        i
                    });
                }
                rises.push(i);
            }
            half_start = i;
        } else if region_start.is_some()
            && s.t - samples[half_start].t + interval_s > STARVED_MAX_HALF_S
        {
            // A long steady half: the saw-tooth ended where this half began.
            let end = if state == Some(Half::High) {
                half_start
            } else {
                last_high
            };
            close(&mut region_start, &mut rises, end);
        }
        if next == Some(Half::High) {
            last_high = i;
        }
        state = next;
    }
    close(&mut region_start, &mut rises, last_high);
    out
}

/// `pcie-saturated`, per GPU: host → GPU or GPU → host traffic at least
/// [`PCIE_SATURATED_SHARE`] of the link's rate for [`SUSTAIN_S`]. The rate is the profile's
/// maximum generation at the current width (GPUs lower the generation when idle); without a
/// known link there is nothing to compare with.
pub(super) fn pcie_saturated(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let Some(profile) = &trace.header.profile else {
        return;
    };
    let samples = &trace.samples;
    for index in trace.gpu_indices() {
        let Some(link) = profile
            .gpus
            .iter()
            .find(|g| g.index == index)
            .and_then(|g| g.pcie)
        else {
            continue;
        };
        let generation = match (link.gen_max, link.gen_gpu_max) {
            (Some(m), Some(g)) => Some(m.min(g)),
            (m, g) => m.or(g).or(link.gen_current),
        };
        let Some(rate) = pcie_bytes_per_s(generation, link.width_current.or(link.width_max)) else {
            continue;
        };
        let busiest = |s: &Sample| {
            let g = gpu(s, index)?;
            match (g.pcie_rx_bytes_per_s, g.pcie_tx_bytes_per_s) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0.0).max(b.unwrap_or(0.0))),
            }
        };
        let runs = series::runs(samples, trace.header.interval_s, SUSTAIN_S, |s| {
            busiest(s).map(|b| b >= PCIE_SATURATED_SHARE * rate)
        });
        for run in runs {
            let window = run.of(samples);
            let (from, to) = run.range(samples);
            let mean = series::mean(window, busiest).unwrap_or(0.0);
            let rx = series::mean(window, |s| gpu(s, index)?.pcie_rx_bytes_per_s);
            let tx = series::mean(window, |s| gpu(s, index)?.pcie_tx_bytes_per_s);
            out.push(
                Diagnosis::new(DiagnosisId::PcieSaturated, Severity::Warning, from, to)
                    .with("gpu", Evidence::Count(u64::from(index)))
                    .with("link", Evidence::BytesPerSecond(rate))
                    .with("share", Evidence::Share(mean / rate))
                    .with_opt("rx", rx.map(Evidence::BytesPerSecond))
                    .with_opt("tx", tx.map(Evidence::BytesPerSecond))
                    .recs(&[
                        AdviceId::PinMemory,
                        AdviceId::GpuDecode,
                        AdviceId::CheckPcieSlot,
                    ]),
            );
        }
    }
}

/// `power-unstable`, per GPU: at least [`POWER_MIN_JUMPS`] sample-to-sample jumps of power,
/// each at least [`POWER_JUMP_SHARE`] of the GPU's peak and [`POWER_JUMP_MIN_W`], no more
/// than [`POWER_JUMP_GAP_S`] apart. The seed's "unstable power in nvidia-smi": a symptom (the
/// GPU idles between batches), so information only.
pub(super) fn power_unstable(trace: &Trace, out: &mut Vec<Diagnosis>) {
    let samples = &trace.samples;
    for index in trace.gpu_indices() {
        let power = |s: &Sample| gpu(s, index)?.power_w;
        let Some(peak) = series::max(samples, power) else {
            continue;
        };
        let threshold = (peak * POWER_JUMP_SHARE).max(POWER_JUMP_MIN_W);
        // Jumps as (index of the sample before, index after).
        let jumps: Vec<(usize, usize)> = samples
            .windows(2)
            .enumerate()
            .filter_map(|(i, w)| {
                let (a, b) = (power(&w[0])?, power(&w[1])?);
                ((b - a).abs() >= threshold).then_some((i, i + 1))
            })
            .collect();
        let mut groups: Vec<Vec<(usize, usize)>> = Vec::new();
        for j in jumps {
            match groups.last_mut() {
                Some(g) if samples[j.0].t - samples[g.last().unwrap().1].t <= POWER_JUMP_GAP_S => {
                    g.push(j)
                }
                _ => groups.push(vec![j]),
            }
        }
        for g in groups.into_iter().filter(|g| g.len() >= POWER_MIN_JUMPS) {
            let run = Run {
                first: g[0].0,
                last: g.last().unwrap().1,
            };
            let window = run.of(samples);
            let (from, to) = run.range(samples);
            let lo = window.iter().filter_map(power).reduce(f64::min);
            let hi = series::max(window, power);
            out.push(
                Diagnosis::new(DiagnosisId::PowerUnstable, Severity::Info, from, to)
                    .with("gpu", Evidence::Count(u64::from(index)))
                    .with("jumps", Evidence::Count(g.len() as u64))
                    .with_opt("power_min", lo.map(Evidence::Watts))
                    .with_opt("power_max", hi.map(Evidence::Watts))
                    .recs(&[AdviceId::CheckDataLoader]),
            );
        }
    }
}
