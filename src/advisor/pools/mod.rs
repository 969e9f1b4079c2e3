//! The machine as memory pools with limits: every discrete GPU's VRAM, host RAM, or one unified
//! pool shared by the CPU and the GPU; each with its hard size and the soft limits in front of it
//! (a job's cgroup limit, a NUMA binding, WSL's `memory=`, Windows' commit limit, Apple's GPU
//! working set, an APU's carve-out and GTT, vLLM's share of a unified pool). Every plan charges
//! its consumers to pools ([`charge`]); a pool fits only when all of its consumers together fit
//! under every limit with the margin of [`crate::advisor::headroom`]. [`pools`] decides; the
//! plans' verdicts, the findings and the levers ([`levers`]) read it. Pure.

pub mod charge;
pub mod findings;
pub mod levers;
pub mod types;

pub use types::{Consumer, ConsumerId, LimitId, Pool, PoolKind, PoolLimit, Scope, Side};

use crate::advisor::capacity::RamSizes;
use crate::advisor::check::{CapacityCheck, all_fit};
use crate::advisor::headroom::LimitKind;
use crate::advisor::inference::InferenceMemory;
use crate::advisor::inference::vllm::MARGIN_FLOOR_BYTES;
use crate::advisor::recommend::{AdviceId, Subject};
use crate::advisor::training::TrainingMemory;
use crate::advisor::workload::WorkloadResult;
use crate::profile::{GpuVendor, MachineProfile, Provenance};

use charge::PlanMemory;

/// What was assessed: the plans that charge the pools.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plans<'a> {
    /// The training plan's estimate.
    pub training: Option<&'a TrainingMemory>,
    /// The served model's estimate.
    pub inference: Option<&'a InferenceMemory>,
    /// The data loader's result.
    pub workload: Option<&'a WorkloadResult>,
}

