//! Recognisers on synthetic traces; every expected number is worked out by hand in the test.

use super::*;
use crate::advisor::{AdviceId, Severity};
use crate::trace::synthetic::{self, build};

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

fn ids(s: &Summary) -> Vec<&'static str> {
    let mut v: Vec<&str> = s.diagnoses.iter().map(|d| d.id.as_str()).collect();
    v.sort_unstable();
    v
}

fn only(s: &Summary, id: DiagnosisId) -> &Diagnosis {
    let found: Vec<&Diagnosis> = s.diagnoses.iter().filter(|d| d.id == id).collect();
    assert_eq!(found.len(), 1, "{:?}", s.diagnoses);
    found[0]
}

fn num(d: &Diagnosis, name: &str) -> f64 {
    match d.evidence.get(name) {
        Some(
            Evidence::Percent(v)
            | Evidence::Share(v)
            | Evidence::Seconds(v)
            | Evidence::PerSecond(v)
            | Evidence::Watts(v)
            | Evidence::BytesPerSecond(v),
        ) => *v,
        Some(Evidence::Bytes(b) | Evidence::Count(b)) => *b as f64,
        Some(Evidence::Text(t)) => panic!("{name} is text: {t}"),
        None => panic!("{:?} has no {name}: {:?}", d.id, d.evidence),
    }
}

#[test]
fn sawtooth_with_busy_workers_is_gpu_starved_with_its_duty_cycle_and_period() {
    // 120 s; busy at t = 0, 4, 8, …, 116, idle in between. The saw-tooth starts with the idle
    // half at t = 1 and ends with the last busy sample at t = 116: 116 samples, of which the
    // 29 at t = 4, 8, …, 116 are busy. Duty 29 / 116 = 0.25; rises 4 s apart.
    let s = diagnose(&synthetic::sawtooth(120, 4));
    assert_eq!(ids(&s), ["gpu-starved", "power-unstable"]);
    let d = only(&s, DiagnosisId::GpuStarved);
    assert_eq!((d.from_s, d.to_s), (1.0, 116.0));
    assert!((num(d, "duty_cycle") - 0.25).abs() < 1e-12);
    assert!((num(d, "period") - 4.0).abs() < 1e-12);
    assert_eq!(num(d, "cycles"), 29.0);
    // 500 % CPU over 1 root + 4 workers: 100 % each.
    assert_eq!(num(d, "loader_cpu"), 100.0);
    assert_eq!(num(d, "workers"), 4.0);
    // Duty below one half: critical; CPU-bound advice first.
    assert_eq!(d.severity, Severity::Critical);
    assert_eq!(
        d.recommendations,
        [
            AdviceId::IncreaseNumWorkers,
            AdviceId::GpuDecode,
            AdviceId::PreResize
        ]
    );
    // Power 90 ↔ 380 W: every busy sample is two jumps of 290 W (≥ 0.3 × 380 = 114 W).
    let p = only(&s, DiagnosisId::PowerUnstable);
    assert_eq!((num(p, "power_min"), num(p, "power_max")), (90.0, 380.0));
    // Jumps at 0→1, 3→4, 4→5, …, 115→116, 116→117: 1 + 2 × 29 = 59.
    assert_eq!(num(p, "jumps"), 59.0);
    assert_eq!((p.from_s, p.to_s), (0.0, 117.0));
}

#[test]
fn steady_95_percent_gives_nothing() {
    let s = diagnose(&synthetic::steady(300));
    assert!(s.diagnoses.is_empty(), "{:?}", s.diagnoses);
    assert_eq!(s.samples, 300);
    assert_eq!(s.duration_s, 300.0);
    assert_eq!(s.peaks.process_rss_bytes, Some(12 * GIB));
}

#[test]
fn sawtooth_without_a_busy_loader_or_io_wait_is_no_conclusion() {
    // The same saw-tooth, but the loader idles (70 % per process), the CPUs are 30 % busy and
    // there's no I/O wait: something else (validation, a synchronous step) makes it.
    let mut t = synthetic::sawtooth(60, 4);
    for s in &mut t.samples {
        s.host.cpu_busy_percent = Some(30.0);
        s.process.as_mut().unwrap().cpu_percent = Some(350.0);
    }
    assert!(!ids(&diagnose(&t)).contains(&"gpu-starved"));
    // And with nothing known about the loader, the CPUs or I/O: still no conclusion.
    for s in &mut t.samples {
        s.host.cpu_busy_percent = None;
        s.host.iowait_percent = None;
        s.host.psi_io_some_avg10 = None;
        s.process = None;
    }
    assert!(!ids(&diagnose(&t)).contains(&"gpu-starved"));
}

