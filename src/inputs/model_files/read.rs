//! `--model PATH`: which files to read, in which order, and what they add up to.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use super::budget::Budget;
use super::{
    LargestTensor, Limit, MAX_JSON_BYTES, MAX_LISTING, MAX_SHARDS, ModelFileError, ModelFormat,
    ModelProblem, ModelRead, ReadWork, TensorTotals, WeightFile, config, gguf, safetensors,
};
use crate::fsutil::{InputFile, InputFolder, IoProblem};

fn io(path: &Path, e: &std::io::Error) -> ModelFileError {
    ModelFileError::new(path, ModelProblem::Io(IoProblem::of(e)))
}

/// Reads what `path` holds: a folder (Hugging Face layout), a `.gguf` file, or a
/// `.safetensors` file (any other file is tried as safetensors). The path as typed is opened
/// as any program opens it (a link the user names is followed); inside a folder, every file is
/// looked up by name relative to the open folder and links are refused, not followed
/// ([`crate::fsutil::InputFolder`]).
///
/// # Errors
/// The first file that can't be read, naming it and why; a value read that is out of range,
/// naming the file and the field.
pub fn read(path: &Path) -> Result<ModelRead, ModelFileError> {
    read_with_work(path).map(|(r, _)| r)
}

/// [`read`], with what the reading cost (files opened, headers and bytes read, entries,
/// folder entries listed): the budget of the whole `--model`.
///
/// # Errors
/// As [`read`].
pub fn read_with_work(path: &Path) -> Result<(ModelRead, ReadWork), ModelFileError> {
    let mut budget = Budget::new();
    let out = match InputFolder::open(path) {
        Ok(folder) => read_folder(&folder, &mut budget)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => read_file(path, &mut budget)?,
        Err(e) => return Err(io(path, &e)),
    };
    super::range::check(&out)?;
    Ok((out, budget.work))
}

fn read_file(path: &Path, budget: &mut Budget) -> Result<ModelRead, ModelFileError> {
    let opened = crate::fsutil::open_named(path).map_err(|e| io(path, &e))?;
    budget.first_time(&opened);
    let mut out = empty(path, ModelFormat::Safetensors);
    let len = opened.len;
    let gguf_ext = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gguf"));
    if gguf_ext {
        let g = gguf::read_file(path, opened, budget)?;
        out.format = ModelFormat::Gguf;
        out.tensors = Some(g.totals);
        out.largest_tensor = g.largest;
        out.gguf = Some(g.header);
        out.weight_files.push(WeightFile {
            file: path.to_path_buf(),
            bytes: len,
        });
        return Ok(out);
    }
    let mut sum = Sum::default();
    let tensors = safetensors::read_file(path, opened, budget)?;
    out.weight_files.push(WeightFile {
        file: path.to_path_buf(),
        bytes: len,
    });
    sum.add(tensors);
    sum.finish(&mut out);
    Ok(out)
}

fn empty(path: &Path, format: ModelFormat) -> ModelRead {
    ModelRead {
        path: path.to_path_buf(),
        format,
        config: None,
        tensors: None,
        largest_tensor: None,
        weight_files: Vec::new(),
        pickle_files: Vec::new(),
        gguf: None,
        listing_cut: None,
    }
}

/// A shard name from an index: a plain file name inside the folder, nothing with a path.
fn shard_name<'a>(index: &Path, name: &'a str) -> Result<&'a str, ModelFileError> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !Path::new(name).is_absolute();
    if plain {
        Ok(name)
    } else {
        Err(ModelFileError::new(
            index,
            ModelProblem::OutsideFolder(name.chars().take(200).collect()),
        ))
    }
}

fn too_many_shards(file: &Path, value: u64) -> ModelFileError {
    ModelFileError::new(
        file,
        ModelProblem::TooLarge {
            what: Limit::Shards,
            value,
            cap: MAX_SHARDS as u64,
        },
    )
}

/// The shard files an index (`*.index.json`) names, each once (a set: an index naming one
/// file 10,000 times costs 10,000 set lookups), in name order.
fn index_shards(
    index: &Path,
    opened: InputFile,
    budget: &mut Budget,
) -> Result<Vec<String>, ModelFileError> {
    budget.bytes(index, opened.len.min(MAX_JSON_BYTES))?;
    let text =
        crate::fsutil::read_opened_string(opened, MAX_JSON_BYTES).map_err(|e| io(index, &e))?;
    let root: Value = serde_json::from_str(&text)
        .map_err(|e| ModelFileError::new(index, ModelProblem::json(".", &e)))?;
    let Some(map) = root.get("weight_map").and_then(Value::as_object) else {
        return Err(ModelFileError::new(
            index,
            ModelProblem::Field("weight_map".into()),
        ));
    };
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for v in map.values() {
        let Some(name) = v.as_str() else {
            return Err(ModelFileError::new(
                index,
                ModelProblem::Field("weight_map".into()),
            ));
        };
        names.insert(shard_name(index, name)?);
        if names.len() > MAX_SHARDS {
            return Err(too_many_shards(index, names.len() as u64));
        }
    }
    Ok(names.into_iter().map(str::to_string).collect())
}

