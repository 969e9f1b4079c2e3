//! What an assessment covers, in words: the training plan and the workload the user included,
//! or the machine alone. The report's "What this report assesses" and the export dialog's list
//! of what the report will contain are built here, so the two can't disagree.

use crate::advisor::Assessment;
use crate::advisor::recommend::Subject;
use crate::advisor::standing::{self, Standing};
use crate::i18n::{Lang, Msg, tr, trf};

/// Inputs that are on the window's pages but not included in the assessment (so not in a
/// report built from it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// The Training page's plan is not included.
    pub training: bool,
    /// The Data loading page's workload is not included.
    pub workload: bool,
}

/// One line per input the assessment includes ("Training plan: Llama 2 7B · ZeRO-2 …",
/// "Data-loading workload: …"); empty when only the machine was assessed.
pub fn included(lang: Lang, a: &Assessment) -> Vec<String> {
    let mut lines = Vec::new();
    // Each with whether it fits: the plan's verdict (headroom included), the workload's RAM.
    if let Some(t) = &a.training_memory {
        let (model, plan) = super::training::plan_summary(lang, t);
        let text = format!("{model} · {plan}");
        let line = trf(lang, Msg::InputsTraining, &[("plan", &text)]);
        let fits = if t.fits == Some(false) && t.tight() {
            tr(lang, Msg::InputsFitsTight)
        } else {
            super::training::fits_word(lang, t.fits)
        };
        lines.push(trf(
            lang,
            Msg::InputsWithFits,
            &[("line", &line), ("fits", fits)],
        ));
    }
    if let Some(w) = &a.workload {
        let text = super::workload::summary(lang, &w.workload);
        let line = trf(lang, Msg::InputsWorkload, &[("workload", &text)]);
        let fits = a
            .procurement
            .work
            .iter()
            .find(|n| n.subject == crate::advisor::recommend::Subject::Workload)
            .map(|n| n.fits);
        lines.push(match fits {
            Some(fits) => trf(
                lang,
                Msg::InputsWithFits,
                &[
                    ("line", &line),
                    ("fits", super::training::fits_word(lang, fits)),
                ],
            ),
            None => line,
        });
    }
    lines
}

