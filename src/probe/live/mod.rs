//! Live sampling: this machine (and one process tree) read every interval into trace
//! [`Sample`]s. Reads `/proc`, `/sys/fs/cgroup`, `/dev/shm` and NVML; the parsers are pure and
//! live in [`procfs`] and [`tree`]. Rates are counter differences over the time between two
//! readings, so every sample's rates are known when the counter is (the sampler reads once
//! when created). Elsewhere than Linux only the GPU readings are filled in; the rest is `null`.
//!
//! Cost: see `docs/benchmarks.md` ("Live sampling"). The one expensive read, a process's
//! proportional set size (`smaps_rollup` walks its page tables), paces itself to
//! [`PSS_BUDGET_SHARE`] of the time; samples in between carry `pss_bytes: null`.

pub mod gpu;
pub mod procfs;
pub mod tree;
pub mod watch;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::trace::{HostSample, ProcessSample, Sample};
use gpu::GpuMeter;
use procfs::{CpuTimes, DISKSTATS_SECTOR_BYTES, PidStat, VmStat};

/// Reading PSS may take at most this share of the time: 0.5 %. After a read that took `c`
/// seconds of CPU the next waits `c / 0.005` (at most [`PSS_MAX_GAP`]). The kernel walks the
/// process's page tables for `smaps_rollup`: measured on the CI VM at 20–50 ms of CPU for a
/// 1.5 GiB process (docs/benchmarks.md), so PSS comes every 4–10 s there, RSS every sample.
pub const PSS_BUDGET_SHARE: f64 = 0.005;

/// The longest wait between two PSS reads: 10 s, so that one slow read doesn't leave the
/// peak PSS unmeasured for long.
pub const PSS_MAX_GAP: Duration = Duration::from_secs(10);

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Counters of one reading, for the rates of the next.
struct Counters {
    at: Instant,
    vm: VmStat,
    cpu: Option<CpuTimes>,
    kswapd_ticks: Option<u64>,
    disk_sectors: Option<u64>,
}

/// The watched process: its PID, and its start time once seen (a PID reused by another
/// process is not the same process).
struct Target {
    pid: u32,
    start_ticks: Option<u64>,
    ended: bool,
}

/// The profile a trace of `target` starts with: `profile` with `memory.limit_bytes` set to
/// the limit of the watched process's cgroup (see [`crate::probe::cgroup_memory_limit`]), which
/// the cgroup counters of the samples are compared with. Without a target, `profile` as is.
pub fn profile_for_target(
    mut profile: crate::profile::MachineProfile,
    target: Option<u32>,
) -> crate::profile::MachineProfile {
    if let Some(pid) = target {
        profile.memory.limit_bytes = crate::probe::cgroup_memory_limit(Some(pid));
    }
    profile
}

/// Reads this machine into samples. Create it once, call [`Sampler::sample`] every interval.
pub struct Sampler {
    start: Instant,
    previous: Counters,
    gpus: Box<dyn GpuMeter>,
    target: Option<Target>,
    tree_cpu: HashMap<u32, (u64, u64)>,
    tree_cpu_at: Option<Instant>,
    pss_next: Instant,
    kswapd: Vec<u32>,
    disks: Vec<String>,
    cgroup_usage: Option<PathBuf>,
    cgroup_oom: Option<PathBuf>,
    shm_mounted: bool,
    ticks_per_s: f64,
    page_bytes: u64,
}

