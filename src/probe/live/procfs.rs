//! Pure parsers of the `/proc` and cgroup files the live sampler reads, tested on captured
//! text. Each returns what it found; a field the text lacks is `None` (old kernels have no
//! `oom_kill` counter and no `/proc/pressure`).

/// Counters from `/proc/vmstat` (totals since boot).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VmStat {
    /// Pages read in from swap (`pswpin`).
    pub pswpin: Option<u64>,
    /// Pages written out to swap (`pswpout`).
    pub pswpout: Option<u64>,
    /// Major page faults (`pgmajfault`).
    pub pgmajfault: Option<u64>,
    /// Processes killed by the OOM killer (`oom_kill`, kernel 4.13+).
    pub oom_kill: Option<u64>,
}

/// Parses `/proc/vmstat` (`name value` per line).
pub fn parse_vmstat(text: &str) -> VmStat {
    let mut v = VmStat::default();
    for (key, value) in key_values(text) {
        let slot = match key {
            "pswpin" => &mut v.pswpin,
            "pswpout" => &mut v.pswpout,
            "pgmajfault" => &mut v.pgmajfault,
            "oom_kill" => &mut v.oom_kill,
            _ => continue,
        };
        *slot = Some(value);
    }
    v
}

fn key_values(text: &str) -> impl Iterator<Item = (&str, u64)> {
    text.lines().filter_map(|line| {
        let mut parts = line.split_whitespace();
        let key = parts.next()?;
        let value = parts.next()?.parse().ok()?;
        Some((key, value))
    })
}

/// One pressure file (`/proc/pressure/memory`, `io`): the 10-second averages, percent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pressure {
    /// `some avg10`: share of time at least one task stalled.
    pub some_avg10: Option<f64>,
    /// `full avg10`: share of time all non-idle tasks stalled (absent for CPU on old kernels).
    pub full_avg10: Option<f64>,
}

/// Parses a PSI file: lines `some avg10=0.37 avg60=… total=…` and `full …`.
pub fn parse_pressure(text: &str) -> Pressure {
    let mut p = Pressure::default();
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        let slot = match parts.next() {
            Some("some") => &mut p.some_avg10,
            Some("full") => &mut p.full_avg10,
            _ => continue,
        };
        *slot = parts
            .find_map(|kv| kv.strip_prefix("avg10="))
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite() && (0.0..=100.0).contains(v));
    }
    p
}

/// The aggregate `cpu` line of `/proc/stat`, in clock ticks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTimes {
    /// Everything but idle and iowait: user, nice, system, irq, softirq, steal.
    pub busy: u64,
    /// `idle`.
    pub idle: u64,
    /// `iowait`.
    pub iowait: u64,
}

impl CpuTimes {
    /// All ticks.
    pub fn total(&self) -> u64 {
        self.busy + self.idle + self.iowait
    }
}

/// Parses the first (`cpu `) line of `/proc/stat`: `cpu user nice system idle iowait irq
/// softirq steal guest guest_nice`. Guest time is already inside user and nice (proc(5)), so
/// it is not added again. `None` when the line is missing or too short.
pub fn parse_cpu_times(text: &str) -> Option<CpuTimes> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    if v.len() < 5 {
        return None;
    }
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    Some(CpuTimes {
        busy: at(0) + at(1) + at(2) + at(5) + at(6) + at(7),
        idle: at(3),
        iowait: at(4),
    })
}

/// The OOM-kill count of a cgroup: `oom_kill` in cgroup v2's `memory.events`, or in v1's
/// `memory.oom_control` (kernel 4.13+).
pub fn parse_cgroup_oom_kills(text: &str) -> Option<u64> {
    key_values(text)
        .find(|(k, _)| *k == "oom_kill")
        .map(|(_, v)| v)
}

/// The fields of `/proc/PID/stat` the sampler uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PidStat {
    /// Process id.
    pub pid: u32,
    /// Command name (`comm`, at most 15 bytes, may hold spaces and parentheses).
    pub comm: String,
    /// State letter (`R`, `S`, `D`, `Z`, …).
    pub state: char,
    /// Parent process id.
    pub ppid: u32,
    /// User plus system CPU time, clock ticks.
    pub cpu_ticks: u64,
    /// Start time after boot, clock ticks (tells a reused PID from the original).
    pub start_ticks: u64,
    /// Resident pages.
    pub rss_pages: u64,
}

/// Parses `/proc/PID/stat`. The command name sits in parentheses and may itself contain
/// spaces and `)`, so the fields are counted from the last `)`.
pub fn parse_pid_stat(text: &str) -> Option<PidStat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let pid = text[..open].trim().parse().ok()?;
    let comm = text.get(open + 1..close)?.to_string();
    let rest: Vec<&str> = text[close + 1..].split_whitespace().collect();
    // rest[0] is field 3 (state); field n is rest[n - 3].
    let field = |n: usize| rest.get(n - 3)?.parse::<u64>().ok();
    Some(PidStat {
        pid,
        comm,
        state: rest.first()?.chars().next()?,
        ppid: u32::try_from(field(4)?).ok()?,
        cpu_ticks: field(14)?.checked_add(field(15)?)?,
        start_ticks: field(22)?,
        rss_pages: field(24)?,
    })
}

/// `Pss` from `/proc/PID/smaps_rollup` (kernel 4.14+), bytes.
pub fn parse_pss(text: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix("Pss:")?;
        let mut parts = rest.split_whitespace();
        let value: u64 = parts.next()?.parse().ok()?;
        match parts.next() {
            Some("kB") => value.checked_mul(1024),
            _ => None,
        }
    })
}

