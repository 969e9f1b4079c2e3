//! The "What to buy" part of the procurement section: what was set up, what it needs and what
//! to buy for it.

use super::paragraph::{alternative, dimm_set, paragraph};
use crate::advisor::Assessment;
use crate::advisor::buying::procurement::{Basis, RamReason, WorkNeed};
use crate::advisor::buying::purchase::Purchase;
use crate::advisor::recommend::Subject;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

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

/// What the largest published rule not met is for, in plain words: "twice the GPUs' memory, room
/// to train larger models and to run several jobs at once (…)".
pub(crate) fn rules_purpose(lang: Lang, a: &Assessment) -> &'static str {
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
                    .map(|r| crate::present::recommend::title(lang, r))
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
