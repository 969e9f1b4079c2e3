//! Words for the machine what-ifs (`--shm-size`, `--wsl-memory`, `--ram`,
//! `--swap`, `--memory-limit`, `--gpu-wired-limit`, `--page-file`, `--gtt`, `--numa-bind`): the note saying the
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
        (c.memory_limit_bytes, Msg::AdviceWhatifMemoryLimit),
        (c.gpu_wired_limit_bytes, Msg::AdviceWhatifGpuWiredLimit),
        (c.page_file_bytes, Msg::AdviceWhatifPageFile),
        (c.gtt_bytes, Msg::AdviceWhatifGtt),
    ] {
        if let Some(b) = bytes {
            parts.push(trf(lang, msg, &[("size", &format::size(b))]));
        }
    }
    if let Some(node) = c.numa_bind.and_then(|n| n.name()) {
        parts.push(trf(lang, Msg::AdviceWhatifNumaBind, &[("node", node)]));
    }
    let sep = tr(lang, Msg::MonitorListSep);
    trf(
        lang,
        Msg::AdviceWhatifNote,
        &[("changes", &parts.join(sep))],
    )
}
