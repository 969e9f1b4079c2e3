//! One advice id space (issue 24): the ids a finding carries and the ids the recommender ranks
//! are one enum, [`AdviceId`]; each id has its words in both languages under one key family
//! (`advice.<id>.*`), and the JSON ids are the ones docs/profile.md lists, with schema 2's
//! names still read.

use ramvram::advisor::AdviceId;
use ramvram::i18n::{Lang, Msg, tr};
use ramvram::present::advice_text::{WindowsRamKnown, finding, finding_variant_msg, title};

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
    // 34 finding ids and 44 recommender ids in schema 2, 7 of them shared by name and 12
    // more merged here (9 pairs, WSL's three finding ids and the recommender's one, and the
    // page file): 34 + 44 - 7 - 12 = 59.
    assert_eq!(AdviceId::ALL.len(), 34 + 44 - 7 - 12);
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

/// The rows of docs/profile.md's "Advice ids" table: (id, schema 2 ids).
fn documented() -> Vec<(String, Vec<String>)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/profile.md")).unwrap();
    let start = text
        .find("### Advice ids")
        .expect("docs/profile.md: Advice ids");
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| id |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            let id = ticked(cells[0]);
            assert_eq!(id.len(), 1, "{row}");
            (id[0].clone(), ticked(cells[cells.len() - 1]))
        })
        .collect()
}

#[test]
fn the_json_ids_are_the_ones_the_docs_list() {
    let docs = documented();
    let listed: Vec<&str> = docs.iter().map(|(id, _)| id.as_str()).collect();
    let ours: Vec<String> = AdviceId::ALL.into_iter().map(json_id).collect();
    assert_eq!(listed, ours);
    // The renames column says what RENAMED says.
    let mut from_docs: Vec<(String, String)> = docs
        .iter()
        .flat_map(|(id, old)| old.iter().map(move |o| (o.clone(), id.clone())))
        .collect();
    from_docs.sort();
    let mut expected: Vec<(String, String)> = RENAMED
        .iter()
        .map(|(o, n)| (o.to_string(), n.to_string()))
        .collect();
    expected.sort();
    assert_eq!(from_docs, expected);
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
