//! Words for the cluster sources: Prometheus's errors, what a fetched range could not fill, and
//! times shown in UTC. Shared by the command line and the window.

use crate::advisor::diagnose::Diagnosis;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::import::prometheus::range::{FetchNote, Fetched};
use crate::import::prometheus::time::{format_utc, format_utc_time, same_utc_day};
use crate::import::prometheus::{PromError, UrlProblem};

/// A Prometheus error in words; `url` is the server's address as the user gave it.
pub fn error(lang: Lang, url: &str, e: &PromError) -> String {
    let t = |msg: Msg, args: &[(&str, &str)]| {
        let mut all = vec![("url", url)];
        all.extend_from_slice(args);
        trf(lang, msg, &all)
    };
    match e {
        PromError::BadUrl { url, problem } => {
            let why = tr(
                lang,
                match problem {
                    UrlProblem::Scheme => Msg::ClusterUrlScheme,
                    UrlProblem::Credentials => Msg::ClusterUrlCredentials,
                    UrlProblem::QueryOrFragment => Msg::ClusterUrlQuery,
                    UrlProblem::NoHost => Msg::ClusterUrlNoHost,
                    UrlProblem::Invalid => Msg::ClusterUrlInvalid,
                },
            );
            // The address is shown only when it has no credentials in it.
            let shown = match problem {
                UrlProblem::Credentials => "…",
                _ => url.as_str(),
            };
            trf(
                lang,
                Msg::ClusterErrorBadUrl,
                &[("url", shown), ("why", why)],
            )
        }
        PromError::BadToken => tr(lang, Msg::ClusterErrorBadToken).to_string(),
        PromError::Transport(error) => t(Msg::ClusterErrorTransport, &[("error", error)]),
        PromError::Unauthorized { status } => t(
            Msg::ClusterErrorUnauthorized,
            &[("status", &status.to_string())],
        ),
        PromError::Redirect { status, location } => t(
            Msg::ClusterErrorRedirect,
            &[("status", &status.to_string()), ("location", location)],
        ),
        PromError::Http { status, detail } => t(
            Msg::ClusterErrorHttp,
            &[("status", &status.to_string()), ("detail", detail)],
        ),
        PromError::Api { error_type, error } => t(
            Msg::ClusterErrorApi,
            &[("type", error_type), ("error", error)],
        ),
        PromError::TooLarge { limit } => t(
            Msg::ClusterErrorTooLarge,
            &[("mib", &(limit >> 20).to_string())],
        ),
        PromError::Malformed(detail) => t(Msg::ClusterErrorMalformed, &[("detail", detail)]),
        PromError::WrongResultType { expected, found } => t(
            Msg::ClusterErrorWrongType,
            &[("expected", expected), ("found", found)],
        ),
        PromError::BadRange => tr(lang, Msg::ClusterErrorBadRange).to_string(),
        PromError::UnknownNode { node, known } if known.is_empty() => {
            t(Msg::ClusterErrorUnknownNodeNone, &[("node", node)])
        }
        PromError::UnknownNode { node, known } => t(
            Msg::ClusterErrorUnknownNode,
            &[("node", node), ("nodes", &node_list(lang, known))],
        ),
        PromError::EmptyRange { node, start, end } => {
            let (from, to) = range_ends(*start, *end);
            t(
                Msg::ClusterErrorEmptyRange,
                &[("node", node), ("from", &from), ("to", &to)],
            )
        }
        PromError::TooManySteps { steps, max } => trf(
            lang,
            Msg::ClusterErrorTooManySteps,
            &[("steps", &steps.to_string()), ("max", &max.to_string())],
        ),
    }
}

/// Nodes named in a message at most: 20 (a lab's `up` can list thousands).
pub const NODES_SHOWN: usize = 20;

/// The nodes a server knows, for a message: the first [`NODES_SHOWN`], then how many more.
fn node_list(lang: Lang, nodes: &[String]) -> String {
    let shown = nodes.iter().take(NODES_SHOWN).map(String::as_str);
    let list = super::join(lang, &shown.collect::<Vec<_>>());
    if nodes.len() <= NODES_SHOWN {
        return list;
    }
    let more = (nodes.len() - NODES_SHOWN).to_string();
    trf(
        lang,
        Msg::ClusterErrorMoreNodes,
        &[("nodes", &list), ("more", &more)],
    )
}