#[test]
fn sawtooth_waiting_on_storage_names_io() {
    // Busy 3 s in every 4 (t % 4 ≠ 3): duty over t = 3 … 118? The first idle half is t = 3,
    // the first rise t = 4, the last busy sample t = 58 in a 60 s trace. From t = 3 to t = 58
    // there are 56 samples, 14 of them idle (t = 3, 7, …, 55): duty 42 / 56 = 0.75.
    let t = build(60, |i, s| {
        let busy = i % 4 != 3;
        s.gpus[0].util_percent = Some(if busy { 99.0 } else { 0.0 });
        s.host.iowait_percent = Some(35.0);
    });
    let s = diagnose(&t);
    let d = only(&s, DiagnosisId::GpuStarved);
    assert_eq!((d.from_s, d.to_s), (3.0, 58.0));
    assert!((num(d, "duty_cycle") - 0.75).abs() < 1e-12);
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(num(d, "iowait"), 35.0);
    assert!(!d.evidence.contains_key("loader_cpu"));
    assert_eq!(
        d.recommendations,
        [AdviceId::PackShards, AdviceId::CopyToLocalNvme]
    );
    // The I/O wait itself, for the whole 60 s.
    let io = only(&s, DiagnosisId::IoBound);
    assert_eq!((io.from_s, io.to_s), (0.0, 59.0));
    assert_eq!(num(io, "duration"), 60.0);
}

#[test]
fn two_dips_are_not_a_sawtooth() {
    // Idle at t = 10 and t = 20 only (an epoch boundary, a checkpoint): two rises, below three.
    let t = build(40, |i, s| {
        if i == 10 || i == 20 {
            s.gpus[0].util_percent = Some(0.0);
        }
        s.host.cpu_busy_percent = Some(99.0);
    });
    assert!(diagnose(&t).diagnoses.is_empty());
}

#[test]
fn swap_storm_is_thrashing_and_memory_near_its_limit() {
    let s = diagnose(&synthetic::swap_storm());
    assert_eq!(ids(&s), ["ram-near-limit", "swap-thrashing"]);
    let d = only(&s, DiagnosisId::SwapThrashing);
    assert_eq!((d.from_s, d.to_s), (20.0, 39.0));
    assert_eq!(num(d, "swap_in"), 5000.0);
    assert_eq!(num(d, "swap_out"), 6000.0);
    // Swap used at t = 39: (39 − 19) × 300 MiB = 6000 MiB.
    assert_eq!(num(d, "swap_used"), (6000 * MIB) as f64);
    // PSI full 15 % ≥ 10 %: critical.
    assert_eq!(d.severity, Severity::Critical);
    // Used: 64 GiB − 1 GiB available + 6000 MiB swapped = 68.86 GiB; with 10 % headroom
    // 76.5 GiB; the next common size is 96 GiB.
    assert_eq!(num(d, "target"), (96 * GIB) as f64);
    assert_eq!(
        d.recommendations,
        [
            AdviceId::ReduceNumWorkers,
            AdviceId::StreamDataset,
            AdviceId::AddRam
        ]
    );
    // 1 GiB of 64 GiB available is 1.56 %, below 5 %.
    let r = only(&s, DiagnosisId::RamNearLimit);
    assert_eq!((r.from_s, r.to_s), (20.0, 39.0));
    assert_eq!(num(r, "available"), GIB as f64);
    assert!((num(r, "share") - 1.0 / 64.0).abs() < 1e-12);
}

#[test]
fn a_short_swap_burst_is_not_thrashing() {
    // Four seconds of swap-in: below the 5 s a symptom must last.
    let t = build(30, |i, s| {
        if (10..14).contains(&i) {
            s.host.swap_in_pages_per_s = Some(4000.0);
        }
    });
    assert!(diagnose(&t).diagnoses.is_empty());
}

