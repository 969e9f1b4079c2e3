//! The import direction of the crate's modules: probe/bench → profile → advisor → present →
//! cli/ui/report, with no arrow back up (DESIGN.md "One flow, three views"). Fails when a
//! module's code names a module of its own rank or above (`crate::ui` inside `src/cli/`, say).
//! Comments and `#[cfg(test)]` modules are left out: tests may use the probe's fakes as
//! fixtures, and a doc link is not an import. Below: no import circle inside a folder, no
//! parent module tied both ways to a child, and no file over 500 lines of non-test code.

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
                if next.trim_start().starts_with("mod ") && next.trim_end().ends_with(';') {
                    // `mod tests;`: a test module in its own file, left out as a whole.
                    lines.next();
                    continue;
                }
                if next.trim_start().starts_with("mod ") {
                    // Skip the module up to its closing brace at the `mod` line's indentation
                    // (the code is rustfmt'd; counting braces would trip on those in strings).
                    let indent = &next[..next.len() - next.trim_start().len()];
                    let close = format!("{indent}}}");
                    for l in lines.by_ref() {
                        if l.trim_end() == close {
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

// ---------------------------------------------------------------------------------------------
// No import circle inside any folder.
//
// For every folder F of src/ (src/ itself included), F's entries are its direct files (`x.rs`)
// and its subfolders (`x/`, taken as ONE unit with everything below it). An arrow A → B is
// drawn when code in A (any file below it; comments and `#[cfg(test)]` modules left out, as
// above) names B through a `crate::…`, `super::…` or `self::…` path, `use` groups included.
//
// F's own `mod.rs` (or `x.rs` beside an `x/` folder, as `ui/app.rs`) is not an entry of F: it is
// the folder's face, declaring the children, re-exporting their items and, where it must,
// calling them. A child naming `super::Item` defined there names F, not a sibling; so the house
// rule (DESIGN.md "Types apart from callers") is kept between siblings, and F's mod.rs counts
// as part of the unit `F/` in the folder above. Re-exports are looked through: when `mod.rs`
// says `pub use plan::TrainingPlan;`, `super::TrainingPlan` in a sibling is an arrow to
// `plan.rs`, so an import routed through the face still shows.
// ---------------------------------------------------------------------------------------------

/// A module's path below `src/`: `["advisor", "training", "plan"]`; `[]` is the crate root.
type ModPath = Vec<String>;

/// Every module of the crate with its file, less `lib.rs`, `main.rs` and the files that are
/// `#[cfg(test)] mod name;` modules (test code, like the inline test modules).
fn modules() -> BTreeMap<ModPath, std::path::PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut out = BTreeMap::new();
    let mut test_modules = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let mut path: ModPath = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let last = path.pop().unwrap();
        let stem = last.trim_end_matches(".rs").to_string();
        if path.is_empty() && (stem == "lib" || stem == "main") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let mut lines = text.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if line.starts_with("#[cfg(test)]") {
                if let Some(name) = lines
                    .next()
                    .and_then(|l| l.strip_prefix("mod "))
                    .and_then(|l| l.strip_suffix(';'))
                {
                    let mut parent = path.clone();
                    if stem != "mod" {
                        parent.push(stem.clone());
                    }
                    parent.push(name.trim().to_string());
                    test_modules.insert(parent);
                }
            }
        }
        if stem != "mod" {
            path.push(stem);
        }
        out.insert(path, file);
    }
    out.retain(|m, _| !test_modules.contains(m));
    out
}

