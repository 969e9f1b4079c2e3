//! What to buy for this machine, in one paragraph, and the channel-filling sets after it.

use super::platform::{channels, provider};
use crate::advisor::buying::dimm_sets::DimmSet;
use crate::advisor::buying::purchase::{
    GenericReason, ModulePlan, Purchase, ReplaceReason, SolderedReason,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::parts::modules_text;

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
        Purchase::RaiseLimit {
            limit_bytes,
            node_bytes,
            node_reaches,
        } => fill(
            lang,
            if *node_reaches {
                Msg::PurchaseRaiseLimit
            } else {
                Msg::PurchaseRaiseLimitNodeShort
            },
            &[
                ("limit", gib(*limit_bytes)),
                (
                    "node",
                    node_bytes.map_or_else(|| format::unknown(lang), gib),
                ),
                // Slurm's --mem counts MiB by default; "G" suffix, whole GiB rounded up.
                ("mem", format!("{}G", needed.div_ceil(crate::units::GIB))),
                need,
            ],
        ),
        Purchase::Soldered {
            reason,
            memory_type,
            unified_sizes,
            ..
        } => match reason {
            SolderedReason::Apple if unified_sizes.is_empty() => {
                fill(lang, Msg::PurchaseSolderedAppleNone, &[need])
            }
            SolderedReason::Apple => {
                let sizes: Vec<String> = unified_sizes
                    .iter()
                    .map(|b| format!("{} GB", b >> 30))
                    .collect();
                fill(
                    lang,
                    Msg::PurchaseSolderedApple,
                    &[("sizes", sizes.join(" / ")), need],
                )
            }
            SolderedReason::Unified => fill(lang, Msg::PurchaseSolderedUnified, &[need]),
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
                (
                    "platform",
                    crate::present::names::platform_name(lang, &c.platform),
                ),
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