impl Sampler {
    /// A sampler for this machine, and the process tree of `target` when given; GPUs from
    /// `gpus`. Reads the counters once, so that the first sample has rates.
    pub fn new(target: Option<u32>, gpus: Box<dyn GpuMeter>) -> Sampler {
        let (ticks_per_s, page_bytes) = system_units();
        let processes = all_processes();
        let kswapd = processes
            .iter()
            .filter(|p| p.comm.starts_with("kswapd"))
            .map(|p| p.pid)
            .collect();
        let mountinfo = read(Path::new("/proc/self/mountinfo")).unwrap_or_default();
        let mounts = crate::probe::mounts::parse_mountinfo(&mountinfo);
        let (cgroup_usage, cgroup_oom) = cgroup_files(&mounts, target);
        let mut s = Sampler {
            start: Instant::now(),
            previous: Counters {
                at: Instant::now(),
                vm: VmStat::default(),
                cpu: None,
                kswapd_ticks: None,
                disk_sectors: None,
            },
            gpus,
            target: target.map(|pid| Target {
                pid,
                start_ticks: None,
                ended: false,
            }),
            tree_cpu: HashMap::new(),
            tree_cpu_at: None,
            pss_next: Instant::now(),
            kswapd,
            disks: physical_disks(Path::new("/sys/block")),
            cgroup_usage,
            cgroup_oom,
            shm_mounted: mounts.iter().any(|m| m.mount_point == "/dev/shm"),
            ticks_per_s,
            page_bytes,
        };
        s.previous = s.counters();
        if s.target.is_some() {
            let _ = s.process(&processes);
        }
        s
    }

    /// True once the watched process has ended (or never existed).
    pub fn target_ended(&self) -> bool {
        self.target.as_ref().is_some_and(|t| t.ended)
    }

    fn counters(&self) -> Counters {
        let kswapd_ticks = if self.kswapd.is_empty() {
            None
        } else {
            self.kswapd
                .iter()
                .map(|pid| {
                    read(&PathBuf::from(format!("/proc/{pid}/stat")))
                        .as_deref()
                        .and_then(procfs::parse_pid_stat)
                        .map(|p| p.cpu_ticks)
                })
                .sum::<Option<u64>>()
        };
        let disk_sectors = if self.disks.is_empty() {
            None
        } else {
            read(Path::new("/proc/diskstats")).map(|t| {
                procfs::parse_diskstats(&t)
                    .into_iter()
                    .filter(|(name, _)| self.disks.contains(name))
                    .map(|(_, s)| s)
                    .sum()
            })
        };
        Counters {
            at: Instant::now(),
            vm: read(Path::new("/proc/vmstat"))
                .as_deref()
                .map(procfs::parse_vmstat)
                .unwrap_or_default(),
            cpu: read(Path::new("/proc/stat"))
                .as_deref()
                .and_then(procfs::parse_cpu_times),
            kswapd_ticks,
            disk_sectors,
        }
    }

    /// Reads everything once. `t` is the time since the sampler was created, rounded to the
    /// millisecond.
    pub fn sample(&mut self) -> Sample {
        let now = self.counters();
        let dt = now.at.duration_since(self.previous.at).as_secs_f64();
        let host = self.host(&now, dt);
        self.previous = now;
        let process = if self.target.as_ref().is_some_and(|t| !t.ended) {
            self.process(&all_processes())
        } else {
            None
        };
        Sample {
            t: round3(self.start.elapsed().as_secs_f64()),
            host,
            gpus: self.gpus.read(),
            process,
        }
    }