/// The verdict on each thing the user set up (the training plan, the model to serve, the
/// data-loading workload), with the figures it rests on and how it stands: the first lines of
/// every view, before the machine's headline. Empty when only the machine was assessed.
pub fn answers(lang: Lang, a: &Assessment) -> Vec<(Standing, String)> {
    use crate::format;
    let mut out = Vec::new();
    // A need with the phase that sets it: "231 GiB (Resume)".
    let at = |bytes: u64, phase: Option<crate::advisor::phase::PhaseId>| match phase {
        Some(p) => trf(
            lang,
            Msg::PhasePeakAt,
            &[
                ("bytes", &format::gib(bytes)),
                ("phase", super::phase::phase_name(lang, p)),
            ],
        ),
        None => format::gib(bytes),
    };
    let checks = |msg,
                  fits: &str,
                  gpu: &crate::advisor::check::CapacityCheck,
                  cpu: &crate::advisor::check::CapacityCheck,
                  (gpu_phase, cpu_phase)| {
        trf(
            lang,
            msg,
            &[
                ("fits", fits),
                ("gpu", &at(gpu.needed_bytes, gpu_phase)),
                (
                    "gpu_have",
                    &format::gib_or_unknown(lang, gpu.available_bytes),
                ),
                ("cpu", &at(cpu.needed_bytes, cpu_phase)),
                (
                    "cpu_have",
                    &format::gib_or_unknown(lang, cpu.available_bytes),
                ),
            ],
        )
    };
    if let Some(t) = &a.training_memory {
        let fits = if t.fits == Some(false) && t.tight() {
            tr(lang, Msg::InputsFitsTight)
        } else {
            super::training::fits_word(lang, t.fits)
        };
        let line = match super::pools::overflow(lang, a, Subject::Training) {
            Some((pool, tight)) => trf(
                lang,
                Msg::AnswerTrainingPool,
                &[("fits", tight_word(lang, tight, fits)), ("pool", &pool)],
            ),
            None => checks(
                Msg::AnswerTraining,
                fits,
                &t.gpu,
                &t.cpu,
                (t.estimate.gpu_peak_phase, t.estimate.cpu_peak_phase),
            ),
        };
        out.push((standing::training(t), line));
    }
    if let Some(m) = &a.inference_memory {
        let standing = match m.fits {
            Some(true) => Standing::Good,
            Some(false) => Standing::Short(crate::advisor::Severity::Critical),
            None => Standing::Short(crate::advisor::Severity::Warning),
        };
        let fits = super::training::fits_word(lang, m.fits);
        let line = match super::pools::overflow(lang, a, Subject::Inference) {
            Some((pool, tight)) => trf(
                lang,
                Msg::AnswerInferencePool,
                &[("fits", tight_word(lang, tight, fits)), ("pool", &pool)],
            ),
            None => checks(
                Msg::AnswerInference,
                fits,
                &m.gpu,
                &m.cpu,
                (
                    crate::advisor::training::peak_phase(&m.phases, false),
                    crate::advisor::training::peak_phase(&m.phases, true),
                ),
            ),
        };
        out.push((standing, line));
    }
    if let (Some(w), Some(p)) = (&a.workload, a.pipeline()) {
        let b = &w.memory_budget;
        // Whether it fits as "What this report assesses" says it (with the margin RAM must keep).
        let fits = a
            .procurement
            .work
            .iter()
            .find(|n| n.subject == crate::advisor::recommend::Subject::Workload)
            .map_or(b.headroom_bytes.map(|h| h >= 0), |n| n.fits);
        let utilization = match p.predicted_gpu_utilization {
            Some(u) => format::percent(u),
            None if p.exceeds_ram => tr(lang, Msg::WorkUtilizationPastRam).to_string(),
            None => format::unknown(lang),
        };
        let standing = match (fits, p.predicted_gpu_utilization) {
            (Some(false), _) => Standing::Short(crate::advisor::Severity::Critical),
            (_, Some(u)) => standing::utilization(u),
            _ => Standing::Unknown,
        };
        let fits = super::training::fits_word(lang, fits);
        let line = match super::pools::overflow(lang, a, Subject::Workload) {
            Some((pool, tight)) => trf(
                lang,
                Msg::AnswerWorkloadPool,
                &[
                    ("fits", tight_word(lang, tight, fits)),
                    ("pool", &pool),
                    ("utilization", &utilization),
                ],
            ),
            None => trf(
                lang,
                Msg::AnswerWorkload,
                &[
                    ("fits", fits),
                    ("working", &format::gib(b.working_set_bytes)),
                    ("ram", &format::gib_or_unknown(lang, b.usable_ram_bytes)),
                    ("utilization", &utilization),
                ],
            ),
        };
        out.push((standing, line));
    }
    out
}

/// "fits only without headroom" for a plan whose pool is inside its limit but not its margin,
/// else `fits`.
fn tight_word(lang: Lang, tight: bool, fits: &str) -> &str {
    if tight {
        tr(lang, Msg::InputsFitsTight)
    } else {
        fits
    }
}

/// What a report of `a` will contain, for the export dialog: the machine, each included input
/// ([`included`]), and a line for each input on the pages that is `left_out`.
pub fn report_contents(lang: Lang, a: &Assessment, left_out: LeftOut) -> Vec<String> {
    let mut lines = vec![tr(lang, Msg::ExportMachine).to_string()];
    lines.extend(included(lang, a));
    let mut missing = Vec::new();
    if left_out.training {
        missing.push(tr(lang, Msg::ExportLeftOutTraining));
    }
    if left_out.workload {
        missing.push(tr(lang, Msg::ExportLeftOutWorkload));
    }
    if !missing.is_empty() {
        lines.push(trf(
            lang,
            Msg::ExportLeftOut,
            &[("what", &super::join(lang, &missing))],
        ));
    }
    lines
}