/// Opens `name` in the folder; `None` when there is no such file.
fn open_in(folder: &InputFolder, name: &str) -> Result<Option<InputFile>, ModelFileError> {
    match folder.open_file(name) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(&folder.join(name), &e)),
    }
}

fn is_pickle(n: &str) -> bool {
    n.starts_with("pytorch_model") && n.ends_with(".bin")
}

fn read_folder(folder: &InputFolder, budget: &mut Budget) -> Result<ModelRead, ModelFileError> {
    let dir = folder.path();
    let mut out = empty(dir, ModelFormat::HfFolder);
    if let Some(f) = open_in(folder, "config.json")? {
        let p = folder.join("config.json");
        budget.first_time(&f);
        // Over the cap is refused by the read, naming the cap; within it, it is budgeted.
        budget.bytes(&p, f.len.min(MAX_JSON_BYTES))?;
        out.config = Some(config::read(&p, f)?);
    }
    // Weight files no index names are found by listing, which stops at MAX_LISTING entries
    // (and says so); config.json, the index and its shards are looked up by name.
    let listing = folder
        .list(MAX_LISTING, 2 * MAX_SHARDS, |n| {
            n.ends_with(".safetensors") || is_pickle(n)
        })
        .map_err(|e| io(dir, &e))?;
    budget.work.listed = listing.looked_at;
    if listing.cut {
        if listing.looked_at < MAX_LISTING {
            return Err(too_many_shards(dir, listing.names.len() as u64 + 1));
        }
        out.listing_cut = Some(listing.looked_at);
    }
    let index_name = "model.safetensors.index.json";
    let shards: Vec<String> = match open_in(folder, index_name)? {
        Some(f) => {
            budget.first_time(&f);
            index_shards(&folder.join(index_name), f, budget)?
        }
        None => {
            let found: Vec<String> = listing
                .names
                .iter()
                .filter(|n| n.ends_with(".safetensors"))
                .cloned()
                .collect();
            if found.len() > MAX_SHARDS {
                return Err(too_many_shards(dir, found.len() as u64));
            }
            found
        }
    };
    let mut sum = Sum::default();
    for name in &shards {
        let p = folder.join(name);
        let f = folder.open_file(name).map_err(|e| io(&p, &e))?;
        if !budget.first_time(&f) {
            continue;
        }
        let bytes = f.len;
        sum.add(safetensors::read_file(&p, f, budget)?);
        out.weight_files.push(WeightFile { file: p, bytes });
    }
    if !shards.is_empty() {
        sum.finish(&mut out);
    }
    for n in listing.names.iter().filter(|n| is_pickle(n)) {
        let p = folder.join(n);
        let f = folder.open_file(n).map_err(|e| io(&p, &e))?;
        if budget.first_time(&f) {
            out.pickle_files.push(WeightFile {
                file: p,
                bytes: f.len,
            });
        }
    }
    if out.config.is_none() && out.tensors.is_none() && out.pickle_files.is_empty() {
        return Err(ModelFileError::new(dir, ModelProblem::NoModel));
    }
    Ok(out)
}

/// Totals over the tensors of every shard: bytes per element type kept in a list of at most
/// the format's 20 types.
#[derive(Default)]
struct Sum {
    totals: Option<TensorTotals>,
    by_dtype: Vec<(&'static str, u64)>,
    largest: Option<LargestTensor>,
}

impl Sum {
    fn add(&mut self, tensors: Vec<safetensors::Tensor>) {
        let totals = self.totals.get_or_insert(TensorTotals {
            tensors: 0,
            params: 0,
            weight_bytes: 0,
            by_dtype: Vec::new(),
        });
        for t in tensors {
            totals.tensors += 1;
            totals.params = totals.params.saturating_add(t.elements);
            totals.weight_bytes = totals.weight_bytes.saturating_add(t.bytes);
            match self.by_dtype.iter_mut().find(|(n, _)| *n == t.dtype) {
                Some((_, b)) => *b = b.saturating_add(t.bytes),
                None => self.by_dtype.push((t.dtype, t.bytes)),
            }
            if self
                .largest
                .as_ref()
                .is_none_or(|l| t.elements > l.elements)
            {
                self.largest = Some(LargestTensor {
                    name: t.name,
                    elements: t.elements,
                });
            }
        }
    }

    fn finish(self, out: &mut ModelRead) {
        let mut totals = self.totals.unwrap_or(TensorTotals {
            tensors: 0,
            params: 0,
            weight_bytes: 0,
            by_dtype: Vec::new(),
        });
        totals.by_dtype = self
            .by_dtype
            .into_iter()
            .map(|(n, b)| (n.to_string(), b))
            .collect();
        totals.by_dtype.sort_by_key(|b| std::cmp::Reverse(b.1));
        out.tensors = Some(totals);
        out.largest_tensor = self.largest;
    }
}