    fn host(&self, now: &Counters, dt: f64) -> HostSample {
        let prev = &self.previous;
        let rate = |a: Option<u64>, b: Option<u64>| per_s(a, b, dt);
        let mem = read(Path::new("/proc/meminfo"))
            .as_deref()
            .map(crate::probe::meminfo::parse_meminfo)
            .unwrap_or_default();
        let pressure = |f: &str| {
            read(&Path::new("/proc/pressure").join(f))
                .as_deref()
                .map(procfs::parse_pressure)
                .unwrap_or_default()
        };
        let (pm, pio) = (pressure("memory"), pressure("io"));
        let (busy, iowait) = cpu_shares(prev.cpu, now.cpu);
        let shm = self.shm_mounted.then(shm_space).flatten();
        HostSample {
            mem_available_bytes: mem.available,
            page_cache_bytes: mem.page_cache(),
            swap_used_bytes: mem.swap_used(),
            swap_in_pages_per_s: rate(prev.vm.pswpin, now.vm.pswpin),
            swap_out_pages_per_s: rate(prev.vm.pswpout, now.vm.pswpout),
            major_faults_per_s: rate(prev.vm.pgmajfault, now.vm.pgmajfault),
            psi_memory_some_avg10: pm.some_avg10,
            psi_memory_full_avg10: pm.full_avg10,
            psi_io_some_avg10: pio.some_avg10,
            cpu_busy_percent: busy,
            iowait_percent: iowait,
            kswapd_cpu_percent: rate(prev.kswapd_ticks, now.kswapd_ticks)
                .map(|t| round3(t / self.ticks_per_s * 100.0)),
            oom_kills_total: now.vm.oom_kill,
            cgroup_oom_kills_total: self
                .cgroup_oom
                .as_deref()
                .and_then(read)
                .as_deref()
                .and_then(procfs::parse_cgroup_oom_kills),
            cgroup_mem_used_bytes: self
                .cgroup_usage
                .as_deref()
                .and_then(read)
                .and_then(|t| t.trim().parse().ok()),
            shm_used_bytes: shm.map(|s| s.total.saturating_sub(s.available)),
            shm_total_bytes: shm.map(|s| s.total),
            disk_read_bytes_per_s: rate(prev.disk_sectors, now.disk_sectors)
                .map(|s| s * DISKSTATS_SECTOR_BYTES as f64),
        }
    }

    /// The watched tree from a process list: RSS summed, PSS when its pace allows, CPU since
    /// the last reading, workers.
    fn process(&mut self, all: &[PidStat]) -> Option<ProcessSample> {
        let target = self.target.as_mut()?;
        let members = tree::tree(target.pid, all);
        let root = members.first().filter(|r| r.state != 'Z');
        let alive = match (root, target.start_ticks) {
            (Some(r), Some(start)) => r.start_ticks == start,
            (Some(r), None) => {
                target.start_ticks = Some(r.start_ticks);
                true
            }
            (None, _) => false,
        };
        if !alive {
            target.ended = true;
            return None;
        }
        let pid = target.pid;
        let now = Instant::now();
        let (ticks, table) = tree::cpu_ticks_since(&self.tree_cpu, &members);
        let cpu_percent = self
            .tree_cpu_at
            .map(|at| now.duration_since(at).as_secs_f64())
            .filter(|dt| *dt > 0.0)
            .map(|dt| round3(ticks as f64 / self.ticks_per_s / dt * 100.0));
        self.tree_cpu = table;
        self.tree_cpu_at = Some(now);
        let rss = members
            .iter()
            .map(|p| p.rss_pages.saturating_mul(self.page_bytes))
            .sum();
        let pss = if now >= self.pss_next {
            let started = thread_cpu_seconds();
            let pss = members
                .iter()
                .map(|p| {
                    read(&PathBuf::from(format!("/proc/{}/smaps_rollup", p.pid)))
                        .as_deref()
                        .and_then(procfs::parse_pss)
                })
                .sum::<Option<u64>>();
            // CPU time, not wall time: on a busy machine a 0.3 ms read can take 50 ms of wall
            // time while this thread waits for a core, which costs the machine nothing.
            let cost = match (started, thread_cpu_seconds()) {
                (Some(a), Some(b)) => (b - a).max(0.0),
                _ => 0.0,
            };
            let wait = (cost / PSS_BUDGET_SHARE).min(PSS_MAX_GAP.as_secs_f64());
            self.pss_next = Instant::now() + Duration::from_secs_f64(wait);
            pss
        } else {
            None
        };
        Some(ProcessSample {
            pid,
            rss_bytes: Some(rss),
            pss_bytes: pss,
            cpu_percent,
            workers: Some(members.len().saturating_sub(1) as u32),
        })
    }
}

