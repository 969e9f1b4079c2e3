//! Words for the machine what-ifs (`--shm-size`, `--wsl-memory`, `--ram`,
//! `--swap`): the note saying the
//! machine was assessed as changed.

use crate::advisor::whatif::MachineChange;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

/// "ramvram: assessed as if /dev/shm held 1 GiB, … (what-if flags)".
pub fn note(lang: Lang, c: &MachineChange) -> String {
    let mut parts = Vec::new();
    for (bytes, msg) in [
        (c.shm_bytes, Msg::AdviceWhatifShm),
        (c.wsl_memory_bytes, Msg::AdviceWhatifWsl),
        (c.ram_bytes, Msg::AdviceWhatifRam),
        (c.swap_bytes, Msg::AdviceWhatifSwap),
    ] {
        if let Some(b) = bytes {
            parts.push(trf(lang, msg, &[("size", &format::size(b))]));
        }
    }
    let sep = tr(lang, Msg::MonitorListSep);
    trf(
        lang,
        Msg::AdviceWhatifNote,
        &[("changes", &parts.join(sep))],
    )
}
