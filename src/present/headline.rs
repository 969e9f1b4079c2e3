//! The headline every view opens with: the machine's verdict, unless what the user set up (a
//! training plan, a model to serve, a data-loading workload) doesn't fit — then that, with the
//! cheapest change that makes it fit, and the machine's verdict after it. One function, so the
//! window's banner, the terminal's first lines and the report's callout can't disagree.

use crate::advisor::findings::FindingId;
use crate::advisor::headline::SET_UP_FAILS;
use crate::advisor::recommend::Subject;
use crate::advisor::{Assessment, Severity};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

/// The headline: how severe, its title and one paragraph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Headline {
    /// Critical when what was set up doesn't fit; else the verdict's severity.
    pub severity: Severity,
    /// One line.
    pub title: String,
    /// The paragraph under it.
    pub detail: String,
}

/// The headline of `a` in `lang`: words for the advisor's [`crate::advisor::headline`] — the
/// machine's verdict, what the user set up failing (with the cheapest change that fits), a plan
/// inside its margin, or the worst finding, with the verdict after it.
pub fn headline(lang: Lang, a: &Assessment) -> Headline {
    use crate::advisor::headline::{HeadlineId, PlanOutcome};
    let (verdict_title, verdict_detail) = super::verdict(lang, a);
    let machine = Headline {
        severity: a.verdict.severity(),
        title: verdict_title.clone(),
        detail: verdict_detail.clone(),
    };
    let h = a.headline;
    let finding = |id| a.findings.iter().find(|f| f.id == id);
    let (title, subject) = match h.id {
        HeadlineId::Verdict(_) => return machine,
        HeadlineId::Plan(PlanOutcome::InferenceDoesNotFit) => match &a.inference_memory {
            Some(m) => (
                trf(
                    lang,
                    Msg::HeadlineInferenceDoesNotFit,
                    &[
                        ("cpu", &format::gib(m.cpu_peak_bytes_per_node)),
                        ("gpu", &format::gib(m.gpu_peak_bytes_per_gpu)),
                    ],
                ),
                Subject::Inference,
            ),
            None => return machine,
        },
        HeadlineId::Finding(id) if SET_UP_FAILS.contains(&id) => match finding(id) {
            Some(f) => (
                super::finding_title(lang, f),
                match f.id {
                    FindingId::TrainingDoesNotFit => Subject::Training,
                    _ => Subject::Workload,
                },
            ),
            None => return machine,
        },
        HeadlineId::Finding(id) => {
            let Some(f) = finding(id) else { return machine };
            let subject = match f.values.get("plan") {
                Some(crate::advisor::Quantity::Text(p)) if p == "inference" => Subject::Inference,
                _ => Subject::Training,
            };
            if id == FindingId::PlanTight {
                (super::finding_title(lang, f), subject)
            } else {
                // The worst finding is about the machine or the pipeline: it heads, the verdict
                // follows.
                return Headline {
                    severity: h.severity,
                    title: super::finding_title(lang, f),
                    detail: trf(
                        lang,
                        Msg::HeadlineFindingDetail,
                        &[
                            ("finding", &super::finding_explanation(lang, f)),
                            ("machine", &verdict_title),
                            ("machine_detail", &verdict_detail),
                        ],
                    ),
                };
            }
        }
    };
    // The cheapest change that makes it fit: the ranked list's first fitting item for this
    // subject or for the machine (more RAM fits every subject that only lacks RAM) that costs
    // no money, else the first that does (money is a path beside the plan changes in the
    // ranking, issue 34, not the cheapest).
    // A plan that overflows a pool it shares with another plan (a unified pool, a job limit) is
    // fixed by another plan's change too: a change's `fits` is re-checked against every pool.
    let shares_a_full_pool = a
        .pools
        .iter()
        .any(|p| p.fits == Some(false) && p.charged_by(subject));
    let fitting = |r: &&crate::advisor::recommend::Recommendation| {
        r.result.fits == Some(true)
            && (r.subject == subject || r.subject == Subject::Machine || shares_a_full_pool)
    };
    let fix = a
        .recommendations
        .iter()
        .filter(fitting)
        .find(|r| r.gives_up != crate::advisor::recommend::GivesUp::Money)
        .or_else(|| a.recommendations.iter().find(fitting));
    let first = match fix {
        Some(r) => trf(
            lang,
            Msg::HeadlineCheapestFix,
            &[
                ("fix", &super::recommend::title(lang, r)),
                ("kind", super::recommend::kind(lang, r.kind)),
            ],
        ),
        // Something that comes closer is listed: say so; nothing is: don't promise a list.
        None if a.recommendations.iter().any(|r| {
            r.subject == subject || r.subject == Subject::Machine || shares_a_full_pool
        }) =>
        {
            trf(lang, Msg::HeadlineNoFix, &[])
        }
        None => tr(lang, Msg::HeadlineNothingHelps).to_string(),
    };
    Headline {
        severity: h.severity,
        title,
        detail: trf(
            lang,
            Msg::HeadlineSetUpDetail,
            &[
                ("first", &first),
                ("machine", &verdict_title),
                ("machine_detail", &verdict_detail),
            ],
        ),
    }
}
