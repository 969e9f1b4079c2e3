//! Every soft limit in front of a pool is a lever: when a pool doesn't fit and a soft limit is
//! what fails, the change that moves that limit far enough (to the value that holds the pool's
//! consumers with the margin of [`crate::advisor::headroom`], never past the hard size) is a
//! ranked recommendation of its own. Each is a machine change with `apply` arguments
//! (`--memory-limit`, `--numa-bind`, `--page-file`, `--gpu-wired-limit`, `--gtt`), which
//! [`crate::advisor::assess`] re-runs on the changed machine like any other; vLLM's share of a
//! unified pool is a setting of the served model, judged here on the pool.

use crate::advisor::findings::Quantity;
use crate::advisor::headroom::{self, VRAM_MARGIN_MIN_BYTES, VRAM_MARGIN_SHARE};
use crate::advisor::knobs::{KnobId, KnobValue, Setting};
use crate::advisor::recommend::{AdviceId, Outcome, Recommendation, Subject};
use crate::advisor::whatif::{MachineChange, NumaBind};
use crate::profile::MachineProfile;
use crate::units::{GIB, MIB};

use super::types::{ConsumerId, LimitId, Pool, PoolLimit, Scope};

/// Bytes of a kernel page: `ttm.pages_limit` counts 4 KiB pages (Linux `PAGE_SIZE` on x86-64).
pub const PAGE_BYTES: u64 = 4096;

/// The least limit that holds `charged` bytes with the RAM margin ([`headroom::ram_to_hold`]),
/// in whole GiB.
fn ram_limit_for(charged: u64) -> u64 {
    headroom::ram_to_hold(charged).div_ceil(GIB) * GIB
}

/// The least GPU-side limit that holds `charged` bytes with the VRAM margin: `max(charged ÷
/// 0.95, charged + 512 MiB)`, in whole GiB.
fn gpu_limit_for(charged: u64) -> u64 {
    let by_share =
        crate::units::saturating_bytes((charged as f64 / (1.0 - VRAM_MARGIN_SHARE)).ceil());
    by_share
        .max(charged.saturating_add(VRAM_MARGIN_MIN_BYTES))
        .div_ceil(GIB)
        * GIB
}

/// The subject that charges most to `pool` in `scope`.
fn main_subject(pool: &Pool) -> Subject {
    pool.consumers
        .iter()
        .max_by_key(|c| c.commit_bytes.unwrap_or(c.bytes))
        .map_or(Subject::Machine, |c| c.subject)
}

/// The levers of every pool that doesn't fit, one per failing soft limit that can move far
/// enough. Their `result` is re-run by the assessment (machine changes) or judged on the pool
/// (vLLM's share).
pub fn levers(profile: &MachineProfile, pools: &[Pool]) -> Vec<Recommendation> {
    let mut out = Vec::new();
    // vLLM's share, one for every GPU it serves on: the lowest any pool needs.
    let mut share: Option<f64> = None;
    for pool in pools.iter().filter(|p| p.fits == Some(false)) {
        let physical = pool.limit(LimitId::Physical).map(|l| l.bytes);
        let subject = main_subject(pool);
        for l in pool
            .limits
            .iter()
            .filter(|l| l.soft && l.check.fits == Some(false))
        {
            if let Some(r) = lever(profile, l, physical, subject) {
                out.push(r);
            }
        }
        if let Some(s) = lower_engine_share(pool) {
            share = Some(share.map_or(s, |t| t.min(s)));
        }
    }
    out.extend(share.map(share_lever));
    out
}

fn pending(subject: Subject, id: AdviceId) -> Recommendation {
    Recommendation::new(id, subject, Outcome::default())
}

