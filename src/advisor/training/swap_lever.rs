//! A swap file for a training plan's one-time peak (loading, a checkpoint save, a resume): the
//! one rule that sizes it ([`swap_to_finish`]) and the recommendation that carries it
//! ([`with_swap`]), for single changes (`advice`), pairs (`pairs`) and the plan's own verdict
//! (`plan_against`).

use super::memory::Judged;
use crate::advisor::buying::ram_advice;
use crate::advisor::capacity::RamSizes;
use crate::advisor::findings::Quantity;
use crate::advisor::recommend::{RecKind, Recommendation};
use crate::profile::MachineProfile;

/// The swap file that absorbs `j`'s one-time peak (loading, a checkpoint save, a resume) when
/// only that peak doesn't fit (the GPUs, the NVMe space and the training phase all fit): `(bytes to add, overflow)`, the first 0
/// when the swap already configured covers it ([`ram_advice::swap_for_peak`]). `None` otherwise.
/// The one rule for both a recommendation's swap file and the plan's own verdict
/// (`plan_against`: a plan whose configured swap covers its one-time peak fits); the training
/// phase never counts swap as RAM.
pub(crate) fn swap_to_finish(
    j: &Judged,
    profile: &MachineProfile,
    ram: &RamSizes,
) -> Option<(u64, u64)> {
    use super::breakdown::{PhaseId, phase_cpu};
    let usable = ram.usable_bytes?;
    let others = crate::advisor::check::all_fit(&[Some(j.gpu.fits), j.nvme.map(|n| n.fits)]);
    // The phases that come back: the steps, and the evaluation pause, whose queued batches are
    // pinned and return at every evaluation. Swap holds neither; it only takes a one-off peak
    // (loading, a checkpoint save, a resume) above them.
    let steady = [PhaseId::Training, PhaseId::EvaluationPause]
        .into_iter()
        .map(|p| phase_cpu(&j.estimate.phases, p))
        .max()
        .unwrap_or(0);
    // The steady phases must fit with their headroom: swap past the margin would page them.
    let held = crate::advisor::headroom::ram_to_hold(steady);
    if others != Some(true) || held > usable || steady >= j.cpu.needed_bytes {
        return None;
    }
    // A peak past RAM spills its overflow; a peak inside RAM but not its margin ("fits only
    // without headroom") takes a file for the margin, as the machine-level swap file sizes it
    // (`ram_advice::recommendations`, the peak with its margin), so that file's re-run fits.
    let peak = j.cpu.needed_bytes;
    let target = if peak <= usable {
        crate::advisor::headroom::ram_to_hold(peak)
    } else {
        peak
    };
    let add = ram_advice::swap_for_peak(profile, usable, target)?;
    Some((add, target - usable))
}

/// `r`, whose one-time peak (loading, a checkpoint save, a resume) a swap file absorbs
/// (`swap`, from [`swap_to_finish`]): at least an OS change, fitting without headroom, with
/// the file to add (or the configured swap it uses) and, in `apply`, the swap its result
/// assumed — the configured swap and the file, in all (`--swap`), so re-running it fits as
/// promised. Windows' page file takes the peak where Linux's swap would.
pub(super) fn with_swap(
    r: Recommendation,
    (add, overflow): (u64, u64),
    profile: &MachineProfile,
) -> Recommendation {
    let kind = if r.kind.cost() < RecKind::Os.cost() {
        RecKind::Os
    } else {
        r.kind
    };
    let mut result = ram_advice::without_headroom(r.result);
    result.fits = Some(true);
    let r = Recommendation { result, ..r }.with_kind(kind);
    let (add_key, used_key) = if crate::profile::is_windows(profile) {
        ("page_file", "page_file_used")
    } else {
        ("swap", "swap_used")
    };
    if add == 0 {
        return r.with(used_key, Quantity::Bytes(overflow));
    }
    let have = profile.memory.swap_total_bytes.unwrap_or(0);
    r.with(add_key, Quantity::Bytes(add))
        .on_machine(crate::advisor::whatif::MachineChange {
            swap_bytes: Some(have.saturating_add(add)),
            ..Default::default()
        })
}
