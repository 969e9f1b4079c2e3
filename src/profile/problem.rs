//! What is wrong with a value that parses but cannot be right, as data: an id with the numbers
//! involved. The words are in the locale files (`problem.*`), put together by
//! `present::errors`, so a Chinese user reads a Chinese message.

use serde::{Deserialize, Serialize};

/// A value that can't be right. Numbers are kept as written (`"300"`, `"1e308"`), so the message
/// shows exactly what the file or flag said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "id", rename_all = "kebab-case")]
pub enum Problem {
    /// 0 where a positive number is expected (`null` means unknown).
    Zero,
    /// Outside the range the model handles, `lo` to `hi` inclusive.
    OutOfRange {
        /// The value given.
        value: String,
        /// Smallest allowed value.
        lo: String,
        /// Largest allowed value.
        hi: String,
    },
    /// Larger than any machine has (a typo or overflowed arithmetic).
    TooLarge {
        /// The value given.
        value: String,
        /// The largest value accepted.
        max: String,
    },
    /// Larger than another field it can't exceed (swap used > swap total).
    LargerThanField {
        /// The value given.
        value: String,
        /// The other field's JSON path.
        other: String,
        /// The other field's value.
        other_value: String,
    },
    /// A text longer than `max` (characters for a host name, bytes for other text).
    TooLong {
        /// Most accepted.
        max: usize,
    },
    /// A list with more entries than ramvram accepts.
    TooMany {
        /// Entries given.
        count: usize,
        /// Most accepted.
        max: usize,
    },
    /// Not a finite number above 0 and at most `hi`.
    AboveZeroAtMost {
        /// The value given.
        value: String,
        /// The largest value accepted.
        hi: String,
    },
    /// Not a finite number above 0.
    NotPositive {
        /// The value given.
        value: String,
    },
    /// `schema_version` 0: every version starts at 1.
    SchemaVersion,
    /// Image width and height: both set, or both 0 for non-image data.
    WidthHeightPair,
    /// Non-image data (width 0) needs the bytes of one sample.
    NeedsSampleBytes,
}

impl Problem {
    /// [`Problem::OutOfRange`] from any displayable numbers.
    pub fn out_of_range(value: impl ToString, lo: impl ToString, hi: impl ToString) -> Problem {
        Problem::OutOfRange {
            value: value.to_string(),
            lo: lo.to_string(),
            hi: hi.to_string(),
        }
    }
}
