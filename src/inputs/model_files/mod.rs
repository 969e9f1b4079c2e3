//! Model files on disk, read by their headers only: a Hugging Face folder (`config.json`,
//! `model.safetensors.index.json`, the safetensors headers, `pytorch_model*.bin` sizes), one
//! `.safetensors` file, or a `.gguf` file (header and tensor infos, GGUF spec v2/v3). Tensor
//! data is never read; every length read from a file is checked against a cap and against the
//! file's size before anything is allocated. This file holds the types; [`read`] orchestrates.

mod budget;
mod config;
mod gguf;
mod range;
mod read;
mod safetensors;

use std::path::PathBuf;

use serde::Serialize;

pub use read::{read, read_with_work};
pub use safetensors::DTYPES as SAFETENSORS_DTYPES;

use crate::catalog::model_shape::ModelShape;

/// Cap of a `config.json` or index file: 16 MiB (DeepSeek-V3's index is about 9 MiB of JSON
/// for 91,000 tensors; a config is a few KiB).
pub const MAX_JSON_BYTES: u64 = 16 << 20;

/// Cap of a safetensors header: 100,000,000 bytes, the safetensors crate's own
/// `MAX_HEADER_SIZE`.
pub const MAX_SAFETENSORS_HEADER: u64 = 100_000_000;

/// The largest value ramvram takes for a shape field of `config.json` or a GGUF header: 2^24
/// (a hidden size of 16,384 or a vocabulary of 262,144 are the largest in use); larger is a
/// hostile or broken file.
pub const MAX_DIM: u64 = 1 << 24;

/// Cap on the shards one folder lists: 10,000 (Llama 3.1 405B has 191).
pub const MAX_SHARDS: usize = 10_000;

/// Cap on a GGUF file's tensors: 1,000,000 (a 405B GGUF has about 1,140) and metadata keys:
/// 100,000.
pub const MAX_GGUF_TENSORS: u64 = 1_000_000;

/// Cap on a GGUF string: 16 MiB (the longest real ones are chat templates of a few KiB).
pub const MAX_GGUF_STRING: u64 = 16 << 20;

/// Cap on the bytes of a GGUF header (metadata and tensor infos) read in all: 256 MiB (a
/// 256,000-token vocabulary with its scores is about 6 MiB).
pub const MAX_GGUF_HEADER: u64 = 256 << 20;

/// The budget of header bytes read over one `--model` (all its files together): 256 MiB, as
/// much as one GGUF header may hold. Checked before each header is read.
pub const MAX_MODEL_HEADER_BYTES: u64 = 256 << 20;

/// The budget of entries over one `--model`: tensors of every shard plus GGUF metadata keys,
/// 1,000,000 (DeepSeek-V3 has about 91,000 tensors).
pub const MAX_MODEL_ENTRIES: u64 = 1_000_000;

/// The most folder entries looked at to find the weight files no index names
/// (`*.safetensors`, `pytorch_model*.bin`): 1,000,000. `config.json` and the index are looked
/// up by name, whatever the folder holds; a listing that stops here says so
/// ([`ModelRead::listing_cut`]).
pub const MAX_LISTING: u64 = 1_000_000;

/// What reading one `--model` cost: the work counts a test asserts instead of a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReadWork {
    /// Files opened (each distinct file once; a second name for one already read is skipped).
    pub files_opened: u64,
    /// Headers read and parsed (safetensors and GGUF).
    pub headers_read: u64,
    /// Header bytes read, of [`MAX_MODEL_HEADER_BYTES`].
    pub header_bytes: u64,
    /// Entries read (tensors, GGUF metadata keys), of [`MAX_MODEL_ENTRIES`].
    pub entries: u64,
    /// Folder entries looked at by the listing, of [`MAX_LISTING`].
    pub listed: u64,
    /// Names that led to a file already read (same device and inode), skipped.
    pub duplicates: u64,
}

/// The kind of thing `--model` pointed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelFormat {
    /// A Hugging Face folder (`config.json` and weights).
    HfFolder,
    /// One `.safetensors` file.
    Safetensors,
    /// One `.gguf` file.
    Gguf,
}

