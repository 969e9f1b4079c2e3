//! Build script: turns the locale files into a checked message table.
//!
//! `locales/en/*.toml` and `locales/zh-CN/*.toml` are TOML files whose leaves are strings (tables
//! only group keys: `[finding.ram_below_vram] title = "…"` is the key
//! `finding.ram_below_vram.title`). Each language folder holds the same file names (one per
//! feature: `messages.toml`, `monitor.toml`, …); a key may appear in one file only. This script
//! fails the build when the two languages have different keys, when a message's `{placeholders}` differ between the languages, or when a value is not a
//! string. It writes `$OUT_DIR/messages.rs` with `enum Msg` (one variant per key) and one static
//! table per language, so code that names a missing key does not compile.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

const LOCALES: [(&str, &str); 2] = [("en", "EN"), ("zh-CN", "ZH")];

fn main() {
    println!("cargo:rerun-if-changed=locales");
    let mut tables: Vec<BTreeMap<String, String>> = Vec::new();
    let mut file_sets: Vec<BTreeSet<String>> = Vec::new();
    for (dir, _) in LOCALES {
        let folder = Path::new("locales").join(dir);
        println!("cargo:rerun-if-changed={}", folder.display());
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: cannot list: {e}", folder.display()))
            .map(|entry| entry.expect("locale folder entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        let mut flat = BTreeMap::new();
        let mut names = BTreeSet::new();
        for path in files {
            println!("cargo:rerun-if-changed={}", path.display());
            names.insert(path.file_name().unwrap().to_string_lossy().into_owned());
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
            let value: toml::Table = text
                .parse()
                .unwrap_or_else(|e| panic!("{}: invalid TOML: {e}", path.display()));
            let mut one = BTreeMap::new();
            flatten("", &toml::Value::Table(value), &mut one, &path);
            for (key, text) in one {
                if flat.insert(key.clone(), text).is_some() {
                    panic!(
                        "{}: key `{key}` is also in another file of {}",
                        path.display(),
                        folder.display()
                    );
                }
            }
        }
        tables.push(flat);
        file_sets.push(names);
    }
    if file_sets[0] != file_sets[1] {
        panic!(
            "locales/en and locales/zh-CN must hold the same files: {:?} vs {:?}",
            file_sets[0], file_sets[1]
        );
    }
    let (en, zh) = (&tables[0], &tables[1]);
    let mut errors = Vec::new();
    for key in en.keys().filter(|k| !zh.contains_key(*k)) {
        errors.push(format!(
            "key `{key}` is in locales/en but not in locales/zh-CN"
        ));
    }
    for key in zh.keys().filter(|k| !en.contains_key(*k)) {
        errors.push(format!(
            "key `{key}` is in locales/zh-CN but not in locales/en"
        ));
    }
    for (key, en_text) in en {
        if let Some(zh_text) = zh.get(key) {
            let (a, b) = (placeholders(en_text), placeholders(zh_text));
            if a != b {
                errors.push(format!(
                    "key `{key}`: placeholders differ: en {a:?}, zh-CN {b:?}"
                ));
            }
        }
    }
    let mut variants = BTreeMap::new();
    for key in en.keys() {
        let name = variant_name(key);
        if let Some(other) = variants.insert(name.clone(), key.clone()) {
            errors.push(format!(
                "keys `{other}` and `{key}` both become Msg::{name}"
            ));
        }
    }
    if !errors.is_empty() {
        panic!("locale check failed:\n  {}", errors.join("\n  "));
    }

    let mut out = String::new();
    out.push_str("/// One user-visible message; the text lives in `locales/<lang>/*.toml`.\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n");
    out.push_str("#[allow(missing_docs)]\npub enum Msg {\n");
    for key in en.keys() {
        writeln!(out, "    /// `{key}`\n    {},", variant_name(key)).unwrap();
    }
    out.push_str("}\n\nimpl Msg {\n    /// Every message, in key order.\n");
    writeln!(out, "    pub const ALL: [Msg; {}] = [", en.len()).unwrap();
    for key in en.keys() {
        writeln!(out, "        Msg::{},", variant_name(key)).unwrap();
    }
    out.push_str("    ];\n\n    /// The key as written in the locale files.\n");
    out.push_str("    pub fn key(self) -> &'static str {\n        KEYS[self as usize]\n    }\n\n");
    out.push_str("    /// The `{placeholders}` the message expects, sorted.\n");
    out.push_str("    pub fn placeholders(self) -> &'static [&'static str] {\n");
    out.push_str("        PLACEHOLDERS[self as usize]\n    }\n}\n\n");
    writeln!(out, "static KEYS: [&str; {}] = [", en.len()).unwrap();
    for key in en.keys() {
        writeln!(out, "    {key:?},").unwrap();
    }
    out.push_str("];\n\n");
    writeln!(out, "static PLACEHOLDERS: [&[&str]; {}] = [", en.len()).unwrap();
    for text in en.values() {
        let names: Vec<String> = placeholders(text).into_iter().collect();
        writeln!(out, "    &{names:?},").unwrap();
    }
    out.push_str("];\n\n");
    for ((_, konst), table) in LOCALES.iter().zip(&tables) {
        writeln!(out, "static {konst}: [&str; {}] = [", table.len()).unwrap();
        for text in table.values() {
            let text = join_units(text);
            writeln!(out, "    {text:?},").unwrap();
        }
        out.push_str("];\n\n");
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("messages.rs");
    std::fs::write(dest, out).unwrap();
}

fn flatten(prefix: &str, value: &toml::Value, out: &mut BTreeMap<String, String>, path: &Path) {
    match value {
        toml::Value::Table(table) => {
            for (k, v) in table {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out, path);
            }
        }
        toml::Value::String(s) => {
            out.insert(prefix.to_string(), s.clone());
        }
        other => panic!(
            "{}: key `{prefix}` must be a string, found {}",
            path.display(),
            other.type_str()
        ),
    }
}

/// Units a number (or a `{placeholder}` holding one) is joined to by a no-break space.
const UNITS: [&str; 13] = [
    "GiB", "MiB", "KiB", "TiB", "GB/s", "MB/s", "GB", "MB", "TB", "MP/s", "MT/s", "GT/s", "%",
];

/// `text` with the space between a number or a placeholder and a unit made a no-break space
/// (U+00A0), as `src/format.rs` writes numbers: "64 MB" never breaks across lines, whatever
/// view lays it out. A unit must end at a non-letter ("4 GBs" is left alone).
fn join_units(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut prev = None;
    for (i, c) in text.char_indices() {
        let joins = c == ' '
            && prev.is_some_and(|p: char| p.is_ascii_digit() || p == '}')
            && UNITS.iter().any(|u| {
                let rest = &text[i + 1..];
                rest.starts_with(u)
                    && !rest[u.len()..].starts_with(|n: char| n.is_ascii_alphabetic())
            });
        out.push(if joins { '\u{a0}' } else { c });
        prev = Some(c);
    }
    out
}

/// `{name}` placeholders in a message (`{{` is not used in our files).
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) => {
                // `{name:one|other}`: an English plural; the name is what both languages share.
                let inner = &after[..end];
                names.insert(inner.split(':').next().unwrap_or(inner).to_string());
                rest = &after[end + 1..];
            }
            None => break,
        }
    }
    names
}

fn variant_name(key: &str) -> String {
    key.split(['.', '_', '-'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}
