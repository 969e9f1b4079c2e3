//! The words of each piece of advice ([`AdviceId`]): its title as a ranked change
//! (`advice.<id>.title`, filled from the change's values) and its sentence as a finding's
//! advice (`advice.<id>.finding`, filled from the finding's values). An id the recommender
//! never ranks has no title, and one no finding carries has no finding sentence: the other
//! text stands in, so every id has words in both languages (`tests/advice_ids.rs`). The keys
//! come from the id's row ([`AdviceId::message_key`]); build.rs makes both languages hold the
//! same keys, and the test fails for an id with neither text.

use crate::advisor::AdviceId;
use crate::i18n::Msg;

/// The title's message for a ranked change (`advice.<id>.title`); for an id only a finding
/// carries, its finding sentence.
pub fn title_msg(id: AdviceId) -> Msg {
    title(id).unwrap_or_else(|| finding_msg(id))
}

/// A finding's advice sentence for `id` (`advice.<id>.finding`), in its plain variant; for an
/// id only the recommender ranks, its title. [`finding_variant_msg`] picks the WSL wording.
pub fn finding_msg(id: AdviceId) -> Msg {
    finding(id).unwrap_or_else(|| title(id).unwrap_or(Msg::RecommendationSection))
}

/// What is known of Windows' RAM, which words WSL's `memory=` advice
/// ([`AdviceId::WslRaiseMemory`]) as a finding: one change, three texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowsRamKnown {
    /// Entered in the profile: the figures are exact.
    Entered,
    /// Estimated from WSL's default cap (half of Windows' RAM).
    Estimated,
    /// Unknown: it can't be read from inside WSL.
    Unknown,
}

/// The finding sentence for `id`, worded by what is known of Windows' RAM where the id has such
/// variants (`advice.<id>.finding_estimated`, `advice.<id>.finding_unknown`: WSL's `memory=`);
/// any other id has one wording whatever is known.
pub fn finding_variant_msg(id: AdviceId, windows_ram: WindowsRamKnown) -> Msg {
    let part = match windows_ram {
        WindowsRamKnown::Entered => return finding_msg(id),
        WindowsRamKnown::Estimated => "finding_estimated",
        WindowsRamKnown::Unknown => "finding_unknown",
    };
    message(id, part).unwrap_or_else(|| finding_msg(id))
}

/// `advice.<id>.title`, where the id has one (the recommender ranks it).
pub fn title(id: AdviceId) -> Option<Msg> {
    message(id, "title")
}

/// `advice.<id>.finding` (the plain variant), where a finding carries the id.
pub fn finding(id: AdviceId) -> Option<Msg> {
    message(id, "finding")
}

/// What a ranked change costs, in words: the message its row names ([`AdviceId::cost_key`]);
/// `None` only for a row whose key the locale files lack (`tests/advice_ids.rs` fails then).
pub fn cost_msg(id: AdviceId) -> Option<Msg> {
    Msg::from_key(id.cost_key())
}

/// The message `advice.<id>.<part>` ([`AdviceId::message_key`]), if the locale files have it.
fn message(id: AdviceId, part: &str) -> Option<Msg> {
    Msg::from_key(&id.message_key(part))
}
