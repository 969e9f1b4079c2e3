//! Words for live diagnosis: a diagnosis's title, explanation and advice, the peaks, and the
//! terminal's one-line status per sample. Used by the terminal, the window and reports, so a
//! diagnosis reads the same everywhere. Computes nothing: the numbers come from the
//! [`Summary`] and the samples.

use crate::advisor::diagnose::{Diagnosis, DiagnosisId, Evidence, MissingData, Peaks, Summary};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::trace::Sample;

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

/// Fills `msg` from a diagnosis's evidence; a placeholder it has no number for shows as
/// "unknown".
fn fill(lang: Lang, msg: Msg, d: &Diagnosis) -> String {
    let values: Vec<(&str, String)> = msg
        .placeholders()
        .iter()
        .map(|name| {
            let text = d
                .evidence
                .get(*name)
                .map_or_else(|| format::unknown(lang), |e| evidence(lang, e));
            (*name, text)
        })
        .collect();
    let args: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, msg, &args)
}

/// The messages of a diagnosis: the title, then the sentences of its explanation (the causes
/// that its evidence shows).
fn messages(d: &Diagnosis) -> (Msg, Vec<Msg>) {
    let has = |k: &str| d.evidence.contains_key(k);
    use DiagnosisId as D;
    match d.id {
        D::GpuStarved => {
            // Seen as a saw-tooth (with its period), or as a low duty cycle over minutes at
            // coarse resolution (with the span and the sampling interval).
            let coarse = !has("period");
            let mut explain = vec![if coarse {
                Msg::DiagnosisGpuStarvedExplainCoarse
            } else {
                Msg::DiagnosisGpuStarvedExplain
            }];
            if has("loader_cpu") {
                explain.push(Msg::DiagnosisGpuStarvedCauseLoader);
            }
            if has("host_cpu") {
                explain.push(Msg::DiagnosisGpuStarvedCauseHost);
            }
            if has("iowait") {
                explain.push(Msg::DiagnosisGpuStarvedCauseIo);
            }
            let title = if coarse {
                Msg::DiagnosisGpuStarvedTitleCoarse
            } else {
                Msg::DiagnosisGpuStarvedTitle
            };
            (title, explain)
        }
        D::SwapThrashing => (
            Msg::DiagnosisSwapThrashingTitle,
            vec![Msg::DiagnosisSwapThrashingExplain],
        ),
        D::PageCacheThrashing => (
            Msg::DiagnosisPageCacheThrashingTitle,
            vec![Msg::DiagnosisPageCacheThrashingExplain],
        ),
        D::IoBound => (
            Msg::DiagnosisIoBoundTitle,
            vec![Msg::DiagnosisIoBoundExplain],
        ),
        D::ShmExhausted => (
            Msg::DiagnosisShmExhaustedTitle,
            vec![Msg::DiagnosisShmExhaustedExplain],
        ),
        D::OomKilled => {
            let mut explain = vec![Msg::DiagnosisOomKilledExplain];
            if has("lost_processes") {
                explain.push(Msg::DiagnosisOomKilledLost);
            }
            if has("cgroup_kills") && has("limit") {
                explain.push(Msg::DiagnosisOomKilledCgroup);
            }
            (Msg::DiagnosisOomKilledTitle, explain)
        }
        D::RamNearLimit if has("limit") => (
            Msg::DiagnosisRamNearLimitCgroupTitle,
            vec![Msg::DiagnosisRamNearLimitCgroupExplain],
        ),
        D::RamNearLimit => (
            Msg::DiagnosisRamNearLimitTitle,
            vec![Msg::DiagnosisRamNearLimitExplain],
        ),
        D::PcieSaturated => (
            Msg::DiagnosisPcieSaturatedTitle,
            vec![Msg::DiagnosisPcieSaturatedExplain],
        ),
        D::PowerUnstable => (
            Msg::DiagnosisPowerUnstableTitle,
            vec![Msg::DiagnosisPowerUnstableExplain],
        ),
    }
}

/// Every message a diagnosis uses, recommendations included (tests check their placeholders).
#[cfg(test)]
pub fn all_messages(d: &Diagnosis) -> Vec<Msg> {
    let (title, explain) = messages(d);
    let mut v = vec![title];
    v.extend(explain);
    v.extend(
        d.recommendations
            .iter()
            .map(|r| super::advice_text::finding_msg(*r)),
    );
    v
}

