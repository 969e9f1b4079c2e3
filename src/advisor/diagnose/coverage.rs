//! Which checks a trace has the data for. A recogniser that finds nothing because the values it
//! reads were never in the trace has not passed: it could not look. This says which checks
//! could not, and what they lacked, from the trace's values alone (a value is "in the trace"
//! when at least one sample knows it).

use serde::{Deserialize, Serialize};

use super::DiagnosisId;
use crate::trace::{Sample, Trace};

/// What a check needed and no sample had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MissingData {
    /// No GPU in any sample.
    Gpus,
    /// GPUs, but never their utilisation.
    GpuUtil,
    /// Neither the machine's CPU load, nor the watched processes' CPU, nor I/O wait or I/O
    /// pressure: a saw-tooth alone says nothing about why the GPU waits, so `gpu-starved`
    /// never concludes without one of them.
    CpuLoad,
    /// Swap-in rates (`swap-thrashing`; `page-cache-thrashing` tells reading from swapping
    /// with them).
    SwapIn,
    /// Disk reads or the page cache's size.
    DiskReads,
    /// Neither I/O wait nor PSI I/O pressure.
    IoWait,
    /// `/dev/shm`'s use or size.
    Shm,
    /// The kernel's and the cgroup's OOM-kill counters, each known in fewer than two
    /// consecutive samples (a kill is a counter going up between two).
    OomKills,
    /// Available memory (and, for a cgroup limit, the cgroup's use).
    AvailableMemory,
    /// The machine's RAM size (and a cgroup limit): nothing to compare available memory with.
    RamSize,
    /// PCIe traffic.
    PcieTraffic,
    /// The GPUs' PCIe link (generation and width) in the trace's profile.
    PcieLink,
    /// Power draw.
    GpuPower,
}

/// A check the trace has no data for, and what it lacked (the first thing missing, in the
/// order the check needs them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unchecked {
    /// The check: the diagnosis it would give.
    pub check: DiagnosisId,
    /// What it lacked.
    pub missing: MissingData,
}

fn any(trace: &Trace, f: impl Fn(&Sample) -> bool) -> bool {
    trace.samples.iter().any(f)
}

fn any_gpu(trace: &Trace, f: impl Fn(&crate::trace::GpuSample) -> bool) -> bool {
    trace.samples.iter().any(|s| s.gpus.iter().any(&f))
}

/// Known in two consecutive samples.
fn pair(trace: &Trace, f: impl Fn(&Sample) -> bool) -> bool {
    trace.samples.windows(2).any(|w| f(&w[0]) && f(&w[1]))
}

/// What `check` lacks in `trace`, or `None` when it had data to look at.
pub fn missing(trace: &Trace, check: DiagnosisId) -> Option<MissingData> {
    use DiagnosisId as D;
    use MissingData as M;
    let h = |f: fn(&crate::trace::HostSample) -> bool| any(trace, |s| f(&s.host));
    let gpus = any(trace, |s| !s.gpus.is_empty());
    let profile = trace.header.profile.as_ref();
    let need = |ok: bool, m: MissingData| (!ok).then_some(m);
    match check {
        D::GpuStarved => need(gpus, M::Gpus)
            .or_else(|| need(any_gpu(trace, |g| g.util_percent.is_some()), M::GpuUtil))
            .or_else(|| {
                let cause = h(|h| {
                    h.cpu_busy_percent.is_some()
                        || h.iowait_percent.is_some()
                        || h.psi_io_some_avg10.is_some()
                }) || any(trace, |s| {
                    s.process
                        .as_ref()
                        .is_some_and(|p| p.cpu_percent.is_some() && p.processes().is_some())
                });
                need(cause, M::CpuLoad)
            }),
        D::SwapThrashing => need(h(|h| h.swap_in_pages_per_s.is_some()), M::SwapIn),
        D::PageCacheThrashing => need(
            h(|h| h.disk_read_bytes_per_s.is_some()) && h(|h| h.page_cache_bytes.is_some()),
            M::DiskReads,
        )
        .or_else(|| need(h(|h| h.swap_in_pages_per_s.is_some()), M::SwapIn)),
        D::IoBound => need(
            h(|h| h.iowait_percent.is_some() || h.psi_io_some_avg10.is_some()),
            M::IoWait,
        ),
        D::ShmExhausted => need(
            h(|h| h.shm_used_bytes.is_some() && h.shm_total_bytes.is_some_and(|t| t > 0)),
            M::Shm,
        ),
        D::OomKilled => need(
            pair(trace, |s| s.host.oom_kills_total.is_some())
                || pair(trace, |s| s.host.cgroup_oom_kills_total.is_some()),
            M::OomKills,
        ),
        D::RamNearLimit => {
            let total = profile.and_then(|p| p.memory.total_bytes).is_some();
            let limit = profile.and_then(|p| p.memory.limit_bytes).is_some();
            let available = h(|h| h.mem_available_bytes.is_some());
            let cgroup = h(|h| h.cgroup_mem_used_bytes.is_some());
            if (total && available) || (limit && cgroup) {
                None
            } else if !available && !cgroup {
                Some(M::AvailableMemory)
            } else {
                Some(M::RamSize)
            }
        }
        D::PcieSaturated => need(gpus, M::Gpus)
            .or_else(|| {
                need(
                    any_gpu(trace, |g| {
                        g.pcie_rx_bytes_per_s.is_some() || g.pcie_tx_bytes_per_s.is_some()
                    }),
                    M::PcieTraffic,
                )
            })
            .or_else(|| {
                let link = profile.is_some_and(|p| {
                    p.gpus.iter().any(|g| {
                        g.pcie.is_some_and(|l| {
                            l.width_current.or(l.width_max).is_some()
                                && l.gen_max.or(l.gen_gpu_max).or(l.gen_current).is_some()
                        })
                    })
                });
                need(link, M::PcieLink)
            }),
        D::PowerUnstable => need(gpus, M::Gpus)
            .or_else(|| need(any_gpu(trace, |g| g.power_w.is_some()), M::GpuPower)),
    }
}

/// Every check the trace has no data for, in [`DiagnosisId::ALL`]'s order.
pub fn unchecked(trace: &Trace) -> Vec<Unchecked> {
    DiagnosisId::ALL
        .iter()
        .filter_map(|&check| missing(trace, check).map(|missing| Unchecked { check, missing }))
        .collect()
}
