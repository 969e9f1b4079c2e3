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
    p
}
