//! A memory pool in words for the views: one bar of its consumers (each labelled, in GiB) with
//! its limits marked ([`PoolBar`]), built once from the assessment's pools
//! ([`crate::advisor::pools`]); the window draws it ([`crate::ui::pool_bar`]).

use crate::advisor::Assessment;
use crate::advisor::Severity;
use crate::advisor::pools::{ConsumerId, LimitId, Pool, PoolKind, Scope, Side};
use crate::advisor::recommend::Subject;
use crate::advisor::standing::Standing;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

const GIB: f64 = (1u64 << 30) as f64;

/// One pool as a bar: its consumers stacked, its limits as marks.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolBar {
    /// "The unified pool: 16.0 GiB".
    pub title: String,
    /// The pool's hard size, GiB (the bar's scale reaches the largest of it, the limits and
    /// the consumers' sum).
    pub size_gib: f64,
    /// Each consumer: its label ("serving · GPU side 11.0 GiB"), GiB, true for the GPU side.
    pub segments: Vec<(String, f64, bool)>,
    /// Each limit other than the hard size: its label ("GPU working set 10.7 GiB") and GiB,
    /// and whether what it counts fits under it.
    pub limits: Vec<(String, f64, Option<bool>)>,
    /// "fits under every limit" or "over a limit".
    pub verdict: Option<(String, bool)>,
}

/// One pool for the reports: its consumers as a table, its limits as checks (each in the colour
/// of how it stands), and its verdict naming the binding limit. Built once for the Markdown and
/// PDF reports and the terminal ([`crate::present::document`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PoolReport {
    /// "The unified pool: 7.3 GiB".
    pub title: String,
    /// The consumers' header: whose, what, size (and the commit charge on Windows).
    pub consumers_header: Vec<String>,
    /// One row a consumer.
    pub consumers: Vec<Vec<String>>,
    /// The limits' header: limit, size (with its source), charged, margin, verdict.
    pub limits_header: Vec<String>,
    /// One row a limit, with how it stands.
    pub limits: Vec<(Vec<String>, Standing)>,
    /// "Over its physical size: 6.8 GiB needed of 7.3 GiB", or the closest limit when all fit;
    /// with how the pool stands.
    pub verdict: (String, Standing),
}

/// Every pool something is charged to, for the reports (empty when only the machine was
/// assessed). GPUs in a row whose pools are the same (consumers, limits, verdict) are one entry,
/// "GPU 0–7 (each)".
pub fn reports(lang: Lang, a: &Assessment) -> Vec<PoolReport> {
    let same = |x: &Pool, y: &Pool| {
        x.kind == PoolKind::Vram
            && y.kind == PoolKind::Vram
            && (x.consumers.as_slice(), x.limits.as_slice(), x.fits)
                == (y.consumers.as_slice(), y.limits.as_slice(), y.fits)
    };
    let charged: Vec<&Pool> = a.pools.iter().filter(|p| !p.consumers.is_empty()).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < charged.len() {
        let first = charged[i];
        let mut j = i + 1;
        while j < charged.len() && same(first, charged[j]) {
            j += 1;
        }
        let name = if j - i > 1 {
            let index = |p: &Pool| p.name.trim_start_matches("gpu").to_string();
            trf(
                lang,
                Msg::PoolNameGpus,
                &[("first", &index(first)), ("last", &index(charged[j - 1]))],
            )
        } else {
            pool_name(lang, &first.name)
        };
        out.push(report(lang, first, &name));
        i = j;
    }
    out
}

fn limit_standing(l: &crate::advisor::pools::PoolLimit) -> Standing {
    if l.check.tight() {
        Standing::Short(Severity::Warning)
    } else {
        crate::advisor::standing::check(&l.check)
    }
}

