//! The report's sections about the machine itself: hardware, the RAM:VRAM ratio and the published
//! rules, bandwidth, findings, the ranked recommendations and the appendix of sources. Words come
//! from [`crate::present`]; nothing here computes advice.

use super::types::{Block, Chart};
use crate::advisor::{Assessment, RuleStatus};
use crate::format::{self, GIB};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;

pub(super) fn hardware(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.push(Block::Heading(tr(lang, Msg::HwSection).to_string()));
    b.push(Block::KeyValues(present::hardware_rows(lang, a)));
    if !a.profile.notes.is_empty() {
        b.push(Block::Subheading(tr(lang, Msg::NotesSection).to_string()));
        b.push(Block::Bullets(
            a.profile
                .notes
                .iter()
                .map(|n| present::note(lang, n))
                .collect(),
        ));
    }
}

pub(super) fn ratio(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.push(Block::Heading(tr(lang, Msg::RatioSection).to_string()));
    if let Some(r) = a.ratio.ram_to_vram_total {
        let labels = crate::advisor::Tier::ALL.map(|t| present::tier(lang, t).to_string());
        b.push(Block::Chart(Chart::RatioGauge {
            ratio: r,
            tier_labels: labels,
        }));
    }
    b.push(Block::KeyValues(
        present::ratio::rows(lang, a)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    ));
}

pub(super) fn rules(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.push(Block::Heading(tr(lang, Msg::RulesSection).to_string()));
    let header = present::rule_header(lang).map(str::to_string).to_vec();
    let rows = a
        .rules
        .iter()
        .map(|r| present::rule_row(lang, r).to_vec())
        .collect();
    b.push(Block::Table {
        header,
        rows,
        widths: vec![3.0, 3.2, 1.4, 1.4, 1.2],
    });
    // Where each rule comes from, under the rules (as the window's Rules page lists them).
    let sources = present::names::rule_sources(lang, &a.rules);
    if !sources.is_empty() {
        b.push(Block::Subheading(
            tr(lang, Msg::RulesSourcesHeading).to_string(),
        ));
        b.push(Block::Bullets(
            sources.into_iter().map(str::to_string).collect(),
        ));
    }
    let bars: Vec<(String, f64)> = a
        .rules
        .iter()
        .filter(|r| r.status != RuleStatus::NotApplicable)
        .filter_map(|r| {
            r.required_bytes
                .map(|req| (present::rule_name(lang, r.id).to_string(), req as f64 / GIB))
        })
        .collect();
    if let (false, Some(actual)) = (bars.is_empty(), a.memory.sizing_bytes) {
        b.push(Block::Chart(Chart::RulesBars {
            rules: bars,
            actual_gib: actual as f64 / GIB,
            actual_label: trf(
                lang,
                Msg::ReportThisMachineRam,
                &[("ram", &format::gib(actual))],
            ),
            axis_label: tr(lang, Msg::ReportRamAxis).to_string(),
        }));
    }
}

/// Memory bandwidth (theoretical and measured, with where each number came from), the seed's
/// bandwidth rule with its arithmetic, the pipeline's stages (one line each) and its narrowest
/// one, PCIe per GPU and measured storage: what the window's Bandwidth page and `advise` show.
pub(super) fn bandwidth(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    use crate::present::bandwidth as words;
    let Some(bw) = &a.bandwidth else { return };
    b.push(Block::Heading(tr(lang, Msg::BwTab).to_string()));
    b.push(Block::Paragraph(words::pipeline_sentence(
        lang,
        &bw.pipeline,
    )));
    // Each stage's capacity and where it comes from and, with a workload, what it delivers
    // for it (samples/s × bytes per sample = GB/s): the arithmetic, which a table of rates
    // would leave out. The narrowest stage is named in the sentence above.
    b.push(Block::Bullets(words::stage_lines(lang, bw)));
    b.extend(memory_and_rule(lang, bw));
    let mut lines: Vec<String> = bw.pcie.iter().map(|p| words::pcie_line(lang, p)).collect();
    lines.extend(
        bw.storage
            .iter()
            .filter_map(|s| words::storage_location(lang, s)),
    );
    if !lines.is_empty() {
        b.push(Block::Bullets(lines));
    }
}

/// Memory bandwidth's rows (theoretical, measured, efficiency, with where each came from) and
/// the seed's bandwidth rule in a sentence with its arithmetic: the report's bandwidth section
/// and the window's Bandwidth page show these blocks.
pub fn memory_and_rule(lang: Lang, bw: &crate::advisor::bandwidth::Bandwidth) -> [Block; 2] {
    use crate::present::bandwidth as words;
    [
        Block::KeyValues(
            words::memory_rows(lang, bw)
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        ),
        Block::Paragraph(words::seed_rule_text(lang, bw)),
    ]
}

