//! Words for what kind of machine this is and what to buy for it ([`Purchase`]), in one
//! language; shared by the window, the terminal and the reports. Computes nothing: every number
//! comes from the advisor.

pub mod order;

use crate::advisor::Assessment;
use crate::advisor::buying::dimm_sets::DimmSet;
use crate::advisor::buying::procurement::{Basis, RamReason, WorkNeed};
use crate::advisor::buying::purchase::{
    GenericReason, ModulePlan, Purchase, ReplaceReason, SolderedReason, modules_text,
};
use crate::advisor::recommend::Subject;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::{CloudProvider, Platform, PlatformKind, WslConfigState};

/// "cloud instance", "desktop", …
pub fn kind(lang: Lang, k: PlatformKind) -> &'static str {
    tr(
        lang,
        match k {
            PlatformKind::Cloud => Msg::PlatformKindCloud,
            PlatformKind::VirtualMachine => Msg::PlatformKindVirtualMachine,
            PlatformKind::Desktop => Msg::PlatformKindDesktop,
            PlatformKind::Workstation => Msg::PlatformKindWorkstation,
            PlatformKind::Server => Msg::PlatformKindServer,
            PlatformKind::Laptop => Msg::PlatformKindLaptop,
            PlatformKind::Apple => Msg::PlatformKindApple,
            PlatformKind::HostedNotebook => Msg::PlatformKindHostedNotebook,
        },
    )
}

/// "AWS", "Google Cloud", …
pub fn provider(lang: Lang, p: CloudProvider) -> &'static str {
    tr(
        lang,
        match p {
            CloudProvider::Aws => Msg::PlatformProviderAws,
            CloudProvider::Gcp => Msg::PlatformProviderGcp,
            CloudProvider::Azure => Msg::PlatformProviderAzure,
            CloudProvider::Alibaba => Msg::PlatformProviderAlibaba,
            CloudProvider::Oracle => Msg::PlatformProviderOracle,
        },
    )
}

/// "cloud instance · AWS · g5.xlarge", "desktop", or "unknown".
pub fn platform(lang: Lang, p: Option<&Platform>) -> String {
    let Some(p) = p else {
        return format::unknown(lang);
    };
    let mut parts: Vec<String> = Vec::new();
    parts.push(
        p.kind
            .map_or_else(|| format::unknown(lang), |k| kind(lang, k).to_string()),
    );
    if let Some(pr) = p.provider {
        parts.push(provider(lang, pr).to_string());
    }
    if let Some(t) = &p.instance_type {
        parts.push(t.clone());
    }
    parts.join(" · ")
}

/// Hardware rows about the kind of machine, its slots and WSL (each only when known).
pub fn platform_rows(lang: Lang, a: &Assessment) -> Vec<(String, String)> {
    let m = &a.profile.memory;
    let mut rows = vec![(
        tr(lang, Msg::PlatformLabel).to_string(),
        platform(lang, a.profile.host.platform.as_ref()),
    )];
    if let (Some(total), Some(used)) = (m.slots_total, m.slots_populated) {
        let value = match m.channels_total {
            Some(c) => trf(
                lang,
                Msg::PlatformSlotsValueChannels,
                &[
                    ("populated", &used.to_string()),
                    ("total", &total.to_string()),
                    ("channels", &c.to_string()),
                ],
            ),
            None => trf(
                lang,
                Msg::PlatformSlotsValue,
                &[
                    ("populated", &used.to_string()),
                    ("total", &total.to_string()),
                ],
            ),
        };
        rows.push((tr(lang, Msg::PlatformSlots).to_string(), value));
    }
    if let Some(w) = &m.wsl {
        let config = match (w.wslconfig_memory_bytes, w.wslconfig) {
            (Some(mem), _) => trf(
                lang,
                Msg::PlatformWslConfigMemory,
                &[("memory", &format::gib(mem))],
            ),
            (None, Some(WslConfigState::Read)) => tr(lang, Msg::PlatformWslConfigDefault).into(),
            (None, Some(WslConfigState::Absent)) => tr(lang, Msg::PlatformWslConfigAbsent).into(),
            (None, Some(WslConfigState::Malformed)) => {
                tr(lang, Msg::PlatformWslConfigMalformed).into()
            }
            (None, Some(WslConfigState::Ambiguous)) => {
                tr(lang, Msg::PlatformWslConfigAmbiguous).into()
            }
            (None, Some(WslConfigState::Unreadable) | None) => {
                tr(lang, Msg::PlatformWslConfigUnreadable).into()
            }
        };
        let cap = format::gib_or_unknown(lang, w.memory_cap_bytes);
        let value = match w.version {
            Some(v) => trf(
                lang,
                Msg::PlatformWslValue,
                &[
                    ("version", &v.to_string()),
                    ("cap", &cap),
                    ("config", &config),
                ],
            ),
            None => trf(
                lang,
                Msg::PlatformWslVUnknown,
                &[("cap", &cap), ("config", &config)],
            ),
        };
        rows.push((tr(lang, Msg::PlatformWsl).to_string(), value));
    }
    rows
}

