//! Words for `--model`: where a model's figures came from (the catalogue, `config.json`, the
//! safetensors or GGUF headers) and why a model file was refused, in one language.

use crate::format;
use crate::fsutil::IoProblem;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::inputs::model_files::{Limit, ModelFileError, ModelFormat, ModelProblem, ModelRead};
use crate::parse::ValueError;

/// A byte count with thousands separators: "15,231,233,024".
fn count(n: u64) -> String {
    format::thousands(n)
}

/// A string read from a model file (a dtype, a tensor name, `model_type`, a file name), escaped
/// on one line and clipped ([`crate::sanitize::data`]): file contents must not forge a line.
fn shown(text: &str) -> String {
    crate::sanitize::data(text).into_owned()
}

/// "BF16 15,231,233,024, F32 1,024": bytes per element type, as the language joins lists.
fn mix(lang: Lang, by_dtype: &[(String, u64)]) -> String {
    let items: Vec<String> = by_dtype
        .iter()
        .take(6)
        .map(|(t, b)| format!("{} {}", shown(t), count(*b)))
        .collect();
    super::join(lang, &items)
}

/// Where each figure of a model read from disk came from: "model: from …/config.json
/// (qwen2): 28 layers, hidden 3,584 …; 7,615,616,512 parameters and 15.2 GiB of weights from
/// the headers of 4 safetensors files (BF16 15.2 GiB); largest tensor …".
pub fn read_note(lang: Lang, r: &ModelRead) -> String {
    let mut parts: Vec<String> = Vec::new();
    let path = crate::sanitize::path(&r.path.display().to_string()).into_owned();
    parts.push(trf(lang, Msg::ModelFromPath, &[("path", &path)]));
    if let Some(c) = &r.config {
        let shape = c.shape.as_ref().map_or_else(
            || tr(lang, Msg::ModelNoShape).to_string(),
            |s| {
                trf(
                    lang,
                    Msg::ModelShape,
                    &[
                        ("layers", &s.layers.to_string()),
                        ("hidden", &count(s.hidden)),
                        ("heads", &s.heads.to_string()),
                        ("kv_heads", &s.kv_heads.to_string()),
                        ("head_dim", &s.head_dim().to_string()),
                    ],
                )
            },
        );
        parts.push(trf(
            lang,
            Msg::ModelConfig,
            &[
                (
                    "file",
                    &crate::sanitize::path(&c.file.display().to_string()),
                ),
                ("model_type", &shown(&c.model_type)),
                ("shape", &shape),
            ],
        ));
    }
    if let Some(t) = &r.tensors {
        let kind = match r.format {
            ModelFormat::Gguf => "GGUF",
            _ => "safetensors",
        };
        parts.push(trf(
            lang,
            Msg::ModelTensors,
            &[
                ("params", &count(t.params)),
                ("bytes", &count(t.weight_bytes)),
                ("gib", &format::gib(t.weight_bytes)),
                ("files", &r.weight_files.len().to_string()),
                ("kind", kind),
                ("mix", &mix(lang, &t.by_dtype)),
            ],
        ));
    } else if let Some(p) = r.params() {
        parts.push(trf(
            lang,
            Msg::ModelParamsFromShape,
            &[("params", &count(p))],
        ));
    }
    if let Some(l) = &r.largest_tensor {
        parts.push(trf(
            lang,
            Msg::ModelLargest,
            &[("name", &shown(&l.name)), ("elements", &count(l.elements))],
        ));
    }
    if let Some(g) = &r.gguf {
        if let Some(max) = g.bytes_per_layer.iter().max() {
            parts.push(trf(
                lang,
                Msg::ModelGgufLayers,
                &[
                    ("layers", &g.bytes_per_layer.len().to_string()),
                    ("per_layer", &count(*max)),
                    ("other", &count(g.other_bytes)),
                ],
            ));
        }
    }
    if !r.pickle_files.is_empty() {
        let bytes = r.pickle_files.iter().map(|f| f.bytes).sum::<u64>();
        parts.push(trf(
            lang,
            Msg::ModelPickle,
            &[
                ("files", &r.pickle_files.len().to_string()),
                ("bytes", &format::gib(bytes)),
            ],
        ));
    }
    if let Some(n) = r.listing_cut {
        parts.push(trf(lang, Msg::ModelListingCut, &[("count", &count(n))]));
    }
    let sep = match lang {
        Lang::En => "; ",
        Lang::Zh => "；",
    };
    parts.join(sep)
}

