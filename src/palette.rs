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
