//! Values read from model files that the planners can't take are refused here, naming the file
//! and the field they came from, so that no error blames a flag the user never gave (issue 37:
//! a header summing to 10^19 parameters was refused as "--params: at most 100 trillion").

use super::{MAX_DIM, ModelFileError, ModelProblem, ModelRead};
use crate::advisor::training::MAX_PARAMS;

/// The shape keys of `config.json` whose sum is the parameter count when no weights are read.
const SHAPE_FIELDS: &str = "num_hidden_layers, hidden_size, intermediate_size, vocab_size";

/// Checks what was read: parameters in 1..=[`MAX_PARAMS`] (the planners' limit), and a GGUF
/// header's shape keys in 1..=[`MAX_DIM`] (as `config.json`'s are).
///
/// # Errors
/// [`ModelProblem::Params`] or [`ModelProblem::OutOfRange`], naming the file and field.
pub(super) fn check(r: &ModelRead) -> Result<(), ModelFileError> {
    if let Some(g) = &r.gguf {
        let arch = g.architecture.as_deref().unwrap_or("");
        for (key, value) in [
            ("block_count", g.block_count),
            ("embedding_length", g.embedding_length),
            ("attention.head_count", g.head_count),
            ("attention.head_count_kv", g.head_count_kv),
            ("attention.key_length", g.key_length),
        ] {
            if let Some(v) = value.filter(|&v| v == 0 || v > MAX_DIM) {
                let file = r.weight_files.first().map_or(&r.path, |w| &w.file);
                return Err(ModelFileError::new(
                    file.clone(),
                    ModelProblem::OutOfRange {
                        field: format!("{arch}.{key}"),
                        found: v,
                        min: 1,
                        max: MAX_DIM,
                    },
                ));
            }
        }
    }
    let (field, file) = match (&r.tensors, &r.config) {
        (Some(_), _) => {
            let file = match r.weight_files.as_slice() {
                [one] => one.file.clone(),
                _ => r.path.clone(),
            };
            ("shape".to_string(), Some(file))
        }
        (None, Some(c)) if c.shape.is_some() => (SHAPE_FIELDS.to_string(), Some(c.file.clone())),
        _ => (String::new(), None),
    };
    if let Some(file) = file {
        // A shape whose sum overflows counts as the largest number there is.
        let found = r.params().unwrap_or(u64::MAX);
        if found == 0 || found > MAX_PARAMS {
            return Err(ModelFileError::new(
                file,
                ModelProblem::Params {
                    field,
                    found,
                    max: MAX_PARAMS,
                },
            ));
        }
    }
    Ok(())
}
