//! STREAM-style memory bandwidth (John D. McCalpin, "STREAM: Sustainable Memory Bandwidth in
//! High Performance Computers", `stream.c`): the Copy, Scale, Add and Triad kernels over three
//! `f64` arrays, one thread per CPU this process may run on, each thread pinned to its CPU where
//! the OS allows and working on its own contiguous part of every array (which it touched first,
//! so the pages sit on its NUMA node).
//!
//! As in STREAM: every array is at least 4× the last-level cache; the first pass is a warm-up
//! and is not counted; each kernel's best (shortest) time over the timed passes gives its
//! bandwidth; bytes are counted as STREAM counts them (Copy and Scale move 16 bytes per element,
//! Add and Triad 24), in GB/s = 10^9 bytes/s; the results are checked against the values the
//! kernels must produce. The arrays are sized by [`array_bytes_for`] (at most 1 GiB for the three
//! and a tenth of the available RAM) and repeating stops when the time budget ([`TIME_BUDGET`]
//! in all, allocation included) would be passed.

use std::mem::MaybeUninit;
use std::path::Path;
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::BenchError;
use crate::profile::MemoryBandwidth;

pub use super::memory_size::{
    AVAILABLE_DIVISOR, CACHE_FACTOR, CacheEntry, DEFAULT_LLC_BYTES, MAX_TOTAL_BYTES, TIME_BUDGET,
    array_bytes_for, last_level_cache, meets_cache_rule, parse_cache_size, total_last_level_cache,
};

/// Repetitions differing by more than this fraction make a result "noisy" (issue 3).
pub const NOISY_SPREAD: f64 = 0.10;

/// STREAM's scalar `q` (`scalar = 3.0` in `stream.c`).
const SCALAR: f64 = 3.0;

/// The four kernels, in STREAM's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `c = a`
    Copy,
    /// `b = q·c`
    Scale,
    /// `c = a + b`
    Add,
    /// `a = b + q·c`
    Triad,
}

impl Kernel {
    /// All four, in order.
    pub const ALL: [Kernel; 4] = [Kernel::Copy, Kernel::Scale, Kernel::Add, Kernel::Triad];

    /// Bytes moved per element, as STREAM counts them (`bytes[4]` in `stream.c`:
    /// 2, 2, 3, 3 × `sizeof(STREAM_TYPE)`).
    pub fn bytes_per_element(self) -> u64 {
        match self {
            Kernel::Copy | Kernel::Scale => 2 * 8,
            Kernel::Add | Kernel::Triad => 3 * 8,
        }
    }
}

/// How to run the benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryBenchConfig {
    /// Elements per array (three arrays of `f64`).
    pub array_elements: usize,
    /// Worker threads.
    pub threads: usize,
    /// No further pass is started when it would end after this time from the start
    /// (allocation and first touch included).
    pub time_budget: Duration,
    /// At most this many timed passes (STREAM's `NTIMES` is 10).
    pub max_repetitions: u32,
}

impl MemoryBenchConfig {
    /// The configuration for this machine: one thread per usable CPU, arrays of
    /// [`array_bytes_for`] the last-level cache read from sysfs and the available RAM
    /// (STREAM's 4× the cache, at most 1 GiB for the three and a tenth of what is available),
    /// a [`TIME_BUDGET`] budget, 10 passes at most.
    pub fn for_this_machine(available_bytes: Option<u64>) -> MemoryBenchConfig {
        let bytes = array_bytes_for(last_level_cache(Path::new("/sys")), available_bytes);
        MemoryBenchConfig {
            array_elements: (bytes / 8) as usize,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            time_budget: TIME_BUDGET,
            max_repetitions: 10,
        }
    }
}

/// (slowest − fastest) / fastest of a kernel's times; 0 for fewer than two times.
pub fn spread(times: &[f64]) -> f64 {
    let min = times.iter().copied().fold(f64::INFINITY, f64::min);
    let max = times.iter().copied().fold(0.0, f64::max);
    if times.len() < 2 || min <= 0.0 {
        0.0
    } else {
        (max - min) / min
    }
}