/// The machine's pools with every plan's consumers charged and every limit judged. A machine
/// whose GPUs all share system memory has one unified pool and no host pool; one with discrete
/// GPUs has host RAM and one pool per GPU.
pub fn pools(profile: &MachineProfile, ram: &RamSizes, plans: &Plans<'_>) -> Vec<Pool> {
    let windows = crate::profile::is_windows(profile);
    let unified = !profile.gpus.is_empty() && profile.gpus.iter().all(|g| g.unified_memory);
    let mut plan_mem: Vec<PlanMemory<'_>> = Vec::new();
    plan_mem.extend(plans.training.map(PlanMemory::training));
    plan_mem.extend(plans.inference.map(PlanMemory::inference));
    let mut host = Vec::new();
    let mut gpu_side = Vec::new();
    let mut engine_claims = Vec::new();
    // vLLM's share when it claims it whole and checks the free memory at start for it.
    let startup_share = plan_mem
        .iter()
        .find(|p| p.startup_check)
        .and_then(|p| p.engine_share);
    for p in &plan_mem {
        if unified {
            let (h, g) = p.unified_peak();
            host.push(p.host_consumer(h, windows));
            gpu_side.push(p.gpu_consumer(g));
            engine_claims.push(p.engine_share);
        } else {
            host.push(p.host_consumer(p.host_peak(), windows));
        }
    }
    if let Some(w) = plans.workload {
        host.extend(charge::workload_consumers(w, !plan_mem.is_empty(), windows));
    }
    let mut out = Vec::new();
    // A one-time peak (loading, a checkpoint save, a resume) above the steady state that need
    // not stay resident: on Windows with the commit limit known (the page file takes it; the
    // commit limit counts it whole), or where the plan found the swap configured absorbs it
    // (`training::plan_against`).
    let commit_known = windows
        && profile
            .windows
            .as_ref()
            .is_some_and(|w| w.commit_limit_bytes.is_some());
    let loading_only: u64 = plan_mem
        .iter()
        .zip(&plan_swap_absorbed(plans))
        .filter(|(_, absorbed)| commit_known || **absorbed)
        .map(|(p, _)| p.host_peak() - p.host_steady().min(p.host_peak()))
        .sum();
    if unified {
        let size = ram.mem_total_bytes;
        let mut consumers = host;
        consumers.extend(gpu_side);
        // vLLM claims its share of the whole pool at start, whatever its weights and KV need.
        let device = engine_total(profile, size);
        let share = engine_claims.iter().flatten().next().copied();
        if let (Some(t), Some(s), Some(share)) = (device, size, share) {
            let claim = crate::units::saturating_bytes(t as f64 * share);
            let need = consumers
                .iter()
                .find(|c| c.id == ConsumerId::Gpu && c.subject == Subject::Inference)
                .map(|c| c.bytes);
            if let Some(n) = need.filter(|n| claim > *n) {
                let mut extra = claim - n;
                if startup_share.is_none() {
                    // The extensible KV cache (vLLM 0.34) takes no more than what is free
                    // after warmup less its 1 GiB floor (`measure_kv_cache_bytes`).
                    let others = consumers
                        .iter()
                        .map(|c| c.bytes)
                        .fold(0, u64::saturating_add);
                    let free = s.saturating_sub(others.saturating_add(MARGIN_FLOOR_BYTES));
                    extra = extra.min(free);
                }
                consumers.push(Consumer {
                    subject: Subject::Inference,
                    id: ConsumerId::EngineClaim,
                    side: Side::Gpu,
                    bytes: extra,
                    commit_bytes: None,
                    processes: 0,
                });
            }
        }
        let mut limits = host_limits(profile, windows, loading_only);
        limits.extend(unified_gpu_limits(profile, device, share));
        // Before 0.34 vLLM starts only when `MemAvailable` holds its share (the integrated
        // GPU's free memory is `psutil.virtual_memory().available`, `MemorySnapshot`).
        let startup = startup_share
            .zip(device)
            .zip(profile.memory.available_bytes);
        if let Some(((share, s), free)) = startup {
            limits.push(startup_limit(free, requested(s, share)));
        }
        out.push(judge(
            "unified".into(),
            PoolKind::Unified,
            size,
            consumers,
            limits,
        ));
    } else {
        let limits = host_limits(profile, windows, loading_only);
        out.push(judge(
            "ram".into(),
            PoolKind::HostRam,
            ram.mem_total_bytes,
            host,
            limits,
        ));
        for g in profile.gpus.iter().filter(|g| !g.unified_memory) {
            let on_it: Vec<_> = plan_mem.iter().filter(|p| g.index < p.gpus).collect();
            let consumers = on_it.iter().map(|p| p.gpu_consumer(p.gpu_peak())).collect();
            // The engine's own margin where the one plan on this GPU keeps one (llama.cpp's
            // fit), so the pool and the plan's own verdict agree.
            let own_margin = match on_it.as_slice() {
                [only] => only.gpu_margin,
                _ => None,
            };
            let mut limits: Vec<PoolLimit> = g
                .vram_total_bytes
                .map(|b| {
                    vec![limit(
                        LimitId::Physical,
                        b,
                        Provenance::Detected,
                        Scope::All,
                        None,
                    )]
                })
                .unwrap_or_default();
            // Before 0.34 vLLM starts only when the GPU's free memory (`cudaMemGetInfo`: the
            // total less what is in use, NVML's figure as detection read it) holds its share.
            let serves = plans
                .inference
                .is_some_and(|m| g.index < m.plan.gpus.max(1));
            let startup = startup_share
                .filter(|_| serves)
                .zip(g.vram_total_bytes.zip(g.vram_used_bytes));
            if let Some((share, (total, used))) = startup {
                limits.push(startup_limit(
                    total.saturating_sub(used),
                    requested(total, share),
                ));
            }
            let mut pool = judge(
                format!("gpu{}", g.index),
                PoolKind::Vram,
                g.vram_total_bytes,
                consumers,
                limits,
            );
            if let Some(m) = own_margin {
                rejudge_with_margin(&mut pool, m);
            }
            out.push(pool);
        }
    }
    out
}

/// For each plan, in the order [`pools`] charges them (training, then inference): whether
/// its own verdict found the configured swap absorbing its loading peak (it fits while its RAM
/// check doesn't).
fn plan_swap_absorbed(plans: &Plans<'_>) -> Vec<bool> {
    let absorbed = |fits: Option<bool>, cpu: Option<bool>| fits == Some(true) && cpu == Some(false);
    let mut out = Vec::new();
    out.extend(plans.training.map(|t| absorbed(t.fits, t.cpu.fits)));
    out.extend(plans.inference.map(|m| absorbed(m.fits, m.cpu.fits)));
    out
}

/// Whether every pool `subject` charges fits (`None` when none can be told or it charges none).
pub fn subject_fits(pools: &[Pool], subject: Subject) -> Option<bool> {
    let charged: Vec<_> = pools
        .iter()
        .filter(|p| p.charged_by(subject))
        .map(|p| Some(p.fits))
        .collect();
    if charged.is_empty() {
        None
    } else {
        all_fit(&charged)
    }
}