#[test]
fn an_oom_kill_counter_step_names_the_lost_worker() {
    let s = diagnose(&synthetic::oom_kill());
    assert_eq!(ids(&s), ["oom-killed"]);
    let d = only(&s, DiagnosisId::OomKilled);
    assert_eq!((d.from_s, d.to_s), (29.0, 30.0));
    assert_eq!(num(d, "kills"), 1.0);
    // Five processes (root + 4 workers) before, four after.
    assert_eq!(num(d, "lost_processes"), 1.0);
    assert_eq!(num(d, "pid"), 4242.0);
    assert_eq!(d.severity, Severity::Critical);
    assert_eq!(s.peaks.oom_kills, Some(1));
    // An unknown counter on one side is no step.
    let mut t = synthetic::oom_kill();
    t.samples[29].host.oom_kills_total = None;
    assert!(diagnose(&t).diagnoses.is_empty());
}

#[test]
fn a_cgroup_kill_asks_to_raise_the_limit() {
    let mut t = synthetic::oom_kill();
    t.header.profile.as_mut().unwrap().memory.limit_bytes = Some(16 * GIB);
    for s in &mut t.samples {
        s.host.oom_kills_total = Some(3);
        s.host.cgroup_oom_kills_total = Some(if s.t >= 30.0 { 2 } else { 0 });
    }
    let d = only(&diagnose(&t), DiagnosisId::OomKilled).clone();
    assert_eq!(num(&d, "kills"), 2.0);
    assert_eq!(num(&d, "cgroup_kills"), 2.0);
    assert_eq!(num(&d, "limit"), (16 * GIB) as f64);
    assert_eq!(num(&d, "physical"), (64 * GIB) as f64);
    assert!(d.recommendations.contains(&AdviceId::RaiseLimit));
}

#[test]
fn shm_filling_up_is_exhausted_from_90_percent() {
    let s = diagnose(&synthetic::shm_filling());
    assert_eq!(ids(&s), ["shm-exhausted"]);
    let d = only(&s, DiagnosisId::ShmExhausted);
    // 64 MiB × t ≥ 0.9 × 2048 MiB = 1843.2 MiB from t = 29 (1856 MiB) to the end.
    assert_eq!((d.from_s, d.to_s), (29.0, 39.0));
    assert_eq!(num(d, "shm_used"), (2 * GIB) as f64);
    assert_eq!(num(d, "share"), 1.0);
    assert_eq!(d.severity, Severity::Critical);
    // It needed at least its 2 GiB; twice that is 4 GiB, above the default need of 2.3 GiB.
    assert_eq!(num(d, "needed"), (2 * GIB) as f64);
    assert_eq!(num(d, "recommended"), (4 * GIB) as f64);
    assert_eq!(d.evidence["shm_flag"], Evidence::Text("4g".into()));
    assert_eq!(d.recommendations[0], AdviceId::GrowShm);
}

#[test]
fn reading_more_than_the_cache_holds_without_it_growing_is_page_cache_thrashing() {
    // 600 MB/s for 60 s = 36 GB read, against a page cache stuck at 20 GiB (21.5 GB).
    let t = build(60, |_, s| {
        s.host.disk_read_bytes_per_s = Some(600e6);
        s.host.major_faults_per_s = Some(900.0);
    });
    let s = diagnose(&t);
    assert_eq!(ids(&s), ["page-cache-thrashing"]);
    let d = only(&s, DiagnosisId::PageCacheThrashing);
    // The first sample stands for one interval too: 60 × 1 s × 600 MB/s.
    assert_eq!(num(d, "read"), 36e9);
    assert_eq!(num(d, "cache"), (20 * GIB) as f64);
    // The same reads into a cache that grows by what is read: a first epoch that fits.
    let t = build(60, |i, s| {
        s.host.disk_read_bytes_per_s = Some(600e6);
        s.host.page_cache_bytes = Some(2 * GIB + (i as u64) * 600_000_000);
    });
    assert!(diagnose(&t).diagnoses.is_empty());
}

