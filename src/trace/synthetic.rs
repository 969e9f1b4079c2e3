//! Synthetic traces of the seed's symptoms, for tests, demos and the committed fixtures in
//! `tests/fixtures/traces/`. Pure: the same arguments always give the same trace.
//!
//! The machine is a workstation with 64 GiB of RAM, 8 GiB of swap, a 32 GiB `/dev/shm` and one
//! RTX 4090 on PCIe 4.0 x16. A healthy moment ([`healthy`]) has 40 GiB available, 20 GiB of page
//! cache, no swapping or pressure, the GPU 95 % busy at 300 W, and a training process of 12 GiB
//! RSS with four DataLoader workers using 350 % CPU (70 % per process).

use super::{GpuSample, HostSample, ProcessSample, Sample, Trace, TraceHeader};
use crate::profile::{Gpu, GpuVendor, MachineProfile, PcieLink};

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

/// The workstation the synthetic traces come from.
pub fn profile() -> MachineProfile {
    let mut p = MachineProfile::unknown();
    p.generated_by = Some("ramvram synthetic trace".into());
    p.host.hostname = Some("synthetic-4090".into());
    p.cpu.logical_cpus = Some(16);
    p.memory.total_bytes = Some(64 * GIB);
    p.memory.swap_total_bytes = Some(8 * GIB);
    p.memory.shm_bytes = Some(32 * GIB);
    p.gpus = vec![Gpu {
        index: 0,
        vendor: GpuVendor::Nvidia,
        name: Some("NVIDIA GeForce RTX 4090".into()),
        vram_total_bytes: Some(24_564 * MIB),
        pcie: Some(PcieLink {
            gen_current: Some(4),
            gen_max: Some(4),
            gen_gpu_max: Some(4),
            width_current: Some(16),
            width_max: Some(16),
        }),
        ..Gpu::unknown()
    }];
    p
}

/// A healthy moment at `t` seconds (see the module docs for its numbers).
pub fn healthy(t: f64) -> Sample {
    Sample {
        t,
        host: HostSample {
            mem_available_bytes: Some(40 * GIB),
            page_cache_bytes: Some(20 * GIB),
            swap_used_bytes: Some(0),
            swap_in_pages_per_s: Some(0.0),
            swap_out_pages_per_s: Some(0.0),
            major_faults_per_s: Some(2.0),
            psi_memory_some_avg10: Some(0.0),
            psi_memory_full_avg10: Some(0.0),
            psi_io_some_avg10: Some(0.5),
            cpu_busy_percent: Some(30.0),
            iowait_percent: Some(1.0),
            kswapd_cpu_percent: Some(0.0),
            oom_kills_total: Some(3),
            cgroup_oom_kills_total: None,
            cgroup_mem_used_bytes: None,
            shm_used_bytes: Some(GIB),
            shm_total_bytes: Some(32 * GIB),
            disk_read_bytes_per_s: Some(5e6),
        },
        gpus: vec![GpuSample {
            index: 0,
            util_percent: Some(95.0),
            mem_used_bytes: Some(20 * GIB),
            power_w: Some(300.0),
            pcie_rx_bytes_per_s: Some(2e9),
            pcie_tx_bytes_per_s: Some(0.2e9),
        }],
        process: Some(ProcessSample {
            pid: 4242,
            rss_bytes: Some(12 * GIB),
            pss_bytes: Some(10 * GIB),
            cpu_percent: Some(350.0),
            workers: Some(4),
        }),
    }
}

/// `n` healthy samples one second apart, changed by `edit(i, sample)`.
pub fn build(n: usize, edit: impl Fn(usize, &mut Sample)) -> Trace {
    let mut trace = Trace::new(TraceHeader::new(Some(profile()), 1.0));
    for i in 0..n {
        let mut s = healthy(i as f64);
        edit(i, &mut s);
        trace.samples.push(s);
    }
    trace
}

/// The seed's saw-tooth: for `n` seconds the GPU is busy (98 %, 380 W) one second in every
/// `period_s` (at t = 0, period, 2·period, …) and idle (2 %, 90 W) otherwise, while the four
/// workers and the main process are CPU-bound (500 % CPU, 100 % each) and the machine's CPUs
/// 97 % busy: decoding can't keep up.
pub fn sawtooth(n: usize, period_s: usize) -> Trace {
    build(n, |i, s| {
        let busy = i % period_s.max(1) == 0;
        let g = &mut s.gpus[0];
        g.util_percent = Some(if busy { 98.0 } else { 2.0 });
        g.power_w = Some(if busy { 380.0 } else { 90.0 });
        s.host.cpu_busy_percent = Some(97.0);
        if let Some(p) = &mut s.process {
            p.cpu_percent = Some(500.0);
        }
    })
}

/// The GPU steadily 95 % busy for `n` seconds: nothing to diagnose.
pub fn steady(n: usize) -> Trace {
    build(n, |_, _| {})
}

/// A swap storm from t = 20 to t = 39 in a 60 s trace: 5,000 pages/s in, 6,000 out, kswapd at
/// 60 % of a core, PSI memory some 40 % / full 15 %, 1 GiB available, swap filling to 6 GiB.
pub fn swap_storm() -> Trace {
    build(60, |i, s| {
        s.gpus.clear();
        if (20..40).contains(&i) {
            let h = &mut s.host;
            h.swap_in_pages_per_s = Some(5000.0);
            h.swap_out_pages_per_s = Some(6000.0);
            h.kswapd_cpu_percent = Some(60.0);
            h.psi_memory_some_avg10 = Some(40.0);
            h.psi_memory_full_avg10 = Some(15.0);
            h.mem_available_bytes = Some(GIB);
            h.page_cache_bytes = Some(GIB / 2);
            h.swap_used_bytes = Some((i as u64 - 19) * 300 * MIB);
        }
    })
}

/// The OOM killer takes one DataLoader worker at t = 30 in a 40 s trace: the kernel's counter
/// steps from 3 to 4 and the watched tree drops from four workers to three.
pub fn oom_kill() -> Trace {
    build(40, |i, s| {
        if i >= 30 {
            s.host.oom_kills_total = Some(4);
            if let Some(p) = &mut s.process {
                p.workers = Some(3);
                p.rss_bytes = Some(9 * GIB);
            }
        }
    })
}

/// `/dev/shm` of 2 GiB (Docker with `--shm-size=2g`) filling by 64 MiB a second for 40 s until
/// full at t = 32.
pub fn shm_filling() -> Trace {
    build(40, |i, s| {
        s.host.shm_total_bytes = Some(2 * GIB);
        s.host.shm_used_bytes = Some((i as u64 * 64 * MIB).min(2 * GIB));
    })
}
