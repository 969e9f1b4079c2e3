//! What the catalogue's CSV tables share (`models.csv`, `pipelines.csv`): reading the rows
//! (a malformed row is a build defect, reported with its file and row number), the
//! `;`-separated lists in a cell, and the names a row answers to.

use serde::de::DeserializeOwned;

/// The rows of `file` (its text `text`), each turned into an entry by `entry`; panics naming the
/// file and row (the header is row 1) on a row that doesn't parse: the tables are compiled in.
pub(super) fn parse<R: DeserializeOwned, T>(
    file: &str,
    text: &str,
    entry: impl Fn(R) -> Result<T, String>,
) -> Vec<T> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize::<R>()
        .enumerate()
        .map(|(i, row)| {
            row.map_err(|e| e.to_string())
                .and_then(&entry)
                .unwrap_or_else(|e| panic!("assets/catalog/{file} row {}: {e}", i + 2))
        })
        .collect()
}

/// A `;`-separated cell as its trimmed, non-empty items.
pub(super) fn list(cell: &str) -> Vec<String> {
    cell.split(';')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(String::from)
        .collect()
}

/// A catalogue row known by an id, a Hugging Face Hub id and aliases.
pub trait Named {
    /// The row's id.
    fn id(&self) -> &str;
    /// Its Hub id (`org/name`).
    fn hub_id(&self) -> &str;
    /// Its other names.
    fn aliases(&self) -> &[String];

    /// Every name the row answers to: its id, its Hub id, the Hub id's model part and its
    /// aliases.
    fn names(&self) -> impl Iterator<Item = &str> {
        let hub = self.hub_id();
        let short = hub.rsplit('/').next().filter(|s| !s.is_empty());
        [self.id(), hub]
            .into_iter()
            .chain(short)
            .chain(self.aliases().iter().map(String::as_str))
            .filter(|n| !n.is_empty())
    }
}

/// Names compare trimmed and lower-cased: "Qwen/Qwen2.5-7B" and "qwen/qwen2.5-7b" are one name.
pub(super) fn key(s: &str) -> String {
    s.trim().to_lowercase()
}

/// The row `name` names (id, Hub id, its model part or an alias), ignoring case.
pub(super) fn find<'a, T: Named>(rows: &'a [T], name: &str) -> Option<&'a T> {
    let n = key(name);
    if n.is_empty() {
        return None;
    }
    rows.iter().find(|r| r.names().any(|a| key(a) == n))
}