/// What `config.json` says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigRead {
    /// The file read.
    pub file: PathBuf,
    /// `model_type`.
    pub model_type: String,
    /// The architecture, when the config describes a decoder ramvram can read.
    pub shape: Option<ModelShape>,
    /// `torch_dtype` (or `dtype`).
    pub dtype: Option<String>,
    /// `max_position_embeddings`.
    pub max_context: Option<u64>,
}

/// One weight file and its size on disk, bytes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WeightFile {
    /// The file.
    pub file: PathBuf,
    /// Its size, bytes.
    pub bytes: u64,
}

/// The largest tensor of a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LargestTensor {
    /// Its name ("model.embed_tokens.weight", "token_embd.weight").
    pub name: String,
    /// Its elements.
    pub elements: u64,
}

/// Totals over every tensor of a checkpoint, from the safetensors headers or GGUF tensor infos.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TensorTotals {
    /// Tensors.
    pub tensors: u64,
    /// Elements of all tensors: the exact parameter count.
    pub params: u64,
    /// Bytes of tensor data: the exact weight bytes.
    pub weight_bytes: u64,
    /// Bytes per element type ("BF16", "F8_E4M3", "Q4_K"), largest first.
    pub by_dtype: Vec<(String, u64)>,
}

/// What a GGUF header says beyond its tensors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GgufRead {
    /// GGUF version (2 or 3).
    pub version: u32,
    /// `general.architecture`.
    pub architecture: Option<String>,
    /// `{arch}.block_count`.
    pub block_count: Option<u64>,
    /// `{arch}.embedding_length`.
    pub embedding_length: Option<u64>,
    /// `{arch}.attention.head_count`.
    pub head_count: Option<u64>,
    /// `{arch}.attention.head_count_kv`.
    pub head_count_kv: Option<u64>,
    /// `{arch}.attention.key_length` (the head dimension, when set).
    pub key_length: Option<u64>,
    /// `{arch}.context_length`.
    pub context_length: Option<u64>,
    /// `{arch}.expert_count`.
    pub expert_count: Option<u64>,
    /// `{arch}.expert_used_count`.
    pub expert_used_count: Option<u64>,
    /// Bytes of each `blk.N.` layer, by N (what llama.cpp's `-ngl` moves per layer).
    pub bytes_per_layer: Vec<u64>,
    /// Bytes outside the layers (token embedding, output head, final norm).
    pub other_bytes: u64,
    /// The model as llama.cpp loads it: bytes by layer and kind, the caches' shape.
    pub llama: crate::advisor::inference::llama_cpp::LlamaModel,
}

/// Everything read for `--model PATH`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelRead {
    /// The path as given.
    pub path: PathBuf,
    /// Folder, safetensors or GGUF.
    pub format: ModelFormat,
    /// `config.json`, when there is one.
    pub config: Option<ConfigRead>,
    /// Totals from the tensor headers, when there are safetensors or a GGUF.
    pub tensors: Option<TensorTotals>,
    /// The largest tensor.
    pub largest_tensor: Option<LargestTensor>,
    /// The safetensors or GGUF files and their sizes.
    pub weight_files: Vec<WeightFile>,
    /// `pytorch_model*.bin` files (pickles `torch.load` reads whole) and their sizes.
    pub pickle_files: Vec<WeightFile>,
    /// The GGUF header, for a `.gguf`.
    pub gguf: Option<GgufRead>,
    /// The folder entries looked at when the listing stopped at [`MAX_LISTING`] (weight files
    /// past it are not counted); `None` when it was complete or not needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listing_cut: Option<u64>,
}

impl ModelRead {
    /// Exact parameters from the tensor headers, else the count `config.json`'s shape gives.
    pub fn params(&self) -> Option<u64> {
        self.tensors.as_ref().map(|t| t.params).or_else(|| {
            self.config
                .as_ref()
                .and_then(|c| c.shape.as_ref())
                .and_then(ModelShape::params)
        })
    }

    /// True when [`ModelRead::params`] comes from the tensor headers (exact), not the shape.
    pub fn params_exact(&self) -> bool {
        self.tensors.is_some()
    }