#[test]
fn pcie_traffic_near_the_link_rate_is_saturated() {
    // PCIe 4.0 x16: 16 GT/s × 128/130 / 8 × 16 lanes = 31.51 GB/s per direction; 28 GB/s is
    // 88.9 % of it, above 80 %.
    let link = 16e9 * 128.0 / 130.0 / 8.0 * 16.0;
    let t = build(30, |i, s| {
        if (5..15).contains(&i) {
            s.gpus[0].pcie_rx_bytes_per_s = Some(28e9);
        }
    });
    let s = diagnose(&t);
    assert_eq!(ids(&s), ["pcie-saturated"]);
    let d = only(&s, DiagnosisId::PcieSaturated);
    assert_eq!((d.from_s, d.to_s), (5.0, 14.0));
    assert!((num(d, "link") - link).abs() < 1.0);
    assert!((num(d, "share") - 28e9 / link).abs() < 1e-12);
    // Without a link in the profile there is nothing to compare with.
    let mut t = t;
    t.header.profile.as_mut().unwrap().gpus[0].pcie = None;
    assert!(diagnose(&t).diagnoses.is_empty());
}

#[test]
fn a_cgroup_near_its_limit_is_ram_near_limit() {
    // A 16 GiB job limit with 15.5 GiB charged: 96.9 % > 95 %.
    let mut t = build(10, |i, s| {
        s.host.cgroup_mem_used_bytes = Some(if i >= 6 { 15 * GIB + GIB / 2 } else { 8 * GIB });
    });
    t.header.profile.as_mut().unwrap().memory.limit_bytes = Some(16 * GIB);
    let s = diagnose(&t);
    let d = only(&s, DiagnosisId::RamNearLimit);
    assert_eq!((d.from_s, d.to_s), (6.0, 9.0));
    assert_eq!(num(d, "limit"), (16 * GIB) as f64);
    assert!((num(d, "share") - 15.5 / 16.0).abs() < 1e-12);
    assert!(d.recommendations.contains(&AdviceId::RaiseLimit));
}

#[test]
fn missing_psi_and_counters_conclude_nothing() {
    // An old kernel: no PSI, no oom_kill counter, nothing about swap rates.
    let t = build(60, |_, s| {
        let h = &mut s.host;
        h.psi_memory_some_avg10 = None;
        h.psi_memory_full_avg10 = None;
        h.psi_io_some_avg10 = None;
        h.oom_kills_total = None;
        h.swap_in_pages_per_s = None;
        h.iowait_percent = None;
    });
    let s = diagnose(&t);
    assert!(s.diagnoses.is_empty());
    assert_eq!(s.peaks.psi_memory_some_avg10, None);
    assert_eq!(s.peaks.oom_kills, None);
}

#[test]
fn diagnoses_are_most_severe_first_then_by_time() {
    let mut t = synthetic::sawtooth(120, 4);
    for s in &mut t.samples {
        if s.t >= 100.0 {
            s.host.oom_kills_total = Some(4);
        }
    }
    let s = diagnose(&t);
    let order: Vec<(Severity, f64)> = s.diagnoses.iter().map(|d| (d.severity, d.from_s)).collect();
    assert_eq!(
        order,
        [
            (Severity::Critical, 1.0),
            (Severity::Critical, 99.0),
            (Severity::Info, 0.0)
        ]
    );
    // The last 30 s alone: too few cycles? No: rises at 92, 96, …, 116 are still 7.
    let late = diagnose_since(&t, 90.0);
    assert!(
        late.diagnoses
            .iter()
            .any(|d| d.id == DiagnosisId::GpuStarved)
    );
    assert_eq!(late.samples, 30);
}

#[test]
fn json_shape_names_units() {
    let s = diagnose(&synthetic::shm_filling());
    let v = serde_json::to_value(&s).unwrap();
    let d = &v["diagnoses"][0];
    assert_eq!(d["id"], "shm-exhausted");
    assert_eq!(d["severity"], "critical");
    assert_eq!(d["evidence"]["shm"]["unit"], "bytes");
    assert_eq!(d["evidence"]["shm"]["value"], 2 * GIB);
    assert_eq!(d["from_s"], 29.0);
    assert_eq!(d["recommendations"][0], "grow-shm");
    assert_eq!(v["peaks"]["shm_used_bytes"], 2 * GIB);
}

#[test]
fn a_healthy_trace_checks_everything() {
    // Every value of `healthy` is known, the profile knows RAM and the PCIe link.
    let s = diagnose(&synthetic::steady(30));
    assert_eq!(s.unchecked, Vec::<Unchecked>::new());
    assert!(DiagnosisId::ALL.iter().all(|id| s.checked(*id)));
}