fn lever(
    profile: &MachineProfile,
    l: &PoolLimit,
    physical: Option<u64>,
    subject: Subject,
) -> Option<Recommendation> {
    let charged = l.check.needed_bytes;
    match l.id {
        LimitId::JobLimit => {
            let want = ram_limit_for(charged);
            if physical.is_some_and(|p| want > p) {
                return None;
            }
            let mem = format!("{}G", want / GIB);
            Some(
                pending(subject, AdviceId::RaiseLimit)
                    .with("memory_limit", Quantity::Bytes(want))
                    .with("mem", Quantity::Text(mem))
                    .on_machine(MachineChange {
                        memory_limit_bytes: Some(want),
                        ..Default::default()
                    }),
            )
        }
        LimitId::NumaBinding => {
            let node = profile.memory.numa_bind?;
            Some(
                pending(subject, AdviceId::DropNumaBinding)
                    .with("node", Quantity::Count(u64::from(node)))
                    .with("ram", Quantity::Bytes(physical.unwrap_or(0)))
                    .on_machine(MachineChange {
                        numa_bind: Some(NumaBind::All),
                        ..Default::default()
                    }),
            )
        }
        LimitId::CommitLimit => {
            let w = profile.windows.as_ref()?;
            let commit = w.commit_limit_bytes?;
            let files = w.page_file_total_bytes().unwrap_or_else(|| {
                commit.saturating_sub(profile.memory.total_bytes.unwrap_or(commit))
            });
            let ram_part = commit.saturating_sub(files);
            let want = headroom::ram_to_hold(charged);
            let total = want.saturating_sub(ram_part).div_ceil(GIB) * GIB;
            Some(
                pending(subject, AdviceId::GrowPageFile)
                    .with("swap", Quantity::Bytes(total.saturating_sub(files)))
                    .with("page_file", Quantity::Bytes(total))
                    .on_machine(MachineChange {
                        page_file_bytes: Some(total),
                        ..Default::default()
                    }),
            )
        }
        LimitId::GpuWorkingSet => {
            let want = gpu_limit_for(charged);
            let ram = physical?;
            if want >= ram {
                return None;
            }
            Some(
                pending(subject, AdviceId::RaiseGpuWiredLimit)
                    .with("gpu_limit", Quantity::Bytes(want))
                    .with("wired_limit_mb", Quantity::Count(want / MIB))
                    .with("left", Quantity::Bytes(ram - want))
                    .on_machine(MachineChange {
                        gpu_wired_limit_bytes: Some(want),
                        ..Default::default()
                    }),
            )
        }
        LimitId::Gtt => {
            let carveout = profile
                .gpus
                .iter()
                .find_map(|g| g.gtt_bytes.and(g.carveout_bytes))
                .unwrap_or(0);
            let gtt = gpu_limit_for(charged).saturating_sub(carveout);
            if physical.is_some_and(|p| gtt > p) {
                return None;
            }
            Some(
                pending(subject, AdviceId::RaiseGttLimit)
                    .with("gtt", Quantity::Bytes(gtt))
                    .with("gtt_mib", Quantity::Count(gtt / MIB))
                    .with("pages", Quantity::Count(gtt / PAGE_BYTES))
                    .on_machine(MachineChange {
                        gtt_bytes: Some(gtt),
                        ..Default::default()
                    }),
            )
        }
        // vLLM's share is judged on the pool as a whole ([`lower_engine_share`]).
        LimitId::EngineShare | LimitId::StartupFree | LimitId::Physical => None,
    }
}

/// vLLM's share lowered until `pool` fits, in hundredths: the largest `gpu_memory_utilization`
/// that leaves a unified pool's host side its bytes with the RAM margin (when vLLM's claim is
/// what overflows it), that the memory free at start holds with the VRAM margin (the start-up
/// check before vLLM 0.34, [`LimitId::StartupFree`]), and that still holds the weights and KV
/// cache with the VRAM margin. `None` without vLLM, when neither of the first two fails, or when
/// no lower share does all three.
fn lower_engine_share(pool: &Pool) -> Option<f64> {
    let size = pool.limit(LimitId::Physical)?.bytes;
    let need = pool
        .consumers
        .iter()
        .find(|c| c.id == ConsumerId::Gpu && c.subject == Subject::Inference)?
        .bytes;
    let fails = |id| pool.limit(id).is_some_and(|l| l.check.fits == Some(false));
    let claimed = pool
        .consumers
        .iter()
        .any(|c| c.id == ConsumerId::EngineClaim);
    let over_physical = claimed && fails(LimitId::Physical);
    if !over_physical && !fails(LimitId::StartupFree) {
        return None;
    }
    let mut room = size;
    if claimed {
        let host = pool.charged(Scope::All)
            - pool
                .consumers
                .iter()
                .filter(|c| c.side == super::Side::Gpu)
                .map(|c| c.bytes)
                .sum::<u64>();
        let margin = headroom::margin(headroom::LimitKind::Ram, size);
        room = room.min(size.checked_sub(host.saturating_add(margin))?);
    }
    if let Some(l) = pool.limit(LimitId::StartupFree) {
        let margin = headroom::margin(headroom::LimitKind::Vram, l.bytes);
        room = room.min(l.bytes.checked_sub(margin)?);
    }
    let share = ((room as f64 / size as f64) * 100.0).floor() / 100.0;
    let claim = crate::units::saturating_bytes(size as f64 * share);
    let fits = need.saturating_add(headroom::margin(headroom::LimitKind::Vram, claim)) <= claim;
    (fits && share > 0.0).then_some(share)
}

/// The recommendation to serve at `gpu_memory_utilization` `share`, judged on the pools
/// ([`lower_engine_share`] found they fit at it).
fn share_lever(share: f64) -> Recommendation {
    let r = pending(Subject::Inference, AdviceId::LowerGpuMemoryUtilization)
        .with("gpu_memory_utilization", Quantity::Number(share))
        .sets(vec![Setting {
            knob: KnobId::GpuMemoryUtilization,
            value: KnobValue::Float(share),
        }]);
    Recommendation {
        result: Outcome {
            fits: Some(true),
            ..Outcome::default()
        },
        ..r
    }
}