/// How the channels are filled after a module plan: "dual channel", "4 channels, evenly
/// filled", "1 of 2 channels used", or "channels unknown".
pub fn channels(lang: Lang, p: &ModulePlan) -> String {
    let (Some(total), Some(used), Some(balanced)) =
        (p.channels_total, p.channels_after, p.balanced)
    else {
        return tr(lang, Msg::PurchaseChannelsUnknown).to_string();
    };
    if used < total {
        return trf(
            lang,
            Msg::PurchaseChannelsPartial,
            &[
                ("used", &used.to_string()),
                ("channels", &total.to_string()),
            ],
        );
    }
    if !balanced {
        return trf(
            lang,
            Msg::PurchaseChannelsUneven,
            &[
                ("modules", &p.modules_after.to_string()),
                ("channels", &total.to_string()),
            ],
        );
    }
    match total {
        1 => tr(lang, Msg::PurchaseChannelsSingle).to_string(),
        2 => tr(lang, Msg::PurchaseChannelsDual).to_string(),
        n => trf(
            lang,
            Msg::PurchaseChannelsEven,
            &[("channels", &n.to_string())],
        ),
    }
}

fn plan_args(lang: Lang, p: &ModulePlan) -> Vec<(&'static str, String)> {
    vec![
        ("modules", modules_text(p)),
        ("keep", p.keep.to_string()),
        ("remove", p.remove.to_string()),
        ("after", format::gib(p.installed_after_bytes)),
        ("count", p.modules_after.to_string()),
        ("slots", p.slots_total.to_string()),
        ("channels", channels(lang, p)),
    ]
}