fn report(lang: Lang, p: &Pool, name: &str) -> PoolReport {
    let commit = p.consumers.iter().any(|c| c.commit_bytes.is_some());
    let mut consumers_header = vec![
        tr(lang, Msg::PoolColWhose).to_string(),
        tr(lang, Msg::PoolColWhat).to_string(),
        tr(lang, Msg::PoolColBytes).to_string(),
    ];
    if commit {
        consumers_header.push(tr(lang, Msg::PoolColCommit).to_string());
    }
    let consumers = p
        .consumers
        .iter()
        .map(|c| {
            let mut row = vec![
                subject(lang, c.subject).to_string(),
                consumer(lang, c.id).to_string(),
                format::gib(c.bytes),
            ];
            if commit {
                row.push(c.commit_bytes.map_or_else(String::new, format::gib));
            }
            row
        })
        .collect();
    let limits_header = [
        Msg::PoolColLimit,
        Msg::PoolColLimitSize,
        Msg::PoolColCharged,
        Msg::PoolColMargin,
    ]
    .iter()
    .map(|m| tr(lang, *m).to_string())
    .chain([String::new()])
    .collect();
    let limits = p
        .limits
        .iter()
        .map(|l| {
            let verdict = if l.check.tight() {
                tr(lang, Msg::TrainNoHeadroom)
            } else {
                super::training::fits_word(lang, l.check.fits)
            };
            let row = vec![
                limit_name(lang, l.id).to_string(),
                super::provenance::with_word(lang, format::gib(l.bytes), Some(l.source)),
                format::gib(l.check.needed_bytes),
                format::gib(l.check.margin_bytes),
                verdict.to_string(),
            ];
            (row, limit_standing(l))
        })
        .collect();
    PoolReport {
        title: trf(
            lang,
            Msg::PoolTitle,
            &[
                ("pool", name),
                ("size", &format::size(p.size_bytes.unwrap_or(0))),
            ],
        ),
        consumers_header,
        consumers,
        limits_header,
        limits,
        verdict: pool_verdict(lang, p),
    }
}

/// The pool's verdict: the limit it overflows ([`Pool::overflowing`]) with its figures, or,
/// when every limit holds, the binding one and what is left under it.
fn pool_verdict(lang: Lang, p: &Pool) -> (String, Standing) {
    let binding = p
        .overflowing()
        .or_else(|| p.binding.and_then(|id| p.limit(id)));
    let Some(l) = binding else {
        return (format::unknown(lang), Standing::Unknown);
    };
    let vars = [
        ("limit", limit_name(lang, l.id).to_string()),
        ("need", format::size(l.check.needed_bytes)),
        ("have", format::size(l.bytes)),
        (
            "left",
            format::size(l.bytes.saturating_sub(l.check.needed_bytes)),
        ),
        ("margin", format::size(l.check.margin_bytes)),
    ];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let msg = match p.fits {
        Some(true) => Msg::PoolReportFits,
        _ if l.check.tight() => Msg::PoolReportTight,
        Some(false) => Msg::PoolReportOver,
        None => Msg::PoolReportUnknown,
    };
    (trf(lang, msg, &vars), limit_standing(l))
}

/// The bars of the assessment's unified pools (the machine page draws each as one bar).
pub fn unified_bars(lang: Lang, a: &Assessment) -> Vec<PoolBar> {
    a.pools
        .iter()
        .filter(|p| p.kind == PoolKind::Unified && !p.consumers.is_empty())
        .map(|p| bar(lang, p))
        .collect()
}

fn subject(lang: Lang, s: Subject) -> &'static str {
    tr(
        lang,
        match s {
            Subject::Training => Msg::PoolTraining,
            Subject::Inference => Msg::PoolInference,
            _ => Msg::PoolWorkload,
        },
    )
}

fn consumer(lang: Lang, id: ConsumerId) -> &'static str {
    tr(
        lang,
        match id {
            ConsumerId::Host => Msg::PoolHost,
            ConsumerId::Gpu => Msg::PoolGpu,
            ConsumerId::EngineClaim => Msg::PoolEngineClaim,
            ConsumerId::Workers => Msg::PoolWorkers,
        },
    )
}

/// A pool's name (`unified`, `ram`, `gpu0`) in `lang`.
pub fn pool_name(lang: Lang, name: &str) -> String {
    match name {
        "unified" => tr(lang, Msg::PoolNameUnified).to_string(),
        "ram" => tr(lang, Msg::PoolNameRam).to_string(),
        n => match n.strip_prefix("gpu") {
            Some(i) => trf(lang, Msg::PoolNameGpu, &[("index", i)]),
            None => n.to_string(),
        },
    }
}