/// A diagnosis's title, with numbers.
pub fn title(lang: Lang, d: &Diagnosis) -> String {
    fill(lang, messages(d).0, d)
}

/// A diagnosis's explanation: what it means and the causes its evidence shows.
pub fn explanation(lang: Lang, d: &Diagnosis) -> String {
    let sep = if lang == Lang::Zh { "" } else { " " };
    messages(d)
        .1
        .into_iter()
        .map(|m| fill(lang, m, d))
        .collect::<Vec<_>>()
        .join(sep)
}

/// What to do, most useful first, with numbers.
pub fn recommendations(lang: Lang, d: &Diagnosis) -> Vec<String> {
    d.recommendations
        .iter()
        .map(|r| fill(lang, super::advice_text::finding_msg(*r), d))
        .collect()
}

/// When: "1 s – 116 s" (the trace's clock).
pub fn range(lang: Lang, d: &Diagnosis) -> String {
    trf(
        lang,
        Msg::MonitorRange,
        &[
            ("from", &duration(lang, d.from_s)),
            ("to", &duration(lang, d.to_s)),
        ],
    )
}

/// The title with its time range: "GPU 0 waits for data: … (1 s – 1 min 56 s)".
pub fn title_with_range(lang: Lang, d: &Diagnosis) -> String {
    trf(
        lang,
        Msg::MonitorTitledRange,
        &[("title", &title(lang, d)), ("range", &range(lang, d))],
    )
}

/// "57 samples over 58 s (every 1 s)."
pub fn summary_line(lang: Lang, s: &Summary) -> String {
    trf(
        lang,
        Msg::MonitorSummary,
        &[
            ("samples", &s.samples.to_string()),
            ("duration", &duration(lang, s.duration_s)),
            ("interval", &duration(lang, s.interval_s)),
        ],
    )
}

/// The peaks as lines: the watched processes (when watched), host memory, GPU memory (when
/// known).
pub fn peak_lines(lang: Lang, p: &Peaks) -> Vec<String> {
    let gib = |b: Option<u64>| format::gib_or_unknown(lang, b);
    // A phrase around a value ("most swap in use …") is worded whole when the value is unknown.
    let phrase = |b: Option<u64>, known: Msg, unknown: Msg| match b {
        Some(b) => trf(lang, known, &[("v", &format::gib(b))]),
        None => tr(lang, unknown).to_string(),
    };
    let mut lines = Vec::new();
    if p.process_rss_bytes.is_some() || p.process_pss_bytes.is_some() {
        lines.push(trf(
            lang,
            Msg::MonitorPeakProcess,
            &[
                ("rss", &gib(p.process_rss_bytes)),
                ("pss", &gib(p.process_pss_bytes)),
                (
                    "cpu",
                    &p.process_cpu_percent
                        .map_or_else(|| format::unknown(lang), percent),
                ),
                (
                    "workers",
                    &match p.process_workers {
                        Some(0) => tr(lang, Msg::MonitorPeakWorkersNone).to_string(),
                        Some(n) => trf(
                            lang,
                            Msg::MonitorPeakWorkers,
                            &[("workers", &n.to_string())],
                        ),
                        None => tr(lang, Msg::MonitorPeakWorkersUnknown).to_string(),
                    },
                ),
            ],
        ));
    }
    lines.push(trf(
        lang,
        Msg::MonitorPeakMemory,
        &[
            (
                "available",
                &phrase(
                    p.mem_available_min_bytes,
                    Msg::MonitorPeakAvailable,
                    Msg::MonitorPeakAvailableUnknown,
                ),
            ),
            (
                "swap",
                &phrase(
                    p.swap_used_bytes,
                    Msg::MonitorPeakSwap,
                    Msg::MonitorPeakSwapUnknown,
                ),
            ),
            (
                "shm",
                &phrase(
                    p.shm_used_bytes,
                    Msg::MonitorPeakShm,
                    Msg::MonitorPeakShmUnknown,
                ),
            ),
        ],
    ));
    if let Some(g) = p.gpu_mem_used_bytes {
        lines.push(trf(
            lang,
            Msg::MonitorPeakGpu,
            &[("gpu_mem", &format::gib(g))],
        ));
    }
    lines
}

