//! Report charts as SVG, drawn with plotters' SVG backend (text measured with ab_glyph on the
//! bundled fonts) and later placed in the PDF as vectors by krilla-svg. A label is set in the
//! Latin font, or in the CJK font when it holds Chinese ([`font`]). The lab chart is in
//! [`super::fleet_chart`].

use std::sync::OnceLock;

use plotters::prelude::*;
use plotters::style::text_anchor;
use plotters::style::{FontStyle, register_font};

use crate::advisor::Tier;
use crate::assets::{CJK_FONT, CJK_FONT_FAMILY, LATIN_FONT, LATIN_FONT_FAMILY};
use crate::chart::nice_step;
use crate::format;
use crate::palette;

/// Chart width and height, SVG units (= PDF points when placed 1:1).
pub type ChartSize = (u32, u32);

/// Registers the bundled fonts with plotters (once per process).
pub(super) fn font_registered() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        // Without this, plotters measures text with the wrong widths.
        let _ = register_font(CJK_FONT_FAMILY, FontStyle::Normal, CJK_FONT);
        let _ = register_font(LATIN_FONT_FAMILY, FontStyle::Normal, LATIN_FONT);
    });
}

pub(super) fn rgb((r, g, b): palette::Rgb) -> RGBColor {
    RGBColor(r, g, b)
}

/// Holds a character only the CJK font has (ideographs, CJK and full-width punctuation).
pub(super) fn has_cjk(text: &str) -> bool {
    text.chars().any(|c| matches!(c as u32, 0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x2FFFF))
}

/// The bundled family that sets `text`: Chinese labels in the CJK font, the rest in the Latin
/// font (whose "×" and "≥" are not full-width).
pub(super) fn family(text: &str) -> &'static str {
    if has_cjk(text) {
        CJK_FONT_FAMILY
    } else {
        LATIN_FONT_FAMILY
    }
}

/// The text style for `text` at `size`.
pub(super) fn font(text: &str, size: f64) -> TextStyle<'static> {
    (family(text), size).into_font().color(&BLACK)
}

/// The RAM:VRAM gauge: tier bands on 0–3.5×, ticks every 0.5×, this machine's ratio marked.
pub fn ratio_gauge(ratio: f64, tier_labels: &[String; 4], size: ChartSize) -> String {
    font_registered();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let (w, _) = size;
        let (left, right) = (10i32, w as i32 - 10);
        let (top, bottom) = (30i32, 52i32);
        const MAX: f64 = crate::present::GAUGE_MAX_RATIO;
        let x =
            |v: f64| left + ((v.clamp(0.0, MAX) / MAX) * f64::from(right - left)).round() as i32;
        let edges = [0.0, Tier::BOUNDS[0], Tier::BOUNDS[1], Tier::BOUNDS[2], MAX];
        for (i, t) in Tier::ALL.iter().enumerate() {
            let band = Rectangle::new(
                [(x(edges[i]), top), (x(edges[i + 1]), bottom)],
                rgb(palette::tier(*t)).filled(),
            );
            let _ = root.draw(&band);
        }
        let _ = root.draw(&Rectangle::new(
            [(left, top), (right, bottom)],
            BLACK.stroke_width(1),
        ));
        let mut tick = 0.0;
        while tick <= MAX + 1e-9 {
            let tx = x(tick);
            let _ = root.draw(&PathElement::new(
                vec![(tx, bottom), (tx, bottom + 4)],
                BLACK,
            ));
            let label = format!("{tick}×");
            let style = font(&label, 9.0).pos(text_anchor::Pos::new(
                text_anchor::HPos::Center,
                text_anchor::VPos::Top,
            ));
            let _ = root.draw(&Text::new(label, (tx, bottom + 6), style));
            tick += 0.5;
        }
        let mx = x(ratio);
        let _ = root.draw(&PathElement::new(
            vec![(mx, top - 4), (mx, bottom + 3)],
            BLACK.stroke_width(3),
        ));
        let _ = root.draw(&Polygon::new(
            vec![(mx - 6, top - 13), (mx + 6, top - 13), (mx, top - 4)],
            BLACK.filled(),
        ));
        let hpos = if mx > right - 40 {
            text_anchor::HPos::Right
        } else if mx < left + 40 {
            text_anchor::HPos::Left
        } else {
            text_anchor::HPos::Center
        };
        let value = if ratio > MAX {
            format!("{} →", format::ratio(ratio))
        } else {
            format::ratio(ratio)
        };
        let style = font(&value, 12.0).pos(text_anchor::Pos::new(hpos, text_anchor::VPos::Bottom));
        let _ = root.draw(&Text::new(value, (mx, top - 14), style));
        // Legend: one swatch and name per tier.
        let legend_y = bottom + 22;
        let slot = (right - left) / 4;
        for (i, t) in Tier::ALL.iter().enumerate() {
            let lx = left + slot * i as i32;
            let _ = root.draw(&Rectangle::new(
                [(lx, legend_y), (lx + 8, legend_y + 8)],
                rgb(palette::tier(*t)).filled(),
            ));
            let style = font(&tier_labels[i], 8.0).pos(text_anchor::Pos::new(
                text_anchor::HPos::Left,
                text_anchor::VPos::Top,
            ));
            let _ = root.draw(&Text::new(
                tier_labels[i].clone(),
                (lx + 11, legend_y - 1),
                style,
            ));
        }
        let _ = root.present();
    }
    svg
}

