//! The import direction of the crate's modules: probe/bench → profile → advisor → present →
//! cli/ui/report, with no arrow back up (DESIGN.md "One flow, three views"). Fails when a
//! module's code names a module of its own rank or above (`crate::ui` inside `src/cli/`, say).
//! Comments and `#[cfg(test)]` modules are left out: tests may use the probe's fakes as
//! fixtures, and a doc link is not an import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module's rank; a module may use only modules of a lower rank.
const RANKS: &[(&str, u32)] = &[
    ("units", 0),
    ("i18n", 0),
    ("fsutil", 0),
    ("assets", 0),
    ("linebreak", 0),
    ("codespan", 0),
    ("sanitize", 0),
    ("format", 1),
    // Typed quantities; a value it refuses carries a message id (`i18n`) to be worded in any
    // language.
    ("parse", 1),
    ("profile", 2),
    // A watched run's samples: filled by the probe's sampler, a file or a metrics server; read
    // by the advisor's recognisers.
    ("trace", 3),
    ("probe", 4),
    ("bench", 5),
    ("catalog", 4),
    ("import", 5),
    ("advisor", 6),
    ("inputs", 7),
    // Chart geometry (axes, ticks, points at the same place): pure numbers, used by the
    // documents `present` builds (the fleet chart's axis title says whether it is logarithmic)
    // as well as by the window and the PDF.
    ("chart", 7),
    ("present", 8),
    ("palette", 8),
    ("report", 9),
    ("cli", 10),
    ("ui", 10),
];

fn rank(module: &str) -> Option<u32> {
    RANKS.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
}

/// The code of a source file without comments and without its `#[cfg(test)] mod …` blocks.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            if let Some(next) = lines.peek() {
                if next.trim_start().starts_with("mod ") {
                    // Skip the module: count braces until it closes.
                    let mut depth = 0i32;
                    let mut opened = false;
                    for l in lines.by_ref() {
                        depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
                        opened |= l.contains('{');
                        if opened && depth <= 0 {
                            break;
                        }
                    }
                    continue;
                }
            }
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Modules named in `crate::a::…` and `use crate::{a, b::…}` forms.
fn used_modules(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                used.insert(name);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            used.insert(name);
        }
    }
    used
}

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn arrows() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for used in used_modules(&code(&text)) {
            if used != top {
                graph.entry(top.clone()).or_default().insert(used);
            }
        }
    }
    graph
}

#[test]
fn every_module_has_a_rank() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(src).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let module = name.trim_end_matches(".rs");
        if module == "lib" || module == "main" {
            continue;
        }
        assert!(
            rank(module).is_some(),
            "src/{name}: give the new module a rank in tests/layers.rs"
        );
    }
}

#[test]
fn imports_only_point_down() {
    let mut wrong = Vec::new();
    for (from, targets) in arrows() {
        let Some(r) = rank(&from) else { continue };
        for to in targets {
            match rank(&to) {
                Some(t) if t < r => {}
                Some(_) => wrong.push(format!("{from} → {to}")),
                // `crate::` followed by something that is not a module (a macro path).
                None => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layer order (probe/bench → profile → advisor → present → cli/ui/report): {wrong:?}"
    );
}

#[test]
fn the_checker_sees_an_arrow_up_and_ignores_tests_and_comments() {
    let text = "use crate::advisor::Assessment;\n// crate::ui in a comment\nfn f() { crate::{format, i18n::tr}; }\n#[cfg(test)]\nmod tests {\n    use crate::probe;\n}\n";
    let used = used_modules(&code(text));
    let expected: BTreeSet<String> = ["advisor", "format", "i18n"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(used, expected);
}
