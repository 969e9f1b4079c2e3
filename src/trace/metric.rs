//! Named series of a trace, for charts: the window's timeline and the report's draw the same
//! values from here. Memory in GiB, rates as recorded, percentages 0–100.

use super::{Sample, Trace};

/// One plottable quantity of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// A GPU's utilisation, percent.
    GpuUtil(u32),
    /// Available memory, GiB.
    MemAvailableGib,
    /// Page cache, GiB.
    PageCacheGib,
    /// Swap in use, GiB.
    SwapUsedGib,
    /// `/dev/shm` in use, GiB.
    ShmUsedGib,
    /// Pages swapped in per second.
    SwapInPagesPerS,
    /// Pages swapped out per second.
    SwapOutPagesPerS,
    /// PSI memory "some" avg10, percent.
    PsiMemorySome,
    /// PSI memory "full" avg10, percent.
    PsiMemoryFull,
    /// PSI I/O "some" avg10, percent.
    PsiIoSome,
    /// CPU waiting for I/O, percent.
    IowaitPercent,
    /// The process tree's resident memory, GiB.
    ProcessRssGib,
}

impl Metric {
    /// The value in `s`, or `None` when unknown there.
    pub fn value(self, s: &Sample) -> Option<f64> {
        let h = &s.host;
        let gib = |b: Option<u64>| b.map(crate::units::to_gib);
        match self {
            Metric::GpuUtil(i) => s.gpu(i)?.util_percent,
            Metric::MemAvailableGib => gib(h.mem_available_bytes),
            Metric::PageCacheGib => gib(h.page_cache_bytes),
            Metric::SwapUsedGib => gib(h.swap_used_bytes),
            Metric::ShmUsedGib => gib(h.shm_used_bytes),
            Metric::SwapInPagesPerS => h.swap_in_pages_per_s,
            Metric::SwapOutPagesPerS => h.swap_out_pages_per_s,
            Metric::PsiMemorySome => h.psi_memory_some_avg10,
            Metric::PsiMemoryFull => h.psi_memory_full_avg10,
            Metric::PsiIoSome => h.psi_io_some_avg10,
            Metric::IowaitPercent => h.iowait_percent,
            Metric::ProcessRssGib => gib(s.process.as_ref()?.rss_bytes),
        }
    }

    /// True when no sample of `trace` knows this value (the chart leaves it out).
    #[cfg(test)]
    pub fn absent_from(self, trace: &Trace) -> bool {
        trace.samples.iter().all(|s| self.value(s).is_none())
    }
}

/// The metric's known values as `[t, value]` runs: a new run starts after every unknown
/// sample, so that a chart shows a gap rather than a line through missing data.
pub fn segments(trace: &Trace, metric: Metric) -> Vec<Vec<[f64; 2]>> {
    let mut out: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut current: Vec<[f64; 2]> = Vec::new();
    for s in &trace.samples {
        match metric.value(s) {
            Some(v) => current.push([s.t, v]),
            None if !current.is_empty() => out.push(std::mem::take(&mut current)),
            None => {}
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// [`segments`] with at most about `max_points` points in all: each run is cut into buckets
/// and each bucket keeps its lowest and highest value in time order, so that a saw-tooth stays
/// a saw-tooth at any zoom.
pub fn segments_decimated(trace: &Trace, metric: Metric, max_points: usize) -> Vec<Vec<[f64; 2]>> {
    let runs = segments(trace, metric);
    let total: usize = runs.iter().map(Vec::len).sum();
    if total <= max_points.max(2) {
        return runs;
    }
    // Two points per bucket.
    let per_bucket = (2 * total).div_ceil(max_points.max(2));
    runs.into_iter()
        .map(|run| {
            run.chunks(per_bucket)
                .flat_map(|c| {
                    let lo = c.iter().min_by(|a, b| a[1].total_cmp(&b[1])).copied();
                    let hi = c.iter().max_by(|a, b| a[1].total_cmp(&b[1])).copied();
                    match (lo, hi) {
                        (Some(lo), Some(hi)) if lo[0] <= hi[0] => vec![lo, hi],
                        (Some(lo), Some(hi)) => vec![hi, lo],
                        _ => Vec::new(),
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{GpuSample, TraceHeader};

    fn trace(utils: &[Option<f64>]) -> Trace {
        let mut t = Trace::new(TraceHeader::new(None, 1.0));
        for (i, u) in utils.iter().enumerate() {
            t.samples.push(Sample {
                t: i as f64,
                gpus: vec![GpuSample {
                    index: 0,
                    util_percent: *u,
                    ..Default::default()
                }],
                ..Default::default()
            });
        }
        t
    }

    #[test]
    fn unknown_samples_split_the_line() {
        let t = trace(&[Some(10.0), Some(20.0), None, Some(30.0)]);
        assert_eq!(
            segments(&t, Metric::GpuUtil(0)),
            vec![vec![[0.0, 10.0], [1.0, 20.0]], vec![[3.0, 30.0]]]
        );
        assert!(segments(&t, Metric::GpuUtil(1)).is_empty());
        assert!(Metric::PsiIoSome.absent_from(&t));
    }

    #[test]
    fn decimation_keeps_the_extremes() {
        // 0, 100, 0, 100, … for 1000 samples, cut to about 100 points: every bucket of 20
        // samples keeps one 0 and one 100.
        let utils: Vec<Option<f64>> = (0..1000).map(|i| Some(f64::from(i % 2) * 100.0)).collect();
        let t = trace(&utils);
        let d = segments_decimated(&t, Metric::GpuUtil(0), 100);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].len(), 100);
        assert!(d[0].iter().step_by(2).all(|p| p[1] == 0.0));
        assert!(d[0].iter().skip(1).step_by(2).all(|p| p[1] == 100.0));
    }
}
