//! A memory pool as one painted bar: its consumers stacked left to right (the CPU side in one
//! colour family, the GPU side in another), each soft limit a labelled mark, the verdict's
//! colour on the outline. Draws a [`PoolBar`] built by `present`; judges nothing.

use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, Ui, pos2, vec2};

use super::theme;
use crate::advisor::Severity;
use crate::present::pools::PoolBar;

/// Paints `bar` across the available width, with its title above and the consumers' legend
/// below.
pub fn pool_bar(ui: &mut Ui, bar: &PoolBar) {
    ui.strong(&bar.title);
    let width = ui.available_width().clamp(280.0, 760.0);
    let rows = bar.limits.len() as f32;
    let (rect, response) = ui.allocate_exact_size(vec2(width, 40.0 + 16.0 * rows), Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Meter, true, &bar.title));
    if ui.is_rect_visible(rect) {
        paint(ui, rect, bar);
    }
    for (i, (label, _, gpu)) in bar.segments.iter().enumerate() {
        ui.horizontal(|ui| {
            let (swatch, _) = ui.allocate_exact_size(vec2(12.0, 12.0), Sense::hover());
            ui.painter().rect_filled(swatch, 2.0, colour(i, *gpu));
            ui.label(label);
        });
    }
    if let Some((text, fits)) = &bar.verdict {
        let s = if *fits {
            Severity::Info
        } else {
            Severity::Critical
        };
        ui.colored_label(
            if *fits {
                theme::good()
            } else {
                theme::severity(s)
            },
            text,
        );
    }
}

fn colour(i: usize, gpu: bool) -> Color32 {
    let base = if gpu {
        Color32::from_rgb(90, 140, 220)
    } else {
        Color32::from_rgb(120, 180, 120)
    };
    base.gamma_multiply(1.0 - 0.15 * (i % 3) as f32)
}

fn paint(ui: &Ui, rect: Rect, bar: &PoolBar) {
    let painter = ui.painter_at(rect.expand(2.0));
    let text = ui.visuals().text_color();
    let used: f64 = bar.segments.iter().map(|s| s.1).sum();
    let scale = bar
        .limits
        .iter()
        .map(|l| l.1)
        .fold(bar.size_gib.max(used), f64::max)
        .max(1e-9);
    let strip = Rect::from_min_max(
        pos2(rect.left() + 4.0, rect.top() + 4.0),
        pos2(rect.right() - 4.0, rect.top() + 28.0),
    );
    let x = |gib: f64| strip.left() + strip.width() * (gib / scale).clamp(0.0, 1.0) as f32;
    // The pool's hard size: the frame.
    let frame = Rect::from_min_max(strip.min, pos2(x(bar.size_gib), strip.bottom()));
    painter.rect_filled(frame, 2.0, ui.visuals().extreme_bg_color);
    let mut at = 0.0;
    for (i, (_, gib, gpu)) in bar.segments.iter().enumerate() {
        let seg = Rect::from_min_max(pos2(x(at), strip.top()), pos2(x(at + gib), strip.bottom()));
        painter.rect_filled(seg, 0.0, colour(i, *gpu));
        at += gib;
    }
    let over = bar.verdict.as_ref().is_some_and(|v| !v.1);
    let outline = if over {
        theme::severity(Severity::Critical)
    } else {
        text.gamma_multiply(0.6)
    };
    painter.rect_stroke(
        frame,
        2.0,
        Stroke::new(1.5, outline),
        egui::StrokeKind::Outside,
    );
    let small = FontId::proportional(12.0);
    for (row, (label, gib, fits)) in bar.limits.iter().enumerate() {
        let lx = x(*gib);
        let c = if *fits == Some(false) {
            theme::severity(Severity::Critical)
        } else {
            text
        };
        let y = strip.bottom() + 6.0 + 16.0 * row as f32;
        painter.line_segment(
            [pos2(lx, strip.top() - 2.0), pos2(lx, y + 8.0)],
            Stroke::new(2.0, c),
        );
        let align = if lx > rect.center().x {
            Align2::RIGHT_TOP
        } else {
            Align2::LEFT_TOP
        };
        let tx = if lx > rect.center().x {
            lx - 4.0
        } else {
            lx + 4.0
        };
        painter.text(pos2(tx, y), align, label, small.clone(), c);
    }
}