/// Runs the benchmark. `progress` is called from a worker thread with the fraction done (0–1)
/// after each pass; setting `cancel` stops it after the pass under way.
///
/// # Errors
/// [`BenchError::Cancelled`] when `cancel` was set; [`BenchError::OutOfMemory`] when the arrays
/// can't be allocated; [`BenchError::Verification`] when the kernels' results are wrong.
pub fn run(
    config: &MemoryBenchConfig,
    cancel: &AtomicBool,
    progress: &(dyn Fn(f32) + Sync),
) -> Result<MemoryBandwidth, BenchError> {
    let start = Instant::now();
    let n = config.array_elements.max(1);
    let chunk = n.div_ceil(config.threads.clamp(1, n));
    // The parts actually made (9 elements over 4 threads make 3 parts of 3).
    let threads = n.div_ceil(chunk);
    if cancel.load(Ordering::Relaxed) {
        return Err(BenchError::Cancelled);
    }
    let alloc = || -> Result<Vec<f64>, BenchError> {
        let mut v: Vec<f64> = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|_| BenchError::OutOfMemory {
                bytes: 3 * 8 * n as u64,
            })?;
        Ok(v)
    };
    let (mut a, mut b, mut c) = (alloc()?, alloc()?, alloc()?);
    let cpus = allowed_cpus();
    let barrier = Barrier::new(threads);
    let stop = AtomicBool::new(false);
    let all_pinned = AtomicBool::new(true);
    // Times of each timed pass: [copy, scale, add, triad] in seconds (written by thread 0).
    let mut times: Vec<[f64; 4]> = Vec::new();
    let passes = std::thread::scope(|s| {
        let parts = a.spare_capacity_mut()[..n]
            .chunks_mut(chunk)
            .zip(b.spare_capacity_mut()[..n].chunks_mut(chunk))
            .zip(c.spare_capacity_mut()[..n].chunks_mut(chunk));
        let mut handles = Vec::new();
        let mut times_slot = Some(&mut times);
        for (id, ((pa, pb), pc)) in parts.enumerate() {
            let cpu = cpus.get(id % cpus.len().max(1)).copied();
            let (barrier, stop, all_pinned) = (&barrier, &stop, &all_pinned);
            let times = if id == 0 { times_slot.take() } else { None };
            handles.push(s.spawn(move || {
                if !cpu.is_some_and(pin_to) {
                    all_pinned.store(false, Ordering::Relaxed);
                }
                let (a, b, c) = (init(pa, 1.0), init(pb, 2.0), init(pc, 0.0));
                worker(
                    id, a, b, c, barrier, stop, times, config, start, cancel, progress,
                )
            }));
        }
        // Every thread counts the same passes; thread 0's count is the one returned.
        let mut passes = 0;
        for (i, h) in handles.into_iter().enumerate() {
            let p = h.join().expect("benchmark worker panicked");
            if i == 0 {
                passes = p;
            }
        }
        passes
    });
    // SAFETY: every element of the first `n` was written by `init` in the workers above.
    unsafe {
        a.set_len(n);
        b.set_len(n);
        c.set_len(n);
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(BenchError::Cancelled);
    }
    verify(&a, &b, &c, passes)?;
    let timed = &times[..];
    let best = |k: usize| timed.iter().map(|t| t[k]).fold(f64::INFINITY, f64::min);
    let rate = |k: usize| {
        let bytes = Kernel::ALL[k].bytes_per_element() as f64 * n as f64;
        let t = best(k);
        if t > 0.0 { bytes / t } else { f64::NAN }
    };
    let spread = (0..4)
        .map(|k| spread(&timed.iter().map(|t| t[k]).collect::<Vec<_>>()))
        .fold(0.0, f64::max);
    let max = crate::profile::limits::MAX_MEMORY_BYTES_PER_S;
    Ok(MemoryBandwidth {
        copy_bytes_per_s: super::plausible("copy_bytes_per_s", rate(0), max)?,
        scale_bytes_per_s: super::plausible("scale_bytes_per_s", rate(1), max)?,
        add_bytes_per_s: super::plausible("add_bytes_per_s", rate(2), max)?,
        triad_bytes_per_s: super::plausible("triad_bytes_per_s", rate(3), max)?,
        threads: threads as u32,
        pinned: all_pinned.load(Ordering::Relaxed),
        array_bytes: 8 * n as u64,
        repetitions: timed.len() as u32,
        spread,
        // One timed pass can't show whether the machine was steady: flag it too.
        noisy: spread > NOISY_SPREAD || timed.len() < 2,
        tool: Some(super::tool_name()),
    })
}

/// One kernel over this thread's part of the arrays, in the widest vector instructions the
/// CPU has: the loops are compiled once for the baseline target and once with AVX2 (x86-64),
/// chosen at run time, as a `-march=native` build of STREAM would be. No FMA: `b + q·c` is
/// rounded as STREAM's C code rounds it.
fn run_kernel(kernel: Kernel, a: &mut [f64], b: &mut [f64], c: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { kernel_avx2(kernel, a, b, c) };
            return;
        }
    }
    kernel_loops(kernel, a, b, c);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn kernel_avx2(kernel: Kernel, a: &mut [f64], b: &mut [f64], c: &mut [f64]) {
    kernel_loops(kernel, a, b, c);
}

