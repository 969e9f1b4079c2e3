//! Fonts: egui's own Latin fonts first, then the bundled CJK subset, so Chinese renders on any
//! machine (a GPU server or a fresh install without CJK fonts) while Latin text keeps egui's
//! shapes (the CJK font's punctuation is full-width).

use std::sync::Arc;

use egui::{FontData, FontDefinitions, FontFamily};

pub use crate::assets::CJK_FONT;

/// Name of the bundled font in egui's font definitions.
pub const CJK_FONT_NAME: &str = "ramvram-cjk-sc";

/// egui's default fonts with the CJK font appended as a fallback to both families.
pub fn definitions() -> FontDefinitions {
    let mut fonts = FontDefinitions::default();
    fonts.font_data.insert(
        CJK_FONT_NAME.to_owned(),
        Arc::new(FontData::from_static(CJK_FONT)),
    );
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push(CJK_FONT_NAME.to_owned());
    }
    fonts
}

/// Installs [`definitions`] in a context.
pub fn install(ctx: &egui::Context) {
    ctx.set_fonts(definitions());
}
