//! A node's time range from Prometheus as a [`Trace`]: one range query per mapped field, the
//! series split by GPU, values converted into the trace's units, one sample per step that knows
//! anything. The same `Trace` that `ramvram watch` records, so the same recognisers read it and
//! `--record` writes the same file.

use std::collections::BTreeMap;

use super::mapping::{Field, Kind, Mapping, Scope, Section};
use super::response::Series;
use super::{Client, PromError};
use crate::profile::MachineProfile;
use crate::trace::{GpuSample, HostSample, Sample, Trace, TraceHeader};

/// Points per range query at most: 10,000 (Prometheus refuses more than 11,000 per series);
/// longer ranges are fetched in pieces.
pub const MAX_POINTS_PER_QUERY: u64 = 10_000;

/// Steps in one trace at most: 100,000 (17 days at 15 s). Assumption: a run worth diagnosing
/// is hours to days; a finer step over a longer range asks for more than a trace needs.
pub const MAX_STEPS: u64 = 100_000;

/// Shortest step: 0.1 s (the trace format's resolution is finer than any scrape interval).
pub const MIN_STEP_S: f64 = 0.1;

/// A percentage this far above 100 (or below 0) is the jitter of a rate between two scrapes
/// and is clamped: 10 points. Further out it is a wrong mapping, and unknown.
pub const PERCENT_SLACK: f64 = 10.0;

/// What to fetch: a node's samples from `start` to `end` (Unix seconds) every `step` seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeRequest {
    /// The node, as its label reads (`gpu07`, or `gpu07:9100` with exact matching).
    pub node: String,
    /// First sample's time, Unix seconds.
    pub start: f64,
    /// Last sample's time at most, Unix seconds.
    pub end: f64,
    /// Seconds between samples.
    pub step: f64,
}

impl RangeRequest {
    /// Steps in the range (both ends included).
    pub fn steps(&self) -> u64 {
        ((self.end - self.start) / self.step + 1e-9).floor() as u64 + 1
    }

    /// Checks the range before anything is asked of the server.
    ///
    /// # Errors
    /// [`PromError::BadRange`] for an empty or reversed range or a step below [`MIN_STEP_S`];
    /// [`PromError::TooManySteps`] past [`MAX_STEPS`].
    pub fn check(&self) -> Result<(), PromError> {
        let ok = [self.start, self.end, self.step]
            .iter()
            .all(|v| v.is_finite());
        if !ok || self.end <= self.start || self.step < MIN_STEP_S {
            return Err(PromError::BadRange);
        }
        let steps = self.steps();
        if steps > MAX_STEPS {
            return Err(PromError::TooManySteps {
                steps,
                max: MAX_STEPS,
            });
        }
        Ok(())
    }
}

/// Something noticed while building the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchNote {
    /// Several series answered for one node-level field (or one GPU); the first (by labels)
    /// was used, the others fill only its gaps.
    Ambiguous {
        /// The field.
        field: Field,
        /// How many series answered.
        series: usize,
    },
    /// Values outside what the field can hold (a negative rate, a percentage far above 100)
    /// were left unknown.
    OutOfRange {
        /// The field.
        field: Field,
        /// How many.
        values: usize,
    },
    /// GPU series without a whole-number GPU index label were left out.
    NoGpuIndex {
        /// The field.
        field: Field,
        /// How many series.
        series: usize,
    },
    /// A warning from the server (its words).
    Warning(String),
}

/// A trace built from Prometheus, with what it could not fill.
#[derive(Clone, Debug)]
pub struct Fetched {
    /// The trace: `t` is seconds since `request.start`, `interval_s` the step.
    pub trace: Trace,
    /// What was asked.
    pub request: RangeRequest,
    /// Mapped fields without a single known value in the range.
    pub missing: Vec<Field>,
    /// Fields the mapping turns off.
    pub unmapped: Vec<Field>,
    /// What was noticed.
    pub notes: Vec<FetchNote>,
}

