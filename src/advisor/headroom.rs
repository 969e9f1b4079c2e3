//! Headroom: how much room a plan must leave in each limit to count as fitting. A plan that
//! needs 62.4 GiB of a 62.7 GiB machine does not fit in practice (the page cache, the kernel's
//! own allocations, another user's shell, the allocator's fragmentation all take their share),
//! so every capacity check asks for the need plus a margin, and a need inside the margin is
//! "tight" (`plan-tight`), not "fits". Formulas and their reasoning in `docs/model.md`
//! § "Headroom".

use crate::units::{GIB, MIB};

/// Host RAM margin as a share of the RAM checked against: 5 %. Assumption: the kernel's slab
/// and page tables, the page cache a training job keeps warm (its own scripts, libraries and
/// checkpoint reads) and glibc's per-thread malloc arenas in every worker take 2–5 % of RAM on
/// a running training node; 5 % is the upper end.
pub const RAM_MARGIN_SHARE: f64 = 0.05;

/// The least host RAM margin: 1 GiB (assumption: a login shell, `sshd`, monitoring agents and a
/// desktop session take about that on a small machine, where 5 % is less).
pub const RAM_MARGIN_MIN_BYTES: u64 = GIB;

/// VRAM margin as a share of each GPU's memory: 5 %. Assumption: PyTorch's caching allocator
/// keeps memory "reserved but unallocated" between blocks of different sizes (fragmentation,
/// PyTorch's "CUDA semantics / memory management" notes), a few per cent of a busy GPU.
pub const VRAM_MARGIN_SHARE: f64 = 0.05;

/// The least VRAM margin: 512 MiB (assumption: the CUDA context and cuBLAS/cuDNN workspaces,
/// 300–500 MiB on current GPUs, which a model-states estimate doesn't count).
pub const VRAM_MARGIN_MIN_BYTES: u64 = 512 * MIB;

/// What kind of limit a capacity check is: the margin differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// Host RAM (or a cgroup/WSL cap, or the unified pool).
    Ram,
    /// One GPU's memory.
    Vram,
    /// Disk space (NVMe offload) or `/dev/shm`: no margin beyond the need (a file system has its
    /// own reserved blocks; `/dev/shm` is sized with its own rounding).
    Space,
}

/// The margin in bytes a need must leave below `available` bytes of a limit of `kind`.
pub fn margin(kind: LimitKind, available: u64) -> u64 {
    let share = |s: f64, min: u64| crate::units::saturating_bytes(available as f64 * s).max(min);
    match kind {
        LimitKind::Ram => share(RAM_MARGIN_SHARE, RAM_MARGIN_MIN_BYTES),
        LimitKind::Vram => share(VRAM_MARGIN_SHARE, VRAM_MARGIN_MIN_BYTES),
        LimitKind::Space => 0,
    }
}

/// The least usable RAM that holds `needed` bytes with its margin: the smallest `a` with
/// `needed + margin(Ram, a) ≤ a`, i.e. `max(needed ÷ (1 − 5 %), needed + 1 GiB)`. What every
/// "RAM that would fit" and add-RAM target sizes before rounding to installed sizes.
pub fn ram_to_hold(needed: u64) -> u64 {
    let by_share =
        crate::units::saturating_bytes((needed as f64 / (1.0 - RAM_MARGIN_SHARE)).ceil());
    by_share.max(needed.saturating_add(RAM_MARGIN_MIN_BYTES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_are_five_per_cent_with_floors() {
        // 62.7 GiB usable: 5 % is 3.135 GiB.
        let usable = (62.7 * GIB as f64) as u64;
        assert_eq!(
            margin(LimitKind::Ram, usable),
            (usable as f64 * 0.05).round() as u64
        );
        // 12 GiB: 5 % is 0.6 GiB, above the 1 GiB floor? No: 0.6 < 1, so 1 GiB.
        assert_eq!(margin(LimitKind::Ram, 12 * GIB), GIB);
        // A 24 GiB GPU: 1.2 GiB; an 8 GiB GPU: 0.4 GiB, floored at 512 MiB.
        assert_eq!(
            margin(LimitKind::Vram, 24 * GIB),
            (24.0 * 0.05 * GIB as f64).round() as u64
        );
        assert_eq!(margin(LimitKind::Vram, 8 * GIB), 512 * MIB);
        assert_eq!(margin(LimitKind::Space, 8 * GIB), 0);
    }

    #[test]
    fn ram_to_hold_leaves_exactly_the_margin() {
        // 95 GiB need: 95 / 0.95 = 100 GiB, and 100 GiB's margin is 5 GiB.
        assert_eq!(ram_to_hold(95 * GIB), 100 * GIB);
        let a = ram_to_hold(95 * GIB);
        assert!(95 * GIB + margin(LimitKind::Ram, a) <= a);
        // 4 GiB need: 4 / 0.95 = 4.21 GiB < 4 + 1 GiB.
        assert_eq!(ram_to_hold(4 * GIB), 5 * GIB);
    }
}
