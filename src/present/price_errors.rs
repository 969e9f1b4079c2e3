//! A price list that can't be used (`--prices FILE`, the window's "Open a price list…"), in the
//! user's language: the file, the line and the field ([`PriceFileError`]).

use crate::fsutil::IoProblem;
use crate::i18n::{Lang, Msg, trf};
use crate::inputs::prices::PriceFileError;

/// Why the price list `file` (as shown: [`crate::inputs::fleet::shown`]) was refused.
pub fn price_file(lang: Lang, file: &str, e: &PriceFileError) -> String {
    match e {
        PriceFileError::Read(io) => trf(
            lang,
            Msg::PriceErrorRead,
            &[
                ("file", file),
                (
                    "problem",
                    &super::errors::io_problem(lang, &IoProblem::of(io)),
                ),
            ],
        ),
        PriceFileError::NotText => trf(lang, Msg::PriceErrorNotText, &[("file", file)]),
        PriceFileError::Header { found } => trf(
            lang,
            Msg::PriceErrorHeader,
            &[("file", file), ("found", found)],
        ),
        PriceFileError::Fields { line, found } => trf(
            lang,
            Msg::PriceErrorFields,
            &[
                ("file", file),
                ("line", &line.to_string()),
                ("found", &found.to_string()),
            ],
        ),
        PriceFileError::Empty { line, field } => trf(
            lang,
            Msg::PriceErrorEmpty,
            &[
                ("file", file),
                ("line", &line.to_string()),
                ("field", field),
            ],
        ),
        PriceFileError::BadPrice { line, value } => trf(
            lang,
            Msg::PriceErrorBadPrice,
            &[
                ("file", file),
                ("line", &line.to_string()),
                ("value", value),
            ],
        ),
        PriceFileError::BadCurrency { line, value } => trf(
            lang,
            Msg::PriceErrorBadCurrency,
            &[
                ("file", file),
                ("line", &line.to_string()),
                ("value", value),
            ],
        ),
        PriceFileError::Duplicate { line, first, item } => trf(
            lang,
            Msg::PriceErrorDuplicate,
            &[
                ("file", file),
                ("line", &line.to_string()),
                ("first", &first.to_string()),
                ("item", item),
            ],
        ),
    }
}
