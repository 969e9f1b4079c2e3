//! The ranked recommendations as [`Block::Recommendation`]s: each with the lines every printed
//! view gives it (the report's Recommendations section, the terminal's `advise`) and the parts a
//! view that acts on it needs (the window's copy button for its `apply` arguments, the colour of
//! what it leads to, judged by the advisor). One builder for every view.

use super::types::Block;
use crate::advisor::recommend::{Recommendation, Subject};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::recommend as words;

/// Recommendation `r`, ranked `rank` (1 first), as a block in `lang`.
pub fn recommendation(lang: Lang, rank: usize, r: &Recommendation) -> Block {
    Block::Recommendation {
        lang,
        rank,
        text: trf(
            lang,
            Msg::AdviceLineWithDetail,
            &[
                ("line", &words::line(lang, r)),
                ("cost", &words::cost_and_speed(lang, r)),
            ],
        ),
        apply_text: words::apply_line(lang, r).unwrap_or_default(),
        kind: words::kind_tag(lang, r.kind),
        title: words::title(lang, r),
        result: words::result(lang, &r.result),
        standing: crate::advisor::standing::after_change(&r.result),
        cost: words::cost_and_speed(lang, r),
        apply: r.apply.clone(),
        native: words::native(lang, r),
    }
}

/// The recommendations about `subject` (all of them for `None`), in rank order under the
/// recommendations heading; nothing when there are none.
pub fn recommendations(
    lang: Lang,
    recs: &[Recommendation],
    subject: Option<Subject>,
) -> Vec<Block> {
    let shown: Vec<&Recommendation> = recs
        .iter()
        .filter(|r| subject.is_none_or(|s| r.subject == s))
        .collect();
    if shown.is_empty() {
        return Vec::new();
    }
    let mut b = vec![Block::Heading(
        tr(lang, Msg::RecommendationSection).to_string(),
    )];
    b.extend(
        shown
            .iter()
            .enumerate()
            .map(|(i, r)| recommendation(lang, i + 1, r)),
    );
    b
}
