//! One advice id space (issue 24): the ids a finding carries and the ids the recommender ranks
//! are one enum, [`AdviceId`]; each id has its words in both languages under one key family
//! (`advice.<id>.*`), and the JSON ids are the ones docs/profile.md lists, with schema 2's
//! names still read.
//!
//! Each id is one row of `advice_ids!` (src/advisor/advice_id.rs; issue 36): these tests fail
//! when a row lacks a piece — its words in either language, its cost in words, its docs row
//! (kind and gives-up included), a JSON name that round-trips, an alias that parses. With
//! `RAMVRAM_BLESS=1`, the docs test writes docs/profile.md's table from the rows instead.

use ramvram::advisor::AdviceId;
use ramvram::i18n::{Lang, Msg, tr};
use ramvram::present::advice_text::{
    WindowsRamKnown, cost_msg, finding, finding_variant_msg, title,
};

/// The JSON id of `id` (kebab-case, as `advise --json` writes it).
fn json_id(id: AdviceId) -> String {
    serde_json::to_value(id)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

/// Every message an id has: its title, its finding sentence, and WSL's other wordings.
fn messages(id: AdviceId) -> Vec<Msg> {
    let mut v: Vec<Msg> = [title(id), finding(id)].into_iter().flatten().collect();
    if finding(id).is_some() {
        for known in [WindowsRamKnown::Estimated, WindowsRamKnown::Unknown] {
            let m = finding_variant_msg(id, known);
            if !v.contains(&m) {
                v.push(m);
            }
        }
    }
    v
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn all_lists_every_variant_once_in_declaration_order() {
    for (i, id) in AdviceId::ALL.iter().enumerate() {
        assert_eq!(*id as usize, i, "{id:?} out of place in AdviceId::ALL");
    }
    // The derived `Ord` (the recommender's tie order) is the rows' order.
    assert!(AdviceId::ALL.windows(2).all(|w| w[0] < w[1]));
    let names: std::collections::BTreeSet<&str> =
        AdviceId::ALL.iter().map(|id| id.as_str()).collect();
    assert_eq!(
        names.len(),
        AdviceId::ALL.len(),
        "two rows share a JSON name"
    );
}

/// serde's `kebab-case` of a variant's name ("LoadOnRank0" → "load-on-rank0"): the rule the
/// JSON names followed before the table, written out here independently of the rows.
fn kebab(variant: &str) -> String {
    let mut out = String::new();
    for (i, c) in variant.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn every_json_name_round_trips_and_every_alias_parses() {
    for id in AdviceId::ALL {
        assert_eq!(json_id(id), id.as_str(), "{id:?}: serde and as_str differ");
        assert_eq!(
            id.as_str(),
            kebab(&format!("{id:?}")),
            "{id:?}: not kebab-case"
        );
        let back: AdviceId = serde_json::from_str(&format!("\"{}\"", id.as_str())).unwrap();
        assert_eq!(back, id);
        for alias in id.aliases() {
            let read: AdviceId = serde_json::from_str(&format!("\"{alias}\"")).unwrap();
            assert_eq!(read, id, "alias {alias}");
            assert_ne!(*alias, id.as_str());
        }
    }
}

#[test]
fn every_advice_id_has_english_and_chinese_words_under_its_own_key_family() {
    for id in AdviceId::ALL {
        let msgs = messages(id);
        assert!(!msgs.is_empty(), "{id:?} has no words");
        let family = format!("advice.{}.", json_id(id).replace('-', "_"));
        for m in msgs {
            assert!(
                m.key().starts_with(&family),
                "{id:?}: {} is outside {family}*",
                m.key()
            );
            let en = tr(Lang::En, m);
            let zh = tr(Lang::Zh, m);
            assert!(en.len() > 10 && !has_cjk(en), "{}: English {en:?}", m.key());
            assert!(has_cjk(zh), "{}: Chinese {zh:?}", m.key());
        }
        // What it costs, in words, in both languages (build.rs keeps the two key sets equal).
        let cost = cost_msg(id).unwrap_or_else(|| panic!("{id:?}: no {}", id.cost_key()));
        assert!(cost.key().contains("advice.cost"), "{id:?}: {}", cost.key());
        assert!(has_cjk(tr(Lang::Zh, cost)) && !has_cjk(tr(Lang::En, cost)));
    }
}

/// A key under `advice.<id>.` names an id of the table: a row renamed or removed leaves no
/// words behind, and a misspelt key (which no id would ever look up) fails here.
#[test]
fn every_advice_message_belongs_to_an_id() {
    let stems: Vec<String> = AdviceId::ALL
        .iter()
        .map(|id| id.as_str().replace('-', "_"))
        .collect();
    for m in Msg::ALL {
        let parts: Vec<&str> = m.key().splitn(3, '.').collect();
        let [first, stem, part] = parts[..] else {
            continue;
        };
        if first != "advice" || stem == "cost" {
            continue;
        }
        assert!(
            stems.iter().any(|s| s == stem),
            "{}: no advice id `{}`",
            m.key(),
            stem.replace('_', "-")
        );
        assert!(
            part.starts_with("title") || part.starts_with("finding"),
            "{}: a part other than title… or finding…",
            m.key()
        );
    }
}

/// The concepts the two former id spaces shared, by name (7) or under two names (10): each is
/// now one id with both a finding's sentence and a ranked title.
#[test]
fn the_concepts_both_spaces_had_are_one_id_with_both_texts() {
    use AdviceId as A;
    let shared = [
        A::AddRam,
        A::AddSwap,
        A::PreResize,
        A::IndexAsArrays,
        A::LargerInstance,
        A::RaiseVmMemory,
        A::LargerRuntime,
        A::Lora,
        A::GrowShm,
        A::PackShards,
        A::GpuDecode,
        A::CopyToLocalNvme,
        A::NewMachine,
        A::ReduceNumWorkers,
        A::IncreaseNumWorkers,
        A::WslRaiseMemory,
        A::GrowPageFile,
    ];
    for id in shared {
        assert!(title(id).is_some(), "{id:?} has no ranked title");
        assert!(finding(id).is_some(), "{id:?} has no finding sentence");
    }
    // WSL's `memory=`: one change, three wordings by what is known of Windows' RAM.
    let wsl: std::collections::BTreeSet<&str> = [
        WindowsRamKnown::Entered,
        WindowsRamKnown::Estimated,
        WindowsRamKnown::Unknown,
    ]
    .into_iter()
    .map(|k| finding_variant_msg(A::WslRaiseMemory, k).key())
    .collect();
    assert_eq!(wsl.len(), 3);
    // Any other id has one wording whatever is known.
    assert_eq!(
        finding_variant_msg(A::GrowShm, WindowsRamKnown::Unknown),
        finding_variant_msg(A::GrowShm, WindowsRamKnown::Entered)
    );
}

/// Schema 2's ids that changed (written out here, from the two enums before the merge), each
/// with its schema 3 id.
const RENAMED: [(&str, &str); 12] = [
    ("shm-size", "grow-shm"),
    ("storage-local-copy", "copy-to-local-nvme"),
    ("wsl-memory-limit", "wsl-raise-memory"),
    ("wsl-raise-memory-estimated", "wsl-raise-memory"),
    ("wsl-raise-memory-unknown", "wsl-raise-memory"),
    ("prefer-lora", "lora"),
    ("use-shards", "pack-shards"),
    ("gpu-data-loading", "gpu-decode"),
    ("plan-new-machine", "new-machine"),
    ("reduce-workers", "reduce-num-workers"),
    ("more-workers", "increase-num-workers"),
    ("system-managed-page-file", "grow-page-file"),
];

/// docs/profile.md's "Advice ids" table as the rows say it must read: the id, what it is, its
/// kind, what it gives up, what carries it (from its words: a title means the recommender ranks
/// it, a finding sentence that a finding carries it) and its schema 2 names.
fn table_from_rows() -> String {
    let name = |v: serde_json::Value| v.as_str().unwrap().to_string();
    let mut t = String::from(
        "| id | the change | kind | gives up | carried by | schema 2 id |\n\
         |---|---|---|---|---|---|\n",
    );
    for id in AdviceId::ALL {
        let carried: Vec<&str> = [(title(id), "ranked"), (finding(id), "finding")]
            .into_iter()
            .filter_map(|(m, word)| m.map(|_| word))
            .collect();
        let old: Vec<String> = id.aliases().iter().map(|a| format!("`{a}`")).collect();
        t.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            id.as_str(),
            id.summary(),
            name(serde_json::to_value(id.kind()).unwrap()),
            name(serde_json::to_value(id.gives_up()).unwrap()),
            carried.join(", "),
            old.join(", ")
        ));
    }
    t
}

/// Where the table under docs/profile.md's "### Advice ids" starts and ends (byte offsets; the
/// end includes its last line's newline).
fn docs_table(text: &str) -> (usize, usize) {
    let section = text
        .find("### Advice ids")
        .expect("docs/profile.md: Advice ids");
    let start = section + text[section..].find("\n| id |").expect("the table") + 1;
    let end = text[start..]
        .find("\n\n")
        .map_or(text.len(), |e| start + e + 1);
    (start, end)
}

#[test]
fn the_docs_table_is_the_rows() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/profile.md");
    let text = std::fs::read_to_string(path).unwrap();
    let (start, end) = docs_table(&text);
    let expected = table_from_rows();
    if std::env::var("RAMVRAM_BLESS").is_ok_and(|v| v == "1") {
        let blessed = format!("{}{expected}{}", &text[..start], &text[end..]);
        std::fs::write(path, blessed).unwrap();
        return;
    }
    let docs = &text[start..end];
    for (want, have) in expected.lines().zip(docs.lines()) {
        assert_eq!(
            have, want,
            "docs/profile.md's advice table differs from the rows in src/advisor/advice_id.rs \
             (RAMVRAM_BLESS=1 cargo test --test advice_ids writes it)"
        );
    }
    assert_eq!(
        docs.lines().count(),
        expected.lines().count(),
        "docs/profile.md's advice table has other rows than src/advisor/advice_id.rs \
         (RAMVRAM_BLESS=1 cargo test --test advice_ids writes it)"
    );
}

