//! File sizes (DESIGN.md "Files"; HELPERS.md house rules): no source file under `src/` holds
//! more than 500 lines of non-test code. A file's count is all its lines less its
//! `#[cfg(test)] mod name { … }` blocks; a file that is itself a `#[cfg(test)] mod name;` module
//! (`tests.rs`) is test code and not counted.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most lines of non-test code one file may hold.
const MAX_LINES: usize = 500;

/// Files known to be over the limit and being split by another change, with their count
/// today. The test fails when one of them is back under the limit (take it off this list) or
/// grows; the list only shrinks.
const KNOWN_LONG: &[(&str, usize)] = &[];

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

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// Every `.rs` file under `src/` with its text, less the files that are `#[cfg(test)] mod
/// name;` modules, keyed by their path from the crate's root (`src/ui/app.rs`).
fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect();
    // `#[cfg(test)] mod name;` in `dir/mod.rs` or `dir/x.rs` names `dir/name.rs` or
    // `dir/x/name.rs`.
    let mut test_files = BTreeSet::new();
    for (file, text) in &texts {
        let dir = file.parent().unwrap();
        let stem = file.file_stem().unwrap().to_string_lossy();
        let base = match stem.as_ref() {
            "mod" | "lib" | "main" => dir.to_path_buf(),
            _ => dir.join(stem.as_ref()),
        };
        let mut lines = text.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if line.starts_with("#[cfg(test)]") {
                if let Some(name) = lines
                    .next()
                    .and_then(|l| l.strip_prefix("mod "))
                    .and_then(|l| l.strip_suffix(';'))
                {
                    test_files.insert(base.join(format!("{}.rs", name.trim())));
                    test_files.insert(base.join(name.trim()).join("mod.rs"));
                }
            }
        }
    }
    texts
        .into_iter()
        .filter(|(f, _)| !test_files.contains(f))
        .map(|(f, text)| {
            let rel = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            (rel, text)
        })
        .collect()
}

#[test]
fn no_source_file_over_500_lines_of_non_test_code() {
    let mut long = Vec::new();
    let mut known_seen = BTreeSet::new();
    for (path, text) in sources() {
        let n = non_test_lines(&text);
        if let Some((_, was)) = KNOWN_LONG.iter().find(|(p, _)| *p == path) {
            known_seen.insert(path.clone());
            assert!(
                n > MAX_LINES,
                "{path} is down to {n} lines: take it off KNOWN_LONG"
            );
            assert!(
                n <= *was,
                "{path} grew from {was} to {n} lines of non-test code"
            );
            continue;
        }
        if n > MAX_LINES {
            long.push(format!("{path}: {n}"));
        }
    }
    let gone: Vec<&str> = KNOWN_LONG
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| !known_seen.contains(*p))
        .collect();
    assert!(
        gone.is_empty(),
        "files on KNOWN_LONG no longer exist (take them off): {gone:?}"
    );
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
}
