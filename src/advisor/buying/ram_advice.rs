//! Changes to the machine rather than the plan, for any subject whose host RAM falls short:
//! raising WSL's memory cap, a swap file for a one-time loading peak, and hardware a user can
//! buy for this kind of machine (`advisor::buying::purchase`). Each carries the subject's peaks
//! and whether they fit after the change.

use crate::advisor::capacity::RamSizes;
use crate::advisor::findings::Quantity;
use crate::advisor::recommend::{AdviceId as R, Outcome, Recommendation, Subject};
use crate::profile::MachineProfile;
use crate::units::GIB;

/// What a plan or a workload asks of the machine's RAM.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RamNeed {
    /// Whose need.
    pub subject: Subject,
    /// Host RAM needed at the peak, usable bytes (what `MemTotal` or a cgroup limit offers).
    pub peak: u64,
    /// Host RAM needed outside a one-time loading peak (training steps, serving), when the
    /// loading phase is the peak; a swap file can then absorb the difference.
    pub steady: Option<u64>,
    /// Whether everything but host RAM fits (VRAM, NVMe): more RAM can't fix the rest.
    pub others_fit: Option<bool>,
    /// The subject's figures to report (peaks, working set); `fits` is set per change.
    pub outcome: Outcome,
}

/// Swap added for a loading peak: the overflow plus 10 %, in whole GiB. Assumption: a little
/// room for the page cache and the kernel while the peak passes.
pub const SWAP_MARGIN: f64 = 1.1;

/// The largest overflow a swap file is offered for: as much as usable RAM. Assumption: a
/// loading peak that spills more than the RAM it spills from is written to and read back from
/// storage for minutes while every rank waits, and often ends with the OOM killer anyway; what
/// fixed real loading peaks was a swap file of a fraction of RAM (a 10 GB file on a 32 GB
/// machine, issue 11). Beyond it, a loading setting or more RAM is the answer.
pub const MAX_SWAP_SHARE: f64 = 1.0;

fn ceil_gib(bytes: u64) -> u64 {
    bytes.div_ceil(GIB)
}

/// Swap for a one-time peak of `peak` usable bytes on a machine with `usable` bytes of RAM:
/// the overflow + [`SWAP_MARGIN`], in whole GiB, less the swap already configured (0 when
/// that covers it). `None` when the peak fits without swap, or when its overflow is beyond
/// [`MAX_SWAP_SHARE`] of usable RAM.
pub fn swap_for_peak(profile: &MachineProfile, usable: u64, peak: u64) -> Option<u64> {
    let overflow = peak.checked_sub(usable).filter(|o| *o > 0)?;
    if overflow as f64 > MAX_SWAP_SHARE * usable as f64 {
        return None;
    }
    let wanted = ceil_gib((overflow as f64 * SWAP_MARGIN) as u64).max(1);
    let have = profile.memory.swap_total_bytes.unwrap_or(0) / GIB;
    Some(wanted.saturating_sub(have) * GIB)
}

