//! egui colours from the shared [`crate::palette`].

use egui::Color32;

use crate::advisor::{Severity, Tier};
use crate::palette::{self, Rgb};

fn c((r, g, b): Rgb) -> Color32 {
    Color32::from_rgb(r, g, b)
}

/// Colour of a severity.
pub fn severity(s: Severity) -> Color32 {
    c(palette::severity(s))
}

/// Colour of a tier band.
pub fn tier(t: Tier) -> Color32 {
    c(palette::tier(t))
}
