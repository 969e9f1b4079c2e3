//! Procurement: the current configuration and what to buy, with the reason for each number.
//! What was set up (a training plan, a model to serve, a data-loading workload) decides: when it
//! doesn't fit, its need is what to buy for; when it fits, nothing is, and the published rules'
//! target is only room for more (CPU offload, larger models); when nothing was set up, the
//! rules' target is what the section sizes. Pure; the report only prints it.

use serde::{Deserialize, Serialize};

use super::capacity::{RamSizes, VramTotals};
use super::capacity::{installed_for, installed_needed};
use super::findings::{Finding, FindingId, RecId};
use super::inference::InferenceMemory;
use super::recommend::{RecKind, Recommendation, Subject};
use super::training::TrainingMemory;
use super::workload::{StageId, WorkloadResult};
use crate::catalog::Platform;
use crate::catalog::modules::{FormFactor, ModuleSize};

/// Why RAM should grow to a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RamReason {
    /// RAM ≥ 2 × total VRAM: the seed article's tier for offload, large models and high
    /// resolution, and Puget Systems' rule (RAPIDS asks 1.8×).
    TwiceVram,
    /// RAM ≥ the largest GPU's VRAM (Dettmers), on multi-GPU machines.
    LargestGpu,
    /// What the user's training plan needs (training-memory planner).
    TrainingPlan,
    /// What serving the user's model needs in host RAM (inference planner).
    InferencePlan,
    /// The working set of the user's data-loading workload (workload simulator; the page cache
    /// for the dataset not included).
    Workload,
}

impl RamReason {
    /// True for a published rule (sized from the GPUs), false for what the user set up.
    pub fn is_rule(self) -> bool {
        matches!(self, RamReason::TwiceVram | RamReason::LargestGpu)
    }
}

/// One thing the user set up, and the RAM it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkNeed {
    /// What it is: the training plan, the model served or the data-loading workload.
    pub subject: Subject,
    /// Usable RAM it needs at its peak per node, bytes (what `MemTotal` or a cgroup limit
    /// offers).
    pub needed_bytes: u64,
    /// The installed RAM that leaves that much usable: `needed_bytes` ÷ this machine's usable
    /// share ([`RamSizes::usable_share`]), bytes.
    pub installed_bytes: u64,
    /// Whether it fits in usable RAM; `None` when usable RAM is unknown.
    pub fits: Option<bool>,
    /// For a workload whose GPUs wait for storage (the page cache can't hold the dataset): the
    /// installed RAM that would hold all of it (the `dataset-not-cached` finding's target), a
    /// way to speed it up after the cheaper ones (shards, a local NVMe copy). `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_cache_bytes: Option<u64>,
    /// Whether everything but host RAM fits (each GPU's memory, the NVMe space): when it
    /// doesn't, more RAM can't make this part fit and it sets no RAM target. `None`: can't
    /// tell.
    #[serde(default)]
    pub others_fit: Option<bool>,
}

impl WorkNeed {
    /// Doesn't fit, and more RAM would change that (nothing else falls short).
    pub fn ram_would_fix(&self) -> bool {
        self.fits != Some(true) && self.others_fit != Some(false)
    }
}

/// What the section's advice rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// Nothing was set up: the published rules size RAM.
    Rules,
    /// What was set up doesn't fit in RAM (or can't be checked): its need is what to buy for.
    Work,
    /// What was set up fits: no RAM to buy for it; the rules' target is only room for more.
    WorkFits,
    /// What was set up doesn't fit, but for a reason more RAM can't fix (the GPUs' memory, the
    /// NVMe space): no RAM to buy for it; the rules' target is only room for more.
    RamWontFix,
}

/// One reason with the RAM it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamTarget {
    /// Why.
    pub reason: RamReason,
    /// Bytes it asks for.
    pub required_bytes: u64,
}