#[test]
fn checks_without_their_data_are_unchecked_not_passed() {
    use MissingData as M;
    let missing = |t: &Trace| -> Vec<(DiagnosisId, MissingData)> {
        diagnose(t)
            .unchecked
            .iter()
            .map(|u| (u.check, u.missing))
            .collect()
    };
    // No GPUs (a machine without NVML): the three GPU checks can't look; the rest can.
    let no_gpus = build(10, |_, s| s.gpus.clear());
    assert_eq!(
        missing(&no_gpus),
        [
            (DiagnosisId::GpuStarved, M::Gpus),
            (DiagnosisId::PcieSaturated, M::Gpus),
            (DiagnosisId::PowerUnstable, M::Gpus),
        ]
    );
    // GPUs whose series are all null (an exporter without DCGM's fields).
    let gpu_nulls = build(10, |_, s| {
        s.gpus[0] = crate::trace::GpuSample {
            index: 0,
            ..Default::default()
        }
    });
    assert_eq!(
        missing(&gpu_nulls),
        [
            (DiagnosisId::GpuStarved, M::GpuUtil),
            (DiagnosisId::PcieSaturated, M::PcieTraffic),
            (DiagnosisId::PowerUnstable, M::GpuPower),
        ]
    );
    // Every host value null, no watched process, no GPU, no profile: nothing can look.
    let mut empty = build(10, |_, s| {
        s.host = crate::trace::HostSample::default();
        s.gpus.clear();
        s.process = None;
    });
    empty.header.profile = None;
    let all = missing(&empty);
    assert_eq!(all.len(), DiagnosisId::ALL.len(), "{all:?}");
    assert!(all.contains(&(DiagnosisId::SwapThrashing, M::SwapIn)));
    assert!(all.contains(&(DiagnosisId::PageCacheThrashing, M::DiskReads)));
    assert!(all.contains(&(DiagnosisId::IoBound, M::IoWait)));
    assert!(all.contains(&(DiagnosisId::ShmExhausted, M::Shm)));
    assert!(all.contains(&(DiagnosisId::OomKilled, M::OomKills)));
    assert!(all.contains(&(DiagnosisId::RamNearLimit, M::AvailableMemory)));
    // GPU utilisation but no CPU load, I/O wait or watched process: no cause to tell.
    let no_cause = build(10, |_, s| {
        s.host.cpu_busy_percent = None;
        s.host.iowait_percent = None;
        s.host.psi_io_some_avg10 = None;
        s.process = None;
    });
    assert!(missing(&no_cause).contains(&(DiagnosisId::GpuStarved, M::CpuLoad)));
    // The OOM counter known in one sample only: no step to see a kill in.
    let one_counter = build(10, |i, s| {
        s.host.oom_kills_total = (i == 4).then_some(3);
    });
    assert_eq!(
        missing(&one_counter),
        [(DiagnosisId::OomKilled, M::OomKills)]
    );
    // Available memory known, RAM not: nothing to compare it with.
    let mut no_ram = synthetic::steady(10);
    no_ram.header.profile.as_mut().unwrap().memory.total_bytes = None;
    assert_eq!(missing(&no_ram), [(DiagnosisId::RamNearLimit, M::RamSize)]);
    // Disk reads null: page-cache thrashing can't look, swapping still can.
    let no_reads = build(10, |_, s| s.host.disk_read_bytes_per_s = None);
    assert_eq!(
        missing(&no_reads),
        [(DiagnosisId::PageCacheThrashing, M::DiskReads)]
    );
}

/// Issue 25: the recognisers look each GPU up in each sample by index; with a linear search
/// that is quadratic in the GPUs (8,000 GPU series from Prometheus took 97 s). 16,000 GPUs × 20
/// samples are 320,000 lookups; by binary search (14 steps each) this takes about a second in
/// a debug build, where the linear search makes 16,000 × 16,000 / 2 × 20 = 2.6 billion
/// comparisons per pass (about 30 s here). The bound is loose for a busy machine.
#[test]
fn many_gpus_are_diagnosed_in_time_linear_in_the_gpus() {
    let trace = build(20, |i, s| {
        let g = s.gpus[0].clone();
        s.gpus = (0..16_000u32)
            .map(|k| crate::trace::GpuSample {
                index: k,
                util_percent: Some(if i % 4 == 0 { 98.0 } else { 2.0 }),
                ..g.clone()
            })
            .collect();
    });
    let started = std::time::Instant::now();
    let summary = diagnose(&trace);
    let took = started.elapsed().as_secs_f64();
    assert!(took < 10.0, "{took:.1} s for 16,000 GPUs");
    // Every GPU was looked at: its utilisation peak is the busy one.
    assert_eq!(summary.samples, 20);
}

