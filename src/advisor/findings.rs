//! Findings: what is wrong or worth knowing, as data. A finding has a stable id, a severity,
//! the numbers that triggered it and the ids of its recommendations; the prose lives in the
//! locale files (`finding.<id>.*`, `rec.<id>`), so the window, the terminal and reports say the
//! same thing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::capacity::{EffectiveRam, VramTotals};
use super::ratio::{Ratio, Tier};
use crate::profile::MachineProfile;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Will slow training or break some setups.
    Warning,
    /// Will starve the GPUs or kill jobs.
    Critical,
}

/// Stable finding ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingId {
    /// Effective RAM < total discrete VRAM.
    RamBelowVram,
    /// Effective RAM < the largest single GPU's VRAM (multi-GPU machines; with one GPU this is
    /// the same as `ram-below-vram` and only that one is raised).
    RamBelowLargestGpu,
    /// 1.0 ≤ ratio < 1.5: enough without offload, not for CPU offload.
    RamBelowOffloadTier,
    /// A cgroup limit caps memory below physical RAM.
    ContainerLimitBelowRam,
    /// The GPU shares system RAM; the ratio does not apply.
    UnifiedMemory,
    /// No GPU found.
    NoGpu,
    /// A discrete GPU's VRAM is unknown, so the ratio can't be computed.
    VramUnknown,
    /// Physical RAM unknown.
    RamUnknown,
    /// No swap configured.
    SwapAbsent,
    /// Swap in use at detection time.
    SwapInUse,
    /// `vm.swappiness` above 20.
    SwappinessHigh,
    /// `/dev/shm` smaller than DataLoader workers need.
    ShmSmall,
    /// A GPU's PCIe link runs narrower or slower than it can.
    PcieLinkDegraded,
    /// A GPU's link runs below its maximum generation while idle (power saving, normal).
    PcieLinkIdle,
    /// The training plan's model states don't fit this machine's RAM or VRAM.
    TrainingDoesNotFit,
    /// A plan (training or inference) fits its limits only inside the margin it must leave
    /// (`advisor::headroom`): it would run out of memory in practice.
    PlanTight,
    /// The training plan runs more ranks per node than this machine has GPUs: its figures are
    /// for another machine.
    TrainingMoreGpusThanMachine,
    /// The workload's working set exceeds effective RAM: swapping, then the OOM killer.
    WorkloadRamExceeded,
    /// The workload leaves under 10 % of RAM free.
    WorkloadSwapRisk,
    /// The dataset doesn't fit in the page cache: every epoch reads (part of) it from storage,
    /// and storage delivers fewer samples/s than the GPUs want (it limits them, or would once
    /// the narrower stage is fixed).
    DatasetNotCached,
    /// The dataset doesn't fit in the page cache, but storage delivers at least what the GPUs
    /// want: it streams fast enough, and more RAM to cache it wouldn't speed training.
    DatasetStreamsFromStorage,
    /// GPUs wait for storage.
    StarvedByStorage,
    /// GPUs wait for memory bandwidth.
    StarvedByRamBandwidth,
    /// GPUs wait for decoding and augmentation.
    StarvedByDecode,
    /// GPUs wait for host-to-device copies.
    StarvedByPcie,
    /// Only one memory channel is populated.
    SingleChannelMemory,
    /// Memory channels hold different amounts or numbers of modules.
    UnevenChannels,
    /// Memory bandwidth is below the seed's 2 GB/s per GiB of VRAM: the data path, not the
    /// GPU, sets the pace.
    MemoryBandwidthBound,
    /// A measured dataset folder is on a network file system.
    DatasetOnNetworkStorage,
    /// A measured dataset folder is on a rotating disk.
    DatasetOnHdd,
    /// WSL2 caps the RAM Linux sees below what Windows has (`advisor::wsl`).
    WslMemoryCapped,
    /// The workload's RAM cache (decoded images, or the stored files) is what pushes its
    /// working set past RAM.
    CacheDoesNotFit,
    /// Every DataLoader worker copies the dataset's index (Python objects touched by reference
    /// counting), and the copies are a noticeable part of RAM.
    DatasetIndexCopied,
    /// More DataLoader workers than usable cores: they time-share the cores, adding memory
    /// without adding decode speed.
    WorkersOversubscribed,
    /// The dataset size, sample count, format and image size don't agree (the implied file size
    /// is far outside what the format takes at that size).
    DatasetSizeInconsistent,
}