/// A plan's verdict with the pools' read in: a pool that doesn't fit fails it; pools that all
/// fit replace the plan's own RAM and VRAM checks (which judge each side alone), keeping its
/// other checks (`others`: NVMe space).
pub fn with_pools(
    own: Option<bool>,
    pools: Option<bool>,
    others: Option<Option<bool>>,
) -> Option<bool> {
    match pools {
        Some(false) => Some(false),
        Some(true) => all_fit(&[Some(Some(true)), others]),
        None => own,
    }
}

fn limit(
    id: LimitId,
    bytes: u64,
    source: Provenance,
    scope: Scope,
    lever: Option<AdviceId>,
) -> PoolLimit {
    PoolLimit {
        id,
        bytes,
        source,
        scope,
        soft: lever.is_some(),
        lever,
        loading_only: 0,
        check: CapacityCheck::new(LimitKind::Ram, 0, Some(bytes)),
    }
}

/// The limits in front of host RAM (or of a unified pool, all consumers): `MemTotal` (under
/// WSL2 WSL's `memory=`, a lever), the job's cgroup limit, a NUMA binding, Windows' commit limit.
/// `loading_only` is host bytes of a one-time loading peak that may leave RAM (Windows' page
/// file under the commit limit, swap that absorbs it), so the physical limit counts the rest.
fn host_limits(profile: &MachineProfile, windows: bool, loading_only: u64) -> Vec<PoolLimit> {
    let mut out = Vec::new();
    let m = &profile.memory;
    if let Some(t) = m.total_bytes {
        let wsl = m.wsl.as_ref().is_some_and(|w| w.is_wsl2());
        let mut l = limit(
            LimitId::Physical,
            t,
            Provenance::Detected,
            Scope::All,
            wsl.then_some(AdviceId::WslRaiseMemory),
        );
        l.loading_only = loading_only;
        out.push(l);
    }
    if let Some(l) = m
        .limit_bytes
        .filter(|l| m.total_bytes.is_none_or(|t| *l < t))
    {
        let mut l = limit(
            LimitId::JobLimit,
            l,
            Provenance::Detected,
            Scope::All,
            Some(AdviceId::RaiseLimit),
        );
        l.loading_only = loading_only;
        out.push(l);
    }
    if let Some(node) = m.numa_bind {
        let bytes = m
            .numa_nodes
            .iter()
            .find(|n| n.id == node)
            .and_then(|n| n.total_bytes);
        if let Some(b) = bytes.filter(|_| m.numa_nodes.len() > 1) {
            out.push(limit(
                LimitId::NumaBinding,
                b,
                Provenance::Detected,
                Scope::All,
                Some(AdviceId::DropNumaBinding),
            ));
        }
    }
    if windows {
        if let Some(c) = profile.windows.as_ref().and_then(|w| w.commit_limit_bytes) {
            out.push(limit(
                LimitId::CommitLimit,
                c,
                Provenance::Detected,
                Scope::Commit,
                Some(AdviceId::GrowPageFile),
            ));
        }
    }
    out
}

/// The limits on a unified pool's GPU side: Apple's working set, an AMD APU's carve-out + GTT,
/// vLLM's share of the device (`device`: [`engine_total`]).
fn unified_gpu_limits(
    profile: &MachineProfile,
    size: Option<u64>,
    engine_share: Option<f64>,
) -> Vec<PoolLimit> {
    let mut out = Vec::new();
    if let Some(w) = crate::advisor::unified::apple_gpu_working_set(profile) {
        out.push(limit(
            LimitId::GpuWorkingSet,
            w.bytes,
            w.source,
            Scope::Gpu,
            Some(AdviceId::RaiseGpuWiredLimit),
        ));
    }
    let amd = profile
        .gpus
        .iter()
        .find(|g| g.vendor == GpuVendor::Amd && g.unified_memory && g.gtt_bytes.is_some());
    if let Some(g) = amd {
        let bytes = g
            .carveout_bytes
            .unwrap_or(0)
            .saturating_add(g.gtt_bytes.unwrap_or(0));
        out.push(limit(
            LimitId::Gtt,
            bytes,
            Provenance::Detected,
            Scope::Gpu,
            Some(AdviceId::RaiseGttLimit),
        ));
    }
    if let (Some(s), Some(share)) = (size, engine_share) {
        let bytes = crate::units::saturating_bytes(s as f64 * share);
        out.push(limit(
            LimitId::EngineShare,
            bytes,
            Provenance::Entered,
            Scope::Gpu,
            Some(AdviceId::LowerGpuMemoryUtilization),
        ));
    }
    out
}

