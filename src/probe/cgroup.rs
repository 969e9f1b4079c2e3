//! Memory limit of the cgroup this process runs in (cgroup v1 and v2).
//!
//! Containers (Docker `--memory`, Kubernetes limits), Slurm jobs (`--mem`) and systemd slices
//! cap memory below physical RAM; that cap, not `MemTotal`, is what a training job can use.

use std::path::{Path, PathBuf};

use super::mounts::MountEntry;

/// Limits at or above this are "unlimited": cgroup v1 writes `PAGE_COUNTER_MAX × page size`
/// (9223372036854771712 with 4 KiB pages) when no limit is set. 2^60 bytes = 1 EiB.
const UNLIMITED_FLOOR: u64 = 1 << 60;

/// One line of `/proc/self/cgroup`: `hierarchy-id:controller-list:path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgroupEntry {
    /// Hierarchy id (`0` for the cgroup v2 unified hierarchy).
    pub hierarchy: u32,
    /// Controllers bound to the hierarchy (empty for v2).
    pub controllers: Vec<String>,
    /// Path of this process's cgroup inside the hierarchy.
    pub path: String,
}

/// Parses `/proc/self/cgroup`. Malformed lines are skipped.
pub fn parse_proc_cgroup(text: &str) -> Vec<CgroupEntry> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let hierarchy = parts.next()?.parse().ok()?;
            let controllers = parts.next()?;
            let path = parts.next()?.to_string();
            Some(CgroupEntry {
                hierarchy,
                controllers: controllers
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .map(str::to_string)
                    .collect(),
                path,
            })
        })
        .collect()
}

/// Parses a limit file: cgroup v2 `memory.max` (`max` or bytes) or v1
/// `memory.limit_in_bytes`. `None` means no limit.
pub fn parse_limit(text: &str) -> Option<u64> {
    let t = text.trim();
    if t == "max" {
        return None;
    }
    t.parse::<u64>().ok().filter(|&v| v < UNLIMITED_FLOOR)
}

