//! GGUF headers (ggml-org/ggml `docs/gguf.md`, versions 2 and 3): magic `GGUF`, version, tensor
//! count, metadata count, the metadata key/value pairs, then each tensor's name, dimensions,
//! type and offset. Read in order from a capped reader; tensor data is never read. Every count
//! and string length is checked against its cap before it is used.

use std::io::{BufReader, Read};
use std::path::Path;

use super::budget::Budget;
use super::{
    GgufRead, LargestTensor, Limit, MAX_GGUF_HEADER, MAX_GGUF_STRING, MAX_GGUF_TENSORS,
    MAX_MODEL_HEADER_BYTES, ModelFileError, ModelProblem, TensorTotals,
};
use crate::advisor::inference::llama_cpp::ggml::ggml_type;
use crate::advisor::inference::llama_cpp::hparams::{LayerTensors, cache_shape};
use crate::advisor::inference::llama_cpp::{GgufLayout, LlamaModel, kind_of};
use crate::fsutil::InputFile;

/// A metadata value ramvram keeps: integers (the shape keys) and strings (the architecture).
enum Value {
    Int(u64),
    Text(String),
    Other,
}

struct Reader<'a, R> {
    inner: R,
    file: &'a Path,
}

impl<R: Read> Reader<'_, R> {
    fn err(&self, p: ModelProblem) -> ModelFileError {
        ModelFileError::new(self.file, p)
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], ModelFileError> {
        let mut b = [0u8; N];
        self.inner
            .read_exact(&mut b)
            .map_err(|_| self.err(ModelProblem::Truncated))?;
        Ok(b)
    }

    fn u32(&mut self) -> Result<u32, ModelFileError> {
        Ok(u32::from_le_bytes(self.bytes()?))
    }

    fn u64(&mut self) -> Result<u64, ModelFileError> {
        Ok(u64::from_le_bytes(self.bytes()?))
    }

    fn capped(&self, what: Limit, value: u64, cap: u64) -> Result<u64, ModelFileError> {
        if value > cap {
            return Err(self.err(ModelProblem::TooLarge { what, value, cap }));
        }
        Ok(value)
    }

    /// A string: u64 length, then UTF-8 bytes (lossy), at most [`MAX_GGUF_STRING`].
    fn string(&mut self) -> Result<String, ModelFileError> {
        let n = self.u64()?;
        let n = self.capped(Limit::StringLength, n, MAX_GGUF_STRING)?;
        let mut buf = Vec::new();
        (&mut self.inner)
            .take(n)
            .read_to_end(&mut buf)
            .map_err(|_| self.err(ModelProblem::Truncated))?;
        if buf.len() as u64 != n {
            return Err(self.err(ModelProblem::Truncated));
        }
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// One value of type `t` (GGUF metadata value types 0–12); arrays are read and dropped.
    fn value(&mut self, t: u32, depth: u32) -> Result<Value, ModelFileError> {
        Ok(match t {
            0 | 1 | 7 => Value::Int(u64::from(self.bytes::<1>()?[0])),
            2 | 3 => Value::Int(u64::from(u16::from_le_bytes(self.bytes()?))),
            4 | 5 => Value::Int(u64::from(self.u32()?)),
            6 => {
                self.u32()?;
                Value::Other
            }
            8 => Value::Text(self.string()?),
            10 | 11 => Value::Int(self.u64()?),
            12 => {
                self.u64()?;
                Value::Other
            }
            9 if depth < 2 => {
                let inner = self.u32()?;
                let n = self.u64()?;
                let n = self.capped(Limit::ArrayLength, n, MAX_GGUF_HEADER)?;
                for _ in 0..n {
                    self.value(inner, depth + 1)?;
                }
                Value::Other
            }
            _ => return Err(self.err(ModelProblem::Field(format!("metadata type {t}")))),
        })
    }
}

/// The tensors and header of a GGUF file.
pub(super) struct Gguf {
    pub header: GgufRead,
    pub totals: TensorTotals,
    pub largest: Option<LargestTensor>,
}

/// Reads the GGUF header of the opened file `opened` (named `path` in messages), within the
/// model's budget of header bytes and entries.
///
/// # Errors
/// Not a GGUF file, a count or string beyond its cap, a header that ends early or is larger
/// than [`MAX_GGUF_HEADER`] or the budget, an unknown tensor type, or a tensor whose size
/// overflows.
pub(super) fn read_file(
    path: &Path,
    opened: InputFile,
    budget: &mut Budget,
) -> Result<Gguf, ModelFileError> {
    let limit = MAX_GGUF_HEADER.min(budget.bytes_left());
    let len = opened.len;
    let mut r = Reader {
        inner: BufReader::new(opened.file).take(limit),
        file: path,
    };
    let parsed = parse(&mut r, len, budget);
    let used = limit - r.inner.limit();
    if r.inner.limit() == 0 && limit < MAX_GGUF_HEADER {
        // The budget ran out inside the header: say so, not "ends inside its header".
        if let Err(ModelFileError {
            problem: ModelProblem::Truncated | ModelProblem::NotGguf,
            ..
        }) = parsed
        {
            return Err(ModelFileError::new(
                path,
                ModelProblem::TooLarge {
                    what: Limit::HeaderBytes,
                    value: budget
                        .work
                        .header_bytes
                        .saturating_add(used)
                        .saturating_add(1),
                    cap: MAX_MODEL_HEADER_BYTES,
                },
            ));
        }
    }
    budget.bytes(path, used)?;
    budget.work.headers_read += 1;
    parsed
}

