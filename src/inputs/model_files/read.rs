//! `--model PATH`: which files to read, in which order, and what they add up to.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{
    LargestTensor, Limit, MAX_JSON_BYTES, MAX_SHARDS, ModelFileError, ModelFormat, ModelProblem,
    ModelRead, TensorTotals, WeightFile, config, gguf, safetensors,
};
use crate::fsutil::IoProblem;

fn io(path: &Path, e: &std::io::Error) -> ModelFileError {
    ModelFileError::new(path, ModelProblem::Io(IoProblem::of(e)))
}

/// Reads what `path` holds: a folder (Hugging Face layout), a `.gguf` file, or a
/// `.safetensors` file (any other file is tried as safetensors).
///
/// # Errors
/// The first file that can't be read, naming it and why.
pub fn read(path: &Path) -> Result<ModelRead, ModelFileError> {
    let meta = std::fs::metadata(path).map_err(|e| io(path, &e))?;
    if meta.is_dir() {
        return read_folder(path);
    }
    let mut out = empty(path, ModelFormat::Safetensors);
    let gguf_ext = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gguf"));
    if gguf_ext {
        let (g, len) = gguf::read_file(path)?;
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
    add_safetensors(&mut out, &[path.to_path_buf()])?;
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

/// The shard files an index (`*.index.json`) names, each once, in name order.
fn index_shards(index: &Path) -> Result<Vec<String>, ModelFileError> {
    let text =
        crate::fsutil::read_input_string(index, MAX_JSON_BYTES).map_err(|e| io(index, &e))?;
    let root: Value = serde_json::from_str(&text)
        .map_err(|e| ModelFileError::new(index, ModelProblem::json(".", &e)))?;
    let Some(map) = root.get("weight_map").and_then(Value::as_object) else {
        return Err(ModelFileError::new(
            index,
            ModelProblem::Field("weight_map".into()),
        ));
    };
    let mut names: Vec<String> = Vec::new();
    for v in map.values() {
        let Some(name) = v.as_str() else {
            return Err(ModelFileError::new(
                index,
                ModelProblem::Field("weight_map".into()),
            ));
        };
        let name = shard_name(index, name)?;
        if !names.iter().any(|n| n == name) {
            if names.len() >= MAX_SHARDS {
                return Err(ModelFileError::new(
                    index,
                    ModelProblem::TooLarge {
                        what: Limit::Shards,
                        value: names.len() as u64 + 1,
                        cap: MAX_SHARDS as u64,
                    },
                ));
            }
            names.push(name.to_string());
        }
    }
    names.sort();
    Ok(names)
}

/// The files directly in `dir` (not below), sorted, at most [`MAX_SHARDS`] × 4 entries looked
/// at.
fn listing(dir: &Path) -> Result<Vec<String>, ModelFileError> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)
        .map_err(|e| io(dir, &e))?
        .take(MAX_SHARDS * 4)
    {
        let entry = entry.map_err(|e| io(dir, &e))?;
        if let Some(n) = entry.file_name().to_str() {
            names.push(n.to_string());
        }
    }
    names.sort();
    Ok(names)
}

fn read_folder(dir: &Path) -> Result<ModelRead, ModelFileError> {
    let mut out = empty(dir, ModelFormat::HfFolder);
    let names = listing(dir)?;
    let has = |n: &str| names.iter().any(|x| x == n);
    if has("config.json") {
        out.config = Some(config::read(&dir.join("config.json"))?);
    }
    let shards: Vec<PathBuf> = if has("model.safetensors.index.json") {
        let index = dir.join("model.safetensors.index.json");
        index_shards(&index)?
            .into_iter()
            .map(|n| dir.join(n))
            .collect()
    } else {
        names
            .iter()
            .filter(|n| n.ends_with(".safetensors"))
            .map(|n| dir.join(n))
            .collect()
    };
    add_safetensors(&mut out, &shards)?;
    for n in names
        .iter()
        .filter(|n| n.starts_with("pytorch_model") && n.ends_with(".bin"))
    {
        let p = dir.join(n);
        let (_, bytes) = crate::fsutil::open_input(&p).map_err(|e| io(&p, &e))?;
        out.pickle_files.push(WeightFile { file: p, bytes });
    }
    if out.config.is_none() && out.tensors.is_none() && out.pickle_files.is_empty() {
        return Err(ModelFileError::new(dir, ModelProblem::NoModel));
    }
    Ok(out)
}

/// Reads every shard's header and adds up its tensors.
fn add_safetensors(out: &mut ModelRead, shards: &[PathBuf]) -> Result<(), ModelFileError> {
    if shards.is_empty() {
        return Ok(());
    }
    let mut totals = TensorTotals {
        tensors: 0,
        params: 0,
        weight_bytes: 0,
        by_dtype: Vec::new(),
    };
    let mut largest: Option<LargestTensor> = None;
    for shard in shards {
        let (tensors, len) = safetensors::read_file(shard)?;
        out.weight_files.push(WeightFile {
            file: shard.clone(),
            bytes: len,
        });
        for t in tensors {
            totals.tensors += 1;
            totals.params = totals.params.saturating_add(t.elements);
            totals.weight_bytes = totals.weight_bytes.saturating_add(t.bytes);
            match totals.by_dtype.iter_mut().find(|(n, _)| *n == t.dtype) {
                Some((_, b)) => *b = b.saturating_add(t.bytes),
                None => totals.by_dtype.push((t.dtype.clone(), t.bytes)),
            }
            if largest.as_ref().is_none_or(|l| t.elements > l.elements) {
                largest = Some(LargestTensor {
                    name: t.name,
                    elements: t.elements,
                });
            }
        }
    }
    totals.by_dtype.sort_by_key(|b| std::cmp::Reverse(b.1));
    out.tensors = Some(totals);
    out.largest_tensor = largest;
    Ok(())
}