/// A way to build a RAM size from equal modules on one kind of platform: every channel of one
/// socket filled with one module, or with two where the platform has two slots per channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimmSet {
    /// Memory channels of one socket, all filled.
    pub channels: u32,
    /// Modules in each channel (1, or 2 where the platform has two slots per channel).
    pub dimms_per_channel: u32,
    /// Memory type ("DDR5").
    pub memory_type: String,
    /// UDIMM (desktops) or RDIMM (workstations, servers).
    pub form_factor: FormFactor,
    /// Size of each module, bytes (module sizes are binary: a "32 GB" DIMM is 32 GiB).
    pub dimm_bytes: u64,
    /// channels × dimms_per_channel × dimm_bytes.
    pub total_bytes: u64,
    /// The catalogue's platforms of this kind that hold the set (`platforms.csv` names).
    pub platforms: Vec<String>,
}

impl DimmSet {
    /// Modules in the set: channels × modules per channel.
    pub fn modules(&self) -> u32 {
        self.channels * self.dimms_per_channel
    }
}

/// Memory type of the sets for a planned machine, or when the machine's own type has no
/// platform in the catalogue: DDR5, what the catalogue's current desktop, workstation and
/// server platforms take (`assets/catalog/platforms.csv`).
pub const PLANNED_MEMORY_TYPE: &str = "DDR5";

/// The memory type the sets are built for: `memory_type` when the catalogue has platforms for
/// it, else [`PLANNED_MEMORY_TYPE`].
fn set_memory_type<'a>(memory_type: Option<&'a str>, platforms: &[Platform]) -> &'a str {
    memory_type
        .filter(|t| platforms.iter().any(|p| p.memory.eq_ignore_ascii_case(t)))
        .unwrap_or(PLANNED_MEMORY_TYPE)
}

/// The kinds of platform for `memory_type`: the catalogue's platforms grouped by channels per
/// socket and form factor, fewest channels first, each with the most slots per channel any of
/// them has.
fn platform_kinds<'a>(
    memory_type: &str,
    platforms: &'a [Platform],
) -> Vec<(u32, FormFactor, u32, Vec<&'a Platform>)> {
    let mut kinds: Vec<(u32, FormFactor, u32, Vec<&Platform>)> = Vec::new();
    for p in platforms
        .iter()
        .filter(|p| p.memory.eq_ignore_ascii_case(memory_type))
    {
        let dpc = p.dimms_per_channel.max(1);
        match kinds
            .iter_mut()
            .find(|k| k.0 == p.channels_per_socket && k.1 == p.form_factor)
        {
            Some(k) => {
                k.2 = k.2.max(dpc);
                k.3.push(p);
            }
            None => kinds.push((p.channels_per_socket, p.form_factor, dpc, vec![p])),
        }
    }
    kinds.sort_by_key(|k| (k.0, k.1 != FormFactor::Udimm));
    kinds
}

/// For each kind of platform in `platforms` with `memory_type` memory (channels per socket and
/// form factor; see [`set_memory_type`]), the smallest set of equal modules that fills every
/// channel of one socket evenly and reaches `target` bytes: module sizes `modules` sells for
/// that type and form factor, one module per channel, or two where a platform of that kind has
/// two slots per channel. Smallest total first, then fewest modules (one per channel runs
/// faster than two: vendors' memory matrices, e.g. 4800 MT/s at 1 DPC, 4400 at 2 DPC). Kinds no
/// set reaches are left out; fewest channels first.
pub fn dimm_sets_from(
    target: u64,
    memory_type: Option<&str>,
    platforms: &[Platform],
    modules: &[ModuleSize],
) -> Vec<DimmSet> {
    let memory = set_memory_type(memory_type, platforms);
    platform_kinds(memory, platforms)
        .into_iter()
        .filter_map(|(channels, form, max_dpc, kind)| {
            let sizes = crate::catalog::modules::sizes(modules, memory, form);
            let (_, dpc, dimm) = (1..=max_dpc)
                .flat_map(|dpc| {
                    sizes.iter().map(move |&size| {
                        let count = u64::from(channels * dpc);
                        (size.saturating_mul(count), dpc, size)
                    })
                })
                .filter(|(total, _, _)| *total >= target)
                .min_by_key(|(total, dpc, _)| (*total, *dpc))?;
            Some(kind_set(channels, dpc, memory, form, dimm, &kind))
        })
        .collect()
}

