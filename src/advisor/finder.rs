//! The findings of one machine and what was set up: capacity, the container, swap, `/dev/shm`,
//! PCIe, the plans (training, inference, data loading), Windows and WSL. Calls each part's own
//! findings; the vocabulary it speaks is [`super::findings`].

use super::capacity::{RamSizes, VramTotals};
use super::findings::{
    AdviceId, BUSY_UTILIZATION_PERCENT, Finding, FindingId, Quantity, SWAP_IN_USE_WARN_BYTES,
    SWAPPINESS_MAX, Severity,
};
use super::ratio::{Ratio, Tier};
use crate::profile::MachineProfile;

/// Everything the findings need, computed once by the advisor.
pub struct Context<'a> {
    /// The machine.
    pub profile: &'a MachineProfile,
    /// Effective RAM.
    pub ram: &'a RamSizes,
    /// VRAM totals.
    pub vram: &'a VramTotals,
    /// Ratios.
    pub ratio: &'a Ratio,
    /// The training-memory planner's result, if a plan was given.
    pub training: Option<&'a super::training::TrainingMemory>,
    /// The workload simulator's result, if a workload was given.
    pub workload: Option<&'a super::workload::WorkloadResult>,
    /// The inference estimate, if a model to serve was given.
    pub inference: Option<&'a super::inference::InferenceMemory>,
    /// The recommendations computed so far (what the plans' re-runs found).
    pub recommendations: &'a [super::recommend::Recommendation],
    /// The memory pools, every plan's consumers together ([`super::pools`]).
    pub pools: &'a [super::pools::Pool],
}

