//! The extremes of a run: what it needed at most (memory, swap, shared memory) and how bad the
//! pressure got. Unknown where no sample knew the value.

use serde::{Deserialize, Serialize};

use super::series;
use crate::trace::Trace;

/// Highest values seen in a trace (lowest for available memory). `null` when never known.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Peaks {
    /// The watched tree's resident memory, bytes.
    pub process_rss_bytes: Option<u64>,
    /// The watched tree's proportional set size, bytes.
    pub process_pss_bytes: Option<u64>,
    /// The watched tree's CPU, percent of one core.
    pub process_cpu_percent: Option<f64>,
    /// Processes in the tree besides the root.
    pub process_workers: Option<u32>,
    /// Least available memory, bytes.
    pub mem_available_min_bytes: Option<u64>,
    /// Swap in use, bytes.
    pub swap_used_bytes: Option<u64>,
    /// Pages swapped in per second.
    pub swap_in_pages_per_s: Option<f64>,
    /// Pages swapped out per second.
    pub swap_out_pages_per_s: Option<f64>,
    /// Major page faults per second.
    pub major_faults_per_s: Option<f64>,
    /// PSI memory "some" avg10, percent.
    pub psi_memory_some_avg10: Option<f64>,
    /// PSI memory "full" avg10, percent.
    pub psi_memory_full_avg10: Option<f64>,
    /// PSI I/O "some" avg10, percent.
    pub psi_io_some_avg10: Option<f64>,
    /// CPU waiting for I/O, percent.
    pub iowait_percent: Option<f64>,
    /// kswapd's CPU, percent of one core.
    pub kswapd_cpu_percent: Option<f64>,
    /// `/dev/shm` in use, bytes.
    pub shm_used_bytes: Option<u64>,
    /// Disk reads, bytes per second.
    pub disk_read_bytes_per_s: Option<f64>,
    /// Memory in use on the fullest GPU, bytes.
    pub gpu_mem_used_bytes: Option<u64>,
    /// OOM kills during the trace (the counter's last value minus its first; host counter).
    pub oom_kills: Option<u64>,
}

/// The peaks of `trace`.
pub fn peaks(trace: &Trace) -> Peaks {
    let s = &trace.samples;
    let process = |f: fn(&crate::trace::ProcessSample) -> Option<u64>| {
        series::max_u64(s, |x| x.process.as_ref().and_then(f))
    };
    let first_oom = s.iter().find_map(|x| x.host.oom_kills_total);
    let last_oom = s.iter().rev().find_map(|x| x.host.oom_kills_total);
    Peaks {
        process_rss_bytes: process(|p| p.rss_bytes),
        process_pss_bytes: process(|p| p.pss_bytes),
        process_cpu_percent: series::max(s, |x| x.process.as_ref()?.cpu_percent),
        process_workers: s.iter().filter_map(|x| x.process.as_ref()?.workers).max(),
        mem_available_min_bytes: series::min_u64(s, |x| x.host.mem_available_bytes),
        swap_used_bytes: series::max_u64(s, |x| x.host.swap_used_bytes),
        swap_in_pages_per_s: series::max(s, |x| x.host.swap_in_pages_per_s),
        swap_out_pages_per_s: series::max(s, |x| x.host.swap_out_pages_per_s),
        major_faults_per_s: series::max(s, |x| x.host.major_faults_per_s),
        psi_memory_some_avg10: series::max(s, |x| x.host.psi_memory_some_avg10),
        psi_memory_full_avg10: series::max(s, |x| x.host.psi_memory_full_avg10),
        psi_io_some_avg10: series::max(s, |x| x.host.psi_io_some_avg10),
        iowait_percent: series::max(s, |x| x.host.iowait_percent),
        kswapd_cpu_percent: series::max(s, |x| x.host.kswapd_cpu_percent),
        shm_used_bytes: series::max_u64(s, |x| x.host.shm_used_bytes),
        disk_read_bytes_per_s: series::max(s, |x| x.host.disk_read_bytes_per_s),
        gpu_mem_used_bytes: s
            .iter()
            .flat_map(|x| x.gpus.iter().filter_map(|g| g.mem_used_bytes))
            .max(),
        oom_kills: match (first_oom, last_oom) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        },
    }
}