/// Events per second between two readings of a counter; `None` when either is unknown, the
/// counter went backwards (a reset) or no time passed.
pub fn per_s(before: Option<u64>, after: Option<u64>, dt: f64) -> Option<f64> {
    let (a, b) = (before?, after?);
    (b >= a && dt > 0.0).then(|| round3((b - a) as f64 / dt))
}

/// CPU busy and iowait shares between two `/proc/stat` readings, percent.
pub fn cpu_shares(before: Option<CpuTimes>, after: Option<CpuTimes>) -> (Option<f64>, Option<f64>) {
    let (Some(a), Some(b)) = (before, after) else {
        return (None, None);
    };
    let total = b.total().saturating_sub(a.total());
    if total == 0 || b.total() < a.total() {
        return (None, None);
    }
    let share = |x: u64, y: u64| Some(round3(y.saturating_sub(x) as f64 / total as f64 * 100.0));
    (share(a.busy, b.busy), share(a.iowait, b.iowait))
}

/// CPU time this thread has used, seconds (`CLOCK_THREAD_CPUTIME_ID`); `None` where the clock
/// can't be read.
fn thread_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec into the local it is given.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Every process's `/proc/PID/stat` (processes that end while being read are skipped).
fn all_processes() -> Vec<PidStat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let e = e.ok()?;
        let name = e.file_name();
        let name = name.to_str()?;
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        procfs::parse_pid_stat(&read(&e.path().join("stat"))?)
    })
    .collect()
}

/// Whole physical disks: entries of `/sys/block` with a `device` link (partitions are not
/// listed there; loop, zram and device-mapper devices have no `device`, so reads are not
/// counted twice).
fn physical_disks(sys_block: &Path) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(sys_block) else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let e = e.ok()?;
        e.path()
            .join("device")
            .exists()
            .then(|| e.file_name().to_string_lossy().into_owned())
    })
    .collect()
}

/// The cgroup files of the watched process (`target`), else of this one: memory in use
/// (`memory.current`, v1 `memory.usage_in_bytes`) and the OOM-kill counter (`memory.events`,
/// v1 `memory.oom_control`). A job watched from outside it (`watch --pid` from a login shell
/// beside a Slurm job or a container) is in another cgroup than ramvram; when its
/// `/proc/PID/cgroup` can't be read, both are `None` (unknown), never ramvram's own.
fn cgroup_files(
    mounts: &[crate::probe::mounts::MountEntry],
    target: Option<u32>,
) -> (Option<PathBuf>, Option<PathBuf>) {
    use crate::probe::cgroup;
    let Some(text) = read(&crate::probe::proc_cgroup_path(target)) else {
        return (None, None);
    };
    let entries = cgroup::parse_proc_cgroup(&text);
    let v2 = entries
        .iter()
        .find(|e| e.hierarchy == 0 && e.controllers.is_empty())
        .and_then(|e| {
            let m = mounts.iter().find(|m| m.fs_type == "cgroup2")?;
            Some(cgroup::cgroup_dir(m, &e.path))
        })
        .filter(|d| d.join("memory.current").exists());
    if let Some(dir) = v2 {
        return (
            Some(dir.join("memory.current")),
            Some(dir.join("memory.events")),
        );
    }
    let v1 = entries
        .iter()
        .find(|e| e.controllers.iter().any(|c| c == "memory"))
        .and_then(|e| {
            let m = mounts.iter().find(|m| {
                m.fs_type == "cgroup" && m.super_options.split(',').any(|o| o == "memory")
            })?;
            Some(cgroup::cgroup_dir(m, &e.path))
        })
        .filter(|d| d.join("memory.usage_in_bytes").exists());
    match v1 {
        Some(dir) => (
            Some(dir.join("memory.usage_in_bytes")),
            Some(dir.join("memory.oom_control")),
        ),
        None => (None, None),
    }
}