/// Stable recommendation ids; text in `rec.<id>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecId {
    /// Add RAM up to the target.
    AddRam,
    /// Stream or memory-map the dataset instead of holding it in RAM.
    StreamDataset,
    /// Fine-tune with LoRA/QLoRA instead of full-parameter CPU offload.
    PreferLora,
    /// Raise the container / job memory limit.
    RaiseLimit,
    /// Plan model, data and OS against one shared pool.
    BudgetUnifiedPool,
    /// Install or repair the NVIDIA driver so NVML can report VRAM.
    InstallDriver,
    /// Add swap on fast NVMe as a safety net.
    AddSwap,
    /// Set `vm.swappiness` to 10–20.
    LowerSwappiness,
    /// Grow `/dev/shm` (Docker `--shm-size` or `--ipc=host`).
    GrowShm,
    /// Reseat the GPU / check the slot, riser and BIOS link settings.
    CheckPcieSlot,
    /// Switch to a training plan that fits (the planner lists them).
    TryFittingPlan,
    /// Set `num_workers` to the recommended value.
    SetNumWorkers,
    /// Store images pre-resized near the training resolution.
    PreResize,
    /// Shard the dataset (WebDataset, TFRecord) or memory-map it.
    UseShards,
    /// Turn on `pin_memory`.
    PinMemory,
    /// Install modules so every memory channel is populated.
    PopulateChannels,
    /// Use identical modules in every channel.
    MatchModules,
    /// Decode and augment on the GPU (NVIDIA DALI) to take work off CPU and RAM.
    GpuDataLoading,
    /// Copy the dataset to local NVMe, or pack small files into shards.
    CopyToLocalNvme,
    /// A cloud instance: move to a larger instance of the same family (`advisor::purchase`).
    LargerInstance,
    /// Soldered memory: it can't be upgraded; plan a new machine.
    PlanNewMachine,
    /// A virtual machine: ask its host for more memory.
    RaiseVmMemory,
    /// WSL2: raise `memory=` in `.wslconfig` (Windows' RAM entered).
    WslRaiseMemory,
    /// WSL2: raise `memory=` (Windows' RAM estimated from the default cap).
    WslRaiseMemoryEstimated,
    /// WSL2: raise `memory=` (Windows' RAM unknown).
    WslRaiseMemoryUnknown,
    /// Hold the dataset index in NumPy arrays or Arrow, or memory-mapped files.
    IndexAsArrays,
    /// No `num_workers` value fits: the other levers (listed with their numbers) or RAM.
    NoWorkerCountFits,
    /// Fewer DataLoader workers or a smaller `prefetch_factor`, to use less RAM (live
    /// diagnosis).
    ReduceWorkers,
    /// More DataLoader workers, to decode faster or keep more reads in flight (live diagnosis).
    MoreWorkers,
    /// Look at the data loader first: the GPU idles between batches (live diagnosis).
    CheckDataLoader,
    /// A hosted notebook: a runtime with more RAM.
    LargerRuntime,
    /// The data-loading changes are in the ranked list, each with its predicted utilisation
    /// (in place of canned advice the recommender computes).
    SeeWorkloadChanges,
}

/// A number behind a finding, with its unit. Serialises as `{"unit": "bytes", "value": 1}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "unit", content = "value", rename_all = "lowercase")]
pub enum Quantity {
    /// Bytes.
    Bytes(u64),
    /// A dimensionless ratio (RAM/VRAM).
    Ratio(f64),
    /// A count (GPU index, lanes, a kernel setting).
    Count(u64),
    /// A rate in samples per second.
    Rate(f64),
    /// A share, 0–1, shown as a percentage.
    Share(f64),
    /// Bandwidth in bytes per second (shown as GB/s, 10^9 bytes/s).
    #[serde(rename = "bytes_per_s")]
    BytesPerSecond(f64),
    /// A setting's value as written in a configuration (`"rank0"`, `"g5.2xlarge"`): shown as
    /// it is, untranslated.
    Text(String),
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable id.
    pub id: FindingId,
    /// Severity.
    pub severity: Severity,
    /// The numbers behind it, by name; the locale texts use the same names as placeholders.
    pub values: BTreeMap<String, Quantity>,
    /// What to do, most useful first.
    pub recommendations: Vec<RecId>,
}

impl Finding {
    pub(crate) fn new(id: FindingId, severity: Severity, recs: &[RecId]) -> Finding {
        Finding {
            id,
            severity,
            values: BTreeMap::new(),
            recommendations: recs.to_vec(),
        }
    }

    pub(crate) fn with(mut self, name: &str, q: Quantity) -> Finding {
        self.values.insert(name.to_string(), q);
        self
    }
}

/// Swap use worth a warning: 256 MiB. Assumption: a few MiB of idle pages in swap is normal on
/// a long-running host; hundreds of MiB means memory pressure happened.
pub const SWAP_IN_USE_WARN_BYTES: u64 = 256 << 20;

/// Swappiness above this is "high": the seed (§四.3) recommends 10–20 for training machines.
pub const SWAPPINESS_MAX: u32 = 20;

/// `/dev/shm` a typical DataLoader needs, used until a workload scenario says otherwise:
/// 8 workers × `prefetch_factor` 2 (PyTorch's default) batches in flight, each an ImageNet
/// batch of 256 samples of 3 × 224 × 224 float32 (154,140,672 bytes): 2,466,250,752 bytes
/// (2.3 GiB). Assumption stated in docs/model.md; PyTorch workers pass batches through shared
/// memory (torch.multiprocessing), so this is what must fit. Docker's 64 MB default fails it.
pub const SHM_NEEDED_DEFAULT_BYTES: u64 = 8 * 2 * 256 * 3 * 224 * 224 * 4;

