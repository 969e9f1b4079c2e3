//! safetensors headers: an 8-byte little-endian header length, then that many bytes of JSON
//! (`{"name": {"dtype": "BF16", "shape": [..], "data_offsets": [begin, end]}, "__metadata__":
//! {..}}`), then the tensor data, which is never read. Format: huggingface/safetensors
//! README, "Format".

use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};

use super::budget::Budget;
use super::{MAX_SAFETENSORS_HEADER, ModelFileError, ModelProblem};
use crate::fsutil::InputFile;

/// One tensor's entry in the header.
#[derive(Debug, Deserialize)]
struct Entry {
    dtype: String,
    shape: Vec<u64>,
    data_offsets: [u64; 2],
}

/// One tensor of a safetensors file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Tensor {
    pub name: String,
    /// Its element type, one of [`DTYPES`].
    pub dtype: &'static str,
    pub elements: u64,
    pub bytes: u64,
    begin: u64,
    end: u64,
}

/// The safetensors element types and their bits: the reference reader's `Dtype` and
/// `Dtype::bitsize` (huggingface/safetensors `safetensors/src/tensor.rs`). Any other name is
/// refused, as the reference reader refuses it. A fixed table: looking a name up costs the
/// same whatever the file holds.
pub const DTYPES: [(&str, u64); 20] = [
    ("BOOL", 8),
    ("F4", 4),
    ("F6_E2M3", 6),
    ("F6_E3M2", 6),
    ("U8", 8),
    ("I8", 8),
    ("F8_E5M2", 8),
    ("F8_E4M3", 8),
    ("F8_E8M0", 8),
    ("I16", 16),
    ("U16", 16),
    ("F16", 16),
    ("BF16", 16),
    ("I32", 32),
    ("U32", 32),
    ("F32", 32),
    ("C64", 64),
    ("F64", 64),
    ("I64", 64),
    ("U64", 64),
];

/// The element type named `dtype` and its bits.
fn dtype(name: &str) -> Option<(&'static str, u64)> {
    DTYPES.iter().copied().find(|(n, _)| *n == name)
}

/// Reads the header's entries one at a time (no tree of the whole header is built), each
/// taken from the entry budget as it is met.
struct Entries<'a> {
    file: &'a Path,
    budget: &'a mut Budget,
    out: &'a mut Vec<Tensor>,
    /// The error behind a failed visit (serde carries only text).
    error: &'a mut Option<ModelFileError>,
}

impl Entries<'_> {
    fn entry(&mut self, name: String, value: serde_json::Value) -> Result<(), ModelFileError> {
        let err = |p| ModelFileError::new(self.file, p);
        self.budget.entries(self.file, 1)?;
        let entry: Entry = serde_path_to_error::deserialize(value).map_err(|e| {
            let at = match e.path().to_string() {
                inner if inner == "." => name.clone(),
                inner => format!("{name}.{inner}"),
            };
            err(ModelProblem::json(&at, e.inner()))
        })?;
        let Some((dtype, bits)) = dtype(&entry.dtype) else {
            return Err(err(ModelProblem::UnknownDtype(name)));
        };
        let elements = entry
            .shape
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            .ok_or_else(|| err(ModelProblem::Field(format!("{name}.shape"))))?;
        let [begin, end] = entry.data_offsets;
        let bits_total = elements.checked_mul(bits);
        let bytes = end.checked_sub(begin);
        if bits_total.is_none_or(|b| b % 8 != 0 || Some(b / 8) != bytes) {
            return Err(err(ModelProblem::Field(format!("{name}.data_offsets"))));
        }
        self.out.push(Tensor {
            name,
            dtype,
            elements,
            bytes: end - begin,
            begin,
            end,
        });
        Ok(())
    }
}

impl<'de> Visitor<'de> for Entries<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a safetensors header (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<String>()? {
            if name == "__metadata__" {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let value = map.next_value::<serde_json::Value>()?;
            if let Err(e) = self.entry(name, value) {
                *self.error = Some(e);
                return Err(de::Error::custom("refused"));
            }
        }
        Ok(())
    }
}