/// All findings for a machine, most severe first (stable order within a severity).
pub fn findings(cx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    capacity(cx, &mut out);
    if crate::profile::is_windows(cx.profile) {
        // Windows has no cgroups, swappiness or /dev/shm: its page file and WDDM instead.
        super::windows::page_file_findings(cx.profile, &mut out);
        super::windows::sysmem_fallback_findings(cx.profile, &mut out);
    } else {
        container(cx, &mut out);
        swap(cx, &mut out);
        shm(cx, &mut out);
    }
    pcie(cx, &mut out);
    training(cx, &mut out);
    inference(cx, &mut out);
    workload(cx, &mut out);
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

fn capacity(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let (ram, vram) = (cx.ram, cx.vram);
    if cx.profile.gpus.is_empty() {
        out.push(Finding::new(FindingId::NoGpu, Severity::Info, &[]));
    }
    if vram.unified_gpus > 0 {
        let mut f = Finding::new(
            FindingId::UnifiedMemory,
            Severity::Info,
            &[AdviceId::BudgetUnifiedPool],
        );
        if let Some(r) = ram.usable_bytes {
            f = f.with("ram", Quantity::Bytes(r));
        }
        out.push(f);
    }
    if let Some(ws) = crate::advisor::unified::apple_gpu_working_set(cx.profile) {
        // At macOS's default share, the advice is to raise it (`iogpu.wired_limit_mb`).
        let (id, advice): (_, &[AdviceId]) = if ws.is_default_share() {
            (
                FindingId::GpuWiredLimitDefault,
                &[AdviceId::RaiseGpuWiredLimit],
            )
        } else {
            (FindingId::GpuWiredLimitSet, &[])
        };
        let mut f =
            Finding::new(id, Severity::Info, advice).with("gpu_limit", Quantity::Bytes(ws.bytes));
        if let Some(r) = ram.usable_bytes {
            f = f.with("ram", Quantity::Bytes(r));
        }
        out.push(f);
    }
    // Sizing findings compare RAM as bought (or as a cgroup caps it) with the GPUs' nominal
    // memory, as the rules do (see `capacity`).
    let Some(effective) = ram.sizing_bytes else {
        out.push(Finding::new(FindingId::RamUnknown, Severity::Warning, &[]));
        return;
    };
    if vram.unknown_vram_gpus > 0 {
        out.push(
            Finding::new(
                FindingId::VramUnknown,
                Severity::Warning,
                &[AdviceId::InstallDriver],
            )
            .with("gpus", Quantity::Count(u64::from(vram.unknown_vram_gpus))),
        );
    }
    // What "add RAM" means on this kind of machine (a larger instance, a new machine, …), after
    // raising WSL's cap when that is what holds RAM down.
    let wsl = super::wsl::findings(cx.profile, ram, vram);
    let mut add: Vec<AdviceId> = wsl.iter().flat_map(|f| f.recommendations.clone()).collect();
    // A job limit below the machine's RAM is raised, never bought around (issue 31).
    add.push(if ram.limited_by_cgroup {
        AdviceId::RaiseLimit
    } else {
        super::buying::purchase::add_ram_rec(cx.profile)
    });
    // The WSL recommendation's numbers travel with it.
    let with_wsl = |mut f: Finding| {
        for w in &wsl {
            f.values.extend(w.values.clone());
        }
        f
    };
    if let (Some(total), Some(r)) = (vram.nominal_total_bytes, cx.ratio.ram_to_vram_total) {
        if effective < total {
            let recs: Vec<AdviceId> = add
                .iter()
                .copied()
                .chain([AdviceId::StreamDataset, AdviceId::Lora])
                .collect();
            out.push(with_wsl(
                Finding::new(FindingId::RamBelowVram, Severity::Critical, &recs)
                    .with("ram", Quantity::Bytes(effective))
                    .with("vram", Quantity::Bytes(total))
                    .with("ratio", Quantity::Ratio(r))
                    .with("shortfall", Quantity::Bytes(total - effective))
                    // Targets: the seed's baseline (1×) and its offload / large-model tier (2×).
                    .with("target_min", Quantity::Bytes(total))
                    .with("target", Quantity::Bytes(total.saturating_mul(2))),
            ));
        } else if cx.ratio.tier == Some(Tier::Baseline) {
            out.push(
                Finding::new(
                    FindingId::RamBelowOffloadTier,
                    Severity::Info,
                    &[AdviceId::Lora],
                )
                .with("ram", Quantity::Bytes(effective))
                .with("vram", Quantity::Bytes(total))
                .with("ratio", Quantity::Ratio(r))
                .with("target", Quantity::Bytes(scale_ceil(total, 1.5))),
            );
        }
    }
    if let Some(largest) = vram.nominal_largest_bytes {
        if vram.discrete_gpus > 1 && effective < largest {
            out.push(with_wsl(
                Finding::new(FindingId::RamBelowLargestGpu, Severity::Critical, &add)
                    .with("ram", Quantity::Bytes(effective))
                    .with("largest", Quantity::Bytes(largest))
                    .with("target", Quantity::Bytes(largest)),
            ));
        }
    }
}

fn scale_ceil(bytes: u64, factor: f64) -> u64 {
    (bytes as f64 * factor).ceil() as u64
}

fn container(cx: &Context<'_>, out: &mut Vec<Finding>) {
    if let (true, Some(limit), Some(physical)) = (
        cx.ram.limited_by_cgroup,
        cx.ram.limit_bytes,
        cx.ram.mem_total_bytes,
    ) {
        out.push(
            Finding::new(
                FindingId::ContainerLimitBelowRam,
                Severity::Warning,
                &[AdviceId::RaiseLimit],
            )
            .with("limit", Quantity::Bytes(limit))
            .with("physical", Quantity::Bytes(physical)),
        );
    }
}

fn swap(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let m = &cx.profile.memory;
    match m.swap_total_bytes {
        Some(0) => out.push(Finding::new(
            FindingId::SwapAbsent,
            Severity::Info,
            &[AdviceId::AddSwap],
        )),
        Some(total) => {
            if let Some(used) = m.swap_used_bytes.filter(|u| *u >= SWAP_IN_USE_WARN_BYTES) {
                out.push(
                    Finding::new(
                        FindingId::SwapInUse,
                        Severity::Warning,
                        &[AdviceId::LowerSwappiness],
                    )
                    .with("used", Quantity::Bytes(used))
                    .with("total", Quantity::Bytes(total)),
                );
            }
        }
        None => {}
    }
    // Without swap there is nothing for swappiness to push anonymous pages to.
    let has_swap = m.swap_total_bytes != Some(0);
    if let Some(s) = m.swappiness.filter(|s| *s > SWAPPINESS_MAX && has_swap) {
        out.push(
            Finding::new(
                FindingId::SwappinessHigh,
                Severity::Warning,
                &[AdviceId::LowerSwappiness],
            )
            .with("swappiness", Quantity::Count(u64::from(s)))
            .with("max", Quantity::Count(u64::from(SWAPPINESS_MAX))),
        );
    }
}

fn shm(cx: &Context<'_>, out: &mut Vec<Finding>) {
    // The workload's own need when one is given, else the default assumption.
    let need = cx
        .workload
        .and_then(|w| w.shm)
        .unwrap_or_else(super::workload::ShmNeed::default_assumption);
    if let Some(shm) = cx.profile.memory.shm_bytes {
        if shm < need.bytes {
            let mut f = super::workload::shm_finding(shm, &need);
            // The workload's own batches don't fit: its workers die with "Bus error" (PyTorch's
            // DataLoader raises it once shared memory is full). Against the default assumption
            // it stays a warning.
            if cx.workload.and_then(|w| w.shm).is_some_and(|s| s.bytes > 0) {
                f.severity = Severity::Critical;
            }
            out.push(f);
        }
    }
}

fn pcie(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for gpu in &cx.profile.gpus {
        let Some(link) = gpu.pcie else { continue };
        let busy = gpu
            .utilization_percent
            .is_some_and(|u| u >= BUSY_UTILIZATION_PERCENT);
        let narrow = matches!((link.width_current, link.width_max), (Some(c), Some(m)) if c < m);
        let slot_limited = matches!((link.gen_max, link.gen_gpu_max), (Some(m), Some(g)) if m < g);
        let slow_gen = matches!((link.gen_current, link.gen_max), (Some(c), Some(m)) if c < m);
        let mut f = if narrow || slot_limited || (slow_gen && busy) {
            Finding::new(
                FindingId::PcieLinkDegraded,
                Severity::Warning,
                &[AdviceId::CheckPcieSlot],
            )
        } else if slow_gen {
            Finding::new(FindingId::PcieLinkIdle, Severity::Info, &[])
        } else {
            continue;
        };
        f = f.with("gpu", Quantity::Count(u64::from(gpu.index)));
        for (name, v) in [
            ("gen_current", link.gen_current),
            ("gen_max", link.gen_gpu_max.or(link.gen_max)),
            ("width_current", link.width_current),
            ("width_max", link.width_max),
        ] {
            if let Some(v) = v {
                f = f.with(name, Quantity::Count(u64::from(v)));
            }
        }
        out.push(f);
    }
}

fn training(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(t) = cx.training else { return };
    let gpus = cx.vram.discrete_gpus;
    if gpus > 0 && t.plan.gpus_per_node > gpus {
        out.push(
            Finding::new(
                FindingId::TrainingMoreGpusThanMachine,
                Severity::Warning,
                &[],
            )
            .with(
                "plan_gpus",
                Quantity::Count(u64::from(t.plan.gpus_per_node)),
            )
            .with("gpus", Quantity::Count(u64::from(gpus))),
        );
    }
    if t.fits != Some(false) {
        return;
    }
    use super::recommend::Limit;
    let mut checks = vec![(Limit::Vram, &t.gpu), (Limit::Ram, &t.cpu)];
    if let Some(n) = &t.nvme {
        checks.push((Limit::Nvme, n));
    }
    if let Some(f) = plan_tight("training", &checks) {
        out.push(f);
        return;
    }
    // Each side fits alone and the pool they share with the other consumers (a unified pool)
    // fits inside its size but not its margin: the plan is tight, as the pool says, not "does
    // not fit" beside a summary line that says "fits only without headroom".
    if checks.iter().all(|(_, c)| c.fits != Some(false)) {
        if let Some(f) = pool_tight(cx.pools, super::recommend::Subject::Training) {
            out.push(f);
            return;
        }
    }
    let mut recs = Vec::new();
    let mut f = Finding::new(FindingId::TrainingDoesNotFit, Severity::Critical, &[])
        .with("gpu_needed", Quantity::Bytes(t.gpu.needed_bytes))
        .with("cpu_needed", Quantity::Bytes(t.cpu.needed_bytes))
        .with("gpu_missing", Quantity::Bytes(t.gpu.missing_bytes()))
        .with("cpu_missing", Quantity::Bytes(t.cpu.missing_bytes()));
    if let Some(a) = t.gpu.available_bytes {
        f = f.with("gpu_available", Quantity::Bytes(a));
    }
    if let Some(a) = t.cpu.available_bytes {
        f = f.with("cpu_available", Quantity::Bytes(a));
    }
    if let Some(target) = t.ram_to_fit_bytes {
        f = f.with("target", Quantity::Bytes(target));
    }
    // The phase that breaks, when it isn't the steps themselves (`present` words it).
    if let Some(phase) = super::training::breaking_phase(t) {
        f = f.with("phase", Quantity::Text(phase.as_str().to_string()));
    }
    // The ranked list says what to change, cheapest first; "add RAM" alone would skip the
    // settings and techniques that fit without buying anything.
    let any_change = cx
        .recommendations
        .iter()
        .any(|r| r.subject == super::recommend::Subject::Training);
    if any_change {
        recs.push(AdviceId::TryFittingPlan);
    } else if t.ram_to_fit_bytes.is_some() {
        recs.push(super::buying::purchase::add_ram_rec(cx.profile));
    }
    f.recommendations = recs;
    out.push(f);
}

/// `plan-tight` for a plan (`"training"`, `"inference"`) whose failing checks all fit without
/// their margin: the limit with the least headroom, its headroom and margin. `None` when a
/// check falls short outright (or none fails).
fn plan_tight(
    plan: &str,
    checks: &[(super::recommend::Limit, &super::training::CapacityCheck)],
) -> Option<Finding> {
    let failing: Vec<_> = checks
        .iter()
        .filter(|(_, c)| c.fits == Some(false))
        .collect();
    if failing.is_empty() || !failing.iter().all(|(_, c)| c.tight()) {
        return None;
    }
    let (limit, c) = failing
        .iter()
        .min_by_key(|(_, c)| c.headroom_bytes.unwrap_or(0))?;
    Some(
        Finding::new(
            FindingId::PlanTight,
            Severity::Warning,
            &[AdviceId::TryFittingPlan],
        )
        .with("plan", Quantity::Text(plan.to_string()))
        .with("limit", Quantity::Text(limit.id().to_string()))
        .with("needed", Quantity::Bytes(c.needed_bytes))
        .with("available", Quantity::Bytes(c.available_bytes.unwrap_or(0)))
        .with(
            "headroom",
            Quantity::Bytes(c.headroom_bytes.unwrap_or(0).max(0).unsigned_abs()),
        )
        .with("margin", Quantity::Bytes(c.margin_bytes)),
    )
}

/// `plan-tight` for `subject`'s plan from the pool it shares that fits inside its limit but
/// not the limit's margin ([`super::pools::Pool::overflowing`]); `None` when no such pool.
fn pool_tight(pools: &[super::pools::Pool], subject: super::recommend::Subject) -> Option<Finding> {
    let (kind, l) = pools
        .iter()
        .filter(|p| p.fits == Some(false) && p.charged_by(subject))
        .find_map(|p| Some((p.kind, p.overflowing().filter(|l| l.check.tight())?)))?;
    // A GPU's own memory is VRAM; a host or unified pool is RAM.
    let limit = match kind {
        super::pools::PoolKind::Vram => super::recommend::Limit::Vram,
        _ => super::recommend::Limit::Ram,
    };
    let plan = match subject {
        super::recommend::Subject::Inference => "inference",
        _ => "training",
    };
    plan_tight(plan, &[(limit, &l.check)])
}

fn inference(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(m) = cx.inference else { return };
    if m.fits == Some(false) {
        let checks = [
            (super::recommend::Limit::Vram, &m.gpu),
            (super::recommend::Limit::Ram, &m.cpu),
        ];
        match plan_tight("inference", &checks) {
            Some(f) => out.push(f),
            // Both sides fit alone: a shared pool inside its size but not its margin.
            None if checks.iter().all(|(_, c)| c.fits != Some(false)) => {
                out.extend(pool_tight(cx.pools, super::recommend::Subject::Inference));
            }
            None => {}
        }
    }
}

/// Advice a workload finding would give that the recommender computes (a worker count, shards,
/// a local copy, GPU decoding, pre-resized images, RAM): with a ranked workload item listed,
/// the finding points to the list instead of repeating it without figures.
const COMPUTED_BY_RECOMMENDER: [AdviceId; 6] = [
    AdviceId::SetNumWorkers,
    AdviceId::GpuDecode,
    AdviceId::PreResize,
    AdviceId::PackShards,
    AdviceId::CopyToLocalNvme,
    AdviceId::AddRam,
];

fn workload(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(w) = cx.workload else { return };
    let ranked = cx
        .recommendations
        .iter()
        .any(|r| r.subject == super::recommend::Subject::Workload);
    for mut f in super::workload::findings(w, cx.ram) {
        let pipeline = matches!(
            f.id,
            FindingId::StarvedByStorage
                | FindingId::StarvedByDecode
                | FindingId::StarvedByRamBandwidth
                | FindingId::DatasetNotCached
        );
        if ranked && pipeline {
            f.recommendations
                .retain(|r| !COMPUTED_BY_RECOMMENDER.contains(r));
            f.recommendations.insert(0, AdviceId::SeeWorkloadChanges);
        }
        out.push(f);
    }
    if let Some(cores) = super::workload::usable_cores(cx.profile) {
        if w.workload.num_workers > cores {
            out.push(
                Finding::new(FindingId::WorkersOversubscribed, Severity::Info, &[])
                    .with(
                        "workers",
                        Quantity::Count(u64::from(w.workload.num_workers)),
                    )
                    .with("cores", Quantity::Count(u64::from(cores))),
            );
        }
    }
}
