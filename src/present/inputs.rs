//! What an assessment covers, in words: the training plan and the workload the user included,
//! or the machine alone. The report's "What this report assesses" and the export dialog's list
//! of what the report will contain are built here, so the two can't disagree.

use crate::advisor::Assessment;
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
    if let Some(t) = &a.training_memory {
        let (model, plan) = super::training::plan_summary(lang, t);
        let text = format!("{model} · {plan}");
        lines.push(trf(lang, Msg::InputsTraining, &[("plan", &text)]));
    }
    if let Some(w) = &a.workload {
        let text = super::workload::summary(lang, &w.workload);
        lines.push(trf(lang, Msg::InputsWorkload, &[("workload", &text)]));
    }
    lines
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