/// Reads an identifier (or `*`) at the start of `s`; returns it and the rest.
fn ident(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    if let Some(rest) = s.strip_prefix('*') {
        return ("*", rest);
    }
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// One path of a `use` tree or expression: its segments and the name it is bound to (`as`).
#[derive(Debug, Clone, PartialEq)]
struct Leaf {
    segs: Vec<String>,
    alias: Option<String>,
}

/// Parses the tail of a path after its first segment (`::a::{b, c::d}` …) into the full
/// segment lists of its leaves, each starting with `prefix`; returns the rest of the text.
fn path_tail<'a>(prefix: &[String], mut s: &'a str, leaves: &mut Vec<Leaf>) -> &'a str {
    let mut segs = prefix.to_vec();
    loop {
        let t = s.trim_start();
        let Some(after) = t.strip_prefix("::") else {
            // `name as alias`
            if let Some(rest) = t.strip_prefix("as ") {
                let (alias, rest) = ident(rest);
                leaves.push(Leaf {
                    segs,
                    alias: Some(alias.to_string()),
                });
                return rest;
            }
            leaves.push(Leaf { segs, alias: None });
            return s;
        };
        let after = after.trim_start();
        if let Some(mut group) = after.strip_prefix('{') {
            loop {
                group = group.trim_start();
                if let Some(rest) = group.strip_prefix('}') {
                    return rest;
                }
                if let Some(rest) = group.strip_prefix(',') {
                    group = rest;
                    continue;
                }
                let (name, rest) = ident(group);
                if name.is_empty() {
                    // Not a path we understand; stop here.
                    leaves.push(Leaf { segs, alias: None });
                    return rest;
                }
                let mut sub = segs.clone();
                if name != "self" {
                    sub.push(name.to_string());
                }
                group = path_tail(&sub, rest, leaves);
            }
        }
        let (name, rest) = ident(after);
        if name.is_empty() {
            leaves.push(Leaf { segs, alias: None });
            return rest;
        }
        segs.push(name.to_string());
        s = rest;
    }
}

