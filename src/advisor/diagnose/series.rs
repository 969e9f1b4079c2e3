//! Helpers over a trace's samples: stretches where a condition holds, and statistics over a
//! stretch that use known values only.

use super::RUN_MERGE_GAP_S;
use crate::trace::Sample;

/// A stretch of samples, by index (both included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// First sample.
    pub first: usize,
    /// Last sample.
    pub last: usize,
}

impl Run {
    /// The samples of the stretch.
    pub fn of<'a>(&self, samples: &'a [Sample]) -> &'a [Sample] {
        &samples[self.first..=self.last]
    }

    /// (time of the first sample, time of the last).
    pub fn range(&self, samples: &[Sample]) -> (f64, f64) {
        (samples[self.first].t, samples[self.last].t)
    }

    /// Seconds covered: last − first plus one interval (each sample stands for the interval
    /// before it).
    pub fn duration(&self, samples: &[Sample], interval_s: f64) -> f64 {
        samples[self.last].t - samples[self.first].t + interval_s
    }
}

/// Stretches where `pred` holds (`Some(true)`), merged when at most [`RUN_MERGE_GAP_S`] apart,
/// and kept when they last at least `min_s` seconds. A sample where `pred` can't tell
/// (`None`) ends a stretch like a `Some(false)` does: missing data never extends a symptom.
pub fn runs(
    samples: &[Sample],
    interval_s: f64,
    min_s: f64,
    pred: impl Fn(&Sample) -> Option<bool>,
) -> Vec<Run> {
    let mut raw: Vec<Run> = Vec::new();
    let mut start: Option<usize> = None;
    for (i, s) in samples.iter().enumerate() {
        match (pred(s) == Some(true), start) {
            (true, None) => start = Some(i),
            (false, Some(f)) => {
                raw.push(Run {
                    first: f,
                    last: i - 1,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(f) = start {
        raw.push(Run {
            first: f,
            last: samples.len() - 1,
        });
    }
    let mut merged: Vec<Run> = Vec::new();
    for r in raw {
        match merged.last_mut() {
            Some(prev) if samples[r.first].t - samples[prev.last].t <= RUN_MERGE_GAP_S => {
                prev.last = r.last;
            }
            _ => merged.push(r),
        }
    }
    merged
        .into_iter()
        .filter(|r| r.duration(samples, interval_s) >= min_s - 1e-9)
        .collect()
}

/// Mean of the known values, `None` when none is known.
pub fn mean(samples: &[Sample], f: impl Fn(&Sample) -> Option<f64>) -> Option<f64> {
    let (sum, n) = samples
        .iter()
        .filter_map(f)
        .fold((0.0, 0u32), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / f64::from(n))
}

/// Largest known value.
pub fn max(samples: &[Sample], f: impl Fn(&Sample) -> Option<f64>) -> Option<f64> {
    samples.iter().filter_map(f).reduce(f64::max)
}

/// Largest known value of a byte count.
pub fn max_u64(samples: &[Sample], f: impl Fn(&Sample) -> Option<u64>) -> Option<u64> {
    samples.iter().filter_map(f).max()
}

/// Smallest known value of a byte count.
pub fn min_u64(samples: &[Sample], f: impl Fn(&Sample) -> Option<u64>) -> Option<u64> {
    samples.iter().filter_map(f).min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(flags: &[Option<bool>]) -> Vec<(Sample, Option<bool>)> {
        flags
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    Sample {
                        t: i as f64,
                        ..Default::default()
                    },
                    *f,
                )
            })
            .collect()
    }

    fn find(flags: &[Option<bool>], min_s: f64) -> Vec<(usize, usize)> {
        let pairs = samples(flags);
        let s: Vec<Sample> = pairs.iter().map(|p| p.0.clone()).collect();
        runs(&s, 1.0, min_s, |x| pairs[x.t as usize].1)
            .into_iter()
            .map(|r| (r.first, r.last))
            .collect()
    }

    #[test]
    fn stretches_merge_across_short_gaps_and_unknowns_break_them() {
        let (t, f, u) = (Some(true), Some(false), None);
        // t t f t t: the gap of one sample (t=1 to t=3 is 2 s) is bridged.
        assert_eq!(find(&[t, t, f, t, t], 1.0), vec![(0, 4)]);
        // A gap of four samples (t=1 to t=6 is 5 s) is not.
        assert_eq!(find(&[t, t, f, f, f, f, t], 1.0), vec![(0, 1), (6, 6)]);
        // Unknown ends a stretch just like false; then the 2-sample minimum (2 s) drops (4, 4).
        assert_eq!(find(&[t, t, u, u, u, u, t, f], 2.0), vec![(0, 1)]);
        assert!(find(&[u, u, u], 0.0).is_empty());
    }

    #[test]
    fn statistics_skip_unknown_values() {
        let s: Vec<Sample> = [Some(1.0), None, Some(3.0)]
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let mut x = Sample {
                    t: i as f64,
                    ..Default::default()
                };
                x.host.iowait_percent = *v;
                x
            })
            .collect();
        assert_eq!(mean(&s, |x| x.host.iowait_percent), Some(2.0));
        assert_eq!(max(&s, |x| x.host.iowait_percent), Some(3.0));
        assert_eq!(mean(&s[1..2], |x| x.host.iowait_percent), None);
    }
}
