//! The RAM:VRAM ratio's rows, the same in the terminal, the window and reports.

use crate::advisor::Assessment;
use crate::format;
use crate::i18n::{Lang, Msg, tr};

/// The ratio section as (label, value) rows: RAM to all VRAM ("1.50×"), RAM to the largest
/// GPU, and the tier; an unknown ratio or tier reads "unknown" / "未知".
pub fn rows(lang: Lang, a: &Assessment) -> [(&'static str, String); 3] {
    [
        (
            tr(lang, Msg::RatioTotal),
            format::ratio_or_unknown(lang, a.ratio.ram_to_vram_total),
        ),
        (
            tr(lang, Msg::RatioLargest),
            format::ratio_or_unknown(lang, a.ratio.ram_to_largest_gpu),
        ),
        (
            tr(lang, Msg::RatioTier),
            a.ratio.tier.map_or_else(
                || format::unknown(lang),
                |t| super::tier(lang, t).to_string(),
            ),
        ),
    ]
}
