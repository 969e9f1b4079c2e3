//! What to buy as one line a purchasing office can act on, and the basis in one sentence: the
//! first page of a report. Built from the same purchase the "What to buy" section words in full
//! ([`super::shown`]), so the two can't disagree.
//!
//! - Modules: count × size, type and speed, form, *added to* or *replacing* the installed ones,
//!   and the channel population afterwards ([`super::channels`]).
//! - A cloud instance: the instance type to move to.
//! - An unknown machine: one channel-filling set (the smallest platform that holds the need)
//!   and the board check to make first; the other sets go to the report's appendix.
//! - Anything else (a VM, a hosted notebook, WSL, a board or package that can't take more):
//!   the purchase paragraph itself.

use crate::advisor::Assessment;
use crate::advisor::buying::dimm_sets::DimmSet;
use crate::advisor::buying::procurement::Basis;
use crate::advisor::buying::purchase::Purchase;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::parts::modules_text;

/// The purchase line and the sentence it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// What to buy (or do), in one line.
    pub buy: String,
    /// Why: what it is sized for, in one sentence.
    pub basis: String,
    /// Other channel-filling sets exist ([`other_sets`]): a machine's report lists them in its
    /// appendix and says so after the line ([`Msg::OrderOthers`]).
    pub more_sets: bool,
}

/// The order for `a`; `None` when there is no purchase to speak of (nothing set up and the
/// installed RAM meets the rules).
pub fn order(lang: Lang, a: &Assessment) -> Option<Order> {
    let p = &a.procurement;
    let basis = basis(lang, a)?;
    let Some((purchase, needed)) = crate::advisor::buying::order::to_buy(p) else {
        return Some(Order {
            buy: tr(lang, Msg::OrderNothing).to_string(),
            basis,
            more_sets: false,
        });
    };
    let buy = match purchase {
        Purchase::AddModules(plan) => modules(lang, Msg::OrderAdd, plan),
        Purchase::ReplaceModules(plan) => modules(lang, Msg::OrderReplace, plan),
        Purchase::LargerInstance { target, .. } => trf(
            lang,
            Msg::OrderInstance,
            &[
                ("target", &target.instance_type),
                ("target_ram", &format::gib(target.ram_bytes)),
                (
                    "gpus",
                    &format!("{} × {}", target.gpu_count, target.gpu_model),
                ),
            ],
        ),
        Purchase::Generic {
            dimm_sets,
            cpu_platform,
            ..
        } if !dimm_sets.is_empty() => {
            let set = &dimm_sets[0];
            let msg = if cpu_platform.is_some() {
                Msg::OrderSetPlatform
            } else {
                Msg::OrderSetUnknown
            };
            set_line(lang, msg, set)
        }
        Purchase::Soldered { alternative, .. } | Purchase::BoardLimit { alternative, .. }
            if !alternative.is_empty() =>
        {
            set_line(lang, Msg::OrderPlanned, &alternative[0])
        }
        other => super::paragraph(lang, other, needed),
    };
    Some(Order {
        buy,
        basis,
        more_sets: !other_sets(a).is_empty(),
    })
}

/// The channel-filling sets a report lists in its appendix rather than under the order line:
/// those of an unknown machine or a planned one, after the first ([`order`]'s).
pub fn other_sets(a: &Assessment) -> &[DimmSet] {
    match super::shown(a).map(|(p, _)| super::alternative(p)) {
        Some([_, rest @ ..]) => rest,
        _ => &[],
    }
}

fn modules(lang: Lang, msg: Msg, plan: &crate::advisor::buying::purchase::ModulePlan) -> String {
    trf(
        lang,
        msg,
        &[
            ("modules", &modules_text(plan)),
            ("keep", &plan.keep.to_string()),
            ("remove", &plan.remove.to_string()),
            ("after", &format::gib(plan.installed_after_bytes)),
            ("count", &plan.modules_after.to_string()),
            ("slots", &plan.slots_total.to_string()),
            ("channels", &super::channels(lang, plan)),
        ],
    )
}

fn set_line(lang: Lang, msg: Msg, set: &DimmSet) -> String {
    use crate::catalog::modules::FormFactor;
    let form = match set.form_factor {
        FormFactor::Udimm => "UDIMM",
        FormFactor::Sodimm => "SODIMM",
        FormFactor::Rdimm | FormFactor::Soldered => "RDIMM",
    };
    trf(
        lang,
        msg,
        &[
            ("set", &super::dimm_set(lang, set)),
            ("type", &set.memory_type),
            ("form", form),
            ("count", &set.modules().to_string()),
            ("channels", &set.channels.to_string()),
        ],
    )
}

/// What the order is sized for, in one sentence; `None` when nothing was set up and the rules
/// ask for nothing more.
fn basis(lang: Lang, a: &Assessment) -> Option<String> {
    let p = &a.procurement;
    let rules = p.rules_ram_bytes.map(format::gib);
    let purpose = super::rules_purpose(lang, a);
    let need = p.work.iter().map(|w| w.needed_bytes).max().unwrap_or(0);
    Some(match p.basis {
        Basis::Rules => {
            p.recommended_ram_bytes?;
            trf(
                lang,
                Msg::OrderBasisRules,
                &[("rules", &rules?), ("purpose", purpose)],
            )
        }
        Basis::Work => {
            let installed = p.recommended_ram_bytes?;
            let mut s = trf(
                lang,
                Msg::OrderBasisWork,
                &[
                    ("work", &super::work_names(lang, &p.work)),
                    ("need", &format::gib(need)),
                    ("installed", &format::gib(installed)),
                ],
            );
            if let Some(fix) = p.cheaper_fixes.first() {
                s.push_str(&trf(
                    lang,
                    Msg::OrderBasisCheaper,
                    &[("fix", &super::super::recommend::title(lang, fix))],
                ));
            }
            s
        }
        Basis::WorkFits => {
            let fits = trf(
                lang,
                Msg::OrderBasisFits,
                &[
                    ("work", &super::work_names(lang, &p.work)),
                    ("need", &format::gib(need)),
                    (
                        "usable",
                        &format::gib_or_unknown(lang, a.memory.usable_bytes),
                    ),
                ],
            );
            match (&rules, &p.rules_purchase) {
                (Some(rules), Some(_)) => format!(
                    "{fits}{}",
                    trf(
                        lang,
                        Msg::OrderBasisFitsRules,
                        &[("rules", rules), ("purpose", purpose)],
                    )
                ),
                _ => fits,
            }
        }
        Basis::RamWontFix => trf(
            lang,
            Msg::OrderBasisWontFix,
            &[
                ("work", &super::work_names(lang, &p.work)),
                ("short", &super::short_of(lang, a)),
            ],
        ),
    })
}
