//! The rows every system's memory shares: `MemTotal` with what is available, and a space with
//! its use (swap, a page file). Used by the Linux rows (`hardware`) and the Windows and macOS
//! rows, apart from all three.

use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::MachineProfile;

/// "62.7 GiB (available now 60.1 GiB)", or the total alone when "available" wasn't read.
pub(super) fn memtotal(lang: Lang, p: &MachineProfile) -> String {
    match (p.memory.total_bytes, p.memory.available_bytes) {
        (Some(total), Some(available)) => trf(
            lang,
            Msg::HwRamValue,
            &[
                ("total", &format::gib(total)),
                ("available", &format::gib(available)),
            ],
        ),
        (total, _) => format::gib_or_unknown(lang, total),
    }
}

/// "2.0 GiB used of 8.0 GiB", "none configured", "8.0 GiB (use unknown)" or "unknown".
pub(super) fn swap(lang: Lang, p: &MachineProfile) -> String {
    let words = UsedWords {
        none: Msg::HwNoSwap,
        both: Msg::HwSwapValue,
        size_only: Msg::HwSwapTotalOnly,
        unknown: None,
    };
    used_of(
        lang,
        p.memory.swap_total_bytes,
        p.memory.swap_used_bytes,
        &words,
    )
}

/// The messages of a space and its use (swap, a page file): size 0, both known (`{used}` of
/// `{total}` or `{size}`), the size alone, neither (`None`: the generic "unknown").
pub(super) struct UsedWords {
    pub none: Msg,
    pub both: Msg,
    pub size_only: Msg,
    pub unknown: Option<Msg>,
}

/// A space of `total` bytes with `used` in use, in `words`.
pub(super) fn used_of(
    lang: Lang,
    total: Option<u64>,
    used: Option<u64>,
    words: &UsedWords,
) -> String {
    match (total, used) {
        (Some(0), _) => tr(lang, words.none).to_string(),
        (Some(total), used) => {
            let size = format::gib(total);
            let used = used.map(format::gib);
            let msg = if used.is_some() {
                words.both
            } else {
                words.size_only
            };
            let used = used.unwrap_or_default();
            trf(
                lang,
                msg,
                &[("used", &used), ("total", &size), ("size", &size)],
            )
        }
        (None, _) => words
            .unknown
            .map_or_else(|| format::unknown(lang), |m| tr(lang, m).to_string()),
    }
}