/// Fetches `request` from `client` with `mapping`: every mapped host and GPU field as a range
/// query (in pieces of [`MAX_POINTS_PER_QUERY`]), and the machine's facts at the range's end
/// for the trace's profile ([`super::fleet::node_profile`]).
///
/// # Errors
/// The range's [`RangeRequest::check`], or the first request or answer that fails. A range
/// without a single sample is an error, not an empty trace: [`PromError::UnknownNode`] with
/// the nodes the server knows when its `up` series doesn't name the node (a typo, another
/// label), else [`PromError::EmptyRange`].
pub fn fetch(
    client: &Client,
    mapping: &Mapping,
    request: &RangeRequest,
) -> Result<Fetched, PromError> {
    request.check()?;
    let window = request.step.max(super::mapping::MIN_RATE_WINDOW_S);
    let mut results = Vec::new();
    let mut warnings = Vec::new();
    for field in Field::ALL
        .iter()
        .filter(|f| f.section() != Section::Machine)
    {
        let Some(query) = mapping.query(*field) else {
            continue;
        };
        let promql = mapping.render(&query.template, Scope::Node(&request.node), window);
        let mut merged: BTreeMap<Labels, Vec<(f64, Option<f64>)>> = BTreeMap::new();
        let steps = request.steps();
        let mut first = 0;
        while first < steps {
            let last = (first + MAX_POINTS_PER_QUERY - 1).min(steps - 1);
            let answer = client.query_range(
                &promql,
                request.start + first as f64 * request.step,
                request.start + last as f64 * request.step,
                request.step,
            )?;
            warnings.extend(answer.warnings);
            for s in answer.series {
                merged.entry(s.labels).or_default().extend(s.points);
            }
            first = last + 1;
        }
        let series = merged
            .into_iter()
            .map(|(labels, points)| Series { labels, points })
            .collect();
        results.push((*field, series));
    }
    let profile = super::fleet::node_profile(client, mapping, &request.node, Some(request.end))?;
    let mut fetched = build(&results, mapping, request, Some(profile));
    if fetched.trace.samples.is_empty() {
        let known = super::fleet::list_nodes(client, mapping)?;
        return Err(if known.contains(&mapping.node_key(&request.node)) {
            PromError::EmptyRange {
                node: request.node.clone(),
                start: request.start,
                end: request.end,
            }
        } else {
            PromError::UnknownNode {
                node: request.node.clone(),
                known,
            }
        });
    }
    warnings.sort();
    warnings.dedup();
    fetched
        .notes
        .extend(warnings.into_iter().take(5).map(FetchNote::Warning));
    Ok(fetched)
}

/// A value in the field's unit, or why not: `Err(true)` when out of range.
fn convert(field: Field, raw: f64, factor: f64) -> Result<f64, bool> {
    let v = raw * factor;
    if !v.is_finite() {
        return Err(true);
    }
    match field.kind() {
        Kind::Percent if (-PERCENT_SLACK..=100.0 + PERCENT_SLACK).contains(&v) => {
            Ok(v.clamp(0.0, 100.0))
        }
        Kind::Percent => Err(true),
        Kind::Bytes | Kind::Count if (0.0..=(1u64 << 62) as f64).contains(&v) => Ok(v.round()),
        Kind::Bytes | Kind::Count => Err(true),
        // Up to what the trace format takes (a larger rate is a broken exporter).
        Kind::BytesPerSecond | Kind::PerSecond | Kind::Watts
            if (0.0..=crate::trace::jsonl::MAX_TRACE_VALUE).contains(&v) =>
        {
            Ok(v)
        }
        Kind::BytesPerSecond | Kind::PerSecond | Kind::Watts => Err(true),
        Kind::Labels => Err(false),
    }
}

fn set_host(h: &mut HostSample, field: Field, v: f64) {
    let bytes = Some(v as u64);
    let rate = Some(v);
    match field {
        Field::MemAvailable => h.mem_available_bytes = bytes,
        Field::PageCache => h.page_cache_bytes = bytes,
        Field::SwapUsed => h.swap_used_bytes = bytes,
        Field::SwapIn => h.swap_in_pages_per_s = rate,
        Field::SwapOut => h.swap_out_pages_per_s = rate,
        Field::MajorFaults => h.major_faults_per_s = rate,
        Field::PsiMemorySome => h.psi_memory_some_avg10 = rate,
        Field::PsiMemoryFull => h.psi_memory_full_avg10 = rate,
        Field::PsiIoSome => h.psi_io_some_avg10 = rate,
        Field::CpuBusy => h.cpu_busy_percent = rate,
        Field::Iowait => h.iowait_percent = rate,
        Field::KswapdCpu => h.kswapd_cpu_percent = rate,
        Field::OomKills => h.oom_kills_total = bytes,
        Field::CgroupOomKills => h.cgroup_oom_kills_total = bytes,
        Field::CgroupMemUsed => h.cgroup_mem_used_bytes = bytes,
        Field::ShmUsed => h.shm_used_bytes = bytes,
        Field::ShmTotal => h.shm_total_bytes = bytes,
        Field::DiskRead => h.disk_read_bytes_per_s = rate,
        _ => {}
    }
}

fn set_gpu(g: &mut GpuSample, field: Field, v: f64) {
    match field {
        Field::GpuUtil => g.util_percent = Some(v),
        Field::GpuMemUsed => g.mem_used_bytes = Some(v as u64),
        Field::GpuPower => g.power_w = Some(v),
        Field::GpuPcieRx => g.pcie_rx_bytes_per_s = Some(v),
        Field::GpuPcieTx => g.pcie_tx_bytes_per_s = Some(v),
        _ => {}
    }
}

