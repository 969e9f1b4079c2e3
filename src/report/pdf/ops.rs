//! The page's geometry and colours, and the drawing operations [`super::page`] lays out and
//! [`super::render`] draws.

use super::layout;
use crate::palette::Rgb;

/// A4 in points.
pub(super) const PAGE_W: f32 = 595.28;
pub(super) const PAGE_H: f32 = 841.89;
pub(super) const MARGIN: f32 = 50.0;
pub(super) const TOP: f32 = 54.0;
pub(super) const BOTTOM: f32 = PAGE_H - 58.0;
pub(super) const CONTENT_W: f32 = PAGE_W - 2.0 * MARGIN;

pub(super) const INK: Rgb = (0x1f, 0x29, 0x37);
pub(super) const GREY: Rgb = (0x6b, 0x72, 0x80);
pub(super) const RULE: Rgb = (0xd1, 0xd5, 0xdb);
pub(super) const SHADE: Rgb = (0xf3, 0xf4, 0xf6);

/// Padding inside table cells, points.
pub(super) const CELL_PAD: f32 = 3.0;
/// Line height as a multiple of the font size.
pub(super) const LEADING: f32 = 1.45;
/// Baseline below the top of a line, as a multiple of the font size (Noto CJK's ascender 0.88
/// of the em, centred in the leading; Noto Sans shares the baseline).
pub(super) const BASELINE: f32 = 1.1;

/// One drawing operation, in page coordinates (points, origin top left).
#[derive(Clone, Debug)]
pub(super) enum Op {
    /// One line of text; [`layout::Measure::runs_in`] picks the font of each run when drawn.
    Text {
        x: f32,
        y: f32,
        size: f32,
        line: layout::Line,
        color: Rgb,
    },
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        color: Rgb,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        color: Rgb,
    },
    Svg {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        svg: String,
    },
}
