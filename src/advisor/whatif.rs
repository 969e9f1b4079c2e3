//! What if the machine were changed: a profile with a larger `/dev/shm`, a higher WSL2
//! `memory=`, more RAM installed or more swap. The recommender re-assesses a machine-level
//! change on the changed profile (every limit at once), and the command line's `--shm-size`,
//! `--wsl-memory`, `--ram` and `--swap` apply the same function, so a recommendation's `apply`
//! arguments reproduce it.

use serde::{Deserialize, Serialize};

use crate::profile::MachineProfile;

/// A change to the machine (`machine_change` of a recommendation in `advise --json`). Bytes;
/// `None` leaves that part as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineChange {
    /// `/dev/shm` size (`docker run --shm-size`, or the tmpfs remounted larger).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shm_bytes: Option<u64>,
    /// WSL2's `memory=` in `.wslconfig`: the RAM Linux sees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wsl_memory_bytes: Option<u64>,
    /// RAM installed. Usable RAM (`MemTotal`) keeps the machine's usable share of installed
    /// RAM ([`crate::advisor::RamSizes::usable_share`]); the modules listed are dropped,
    /// since which modules make up the size isn't known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram_bytes: Option<u64>,
    /// Swap configured in all (the page file on Windows): what a one-time loading peak may
    /// spill into ([`crate::advisor::buying::ram_advice::swap_for_peak`]); never counted as
    /// RAM for a steady state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap_bytes: Option<u64>,
    /// The job's memory limit (a cgroup's: Slurm's `--mem`, a container's `--memory`):
    /// `memory.limit_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit_bytes: Option<u64>,
    /// Apple Silicon: `iogpu.wired_limit_mb`, the GPU's working-set limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_wired_limit_bytes: Option<u64>,
    /// Windows: the page files' total size; the commit limit becomes RAM plus it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_file_bytes: Option<u64>,
    /// An AMD APU's GTT size (`amdgpu.gttsize`, with `ttm.pages_limit` to match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gtt_bytes: Option<u64>,
    /// The NUMA binding (`numactl -m NODE`), or none (`--numa-bind all`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub numa_bind: Option<NumaBind>,
}

/// A job's NUMA binding as a what-if sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NumaBind {
    /// Every node (no binding, or `numactl --interleave=all`).
    All,
    /// Bound to this node's memory (`numactl -m NODE`).
    Node(u32),
}

/// The `--numa-bind` values: `all`, then nodes 0–7 (the knob's choices).
pub const NUMA_BIND_NAMES: &[&str] = &["all", "0", "1", "2", "3", "4", "5", "6", "7"];

impl NumaBind {
    /// Its name as `--numa-bind` takes it (`all`, `0`); `None` for a node beyond 7.
    pub fn name(self) -> Option<&'static str> {
        match self {
            NumaBind::All => Some(NUMA_BIND_NAMES[0]),
            NumaBind::Node(n) => NUMA_BIND_NAMES.get(n as usize + 1).copied(),
        }
    }

    /// The binding a `--numa-bind` value names (`all` or a node number).
    pub fn parse(s: &str) -> Option<NumaBind> {
        match s.trim() {
            "all" => Some(NumaBind::All),
            n => n.parse().ok().map(NumaBind::Node),
        }
    }
}

impl MachineChange {
    /// True when nothing is changed.
    pub fn is_empty(&self) -> bool {
        *self == MachineChange::default()
    }
}

/// `profile` with `change` applied.
pub fn apply(profile: &MachineProfile, change: &MachineChange) -> MachineProfile {
    let mut p = profile.clone();
    if let Some(b) = change.shm_bytes {
        p.memory.shm_bytes = Some(b);
    }
    if let Some(b) = change.wsl_memory_bytes {
        if let Some(w) = p.memory.wsl.as_mut() {
            w.wslconfig_memory_bytes = Some(b);
            w.memory_cap_bytes = Some(b);
        }
        p.memory.total_bytes = Some(b);
        p.memory.available_bytes = None;
    }
    if let Some(b) = change.ram_bytes {
        let share = super::capacity::ram_sizes(profile).usable_share();
        p.memory.installed_bytes = Some(b);
        p.memory.total_bytes = Some(crate::units::saturating_bytes(b as f64 * share));
        p.memory.available_bytes = None;
        p.memory.dimms.clear();
        p.memory.slots_populated = None;
    }
    if let Some(b) = change.swap_bytes {
        p.memory.swap_total_bytes = Some(b);
    }
    apply_limits(&mut p, change);
    p
}

/// The soft limits of `change` applied to `p`: the job limit, the GPU's wired limit, the page
/// file (and with it the commit limit), the GTT, the NUMA binding.
fn apply_limits(p: &mut MachineProfile, change: &MachineChange) {
    if let Some(b) = change.memory_limit_bytes {
        p.memory.limit_bytes = Some(b);
    }
    if let Some(b) = change.gpu_wired_limit_bytes {
        let m = p.macos.get_or_insert_with(Default::default);
        m.gpu_wired_limit_bytes = Some(b);
        m.gpu_wired_limit_default = Some(false);
    }
    if let Some(b) = change.page_file_bytes {
        let ram = p.memory.total_bytes;
        let w = p.windows.get_or_insert_with(Default::default);
        // The commit limit is RAM plus the page files (`GlobalMemoryStatusEx`'s
        // `ullTotalPageFile`): the RAM part is kept.
        let ram_part = match (w.commit_limit_bytes, w.page_file_total_bytes()) {
            (Some(c), Some(f)) => Some(c.saturating_sub(f)),
            _ => ram,
        };
        w.commit_limit_bytes = ram_part.map(|r| r.saturating_add(b));
        w.page_files = Some(vec![crate::profile::PageFile {
            path: "C:\\pagefile.sys".into(),
            sizing: None,
            initial_bytes: Some(b),
            maximum_bytes: Some(b),
            size_bytes: Some(b),
            used_bytes: None,
            peak_bytes: None,
        }]);
    }
    if let Some(b) = change.gtt_bytes {
        for g in p.gpus.iter_mut().filter(|g| g.gtt_bytes.is_some()) {
            g.gtt_bytes = Some(b);
        }
    }
    match change.numa_bind {
        Some(NumaBind::All) => p.memory.numa_bind = None,
        Some(NumaBind::Node(n)) => p.memory.numa_bind = Some(n),
        None => {}
    }
}
