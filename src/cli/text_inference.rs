//! Terminal rendering of inference memory.

use super::layout::{section, wrap};
use crate::advisor::inference::InferenceMemory;
use crate::i18n::{Lang, Msg, tr};
use crate::present::inference as words;

/// The inference section of `ramvram advise`.
pub fn inference(lang: Lang, m: &InferenceMemory) -> String {
    let mut out = String::new();
    section(&mut out, tr(lang, Msg::InferenceSection));
    wrap(&mut out, "  ", &words::summary(lang, m));
    wrap(&mut out, "  ", &words::weights_and_cache(lang, m));
    out.push('\n');
    super::text_training::capacity_table(
        &mut out,
        lang,
        &[(Msg::TrainNeedGpu, &m.gpu), (Msg::TrainNeedCpu, &m.cpu)],
    );
    super::text_training::phase_rows(&mut out, words::phase_table(lang, m));
    for line in words::host_lines(lang, m) {
        wrap(&mut out, "  ", &line);
    }
    out
}