/// A trace at a scrape interval of `interval_s`: `n` samples, `busy(i)` saying whether the GPU
/// is busy (98 %) or idle (2 %) in sample i, and `edit` for the rest.
fn coarse(
    n: usize,
    interval_s: f64,
    busy: impl Fn(usize) -> bool,
    edit: impl Fn(&mut crate::trace::Sample),
) -> Trace {
    let mut t = build(n, |i, s| {
        s.t = i as f64 * interval_s;
        s.gpus[0].util_percent = Some(if busy(i) { 98.0 } else { 2.0 });
        edit(s);
    });
    t.header.interval_s = interval_s;
    t
}

/// Issue 25: at a 15 s scrape interval, a GPU that idles 45 s of every 75 (2 samples busy, 3
/// idle) for 20 minutes while the host's CPUs are 95 % busy. Each half lasts 30–45 s, so the
/// saw-tooth recogniser calls them phases; the low duty cycle over minutes is still starvation.
#[test]
fn a_gpu_underfed_at_15_s_resolution_is_starved() {
    let trace = coarse(
        80,
        15.0,
        |i| i % 5 < 2,
        |s| s.host.cpu_busy_percent = Some(95.0),
    );
    let s = diagnose(&trace);
    let d = only(&s, DiagnosisId::GpuStarved);
    // 80 samples, 2 of every 5 busy: 32 / 80 = 0.4, under 0.5: critical.
    assert_eq!(num(d, "duty_cycle"), 0.4);
    assert_eq!(d.severity, Severity::Critical);
    // All 80 samples of 15 s: 79 × 15 + 15 = 1,200 s.
    assert_eq!(num(d, "span"), 1200.0);
    assert_eq!(num(d, "host_cpu"), 95.0);
    assert!(!d.evidence.contains_key("period"), "no saw-tooth seen");
    assert!(d.recommendations.contains(&AdviceId::IncreaseNumWorkers));
}

/// The same at 60 s: busy one sample in three (60 s of every 180) for 30 minutes, the loader's
/// five processes at 100 % of a core each (500 % in all).
#[test]
fn a_gpu_underfed_at_60_s_resolution_is_starved() {
    let trace = coarse(
        30,
        60.0,
        |i| i % 3 == 0,
        |s| s.process.as_mut().unwrap().cpu_percent = Some(500.0),
    );
    let s = diagnose(&trace);
    let d = only(&s, DiagnosisId::GpuStarved);
    // 10 busy of 30: 1/3.
    assert!((num(d, "duty_cycle") - 1.0 / 3.0).abs() < 1e-12);
    // 500 % over 4 workers and the main process: 100 % each.
    assert_eq!(num(d, "loader_cpu"), 100.0);
    assert_eq!(num(d, "span"), 1800.0);
}

/// No cause in sight, a GPU never idle, a GPU never busy (not in use), or too short a trace:
/// nothing.
#[test]
fn a_low_duty_cycle_alone_or_briefly_is_not_starvation() {
    let cases = [
        // CPUs 40 % busy, the loader at 70 % per process: the GPU's pace is its own.
        coarse(
            80,
            15.0,
            |i| i % 5 < 2,
            |s| s.host.cpu_busy_percent = Some(40.0),
        ),
        coarse(80, 15.0, |_| true, |s| s.host.cpu_busy_percent = Some(95.0)),
        coarse(
            80,
            15.0,
            |_| false,
            |s| s.host.cpu_busy_percent = Some(95.0),
        ),
        // 2 minutes at 15 s: 8 samples, under the 3 minutes needed.
        coarse(
            8,
            15.0,
            |i| i % 5 < 2,
            |s| s.host.cpu_busy_percent = Some(95.0),
        ),
    ];
    for (k, t) in cases.iter().enumerate() {
        assert!(
            !ids(&diagnose(t)).contains(&"gpu-starved"),
            "case {k}: {:?}",
            diagnose(t).diagnoses
        );
    }
}