/// Parses a header's JSON for a file whose tensor data is `data_len` bytes, entry by entry,
/// then checks the layout as the reference reader's `validate` does: sorted by offsets, each
/// tensor starts where the one before ends (no overlap, no gap), and the last ends where the
/// file does.
///
/// # Errors
/// JSON that isn't a safetensors header, an unknown dtype, a shape whose element count
/// overflows or disagrees with its offsets, overlapping tensors, a gap, data not covered, or
/// the entry budget spent.
pub(super) fn parse_header(
    file: &Path,
    json: &[u8],
    data_len: u64,
    budget: &mut Budget,
) -> Result<Vec<Tensor>, ModelFileError> {
    let mut out = Vec::new();
    let mut error = None;
    let mut de = serde_json::Deserializer::from_slice(json);
    let visited = de::Deserializer::deserialize_map(
        &mut de,
        Entries {
            file,
            budget,
            out: &mut out,
            error: &mut error,
        },
    )
    .and_then(|()| de.end());
    if let Some(e) = error {
        return Err(e);
    }
    visited.map_err(|e| ModelFileError::new(file, ModelProblem::json(".", &e)))?;
    out.sort_by_key(|t| (t.begin, t.end));
    let mut at = 0u64;
    for t in &out {
        if t.begin < at {
            return Err(ModelFileError::new(
                file,
                ModelProblem::Overlap(t.name.clone()),
            ));
        }
        if t.begin > at {
            return Err(ModelFileError::new(file, ModelProblem::Gap(t.name.clone())));
        }
        at = t.end;
    }
    if at > data_len {
        let last = out.last().map(|t| t.name.clone()).unwrap_or_default();
        return Err(ModelFileError::new(file, ModelProblem::OutOfFile(last)));
    }
    if at != data_len {
        return Err(ModelFileError::new(
            file,
            ModelProblem::Uncovered {
                end: at,
                data: data_len,
            },
        ));
    }
    Ok(out)
}

