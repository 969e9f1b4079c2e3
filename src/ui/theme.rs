//! egui colours from the shared [`crate::palette`], and the window's style ([`install_style`]).

use egui::Color32;

use crate::advisor::standing::Standing;
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

/// Colour of a [`Standing`] the advisor judged: good green ([`palette::GOOD`]), a shortfall in
/// its severity's colour, or `unknown` (the caller's weak text colour) when it can't be judged.
pub fn standing(s: Standing, unknown: Color32) -> Color32 {
    match s {
        Standing::Good => c(palette::GOOD),
        Standing::Short(sev) => severity(sev),
        Standing::Unknown => unknown,
    }
}

/// "Good" green: fits, passes, written.
pub fn good() -> Color32 {
    c(palette::GOOD)
}

/// The window's style beyond egui's defaults: scroll bars take their own strip instead of
/// floating over the content, so that wrapped text (a recommendation's "then: …" line) never
/// runs under a bar.
pub fn install_style(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| style.spacing.scroll = egui::style::ScrollStyle::solid());
}