/// The limit's name in `lang`.
pub fn limit_name(lang: Lang, id: LimitId) -> &'static str {
    tr(
        lang,
        match id {
            LimitId::Physical => Msg::PoolLimitPhysical,
            LimitId::JobLimit => Msg::PoolLimitJobLimit,
            LimitId::NumaBinding => Msg::PoolLimitNumaBinding,
            LimitId::CommitLimit => Msg::PoolLimitCommitLimit,
            LimitId::GpuWorkingSet => Msg::PoolLimitGpuWorkingSet,
            LimitId::Gtt => Msg::PoolLimitGtt,
            LimitId::EngineShare => Msg::PoolLimitEngineShare,
            LimitId::StartupFree => Msg::PoolLimitStartupFree,
        },
    )
}

/// Why `whose` plan doesn't fit when a unified pool it shares overflows, in the pool's
/// words: "the unified pool needs 8.6 GiB of 7.3 GiB: training 6.0 GiB + data loading 2.6
/// GiB" (each subject's consumers in the overflowing limit's scope; a limit other than the
/// hard size is named; a pool inside the limit but not its margin says what is left). With it,
/// true when the pool is only tight (inside the limit). `None` when no unified pool it charges
/// overflows.
pub fn overflow(lang: Lang, a: &Assessment, whose: Subject) -> Option<(String, bool)> {
    let p = a
        .pools
        .iter()
        .find(|p| p.kind == PoolKind::Unified && p.fits == Some(false) && p.charged_by(whose))?;
    let l = p.overflowing()?;
    let vars = [
        ("pool", pool_name(lang, &p.name)),
        ("need", format::size(l.check.needed_bytes)),
        ("have", format::size(l.bytes)),
        ("limit", limit_name(lang, l.id).to_string()),
    ];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut need = if l.id == LimitId::Physical {
        trf(lang, Msg::AnswerPoolNeed, &vars)
    } else {
        trf(lang, Msg::AnswerPoolNeedLimit, &vars)
    };
    let tight = l.check.tight();
    if tight {
        need = trf(
            lang,
            Msg::AnswerPoolTight,
            &[
                ("line", &need),
                ("left", &format::size(l.bytes - l.check.needed_bytes)),
                ("margin", &format::size(l.check.margin_bytes)),
            ],
        );
    }
    // vLLM's share and its start-up check count its request, not its consumers.
    if matches!(l.id, LimitId::EngineShare | LimitId::StartupFree) {
        return Some((need, tight));
    }
    let mut parts: Vec<(Subject, u64)> = Vec::new();
    for c in &p.consumers {
        if l.scope == Scope::Gpu && c.side != Side::Gpu {
            continue;
        }
        let bytes = match l.scope {
            Scope::Commit => c.commit_bytes.unwrap_or(c.bytes),
            _ => c.bytes,
        };
        match parts.iter_mut().find(|(s, _)| *s == c.subject) {
            Some((_, b)) => *b = b.saturating_add(bytes),
            None => parts.push((c.subject, bytes)),
        }
    }
    let parts: Vec<String> = parts
        .iter()
        .map(|(s, b)| format!("{} {}", subject(lang, *s), format::size(*b)))
        .collect();
    let line = trf(
        lang,
        Msg::AnswerPoolParts,
        &[("need_line", &need), ("parts", &parts.join(" + "))],
    );
    Some((line, tight))
}

fn bar(lang: Lang, p: &Pool) -> PoolBar {
    let size = p.size_bytes.unwrap_or(0);
    PoolBar {
        title: trf(
            lang,
            Msg::PoolTitle,
            &[
                ("pool", &pool_name(lang, &p.name)),
                ("size", &format::size(size)),
            ],
        ),
        size_gib: size as f64 / GIB,
        segments: p
            .consumers
            .iter()
            .map(|c| {
                let label = format!(
                    "{} · {} {}",
                    subject(lang, c.subject),
                    consumer(lang, c.id),
                    format::size(c.bytes)
                );
                (label, c.bytes as f64 / GIB, c.side == Side::Gpu)
            })
            .collect(),
        limits: p
            .limits
            .iter()
            .filter(|l| l.id != LimitId::Physical)
            .map(|l| {
                let label = format!("{} {}", limit_name(lang, l.id), format::size(l.bytes));
                (label, l.bytes as f64 / GIB, l.check.fits)
            })
            .collect(),
        verdict: p.fits.map(|f| {
            let m = if f { Msg::PoolFits } else { Msg::PoolOver };
            (tr(lang, m).to_string(), f)
        }),
    }
}
