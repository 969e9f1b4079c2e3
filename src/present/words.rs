//! Words shared by every part of the document: lists, paragraphs, severities, tiers, disk
//! kinds, named values filled into a message, a GPU reading's status.

use crate::advisor::{Quantity, Severity, Tier};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::DiskKind;

/// Right end of the RAM:VRAM gauge in the window, the terminal and the PDF: 3.5×, past the seed's
/// 2× tier and Cisco's 3× rule, so every published rule's line is on the scale. Ratios above it
/// are drawn at the end.
pub const GAUGE_MAX_RATIO: f64 = 3.5;

/// Items in a run of text: "a, b, c" / "a、b、c" (the locale's list separator).
pub fn join<S: AsRef<str>>(lang: Lang, items: &[S]) -> String {
    let sep = tr(lang, Msg::MonitorListSep);
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(sep)
}

/// Two sentences as one paragraph: a space between them in English, none in Chinese (a
/// Chinese sentence ends in "。", which carries its own space).
pub fn sentences(lang: Lang, first: &str, second: &str) -> String {
    let gap = match lang {
        Lang::En => " ",
        Lang::Zh => "",
    };
    format!("{first}{gap}{second}")
}

/// Severity label: "Critical" / "严重".
pub fn severity(lang: Lang, s: Severity) -> &'static str {
    tr(
        lang,
        match s {
            Severity::Info => Msg::SeverityInfo,
            Severity::Warning => Msg::SeverityWarning,
            Severity::Critical => Msg::SeverityCritical,
        },
    )
}

/// Tier name.
pub fn tier(lang: Lang, t: Tier) -> &'static str {
    tr(
        lang,
        match t {
            Tier::Insufficient => Msg::TierInsufficient,
            Tier::Baseline => Msg::TierBaseline,
            Tier::Offload => Msg::TierOffload,
            Tier::LargeModel => Msg::TierLargeModel,
        },
    )
}

/// Fills `msg` from named values: bytes as GiB (KiB below 1 MiB: a sample's size), ratios as "0.67×", counts as integers, text as
/// written; a placeholder with no value shows as "unknown".
pub fn fill_values(
    lang: Lang,
    msg: Msg,
    values: &std::collections::BTreeMap<String, Quantity>,
) -> String {
    let filled: Vec<(&str, String)> = msg
        .placeholders()
        .iter()
        .map(|name| {
            let text = match values.get(*name) {
                Some(Quantity::Bytes(b)) => format::size(*b),
                Some(Quantity::Ratio(r)) => format::ratio(*r),
                Some(Quantity::Count(c)) => c.to_string(),
                Some(Quantity::Rate(r)) => format::rate(lang, *r),
                Some(Quantity::Share(s)) => format::percent(*s),
                Some(Quantity::BytesPerSecond(b)) => format::gbps(*b),
                Some(Quantity::Text(t)) => t.clone(),
                Some(Quantity::Number(n)) => n.to_string(),
                Some(Quantity::Pixels { width, height }) => format!("{width}×{height}"),
                Some(Quantity::Modules {
                    count,
                    size_bytes,
                    memory_type,
                    speed_mts,
                    form_factor,
                }) => super::parts::part_list(
                    *count,
                    *size_bytes,
                    memory_type,
                    *speed_mts,
                    *form_factor,
                ),
                None => format::unknown(lang),
            };
            (*name, text)
        })
        .collect();
    let args: Vec<(&str, &str)> = filled.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, msg, &args)
}

/// Why a GPU reading has no value, in words: "not supported by the driver" or "error: …";
/// `None` when it has one or nothing was recorded (then the value shows as "unknown").
pub fn field_status(lang: Lang, status: Option<&crate::profile::FieldStatus>) -> Option<String> {
    use crate::profile::FieldStatus;
    match status? {
        FieldStatus::Value => None,
        FieldStatus::Unsupported => Some(tr(lang, Msg::GpuFieldUnsupported).to_string()),
        FieldStatus::Error(e) => Some(trf(lang, Msg::GpuFieldError, &[("error", e)])),
    }
}

/// Disk kind label.
pub fn disk_kind(lang: Lang, k: DiskKind) -> &'static str {
    tr(
        lang,
        match k {
            DiskKind::Nvme => Msg::DiskNvme,
            DiskKind::Ssd => Msg::DiskSsd,
            DiskKind::Hdd => Msg::DiskHdd,
            DiskKind::Network => Msg::DiskNetwork,
            DiskKind::Unknown => Msg::DiskUnknown,
        },
    )
}