fn fill(lang: Lang, msg: Msg, args: &[(&'static str, String)]) -> String {
    let pairs: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, msg, &pairs)
}

/// The purchase in one paragraph; `needed` is the installed RAM it reaches for. Where a list of
/// channel-filling sets follows ([`alternative`]), the paragraph ends by introducing it.
pub fn paragraph(lang: Lang, p: &Purchase, needed: u64) -> String {
    let mut text = situation(lang, p, needed);
    let largest = match p {
        Purchase::Generic { largest_set, .. }
        | Purchase::Soldered { largest_set, .. }
        | Purchase::BoardLimit { largest_set, .. } => largest_set.as_ref(),
        _ => None,
    };
    if let Some(largest) = largest.filter(|_| alternative(p).is_empty()) {
        text.push_str(&trf(
            lang,
            Msg::PurchaseNoSet,
            &[
                ("count", &largest.modules().to_string()),
                ("size", &(largest.dimm_bytes >> 30).to_string()),
                ("total", &format::gib(largest.total_bytes)),
            ],
        ));
    }
    text
}

/// The paragraph before any note that no set reaches the need.
fn situation(lang: Lang, p: &Purchase, needed: u64) -> String {
    let need = ("needed", format::gib(needed));
    let gib = format::gib;
    match p {
        Purchase::NotNeeded { installed_bytes } => fill(
            lang,
            Msg::PurchaseNotNeeded,
            &[("installed", gib(*installed_bytes)), need],
        ),
        Purchase::AddModules(plan) => fill(lang, Msg::PurchaseAddModules, &plan_args(lang, plan)),
        Purchase::ReplaceModules(plan) => {
            let msg = match plan.replace_reason {
                Some(ReplaceReason::SlotsFull) => Msg::PurchaseReplaceFull,
                _ => Msg::PurchaseReplaceNotEnough,
            };
            let mut args = plan_args(lang, plan);
            args.push(need);
            fill(lang, msg, &args)
        }
        Purchase::BoardLimit {
            module,
            slots,
            max_bytes,
            ..
        } => {
            let speed = module
                .speed_mts
                .map(|s| format!("-{s}"))
                .unwrap_or_default();
            fill(
                lang,
                Msg::PurchaseBoardLimit,
                &[
                    ("slots", slots.to_string()),
                    (
                        "module",
                        format!(
                            "{}{}GB {}{speed}",
                            module.size_bytes >> 30,
                            crate::format::NBSP,
                            module.memory_type
                        ),
                    ),
                    ("max", gib(*max_bytes)),
                    need,
                ],
            )
        }
        Purchase::LargerInstance { current, target } => fill(
            lang,
            Msg::PurchaseLargerInstance,
            &[
                ("target", target.instance_type.clone()),
                ("target_ram", gib(target.ram_bytes)),
                ("vcpus", target.vcpus.to_string()),
                (
                    "gpus",
                    format!("{} × {}", target.gpu_count, target.gpu_model),
                ),
                ("family", target.family.clone()),
                ("current", current.instance_type.clone()),
                ("current_ram", gib(current.ram_bytes)),
                need,
            ],
        ),
        Purchase::NoLargerInstance { current, largest } => fill(
            lang,
            Msg::PurchaseNoLargerInstance,
            &[
                ("family", current.family.clone()),
                (
                    "gpus",
                    format!("{} × {}", current.gpu_count, current.gpu_model),
                ),
                ("largest", largest.instance_type.clone()),
                ("largest_ram", gib(largest.ram_bytes)),
                ("current", current.instance_type.clone()),
                need,
            ],
        ),
        Purchase::InstanceNotInCatalogue {
            provider: pr,
            instance_type,
        } => match instance_type {
            Some(t) => fill(
                lang,
                Msg::PurchaseNotInCatalogue,
                &[("instance", t.clone()), need],
            ),
            None => fill(
                lang,
                Msg::PurchaseTypeUnknown,
                &[
                    (
                        "provider",
                        pr.map_or_else(|| format::unknown(lang), |x| provider(lang, x).to_string()),
                    ),
                    need,
                ],
            ),
        },
        Purchase::Soldered {
            reason,
            memory_type,
            ..
        } => match reason {
            SolderedReason::Apple => fill(lang, Msg::PurchaseSolderedApple, &[need]),
            SolderedReason::Soldered => fill(
                lang,
                Msg::PurchaseSoldered,
                &[
                    (
                        "type",
                        memory_type.clone().unwrap_or_else(|| format::unknown(lang)),
                    ),
                    need,
                ],
            ),
        },
        Purchase::VirtualMachine => fill(lang, Msg::PurchaseVirtualMachine, &[need]),
        Purchase::HostedNotebook => fill(lang, Msg::PurchaseHostedNotebook, &[need]),
        Purchase::Wsl(w) => {
            let mut args = vec![
                ("memory", format!("{}GB", w.set_memory_bytes >> 30)),
                ("windows_needed", gib(w.windows_needed_bytes)),
                need,
            ];
            let (Some(windows), Some(after)) = (w.windows_ram_bytes, w.cap_after_bytes) else {
                return fill(lang, Msg::PurchaseWslUnknown, &args);
            };
            args.push(("windows_ram", gib(windows)));
            args.push(("cap_after", gib(after)));
            let msg = match (w.enough, w.windows_ram_estimated) {
                (Some(false), true) => Msg::PurchaseWslNotEnoughEstimated,
                (Some(false), false) => Msg::PurchaseWslNotEnough,
                (_, true) => Msg::PurchaseWslEnoughEstimated,
                (_, false) => Msg::PurchaseWslEnough,
            };
            fill(lang, msg, &args)
        }
        Purchase::Generic {
            cpu_platform: Some(c),
            ..
        } => fill(
            lang,
            Msg::PurchaseGenericCpu,
            &[
                need,
                ("cpu", crate::sanitize::clean(&c.cpu).into_owned()),
                ("platform", super::names::platform_name(lang, &c.platform)),
            ],
        ),
        Purchase::Generic { reason, .. } => fill(
            lang,
            match reason {
                GenericReason::PlatformUnknown => Msg::PurchaseGenericPlatform,
                GenericReason::SlotsUnknown => Msg::PurchaseGenericSlots,
                GenericReason::ModulesUnknown => Msg::PurchaseGenericModules,
            },
            &[need],
        ),
    }
}

/// The channel-filling sets listed after the paragraph (generic advice, or a planned machine
/// for soldered memory or a full board); empty otherwise.
pub fn alternative(p: &Purchase) -> &[DimmSet] {
    match p {
        Purchase::Generic { dimm_sets, .. } => dimm_sets,
        Purchase::Soldered { alternative, .. } | Purchase::BoardLimit { alternative, .. } => {
            alternative
        }
        _ => &[],
    }
}

/// One channel-filling set: "2-channel desktop, DDR5 UDIMM: 2 × 32 GB = 64.0 GiB", or with
/// two modules per channel "… 4 × 48 GB, two per channel = 192 GiB".
pub fn dimm_set(lang: Lang, s: &DimmSet) -> String {
    use crate::catalog::modules::FormFactor;
    let (kind, form) = match s.form_factor {
        FormFactor::Udimm => (Msg::ProcKindUdimm, "UDIMM"),
        FormFactor::Sodimm => (Msg::ProcKindUdimm, "SODIMM"),
        FormFactor::Rdimm | FormFactor::Soldered => (Msg::ProcKindRdimm, "RDIMM"),
    };
    trf(
        lang,
        if s.dimms_per_channel > 1 {
            Msg::ProcDimmSetTwo
        } else {
            Msg::ProcDimmSet
        },
        &[
            ("channels", &s.channels.to_string()),
            ("kind", tr(lang, kind)),
            ("module", &format!("{} {form}", s.memory_type)),
            ("count", &s.modules().to_string()),
            ("size", &(s.dimm_bytes >> 30).to_string()),
            ("total", &format::gib(s.total_bytes)),
        ],
    )
}

/// The paragraph followed by its sets, as lines (the tests read a purchase through it).
#[cfg(test)]
pub fn lines(lang: Lang, p: &Purchase, needed: u64) -> Vec<String> {
    let mut out = vec![paragraph(lang, p, needed)];
    out.extend(
        alternative(p)
            .iter()
            .map(|s| format!("· {}", dimm_set(lang, s))),
    );
    out
}

/// The purchase the section shows and the RAM it reaches for: what to buy, or, when what was set
/// up fits, what the rules' target would take; `None` when there is neither.
pub fn shown(a: &Assessment) -> Option<(&Purchase, u64)> {
    crate::advisor::buying::order::shown(&a.procurement)
}

/// "the training plan and the data-loading workload".
pub fn work_names(lang: Lang, work: &[WorkNeed]) -> String {
    let names: Vec<&str> = work
        .iter()
        .map(|w| {
            tr(
                lang,
                match w.subject {
                    Subject::Inference => Msg::PurchaseWorkInference,
                    Subject::Workload => Msg::PurchaseWorkWorkload,
                    Subject::Training | Subject::Machine => Msg::PurchaseWorkTraining,
                },
            )
        })
        .collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!(
            "{}{}{last}",
            rest.join(tr(lang, Msg::PurchaseWorkComma)),
            tr(lang, Msg::PurchaseWorkAnd)
        ),
    }
}

