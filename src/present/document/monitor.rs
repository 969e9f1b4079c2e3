//! The report's "Live diagnosis" section: a watched run's timeline (charts with each diagnosis
//! shaded), its diagnoses with their advice, and its peaks. Words from
//! [`crate::present::monitor`]; computes nothing.

use super::types::{Block, Chart, MonitorReport};
use crate::advisor::diagnose::{Diagnosis, Summary};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::{self, monitor as words};

/// Points per chart line in a report (the saw-tooth's extremes are kept).
const MAX_POINTS: usize = 600;

/// Appends the section in `lang`.
pub fn section(b: &mut Vec<Block>, lang: Lang, m: &MonitorReport, redacted: bool) {
    let s = &m.summary;
    b.push(Block::Heading(tr(lang, Msg::MonitorSection).to_string()));
    let source = match (&m.source, redacted) {
        (Some(f), false) => f.clone(),
        (Some(_), true) => tr(lang, Msg::ReportRedactedHost).to_string(),
        (None, _) => tr(lang, Msg::MonitorReportLive).to_string(),
    };
    // Whose run it is, from the trace's own header: a report of one machine may carry it only
    // when it is that machine's (the window checks), and says so by name.
    let host = m
        .trace
        .header
        .profile
        .as_ref()
        .and_then(|p| p.host.hostname.as_deref());
    if let (Some(host), false) = (host, redacted) {
        b.push(Block::Meta(trf(
            lang,
            Msg::MonitorReportHost,
            &[("host", &crate::sanitize::clean(host))],
        )));
    }
    b.push(Block::Meta(trf(
        lang,
        Msg::MonitorReportMeta,
        &[
            ("source", &source),
            ("samples", &s.samples.to_string()),
            ("duration", &words::duration(lang, s.duration_s)),
            ("interval", &words::duration(lang, s.interval_s)),
        ],
    )));
    let panels = crate::present::timeline::timeline(lang, &m.trace, MAX_POINTS);
    let spans = crate::present::timeline::spans(lang, s);
    let x_range = (
        m.trace.samples.first().map_or(0.0, |x| x.t),
        m.trace.samples.last().map_or(1.0, |x| x.t),
    );
    // One chart block per panel, so that the stack breaks across pages like text does.
    let last = panels.len().saturating_sub(1);
    for (i, panel) in panels.into_iter().enumerate() {
        b.push(Block::Chart(Chart::Timeline {
            panels: vec![panel],
            spans: spans.clone(),
            x_label: if i == last {
                tr(lang, Msg::MonitorUiTimeAxis).to_string()
            } else {
                String::new()
            },
            x_range,
            label_spans: i == 0,
        }));
    }
    if !spans.is_empty() {
        b.push(Block::Note(tr(lang, Msg::MonitorUiShaded).to_string()));
    }
    b.extend(diagnoses(lang, s, &|d| words::title_with_range(lang, d)));
}

/// A run's peaks, then its diagnoses (each titled by `title`: its time range from the start, or
/// on the clock for a trace from a metrics server) with their advice, or that nothing was
/// found, then the checks that had no data: what the report's section and the terminal's
/// `ramvram watch` / `diagnose` show.
pub fn diagnoses(lang: Lang, s: &Summary, title: &dyn Fn(&Diagnosis) -> String) -> Vec<Block> {
    let mut b = vec![
        Block::Subheading(tr(lang, Msg::MonitorPeaks).to_string()),
        Block::Bullets(words::peak_lines(lang, &s.peaks)),
        Block::Subheading(tr(lang, Msg::MonitorCliDiagnoses).to_string()),
    ];
    if s.diagnoses.is_empty() {
        b.push(Block::Paragraph(words::none_found(lang, s)));
    }
    for d in &s.diagnoses {
        b.push(Block::Finding {
            lang,
            severity: d.severity,
            label: present::severity(lang, d.severity).to_string(),
            title: title(d),
            explanation: words::explanation(lang, d),
            recommendations: words::recommendations(lang, d),
        });
    }
    for line in words::unchecked_lines(lang, s) {
        b.push(Block::Paragraph(line));
    }
    b
}