/// STREAM's four loops (`stream.c`), written as iterator zips so that bounds checks vanish
/// and the compiler vectorises them.
#[inline(always)]
fn kernel_loops(kernel: Kernel, a: &mut [f64], b: &mut [f64], c: &mut [f64]) {
    match kernel {
        Kernel::Copy => {
            for (c, a) in c.iter_mut().zip(a.iter()) {
                *c = *a;
            }
        }
        Kernel::Scale => {
            for (b, c) in b.iter_mut().zip(c.iter()) {
                *b = SCALAR * *c;
            }
        }
        Kernel::Add => {
            for ((c, a), b) in c.iter_mut().zip(a.iter()).zip(b.iter()) {
                *c = *a + *b;
            }
        }
        Kernel::Triad => {
            for ((a, b), c) in a.iter_mut().zip(b.iter()).zip(c.iter()) {
                *a = *b + SCALAR * *c;
            }
        }
    }
}

/// Writes `value` into every element (the first touch, which places the pages) and returns the
/// part as initialised `f64`s.
fn init(part: &mut [MaybeUninit<f64>], value: f64) -> &mut [f64] {
    for x in part.iter_mut() {
        x.write(value);
    }
    // SAFETY: every element was just written; MaybeUninit<f64> has f64's layout.
    unsafe { std::slice::from_raw_parts_mut(part.as_mut_ptr().cast::<f64>(), part.len()) }
}

/// One worker's loop. Returns the number of passes run (warm-up included).
#[allow(clippy::too_many_arguments)]
fn worker(
    id: usize,
    a: &mut [f64],
    b: &mut [f64],
    c: &mut [f64],
    barrier: &Barrier,
    stop: &AtomicBool,
    mut times: Option<&mut Vec<[f64; 4]>>,
    config: &MemoryBenchConfig,
    start: Instant,
    cancel: &AtomicBool,
    progress: &(dyn Fn(f32) + Sync),
) -> u32 {
    let budget = config.time_budget.as_secs_f64();
    let mut passes = 0u32;
    loop {
        let mut t = [0.0f64; 4];
        let pass_start = Instant::now();
        for (k, kernel) in Kernel::ALL.iter().enumerate() {
            // The clock starts before the barrier and stops after the next one, as STREAM's
            // master thread times a whole parallel region: no thread can start before `t0`
            // (all wait for thread 0 here) and all have finished when the second barrier
            // opens. Starting it after the barrier would miss work a thread did while thread 0
            // was still being woken up, and overstate the bandwidth on a busy machine.
            let t0 = Instant::now();
            barrier.wait();
            run_kernel(*kernel, a, b, c);
            std::hint::black_box((&mut *a, &mut *b, &mut *c));
            barrier.wait();
            t[k] = t0.elapsed().as_secs_f64();
        }
        passes += 1;
        if id == 0 {
            let pass_time = pass_start.elapsed().as_secs_f64();
            let times = times.as_mut().expect("thread 0 records times");
            // The first pass is a warm-up, as in STREAM.
            if passes > 1 {
                times.push(t);
            }
            let timed = times.len() as u32;
            let elapsed = start.elapsed().as_secs_f64();
            let done = cancel.load(Ordering::Relaxed)
                || timed >= config.max_repetitions
                || (timed >= 1 && elapsed + pass_time > budget);
            progress(
                (elapsed / budget)
                    .max(f64::from(timed) / f64::from(config.max_repetitions.max(1)))
                    .min(1.0) as f32,
            );
            stop.store(done, Ordering::Relaxed);
        }
        barrier.wait();
        if stop.load(Ordering::Relaxed) {
            return passes;
        }
    }
}

/// Checks the arrays against the values STREAM's `checkSTREAMresults` predicts after `passes`
/// passes from a = 1, b = 2, c = 0. The values are small integers times powers of 15, exact in
/// `f64`, so any difference is an error.
fn verify(a: &[f64], b: &[f64], c: &[f64], passes: u32) -> Result<(), BenchError> {
    let (aj, bj, cj) = expected_after(passes);
    for (name, arr, want) in [("a", a, aj), ("b", b, bj), ("c", c, cj)] {
        let n = arr.len();
        for i in [0, n / 3, n / 2, n - 1] {
            let got = arr[i];
            if ((got - want) / want).abs() > 1e-13 {
                return Err(BenchError::Verification(format!(
                    "{name}[{i}] = {got}, expected {want} after {passes} passes"
                )));
            }
        }
    }
    Ok(())
}

