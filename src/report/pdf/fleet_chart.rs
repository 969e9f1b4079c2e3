//! The lab chart for the PDF: usable RAM against total VRAM, one point per machine, with the
//! lines RAM = 1×, 1.5× and 2× VRAM. Axes, ticks and name placement come from
//! [`crate::chart`], so the PDF shows what the window shows: log axes when the lab spans orders
//! of magnitude, every name beside its point and none over another, axis titles clear of the
//! tick labels.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::charts::{ChartSize, family, font, font_registered, has_cjk, rgb};
use super::layout::{Face, Measure};
use crate::advisor::Tier;
use crate::advisor::standing::TIER_LINES;
use crate::chart::{self, Axis, Box2};
use crate::palette;
use crate::present::document::FleetPoint;

/// Size of the machines' names, points.
const NAME_SIZE: f32 = 7.5;
/// Size of the tier lines' labels, points.
const LINE_LABEL_SIZE: f32 = 8.5;
/// Radius of a machine's point.
const RADIUS: f32 = 3.5;

/// Width of `text` as plotters sets it: the whole label in one family ([`family`]).
fn label_width(m: &Measure, text: &str, size: f32) -> f32 {
    let face = if has_cjk(text) {
        Face::Cjk
    } else {
        Face::Latin
    };
    m.face_width(face, text, size)
}

fn anchored(text: &str, size: f32, h: HPos, v: VPos) -> TextStyle<'static> {
    font(text, f64::from(size)).pos(Pos::new(h, v))
}

/// The chart as SVG, in `lang` (machines at one point share a label, their names joined as
/// `lang` joins a list). `[x_label, y_label]` are the axis titles; `line_labels` name the lines
/// RAM = 1×, 1.5× and 2× VRAM (in a legend above the plot; each line also has a short tag
/// where it leaves the plot).
pub fn fleet_scatter(
    lang: crate::i18n::Lang,
    points: &[FleetPoint],
    [x_label, y_label]: [&str; 2],
    line_labels: &[String; 3],
    size: ChartSize,
) -> String {
    font_registered();
    let m = Measure::new();
    let data: Vec<(f64, f64)> = points.iter().map(|p| (p.vram_gib, p.ram_gib)).collect();
    let (ax, ay) = chart::fleet_axes(&data);
    let (w, h) = (size.0 as f32, size.1 as f32);
    // Plot area: room above for the lines' legend and the tags of lines leaving at the top, on
    // the left for tick labels and the turned y title, on the right for tags of lines leaving
    // there, below for the tick row and, under it, the x title.
    let (left, right, top, bottom) = (52.0f32, w - 26.0, 32.0f32, h - 38.0);
    let px = |v: f64| left + (ax.unit(v) as f32) * (right - left);
    let py = |v: f64| bottom - (ay.unit(v) as f32) * (bottom - top);
    let ip = |v: f32| v.round() as i32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let grid = |major: bool| {
            if major {
                RGBColor(0xcf, 0xd3, 0xd9)
            } else {
                RGBColor(0xec, 0xee, 0xf1)
            }
        };
        for (v, major) in ax.ticks() {
            let x = ip(px(v));
            let _ = root.draw(&PathElement::new(
                vec![(x, ip(top)), (x, ip(bottom))],
                grid(major),
            ));
            let label = chart::tick_label(v);
            let style = anchored(&label, 8.0, HPos::Center, VPos::Top);
            let _ = root.draw(&Text::new(label, (x, ip(bottom) + 4), style));
        }
        for (v, major) in ay.ticks() {
            let y = ip(py(v));
            let _ = root.draw(&PathElement::new(
                vec![(ip(left), y), (ip(right), y)],
                grid(major),
            ));
            let label = chart::tick_label(v);
            let style = anchored(&label, 8.0, HPos::Right, VPos::Center);
            let _ = root.draw(&Text::new(label, (ip(left) - 4, y), style));
        }
        let _ = root.draw(&Rectangle::new(
            [(ip(left), ip(top)), (ip(right), ip(bottom))],
            RGBColor(0x9c, 0xa3, 0xaf).stroke_width(1),
        ));
        let style = anchored(x_label, 9.0, HPos::Center, VPos::Top);
        let _ = root.draw(&Text::new(
            x_label.to_string(),
            (ip((left + right) / 2.0), ip(bottom) + 20),
            style,
        ));
        let style = font(y_label, 9.0)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top));
        let _ = root.draw(&Text::new(
            y_label.to_string(),
            (4, ip((top + bottom) / 2.0)),
            style,
        ));
        tier_lines(&root, &m, (&ax, &ay), line_labels, (&px, &py), (left, 8.0));
        let inside = Box2 {
            x0: left + 2.0,
            y0: top + 2.0,
            x1: right - 2.0,
            y1: bottom - 2.0,
        };
        machines(&root, &m, lang, points, (&px, &py), inside);
        let _ = root.present();
    }
    svg
}

