//! egui colours from the shared [`crate::palette`], and the window's style ([`install_style`]).

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

/// The window's style beyond egui's defaults: scroll bars take their own strip instead of
/// floating over the content, so that wrapped text (a recommendation's "then: …" line) never
/// runs under a bar.
pub fn install_style(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| style.spacing.scroll = egui::style::ScrollStyle::solid());
}