/// The ids the docs list, read from the table itself (first column).
#[test]
fn the_json_ids_are_the_ones_the_docs_list() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/profile.md")).unwrap();
    let (start, end) = docs_table(&text);
    let listed: Vec<&str> = text[start..end]
        .lines()
        .skip(2)
        .map(|row| row.split('`').nth(1).unwrap())
        .collect();
    let ours: Vec<String> = AdviceId::ALL.into_iter().map(json_id).collect();
    assert_eq!(listed, ours);
}

/// Every alias a row declares is one of schema 2's renames, and every rename is declared.
#[test]
fn the_rows_aliases_are_schema_2s_renames() {
    let mut from_rows: Vec<(String, String)> = AdviceId::ALL
        .iter()
        .flat_map(|id| {
            id.aliases()
                .iter()
                .map(move |a| (a.to_string(), id.as_str().to_string()))
        })
        .collect();
    from_rows.sort();
    let mut expected: Vec<(String, String)> = RENAMED
        .iter()
        .map(|(o, n)| (o.to_string(), n.to_string()))
        .collect();
    expected.sort();
    assert_eq!(from_rows, expected);
}

#[test]
fn schema_2_ids_still_load() {
    for (old, new) in RENAMED {
        let id: AdviceId = serde_json::from_str(&format!("\"{old}\"")).unwrap();
        assert_eq!(json_id(id), new, "{old}");
        // An old id is read, never written.
        assert_ne!(json_id(id), old);
    }
    assert!(serde_json::from_str::<AdviceId>("\"buy-a-bigger-gpu\"").is_err());
}
