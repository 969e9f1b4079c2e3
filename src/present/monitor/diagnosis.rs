//! A diagnosis in words: its title, explanation, advice, time range and short name.

use super::units::{duration, evidence};
use crate::advisor::diagnose::{Diagnosis, DiagnosisId};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

/// Fills `msg` from a diagnosis's evidence; a placeholder it has no number for shows as
/// "unknown".
fn fill(lang: Lang, msg: Msg, d: &Diagnosis) -> String {
    let values: Vec<(&str, String)> = msg
        .placeholders()
        .iter()
        .map(|name| {
            let text = d
                .evidence
                .get(*name)
                .map_or_else(|| format::unknown(lang), |e| evidence(lang, e));
            (*name, text)
        })
        .collect();
    let args: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, msg, &args)
}

/// The messages of a diagnosis: the title, then the sentences of its explanation (the causes
/// that its evidence shows).
fn messages(d: &Diagnosis) -> (Msg, Vec<Msg>) {
    let has = |k: &str| d.evidence.contains_key(k);
    use DiagnosisId as D;
    match d.id {
        D::GpuStarved => {
            // Seen as a saw-tooth (with its period), or as a low duty cycle over minutes at
            // coarse resolution (with the span and the sampling interval).
            let coarse = !has("period");
            let mut explain = vec![if coarse {
                Msg::DiagnosisGpuStarvedExplainCoarse
            } else {
                Msg::DiagnosisGpuStarvedExplain
            }];
            if has("loader_cpu") {
                explain.push(Msg::DiagnosisGpuStarvedCauseLoader);
            }
            if has("host_cpu") {
                explain.push(Msg::DiagnosisGpuStarvedCauseHost);
            }
            if has("iowait") {
                explain.push(Msg::DiagnosisGpuStarvedCauseIo);
            }
            let title = if coarse {
                Msg::DiagnosisGpuStarvedTitleCoarse
            } else {
                Msg::DiagnosisGpuStarvedTitle
            };
            (title, explain)
        }
        D::SwapThrashing => (
            Msg::DiagnosisSwapThrashingTitle,
            vec![Msg::DiagnosisSwapThrashingExplain],
        ),
        D::PageCacheThrashing => (
            Msg::DiagnosisPageCacheThrashingTitle,
            vec![Msg::DiagnosisPageCacheThrashingExplain],
        ),
        D::IoBound => (
            Msg::DiagnosisIoBoundTitle,
            vec![Msg::DiagnosisIoBoundExplain],
        ),
        D::ShmExhausted => (
            Msg::DiagnosisShmExhaustedTitle,
            vec![Msg::DiagnosisShmExhaustedExplain],
        ),
        D::OomKilled => {
            let mut explain = vec![Msg::DiagnosisOomKilledExplain];
            if has("lost_processes") {
                explain.push(Msg::DiagnosisOomKilledLost);
            }
            if has("cgroup_kills") && has("limit") {
                explain.push(Msg::DiagnosisOomKilledCgroup);
            }
            (Msg::DiagnosisOomKilledTitle, explain)
        }
        D::RamNearLimit if has("limit") => (
            Msg::DiagnosisRamNearLimitCgroupTitle,
            vec![Msg::DiagnosisRamNearLimitCgroupExplain],
        ),
        D::RamNearLimit => (
            Msg::DiagnosisRamNearLimitTitle,
            vec![Msg::DiagnosisRamNearLimitExplain],
        ),
        D::PcieSaturated => (
            Msg::DiagnosisPcieSaturatedTitle,
            vec![Msg::DiagnosisPcieSaturatedExplain],
        ),
        D::PowerUnstable => (
            Msg::DiagnosisPowerUnstableTitle,
            vec![Msg::DiagnosisPowerUnstableExplain],
        ),
    }
}

/// Every message a diagnosis uses, recommendations included (tests check their placeholders).
#[cfg(test)]
pub fn all_messages(d: &Diagnosis) -> Vec<Msg> {
    let (title, explain) = messages(d);
    let mut v = vec![title];
    v.extend(explain);
    v.extend(
        d.recommendations
            .iter()
            .map(|r| crate::present::advice_text::finding_msg(*r)),
    );
    v
}

/// A diagnosis's title, with numbers.
pub fn title(lang: Lang, d: &Diagnosis) -> String {
    fill(lang, messages(d).0, d)
}

/// A diagnosis's explanation: what it means and the causes its evidence shows.
pub fn explanation(lang: Lang, d: &Diagnosis) -> String {
    let sep = if lang == Lang::Zh { "" } else { " " };
    messages(d)
        .1
        .into_iter()
        .map(|m| fill(lang, m, d))
        .collect::<Vec<_>>()
        .join(sep)
}

/// What to do, most useful first, with numbers.
pub fn recommendations(lang: Lang, d: &Diagnosis) -> Vec<String> {
    d.recommendations
        .iter()
        .map(|r| fill(lang, crate::present::advice_text::finding_msg(*r), d))
        .collect()
}

/// When: "1 s – 116 s" (the trace's clock).
pub fn range(lang: Lang, d: &Diagnosis) -> String {
    trf(
        lang,
        Msg::MonitorRange,
        &[
            ("from", &duration(lang, d.from_s)),
            ("to", &duration(lang, d.to_s)),
        ],
    )
}

/// The title with its time range: "GPU 0 waits for data: … (1 s – 1 min 56 s)".
pub fn title_with_range(lang: Lang, d: &Diagnosis) -> String {
    trf(
        lang,
        Msg::MonitorTitledRange,
        &[("title", &title(lang, d)), ("range", &range(lang, d))],
    )
}

/// A diagnosis's short name for a chart's shading ("GPU starved" / "GPU 等数据").
pub fn short_name(lang: Lang, id: DiagnosisId) -> &'static str {
    use DiagnosisId as D;
    tr(
        lang,
        match id {
            D::GpuStarved => Msg::DiagnosisGpuStarvedShort,
            D::SwapThrashing => Msg::DiagnosisSwapThrashingShort,
            D::PageCacheThrashing => Msg::DiagnosisPageCacheThrashingShort,
            D::IoBound => Msg::DiagnosisIoBoundShort,
            D::ShmExhausted => Msg::DiagnosisShmExhaustedShort,
            D::OomKilled => Msg::DiagnosisOomKilledShort,
            D::RamNearLimit => Msg::DiagnosisRamNearLimitShort,
            D::PcieSaturated => Msg::DiagnosisPcieSaturatedShort,
            D::PowerUnstable => Msg::DiagnosisPowerUnstableShort,
        },
    )
}