/// What the largest published rule not met is for: "room for CPU offload and large models (…)".
fn rules_purpose(lang: Lang, a: &Assessment) -> &'static str {
    let p = &a.procurement;
    let reason = p
        .targets
        .iter()
        .filter(|t| t.reason.is_rule() && Some(t.required_bytes) == p.rules_ram_bytes)
        .map(|t| t.reason)
        .next();
    tr(
        lang,
        match reason {
            Some(RamReason::LargestGpu) => Msg::PurchasePurposeLargestGpu,
            _ => Msg::PurchasePurposeTwiceVram,
        },
    )
}

/// What falls short, other than RAM, for what was set up: "each GPU's memory", "the NVMe
/// space" (both joined when both do), for [`Basis::RamWontFix`].
pub fn short_of(lang: Lang, a: &Assessment) -> String {
    let gpu = a
        .training_memory
        .as_ref()
        .is_some_and(|t| t.gpu.fits == Some(false))
        || a.inference_memory
            .as_ref()
            .is_some_and(|m| m.gpu.fits == Some(false));
    let nvme = a
        .training_memory
        .as_ref()
        .and_then(|t| t.nvme.as_ref())
        .is_some_and(|n| n.fits == Some(false));
    short_words(lang, gpu, nvme)
}

/// "each GPU's memory", "the NVMe space", or both joined; the GPUs when neither is flagged.
pub fn short_words(lang: Lang, gpu: bool, nvme: bool) -> String {
    let mut parts = Vec::new();
    if gpu || !nvme {
        parts.push(tr(lang, Msg::PurchaseShortGpu));
    }
    if nvme {
        parts.push(tr(lang, Msg::PurchaseShortNvme));
    }
    parts.join(tr(lang, Msg::PurchaseWorkAnd))
}

/// The largest need of what was set up, installed bytes (`None` when nothing was).
pub fn work_need(a: &Assessment) -> Option<u64> {
    a.procurement.work.iter().map(|w| w.installed_bytes).max()
}