/// The set of `channels × dpc` modules of `dimm` bytes on a kind of platform, naming the
/// platforms of that kind whose boards have `dpc` slots per channel.
fn kind_set(
    channels: u32,
    dpc: u32,
    memory: &str,
    form: FormFactor,
    dimm: u64,
    kind: &[&Platform],
) -> DimmSet {
    DimmSet {
        channels,
        dimms_per_channel: dpc,
        memory_type: memory.to_string(),
        form_factor: form,
        dimm_bytes: dimm,
        total_bytes: dimm.saturating_mul(u64::from(channels * dpc)),
        platforms: kind
            .iter()
            .filter(|p| p.dimms_per_channel >= dpc)
            .map(|p| p.platform.clone())
            .collect(),
    }
}

/// [`dimm_sets_from`] with the embedded catalogue.
pub fn dimm_sets(target: u64, memory_type: Option<&str>) -> Vec<DimmSet> {
    let c = crate::catalog::catalog();
    dimm_sets_from(target, memory_type, &c.platforms, &c.modules)
}

/// The largest set any kind of platform for `memory_type` holds (every slot of one socket with
/// the largest module sold for it); `None` when the catalogue has none.
pub fn largest_dimm_set(memory_type: Option<&str>) -> Option<DimmSet> {
    let c = crate::catalog::catalog();
    largest_dimm_set_from(memory_type, &c.platforms, &c.modules)
}

/// [`largest_dimm_set`] among `platforms`, with module sizes from `modules`.
pub fn largest_dimm_set_from(
    memory_type: Option<&str>,
    platforms: &[Platform],
    modules: &[ModuleSize],
) -> Option<DimmSet> {
    let memory = set_memory_type(memory_type, platforms);
    platform_kinds(memory, platforms)
        .into_iter()
        .filter_map(|(channels, form, dpc, kind)| {
            let dimm = *crate::catalog::modules::sizes(modules, memory, form).last()?;
            Some(kind_set(channels, dpc, memory, form, dimm, &kind))
        })
        .max_by_key(|s| s.total_bytes)
}

/// The procurement section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Procurement {
    /// RAM installed now (else as the rules size it; see `capacity`).
    pub current_ram_bytes: Option<u64>,
    /// The discrete GPUs' nominal memory.
    pub vram_bytes: Option<u64>,
    /// What was set up and assessed (training plan, model served, workload), with its need;
    /// empty when nothing was.
    #[serde(default)]
    pub work: Vec<WorkNeed>,
    /// What the advice rests on.
    #[serde(default = "rules_basis")]
    pub basis: Basis,
    /// What each reason asks for (only reasons current RAM does not meet): the published rules,
    /// and what was set up when it doesn't fit.
    pub targets: Vec<RamTarget>,
    /// The largest published rule's target that current RAM doesn't meet; `None` when it meets
    /// them all (or none applies).
    #[serde(default)]
    pub rules_ram_bytes: Option<u64>,
    /// Installed RAM to buy for: what was set up needs when it doesn't fit ([`Basis::Work`]),
    /// the rules' target when nothing was set up ([`Basis::Rules`]); `None` when nothing needs
    /// buying — including when what was set up fits, whatever the rules ask.
    pub recommended_ram_bytes: Option<u64>,
    /// Channel-filling sets of equal modules reaching the recommendation, for the kinds of
    /// platform in the catalogue ([`dimm_sets`]), fewest channels first; only when the purchase
    /// is the generic advice (the same sets as its own).
    pub dimm_sets: Vec<DimmSet>,
    /// Other hardware and configuration advice from the findings (storage, PCIe, /dev/shm, …).
    pub other: Vec<RecId>,
    /// What reaching `recommended_ram_bytes` takes on this kind of machine
    /// ([`super::purchase::purchase_to_reach`]); `None` when no more RAM is needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase: Option<super::purchase::Purchase>,
    /// When what was set up fits but the rules ask for more: what reaching `rules_ram_bytes`
    /// would take, as room for more, not a need.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_purchase: Option<super::purchase::Purchase>,
    /// When what was set up doesn't fit: for each part that doesn't, the cheapest change in the
    /// ranked list short of hardware whose re-run makes it fit ([`cheaper_fixes`]); empty when
    /// some part has none (then buying is the way).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cheaper_fixes: Vec<Recommendation>,
}