/// The terminal's status line for one sample: host memory, swap, CPU, each GPU, the watched
/// tree. Unknown values show as "unknown".
pub fn live_line(lang: Lang, s: &Sample) -> String {
    let unknown = || format::unknown(lang);
    let gib = |b: Option<u64>| format::gib_or_unknown(lang, b);
    let pct = |p: Option<f64>| p.map_or_else(unknown, percent);
    let num = |p: Option<f64>| p.map_or_else(unknown, |v| format!("{v:.0}"));
    let h = &s.host;
    let mut line = trf(
        lang,
        Msg::MonitorLiveHost,
        &[
            ("t", &duration(lang, s.t)),
            ("available", &gib(h.mem_available_bytes)),
            ("cache", &gib(h.page_cache_bytes)),
            ("swap", &gib(h.swap_used_bytes)),
            ("swap_in", &num(h.swap_in_pages_per_s)),
            ("swap_out", &num(h.swap_out_pages_per_s)),
            ("cpu", &pct(h.cpu_busy_percent)),
            ("iowait", &pct(h.iowait_percent)),
        ],
    );
    for g in &s.gpus {
        line.push_str(&trf(
            lang,
            Msg::MonitorLiveGpu,
            &[
                ("index", &g.index.to_string()),
                ("util", &pct(g.util_percent)),
                ("mem", &gib(g.mem_used_bytes)),
                (
                    "power",
                    &g.power_w.map_or_else(unknown, |w| {
                        trf(lang, Msg::MonitorUnitWatts, &[("n", &format!("{w:.0}"))])
                    }),
                ),
            ],
        ));
    }
    if let Some(p) = &s.process {
        line.push_str(&trf(
            lang,
            Msg::MonitorLiveProcess,
            &[
                ("pid", &p.pid.to_string()),
                ("rss", &gib(p.rss_bytes)),
                ("pss", &gib(p.pss_bytes)),
                ("cpu", &pct(p.cpu_percent)),
                ("workers", &format::count_or_unknown(lang, p.workers)),
            ],
        ));
    }
    line
}

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

/// A note about a trace file in words (a last line cut off, fields not known).
pub fn trace_note(lang: Lang, file: &str, n: &crate::trace::jsonl::TraceNote) -> String {
    use crate::trace::jsonl::TraceNote;
    match n {
        TraceNote::TruncatedLastLine(line) => trf(
            lang,
            Msg::MonitorTruncated,
            &[("file", file), ("line", &line.to_string())],
        ),
        TraceNote::IgnoredFields(f) => trf(
            lang,
            Msg::MonitorIgnored,
            &[("file", file), ("fields", &f.join(", "))],
        ),
    }
}

