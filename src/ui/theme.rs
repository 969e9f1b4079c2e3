//! Colours with meaning: severities and the ratio tiers.

use egui::Color32;

use crate::advisor::{Severity, Tier};

/// Colour of a severity: red, amber, blue.
pub fn severity(s: Severity) -> Color32 {
    match s {
        Severity::Critical => Color32::from_rgb(0xd1, 0x3b, 0x3b),
        Severity::Warning => Color32::from_rgb(0xe0, 0x8e, 0x0b),
        Severity::Info => Color32::from_rgb(0x3b, 0x82, 0xc4),
    }
}

/// Colour of a tier band: red, amber, light green, green.
pub fn tier(t: Tier) -> Color32 {
    match t {
        Tier::Insufficient => Color32::from_rgb(0xd1, 0x3b, 0x3b),
        Tier::Baseline => Color32::from_rgb(0xe8, 0xa3, 0x17),
        Tier::Offload => Color32::from_rgb(0x8b, 0xc3, 0x4a),
        Tier::LargeModel => Color32::from_rgb(0x2e, 0x9d, 0x4f),
    }
}