/// A GPU counts as busy (so a slow link is a fault, not power saving) at this utilisation.
/// Assumption: NVIDIA GPUs raise the link to full speed within milliseconds of load.
pub const BUSY_UTILIZATION_PERCENT: u32 = 50;

/// Everything the findings need, computed once by the advisor.
pub struct Context<'a> {
    /// The machine.
    pub profile: &'a MachineProfile,
    /// Effective RAM.
    pub ram: &'a EffectiveRam,
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
}

/// All findings for a machine, most severe first (stable order within a severity).
pub fn findings(cx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    capacity(cx, &mut out);
    container(cx, &mut out);
    swap(cx, &mut out);
    shm(cx, &mut out);
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
            &[RecId::BudgetUnifiedPool],
        );
        if let Some(r) = ram.effective_bytes {
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
                &[RecId::InstallDriver],
            )
            .with("gpus", Quantity::Count(u64::from(vram.unknown_vram_gpus))),
        );
    }
    // What "add RAM" means on this kind of machine (a larger instance, a new machine, …), after
    // raising WSL's cap when that is what holds RAM down.
    let wsl = super::wsl::findings(cx.profile, ram, vram);
    let mut add: Vec<RecId> = wsl.iter().flat_map(|f| f.recommendations.clone()).collect();
    add.push(super::purchase::add_ram_rec(cx.profile));
    // The WSL recommendation's numbers travel with it.
    let with_wsl = |mut f: Finding| {
        for w in &wsl {
            f.values.extend(w.values.clone());
        }
        f
    };
    if let (Some(total), Some(r)) = (vram.nominal_total_bytes, cx.ratio.ram_to_vram_total) {
        if effective < total {
            let recs: Vec<RecId> = add
                .iter()
                .copied()
                .chain([RecId::StreamDataset, RecId::PreferLora])
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
                    &[RecId::PreferLora],
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
        cx.ram.physical_bytes,
    ) {
        out.push(
            Finding::new(
                FindingId::ContainerLimitBelowRam,
                Severity::Warning,
                &[RecId::RaiseLimit],
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
            &[RecId::AddSwap],
        )),
        Some(total) => {
            if let Some(used) = m.swap_used_bytes.filter(|u| *u >= SWAP_IN_USE_WARN_BYTES) {
                out.push(
                    Finding::new(
                        FindingId::SwapInUse,
                        Severity::Warning,
                        &[RecId::LowerSwappiness],
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
                &[RecId::LowerSwappiness],
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
                &[RecId::CheckPcieSlot],
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
    let mut checks = vec![("vram", &t.gpu), ("ram", &t.cpu)];
    if let Some(n) = &t.nvme {
        checks.push(("nvme", n));
    }
    if let Some(f) = plan_tight("training", &checks) {
        out.push(f);
        return;
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
    // The ranked list says what to change, cheapest first; "add RAM" alone would skip the
    // settings and techniques that fit without buying anything.
    let any_change = cx
        .recommendations
        .iter()
        .any(|r| r.subject == super::recommend::Subject::Training);
    if any_change {
        recs.push(RecId::TryFittingPlan);
    } else if t.ram_to_fit_bytes.is_some() {
        recs.push(super::purchase::add_ram_rec(cx.profile));
    }
    f.recommendations = recs;
    out.push(f);
}

/// `plan-tight` for a plan (`"training"`, `"inference"`) whose failing checks all fit without
/// their margin: the limit with the least headroom, its headroom and margin. `None` when a
/// check falls short outright (or none fails).
fn plan_tight(plan: &str, checks: &[(&str, &super::training::CapacityCheck)]) -> Option<Finding> {
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
            &[RecId::TryFittingPlan],
        )
        .with("plan", Quantity::Text(plan.to_string()))
        .with("limit", Quantity::Text(limit.to_string()))
        .with("needed", Quantity::Bytes(c.needed_bytes))
        .with("available", Quantity::Bytes(c.available_bytes.unwrap_or(0)))
        .with(
            "headroom",
            Quantity::Bytes(c.headroom_bytes.unwrap_or(0).max(0).unsigned_abs()),
        )
        .with("margin", Quantity::Bytes(c.margin_bytes)),
    )
}

fn inference(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(m) = cx.inference else { return };
    if m.fits == Some(false) {
        out.extend(plan_tight(
            "inference",
            &[("vram", &m.gpu), ("ram", &m.cpu)],
        ));
    }
}

/// Advice a workload finding would give that the recommender computes (a worker count, shards,
/// a local copy, GPU decoding, pre-resized images, RAM): with a ranked workload item listed,
/// the finding points to the list instead of repeating it without figures.
const COMPUTED_BY_RECOMMENDER: [RecId; 6] = [
    RecId::SetNumWorkers,
    RecId::GpuDataLoading,
    RecId::PreResize,
    RecId::UseShards,
    RecId::CopyToLocalNvme,
    RecId::AddRam,
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
            f.recommendations.insert(0, RecId::SeeWorkloadChanges);
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