/// Every `crate::…`, `super::…` and `self::…` path in `code`, as the segments after the head
/// (a `super` inside is kept as a segment), with the head.
fn relative_paths(code: &str) -> Vec<(&'static str, Vec<String>)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| code[i..].starts_with(h));
        let boundary = i == 0 || {
            let c = bytes[i - 1] as char;
            !(c.is_alphanumeric() || c == '_' || c == ':')
        };
        match head {
            Some(h) if boundary => {
                let name = h.trim_end_matches("::");
                let mut leaves = Vec::new();
                let rest = path_tail(&[], &code[i + name.len()..], &mut leaves);
                for Leaf { segs: leaf, .. } in leaves {
                    out.push((
                        match name {
                            "crate" => "crate",
                            "super" => "super",
                            _ => "self",
                        },
                        leaf,
                    ));
                }
                // `rest` is a suffix of `code` at least the head shorter.
                i = code.len() - rest.len();
            }
            _ => {
                i += code[i..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    out
}

/// What each module re-exports: `(module, name)` → the module the name comes from, and for
/// `pub use x::*` the modules searched for a name not re-exported by name.
#[derive(Default)]
struct Reexports {
    named: BTreeMap<(ModPath, String), ModPath>,
    globs: BTreeMap<ModPath, Vec<ModPath>>,
    texts: BTreeMap<ModPath, String>,
}

/// The longest prefix of `segs` (already absolute) that is a module, looking through
/// re-exports of the item after it; `None` when not even the first segment is one.
fn resolve(
    segs: &[String],
    mods: &BTreeMap<ModPath, std::path::PathBuf>,
    re: &Reexports,
) -> Option<ModPath> {
    let k = (1..=segs.len())
        .rev()
        .find(|k| mods.contains_key(&segs[..*k]))?;
    let mut t = segs[..k].to_vec();
    if let Some(item) = segs.get(k) {
        let mut seen = BTreeSet::new();
        while seen.insert(t.clone()) {
            if let Some(to) = re.named.get(&(t.clone(), item.clone())) {
                t = to.clone();
            } else if let Some(to) = re.globs.get(&t).and_then(|gs| {
                gs.iter().find(|g| {
                    re.named.contains_key(&((*g).clone(), item.clone()))
                        || re.texts.get(*g).is_some_and(|text| defines(text, item))
                })
            }) {
                t = to.clone();
            } else {
                break;
            }
        }
    }
    Some(t)
}

/// Whether `code` defines a public item called `name` (`pub fn name`, `pub struct name`, …).
fn defines(code: &str, name: &str) -> bool {
    [
        "fn", "struct", "enum", "const", "type", "trait", "static", "mod",
    ]
    .iter()
    .any(|kind| {
        let needle = format!("{kind} {name}");
        code.match_indices(&needle).any(|(i, _)| {
            let after = code[i + needle.len()..].chars().next();
            let before = &code[..i];
            !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && (before.ends_with("pub ") || before.ends_with(") "))
        })
    })
}

/// Makes `segs` (after a `crate`, `super` or `self` head, seen from module `m`) absolute.
fn absolute(m: &[String], head: &str, segs: &[String]) -> ModPath {
    let mut out: ModPath = match head {
        "crate" => Vec::new(),
        "super" => m[..m.len().saturating_sub(1)].to_vec(),
        _ => m.to_vec(),
    };
    for s in segs {
        if s == "super" {
            out.pop();
        } else {
            out.push(s.clone());
        }
    }
    out
}

/// Every module's code (comments and test modules left out) and its re-exports.
fn read_all(mods: &BTreeMap<ModPath, std::path::PathBuf>) -> Reexports {
    let texts = mods
        .iter()
        .map(|(m, file)| (m.clone(), code(&std::fs::read_to_string(file).unwrap())))
        .collect();
    reexports(mods, texts)
}

/// The re-exports of modules whose code is `texts` (comments and test modules left out).
fn reexports(
    mods: &BTreeMap<ModPath, std::path::PathBuf>,
    texts: BTreeMap<ModPath, String>,
) -> Reexports {
    let mut re = Reexports {
        texts,
        ..Reexports::default()
    };
    for (m, text) in &re.texts {
        for (i, _) in text.match_indices("use ") {
            let before = text[..i].trim_end();
            if !(before.ends_with("pub") || before.ends_with(')')) {
                continue;
            }
            let (first, rest) = ident(&text[i + 4..]);
            let mut leaves = Vec::new();
            path_tail(&[first.to_string()], rest, &mut leaves);
            for leaf in leaves {
                let (head, tail) = leaf.segs.split_first().unwrap();
                let segs = match head.as_str() {
                    "crate" | "super" | "self" => absolute(m, head, tail),
                    _ => absolute(m, "self", &leaf.segs),
                };
                let Some(last) = leaf.segs.last() else {
                    continue;
                };
                if last == "*" {
                    if mods.contains_key(&segs[..segs.len() - 1]) {
                        re.globs
                            .entry(m.clone())
                            .or_default()
                            .push(segs[..segs.len() - 1].to_vec());
                    }
                    continue;
                }
                let name = leaf.alias.clone().unwrap_or_else(|| last.clone());
                let k = (1..=segs.len())
                    .rev()
                    .find(|k| mods.contains_key(&segs[..*k]));
                if let Some(k) = k {
                    if segs[..k] != m[..] {
                        re.named.insert((m.clone(), name), segs[..k].to_vec());
                    }
                }
            }
        }
    }
    re
}

/// An arrow between two entries of one folder, with the first path that draws it.
type FolderArrows = BTreeMap<ModPath, BTreeMap<ModPath, String>>;

/// For every folder, the arrows between its entries (see the comment above `ModPath`).
fn folder_arrows() -> BTreeMap<ModPath, FolderArrows> {
    let mods = modules();
    let re = read_all(&mods);
    let mut folders: BTreeMap<ModPath, FolderArrows> = BTreeMap::new();
    for (m, text) in &re.texts {
        for (head, segs) in relative_paths(text) {
            let abs = absolute(m, head, &segs);
            let Some(t) = resolve(&abs, &mods, &re) else {
                continue;
            };
            // The folder holding both as entries: their longest common prefix, when each
            // reaches one level below it.
            let common = m.iter().zip(&t).take_while(|(a, b)| a == b).count();
            if common >= m.len() || common >= t.len() {
                continue; // one is the other, or inside it: a folder and its own parts
            }
            let folder = m[..common].to_vec();
            let a = m[..common + 1].to_vec();
            let b = t[..common + 1].to_vec();
            folders
                .entry(folder)
                .or_default()
                .entry(a)
                .or_default()
                .entry(b)
                .or_insert_with(|| format!("{}: {head}::{}", m.join("::"), segs.join("::")));
        }
    }
    folders
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn circles(arrows: &FolderArrows) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        arrows: &'a FolderArrows,
        index: BTreeMap<ModPath, usize>,
        low: BTreeMap<ModPath, usize>,
        stack: Vec<ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit(s: &mut State, v: &ModPath) {
        let n = s.index.len();
        s.index.insert(v.clone(), n);
        s.low.insert(v.clone(), n);
        s.stack.push(v.clone());
        let next: Vec<ModPath> = s
            .arrows
            .get(v)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for w in next {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let lw = s.low[&w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w) {
                let iw = s.index[&w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                let done = w == *v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in arrows.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// Circles known and left for now, each with its owner: the folder and its entries, sorted.
/// The test fails when one of them is gone (take it off this list) and for any other circle;
/// the list only shrinks.
const KNOWN_CIRCLES: &[(&str, &[&str])] = &[];

#[test]
fn no_import_circle_inside_any_folder() {
    let mut found = Vec::new();
    let mut known_seen = Vec::new();
    for (folder, arrows) in folder_arrows() {
        for comp in circles(&arrows) {
            let name = |m: &ModPath| m.last().cloned().unwrap_or_default();
            let names: Vec<String> = comp.iter().map(name).collect();
            if let Some(k) = KNOWN_CIRCLES
                .iter()
                .position(|(f, entries)| *f == folder.join("/") && *entries == names)
            {
                known_seen.push(k);
                continue;
            }
            let mut lines = vec![format!(
                "src/{}: {}",
                folder.join("/"),
                comp.iter().map(name).collect::<Vec<_>>().join(", ")
            )];
            for a in &comp {
                for (b, why) in &arrows[a] {
                    if comp.contains(b) {
                        lines.push(format!("    {} → {}  ({why})", name(a), name(b)));
                    }
                }
            }
            found.push(lines.join("\n"));
        }
    }
    let gone: Vec<&str> = (0..KNOWN_CIRCLES.len())
        .filter(|k| !known_seen.contains(k))
        .map(|k| KNOWN_CIRCLES[k].0)
        .collect();
    assert!(
        gone.is_empty(),
        "known circles no longer found (take them off KNOWN_CIRCLES): {gone:?}"
    );
    assert!(
        found.is_empty(),
        "{} import circle(s) inside a folder (DESIGN.md: a file defines shared types or \
         orchestrates the code that uses them, not both):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_circle_checker_reads_groups_supers_and_reexports() {
    let paths = relative_paths(
        "use crate::advisor::recommend::{self, machine::{all_fit, RamNeed as R}, Limit};\n\
         fn f() { super::super::plan::x(); self::y::Z; not_crate::a; }\n",
    );
    let got: Vec<String> = paths
        .iter()
        .map(|(h, s)| format!("{h}::{}", s.join("::")))
        .collect();
    assert_eq!(
        got,
        [
            "crate::advisor::recommend",
            "crate::advisor::recommend::machine::all_fit",
            "crate::advisor::recommend::machine::RamNeed",
            "crate::advisor::recommend::Limit",
            "super::super::plan::x",
            "self::y::Z",
        ]
    );
    let m: ModPath = ["advisor", "training", "peft"].map(String::from).to_vec();
    assert_eq!(
        absolute(&m, "super", &["super".to_string(), "workload".to_string()]),
        ["advisor", "workload"].map(String::from).to_vec()
    );
    // Two entries naming each other make one circle; a third that only points in does not join.
    let p = |s: &str| vec![s.to_string()];
    let mut arrows = FolderArrows::new();
    arrows
        .entry(p("a"))
        .or_default()
        .insert(p("b"), String::new());
    arrows
        .entry(p("b"))
        .or_default()
        .insert(p("a"), String::new());
    arrows
        .entry(p("c"))
        .or_default()
        .insert(p("a"), String::new());
    assert_eq!(circles(&arrows), vec![vec![p("a"), p("b")]]);
    assert!(defines("pub fn judge(", "judge"));
    assert!(defines("pub(crate) struct Judged {", "Judged"));
    assert!(!defines("pub fn judged(", "judge"));
}

// ---------------------------------------------------------------------------------------------
// No parent module tied both ways to a child.
//
// A parent P is a module with modules below it (a `mod.rs`, or `x.rs` beside an `x/` folder);
// its children are the units one level below it (a file, or a folder with everything in it).
// P is tied to a child C when both arrows exist:
// - down: P's own code uses an item of C: a path into C (`c::f()`, `self::c::T`,
//   `crate::…::p::c::T`) or a name P imported from C (`use c::T;` or `pub use c::T;`, then `T`
//   in P's code). The `mod c;` line and the `use` (re-export) line itself are not uses;
// - up: C's code (any file below it) uses an item DEFINED in P: `super::X`, `crate::…::p::X`,
//   resolved through re-exports as above, so `super::X` where P merely re-exports X from a
//   sibling is an arrow to that sibling, not to P.
// Such a P both holds shared types and orchestrates the children that use them (DESIGN.md
// "Types apart from callers"): move its types into a child of their own, or its calls out.
// ---------------------------------------------------------------------------------------------

/// Whether `code` defines an item called `name`, of any visibility (a child may use its
/// parent's private items).
fn defines_any(code: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    [
        "fn",
        "struct",
        "enum",
        "const",
        "type",
        "trait",
        "static",
        "union",
        "macro_rules!",
    ]
    .iter()
    .any(|kind| {
        let needle = format!("{kind} {name}");
        code.match_indices(&needle).any(|(i, _)| {
            !word(code[i + needle.len()..].chars().next()) && !word(code[..i].chars().next_back())
        })
    })
}

/// Splits a module's code into its `use` statements (each with whether it is `pub`) and the
/// rest, leaving out `mod name;` lines.
fn split_uses(code: &str) -> (Vec<(bool, String)>, String) {
    let mut uses = Vec::new();
    let mut body = String::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let (public, rest) = match t.strip_prefix("pub") {
            Some(r) if r.starts_with(' ') => (true, r.trim_start()),
            Some(r) if r.starts_with('(') => {
                (true, r[r.find(')').map_or(0, |i| i + 1)..].trim_start())
            }
            _ => (false, t),
        };
        if rest.starts_with("mod ") && rest.trim_end().ends_with(';') {
            continue;
        }
        if let Some(mut stmt) = rest.strip_prefix("use ").map(str::to_string) {
            while !stmt.trim_end().ends_with(';') {
                let Some(next) = lines.next() else { break };
                stmt.push(' ');
                stmt.push_str(next.trim());
            }
            uses.push((public, stmt));
            continue;
        }
        body.push_str(line);
        body.push('\n');
    }
    (uses, body)
}

/// Where the whole word `name` stands in `code` as a name of its own: not a method, a field or
/// the tail of another path (`.name`, `::name`).
fn word_at(code: &str, name: &str) -> Option<usize> {
    code.match_indices(name).map(|(i, _)| i).find(|&i| {
        let before = &code[..i];
        let after = code[i + name.len()..].chars().next();
        !before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && !before.ends_with("::")
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The identifiers of `code`.
fn words(code: &str) -> BTreeSet<&str> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        .collect()
}

/// A parent tied both ways to a child, with a path drawing each arrow.
#[derive(Debug, PartialEq)]
struct Tie {
    parent: ModPath,
    child: ModPath,
    down: String,
    up: String,
}

/// Every parent tied both ways to one of its children (see the comment above `defines_any`).
fn ties(mods: &BTreeMap<ModPath, std::path::PathBuf>, re: &Reexports) -> Vec<Tie> {
    let below = |p: &ModPath, t: &ModPath| t.len() > p.len() && t[..p.len()] == p[..];
    let mut out = Vec::new();
    for (p, ptext) in &re.texts {
        if !mods.keys().any(|m| below(p, m)) {
            continue;
        }
        let unit = |t: &ModPath| t[..p.len() + 1].to_vec();
        let mut down: BTreeMap<ModPath, String> = BTreeMap::new();
        let (uses, body) = split_uses(ptext);
        // Names bound by `use` to something outside the crate shadow a child of that name.
        let mut external = BTreeSet::new();
        for (_, stmt) in &uses {
            let (first, rest) = ident(stmt);
            let mut leaves = Vec::new();
            path_tail(&[first.to_string()], rest, &mut leaves);
            for leaf in leaves {
                let (head, tail) = leaf.segs.split_first().unwrap();
                let mut child = p.clone();
                child.push(head.clone());
                let abs = match head.as_str() {
                    "crate" | "super" | "self" => absolute(p, head, tail),
                    _ if mods.contains_key(&child) => absolute(p, "self", &leaf.segs),
                    _ => {
                        external.insert(
                            leaf.alias
                                .clone()
                                .unwrap_or_else(|| leaf.segs.last().cloned().unwrap_or_default()),
                        );
                        continue;
                    }
                };
                let Some(last) = abs.last().cloned() else {
                    continue;
                };
                if last == "*" {
                    let g = abs[..abs.len() - 1].to_vec();
                    if below(p, &g) {
                        if let Some(w) = words(&body)
                            .into_iter()
                            .find(|w| re.texts.get(&g).is_some_and(|t| defines(t, w)))
                        {
                            down.entry(unit(&g))
                                .or_insert_with(|| format!("{w} (use {})", stmt.trim()));
                        }
                    }
                    continue;
                }
                let Some(t) = resolve(&abs, mods, re) else {
                    continue;
                };
                if !below(p, &t) {
                    continue;
                }
                let name = leaf.alias.clone().unwrap_or(last);
                if word_at(&body, &name).is_some() {
                    down.entry(unit(&t))
                        .or_insert_with(|| format!("{name} (use {})", stmt.trim()));
                }
            }
        }
        // Paths into a child in P's own code: `c::…` (a child's name), `self::…`, `crate::…`.
        let mut paths = relative_paths(&body);
        for m in mods
            .keys()
            .filter(|m| m.len() == p.len() + 1 && below(p, m))
        {
            let c = m.last().unwrap();
            if external.contains(c) {
                continue;
            }
            let mut rest = body.as_str();
            while let Some(i) = word_at(rest, c) {
                let after = &rest[i + c.len()..];
                if after.starts_with("::") {
                    let mut leaves = Vec::new();
                    path_tail(&[], after, &mut leaves);
                    for leaf in leaves {
                        paths.push(("", [vec![c.clone()], leaf.segs].concat()));
                    }
                }
                rest = after;
            }
        }
        for (head, segs) in paths {
            // A bare `c::…` (head "") is relative to P, as `self::c::…`.
            let abs = absolute(p, head, &segs);
            if let Some(t) = resolve(&abs, mods, re).filter(|t| below(p, t)) {
                let written = match head {
                    "" => segs.join("::"),
                    _ => format!("{head}::{}", segs.join("::")),
                };
                down.entry(unit(&t)).or_insert(written);
            }
        }
        // Children's uses of items defined in P.
        for (m, mtext) in re.texts.iter().filter(|(m, _)| below(p, m)) {
            let child = unit(m);
            let Some(dn) = down.get(&child) else { continue };
            let mut up = None;
            for (head, segs) in relative_paths(mtext) {
                let abs = absolute(m, head, &segs);
                if abs.len() <= p.len() || abs[..p.len()] != p[..] {
                    continue;
                }
                let item = &abs[p.len()];
                let defined = if item == "*" {
                    words(mtext).into_iter().find(|w| defines_any(ptext, w))
                } else if resolve(&abs, mods, re).as_ref() == Some(p) && defines_any(ptext, item) {
                    Some(item.as_str())
                } else {
                    None
                };
                if let Some(item) = defined {
                    up = Some(format!(
                        "{}: {head}::{} ({item})",
                        m.join("::"),
                        segs.join("::")
                    ));
                    break;
                }
            }
            if let Some(up) = up {
                if !out.iter().any(|t: &Tie| t.parent == *p && t.child == child) {
                    out.push(Tie {
                        parent: p.clone(),
                        child: child.clone(),
                        down: format!("{}: {dn}", p.join("::")),
                        up,
                    });
                }
            }
        }
    }
    out
}

/// Ties known and left for now, as `(parent, child)` below `src/`, each in a module another
/// change is reworking. The test fails when one of them is gone (take it off this list) and for
/// any other tie; the list only shrinks.
const KNOWN_TIES: &[(&str, &str)] = &[];

#[test]
fn no_parent_tied_both_ways_to_a_child() {
    let mods = modules();
    let re = read_all(&mods);
    let found = ties(&mods, &re);
    let key = |t: &Tie| {
        (
            t.parent.join("/"),
            t.child.last().cloned().unwrap_or_default(),
        )
    };
    let all: Vec<String> = found
        .iter()
        .map(|t| {
            let (p, c) = key(t);
            format!("src/{p} ⇄ {c}\n    down: {}\n    up:   {}", t.down, t.up)
        })
        .collect();
    println!("{} parent/child tie(s):\n{}", all.len(), all.join("\n"));
    let gone: Vec<_> = KNOWN_TIES
        .iter()
        .filter(|(p, c)| {
            !found
                .iter()
                .any(|t| key(t) == (p.to_string(), c.to_string()))
        })
        .collect();
    assert!(
        gone.is_empty(),
        "known ties no longer found (take them off KNOWN_TIES): {gone:?}"
    );
    let new: Vec<&String> = found
        .iter()
        .zip(&all)
        .filter(|(t, _)| {
            let (p, c) = key(t);
            !KNOWN_TIES.iter().any(|(kp, kc)| *kp == p && *kc == c)
        })
        .map(|(_, line)| line)
        .collect();
    assert!(
        new.is_empty(),
        "{} parent module(s) tied both ways to a child (DESIGN.md: a file defines shared types \
         or orchestrates the code that uses them, not both; move the parent's types into a \
         child of their own, keeping `pub use` for their paths):\n{}",
        new.len(),
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_tie_checker_sees_calls_both_ways_and_ignores_reexports_and_mod_lines() {
    let files = [
        (
            "p",
            "//! The parent.\npub mod a;\npub mod b;\npub mod c;\nmod d;\n\
             pub use a::Thing;\npub use b::Other;\nuse d::Helper;\n\
             /// Shared.\npub struct Shared;\n\
             // a::work() in a comment is no call\n\
             pub fn run() { a::work(); }\npub fn h() { c::g(); }\nfn k(_: Helper) {}\n\
             #[cfg(test)]\nmod tests {\n    fn t() { super::b::f(); }\n}\n",
        ),
        // Tied: p calls a::work, a takes p's Shared.
        (
            "p/a",
            "pub struct Thing;\npub fn work(_: super::Shared) {}\n",
        ),
        // p only declares b and re-exports its Other: no tie, though b uses p's Shared.
        (
            "p/b",
            "pub struct Other;\npub fn f(_: super::Shared, _: super::Thing) {}\n",
        ),
        // p calls c::g, but c's `super::Thing` is a's, re-exported by p: an arrow to a.
        ("p/c", "pub fn g(_: super::Thing) {}\n"),
        // Tied through a name p imported: `Helper` in p's code, `crate::p::Shared` in d's.
        ("p/d", "pub struct Helper;\nfn x(_: crate::p::Shared) {}\n"),
    ];
    let mut mods = BTreeMap::new();
    let mut texts = BTreeMap::new();
    for (path, text) in files {
        let m: ModPath = path.split('/').map(String::from).collect();
        mods.insert(m.clone(), std::path::PathBuf::from(path));
        texts.insert(m, code(text));
    }
    let re = reexports(&mods, texts);
    let found: Vec<(String, String)> = ties(&mods, &re)
        .iter()
        .map(|t| (t.parent.join("/"), t.child.join("/")))
        .collect();
    assert_eq!(
        found,
        [
            ("p".to_string(), "p/a".to_string()),
            ("p".to_string(), "p/d".to_string())
        ]
    );
    assert!(defines_any("fn helper(", "helper"));
    assert!(defines_any("pub(super) struct Shared;", "Shared"));
    assert!(!defines_any("fn helpers(", "helper"));
    let (uses, body) = split_uses("pub mod a;\npub(crate) use a::{\n    B,\n};\nfn f() {}\n");
    assert_eq!(uses, [(true, "a::{ B, };".to_string())]);
    assert_eq!(body, "fn f() {}\n");
}

// ---------------------------------------------------------------------------------------------
// File sizes: no source file holds more than 500 lines of non-test code. A file's count is all
// its lines less its `#[cfg(test)] mod name { … }` blocks; a file that is itself a
// `#[cfg(test)] mod name;` module (`tests.rs`) is test code and not counted ([`modules`] leaves
// those out).
// ---------------------------------------------------------------------------------------------

/// The most lines of non-test code one file may hold.
const MAX_LINES: usize = 500;

/// Lines of `text` outside its `#[cfg(test)] mod name { … }` blocks (a block ends at the
/// closing brace at the `mod` line's indentation: the code is rustfmt'd).
fn non_test_lines(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let mut count = 0;
    let mut i = 0;
    while i < lines.len() {
        let next = lines.get(i + 1).copied().unwrap_or("");
        let block = lines[i].trim_start().starts_with("#[cfg(test)]")
            && next.trim_start().starts_with("mod ")
            && !next.trim_end().ends_with(';');
        if block {
            let indent = &next[..next.len() - next.trim_start().len()];
            let close = format!("{indent}}}");
            let mut j = i + 2;
            while j < lines.len() && lines[j].trim_end() != close {
                j += 1;
            }
            i = j + 1;
            continue;
        }
        count += 1;
        i += 1;
    }
    count
}

#[test]
fn no_source_file_over_500_lines_of_non_test_code() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut long = Vec::new();
    for file in modules().values() {
        let n = non_test_lines(&std::fs::read_to_string(file).unwrap());
        if n > MAX_LINES {
            long.push(format!(
                "{}: {n}",
                file.strip_prefix(&src).unwrap().display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines of non-test code (split them by job; a `#[cfg(test)] \
         mod` block does not count): {long:?}"
    );
}

#[test]
fn the_counter_leaves_out_test_blocks_only() {
    let text = "//! Doc.\nfn a() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n    }\n}\n\
                #[cfg(test)]\nmod more;\nfn b() {\n    let s = \"}\";\n}\n";
    // Kept: the doc line, `fn a`, the blank line, the `mod more;` declaration and its
    // attribute, and the three lines of `fn b`.
    assert_eq!(non_test_lines(text), 8);
    assert_eq!(non_test_lines(""), 0);
    // An indented test module ends at its own closing brace, not at an inner one.
    let nested = "mod outer {\n    #[cfg(test)]\n    mod tests {\n        fn f() {\n        }\n    }\n    fn g() {}\n}\n";
    assert_eq!(non_test_lines(nested), 3);
    // The files the size test reads: every module, test modules' own files left out.
    let files: Vec<String> = modules()
        .values()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("src/advisor/diagnose/mod.rs"))
    );
    assert!(
        !files
            .iter()
            .any(|f| f.ends_with("src/advisor/diagnose/tests.rs"))
    );
}

/// The calls that assess a machine, found in `code` (comments and test modules already left
/// out by [`code`]): `assess(`, `assess_fleet(`, `assess_machine(` and the redacted assessments
/// (`redacted_assessment(`, `redacted_assessment_with(`), as a whole word.
fn assess_calls(code: &str) -> Vec<String> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut calls = Vec::new();
    for (at, _) in code.match_indices("assess") {
        if code[..at].chars().next_back().is_some_and(word) {
            continue;
        }
        let rest = &code[at..];
        let name: String = rest.chars().take_while(|c| word(*c)).collect();
        let called = rest[name.len()..].trim_start().starts_with('(');
        let assessing = name == "assess" || name.starts_with("assess_");
        if called && assessing {
            calls.push(name);
        }
    }
    for (at, _) in code.match_indices("redacted_assessment") {
        if !code[..at].chars().next_back().is_some_and(word) {
            calls.push("redacted_assessment".to_string());
        }
    }
    calls
}

/// Issue 36: no renderer assesses. A report is laid out from the assessment its caller made
/// (of the redacted profile, for a redacted report; the fleet's machines come assessed from
/// `advisor::fleet::AssessedFleet`), so nothing under `src/report/` calls the advisor's
/// assessments.
#[test]
fn no_report_file_assesses() {
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report"),
        &mut files,
    );
    assert!(files.len() > 5, "the report's files are found: {files:?}");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for call in assess_calls(&code(&text)) {
            found.push(format!("{}: {call}(", file.display()));
        }
    }
    assert!(found.is_empty(), "renderers that assess: {found:#?}");
}

#[test]
fn the_assess_checker_sees_calls_and_ignores_comments_tests_and_other_words() {
    let text = "\
use crate::advisor::assess;
// assess(&p, &s) in a comment
fn f() {
    let a = crate::advisor::assess(&p, &s);
    let b = assess_fleet (inputs);
    let c = advisor::redacted::redacted_assessment(&p, &s);
    let d = text::assessment(lang, &a);
    self.reassess();
    let e = preassess(1);
}
#[cfg(test)]
mod tests {
    fn g() {
        let a = assess(&p, &s);
    }
}
";
    assert_eq!(
        assess_calls(&code(text)),
        ["assess", "assess_fleet", "redacted_assessment"]
    );
}
