//! The lab's price list (`--prices FILE`): CSV with the header `item,price,currency`, one item
//! per line, named as the purchase lines name them (`32 GB DDR4-3200 UDIMM`, `g5.2xlarge`). A
//! module's price is per module; an instance's per hour. A line whose price is empty is left
//! unpriced (a template half filled in). Read with a size cap; every refusal names the line and
//! the field ([`PriceFileError`]), and nothing panics on hostile input. Also the template
//! (`--prices-template FILE`): the items a report would price, with an empty price column.

use std::path::Path;

use crate::advisor::buying::lab::{Amount, Item, Price, PriceList, PriceSource};

/// The most a price file may hold, bytes (a lab's list is a few hundred lines).
pub const MAX_PRICE_FILE_BYTES: u64 = 1 << 20;

/// The header a price file starts with.
pub const HEADER: [&str; 3] = ["item", "price", "currency"];

/// The largest price taken, in units of the currency (ten-thousandths kept exactly below it).
pub const MAX_PRICE_UNITS: u64 = 1_000_000_000_000;

/// Why a price file was refused. Lines count from 1 (the header is line 1).
#[derive(Debug)]
pub enum PriceFileError {
    /// It could not be read (missing, unreadable, larger than [`MAX_PRICE_FILE_BYTES`]).
    Read(std::io::Error),
    /// It is not UTF-8 text.
    NotText,
    /// The first line is not `item,price,currency` (what it is instead, on one line).
    Header {
        /// The first line as read.
        found: String,
    },
    /// A line has another number of fields than three.
    Fields {
        /// The line.
        line: u64,
        /// Fields found.
        found: usize,
    },
    /// A field that must be filled is empty (`item`, or `currency` beside a price).
    Empty {
        /// The line.
        line: u64,
        /// The field's name.
        field: &'static str,
    },
    /// The price isn't a number ≥ 0 with at most four decimals below [`MAX_PRICE_UNITS`].
    BadPrice {
        /// The line.
        line: u64,
        /// The value as written (on one line).
        value: String,
    },
    /// The currency isn't 1–8 letters (`USD`, `CNY`, `RMB`).
    BadCurrency {
        /// The line.
        line: u64,
        /// The value as written (on one line).
        value: String,
    },
    /// The same item is priced twice.
    Duplicate {
        /// The second line.
        line: u64,
        /// The first.
        first: u64,
        /// The item (on one line).
        item: String,
    },
}

/// A price as written: digits, optionally a point and up to four decimals; `None` otherwise
/// (a sign, an exponent, a thousands separator, too many decimals, too large).
pub fn parse_amount(text: &str) -> Option<Amount> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(frac) || frac.len() > 4 || whole.len() > 13 {
        return None;
    }
    let units: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    if units >= MAX_PRICE_UNITS {
        return None;
    }
    let mut frac_e4: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    for _ in frac.len()..4 {
        frac_e4 *= 10;
    }
    Some(Amount(units * Amount::SCALE + frac_e4))
}

fn one_line(s: &str) -> String {
    crate::sanitize::one_line(s).into_owned()
}

/// Reads the price list in `text` (the file's contents; `file` names it in each price's
/// source).
///
/// # Errors
/// [`PriceFileError`], naming the line and the field.
pub fn parse(file: &str, text: &str) -> Result<PriceList, PriceFileError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut prices: Vec<(u64, Price)> = Vec::new();
    let mut header_seen = false;
    for (i, record) in reader.records().enumerate() {
        let line = record
            .as_ref()
            .ok()
            .and_then(|r| r.position())
            .map_or(i as u64 + 1, |p| p.line());
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(line, |p| p.line());
                return Err(match e.kind() {
                    csv::ErrorKind::Utf8 { .. } => PriceFileError::NotText,
                    _ => PriceFileError::Fields { line, found: 0 },
                });
            }
        };
        if !header_seen {
            header_seen = true;
            let cells: Vec<String> = record.iter().map(|c| c.trim().to_lowercase()).collect();
            if cells != HEADER {
                let found = one_line(&record.iter().collect::<Vec<_>>().join(","));
                return Err(PriceFileError::Header { found });
            }
            continue;
        }
        // A blank line (one empty field) is skipped.
        if record.len() == 1 && record[0].trim().is_empty() {
            continue;
        }
        if record.len() != 3 {
            return Err(PriceFileError::Fields {
                line,
                found: record.len(),
            });
        }
        let (item, price, currency) = (record[0].trim(), record[1].trim(), record[2].trim());
        if item.is_empty() {
            return Err(PriceFileError::Empty {
                line,
                field: "item",
            });
        }
        if let Some((first, _)) = prices
            .iter()
            .find(|(_, p)| p.item.eq_ignore_ascii_case(item))
        {
            return Err(PriceFileError::Duplicate {
                line,
                first: *first,
                item: one_line(item),
            });
        }
        if price.is_empty() {
            continue;
        }
        let Some(amount) = parse_amount(price) else {
            return Err(PriceFileError::BadPrice {
                line,
                value: one_line(price),
            });
        };
        if currency.is_empty() {
            return Err(PriceFileError::Empty {
                line,
                field: "currency",
            });
        }
        if currency.len() > 8 || !currency.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(PriceFileError::BadCurrency {
                line,
                value: one_line(currency),
            });
        }
        prices.push((
            line,
            Price {
                item: item.to_string(),
                amount,
                currency: currency.to_ascii_uppercase(),
                source: PriceSource::File {
                    file: file.to_string(),
                    line,
                },
            },
        ));
    }
    if !header_seen {
        return Err(PriceFileError::Header {
            found: String::new(),
        });
    }
    Ok(PriceList {
        prices: prices.into_iter().map(|(_, p)| p).collect(),
        typical: false,
    })
}

/// Reads the price file at `path` (at most [`MAX_PRICE_FILE_BYTES`]).
///
/// # Errors
/// [`PriceFileError`].
pub fn read(path: &Path) -> Result<PriceList, PriceFileError> {
    let bytes =
        crate::fsutil::read_input(path, MAX_PRICE_FILE_BYTES).map_err(PriceFileError::Read)?;
    let text = String::from_utf8(bytes).map_err(|_| PriceFileError::NotText)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    parse(&crate::inputs::fleet::shown(path), text).map(crate::advisor::buying::lab::with_typical)
}

/// The template for `items`: the header, then each item with an empty price and currency.
pub fn template(items: &[Item]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let mut rows: Vec<[&str; 3]> = vec![HEADER];
    rows.extend(items.iter().map(|i| [i.name.as_str(), "", ""]));
    for r in rows {
        // Writing to a Vec can't fail.
        let _ = w.write_record(r);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_exact_to_four_decimals_and_refuse_the_rest() {
        assert_eq!(parse_amount("1.212"), Some(Amount(12_120)));
        assert_eq!(parse_amount(" 129.99 "), Some(Amount(1_299_900)));
        assert_eq!(parse_amount("80"), Some(Amount(800_000)));
        assert_eq!(parse_amount(".5"), Some(Amount(5_000)));
        assert_eq!(parse_amount("0.0816"), Some(Amount(816)));
        for bad in [
            "",
            ".",
            "-1",
            "1e3",
            "1,000",
            "1.23456",
            "$5",
            "NaN",
            "99999999999999",
        ] {
            assert_eq!(parse_amount(bad), None, "{bad}");
        }
    }
}