fn shm_space() -> Option<crate::probe::statfs::FsSpace> {
    match crate::probe::statfs::statvfs_with_timeout(
        Path::new("/dev/shm"),
        crate::probe::MOUNT_TIMEOUT,
    ) {
        crate::probe::statfs::StatOutcome::Space(s) => Some(s),
        _ => None,
    }
}

/// Clock ticks per second and the page size (`sysconf`), with Linux's usual 100 and 4096 when
/// they can't be read.
fn system_units() -> (f64, u64) {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads configuration values.
        let (tck, page) = unsafe {
            (
                libc::sysconf(libc::_SC_CLK_TCK),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        (
            if tck > 0 { tck as f64 } else { 100.0 },
            if page > 0 { page as u64 } else { 4096 },
        )
    }
    #[cfg(not(unix))]
    {
        (100.0, 4096)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_from_counters() {
        // 1,000 pages in 2 s: 500 pages/s.
        assert_eq!(per_s(Some(5000), Some(6000), 2.0), Some(500.0));
        assert_eq!(per_s(None, Some(6000), 2.0), None);
        // A counter that went backwards was reset: unknown, not negative.
        assert_eq!(per_s(Some(6000), Some(10), 2.0), None);
        let a = CpuTimes {
            busy: 1000,
            idle: 3000,
            iowait: 100,
        };
        let b = CpuTimes {
            busy: 1150,
            idle: 3040,
            iowait: 110,
        };
        // 200 ticks in all: 150 busy (75 %), 10 waiting (5 %).
        assert_eq!(cpu_shares(Some(a), Some(b)), (Some(75.0), Some(5.0)));
        assert_eq!(cpu_shares(Some(a), Some(a)), (None, None));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn sampling_this_machine_and_this_process() {
        let mut s = Sampler::new(Some(std::process::id()), Box::new(gpu::NoGpus));
        // Long enough for the kernel's CPU tick counters (100 per second per CPU) to move.
        std::thread::sleep(Duration::from_millis(200));
        let x = s.sample();
        let text = std::fs::read_to_string("/proc/meminfo").unwrap();
        let total = crate::probe::meminfo::parse_meminfo(&text).total.unwrap();
        let available = x.host.mem_available_bytes.unwrap();
        assert!(available > 0 && available <= total);
        assert!(x.host.swap_in_pages_per_s.is_some(), "{:?}", x.host);
        let busy = x.host.cpu_busy_percent.unwrap();
        assert!((0.0..=100.0).contains(&busy));
        let p = x.process.expect("this test process is alive");
        assert_eq!(p.pid, std::process::id());
        assert!(p.rss_bytes.unwrap() > 1 << 20);
        assert!(!s.target_ended());
        // A PID that does not exist ends at once.
        let mut gone = Sampler::new(Some(u32::MAX - 1), Box::new(gpu::NoGpus));
        assert!(gone.target_ended());
        assert_eq!(gone.sample().process, None);
        // ...and its cgroup is unknown, never ramvram's own.
        assert_eq!(gone.sample().host.cgroup_mem_used_bytes, None);
        assert_eq!(gone.sample().host.cgroup_oom_kills_total, None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_limit_is_the_watched_process_cgroups() {
        let mut planted = crate::profile::MachineProfile::unknown();
        planted.memory.limit_bytes = Some(12345);
        // A process that doesn't exist: its limit is unknown, not the detected one.
        let gone = profile_for_target(planted.clone(), Some(u32::MAX - 1));
        assert_eq!(gone.memory.limit_bytes, None);
        // This process: the same cgroup as ramvram's, read from /proc/PID/cgroup.
        let me = profile_for_target(planted.clone(), Some(std::process::id()));
        assert_eq!(
            me.memory.limit_bytes,
            crate::probe::cgroup_memory_limit(None)
        );
        // Watching the machine keeps the profile as detected.
        assert_eq!(
            profile_for_target(planted, None).memory.limit_bytes,
            Some(12345)
        );
    }
}