    /// The planners' shape: `config.json`'s, else the GGUF header's.
    pub fn shape(&self) -> Option<crate::advisor::training::TransformerShape> {
        use crate::advisor::training::TransformerShape;
        if let Some(s) = self.config.as_ref().and_then(|c| c.shape.as_ref()) {
            return Some(TransformerShape::of_model(s));
        }
        let g = self.gguf.as_ref()?;
        Some(TransformerShape {
            hidden: g.embedding_length?,
            layers: g.block_count?,
            heads: g.head_count,
            kv_heads: g.head_count_kv,
            head_dim: g.key_length,
            kv_latent: None,
        })
    }
}

/// A length or count read from a model file that has a cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A safetensors header's length.
    HeaderLength,
    /// A GGUF string's length.
    StringLength,
    /// A GGUF array's length.
    ArrayLength,
    /// A GGUF file's tensor count.
    TensorCount,
    /// A GGUF file's metadata count.
    MetadataCount,
    /// A GGUF tensor's dimensions.
    TensorDimensions,
    /// The shards an index lists.
    Shards,
    /// Header bytes over the whole `--model` ([`MAX_MODEL_HEADER_BYTES`]).
    HeaderBytes,
    /// Tensors and metadata entries over the whole `--model` ([`MAX_MODEL_ENTRIES`]).
    Entries,
}

/// Why a model file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelProblem {
    /// The OS refused (no such file, permission denied) or the file is not a regular file.
    Io(crate::fsutil::IoProblem),
    /// A folder with neither `config.json` nor weights.
    NoModel,
    /// Not JSON, or JSON of the wrong shape: where (a JSON path, `.` for the document; for a
    /// safetensors header, the tensor's name) and what ([`ParseProblem`]: serde_json's words,
    /// reworded when shown, with no value from the file).
    Json {
        /// Where.
        field: String,
        /// What.
        problem: crate::profile::ParseProblem,
    },
    /// A field with a value that can't be right.
    Field(String),
    /// A length or count read from the file beyond its cap or the file's size.
    TooLarge {
        /// What was too large.
        what: Limit,
        /// The value read.
        value: u64,
        /// The most ramvram accepts.
        cap: u64,
    },
    /// A tensor whose data lies outside the file.
    OutOfFile(String),
    /// A shard listed with a path outside the folder.
    OutsideFolder(String),
    /// Not a GGUF file (wrong magic or version).
    NotGguf,
    /// A safetensors tensor whose `dtype` is not one of the format's element types: the
    /// tensor's name (the dtype itself is not kept).
    UnknownDtype(String),
    /// A safetensors tensor whose data overlaps the tensor before it (offsets sorted).
    Overlap(String),
    /// A safetensors tensor whose data starts after the end of the tensor before it (or after
    /// the start of the data, for the first).
    Gap(String),
    /// The tensors' data ends before the file does: `end` of `data` bytes covered.
    Uncovered {
        /// Where the last tensor ends, bytes into the data.
        end: u64,
        /// Bytes of data in the file.
        data: u64,
    },
    /// A value read from the file outside the range ramvram accepts: the field (a JSON key,
    /// a GGUF key) and the range.
    OutOfRange {
        /// The field.
        field: String,
        /// The value read.
        found: u64,
        /// The least accepted.
        min: u64,
        /// The most accepted.
        max: u64,
    },
    /// The parameters the file's fields add up to, outside 1 ..= `max`: the fields summed.
    Params {
        /// The fields summed (`shape`, or config.json's shape keys).
        field: String,
        /// The sum.
        found: u64,
        /// The most accepted.
        max: u64,
    },
    /// The file ends inside its header.
    Truncated,
    /// The first 8 bytes are no plausible safetensors header length (past the cap or the file's
    /// size): not a safetensors file. Their value is not kept, so nothing of the file is shown.
    NotSafetensors,
}

/// A model file that can't be read: the file and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelFileError {
    /// The file (or folder).
    pub file: PathBuf,
    /// Why.
    pub problem: ModelProblem,
}

impl ModelProblem {
    /// The problem behind serde_json's error `e` met at `at` (`.` for the whole document).
    pub(crate) fn json(at: &str, e: &serde_json::Error) -> ModelProblem {
        let (field, problem) = crate::profile::ParseProblem::of(at, e);
        ModelProblem::Json { field, problem }
    }
}

impl ModelFileError {
    pub(crate) fn new(file: impl Into<PathBuf>, problem: ModelProblem) -> Self {
        ModelFileError {
            file: file.into(),
            problem,
        }
    }
}
