//! PDF typography, checked with poppler's own tools (pdffonts, pdftotext, pdfinfo from
//! poppler-utils): Latin text in the Latin font, Chinese in the CJK font, footers in each
//! report language, nothing past the right margin, lab tables sorted by host name with host
//! names and short headers on one line.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs a poppler tool and returns its standard output.
fn poppler(tool: &str, args: &[&str], pdf: &Path) -> String {
    let out = Command::new(tool)
        .args(args)
        .arg(pdf)
        .args(if tool == "pdftotext" { &["-"][..] } else { &[][..] })
        .output()
        .unwrap_or_else(|e| {
            panic!("{tool} (poppler-utils) is needed for this test: apt-get install poppler-utils ({e})")
        });
    assert!(out.status.success(), "{tool} failed on {}", pdf.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn page_count(pdf: &Path) -> usize {
    poppler("pdfinfo", &[], pdf)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("pdfinfo gives the page count")
}

/// The base font names on one page (without the subset tag "ABCDEF+").
fn fonts_on(pdf: &Path, page: usize) -> Vec<String> {
    let p = page.to_string();
    poppler("pdffonts", &["-f", &p, "-l", &p], pdf)
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next())
        .map(|name| name.split_once('+').map_or(name, |(_, n)| n).to_string())
        .collect()
}

fn text_on(pdf: &Path, page: usize) -> String {
    let p = page.to_string();
    poppler("pdftotext", &["-f", &p, "-l", &p], pdf)
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Writes a report with the command line, as a user would.
fn report(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let out = dir.join(name);
    common::ramvram()
        .args(["report", "--format", "pdf", "--out"])
        .arg(&out)
        .args(args)
        .assert()
        .success();
    out
}

fn g5(dir: &Path, lang: &str) -> PathBuf {
    let profile = common::fixture_path("aws-g5.xlarge");
    let p = profile.to_str().unwrap();
    let name = format!("g5-{lang}.pdf");
    let args = [
        "--profile",
        p,
        "--preset",
        "llama2-7b",
        "--zero-stage",
        "2",
        "--offload-optimizer",
        "cpu",
        "--lang",
        lang,
    ];
    report(dir, &name, &args)
}

fn lab(dir: &Path, lang: &str) -> PathBuf {
    let folder = common::fixture_path("aws-g5.xlarge");
    let folder = folder.parent().unwrap().to_str().unwrap();
    report(
        dir,
        &format!("lab-{lang}.pdf"),
        &["--profile-dir", folder, "--lang", lang],
    )
}

#[test]
fn english_pages_set_latin_text_in_the_latin_font() {
    let dir = tempfile::tempdir().unwrap();
    for pdf in [g5(dir.path(), "en"), lab(dir.path(), "en")] {
        for page in 1..=page_count(&pdf) {
            let fonts = fonts_on(&pdf, page);
            assert!(
                fonts.iter().any(|f| f == "ramvramSans-Regular"),
                "{} page {page}: {fonts:?}",
                pdf.display()
            );
            // A page with no Chinese on it needs no CJK font at all: its "·", "×" and "≥"
            // come from the Latin font.
            if !has_cjk(&text_on(&pdf, page)) {
                assert!(
                    !fonts.iter().any(|f| f.contains("CJK")),
                    "{} page {page}: {fonts:?}",
                    pdf.display()
                );
            }
        }
    }
}

#[test]
fn chinese_pages_set_chinese_in_the_cjk_font() {
    let dir = tempfile::tempdir().unwrap();
    for pdf in [g5(dir.path(), "zh"), lab(dir.path(), "zh")] {
        for page in 1..=page_count(&pdf) {
            let fonts = fonts_on(&pdf, page);
            assert!(
                fonts.iter().any(|f| f.starts_with("ramvramCJKSC-Regular")),
                "{} page {page}: {fonts:?}",
                pdf.display()
            );
        }
    }
}

#[test]
fn a_bilingual_report_numbers_its_pages_in_both_languages() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = g5(dir.path(), "both");
    let total = page_count(&pdf);
    for page in 1..=total {
        let text = squash(&text_on(&pdf, page));
        assert!(text.contains(&format!("第{page}页")), "page {page}: {text}");
        assert!(
            text.contains(&format!("Page{page}of{total}")),
            "page {page}"
        );
    }
}

/// Every word's right edge, from `pdftotext -bbox` (points from the page's left).
fn word_right_edges(pdf: &Path) -> Vec<(f64, String)> {
    let html = poppler("pdftotext", &["-bbox"], pdf);
    html.split("<word ")
        .skip(1)
        .filter_map(|w| {
            let attr = |name: &str| -> Option<f64> {
                let rest = w.split_once(&format!("{name}=\""))?.1;
                rest.split_once('"')?.0.parse().ok()
            };
            let text = w.split_once('>')?.1.split_once("</word>")?.0.to_string();
            Some((attr("xMax")?, text))
        })
        .collect()
}

#[test]
fn no_line_runs_past_the_right_margin() {
    // A4 is 595.28 points wide; the reports' margins are 50 points.
    const RIGHT: f64 = 595.28 - 50.0 + 0.5;
    let dir = tempfile::tempdir().unwrap();
    for pdf in [
        g5(dir.path(), "en"),
        g5(dir.path(), "zh"),
        g5(dir.path(), "both"),
        lab(dir.path(), "en"),
        lab(dir.path(), "zh"),
    ] {
        let edges = word_right_edges(&pdf);
        assert!(edges.len() > 100, "{}", pdf.display());
        for (x, word) in edges {
            assert!(x <= RIGHT, "{}: {word:?} ends at {x}", pdf.display());
        }
    }
}

#[test]
fn the_lab_table_is_sorted_by_host_name_and_never_breaks_one() {
    let dir = tempfile::tempdir().unwrap();
    let folder = common::fixture_path("aws-g5.xlarge");
    let json = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile-dir"])
            .arg(folder.parent().unwrap()),
    );
    let mut labels: Vec<String> = json["machines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap().to_string())
        .collect();
    labels.sort_by_key(|l| l.to_lowercase());
    for lang in ["en", "zh"] {
        let pdf = lab(dir.path(), lang);
        let text: String = (1..=page_count(&pdf)).map(|p| text_on(&pdf, p)).collect();
        // Each name appears unbroken: a name split over two lines of its cell would have a
        // line break inside it.
        for label in &labels {
            assert!(
                text.contains(label.as_str()),
                "{lang}: {label} missing or broken"
            );
        }
        // The machines' table follows the lab's order (page 1). The page it starts on holds its
        // first rows only: the first names, in order.
        let header = if lang == "zh" {
            "内存:显存"
        } else {
            "RAM:VRAM"
        };
        let page = (1..=page_count(&pdf))
            .find(|&p| squash(&text_on(&pdf, p)).contains(header))
            .expect("the machines' table");
        let first = squash(&text_on(&pdf, page));
        let first = &first[first.find(header).unwrap()..];
        let found: Vec<usize> = labels
            .iter()
            .map_while(|l| first.find(squash(l).as_str()))
            .collect();
        assert!(
            found.len() >= 5,
            "{lang}: {} rows on page {page}",
            found.len()
        );
        assert!(
            found.windows(2).all(|w| w[0] < w[1]),
            "{lang}: rows out of order"
        );
        assert!(
            labels[found.len()..]
                .iter()
                .all(|l| !first.contains(squash(l).as_str())),
            "{lang}: a later name on page {page} ({found:?}): {first}"
        );
        if lang == "zh" {
            assert!(
                text.lines().any(|l| squash(l).contains("内存:显存")),
                "the header 内存 : 显存 on one line"
            );
        }
    }
}

/// Commands are set in the monospace font, as in the window: the g5 report's "Measure memory
/// bandwidth (… `ramvram bench memory`)" puts "ramvram bench memory" on a page whose fonts
/// include ramvram Mono, in both languages; the command reads whole in the text layer.
#[test]
fn commands_are_set_in_the_monospace_font() {
    let dir = tempfile::tempdir().unwrap();
    for lang in ["en", "zh"] {
        let pdf = g5(dir.path(), lang);
        let pages: Vec<usize> = (1..=page_count(&pdf))
            .filter(|p| text_on(&pdf, *p).contains("ramvram bench memory"))
            .collect();
        assert!(!pages.is_empty(), "{lang}: no page names the command");
        for page in pages {
            let fonts = fonts_on(&pdf, page);
            assert!(
                fonts.iter().any(|f| f == "ramvramMono-Regular"),
                "{lang} page {page}: {fonts:?}"
            );
        }
    }
}
