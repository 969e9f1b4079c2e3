//! What was checked: the "nothing found" sentence and the checks that had no data.

use crate::advisor::diagnose::{DiagnosisId, MissingData, Summary};
use crate::i18n::{Lang, Msg, tr, trf};

/// The checks the "nothing found" sentence speaks for, in its order. PCIe saturation and
/// power swings are left out: they need data most traces lack (a PCIe link in the profile,
/// PCIe counters), and are shown only when seen.
pub const HEADLINE_CHECKS: [DiagnosisId; 7] = [
    DiagnosisId::GpuStarved,
    DiagnosisId::SwapThrashing,
    DiagnosisId::PageCacheThrashing,
    DiagnosisId::IoBound,
    DiagnosisId::ShmExhausted,
    DiagnosisId::OomKilled,
    DiagnosisId::RamNearLimit,
];

/// Items as a list: "a, b or c" ("a, b and c" with `and`) / "a、b、c".
fn list(lang: Lang, items: &[&str], and: bool) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => trf(
            lang,
            if and {
                Msg::MonitorListLastAnd
            } else {
                Msg::MonitorListLast
            },
            &[
                ("rest", &rest.join(tr(lang, Msg::MonitorListSep))),
                ("last", last),
            ],
        ),
    }
}

/// A check as the thing found none of ("starved GPU" / "GPU 等数据").
fn none_name(lang: Lang, id: DiagnosisId) -> &'static str {
    use DiagnosisId as D;
    tr(
        lang,
        match id {
            D::GpuStarved => Msg::MonitorNoneGpuStarved,
            D::SwapThrashing => Msg::MonitorNoneSwapThrashing,
            D::PageCacheThrashing => Msg::MonitorNonePageCacheThrashing,
            D::IoBound => Msg::MonitorNoneIoBound,
            D::ShmExhausted => Msg::MonitorNoneShmExhausted,
            D::OomKilled => Msg::MonitorNoneOomKilled,
            D::RamNearLimit => Msg::MonitorNoneRamNearLimit,
            D::PcieSaturated => Msg::MonitorNonePcieSaturated,
            D::PowerUnstable => Msg::MonitorNonePowerUnstable,
        },
    )
}

/// A check as what could not be checked ("starved GPUs" / "GPU 是否在等数据").
fn check_name(lang: Lang, id: DiagnosisId) -> &'static str {
    use DiagnosisId as D;
    tr(
        lang,
        match id {
            D::GpuStarved => Msg::MonitorCheckGpuStarved,
            D::SwapThrashing => Msg::MonitorCheckSwapThrashing,
            D::PageCacheThrashing => Msg::MonitorCheckPageCacheThrashing,
            D::IoBound => Msg::MonitorCheckIoBound,
            D::ShmExhausted => Msg::MonitorCheckShmExhausted,
            D::OomKilled => Msg::MonitorCheckOomKilled,
            D::RamNearLimit => Msg::MonitorCheckRamNearLimit,
            D::PcieSaturated => Msg::MonitorCheckPcieSaturated,
            D::PowerUnstable => Msg::MonitorCheckPowerUnstable,
        },
    )
}

fn missing_msg(m: MissingData) -> Msg {
    use MissingData as M;
    match m {
        M::Gpus => Msg::MonitorMissingGpus,
        M::GpuUtil => Msg::MonitorMissingGpuUtil,
        M::CpuLoad => Msg::MonitorMissingCpuLoad,
        M::SwapIn => Msg::MonitorMissingSwapIn,
        M::DiskReads => Msg::MonitorMissingDiskReads,
        M::IoWait => Msg::MonitorMissingIoWait,
        M::Shm => Msg::MonitorMissingShm,
        M::OomKills => Msg::MonitorMissingOomKills,
        M::AvailableMemory => Msg::MonitorMissingAvailableMemory,
        M::RamSize => Msg::MonitorMissingRamSize,
        M::PcieTraffic => Msg::MonitorMissingPcieTraffic,
        M::PcieLink => Msg::MonitorMissingPcieLink,
        M::GpuPower => Msg::MonitorMissingGpuPower,
    }
}

/// The "nothing found" sentence: only the checks the trace had data for ("Nothing wrong seen:
/// no swapping, I/O wait or OOM kill."), or that none could look. [`unchecked_lines`] says
/// what the others lacked.
pub fn none_found(lang: Lang, s: &Summary) -> String {
    let checked: Vec<&str> = HEADLINE_CHECKS
        .iter()
        .filter(|id| s.checked(**id))
        .map(|id| none_name(lang, *id))
        .collect();
    if checked.is_empty() {
        return tr(lang, Msg::MonitorNothingChecked).to_string();
    }
    trf(
        lang,
        Msg::MonitorNoDiagnoses,
        &[("checks", &list(lang, &checked, false))],
    )
}

/// One sentence per kind of data missing, naming the checks that lacked it: "GPU utilisation
/// wasn't in the trace, so starved GPUs couldn't be checked." Empty when every check of
/// [`HEADLINE_CHECKS`] had data.
pub fn unchecked_lines(lang: Lang, s: &Summary) -> Vec<String> {
    let mut groups: Vec<(MissingData, Vec<&str>)> = Vec::new();
    for u in s
        .unchecked
        .iter()
        .filter(|u| HEADLINE_CHECKS.contains(&u.check))
    {
        let name = check_name(lang, u.check);
        match groups.iter_mut().find(|(m, _)| *m == u.missing) {
            Some((_, names)) => names.push(name),
            None => groups.push((u.missing, vec![name])),
        }
    }
    groups
        .into_iter()
        .map(|(m, names)| {
            trf(
                lang,
                missing_msg(m),
                &[("checks", &list(lang, &names, true))],
            )
        })
        .collect()
}