/// `pool`'s physical limit checked again with `margin` instead of the VRAM margin, and its verdict.
fn rejudge_with_margin(pool: &mut Pool, margin: u64) {
    for l in pool.limits.iter_mut().filter(|l| l.id == LimitId::Physical) {
        l.check = l.check.with_margin(margin);
    }
    if pool.fits.is_some() {
        pool.fits = all_fit(
            &pool
                .limits
                .iter()
                .map(|l| Some(l.check.fits))
                .collect::<Vec<_>>(),
        );
    }
}

/// The device total vLLM takes its share of on a unified pool of `size` bytes (`MemTotal`): on
/// an AMD APU the GTT's size, which HIP reports as the device's memory (`mem_info_gtt_total`
/// 96 GiB gives llama.cpp's HIP backend "Total VRAM: 98304 MiB" beside a 4 GiB carve-out,
/// noamsto/nix-amd-ai#42; vLLM's "Free memory on device cuda:0 (57.38/124.0 GiB)" beside a
/// 64 GB carve-out, kyuz0/amd-strix-halo-vllm-toolboxes#63); elsewhere `MemTotal`.
fn engine_total(profile: &MachineProfile, size: Option<u64>) -> Option<u64> {
    profile
        .gpus
        .iter()
        .find(|g| g.vendor == GpuVendor::Amd && g.unified_memory)
        .and_then(|g| g.gtt_bytes)
        .or(size)
}

/// What vLLM asks for at start on a device of `total` bytes at `share`: `ceil(total × share)`
/// (`request_memory`, as [`crate::advisor::inference::vllm::requested_bytes`]).
fn requested(total: u64, share: f64) -> u64 {
    crate::units::saturating_bytes((total as f64 * share).ceil())
}

/// The start-up check's limit: `free` bytes at start against vLLM's `request`; the lever is a
/// lower share ([`levers`]). Its check carries the request, which [`judge`] charges.
fn startup_limit(free: u64, request: u64) -> PoolLimit {
    let mut l = limit(
        LimitId::StartupFree,
        free,
        Provenance::Detected,
        Scope::Gpu,
        Some(AdviceId::LowerGpuMemoryUtilization),
    );
    l.check = CapacityCheck::new(LimitKind::Vram, request, Some(free));
    l
}

/// Charges `consumers` to every limit and gives the pool its verdict.
fn judge(
    name: String,
    kind: PoolKind,
    size: Option<u64>,
    consumers: Vec<Consumer>,
    mut limits: Vec<PoolLimit>,
) -> Pool {
    let mut pool = Pool {
        name,
        kind,
        size_bytes: size,
        consumers,
        limits: Vec::new(),
        fits: None,
        binding: None,
    };
    for l in &mut limits {
        let loading_only = l.loading_only;
        let charged = match l.id {
            // vLLM's share holds its weights and KV cache, not its own claim.
            LimitId::EngineShare => pool
                .consumers
                .iter()
                .filter(|c| c.id == ConsumerId::Gpu)
                .map(|c| c.bytes)
                .sum(),
            // vLLM's request at start, whatever its weights and KV cache need.
            LimitId::StartupFree => l.check.needed_bytes,
            _ => pool.charged(l.scope).saturating_sub(loading_only),
        };
        let margin_kind = match (kind, l.scope) {
            (PoolKind::Vram, _) | (_, Scope::Gpu) => LimitKind::Vram,
            _ => LimitKind::Ram,
        };
        l.check = CapacityCheck::new(margin_kind, charged, Some(l.bytes));
    }
    if !pool.consumers.is_empty() && !limits.is_empty() {
        pool.fits = all_fit(
            &limits
                .iter()
                .map(|l| Some(l.check.fits))
                .collect::<Vec<_>>(),
        );
        let room = |l: &&PoolLimit| {
            l.check.headroom_bytes.unwrap_or(i64::MAX) - l.check.margin_bytes as i64
        };
        pool.binding = limits.iter().min_by_key(room).map(|l| l.id);
    }
    pool.limits = limits;
    pool
}