fn parse<R: Read>(
    r: &mut Reader<'_, R>,
    len: u64,
    budget: &mut Budget,
) -> Result<Gguf, ModelFileError> {
    let path = r.file;
    if &r.bytes::<4>().map_err(|_| r.err(ModelProblem::NotGguf))? != b"GGUF" {
        return Err(r.err(ModelProblem::NotGguf));
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        return Err(r.err(ModelProblem::NotGguf));
    }
    let tensors = r.u64()?;
    let tensors = r.capped(Limit::TensorCount, tensors, MAX_GGUF_TENSORS)?;
    let kvs = r.u64()?;
    let kvs = r.capped(Limit::MetadataCount, kvs, 100_000)?;
    budget.entries(path, tensors.saturating_add(kvs))?;
    let mut ints: Vec<(String, u64)> = Vec::new();
    let mut architecture = None;
    for _ in 0..kvs {
        let key = r.string()?;
        let t = r.u32()?;
        match r.value(t, 0)? {
            Value::Int(v) => ints.push((key, v)),
            Value::Text(s) if key == "general.architecture" => architecture = Some(s),
            _ => {}
        }
    }
    let arch = architecture.clone().unwrap_or_default();
    let int = |k: &str| {
        let full = format!("{arch}.{k}");
        ints.iter().find(|(key, _)| *key == full).map(|(_, v)| *v)
    };
    let mut header = GgufRead {
        version,
        architecture,
        block_count: int("block_count"),
        embedding_length: int("embedding_length"),
        head_count: int("attention.head_count"),
        head_count_kv: int("attention.head_count_kv"),
        key_length: int("attention.key_length"),
        context_length: int("context_length"),
        expert_count: int("expert_count"),
        expert_used_count: int("expert_used_count"),
        bytes_per_layer: Vec::new(),
        other_bytes: 0,
        llama: LlamaModel::default(),
    };
    let mut layout = GgufLayout::default();
    let mut seen: Vec<LayerTensors> = Vec::new();
    let mut vocab = None;
    let mut totals = TensorTotals {
        tensors,
        params: 0,
        weight_bytes: 0,
        by_dtype: Vec::new(),
    };
    let mut largest: Option<LargestTensor> = None;
    let overflow =
        |name: &str| ModelFileError::new(path, ModelProblem::Field(format!("{name}.dims")));
    for _ in 0..tensors {
        let name = r.string()?;
        let dims = r.u32()?;
        let dims = r.capped(Limit::TensorDimensions, u64::from(dims), 8)?;
        let mut elements = 1u64;
        for d in 0..dims {
            let n = r.u64()?;
            if d == 1 && name == "token_embd.weight" {
                vocab = Some(n);
            }
            elements = elements.checked_mul(n).ok_or_else(|| overflow(&name))?;
        }
        let t = r.u32()?;
        let _offset = r.u64()?;
        let (type_name, block, block_bytes) = ggml_type(t)
            .ok_or_else(|| r.err(ModelProblem::Field(format!("{name}: tensor type {t}"))))?;
        let bytes = (elements / block)
            .checked_mul(block_bytes)
            .filter(|_| elements % block == 0)
            .ok_or_else(|| overflow(&name))?;
        totals.params = totals
            .params
            .checked_add(elements)
            .ok_or_else(|| overflow(&name))?;
        totals.weight_bytes = totals.weight_bytes.saturating_add(bytes);
        match totals.by_dtype.iter_mut().find(|(n, _)| n == type_name) {
            Some((_, b)) => *b = b.saturating_add(bytes),
            None => totals.by_dtype.push((type_name.to_string(), bytes)),
        }
        let layer = name
            .strip_prefix("blk.")
            .and_then(|rest| rest.split('.').next())
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n < 100_000);
        let local = match layer {
            Some(_) => name.splitn(3, '.').nth(2).unwrap_or(""),
            None => name.as_str(),
        };
        layout.add(layer, kind_of(local, layer.is_some()), bytes);
        if let Some(n) = layer {
            if seen.len() <= n {
                seen.resize(n + 1, LayerTensors::default());
            }
            seen[n].see(local);
        }
        match layer {
            Some(n) => {
                if header.bytes_per_layer.len() <= n {
                    header.bytes_per_layer.resize(n + 1, 0);
                }
                header.bytes_per_layer[n] = header.bytes_per_layer[n].saturating_add(bytes);
            }
            None => header.other_bytes = header.other_bytes.saturating_add(bytes),
        }
        if largest.as_ref().is_none_or(|l| elements > l.elements) {
            largest = Some(LargestTensor { name, elements });
        }
    }
    totals.by_dtype.sort_by_key(|b| std::cmp::Reverse(b.1));
    let arch = header.architecture.clone().unwrap_or_default();
    header.llama = LlamaModel {
        cache: cache_shape(&arch, &int, &seen),
        architecture: arch,
        trained_context: header.context_length.unwrap_or(0),
        embedding: header.embedding_length.unwrap_or(0),
        vocab: int("vocab_size").or(vocab).unwrap_or(0),
        heads: header.head_count.unwrap_or(0),
        feed_forward: int("feed_forward_length").unwrap_or(0),
        expert_feed_forward: int("expert_feed_forward_length")
            .unwrap_or(0)
            .saturating_mul(header.expert_used_count.unwrap_or(0)),
        bytes: layout,
    };
    if totals.weight_bytes > len {
        return Err(r.err(ModelProblem::OutOfFile("tensor data".into())));
    }
    Ok(Gguf {
        header,
        totals,
        largest,
    })
}