/// Sectors read per device from `/proc/diskstats`: (device name, sectors read). A sector is
/// 512 bytes there whatever the device's real sector size (Documentation/admin-guide/
/// iostats.rst).
pub fn parse_diskstats(text: &str) -> Vec<(String, u64)> {
    text.lines()
        .filter_map(|line| {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let name = parts.get(2)?;
            let sectors = parts.get(5)?.parse().ok()?;
            Some((name.to_string(), sectors))
        })
        .collect()
}

/// Bytes per sector in `/proc/diskstats`.
pub const DISKSTATS_SECTOR_BYTES: u64 = 512;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vmstat_captured_on_debian12() {
        // Captured on the CI machine (Linux 6.18, no swap configured).
        let v = parse_vmstat(include_str!(
            "../../../tests/fixtures/proc/vmstat-debian12.txt"
        ));
        assert_eq!(v.pswpin, Some(0));
        assert_eq!(v.pswpout, Some(0));
        assert_eq!(v.pgmajfault, Some(5564));
        assert_eq!(v.oom_kill, Some(0));
    }

    #[test]
    fn vmstat_of_an_old_kernel_has_no_oom_counter() {
        let v = parse_vmstat("pswpin 12\npswpout 40\npgmajfault 7\n");
        assert_eq!(v.oom_kill, None);
        assert_eq!(v.pswpout, Some(40));
    }

    #[test]
    fn pressure_captured_and_missing_lines() {
        let io = parse_pressure(include_str!("../../../tests/fixtures/proc/pressure-io.txt"));
        assert_eq!(io.some_avg10, Some(0.30));
        assert_eq!(io.full_avg10, Some(0.26));
        let mem = parse_pressure(include_str!(
            "../../../tests/fixtures/proc/pressure-memory.txt"
        ));
        assert_eq!(mem.some_avg10, Some(0.0));
        // The CPU file of kernels before 5.13 has no "full" line: unknown, not 0.
        let cpu = parse_pressure("some avg10=2.04 avg60=1.10 avg300=0.40 total=1234\n");
        assert_eq!(cpu.full_avg10, None);
        assert_eq!(parse_pressure(""), Pressure::default());
    }

    #[test]
    fn cpu_line_captured() {
        // cpu  164609 0 21159 32933 663 0 104 168 0 0
        let c = parse_cpu_times(include_str!("../../../tests/fixtures/proc/stat-cpu.txt")).unwrap();
        assert_eq!(c.busy, 164_609 + 21_159 + 104 + 168);
        assert_eq!(c.idle, 32_933);
        assert_eq!(c.iowait, 663);
        assert_eq!(parse_cpu_times("cpu0 1 2 3 4 5\n"), None);
        assert_eq!(parse_cpu_times("cpu 1 2 x 4 5\n"), None);
    }

    #[test]
    fn cgroup_oom_counters_v1_and_v2() {
        let v1 = include_str!("../../../tests/fixtures/proc/memory-oom_control-v1.txt");
        assert_eq!(parse_cgroup_oom_kills(v1), Some(0));
        let v2 = include_str!("../../../tests/fixtures/proc/memory-events-v2.txt");
        // `oom 3` counts the times the limit was hit; `oom_kill 2` the processes killed.
        assert_eq!(parse_cgroup_oom_kills(v2), Some(2));
        assert_eq!(parse_cgroup_oom_kills("oom 1\n"), None);
    }

    #[test]
    fn pid_stat_with_an_awkward_command_name() {
        // Captured from a python3 process, then the name changed to one with ") " inside.
        let line = "15322 (py ) (worker) R 15318 15318 22950 0 -1 4194304 2857 6592 0 0 \
                    2 1 3 0 20 0 1 0 110940 16961536 3385 18446744073709551615 0";
        let p = parse_pid_stat(line).unwrap();
        assert_eq!(p.pid, 15322);
        assert_eq!(p.comm, "py ) (worker");
        assert_eq!(p.state, 'R');
        assert_eq!(p.ppid, 15318);
        assert_eq!(p.cpu_ticks, 3);
        assert_eq!(p.start_ticks, 110_940);
        assert_eq!(p.rss_pages, 3385);
        assert_eq!(parse_pid_stat("12 (cut off"), None);
        assert_eq!(parse_pid_stat("12 (x) S 1 2"), None);
    }

    #[test]
    fn pss_from_smaps_rollup() {
        let text = "55e389b26000-7ffcebeeb000 ---p 00000000 00:00 0   [rollup]\n\
                    Rss:                1768 kB\nPss:                 441 kB\n\
                    Pss_Dirty:           116 kB\n";
        assert_eq!(parse_pss(text), Some(441 * 1024));
        assert_eq!(parse_pss("Rss: 5 kB\n"), None);
    }

    #[test]
    fn diskstats_of_a_workstation() {
        let d = parse_diskstats(include_str!(
            "../../../tests/fixtures/proc/diskstats-workstation.txt"
        ));
        assert_eq!(d.len(), 8);
        assert!(d.contains(&("nvme0n1".to_string(), 31_871_950)));
        assert!(d.contains(&("sda".to_string(), 5_244_690)));
        let vda = parse_diskstats(include_str!(
            "../../../tests/fixtures/proc/diskstats-vda.txt"
        ));
        assert_eq!(vda, vec![("vda".to_string(), 8_016_594)]);
    }
}