fn rules_basis() -> Basis {
    Basis::Rules
}

/// Hardware/configuration recommendations worth a line in a purchase request.
const OTHER_ADVICE: [RecId; 4] = [
    RecId::CheckPcieSlot,
    RecId::GrowShm,
    RecId::AddSwap,
    RecId::RaiseLimit,
];

/// What the user set up, from the assessment's parts: the training plan's and the model
/// served's host RAM at their peak, the workload's working set. Each with its fit against usable
/// RAM, as its own model judged it.
pub struct SetUp<'a> {
    /// The training plan's result.
    pub training: Option<&'a TrainingMemory>,
    /// The model served.
    pub inference: Option<&'a InferenceMemory>,
    /// The data-loading workload.
    pub workload: Option<&'a WorkloadResult>,
}

impl SetUp<'_> {
    /// Each part's need; `usable_share` turns usable bytes into installed ones.
    pub fn needs(&self, usable_share: f64) -> Vec<WorkNeed> {
        let need = |subject, needed: u64, fits, others_fit| WorkNeed {
            subject,
            needed_bytes: needed,
            installed_bytes: installed_needed(super::headroom::ram_to_hold(needed), usable_share),
            fits,
            page_cache_bytes: None,
            others_fit,
        };
        let mut out = Vec::new();
        if let Some(t) = self.training {
            let others = crate::advisor::recommend::machine::all_fit(&[
                Some(t.gpu.fits),
                t.nvme.map(|n| n.fits),
            ]);
            out.push(need(
                Subject::Training,
                t.cpu.needed_bytes,
                t.cpu.fits,
                others,
            ));
        }
        if let Some(m) = self.inference {
            out.push(need(
                Subject::Inference,
                m.cpu.needed_bytes,
                m.cpu.fits,
                m.gpu.fits,
            ));
        }
        if let Some(w) = self.workload {
            let b = &w.memory_budget;
            let storage_bound = w.pipeline.bottleneck == Some(StageId::StorageRead)
                && b.dataset_cached_fraction < 1.0;
            out.push(WorkNeed {
                page_cache_bytes: storage_bound.then(|| {
                    installed_for(
                        super::headroom::ram_to_hold(w.ram_to_cache_dataset_bytes),
                        usable_share,
                    )
                }),
                ..need(
                    Subject::Workload,
                    b.working_set_bytes,
                    b.headroom_bytes.map(|h| h >= 0),
                    Some(true),
                )
            });
        }
        out
    }
}

/// What the advice rests on for `work`: nothing set up, something that doesn't fit (or can't
/// be checked) that more RAM would fix, something that doesn't fit only for a reason RAM can't
/// fix, or everything fitting.
pub fn basis(work: &[WorkNeed]) -> Basis {
    if work.is_empty() {
        Basis::Rules
    } else if work.iter().all(|w| w.fits == Some(true)) {
        Basis::WorkFits
    } else if work.iter().any(WorkNeed::ram_would_fix) {
        Basis::Work
    } else {
        Basis::RamWontFix
    }
}

/// For each part of `work` that doesn't fit, the first change of the ranked list `ranked` about
/// it that costs less than hardware (a setting, a technique, the OS) and whose re-run fits;
/// empty unless every such part has one.
pub fn cheaper_fixes(work: &[WorkNeed], ranked: &[Recommendation]) -> Vec<Recommendation> {
    let hardware = RecKind::Hardware.cost();
    let mut out = Vec::new();
    for w in work.iter().filter(|w| w.fits == Some(false)) {
        let Some(r) = ranked.iter().find(|r| {
            r.subject == w.subject && r.kind.cost() < hardware && r.result.fits == Some(true)
        }) else {
            return Vec::new();
        };
        out.push(r.clone());
    }
    out
}