/// Horizontal bars: RAM each rule requires, with a dashed line at this machine's RAM.
pub fn rules_bars(
    rules: &[(String, f64)],
    actual: f64,
    actual_label: &str,
    axis: &str,
    size: ChartSize,
) -> String {
    font_registered();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let (w, h) = (size.0 as i32, size.1 as i32);
        let label_w = 150i32;
        let (left, right) = (label_w + 6, w - 12);
        let (top, bottom) = (18i32, h - 34);
        let max = rules.iter().map(|r| r.1).fold(actual, f64::max) * 1.08;
        let x = |v: f64| left + ((v / max) * f64::from(right - left)).round() as i32;
        let row = f64::from(bottom - top) / rules.len().max(1) as f64;
        for (i, (name, req)) in rules.iter().enumerate() {
            let y0 = top + (row * i as f64 + row * 0.18).round() as i32;
            let y1 = top + (row * (i + 1) as f64 - row * 0.18).round() as i32;
            let colour = if actual >= *req {
                rgb(palette::GOOD)
            } else {
                rgb(palette::severity(crate::advisor::Severity::Critical))
            };
            let _ = root.draw(&Rectangle::new(
                [(left, y0), (x(*req), y1)],
                colour.mix(0.85).filled(),
            ));
            let style = font(name, 8.5).pos(text_anchor::Pos::new(
                text_anchor::HPos::Right,
                text_anchor::VPos::Center,
            ));
            let _ = root.draw(&Text::new(name.clone(), (left - 6, (y0 + y1) / 2), style));
            let style = font("0", 8.0).pos(text_anchor::Pos::new(
                text_anchor::HPos::Left,
                text_anchor::VPos::Center,
            ));
            let _ = root.draw(&Text::new(
                format!("{req:.0}"),
                (x(*req) + 3, (y0 + y1) / 2),
                style,
            ));
        }
        // Axis with ticks at "nice" steps.
        let _ = root.draw(&PathElement::new(
            vec![(left, bottom), (right, bottom)],
            BLACK,
        ));
        let step = nice_step(max / 5.0);
        let mut t = 0.0;
        while t <= max {
            let _ = root.draw(&PathElement::new(
                vec![(x(t), bottom), (x(t), bottom + 4)],
                BLACK,
            ));
            let style = font("0", 8.0).pos(text_anchor::Pos::new(
                text_anchor::HPos::Center,
                text_anchor::VPos::Top,
            ));
            let _ = root.draw(&Text::new(format!("{t:.0}"), (x(t), bottom + 6), style));
            t += step;
        }
        let style = font(axis, 8.5).pos(text_anchor::Pos::new(
            text_anchor::HPos::Center,
            text_anchor::VPos::Top,
        ));
        let _ = root.draw(&Text::new(
            axis.to_string(),
            ((left + right) / 2, bottom + 19),
            style,
        ));
        // This machine: a dashed vertical line.
        let ax = x(actual);
        let mut y = top;
        while y < bottom {
            let _ = root.draw(&PathElement::new(
                vec![(ax, y), (ax, (y + 5).min(bottom))],
                BLACK.stroke_width(2),
            ));
            y += 9;
        }
        let style = font(actual_label, 8.5).pos(text_anchor::Pos::new(
            text_anchor::HPos::Left,
            text_anchor::VPos::Bottom,
        ));
        let _ = root.draw(&Text::new(
            actual_label.to_string(),
            (ax + 4, top - 3),
            style,
        ));
        let _ = root.present();
    }
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(7.3), 10.0);
        assert_eq!(nice_step(13.0), 20.0);
        assert_eq!(nice_step(0.4), 0.5);
        assert_eq!(nice_step(0.0), 1.0);
    }

    #[test]
    fn gauge_svg_sets_latin_labels_in_the_latin_font_and_chinese_in_the_cjk_font() {
        let labels = ["a".to_string(), "b".into(), "c".into(), "低于 1 倍".into()];
        let svg = ratio_gauge(0.67, &labels, (480, 90));
        let text_with = |needle: &str| {
            svg.split("<text")
                .find(|t| t.contains(needle))
                .unwrap_or_else(|| panic!("{needle} missing"))
                .to_string()
        };
        assert!(text_with("0.67×").contains(LATIN_FONT_FAMILY));
        assert!(text_with("低于 1 倍").contains(CJK_FONT_FAMILY));
    }
}
