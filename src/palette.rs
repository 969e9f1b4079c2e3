//! Colours with meaning, shared by the window and the PDF: severities and the ratio tiers.
//! Plain RGB so that neither view's colour type leaks into the other.

use crate::advisor::{Severity, Tier};

/// An sRGB colour.
pub type Rgb = (u8, u8, u8);

/// Severity colour: critical red, warning amber, info blue.
pub fn severity(s: Severity) -> Rgb {
    match s {
        Severity::Critical => (0xd1, 0x3b, 0x3b),
        Severity::Warning => (0xe0, 0x8e, 0x0b),
        Severity::Info => (0x3b, 0x82, 0xc4),
    }
}

/// Tier band colour: red, amber, light green, green.
pub fn tier(t: Tier) -> Rgb {
    match t {
        Tier::Insufficient => (0xd1, 0x3b, 0x3b),
        Tier::Baseline => (0xe8, 0xa3, 0x17),
        Tier::Offload => (0x8b, 0xc3, 0x4a),
        Tier::LargeModel => (0x2e, 0x9d, 0x4f),
    }
}

/// "Good" green (passes, fits).
pub const GOOD: Rgb = (0x2e, 0x9d, 0x4f);

/// Colours of the lines of a chart with several series (GPUs, memory kinds), in order: blue,
/// orange, green, purple, brown, pink, grey, olive (the "tab10" colours of matplotlib, which
/// students know from their own plots).
pub const SERIES: [Rgb; 8] = [
    (0x1f, 0x77, 0xb4),
    (0xff, 0x7f, 0x0e),
    (0x2c, 0xa0, 0x2c),
    (0x94, 0x67, 0xbd),
    (0x8c, 0x56, 0x4b),
    (0xe3, 0x77, 0xc2),
    (0x7f, 0x7f, 0x7f),
    (0xbc, 0xbd, 0x22),
];

/// The colour of series `i` (repeating after eight).
pub fn series(i: usize) -> Rgb {
    SERIES[i % SERIES.len()]
}