/// Builds the procurement section from the assessment's parts; `cheaper_fixes` is filled in
/// once the recommendations are ranked ([`cheaper_fixes`]).
pub fn procurement(
    profile: &crate::profile::MachineProfile,
    ram: &RamSizes,
    vram: &VramTotals,
    findings: &[Finding],
    set_up: &SetUp<'_>,
) -> Procurement {
    // What to buy is installed RAM. A plan's need is usable RAM; the firmware and kernel keep
    // the same share of a larger installation, so the installed size to buy is the need over
    // this machine's usable share (e.g. 63 GiB of need on a machine where 64 GiB shows as 62.7
    // asks for 64.3 GiB installed, which rounds to the next common size).
    let current = ram.installed_bytes.or(ram.sizing_bytes);
    let usable_share = ram.usable_share();
    let mut targets = Vec::new();
    let mut push = |reason, required: u64| {
        if current.is_none_or(|c| c < required) {
            targets.push(RamTarget {
                reason,
                required_bytes: required,
            });
        }
    };
    if let Some(total) = vram.nominal_total_bytes {
        push(RamReason::TwiceVram, total.saturating_mul(2));
    }
    if vram.discrete_gpus > 1 {
        if let Some(largest) = vram.nominal_largest_bytes {
            push(RamReason::LargestGpu, largest);
        }
    }
    let work = set_up.needs(usable_share);
    for w in work.iter().filter(|w| w.ram_would_fix()) {
        let reason = match w.subject {
            Subject::Inference => RamReason::InferencePlan,
            Subject::Workload => RamReason::Workload,
            Subject::Training | Subject::Machine => RamReason::TrainingPlan,
        };
        push(reason, w.installed_bytes);
    }
    let largest = |rule: bool| {
        targets
            .iter()
            .filter(|t| t.reason.is_rule() == rule)
            .map(|t| t.required_bytes)
            .max()
    };
    let rules_ram = largest(true);
    let basis = basis(&work);
    let recommended = match basis {
        Basis::Rules => rules_ram,
        Basis::Work => largest(false),
        Basis::WorkFits | Basis::RamWontFix => None,
    };
    let mut other = Vec::new();
    for f in findings {
        if f.id == FindingId::TrainingDoesNotFit {
            continue;
        }
        for r in &f.recommendations {
            if OTHER_ADVICE.contains(r) && !other.contains(r) {
                other.push(*r);
            }
        }
    }
    let purchase = recommended.map(|r| super::purchase::purchase_to_reach(profile, ram, r));
    let rules_purchase = rules_ram
        .filter(|_| matches!(basis, Basis::WorkFits | Basis::RamWontFix))
        .map(|r| super::purchase::purchase_to_reach(profile, ram, r));
    // The generic channel-filling sets only where nothing better can be said: never for a cloud
    // instance, a machine whose modules can be planned, or soldered memory.
    let generic_sets = match &purchase {
        Some(super::purchase::Purchase::Generic { dimm_sets, .. }) => dimm_sets.clone(),
        _ => Vec::new(),
    };
    Procurement {
        current_ram_bytes: current,
        vram_bytes: vram.nominal_total_bytes,
        work,
        basis,
        targets,
        rules_ram_bytes: rules_ram,
        recommended_ram_bytes: recommended,
        dimm_sets: generic_sets,
        other,
        purchase,
        rules_purchase,
        cheaper_fixes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    const GIB: u64 = 1 << 30;

    /// (channels, modules per channel, GB per module, total GiB) of each set.
    fn shape(sets: &[DimmSet]) -> Vec<(u32, u32, u64, u64)> {
        sets.iter()
            .map(|s| {
                (
                    s.channels,
                    s.dimms_per_channel,
                    s.dimm_bytes / GIB,
                    s.total_bytes / GIB,
                )
            })
            .collect()
    }

    #[test]
    fn g5_needs_48_gib_built_from_modules_sold_for_each_platform() {
        // 2 × 24 GiB = 48 GiB of DDR5. Desktop UDIMMs come in 8/16/24/32/48/64 GB: 2 × 24 = 48.
        // Workstation and server RDIMMs in 16/32/64/128/256 GB: 4 × 16 = 64, 8 × 16 = 128,
        // 12 × 16 = 192 (no 8 GB RDIMM to make 8 × 8 or 12 × 8).
        let sets = dimm_sets(48 * GIB, None);
        assert_eq!(
            shape(&sets),
            [
                (2, 1, 24, 48),
                (4, 1, 16, 64),
                (8, 1, 16, 128),
                (12, 1, 16, 192)
            ]
        );
        assert_eq!(sets[0].form_factor, FormFactor::Udimm);
        assert!(sets[1..].iter().all(|s| s.form_factor == FormFactor::Rdimm));
        assert!(sets.iter().all(|s| s.memory_type == "DDR5"));
    }

    #[test]
    fn a_desktop_reaches_192_gib_with_four_48_gb_udimms_not_two_96s() {
        // The tryout's case: 192 GiB. No 96 GB UDIMM exists; one per channel tops out at
        // 2 × 64 = 128, so a four-slot desktop takes 4 × 48 = 192 (two per channel).
        // 4 channels: 4 × 64 = 256 ties 8 × 32 = 256, one per channel wins. 8: 8 × 32 = 256
        // (ties 16 × 16). 12: 12 × 16 = 192.
        let sets = dimm_sets(192 * GIB, None);
        assert_eq!(
            shape(&sets),
            [
                (2, 2, 48, 192),
                (4, 1, 64, 256),
                (8, 1, 32, 256),
                (12, 1, 16, 192)
            ]
        );
        assert_eq!(sets[0].modules(), 4);
        assert_eq!(sets[0].platforms, ["Desktop (AM5 / LGA1700 / LGA1851)"]);
        // 4 × 64 = 256 GiB is the most a desktop holds; 257 GiB has no desktop set.
        assert_eq!(shape(&dimm_sets(256 * GIB, None))[0], (2, 2, 64, 256));
        assert!(dimm_sets(257 * GIB, None).iter().all(|s| s.channels > 2));
    }

    #[test]
    fn two_per_channel_only_on_platforms_with_two_slots_per_channel() {
        // 8 channels: 8 × 256 = 2048 GiB one per channel; 3 TiB needs 16 × 256 = 4096, which
        // Threadripper PRO's WRX90 (one slot per channel) can't hold.
        let sets = dimm_sets(3072 * GIB, None);
        let eight = sets.iter().find(|s| s.channels == 8).unwrap();
        assert_eq!((eight.dimms_per_channel, eight.dimm_bytes), (2, 256 * GIB));
        assert!(
            eight.platforms.iter().all(|p| !p.contains("WRX90")) && !eight.platforms.is_empty(),
            "{:?}",
            eight.platforms
        );
        let one = dimm_sets(2048 * GIB, None);
        let eight = one.iter().find(|s| s.channels == 8).unwrap();
        assert!(eight.platforms.iter().any(|p| p.contains("WRX90")));
    }

    #[test]
    fn every_set_can_be_bought_and_installed() {
        // Each set: a catalogue platform with that many channels, that form factor and enough
        // slots per channel, and a module of that size sold for its type and form factor.
        let c = catalog();
        for gib in (8..=6144).step_by(8) {
            for memory in [None, Some("DDR4"), Some("DDR5"), Some("LPDDR5")] {
                for s in dimm_sets(gib * GIB, memory) {
                    assert!(s.total_bytes >= gib * GIB);
                    assert_eq!(
                        s.total_bytes,
                        s.dimm_bytes * u64::from(s.channels * s.dimms_per_channel)
                    );
                    assert!(
                        crate::catalog::modules::sizes(&c.modules, &s.memory_type, s.form_factor)
                            .contains(&s.dimm_bytes),
                        "{s:?}"
                    );
                    assert!(!s.platforms.is_empty(), "{s:?}");
                    for name in &s.platforms {
                        let p = c.platform(name).unwrap();
                        assert_eq!(p.channels_per_socket, s.channels);
                        assert_eq!(p.form_factor, s.form_factor);
                        assert!(p.dimms_per_channel >= s.dimms_per_channel);
                        assert_eq!(p.memory, s.memory_type);
                    }
                }
            }
        }
    }

    #[test]
    fn ddr4_sets_use_ddr4_platforms_and_anything_else_plans_ddr5() {
        // DDR4 UDIMMs stop at 32 GB: 48 GiB on a desktop is 2 × 32 = 64 (4 × 16 = 64 ties, one
        // per channel wins); EPYC 7003's 8 RDIMM channels: 8 × 16 = 128.
        assert_eq!(
            shape(&dimm_sets(48 * GIB, Some("DDR4"))),
            [(2, 1, 32, 64), (8, 1, 16, 128)]
        );
        // LPDDR5 is soldered: no platform takes it, so a planned machine is DDR5.
        assert_eq!(
            dimm_sets(48 * GIB, Some("LPDDR5")),
            dimm_sets(48 * GIB, None)
        );
    }

    #[test]
    fn huge_targets_have_no_set_beyond_the_catalogue() {
        // 12 channels × 2 per channel × 256 GB = 6144 GiB is the largest DDR5 set of one socket.
        let largest = largest_dimm_set(None).unwrap();
        assert_eq!(
            (largest.channels, largest.modules(), largest.total_bytes),
            (12, 24, 6144 * GIB)
        );
        assert!(dimm_sets(6145 * GIB, None).is_empty());
        assert_eq!(dimm_sets(6144 * GIB, None).len(), 1);
    }

    #[test]
    fn the_basis_and_cheaper_fixes_follow_what_was_set_up() {
        use super::super::recommend::{Outcome, RecommendationId as R};
        let part = |subject, fits| WorkNeed {
            subject,
            needed_bytes: 10 * GIB,
            installed_bytes: 10 * GIB,
            fits,
            page_cache_bytes: None,
            others_fit: Some(true),
        };
        assert_eq!(basis(&[]), Basis::Rules);
        assert_eq!(
            basis(&[part(Subject::Training, Some(true))]),
            Basis::WorkFits
        );
        // One part that doesn't fit, or can't be checked, is enough to buy for.
        let both = [
            part(Subject::Training, Some(true)),
            part(Subject::Workload, Some(false)),
        ];
        assert_eq!(basis(&both), Basis::Work);
        assert_eq!(basis(&[part(Subject::Training, None)]), Basis::Work);
        let rec = |id, kind, subject, fits| {
            Recommendation::new(
                id,
                kind,
                subject,
                Outcome {
                    fits: Some(fits),
                    ..Outcome::default()
                },
            )
        };
        let ranked = [
            rec(
                R::ReduceBatchSize,
                RecKind::Setting,
                Subject::Workload,
                false,
            ),
            rec(R::AddRam, RecKind::Hardware, Subject::Workload, true),
            rec(R::NoCache, RecKind::Setting, Subject::Workload, true),
            rec(R::Lora, RecKind::Software, Subject::Training, true),
        ];
        // The workload's first fitting change short of hardware: no cache (not the batch size,
        // which still doesn't fit; not RAM).
        let fixes = cheaper_fixes(&both, &ranked);
        assert_eq!(fixes.iter().map(|r| r.id).collect::<Vec<_>>(), [R::NoCache]);
        // A second part without one: buying is the way, so none is named.
        let two = [
            part(Subject::Inference, Some(false)),
            part(Subject::Workload, Some(false)),
        ];
        assert!(cheaper_fixes(&two, &ranked).is_empty());
    }
}