/// (a, b, c) after `passes` passes of Copy, Scale, Add, Triad, starting from (1, 2, 0).
pub fn expected_after(passes: u32) -> (f64, f64, f64) {
    let (mut a, mut b, mut c) = (1.0f64, 2.0f64, 0.0f64);
    for _ in 0..passes {
        c = a;
        b = SCALAR * c;
        c = a + b;
        a = b + SCALAR * c;
    }
    (a, b, c)
}

/// CPUs this process may run on, in order.
#[cfg(target_os = "linux")]
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is a plain bit set; sched_getaffinity fills it for this process.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|i| libc::CPU_ISSET(*i, &set))
            .collect()
    }
}

#[cfg(not(target_os = "linux"))]
fn allowed_cpus() -> Vec<usize> {
    Vec::new()
}

/// Pins the calling thread to `cpu`; false when the OS refuses (or on other systems).
#[cfg(target_os = "linux")]
fn pin_to(cpu: usize) -> bool {
    // SAFETY: a zeroed cpu_set_t with one bit set; pid 0 is the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to(_cpu: usize) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(threads: usize, reps: u32) -> MemoryBenchConfig {
        MemoryBenchConfig {
            array_elements: 10_000,
            threads,
            // Far more than the tiny arrays need: the repetition limit ends the run.
            time_budget: Duration::from_secs(600),
            max_repetitions: reps,
        }
    }

    #[test]
    fn stream_byte_counts() {
        // stream.c: bytes[4] = {2, 2, 3, 3} * sizeof(STREAM_TYPE) * STREAM_ARRAY_SIZE.
        assert_eq!(Kernel::Copy.bytes_per_element(), 16);
        assert_eq!(Kernel::Scale.bytes_per_element(), 16);
        assert_eq!(Kernel::Add.bytes_per_element(), 24);
        assert_eq!(Kernel::Triad.bytes_per_element(), 24);
    }

    #[test]
    fn expected_values_follow_stream() {
        // One pass by hand: c = 1; b = 3·1 = 3; c = 1 + 3 = 4; a = 3 + 3·4 = 15.
        assert_eq!(expected_after(1), (15.0, 3.0, 4.0));
        // Each pass multiplies everything by 15.
        assert_eq!(expected_after(3), (3375.0, 675.0, 900.0));
    }

    #[test]
    fn runs_verifies_and_counts_passes() {
        let cancel = AtomicBool::new(false);
        let r = run(&tiny(2, 3), &cancel, &|_| {}).unwrap();
        assert_eq!(r.repetitions, 3);
        assert_eq!(r.array_bytes, 80_000);
        assert_eq!(r.threads, 2);
        for v in [
            r.copy_bytes_per_s,
            r.scale_bytes_per_s,
            r.add_bytes_per_s,
            r.triad_bytes_per_s,
        ] {
            assert!(v.is_finite() && v > 0.0, "{v}");
        }
        assert_eq!(r.noisy, r.spread > 0.10);
        // A single timed pass can't be judged steady.
        let one = run(&tiny(2, 1), &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!(one.repetitions, 1);
        assert_eq!(one.spread, 0.0);
        assert!(one.noisy);
    }

    #[test]
    fn uneven_split_over_three_threads_still_verifies() {
        let cfg = MemoryBenchConfig {
            array_elements: 1001,
            ..tiny(3, 2)
        };
        let r = run(&cfg, &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!(r.array_bytes, 8008);
        // 9 elements over 4 threads: parts of 3, so 3 threads (no thread without work).
        let cfg = MemoryBenchConfig {
            array_elements: 9,
            ..tiny(4, 2)
        };
        let r = run(&cfg, &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!(r.threads, 3);
    }

    #[test]
    fn cancel_before_start_and_during_run() {
        assert!(matches!(
            run(&tiny(2, 3), &AtomicBool::new(true), &|_| {}),
            Err(BenchError::Cancelled)
        ));
        // Cancelled from the progress callback after the first pass: no result, and it stops
        // long before the 1,000,000 passes it was allowed.
        let cancel = AtomicBool::new(false);
        let calls = std::sync::atomic::AtomicU32::new(0);
        let r = run(&tiny(2, 1_000_000), &cancel, &|_| {
            calls.fetch_add(1, Ordering::Relaxed);
            cancel.store(true, Ordering::Relaxed);
        });
        assert!(matches!(r, Err(BenchError::Cancelled)));
        assert!(calls.load(Ordering::Relaxed) <= 2);
    }

    #[test]
    fn spread_and_noise() {
        assert_eq!(spread(&[1.0]), 0.0);
        assert!((spread(&[1.0, 1.05, 1.02]) - 0.05).abs() < 1e-12);
        assert!(spread(&[0.1, 0.12]) > NOISY_SPREAD);
    }
}