/// Values of one field by step, `None` where unknown.
type Column = Vec<Option<f64>>;

/// A series' labels.
type Labels = BTreeMap<String, String>;

/// Builds the trace from each field's series (pure; what [`fetch`] does once it has them).
/// Points off the step grid or outside the range are ignored.
pub fn build(
    results: &[(Field, Vec<Series>)],
    mapping: &Mapping,
    request: &RangeRequest,
    profile: Option<MachineProfile>,
) -> Fetched {
    let n = request.steps() as usize;
    let mut notes = Vec::new();
    let mut host: BTreeMap<Field, Column> = BTreeMap::new();
    let mut gpus: BTreeMap<u32, BTreeMap<Field, Column>> = BTreeMap::new();
    let mut known: Vec<Field> = Vec::new();
    for (field, series) in results {
        let factor = mapping.query(*field).map_or(1.0, |q| q.unit.factor());
        let mut sorted: Vec<&Series> = series.iter().collect();
        sorted.sort_by(|a, b| a.labels.cmp(&b.labels));
        // (target column key, series) — GPU series grouped by their index label.
        let mut groups: BTreeMap<Option<u32>, Vec<&Series>> = BTreeMap::new();
        let mut no_index = 0;
        for s in sorted {
            if field.section() == Section::Gpu {
                match s
                    .labels
                    .get(&mapping.gpu_labels.index)
                    .and_then(|v| v.parse::<u32>().ok())
                {
                    Some(i) => groups.entry(Some(i)).or_default().push(s),
                    None => no_index += 1,
                }
            } else {
                groups.entry(None).or_default().push(s);
            }
        }
        if no_index > 0 {
            notes.push(FetchNote::NoGpuIndex {
                field: *field,
                series: no_index,
            });
        }
        let mut bad = 0;
        for (gpu, group) in groups {
            if group.len() > 1 {
                notes.push(FetchNote::Ambiguous {
                    field: *field,
                    series: group.len(),
                });
            }
            let mut column: Column = vec![None; n];
            for s in group {
                for (t, v) in &s.points {
                    let k = ((t - request.start) / request.step).round();
                    let on_grid = (t - (request.start + k * request.step)).abs()
                        <= request.step * 0.01 + 1e-6;
                    if !(on_grid && k >= 0.0 && (k as usize) < n) {
                        continue;
                    }
                    let slot = &mut column[k as usize];
                    if slot.is_some() {
                        continue;
                    }
                    match v.map(|v| convert(*field, v, factor)) {
                        Some(Ok(x)) => *slot = Some(x),
                        Some(Err(true)) => bad += 1,
                        _ => {}
                    }
                }
            }
            if column.iter().any(Option::is_some) && !known.contains(field) {
                known.push(*field);
            }
            match gpu {
                Some(i) => {
                    gpus.entry(i).or_default().insert(*field, column);
                }
                None => {
                    host.insert(*field, column);
                }
            }
        }
        if bad > 0 {
            notes.push(FetchNote::OutOfRange {
                field: *field,
                values: bad,
            });
        }
    }
    let mut samples = Vec::new();
    for k in 0..n {
        let any_host = host.values().any(|c| c[k].is_some());
        let any_gpu = gpus
            .values()
            .flat_map(|m| m.values())
            .any(|c| c[k].is_some());
        if !(any_host || any_gpu) {
            continue;
        }
        let mut sample = Sample {
            t: k as f64 * request.step,
            ..Default::default()
        };
        for (field, column) in &host {
            if let Some(v) = column[k] {
                set_host(&mut sample.host, *field, v);
            }
        }
        for (index, fields) in &gpus {
            let mut g = GpuSample {
                index: *index,
                ..Default::default()
            };
            for (field, column) in fields {
                if let Some(v) = column[k] {
                    set_gpu(&mut g, *field, v);
                }
            }
            sample.gpus.push(g);
        }
        // The trace format refuses more /dev/shm used than its size (two queries, two moments).
        if let (Some(u), Some(t)) = (sample.host.shm_used_bytes, sample.host.shm_total_bytes) {
            sample.host.shm_used_bytes = Some(u.min(t));
        }
        samples.push(sample);
    }
    let traced = |f: &&Field| f.section() != Section::Machine;
    let missing = Field::ALL
        .iter()
        .filter(traced)
        .filter(|f| mapping.query(**f).is_some() && !known.contains(f))
        .copied()
        .collect();
    let unmapped = Field::ALL
        .iter()
        .filter(traced)
        .filter(|f| mapping.query(**f).is_none())
        .copied()
        .collect();
    Fetched {
        trace: Trace {
            header: TraceHeader::new(profile, request.step),
            samples,
        },
        request: request.clone(),
        missing,
        unmapped,
        notes,
    }
}

#[cfg(test)]
#[path = "range_tests.rs"]
mod tests;
