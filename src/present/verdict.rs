//! The verdict's headline and explanation.

use crate::advisor::{Assessment, Verdict};
use crate::format;
use crate::i18n::{Lang, Msg, trf};

/// The verdict's headline and its one-paragraph explanation, with this machine's numbers.
pub fn verdict(lang: Lang, a: &Assessment) -> (String, String) {
    let (title, detail) = match a.verdict {
        Verdict::RamBelowVram => (
            Msg::VerdictRamBelowVramTitle,
            Msg::VerdictRamBelowVramDetail,
        ),
        Verdict::Baseline => (Msg::VerdictBaselineTitle, Msg::VerdictBaselineDetail),
        Verdict::OffloadReady => (
            Msg::VerdictOffloadReadyTitle,
            Msg::VerdictOffloadReadyDetail,
        ),
        Verdict::LargeModelReady => (
            Msg::VerdictLargeModelReadyTitle,
            Msg::VerdictLargeModelReadyDetail,
        ),
        Verdict::UnifiedMemory => (
            Msg::VerdictUnifiedMemoryTitle,
            Msg::VerdictUnifiedMemoryDetail,
        ),
        Verdict::NoGpu if crate::profile::is_windows(&a.profile) => {
            (Msg::VerdictNoGpuTitle, Msg::WindowsVerdictNoGpu)
        }
        Verdict::NoGpu => (Msg::VerdictNoGpuTitle, Msg::VerdictNoGpuDetail),
        Verdict::CannotJudge => (Msg::VerdictCannotJudgeTitle, Msg::VerdictCannotJudgeDetail),
    };
    // The ratio's own numbers: RAM as sized (installed, or a cgroup limit) and nominal VRAM.
    let ram = format::gib_or_unknown(lang, a.memory.sizing_bytes);
    let vram = format::gib_or_unknown(lang, a.vram.nominal_total_bytes);
    let ratio = format::ratio_or_unknown(lang, a.ratio.ram_to_vram_total);
    let args = [
        ("ram", ram.as_str()),
        ("vram", vram.as_str()),
        ("ratio", ratio.as_str()),
    ];
    (trf(lang, title, &args), trf(lang, detail, &args))
}