/// The name of a capped length or count, as a message.
fn limit(l: Limit) -> ValueError {
    let msg = match l {
        Limit::HeaderLength => Msg::ModelLimitHeaderLength,
        Limit::StringLength => Msg::ModelLimitStringLength,
        Limit::ArrayLength => Msg::ModelLimitArrayLength,
        Limit::TensorCount => Msg::ModelLimitTensorCount,
        Limit::MetadataCount => Msg::ModelLimitMetadataCount,
        Limit::TensorDimensions => Msg::ModelLimitTensorDimensions,
        Limit::Shards => Msg::ModelLimitShards,
        Limit::HeaderBytes => Msg::ModelLimitHeaderBytes,
        Limit::Entries => Msg::ModelLimitEntries,
    };
    ValueError::new(msg, "")
}

/// Why the OS or ramvram's input checks refused a file, as a message.
pub(crate) fn io_reason(p: &IoProblem) -> ValueError {
    use crate::fsutil::InputProblem as I;
    let plain = |m| ValueError::new(m, "");
    match p {
        IoProblem::NotFound => plain(Msg::ErrorIoNotFound),
        IoProblem::PermissionDenied => plain(Msg::ErrorIoPermissionDenied),
        IoProblem::Input(I::Directory) => plain(Msg::ErrorInputDirectory),
        IoProblem::Input(I::Fifo) => plain(Msg::ErrorInputFifo),
        IoProblem::Input(I::CharDevice) => plain(Msg::ErrorInputCharDevice),
        IoProblem::Input(I::BlockDevice) => plain(Msg::ErrorInputBlockDevice),
        IoProblem::Input(I::Socket) => plain(Msg::ErrorInputSocket),
        IoProblem::Input(I::NotText) => plain(Msg::ErrorInputNotText),
        IoProblem::Input(I::Link) => plain(Msg::ErrorInputLink),
        IoProblem::Input(I::Changed) => plain(Msg::ErrorInputChanged),
        IoProblem::Input(I::TooLarge(cap)) => {
            ValueError::new(Msg::ErrorInputTooLarge, "").with("mib", (cap >> 20).to_string())
        }
        other => ValueError::new(Msg::ModelErrorIo, "").with("text", other.to_string()),
    }
}