/// One finding as a block: its severity's name, title, explanation and what to do. The
/// findings section and the Data loading page's own findings use it.
pub fn finding(lang: Lang, f: &crate::advisor::Finding) -> Block {
    Block::Finding {
        lang,
        severity: f.severity,
        label: present::severity(lang, f.severity).to_string(),
        title: present::finding_title(lang, f),
        explanation: present::finding_explanation(lang, f),
        recommendations: present::finding_recommendations(lang, f),
    }
}

pub(super) fn findings(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.push(Block::Heading(tr(lang, Msg::FindingsSection).to_string()));
    if a.findings.is_empty() {
        b.push(Block::Paragraph(tr(lang, Msg::FindingsNone).to_string()));
    }
    b.extend(a.findings.iter().map(|f| finding(lang, f)));
}

/// The memory pools a plan charges: each pool's consumers, its limits as checks, its verdict
/// ([`crate::present::pools::reports`]); nothing when only the machine was assessed.
pub(super) fn pools(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    let reports = crate::present::pools::reports(lang, a);
    if reports.is_empty() {
        return;
    }
    b.push(Block::Heading(tr(lang, Msg::PoolSection).to_string()));
    b.push(Block::Paragraph(
        tr(lang, Msg::PoolSectionIntro).to_string(),
    ));
    for r in reports {
        b.push(Block::Subheading(r.title));
        let (verdict, standing) = r.verdict;
        b.push(Block::Verdict {
            standing,
            title: verdict,
            body: String::new(),
        });
        let widths = vec![1.5; r.consumers_header.len()];
        b.push(Block::Table {
            header: r.consumers_header,
            rows: r.consumers,
            widths,
        });
        b.push(Block::Checks {
            header: r.limits_header,
            rows: r.limits,
            widths: vec![2.0, 2.0, 1.3, 1.3, 1.5],
        });
    }
}

/// The ranked list of changes: the blocks the window and `advise` show
/// ([`super::advice_blocks::recommendations`]).
pub(super) fn recommendations(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.extend(super::advice_blocks::recommendations(
        lang,
        &a.recommendations,
        None,
    ));
}

pub(super) fn appendix(b: &mut Vec<Block>, lang: Lang, a: &Assessment) {
    b.push(Block::Heading(tr(lang, Msg::ReportAppendix).to_string()));
    b.push(Block::Paragraph(tr(lang, Msg::ReportUnits).to_string()));
    // The rules' sources are under the rules ([`rules`]); these are the other assumptions.
    let mut sources: Vec<String> = Vec::new();
    // The /dev/shm need the findings used: the workload's own, else the default assumption.
    // Windows has no /dev/shm: its batches sit in file mappings, in RAM, without a limit.
    let windows = crate::profile::is_windows(&a.profile);
    let shm = match &a.workload {
        Some(r) => {
            let w = &r.workload;
            Some(trf(
                lang,
                if windows {
                    Msg::WindowsWorkloadShmLine
                } else {
                    Msg::ReportShmWorkload
                },
                &[
                    ("workers", &w.num_workers.to_string()),
                    ("prefetch", &w.prefetch_factor.to_string()),
                    ("batch", &w.batch_size.to_string()),
                    ("sample", &format::size(w.tensor_bytes())),
                    ("experiments", &w.concurrent_experiments.to_string()),
                    ("total", &format::gib(r.shm_needed_bytes)),
                ],
            ))
        }
        None if windows => None,
        None => Some(tr(lang, Msg::ReportAssumptionShm).to_string()),
    };
    sources.extend(shm);
    // The DIMM-set assumption only where sets are listed; the purchase's own where it is shown.
    let purchase = present::purchase::shown(a).map(|(p, _)| p);
    let sets_shown = purchase.is_some_and(|p| !present::purchase::alternative(p).is_empty());
    if sets_shown {
        sources.push(tr(lang, Msg::ReportAssumptionDimms).to_string());
    }
    if purchase.is_some() {
        sources.push(tr(lang, Msg::PurchaseAssumption).to_string());
    }
    sources.push(tr(lang, Msg::ReportModelDoc).to_string());
    b.push(Block::Bullets(sources));
    let others = present::purchase::order::other_sets(a);
    if !others.is_empty() {
        b.push(Block::Subheading(tr(lang, Msg::OrderOtherSets).to_string()));
        b.push(Block::Bullets(
            others
                .iter()
                .map(|s| present::purchase::dimm_set(lang, s))
                .collect(),
        ));
    }
}
