//! safetensors headers: an 8-byte little-endian header length, then that many bytes of JSON
//! (`{"name": {"dtype": "BF16", "shape": [..], "data_offsets": [begin, end]}, "__metadata__":
//! {..}}`), then the tensor data, which is never read. Format: huggingface/safetensors
//! README, "Format".

use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use super::{Limit, MAX_SAFETENSORS_HEADER, ModelFileError, ModelProblem};

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
    pub dtype: String,
    pub elements: u64,
    pub bytes: u64,
}

/// Bytes per element of a safetensors dtype; `None` for one ramvram doesn't know.
fn dtype_bits(dtype: &str) -> Option<u64> {
    Some(match dtype {
        "F64" | "I64" | "U64" => 64,
        "F32" | "I32" | "U32" => 32,
        "F16" | "BF16" | "I16" | "U16" => 16,
        "F8_E4M3" | "F8_E5M2" | "F8_E8M0" | "I8" | "U8" | "BOOL" => 8,
        "F4" | "F6_E2M3" | "F6_E3M2" => return None,
        _ => return None,
    })
}

/// Parses a header's JSON for a file of `file_len` bytes whose header is `header_len` bytes.
///
/// # Errors
/// JSON that isn't a safetensors header, a shape whose element count overflows, or offsets
/// that lie past the end of the file or disagree with the shape and dtype.
pub(super) fn parse_header(
    file: &Path,
    json: &[u8],
    file_len: u64,
) -> Result<Vec<Tensor>, ModelFileError> {
    let err = |p| ModelFileError::new(file, p);
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(json).map_err(|e| err(ModelProblem::json(".", &e)))?;
    let data_len = file_len.saturating_sub(8 + json.len() as u64);
    let mut out = Vec::with_capacity(map.len());
    for (name, value) in map {
        if name == "__metadata__" {
            continue;
        }
        let entry: Entry = serde_path_to_error::deserialize(value).map_err(|e| {
            let at = match e.path().to_string() {
                inner if inner == "." => name.clone(),
                inner => format!("{name}.{inner}"),
            };
            err(ModelProblem::json(&at, e.inner()))
        })?;
        let elements = entry
            .shape
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            .ok_or_else(|| err(ModelProblem::Field(format!("{name}.shape"))))?;
        let [begin, end] = entry.data_offsets;
        if begin > end || end > data_len {
            return Err(err(ModelProblem::OutOfFile(name)));
        }
        let bytes = end - begin;
        if let Some(bits) = dtype_bits(&entry.dtype) {
            if elements.checked_mul(bits).map(|b| b / 8) != Some(bytes) {
                return Err(err(ModelProblem::Field(format!("{name}.data_offsets"))));
            }
        }
        out.push(Tensor {
            name,
            dtype: entry.dtype,
            elements,
            bytes,
        });
    }
    Ok(out)
}

/// Reads the header of the safetensors file `path`: the 8-byte length, checked against
/// [`MAX_SAFETENSORS_HEADER`] and the file's size, then the JSON. Returns the tensors and the
/// file's size.
///
/// # Errors
/// The file can't be opened or isn't a regular file, its header length is beyond the cap or
/// the file, or the header is not a valid one.
pub(super) fn read_file(path: &Path) -> Result<(Vec<Tensor>, u64), ModelFileError> {
    let io = |e: &std::io::Error| {
        ModelFileError::new(path, ModelProblem::Io(crate::fsutil::IoProblem::of(e)))
    };
    let (file, len) = crate::fsutil::open_input(path).map_err(|e| io(&e))?;
    let mut reader = file.take(8 + MAX_SAFETENSORS_HEADER);
    let mut prefix = [0u8; 8];
    reader
        .read_exact(&mut prefix)
        .map_err(|_| ModelFileError::new(path, ModelProblem::Truncated))?;
    let header_len = u64::from_le_bytes(prefix);
    if header_len > MAX_SAFETENSORS_HEADER {
        return Err(ModelFileError::new(
            path,
            ModelProblem::TooLarge {
                what: Limit::HeaderLength,
                value: header_len,
                cap: MAX_SAFETENSORS_HEADER,
            },
        ));
    }
    if header_len > len.saturating_sub(8) {
        return Err(ModelFileError::new(
            path,
            ModelProblem::TooLarge {
                what: Limit::HeaderLength,
                value: header_len,
                cap: len.saturating_sub(8),
            },
        ));
    }
    let mut json = vec![0u8; usize::try_from(header_len).unwrap_or(0)];
    reader
        .read_exact(&mut json)
        .map_err(|_| ModelFileError::new(path, ModelProblem::Truncated))?;
    Ok((parse_header(path, &json, len)?, len))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(matches!(e.problem, ModelProblem::TooLarge { value, .. } if value == 1 << 63));
        assert_eq!(e.file, p);
        // A length within the cap but past the end of the file.
        let mut v = 1000u64.to_le_bytes().to_vec();
        v.extend_from_slice(b"{}");
        std::fs::write(&p, &v).unwrap();
        assert!(matches!(
            read_file(&p).unwrap_err().problem,
            ModelProblem::TooLarge { .. }
        ));
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
}