/// A refused model file as a command-line value error: "`--model`: FILE: REASON".
pub fn value_error(e: &ModelFileError) -> ValueError {
    let file = crate::sanitize::path(&e.file.display().to_string()).into_owned();
    let reason = match &e.problem {
        ModelProblem::Io(p) => io_reason(p),
        ModelProblem::NoModel => ValueError::new(Msg::ModelErrorNoModel, ""),
        ModelProblem::Json { field, problem } => {
            let why = |lang| super::errors::parse_problem(lang, &shown(field), problem);
            ValueError::new(Msg::ModelErrorJson, "").with_worded(
                "why",
                why(Lang::En),
                why(Lang::Zh),
            )
        }
        ModelProblem::Field(field) => {
            ValueError::new(Msg::ModelErrorField, "").with("field", shown(field))
        }
        ModelProblem::TooLarge { what, value, cap } => ValueError::new(Msg::ModelErrorTooLarge, "")
            .with_reason(limit(*what))
            .with("found", count(*value))
            .with("cap", count(*cap)),
        ModelProblem::OutOfFile(name) => {
            ValueError::new(Msg::ModelErrorOutOfFile, "").with("name", shown(name))
        }
        ModelProblem::OutsideFolder(name) => {
            ValueError::new(Msg::ModelErrorOutsideFolder, "").with("name", shown(name))
        }
        ModelProblem::NotGguf => ValueError::new(Msg::ModelErrorNotGguf, ""),
        ModelProblem::Truncated => ValueError::new(Msg::ModelErrorTruncated, ""),
        ModelProblem::NotSafetensors => ValueError::new(Msg::ModelErrorNotSafetensors, ""),
        ModelProblem::UnknownDtype(name) => {
            let types: Vec<&str> = crate::inputs::model_files::SAFETENSORS_DTYPES
                .iter()
                .map(|(n, _)| *n)
                .collect();
            ValueError::new(Msg::ModelErrorUnknownDtype, "")
                .with("name", name.clone())
                .with("types", types.join(", "))
        }
        ModelProblem::Overlap(name) => {
            ValueError::new(Msg::ModelErrorOverlap, "").with("name", name.clone())
        }
        ModelProblem::Gap(name) => {
            ValueError::new(Msg::ModelErrorGap, "").with("name", name.clone())
        }
        ModelProblem::Uncovered { end, data } => ValueError::new(Msg::ModelErrorUncovered, "")
            .with("end", count(*end))
            .with("data", count(*data)),
        ModelProblem::OutOfRange {
            field,
            found,
            min,
            max,
        } => ValueError::new(Msg::ModelErrorOutOfRange, "")
            .with("field", field.clone())
            .with("found", count(*found))
            .with("min", count(*min))
            .with("max", count(*max)),
        ModelProblem::Params { field, found, max } => ValueError::new(Msg::ModelErrorParams, "")
            .with("field", field.clone())
            .with("found", count(*found))
            .with("max", count(*max)),
    };
    ValueError::new(Msg::ModelErrorInFile, &file).with_reason(reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::model_files::{ModelFormat, ModelRead, WeightFile};

    /// A listing that stopped says so, in both languages, with the entries it looked at.
    #[test]
    fn a_cut_listing_says_so() {
        let r = ModelRead {
            path: "m".into(),
            format: ModelFormat::HfFolder,
            config: None,
            tensors: None,
            largest_tensor: None,
            weight_files: Vec::new(),
            pickle_files: vec![WeightFile {
                file: "m/pytorch_model.bin".into(),
                bytes: 7,
            }],
            gguf: None,
            listing_cut: Some(1_000_000),
        };
        assert!(read_note(Lang::En, &r).contains("only up to 1,000,000 entries"));
        assert!(read_note(Lang::Zh, &r).contains("前 1,000,000 个条目"));
        let whole = ModelRead {
            listing_cut: None,
            ..r
        };
        assert!(!read_note(Lang::En, &whole).contains("entries"));
    }

    /// The refusals of issue 37 name the tensor or field, never a flag.
    #[test]
    fn layout_and_range_refusals_name_the_tensor_and_field() {
        let e = |p| ModelFileError {
            file: "m.safetensors".into(),
            problem: p,
        };
        let text = value_error(&e(ModelProblem::Overlap("b".into()))).text(Lang::En);
        assert!(
            text.contains("m.safetensors") && text.contains("`b`"),
            "{text}"
        );
        assert!(text.contains("overlap"), "{text}");
        let text = value_error(&e(ModelProblem::UnknownDtype("a".into()))).text(Lang::Zh);
        assert!(text.contains("BF16") && text.contains("元素类型"), "{text}");
        let text = value_error(&e(ModelProblem::Uncovered { end: 8, data: 24 })).text(Lang::En);
        assert!(
            text.contains("byte 8") && text.contains("24 bytes"),
            "{text}"
        );
    }
}