type Root<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Project<'f> = (&'f dyn Fn(f64) -> f32, &'f dyn Fn(f64) -> f32);

/// The lines RAM = k × VRAM: factor, tag at the line's end, tier for the colour.
/// The factors and tiers are the advisor's ([`TIER_LINES`]), as the window's chart draws them.
const LINES: [(f64, &str, Tier); 3] = [
    (TIER_LINES[0].0, "1×", TIER_LINES[0].1),
    (TIER_LINES[1].0, "1.5×", TIER_LINES[1].1),
    (TIER_LINES[2].0, "2×", TIER_LINES[2].1),
];

/// Draws the lines RAM = k × VRAM across the plot, a legend naming them above the plot
/// (`legend_y`), and a short tag ("1.5×") where each line leaves the plot, outside its border.
fn tier_lines(
    root: &Root<'_>,
    m: &Measure,
    (ax, ay): (&Axis, &Axis),
    labels: &[String; 3],
    (px, py): Project<'_>,
    (left, legend_y): (f32, f32),
) {
    let mut legend_x = left;
    // Tags on the right border (y) and on the top border (x), nudged apart below.
    let mut right_tags: Vec<(f32, &str, RGBColor)> = Vec::new();
    let mut top_tags: Vec<(f32, &str, RGBColor)> = Vec::new();
    for ((k, tag, tier), label) in LINES.into_iter().zip(labels) {
        let colour = rgb(palette::tier(tier));
        // Legend: a short stroke of the line's colour and its name.
        let y = legend_y.round() as i32;
        let x = legend_x.round() as i32;
        let _ = root.draw(&PathElement::new(
            vec![(x, y), (x + 16, y)],
            colour.stroke_width(2),
        ));
        let style = anchored(label, LINE_LABEL_SIZE, HPos::Left, VPos::Center);
        let _ = root.draw(&Text::new(label.clone(), (x + 20, y), style));
        legend_x += 20.0 + label_width(m, label, LINE_LABEL_SIZE) + 16.0;
        // The segment of y = k·x inside the plot.
        let x0 = ax.lo.max(ay.lo / k);
        let x1 = ax.hi.min(ay.hi / k);
        if x1.partial_cmp(&x0) != Some(std::cmp::Ordering::Greater) {
            continue;
        }
        let (sx0, sy0, sx1, sy1) = (px(x0), py(k * x0), px(x1), py(k * x1));
        let _ = root.draw(&PathElement::new(
            vec![
                (sx0.round() as i32, sy0.round() as i32),
                (sx1.round() as i32, sy1.round() as i32),
            ],
            colour.stroke_width(1),
        ));
        if x1 >= ax.hi {
            right_tags.push((sy1, tag, colour));
        } else {
            top_tags.push((sx1, tag, colour));
        }
    }
    let (right, top) = (px(ax.hi), py(ay.hi));
    right_tags.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut last = f32::NEG_INFINITY;
    for (y, tag, colour) in right_tags {
        let y = y.max(last + LINE_LABEL_SIZE * 1.2);
        last = y;
        let style = (family(tag), f64::from(LINE_LABEL_SIZE))
            .into_font()
            .color(&colour)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let _ = root.draw(&Text::new(
            tag.to_string(),
            ((right + 3.0).round() as i32, y.round() as i32),
            style,
        ));
    }
    top_tags.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut last = f32::NEG_INFINITY;
    for (x, tag, colour) in top_tags {
        let w = label_width(m, tag, LINE_LABEL_SIZE);
        let x = x.max(last + w / 2.0 + 4.0);
        last = x + w / 2.0;
        let style = (family(tag), f64::from(LINE_LABEL_SIZE))
            .into_font()
            .color(&colour)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        let _ = root.draw(&Text::new(
            tag.to_string(),
            (x.round() as i32, (top - 2.0).round() as i32),
            style,
        ));
    }
}