/// The effective memory limit in bytes: the smallest limit on the path from this process's
/// cgroup up to the root of the mounted hierarchy (a parent's limit caps its children).
/// Prefers cgroup v2 when it has the memory controller, else the v1 `memory` hierarchy.
///
/// `read` returns a file's text, or `None` when it can't be read; tests pass captured files.
/// Returns `None` when there is no limit or no readable cgroup.
pub fn memory_limit(
    proc_cgroup: &str,
    mounts: &[MountEntry],
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<u64> {
    let entries = parse_proc_cgroup(proc_cgroup);
    let v2 = entries
        .iter()
        .find(|e| e.hierarchy == 0 && e.controllers.is_empty());
    let v1 = entries
        .iter()
        .find(|e| e.controllers.iter().any(|c| c == "memory"));
    if let Some(entry) = v2 {
        if let Some(mount) = mounts.iter().find(|m| m.fs_type == "cgroup2") {
            let dir = cgroup_dir(mount, &entry.path);
            // Only a v2 hierarchy with the memory controller enabled has memory.max.
            if read(&dir.join("memory.max")).is_some()
                || read(&mount_path(mount).join("cgroup.controllers"))
                    .is_some_and(|c| c.split_whitespace().any(|x| x == "memory"))
            {
                return smallest_limit(mount, &entry.path, "memory.max", read);
            }
        }
    }
    let entry = v1?;
    let mount = mounts
        .iter()
        .find(|m| m.fs_type == "cgroup" && m.super_options.split(',').any(|o| o == "memory"))?;
    smallest_limit(mount, &entry.path, "memory.limit_in_bytes", read)
}

pub(super) fn mount_path(mount: &MountEntry) -> PathBuf {
    PathBuf::from(&mount.mount_point)
}

/// The folder of `cgroup_path` under `mount`, accounting for a mount whose root is not `/`
/// (Docker with cgroup v1 mounts `/docker/<id>` at `/sys/fs/cgroup/memory`).
pub(super) fn cgroup_dir(mount: &MountEntry, cgroup_path: &str) -> PathBuf {
    let relative = cgroup_path
        .strip_prefix(mount.root.as_str())
        .unwrap_or(cgroup_path)
        .trim_start_matches('/');
    let mut dir = mount_path(mount);
    if !relative.is_empty() {
        dir.push(relative);
    }
    dir
}

fn smallest_limit(
    mount: &MountEntry,
    cgroup_path: &str,
    file: &str,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<u64> {
    smallest_up(mount, cgroup_path, |dir| {
        read(&dir.join(file)).as_deref().and_then(parse_limit)
    })
}

/// The smallest of `value` over the folders from `cgroup_path`'s up to `mount`'s top: a
/// parent's limit applies to every cgroup below it, so the tightest on the path is the one a
/// process meets (memory limits, CPU quotas). `None` when no folder has one.
pub(super) fn smallest_up<T: PartialOrd + Copy>(
    mount: &MountEntry,
    cgroup_path: &str,
    value: impl Fn(&Path) -> Option<T>,
) -> Option<T> {
    let top = mount_path(mount);
    let mut dir = cgroup_dir(mount, cgroup_path);
    let mut smallest: Option<T> = None;
    loop {
        if let Some(v) = value(&dir) {
            smallest = Some(match smallest {
                Some(s) if s < v => s,
                _ => v,
            });
        }
        if dir == top || !dir.pop() || !dir.starts_with(&top) {
            break;
        }
    }
    smallest
}

/// `/proc/PID/cgroup` for `pid`, `/proc/self/cgroup` without one.
pub fn proc_cgroup_path(pid: Option<u32>) -> std::path::PathBuf {
    match pid {
        Some(pid) => std::path::PathBuf::from(format!("/proc/{pid}/cgroup")),
        None => std::path::PathBuf::from("/proc/self/cgroup"),
    }
}

/// The memory limit, bytes, of the cgroup of process `pid` (this process without one): the
/// smallest `memory.max` (v2) or `memory.limit_in_bytes` (v1) on its path, as in the profile's
/// `memory.limit_bytes`. `None` without a limit, or when the process's cgroup can't be read
/// (it ended, or belongs to another user under `hidepid`): unknown, not this process's limit.
#[cfg(target_os = "linux")]
pub fn cgroup_memory_limit(pid: Option<u32>) -> Option<u64> {
    let read = |p: &std::path::Path| std::fs::read_to_string(p).ok();
    let mountinfo = read(std::path::Path::new("/proc/self/mountinfo")).unwrap_or_default();
    let cg = read(&proc_cgroup_path(pid))?;
    memory_limit(&cg, &super::mounts::parse_mountinfo(&mountinfo), &read)
}

/// Elsewhere than Linux there are no cgroups: always `None`.
#[cfg(not(target_os = "linux"))]
pub fn cgroup_memory_limit(_pid: Option<u32>) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::super::mounts::parse_mountinfo;
    use super::*;
    use std::collections::HashMap;

    fn reader(files: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> + use<> {
        let map: HashMap<PathBuf, String> = files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect();
        move |p: &Path| map.get(p).cloned()
    }

    const V2_MOUNT: &str =
        "30 25 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";

    #[test]
    fn v2_docker_with_memory_limit() {
        // `docker run --memory=16g` with a private cgroup namespace: the process sees "0::/"
        // and the container's limit at the mount point (16 GiB = 17179869184).
        let mounts = parse_mountinfo(V2_MOUNT);
        let read = reader(&[
            (
                "/sys/fs/cgroup/cgroup.controllers",
                "cpuset cpu io memory pids\n",
            ),
            ("/sys/fs/cgroup/memory.max", "17179869184\n"),
        ]);
        assert_eq!(memory_limit("0::/\n", &mounts, &read), Some(16 << 30));
    }

    #[test]
    fn v2_without_limit_is_none() {
        let mounts = parse_mountinfo(V2_MOUNT);
        let read = reader(&[("/sys/fs/cgroup/user.slice/memory.max", "max\n")]);
        assert_eq!(memory_limit("0::/user.slice\n", &mounts, &read), None);
    }

    #[test]
    fn v2_slurm_job_limit_applies_to_the_step_below_it() {
        // Slurm's cgroup/v2 plugin: the job's --mem=64G sits on job_42; the step has "max".
        let mounts = parse_mountinfo(V2_MOUNT);
        let base = "/sys/fs/cgroup/system.slice/slurmstepd.scope";
        let (task, step, job) = (
            format!("{base}/job_42/step_0/user/task_0/memory.max"),
            format!("{base}/job_42/step_0/memory.max"),
            format!("{base}/job_42/memory.max"),
        );
        let read = reader(&[
            (task.as_str(), "max\n"),
            (step.as_str(), "max\n"),
            (job.as_str(), "68719476736\n"),
            ("/sys/fs/cgroup/cgroup.controllers", "memory\n"),
        ]);
        let cg = "0::/system.slice/slurmstepd.scope/job_42/step_0/user/task_0\n";
        assert_eq!(memory_limit(cg, &mounts, &read), Some(64 << 30));
    }

    #[test]
    fn v1_unlimited_value_is_none_captured_from_ci_machine() {
        let mounts = parse_mountinfo(include_str!(
            "../../tests/fixtures/proc/mountinfo-container.txt"
        ));
        let cg = include_str!("../../tests/fixtures/proc/cgroup-v1.txt");
        let dir = "/sys/fs/cgroup/memory/process_api/d978f03a7372b593b49659761d24e598";
        let leaf = format!("{dir}/memory.limit_in_bytes");
        let read = reader(&[
            (leaf.as_str(), "9223372036854771712\n"),
            (
                "/sys/fs/cgroup/memory/process_api/memory.limit_in_bytes",
                "9223372036854771712\n",
            ),
        ]);
        assert_eq!(memory_limit(cg, &mounts, &read), None);
    }

    #[test]
    fn v1_docker_limit_with_mount_root() {
        // cgroup v1 Docker: /proc/self/cgroup names /docker/<id>, which is the mount's root.
        let mounts = parse_mountinfo(
            "35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n",
        );
        let read = reader(&[(
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "8589934592\n",
        )]);
        assert_eq!(
            memory_limit("4:memory:/docker/abc\n", &mounts, &read),
            Some(8 << 30)
        );
    }

    #[test]
    fn limit_values() {
        assert_eq!(parse_limit("max\n"), None);
        assert_eq!(parse_limit("9223372036854771712"), None);
        assert_eq!(parse_limit("1073741824\n"), Some(1 << 30));
        assert_eq!(parse_limit("garbage"), None);
    }
}