/// The "What to buy" part of the procurement section, the same in every view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Paragraphs, in order.
    pub paragraphs: Vec<String>,
    /// Channel-filling sets listed after the last paragraph ([`dimm_set`]).
    pub sets: Vec<String>,
}

/// What to buy, in words: when what was set up fits, that no RAM is to be bought for it, then
/// (only as room for more) what the published rules would take; when it doesn't, any cheaper
/// change that makes it fit before what to buy; when nothing was set up, that the rules size
/// it. `None` when there is nothing to say (nothing set up, and installed RAM meets the rules).
pub fn section(lang: Lang, a: &Assessment) -> Option<Section> {
    let p = &a.procurement;
    let mut paragraphs = Vec::new();
    let rules = p.rules_ram_bytes.map(format::gib);
    let purpose = rules_purpose(lang, a);
    match p.basis {
        Basis::Rules => {
            p.recommended_ram_bytes?;
            paragraphs.push(trf(
                lang,
                Msg::PurchaseLeadRules,
                &[
                    ("rules", &rules.clone().unwrap_or_default()),
                    ("purpose", purpose),
                ],
            ));
        }
        Basis::Work => {
            p.recommended_ram_bytes?;
            if !p.cheaper_fixes.is_empty() {
                let fixes: Vec<String> = p
                    .cheaper_fixes
                    .iter()
                    .map(|r| super::recommend::title(lang, r))
                    .collect();
                paragraphs.push(trf(
                    lang,
                    Msg::PurchaseLeadCheaper,
                    &[("fixes", &fixes.join(tr(lang, Msg::PurchaseWorkComma)))],
                ));
            }
        }
        Basis::RamWontFix => {
            paragraphs.push(trf(
                lang,
                Msg::PurchaseLeadRamWontFix,
                &[
                    ("work", &work_names(lang, &p.work)),
                    ("short", &short_of(lang, a)),
                ],
            ));
            if let (Some(rules), Some(_)) = (&rules, &p.rules_purchase) {
                paragraphs.push(trf(
                    lang,
                    Msg::PurchaseLeadRulesMore,
                    &[("rules", rules), ("purpose", purpose)],
                ));
            }
        }
        Basis::WorkFits => {
            let need = p.work.iter().map(|w| w.needed_bytes).max().unwrap_or(0);
            paragraphs.push(trf(
                lang,
                Msg::PurchaseLeadFits,
                &[
                    ("work", &work_names(lang, &p.work)),
                    ("need", &format::gib(need)),
                    (
                        "usable",
                        &format::gib_or_unknown(lang, a.memory.usable_bytes),
                    ),
                ],
            ));
            if let (Some(rules), Some(_)) = (&rules, &p.rules_purchase) {
                paragraphs.push(trf(
                    lang,
                    Msg::PurchaseLeadRulesMore,
                    &[("rules", rules), ("purpose", purpose)],
                ));
            }
        }
    }
    // A workload that runs but waits for storage: RAM for the page cache is one way to speed
    // it up, after cheaper ones.
    if let (Some(target), Some(w), Some(pipeline)) = (
        p.work.iter().find_map(|w| w.page_cache_bytes),
        a.workload.as_ref(),
        a.pipeline(),
    ) {
        use crate::advisor::workload::StageId;
        let storage = pipeline.rate(StageId::StorageRead);
        paragraphs.push(trf(
            lang,
            Msg::PurchaseLeadStorage,
            &[
                (
                    "storage",
                    &storage.map_or_else(|| format::unknown(lang), |r| format::rate(lang, r)),
                ),
                (
                    "demand",
                    &format::rate(lang, w.workload.gpu_demand_samples_per_s),
                ),
                ("target", &format::gib(target)),
            ],
        ));
    }
    let mut sets = Vec::new();
    if let Some((purchase, needed)) = shown(a) {
        paragraphs.push(paragraph(lang, purchase, needed));
        sets = alternative(purchase)
            .iter()
            .map(|s| dimm_set(lang, s))
            .collect();
    }
    Some(Section { paragraphs, sets })
}

/// [`section`] as lines (terminal, window): the paragraphs, then "· " and each set.
pub fn section_lines(lang: Lang, a: &Assessment) -> Vec<String> {
    let Some(s) = section(lang, a) else {
        return Vec::new();
    };
    let mut out = s.paragraphs;
    out.extend(s.sets.into_iter().map(|set| format!("· {set}")));
    out
}

#[cfg(test)]
mod tests;
