//! Numbers as live diagnosis words them: durations, byte rates, percentages and a piece of
//! evidence.

use crate::advisor::diagnose::Evidence;
use crate::format;
use crate::i18n::{Lang, Msg, trf};

/// Seconds as "4.0 s", "3 min 20 s" or "2 h 5 min" / "4.0 秒", "3 分 20 秒", never broken
/// across lines (its spaces are no-break spaces).
pub fn duration(lang: Lang, s: f64) -> String {
    duration_words(lang, s).replace(' ', &format::NBSP.to_string())
}

fn duration_words(lang: Lang, s: f64) -> String {
    if !s.is_finite() || s < 0.0 {
        return format::unknown(lang);
    }
    if s < 60.0 {
        let n = if s < 10.0 && s.fract() != 0.0 {
            let two = format!("{s:.2}");
            two.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            format!("{s:.0}")
        };
        return trf(lang, Msg::MonitorUnitSeconds, &[("n", &n)]);
    }
    let total = s.round() as u64;
    if total < 3600 {
        let (m, sec) = (total / 60, total % 60);
        return trf(
            lang,
            Msg::MonitorUnitMinutes,
            &[("m", &m.to_string()), ("s", &sec.to_string())],
        );
    }
    let (h, m) = (total / 3600, total % 3600 / 60);
    trf(
        lang,
        Msg::MonitorUnitHours,
        &[("h", &h.to_string()), ("m", &m.to_string())],
    )
}

/// A rate in bytes per second: GB/s from 1 GB/s, else MB/s (10^n, as everywhere).
pub fn byte_rate(bytes_per_s: f64) -> String {
    if bytes_per_s >= 1e9 {
        format::gbps(bytes_per_s)
    } else {
        format::mbps(bytes_per_s)
    }
}

/// A percentage 0–100 (or more, CPU over cores): "97 %", "2.5 %", the number and the sign
/// joined by a no-break space as every quantity is ([`format::NBSP`]).
pub fn percent(p: f64) -> String {
    let nbsp = format::NBSP;
    if p < 10.0 && p.fract() != 0.0 {
        format!("{p:.1}{nbsp}%")
    } else {
        format!("{p:.0}{nbsp}%")
    }
}

/// One piece of evidence in words.
pub fn evidence(lang: Lang, e: &Evidence) -> String {
    match *e {
        Evidence::Bytes(b) => format::gib(b),
        Evidence::BytesPerSecond(r) => byte_rate(r),
        Evidence::Percent(p) => percent(p),
        Evidence::Share(s) => format::percent(s),
        Evidence::Seconds(s) => duration(lang, s),
        Evidence::PerSecond(n) => trf(lang, Msg::MonitorUnitPerS, &[("n", &format!("{n:.0}"))]),
        Evidence::Count(c) => c.to_string(),
        Evidence::Watts(w) => trf(lang, Msg::MonitorUnitWatts, &[("n", &format!("{w:.0}"))]),
        Evidence::Text(ref t) => t.clone(),
    }
}
