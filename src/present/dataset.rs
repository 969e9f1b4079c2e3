//! Words for `--dataset`: what the folder scan found and what it set, in one language.

use crate::format;
use crate::i18n::{Lang, Msg, trf};
use crate::inputs::dataset::{
    DatasetScan, FileKind, HeaderField, MAX_DEPTH, MAX_ENTRIES, MAX_FILES, MAX_IMAGE_SIDE,
};

/// A file kind as it is named (format names, not translated).
fn kind(k: FileKind) -> &'static str {
    match k {
        FileKind::Jpeg => "JPEG",
        FileKind::Png => "PNG",
        FileKind::Webp => "WebP",
        FileKind::Tar => "tar",
        FileKind::Parquet => "Parquet",
        FileKind::Arrow => "Arrow",
        FileKind::Lmdb => "LMDB",
        FileKind::Hdf5 => "HDF5",
        FileKind::TfRecord => "TFRecord",
        FileKind::Numpy => "NumPy",
        FileKind::Other => "other",
    }
}

/// "dataset: /data/x: 1,000 files, 12,345,678 bytes (11.8 MiB; JPEG 1,000); 10 class folders;
/// images 256×256, the most common size among 512 headers read", then any notes (links
/// skipped, the file cap) and the typed flags that replaced scanned values.
pub fn scan_note(lang: Lang, s: &DatasetScan, overridden: &[&str]) -> String {
    let sep = match lang {
        Lang::En => ", ",
        Lang::Zh => "、",
    };
    let kinds = s
        .kinds
        .iter()
        .take(6)
        .map(|k| format!("{} {}", kind(k.kind), format::thousands(k.files)))
        .collect::<Vec<_>>()
        .join(sep);
    let mut parts = vec![trf(
        lang,
        Msg::DatasetFound,
        &[
            // A folder name is the folder owner's data: one line, clipped.
            (
                "path",
                &crate::sanitize::path(&s.root.display().to_string()),
            ),
            ("files", &format::thousands(s.files)),
            ("bytes", &format::thousands(s.bytes)),
            ("gib", &format::gib(s.bytes)),
            ("kinds", &kinds),
            ("classes", &s.class_folders.to_string()),
        ],
    )];
    if let Some((w, h)) = s.image_size {
        parts.push(trf(
            lang,
            Msg::DatasetImageSize,
            &[
                ("width", &w.to_string()),
                ("height", &h.to_string()),
                ("sampled", &s.sampled.to_string()),
            ],
        ));
    }
    if let Some(n) = s.tar_samples {
        parts.push(trf(
            lang,
            Msg::DatasetTarSamples,
            &[("samples", &format::thousands(n))],
        ));
    }
    for (n, msg) in [
        (s.links_skipped, Msg::DatasetLinksSkipped),
        (s.special_skipped, Msg::DatasetSpecialSkipped),
        (s.unreadable, Msg::DatasetUnreadable),
        (s.magic_mismatches, Msg::DatasetMagicMismatch),
    ] {
        if n > 0 {
            parts.push(trf(lang, msg, &[("count", &format::thousands(n))]));
        }
    }
    if s.capped {
        parts.push(trf(
            lang,
            Msg::DatasetCapped,
            &[("cap", &format::thousands(MAX_FILES))],
        ));
    }
    if s.entries_capped {
        parts.push(trf(
            lang,
            Msg::DatasetCappedEntries,
            &[("cap", &format::thousands(MAX_ENTRIES))],
        ));
    }
    if s.depth_capped {
        parts.push(trf(
            lang,
            Msg::DatasetCappedDepth,
            &[("depth", &MAX_DEPTH.to_string())],
        ));
    }
    for p in &s.header_problems {
        let field = match p.field {
            HeaderField::Width => Msg::DatasetFieldWidth,
            HeaderField::Height => Msg::DatasetFieldHeight,
        };
        parts.push(trf(
            lang,
            Msg::DatasetHeaderSkipped,
            &[
                ("file", &p.file),
                ("format", kind(p.format)),
                ("field", crate::i18n::tr(lang, field)),
                ("value", &format::thousands(p.value)),
                ("max", &format::thousands(u64::from(MAX_IMAGE_SIDE))),
            ],
        ));
    }
    let more = s
        .header_problems_total
        .saturating_sub(s.header_problems.len() as u64);
    if more > 0 {
        parts.push(trf(
            lang,
            Msg::DatasetHeaderSkippedMore,
            &[("count", &format::thousands(more))],
        ));
    }
    if !overridden.is_empty() {
        let flags: Vec<String> = overridden.iter().map(|f| format!("--{f}")).collect();
        parts.push(trf(
            lang,
            Msg::ModelOverridden,
            &[("flags", &flags.join(", "))],
        ));
    }
    let sep = match lang {
        Lang::En => "; ",
        Lang::Zh => "；",
    };
    parts.join(sep)
}
