//! Tests of the live-diagnosis words.

use super::*;
use crate::advisor::diagnose::diagnose;
use crate::advisor::diagnose::{DiagnosisId, Evidence, Peaks};
use crate::format;
use crate::i18n::Lang;
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