/// Draws each machine's point and, where there is room, its name (machines at the same point
/// share one label).
fn machines(
    root: &Root<'_>,
    m: &Measure,
    lang: crate::i18n::Lang,
    points: &[FleetPoint],
    (px, py): Project<'_>,
    bounds: Box2,
) {
    let data: Vec<(f64, f64)> = points.iter().map(|p| (p.vram_gib, p.ram_gib)).collect();
    let groups = chart::group_same_points(&data);
    let screen: Vec<[f32; 2]> = groups.iter().map(|((x, y), _)| [px(*x), py(*y)]).collect();
    let names: Vec<String> = groups
        .iter()
        .map(|(_, idx)| {
            let labels: Vec<&str> = idx.iter().map(|i| points[*i].label.as_str()).collect();
            crate::present::fleet::same_point(lang, &labels)
        })
        .collect();
    for (((_, idx), p), _) in groups.iter().zip(&screen).zip(&names) {
        let colour = points[idx[0]]
            .tier
            .map_or(RGBColor(0x88, 0x88, 0x88), |t| rgb(palette::tier(t)));
        let c = (p[0].round() as i32, p[1].round() as i32);
        let _ = root.draw(&Circle::new(c, RADIUS as i32 + 1, WHITE.filled()));
        let _ = root.draw(&Circle::new(c, RADIUS as i32, colour.filled()));
    }
    let sizes: Vec<[f32; 2]> = names
        .iter()
        .map(|n| [label_width(m, n, NAME_SIZE), NAME_SIZE * 1.25])
        .collect();
    let placed = chart::place_labels(&screen, &sizes, RADIUS, 2.5, bounds, &[]);
    for (name, b) in names.iter().zip(placed) {
        if let Some(b) = b {
            let style = anchored(name, NAME_SIZE, HPos::Left, VPos::Top);
            let _ = root.draw(&Text::new(
                name.clone(),
                (b.x0.round() as i32, b.y0.round() as i32),
                style,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// Two machines at the same point share one label, joined as the chart's language joins a
    /// list: "a, b" in English, "a、b" in Chinese (the ideographic comma of GB/T 15834).
    #[test]
    fn machines_at_one_point_share_a_label_joined_in_the_charts_language() {
        let point = |label: &str| FleetPoint {
            label: label.into(),
            vram_gib: 24.0,
            ram_gib: 64.0,
            tier: None,
        };
        let points = [point("node-a"), point("node-b")];
        let lines = ["1×".to_string(), "1.5×".to_string(), "2×".to_string()];
        let svg = |lang| fleet_scatter(lang, &points, ["x", "y"], &lines, (600, 330));
        assert!(svg(Lang::En).contains("node-a, node-b"));
        let zh = svg(Lang::Zh);
        assert!(zh.contains("node-a、node-b"), "{zh}");
        assert!(!zh.contains("node-a, node-b"));
    }
}
