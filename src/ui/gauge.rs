//! The ratio gauge: a painted bar from 0 to 3.5× with the seed's tier bands coloured and this
//! machine's ratio marked.

use egui::{Align2, Color32, FontId, Pos2, Rect, Response, Sense, Shape, Stroke, Ui, pos2, vec2};

use super::theme;
use crate::advisor::Tier;
use crate::format;

/// Right end of the scale. Ratios above it are drawn at the end with an arrow.
pub const SCALE_MAX: f64 = crate::present::GAUGE_MAX_RATIO;

/// Paints the gauge for `ratio` across the available width and returns its response, whose
/// accessibility label is `label` (e.g. "RAM : VRAM 0.67×").
pub fn ratio_gauge(ui: &mut Ui, ratio: f64, label: &str) -> Response {
    let width = ui.available_width().clamp(280.0, 760.0);
    let (rect, response) = ui.allocate_exact_size(vec2(width, 86.0), Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Meter, true, label));
    if !ui.is_rect_visible(rect) {
        return response;
    }
    let painter = ui.painter_at(rect.expand(2.0));
    let text_color = ui.visuals().text_color();
    let bar = Rect::from_min_max(
        pos2(rect.left() + 8.0, rect.top() + 30.0),
        pos2(rect.right() - 8.0, rect.top() + 54.0),
    );
    let x = |v: f64| bar.left() + bar.width() * (v.clamp(0.0, SCALE_MAX) / SCALE_MAX) as f32;
    let edges = [
        0.0,
        Tier::BOUNDS[0],
        Tier::BOUNDS[1],
        Tier::BOUNDS[2],
        SCALE_MAX,
    ];
    for (i, tier) in Tier::ALL.iter().enumerate() {
        let band = Rect::from_min_max(
            pos2(x(edges[i]), bar.top()),
            pos2(x(edges[i + 1]), bar.bottom()),
        );
        painter.rect_filled(band, 0.0, theme::tier(*tier).gamma_multiply(0.85));
    }
    painter.rect_stroke(
        bar,
        2.0,
        Stroke::new(1.0, text_color.gamma_multiply(0.5)),
        egui::StrokeKind::Outside,
    );
    let small = FontId::proportional(12.0);
    let mut tick = 0.0;
    while tick <= SCALE_MAX + 1e-9 {
        let tx = x(tick);
        painter.line_segment(
            [pos2(tx, bar.bottom()), pos2(tx, bar.bottom() + 5.0)],
            Stroke::new(1.0, text_color),
        );
        painter.text(
            pos2(tx, bar.bottom() + 7.0),
            Align2::CENTER_TOP,
            format!("{tick}×"),
            small.clone(),
            text_color,
        );
        tick += 0.5;
    }
    let mx = x(ratio);
    // The marker in the strong text colour with a contrasting outline reads on every band in
    // both light and dark themes.
    let marker = ui.visuals().strong_text_color();
    let outline = if ui.visuals().dark_mode {
        Color32::BLACK
    } else {
        Color32::WHITE
    };
    painter.line_segment(
        [pos2(mx, bar.top() - 4.0), pos2(mx, bar.bottom() + 4.0)],
        Stroke::new(6.0, outline),
    );
    painter.line_segment(
        [pos2(mx, bar.top() - 4.0), pos2(mx, bar.bottom() + 4.0)],
        Stroke::new(3.0, marker),
    );
    painter.add(Shape::convex_polygon(
        vec![
            pos2(mx - 7.0, bar.top() - 12.0),
            pos2(mx + 7.0, bar.top() - 12.0),
            pos2(mx, bar.top() - 3.0),
        ],
        marker,
        Stroke::NONE,
    ));
    let value = if ratio > SCALE_MAX {
        format!("{} →", format::ratio(ratio))
    } else {
        format::ratio(ratio)
    };
    let anchor = if mx > bar.right() - 40.0 {
        Align2::RIGHT_BOTTOM
    } else if mx < bar.left() + 40.0 {
        Align2::LEFT_BOTTOM
    } else {
        Align2::CENTER_BOTTOM
    };
    painter.text(
        Pos2::new(mx, bar.top() - 13.0),
        anchor,
        value,
        FontId::proportional(16.0),
        text_color,
    );
    response
}
