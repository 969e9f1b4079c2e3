//! CPU quota of the cgroup this process runs in (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` /
//! `cpu.cfs_period_us`), and the CPUs a process may really use: its affinity mask (what
//! `taskset`, Slurm's cpusets and `docker --cpuset-cpus` set) and the quota (what
//! `docker --cpus` and Kubernetes CPU limits set), whichever is smaller. DataLoader
//! `num_workers` advice has to fit in that, not in the machine's core count.

use std::path::Path;

use super::cgroup::{parse_proc_cgroup, smallest_up};
use super::mounts::MountEntry;

/// Parses cgroup v2 `cpu.max`: `"400000 100000"` (quota and period, µs) → 4.0 CPUs; `"max …"`
/// (no quota) or anything malformed → `None`.
pub fn parse_cpu_max(text: &str) -> Option<f64> {
    let mut parts = text.split_whitespace();
    let quota = parts.next()?;
    let period: f64 = parts.next().map_or(Some(100_000.0), |p| p.parse().ok())?;
    if quota == "max" {
        return None;
    }
    let quota: f64 = quota.parse().ok()?;
    (quota > 0.0 && period > 0.0).then(|| quota / period)
}

/// Parses cgroup v1 `cpu.cfs_quota_us` and `cpu.cfs_period_us`; `-1` means no quota.
pub fn parse_cfs(quota: &str, period: &str) -> Option<f64> {
    let quota: i64 = quota.trim().parse().ok()?;
    let period: i64 = period.trim().parse().ok()?;
    (quota > 0 && period > 0).then(|| quota as f64 / period as f64)
}

/// The smallest CPU quota on the path from this process's cgroup up to the hierarchy's root,
/// in CPUs (`4.0` for `docker --cpus=4`); `None` without a quota. `read` returns a file's text
/// (tests pass captured files).
pub fn cpu_quota(
    proc_cgroup: &str,
    mounts: &[MountEntry],
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<f64> {
    let entries = parse_proc_cgroup(proc_cgroup);
    let (mount, path, v2) = if let Some(e) = entries
        .iter()
        .find(|e| e.hierarchy == 0 && e.controllers.is_empty())
        .filter(|_| mounts.iter().any(|m| m.fs_type == "cgroup2"))
    {
        (
            mounts.iter().find(|m| m.fs_type == "cgroup2")?,
            &e.path,
            true,
        )
    } else {
        let e = entries
            .iter()
            .find(|e| e.controllers.iter().any(|c| c == "cpu"))?;
        let m = mounts
            .iter()
            .find(|m| m.fs_type == "cgroup" && m.super_options.split(',').any(|o| o == "cpu"))?;
        (m, &e.path, false)
    };
    smallest_up(mount, path, |dir| {
        if v2 {
            read(&dir.join("cpu.max"))
                .as_deref()
                .and_then(parse_cpu_max)
        } else {
            match (
                read(&dir.join("cpu.cfs_quota_us")),
                read(&dir.join("cpu.cfs_period_us")),
            ) {
                (Some(q), Some(p)) => parse_cfs(&q, &p),
                _ => None,
            }
        }
    })
}

/// CPUs this process can keep busy: the affinity mask's count, capped by the quota rounded
/// down (2.5 CPUs of quota keep 2 workers busy; at least 1), as Rust's
/// `available_parallelism` counts them.
pub fn usable_cpus(affinity: Option<u32>, quota: Option<f64>) -> Option<u32> {
    let from_quota = quota.map(|q| (q.floor() as u32).max(1));
    match (affinity, from_quota) {
        (Some(a), Some(q)) => Some(a.min(q)),
        (a, q) => a.or(q),
    }
}

#[cfg(test)]
mod tests {
    use super::super::mounts::parse_mountinfo;
    use super::*;
    use std::collections::HashMap;
    use std::path::PathBuf;

    fn reader(files: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> + use<> {
        let map: HashMap<PathBuf, String> = files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect();
        move |p: &Path| map.get(p).cloned()
    }

    #[test]
    fn cpu_max_lines() {
        assert_eq!(parse_cpu_max("400000 100000\n"), Some(4.0));
        assert_eq!(parse_cpu_max("150000 100000"), Some(1.5));
        assert_eq!(parse_cpu_max("max 100000\n"), None);
        assert_eq!(parse_cpu_max("garbage"), None);
        assert_eq!(parse_cfs("-1\n", "100000\n"), None);
        assert_eq!(parse_cfs("200000\n", "100000\n"), Some(2.0));
    }

    #[test]
    fn docker_cpus_4_on_cgroup_v2() {
        // `docker run --cpus=4` with a private cgroup namespace: "0::/" and cpu.max at the root
        // of the container's view; the host's parent has no quota.
        let mounts = parse_mountinfo(
            "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
        );
        let read = reader(&[("/sys/fs/cgroup/cpu.max", "400000 100000\n")]);
        assert_eq!(cpu_quota("0::/\n", &mounts, &read), Some(4.0));
        // On a 64-CPU host with all CPUs in the affinity mask: 4 usable.
        assert_eq!(usable_cpus(Some(64), Some(4.0)), Some(4));
    }

    #[test]
    fn the_smallest_quota_on_the_path_wins_and_v1_is_read() {
        let mounts = parse_mountinfo(
            "40 25 0:35 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n",
        );
        let read = reader(&[
            (
                "/sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_quota_us",
                "800000\n",
            ),
            (
                "/sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_period_us",
                "100000\n",
            ),
            (
                "/sys/fs/cgroup/cpu,cpuacct/slurm/job_7/cpu.cfs_quota_us",
                "250000\n",
            ),
            (
                "/sys/fs/cgroup/cpu,cpuacct/slurm/job_7/cpu.cfs_period_us",
                "100000\n",
            ),
        ]);
        let cg = "4:cpu,cpuacct:/slurm/job_7\n3:memory:/slurm/job_7\n";
        assert_eq!(cpu_quota(cg, &mounts, &read), Some(2.5));
        // A Slurm job pinned to 8 CPUs with 2.5 CPUs of quota keeps 2 workers busy.
        assert_eq!(usable_cpus(Some(8), Some(2.5)), Some(2));
        assert_eq!(usable_cpus(Some(8), None), Some(8));
        assert_eq!(usable_cpus(None, Some(0.5)), Some(1));
        assert_eq!(usable_cpus(None, None), None);
    }
}