/// The machine-level changes for `need`, in the order they are preferred within their kind
/// (the ranking happens once for the assessment). Empty when usable RAM is unknown or enough.
pub fn recommendations(
    profile: &MachineProfile,
    ram: &RamSizes,
    need: &RamNeed,
) -> Vec<Recommendation> {
    let mut out = Vec::new();
    let Some(usable) = ram.usable_bytes else {
        return out;
    };
    // The usable RAM that holds the peak with its margin (`advisor::headroom`).
    let hold = crate::advisor::headroom::ram_to_hold(need.peak);
    if hold <= usable || need.others_fit == Some(false) {
        return out;
    }
    let with_fit = |fits: Option<bool>| Outcome {
        fits: match (fits, need.others_fit) {
            (Some(true), Some(true)) => Some(true),
            (Some(false), _) => Some(false),
            _ => None,
        },
        ..need.outcome
    };
    // WSL2: Linux sees WSL's cap; raising `memory=` in .wslconfig comes before buying RAM.
    if profile.memory.wsl.as_ref().is_some_and(|w| w.is_wsl2()) {
        let cap_after = crate::advisor::wsl::wsl_cap_after(profile);
        let want = ceil_gib(hold);
        let set = cap_after.map_or(want, |c| want.min(c / GIB));
        if set * GIB > usable {
            let fits = cap_after.map(|c| hold <= c.min(set * GIB));
            let mut r = Recommendation::new(R::WslRaiseMemory, need.subject, with_fit(fits));
            if cap_after.is_none() {
                // Windows' RAM unknown: the setting works when Windows has it and its reserve.
                let windows =
                    (set * GIB).saturating_add(crate::advisor::wsl::WINDOWS_RESERVE_BYTES);
                r = r.with("windows_ram_needed", Quantity::Bytes(windows));
            }
            out.push(
                r.with("memory", Quantity::Text(format!("{set}GB")))
                    .on_machine(crate::advisor::whatif::MachineChange {
                        wsl_memory_bytes: Some(set * GIB),
                        ..Default::default()
                    }),
            );
        }
    }
    // A one-time loading peak: swap on fast storage absorbs it when the steady state fits and
    // the overflow is not larger than RAM. Swap already configured that covers the overflow
    // absorbs the peak as it is.
    let hosted = profile
        .host
        .platform
        .as_ref()
        .is_some_and(|p| p.kind == Some(crate::profile::PlatformKind::HostedNotebook));
    // On Windows with the commit limit known, the page file is the commit limit's lever
    // (`advisor::pools::levers`), sized against every process's commit charge.
    let commit_known = crate::profile::is_windows(profile)
        && profile
            .windows
            .as_ref()
            .is_some_and(|w| w.commit_limit_bytes.is_some());
    if need.steady.is_some_and(|s| s <= usable) && !hosted && !commit_known {
        if let Some(add) = swap_for_peak(profile, usable, hold).filter(|a| *a > 0) {
            let id = if crate::profile::is_windows(profile) {
                R::GrowPageFile
            } else {
                R::AddSwap
            };
            // `apply` says the swap in all (`--swap`: the configured swap and this file), so
            // re-running it fits as promised.
            let have = profile.memory.swap_total_bytes.unwrap_or(0);
            out.push(
                Recommendation::new(id, need.subject, without_headroom(with_fit(Some(true))))
                    .with("swap", Quantity::Bytes(add))
                    .on_machine(crate::advisor::whatif::MachineChange {
                        swap_bytes: Some(have.saturating_add(add)),
                        ..Default::default()
                    }),
            );
        }
    }
    // Hardware: the installed size whose usable share covers the peak.
    let installed = crate::advisor::capacity::installed_needed(hold, ram.usable_share());
    if !ram.limited_by_cgroup {
        if let Some(mut r) =
            super::purchase::hardware_recommendation(profile, ram, installed, with_fit(Some(true)))
        {
            r.subject = need.subject;
            out.push(r);
        }
    }
    out
}

/// `o` without its RAM headroom: a result that fits because swap takes a one-time peak has no
/// RAM headroom to state (the peak is past RAM by design).
pub fn without_headroom(o: Outcome) -> Outcome {
    Outcome {
        headroom_bytes: None,
        headroom_share: None,
        tightest: None,
        ..o
    }
}

/// Gives an `add-ram` recommendation that names only the RAM to reach (`ram_bytes`, as the
/// workload simulator makes them) what to buy for this machine; one with nothing to buy stays
/// as it is and reads as the size to reach.
pub fn complete_add_ram(
    profile: &MachineProfile,
    ram: &RamSizes,
    r: Recommendation,
) -> Recommendation {
    if r.id != R::AddRam || r.changes.contains_key("modules") {
        return r;
    }
    let Some(Quantity::Bytes(target)) = r.changes.get("ram_bytes").cloned() else {
        return r;
    };
    match super::purchase::hardware_recommendation(profile, ram, target, r.result) {
        Some(mut h) => {
            h.subject = r.subject;
            h
        }
        None => r,
    }
}