/// The two ends of a range on the clock: `2024-06-01 14:00:00 UTC` and `18:00:00 UTC` (the
/// date once when both ends share it).
pub fn range_ends(from: f64, to: f64) -> (String, String) {
    let end = if same_utc_day(from, to) {
        format!("{} UTC", format_utc_time(to))
    } else {
        format_utc(to)
    };
    (format_utc(from), end)
}

/// `2024-06-01 14:00:00 UTC – 18:00:00 UTC` (the date once when both ends share it).
pub fn utc_range(lang: Lang, from: f64, to: f64) -> String {
    let (a, b) = range_ends(from, to);
    trf(lang, Msg::ClusterOutRange, &[("from", &a), ("to", &b)])
}

/// A diagnosis's range on the clock, for a trace whose `t = 0` is Unix time `origin`.
pub fn diagnosis_range(lang: Lang, origin: f64, d: &Diagnosis) -> String {
    utc_range(lang, origin + d.from_s, origin + d.to_s)
}

/// "Prometheus URL, node NODE: FROM – TO, every STEP".
pub fn source_line(lang: Lang, url: &str, f: &Fetched) -> String {
    let r = &f.request;
    trf(
        lang,
        Msg::ClusterOutSource,
        &[
            ("url", url),
            ("node", &r.node),
            ("from", &format_utc(r.start)),
            ("to", &format_utc(r.end)),
            ("step", &super::monitor::duration(lang, r.step)),
        ],
    )
}

/// What the range could not fill and what was noticed, as lines: the missing fields, the
/// fields turned off, then each note.
pub fn gaps(lang: Lang, f: &Fetched) -> Vec<String> {
    let list = |fields: &[crate::import::prometheus::mapping::Field]| {
        fields
            .iter()
            .map(|f| f.path())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = Vec::new();
    if !f.missing.is_empty() {
        lines.push(trf(
            lang,
            Msg::ClusterOutMissing,
            &[("fields", &list(&f.missing))],
        ));
    }
    if !f.unmapped.is_empty() {
        lines.push(trf(
            lang,
            Msg::ClusterOutUnmapped,
            &[("fields", &list(&f.unmapped))],
        ));
    }
    for n in &f.notes {
        lines.push(note(lang, n));
    }
    lines
}

/// One note in words.
pub fn note(lang: Lang, n: &FetchNote) -> String {
    match n {
        FetchNote::Ambiguous { field, series } => trf(
            lang,
            Msg::ClusterNoteAmbiguous,
            &[("field", &field.path()), ("count", &series.to_string())],
        ),
        FetchNote::OutOfRange { field, values } => trf(
            lang,
            Msg::ClusterNoteOutOfRange,
            &[("field", &field.path()), ("count", &values.to_string())],
        ),
        FetchNote::NoGpuIndex { field, series } => trf(
            lang,
            Msg::ClusterNoteNoGpuIndex,
            &[("field", &field.path()), ("count", &series.to_string())],
        ),
        FetchNote::Warning(w) => trf(lang, Msg::ClusterNoteWarning, &[("warning", w)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_in_a_url_are_never_repeated() {
        let e = PromError::BadUrl {
            url: "http://admin:hunter2@prom".into(),
            problem: UrlProblem::Credentials,
        };
        for lang in [Lang::En, Lang::Zh] {
            let text = error(lang, "http://admin:hunter2@prom", &e);
            // The caller's URL is not used for this variant either.
            assert!(!text.contains("hunter2"), "{text}");
        }
    }

    #[test]
    fn ranges_read_in_utc() {
        let t = 1_717_250_400.0;
        assert_eq!(
            utc_range(Lang::En, t, t + 3600.0),
            "2024-06-01 14:00:00 UTC – 15:00:00 UTC"
        );
        assert_eq!(
            utc_range(Lang::En, t, t + 86_400.0),
            "2024-06-01 14:00:00 UTC – 2024-06-02 14:00:00 UTC"
        );
    }
}