/// A diagnosis's short name for a chart's shading ("GPU starved" / "GPU 等数据").
pub fn short_name(lang: Lang, id: DiagnosisId) -> &'static str {
    use DiagnosisId as D;
    tr(
        lang,
        match id {
            D::GpuStarved => Msg::DiagnosisGpuStarvedShort,
            D::SwapThrashing => Msg::DiagnosisSwapThrashingShort,
            D::PageCacheThrashing => Msg::DiagnosisPageCacheThrashingShort,
            D::IoBound => Msg::DiagnosisIoBoundShort,
            D::ShmExhausted => Msg::DiagnosisShmExhaustedShort,
            D::OomKilled => Msg::DiagnosisOomKilledShort,
            D::RamNearLimit => Msg::DiagnosisRamNearLimitShort,
            D::PcieSaturated => Msg::DiagnosisPcieSaturatedShort,
            D::PowerUnstable => Msg::DiagnosisPowerUnstableShort,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::diagnose::diagnose;
    use crate::trace::synthetic;

    #[test]
    fn unknown_peaks_read_whole() {
        let p = Peaks {
            process_rss_bytes: Some(3 << 30),
            process_workers: Some(1),
            mem_available_min_bytes: Some(5 << 30),
            ..Peaks::default()
        };
        let en = peak_lines(Lang::En, &p).join("\n");
        assert!(en.contains("up to 1 worker\n"), "{en}");
        assert!(
            !en.contains("most swap in use") && en.contains("swap use: unknown"),
            "{en}"
        );
        assert!(en.contains("/dev/shm use: unknown"), "{en}");
        let zh = peak_lines(Lang::Zh, &p).join("\n");
        assert!(
            zh.contains("/dev/shm 用量：未知") && zh.contains("swap 用量：未知"),
            "{zh}"
        );
        assert!(
            !zh.contains("了 未知") && zh.contains("可用内存最低 5.0"),
            "{zh}"
        );
        let single = Peaks {
            process_rss_bytes: Some(1 << 30),
            process_workers: Some(0),
            ..Peaks::default()
        };
        let single = peak_lines(Lang::En, &single).join("\n");
        assert!(single.contains(", no worker processes\n"), "{single}");
        let none = peak_lines(Lang::En, &Peaks::default()).join("\n");
        assert!(none.starts_with("Available memory: unknown"), "{none}");
    }

    #[test]
    fn durations_read_naturally() {
        let d = |lang, s| duration(lang, s).replace(format::NBSP, " ");
        assert_eq!(d(Lang::En, 4.0), "4 s");
        assert_eq!(d(Lang::En, 0.5), "0.5 s");
        assert_eq!(d(Lang::En, 0.25), "0.25 s");
        assert_eq!(d(Lang::En, 200.0), "3 min 20 s");
        assert_eq!(d(Lang::Zh, 200.0), "3 分 20 秒");
        assert_eq!(d(Lang::Zh, 7500.0), "2 小时 5 分");
        // One unbreakable run.
        assert!(!duration(Lang::En, 200.0).contains(' '));
    }

    #[test]
    fn every_placeholder_of_every_diagnosis_has_a_number() {
        let mut traces = vec![
            synthetic::sawtooth(120, 4),
            synthetic::swap_storm(),
            synthetic::oom_kill(),
            synthetic::shm_filling(),
        ];
        // A GPU underfed at a 15 s scrape interval: gpu-starved without a saw-tooth.
        let mut coarse = synthetic::build(80, |i, s| {
            s.t = i as f64 * 15.0;
            s.gpus[0].util_percent = Some(if i % 5 < 2 { 98.0 } else { 2.0 });
            s.host.cpu_busy_percent = Some(95.0);
        });
        coarse.header.interval_s = 15.0;
        // Worded with what was seen: the share busy over the span, not a saw-tooth's period.
        let d = diagnose(&coarse).diagnoses.remove(0);
        assert_eq!(d.id, DiagnosisId::GpuStarved);
        let title = super::title(Lang::En, &d);
        assert!(
            title.starts_with("GPU 0 waits for data: busy 40"),
            "{title}"
        );
        assert!(title.contains(" over 20"), "{title}");
        assert!(!super::title(Lang::Zh, &d).contains("周期"));
        traces.push(coarse);
        traces.push(synthetic::build(60, |_, s| {
            s.host.disk_read_bytes_per_s = Some(600e6);
            s.host.iowait_percent = Some(40.0);
            s.gpus[0].pcie_rx_bytes_per_s = Some(30e9);
        }));
        let mut cgroup = synthetic::oom_kill();
        cgroup.header.profile.as_mut().unwrap().memory.limit_bytes = Some(16 << 30);
        for s in &mut cgroup.samples {
            s.host.cgroup_oom_kills_total = Some(if s.t >= 30.0 { 1 } else { 0 });
            s.host.cgroup_mem_used_bytes = Some(16 << 30);
        }
        traces.push(cgroup);
        let mut seen = std::collections::BTreeSet::new();
        for t in &traces {
            for d in diagnose(t).diagnoses {
                seen.insert(d.id);
                for msg in all_messages(&d) {
                    for name in msg.placeholders() {
                        assert!(
                            d.evidence.contains_key(*name),
                            "{:?}: {} needs {name}",
                            d.id,
                            msg.key()
                        );
                    }
                }
            }
        }
        assert_eq!(seen.len(), DiagnosisId::ALL.len(), "{seen:?}");
    }

    #[test]
    fn nothing_found_names_only_what_was_checked() {
        // Everything known: the whole list.
        let s = diagnose(&synthetic::steady(10));
        assert_eq!(
            none_found(Lang::En, &s),
            "Nothing wrong seen: no starved GPU, swapping, page-cache thrashing, I/O wait, \
             full /dev/shm, OOM kill or memory near its limit."
        );
        assert!(unchecked_lines(Lang::En, &s).is_empty());
        // No GPU, no /dev/shm size, the OOM counter null: those three are not claimed.
        let t = synthetic::build(10, |_, x| {
            x.gpus.clear();
            x.host.shm_total_bytes = None;
            x.host.oom_kills_total = None;
        });
        let s = diagnose(&t);
        assert_eq!(
            none_found(Lang::En, &s),
            "Nothing wrong seen: no swapping, page-cache thrashing, I/O wait or memory near \
             its limit."
        );
        assert_eq!(
            none_found(Lang::Zh, &s),
            "没有发现问题：换页、页缓存抖动、I/O 等待、内存接近上限都没有出现。"
        );
        assert_eq!(
            unchecked_lines(Lang::En, &s),
            [
                "No GPU was in the trace, so starved GPUs couldn't be checked.",
                "/dev/shm's use and size weren't in the trace, so a full /dev/shm couldn't be \
                 checked.",
                "The OOM-kill counter wasn't in the trace, so OOM kills couldn't be checked.",
            ]
        );
        assert_eq!(
            unchecked_lines(Lang::Zh, &s)[0],
            "记录里没有 GPU，所以没法检查是否有 GPU 在等数据。"
        );
        // Swap-in rates null: two checks lack the same thing, one sentence names both.
        let t = synthetic::build(10, |_, x| x.host.swap_in_pages_per_s = None);
        assert_eq!(
            unchecked_lines(Lang::En, &diagnose(&t)),
            [
                "Swap-in rates weren't in the trace, so swapping and page-cache thrashing \
              couldn't be checked."
            ]
        );
        // Nothing known at all.
        let mut t = synthetic::build(3, |_, x| {
            x.host = Default::default();
            x.gpus.clear();
            x.process = None;
        });
        t.header.profile = None;
        let s = diagnose(&t);
        assert_eq!(
            none_found(Lang::En, &s),
            "Nothing could be checked: the trace holds none of the values the checks read."
        );
        assert_eq!(unchecked_lines(Lang::En, &s).len(), 7);
    }

    #[test]
    fn an_oom_kill_reads_whole_without_an_add_ram_line_before_its_advice() {
        let s = diagnose(&synthetic::oom_kill());
        let d = &s.diagnoses[0];
        assert_eq!(d.id, DiagnosisId::OomKilled);
        // One kill: the singular.
        assert_eq!(
            title(Lang::En, d),
            "Out of memory: the kernel killed 1 process"
        );
        // No add-RAM advice precedes it, so the dataset advice stands on its own.
        assert!(
            !d.recommendations
                .contains(&crate::advisor::AdviceId::AddRam)
        );
        for lang in Lang::ALL {
            let recs = recommendations(lang, d);
            assert!(
                recs.iter()
                    .all(|r| !r.contains("Until then") && !r.contains("在加内存之前")),
                "{recs:?}"
            );
        }
        assert!(recommendations(Lang::En, d)[1].starts_with("Keep the dataset out of RAM:"));
        assert!(recommendations(Lang::Zh, d)[1].starts_with("别把数据集整个读进内存："));
        // Two kills in the cgroup: plurals.
        let mut two = d.clone();
        two.evidence.insert("kills".into(), Evidence::Count(2));
        two.evidence
            .insert("cgroup_kills".into(), Evidence::Count(2));
        two.evidence
            .insert("limit".into(), Evidence::Bytes(16 << 30));
        assert_eq!(
            title(Lang::En, &two),
            "Out of memory: the kernel killed 2 processes"
        );
        assert!(explanation(Lang::En, &two).contains(": 2 kills in its cgroup."));
    }

    #[test]
    fn sawtooth_reads_with_its_numbers_in_both_languages() {
        let s = diagnose(&synthetic::sawtooth(120, 4));
        let d = &s.diagnoses[0];
        // Quantities keep their units on the same line: no-break spaces, shown here as " ".
        let plain = |t: String| t.replace(format::NBSP, " ");
        assert_eq!(
            plain(title(Lang::En, d)),
            "GPU 0 waits for data: busy 25.0 % of the time, one cycle every 4 s"
        );
        assert_eq!(
            plain(title(Lang::Zh, d)),
            "GPU 0 在等数据：只有 25.0 % 的时间在干活，每 4 秒一个周期"
        );
        let e = plain(explanation(Lang::En, d));
        assert!(
            e.contains("29 cycles") && e.contains("100 % of a core each"),
            "{e}"
        );
        assert_eq!(plain(range(Lang::En, d)), "1 s – 1 min 56 s");
    }
}
