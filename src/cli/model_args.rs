//! `--model NAME|PATH`: a catalogue model (its id, Hugging Face Hub id or an alias, case
//! ignored) or a local Hugging Face folder, `.safetensors` or `.gguf` file, read when the flag is
//! parsed (headers only, each capped). What it gives sets the model flags that weren't typed;
//! the note printed with the result says where each figure came from and which typed flags
//! overrode it.

use std::path::Path;

use crate::advisor::training::{Preset, TransformerShape, presets};
use crate::catalog::{catalog, models};
use crate::i18n::{Lang, Msg, trf};
use crate::inputs::model_files::{self, ModelRead};
use crate::parse::ValueError;

/// What `--model` named.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelChoice {
    /// A catalogue model, by its preset id.
    Catalogue(String),
    /// Files read from disk.
    Files(Box<ModelRead>),
}

/// Parses `--model`: an existing path is read; anything else is looked up in the catalogue.
///
/// # Errors
/// An unknown name (with up to three near misses), or a file that can't be read, naming it.
pub fn parse_model(s: &str) -> Result<ModelChoice, ValueError> {
    let path = Path::new(s);
    if std::fs::symlink_metadata(path).is_ok() {
        return model_files::read(path)
            .map(|r| ModelChoice::Files(Box::new(r)))
            .map_err(|e| crate::present::model::value_error(&e));
    }
    if let Some(m) = catalog().model(s) {
        return Ok(ModelChoice::Catalogue(m.id.clone()));
    }
    if let Some(p) = catalog().pipeline(s) {
        return Ok(ModelChoice::Catalogue(p.id.clone()));
    }
    let near = models::suggestions(&catalog().models, s);
    Err(if near.is_empty() {
        ValueError::new(Msg::ValueUnknownModel, s)
    } else {
        ValueError::new(Msg::ValueUnknownModelNear, s).with_list("ids", near)
    })
}

impl ModelChoice {
    /// The catalogue preset, for a catalogue model.
    pub fn preset(&self) -> Option<&'static Preset> {
        match self {
            ModelChoice::Catalogue(id) => presets::preset(id),
            ModelChoice::Files(_) => None,
        }
    }

    /// The files read, for a path.
    pub fn files(&self) -> Option<&ModelRead> {
        match self {
            ModelChoice::Files(r) => Some(r),
            ModelChoice::Catalogue(_) => None,
        }
    }

    /// Total parameters, when known.
    pub fn params(&self) -> Option<u64> {
        match self {
            ModelChoice::Catalogue(_) => self.preset().map(|p| p.params),
            ModelChoice::Files(r) => r.params(),
        }
    }

    /// The shape, when known.
    pub fn shape(&self) -> Option<TransformerShape> {
        match self {
            ModelChoice::Catalogue(_) => self.preset().and_then(|p| p.shape),
            ModelChoice::Files(r) => r.shape(),
        }
    }

    /// Parameters active per token and in all, for a mixture of experts (the shape's sum).
    pub fn active_params(&self) -> Option<(u64, u64)> {
        let shape = match self {
            ModelChoice::Catalogue(id) => catalog().model(id)?.shape.as_ref(),
            ModelChoice::Files(r) => r.config.as_ref()?.shape.as_ref(),
        }?;
        shape.moe.as_ref()?;
        Some((shape.active_params()?, shape.params()?))
    }

    /// Largest single tensor, elements, when known.
    pub fn largest_layer(&self) -> Option<u64> {
        match self {
            ModelChoice::Catalogue(_) => self.preset().and_then(|p| p.largest_layer),
            ModelChoice::Files(r) => r.largest_tensor.as_ref().map(|t| t.elements),
        }
    }

    /// Where the model's figures came from, and the typed flags (`overridden`, as `--flag`)
    /// that replaced some of them: "model: Qwen2.5 7B, from the catalogue (Qwen/Qwen2.5-7B-
    /// Instruct; huggingface.co/…/config.json; …)".
    pub fn note(&self, lang: Lang, overridden: &[&str]) -> String {
        let mut out = match self {
            ModelChoice::Catalogue(_) => match self.preset() {
                Some(p) => trf(
                    lang,
                    Msg::ModelFromCatalogue,
                    &[
                        ("name", &p.name),
                        (
                            "hub",
                            if p.hub_id.is_empty() {
                                &p.id
                            } else {
                                &p.hub_id
                            },
                        ),
                        ("source", &p.source),
                    ],
                ),
                None => String::new(),
            },
            ModelChoice::Files(r) => crate::present::model::read_note(lang, r),
        };
        if let Some((active, total)) = self.active_params() {
            out.push(' ');
            out.push_str(&trf(
                lang,
                Msg::ModelActive,
                &[
                    ("active", &crate::format::params(active)),
                    ("total", &crate::format::params(total)),
                ],
            ));
        }
        if !overridden.is_empty() {
            out.push(' ');
            out.push_str(&trf(
                lang,
                Msg::ModelOverridden,
                &[("flags", &crate::present::join(lang, overridden))],
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_near_misses() {
        let m = parse_model("qwen/qwen2.5-7b-instruct").unwrap();
        assert_eq!(m, ModelChoice::Catalogue("qwen2.5-7b".into()));
        assert_eq!(m.params(), Some(7_615_616_512));
        let e = parse_model("Qwen2.5-7B-Instrct")
            .unwrap_err()
            .text(Lang::En);
        assert!(e.contains("qwen2.5-7b"), "{e}");
        let e = parse_model("zzzz-nothing-like-it-zzzz")
            .unwrap_err()
            .text(Lang::Zh);
        assert!(e.contains("zzzz-nothing-like-it-zzzz"), "{e}");
    }
}