/// Reads the header of the safetensors file `opened` (named `path` in messages): the 8-byte
/// length, checked against [`MAX_SAFETENSORS_HEADER`], the file's size and the model's budget
/// before anything is allocated, then the JSON. Returns the tensors.
///
/// # Errors
/// The header length is beyond the cap, the file or the budget, or the header is not a valid
/// one.
pub(super) fn read_file(
    path: &Path,
    opened: InputFile,
    budget: &mut Budget,
) -> Result<Vec<Tensor>, ModelFileError> {
    let len = opened.len;
    let mut reader = opened.file.take(8 + MAX_SAFETENSORS_HEADER);
    let mut prefix = [0u8; 8];
    reader
        .read_exact(&mut prefix)
        .map_err(|_| ModelFileError::new(path, ModelProblem::Truncated))?;
    let header_len = u64::from_le_bytes(prefix);
    // Past the cap or the file's size, the 8 bytes are no header length: said without their
    // value (they are the file's first bytes, whatever the file is).
    if header_len > MAX_SAFETENSORS_HEADER || header_len > len.saturating_sub(8) {
        return Err(ModelFileError::new(path, ModelProblem::NotSafetensors));
    }
    budget.bytes(path, 8 + header_len)?;
    let mut json = vec![0u8; usize::try_from(header_len).unwrap_or(0)];
    reader
        .read_exact(&mut json)
        .map_err(|_| ModelFileError::new(path, ModelProblem::Truncated))?;
    budget.work.headers_read += 1;
    parse_header(path, &json, len - 8 - header_len, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_file(p: &Path) -> Result<(Vec<Tensor>, u64), ModelFileError> {
        let opened = crate::fsutil::open_named(p).unwrap();
        let len = opened.len;
        Ok((super::read_file(p, opened, &mut Budget::new())?, len))
    }

    fn file(header: &str, data: usize) -> Vec<u8> {
        let mut v = (header.len() as u64).to_le_bytes().to_vec();
        v.extend_from_slice(header.as_bytes());
        v.resize(v.len() + data, 0);
        v
    }

    #[test]
    fn a_header_built_by_hand_from_the_format() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.safetensors");
        let h = r#"{"__metadata__":{"format":"pt"},"a":{"dtype":"BF16","shape":[3,4],"data_offsets":[0,24]},"b":{"dtype":"F32","shape":[5],"data_offsets":[24,44]}}"#;
        std::fs::write(&p, file(h, 44)).unwrap();
        let (t, len) = read_file(&p).unwrap();
        assert_eq!(len, 8 + h.len() as u64 + 44);
        assert_eq!(t.iter().map(|t| t.elements).sum::<u64>(), 12 + 5);
        assert_eq!(t.iter().map(|t| t.bytes).sum::<u64>(), 24 + 20);
    }

    #[test]
    fn hostile_lengths_and_offsets_are_refused_without_reading() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.safetensors");
        // A header length of 2^63: refused from the first 8 bytes.
        let mut v = (1u64 << 63).to_le_bytes().to_vec();
        v.extend_from_slice(b"{}");
        std::fs::write(&p, &v).unwrap();
        let e = read_file(&p).unwrap_err();
        assert_eq!(e.problem, ModelProblem::NotSafetensors);
        assert_eq!(e.file, p);
        // A length within the cap but past the end of the file.
        let mut v = 1000u64.to_le_bytes().to_vec();
        v.extend_from_slice(b"{}");
        std::fs::write(&p, &v).unwrap();
        assert_eq!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::NotSafetensors
        );
        // Offsets past the end of the data.
        let h = r#"{"a":{"dtype":"F32","shape":[1000000],"data_offsets":[0,4000000]}}"#;
        std::fs::write(&p, file(h, 16)).unwrap();
        assert_eq!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::OutOfFile("a".into())
        );
        // A shape whose product overflows.
        let h = r#"{"a":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,0]}}"#;
        std::fs::write(&p, file(h, 0)).unwrap();
        assert!(matches!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::Field(_)
        ));
        // JSON nested 100,000 deep: serde_json's recursion limit stops it.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        std::fs::write(&p, file(&deep, 0)).unwrap();
        assert!(matches!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::Json { .. }
        ));
        // Too short for the length.
        std::fs::write(&p, [1u8, 2]).unwrap();
        assert_eq!(read_file(&p).unwrap_err().problem, ModelProblem::Truncated);
    }

    /// Issue 37: the reference reader (`safetensors` crate, `Metadata::validate` and
    /// `read_metadata`) refuses overlapping tensors, gaps, data no tensor covers and unknown
    /// dtypes; so does this one. Each header is worked by hand.
    #[test]
    fn overlaps_gaps_uncovered_data_and_unknown_dtypes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.safetensors");
        // Two F32 [2] tensors (8 bytes each) on the same 8 bytes: counted twice before.
        let h = r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#;
        std::fs::write(&p, file(h, 8)).unwrap();
        let e = read_file(&p).unwrap_err();
        assert_eq!(e.problem, ModelProblem::Overlap("b".into()));
        // Four bytes between a (0..8) and b (12..20).
        let h = r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[12,20]}}"#;
        std::fs::write(&p, file(h, 20)).unwrap();
        assert_eq!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::Gap("b".into())
        );
        // The first tensor must start at 0.
        let h = r#"{"a":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}}"#;
        std::fs::write(&p, file(h, 8)).unwrap();
        assert_eq!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::Gap("a".into())
        );
        // 8 bytes of tensors in 24 bytes of data: 16 bytes belong to no tensor.
        let h = r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#;
        std::fs::write(&p, file(h, 24)).unwrap();
        assert_eq!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::Uncovered { end: 8, data: 24 }
        );
        // An unknown dtype whose shape claims 2^32 × 2^32 + ... elements in 0 bytes: refused by
        // its dtype before its shape is believed (the issue's 89 bytes claiming 1.8 × 10^19).
        let h = r#"{"a":{"dtype":"Q9","shape":[4294967295,4294967297],"data_offsets":[0,0]}}"#;
        std::fs::write(&p, file(h, 0)).unwrap();
        assert_eq!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::UnknownDtype("a".into())
        );
        // 4-bit F4: 3 elements are 12 bits, not whole bytes; 4 are 2 bytes.
        let h = r#"{"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}"#;
        std::fs::write(&p, file(h, 2)).unwrap();
        assert!(matches!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::Field(f) if f == "a.data_offsets"
        ));
        let h = r#"{"a":{"dtype":"F4","shape":[4],"data_offsets":[0,2]},"b":{"dtype":"C64","shape":[1],"data_offsets":[2,10]}}"#;
        std::fs::write(&p, file(h, 10)).unwrap();
        let (t, _) = read_file(&p).unwrap();
        assert_eq!(t.iter().map(|t| t.elements).sum::<u64>(), 5);
    }

    /// 100,000 tensors of distinct made-up dtypes: the first is refused by name, after one
    /// entry of the budget (a fixed table, no search over what the file brought).
    #[test]
    fn many_distinct_dtypes_stop_at_the_first() {
        let mut h = String::from("{");
        for i in 0..100_000 {
            if i > 0 {
                h.push(',');
            }
            h.push_str(&format!(
                r#""t{i:06}":{{"dtype":"X{i}","shape":[1],"data_offsets":[{i},{}]}}"#,
                i + 1
            ));
        }
        h.push('}');
        let mut budget = Budget::new();
        let e = parse_header(Path::new("m"), h.as_bytes(), 100_000, &mut budget).unwrap_err();
        assert_eq!(e.problem, ModelProblem::UnknownDtype("t000000".into()));
        assert_eq!(budget.work.entries, 1);
    }
}
