//! The Lab machines page's chart: usable RAM against total VRAM, one point per machine, with
//! the lines RAM = 1×, 1.5× and 2× VRAM. Axes and name placement come from [`crate::chart`]
//! (the PDF draws the same picture): log axes when the lab spans orders of magnitude, each name
//! beside its point where it covers no other, every name on hover.
//!
//! Scrolling over the chart scrolls the page; zooming and moving the view need Ctrl (⌘ on a
//! Mac), double-click or "Reset view" goes back to the whole lab.

use egui::{Color32, FontId, Id, RichText, Ui};
use egui_plot::{GridInput, GridMark, HoverPosition, Line, Plot, PlotPoint, PlotPoints, Points};

use crate::advisor::Tier;
use crate::advisor::fleet::FleetMachine;
use crate::advisor::standing::TIER_LINES;
use crate::chart::{self, Axis, Box2};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::ui::theme;

/// The plot's id source (`Id::unique(PLOT_ID)`): its memory, the view's bounds, lives under it.
pub const PLOT_ID: &str = "fleet-chart";

/// The lines RAM = k × VRAM: the advisor's factor and tier ([`TIER_LINES`]), with a short tag.
const LINES: [(f64, &str, Tier); 3] = [
    (TIER_LINES[0].0, "1×", TIER_LINES[0].1),
    (TIER_LINES[1].0, "1.5×", TIER_LINES[1].1),
    (TIER_LINES[2].0, "2×", TIER_LINES[2].1),
];

/// Grid marks for an axis: at 1, 2 and 5 of each decade on a log axis (plot coordinates are
/// `log10` of GiB), egui_plot's own spacing on a linear one.
fn grid(axis: Axis, input: GridInput) -> Vec<GridMark> {
    if !axis.log {
        return egui_plot::log_grid_spacer(10)(input);
    }
    let visible = Axis {
        log: true,
        lo: 10f64.powf(input.bounds.0),
        hi: 10f64.powf(input.bounds.1),
    };
    visible
        .ticks()
        .into_iter()
        .map(|(v, major)| GridMark {
            value: v.log10(),
            step_size: if major { 1.0 } else { 0.35 },
        })
        .collect()
}

/// An axis's range in plot coordinates with 3 % to spare at each end, so the first and last
/// tick labels are not cut by the plot's border.
fn padded(axis: Axis) -> (f64, f64) {
    let (a, b) = (axis.to_plot(axis.lo), axis.to_plot(axis.hi));
    let pad = (b - a) * 0.03;
    (a - pad, b + pad)
}

/// Draws the chart of `machines` (those with both VRAM and RAM known).
pub fn chart(ui: &mut Ui, lang: Lang, machines: &[FleetMachine], meeting: bool) {
    // The report's points (present::document::fleet): the window judges none of its own.
    let known = crate::present::document::fleet::chart_points(machines);
    let data: Vec<(f64, f64)> = known.iter().map(|p| (p.vram_gib, p.ram_gib)).collect();
    let (ax, ay) = chart::fleet_axes(&data);
    let axis_title = |msg: Msg, log: bool| crate::present::fleet::axis_title(lang, msg, log);
    let text_size = if meeting { 17.0 } else { 13.0 };
    // Legend of the lines, then the y axis title above the plot (never in a tick row).
    ui.horizontal_wrapped(|ui| {
        for (factor, _, tier) in LINES {
            let label = crate::present::fleet::rule_line(lang, &format!("{factor}×"));
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(22.0, text_size), egui::Sense::hover());
            ui.painter()
                .hline(rect.x_range(), rect.center().y, (2.5, theme::tier(tier)));
            ui.label(
                RichText::new(label)
                    .size(text_size)
                    .color(theme::tier(tier)),
            );
            ui.add_space(14.0);
        }
    });
    ui.label(RichText::new(axis_title(Msg::FleetRamAxis, ay.log)).size(text_size));

    let reset_id = Id::unique("fleet-chart-reset");
    // The request stays until a pass that is shown has applied it (egui discards a pass that
    // only sized a new scroll area or grid).
    let reset = ui.data(|d| d.get_temp::<bool>(reset_id).unwrap_or(false));
    if reset && !ui.ctx().will_discard() {
        ui.data_mut(|d| d.remove::<bool>(reset_id));
    }
    // Zoom and pan only while Ctrl (⌘) is held: a plain scroll wheel scrolls the page.
    let modifier = ui.input(|i| i.modifiers.command);
    let groups = chart::group_same_points(&data);
    let names: Vec<String> = groups
        .iter()
        .map(|(_, idx)| {
            let labels: Vec<&str> = idx.iter().map(|i| known[*i].label.as_str()).collect();
            crate::present::fleet::same_point(lang, &labels)
        })
        .collect();
    let hover_lang = lang;
    // In meeting mode the chart has the screen to itself: all of what is left, less the x
    // axis's title and the hint below it.
    let height = if meeting {
        (ui.available_height() - 3.5 * text_size - 24.0).clamp(240.0, 1200.0)
    } else {
        360.0
    };
    let mut plot = Plot::new(PLOT_ID)
        .id(Id::unique(PLOT_ID))
        .height(height)
        .allow_zoom(modifier)
        .allow_drag(modifier)
        .allow_boxed_zoom(modifier)
        .allow_scroll(false)
        .allow_axis_zoom_drag(false)
        .allow_double_click_reset(true)
        .default_x_bounds(padded(ax).0, padded(ax).1)
        .default_y_bounds(padded(ay).0, padded(ay).1)
        .x_grid_spacer(move |input| grid(ax, input))
        .y_grid_spacer(move |input| grid(ay, input))
        .x_axis_formatter(move |mark, _| chart::tick_label(ax.from_plot(mark.value)))
        .y_axis_formatter(move |mark, _| chart::tick_label(ay.from_plot(mark.value)))
        .label_formatter(move |pos| match pos {
            HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(trf(
                hover_lang,
                Msg::FleetChartHover,
                &[
                    ("name", plot_name),
                    ("vram", &chart::tick_label(ax.from_plot(position.x).round())),
                    ("ram", &chart::tick_label(ay.from_plot(position.y).round())),
                ],
            )),
            HoverPosition::Elsewhere { .. } => None,
        });
    if reset {
        plot = plot.reset();
    }
    let radius = if meeting { 8.0 } else { 5.5 };
    let response = plot.show(ui, |p| {
        for (k, _, tier) in LINES {
            let label = crate::present::fleet::rule_line(lang, &format!("{k}×"));
            // Far beyond the data both ways, so the line crosses any view.
            let (x0, x1) = (ax.lo / 1e3, ax.hi * 1e3);
            let line = PlotPoints::from(vec![
                [ax.to_plot(x0), ay.to_plot(k * x0)],
                [ax.to_plot(x1), ay.to_plot(k * x1)],
            ]);
            p.line(Line::new(label, line).color(theme::tier(tier)).width(2.0));
        }
        for ((point, idx), name) in groups.iter().zip(&names) {
            let colour = known[idx[0]].tier.map_or(Color32::GRAY, theme::tier);
            let at = [ax.to_plot(point.0), ay.to_plot(point.1)];
            p.points(
                Points::new(name.clone(), vec![at])
                    .radius(radius)
                    .color(colour),
            );
        }
    });
    let a11y = tr(lang, Msg::FleetChartA11y);
    response
        .response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Figure, true, a11y));
    let t = response.transform;
    let frame = *t.frame();
    let painter = ui.painter_at(frame);
    let font = FontId::proportional(text_size);
    // Tags where each line leaves the view, inside the border.
    let bounds = t.bounds();
    let mut tags: Vec<Box2> = Vec::new();
    for (k, tag, tier) in LINES {
        let (bx, by) = (bounds.range_x(), bounds.range_y());
        let log_k = if ax.log { k.log10() } else { 0.0 };
        // y = x + log10 k on log axes, y = k x on linear ones.
        let y_at = |x: f64| if ax.log { x + log_k } else { k * x };
        let x_at = |y: f64| if ax.log { y - log_k } else { y / k };
        let through_right = y_at(*bx.end()) <= *by.end();
        let (ex, ey) = if through_right {
            (*bx.end(), y_at(*bx.end()))
        } else {
            (x_at(*by.end()), *by.end())
        };
        if ex < *bx.start() || ey < *by.start() {
            continue;
        }
        let pos = t.position_from_point(&PlotPoint::new(ex, ey));
        let galley = painter.layout_no_wrap(tag.to_string(), font.clone(), theme::tier(tier));
        let size = galley.size();
        // Leaving through the right border: above the line, left of the border (the rising
        // line stays below the tag). Through the top: right of the line, under the border.
        let mut anchor = if through_right {
            egui::pos2(frame.right() - 4.0 - size.x, pos.y - 3.0 - size.y)
        } else {
            egui::pos2(pos.x + 4.0, frame.top() + 2.0)
        };
        let mut b = Box2::at(anchor.x, anchor.y, [size.x, size.y]);
        for _ in 0..6 {
            if !tags.iter().any(|o| o.overlaps(&b)) {
                break;
            }
            anchor.x -= size.x + 6.0;
            b = Box2::at(anchor.x, anchor.y, [size.x, size.y]);
        }
        tags.push(b);
        painter.galley(anchor, galley, theme::tier(tier));
    }
    // Machine names beside their points where they cover nothing else.
    let text_colour = ui.visuals().text_color();
    let screen: Vec<[f32; 2]> = groups
        .iter()
        .map(|(p, _)| {
            let s = t.position_from_point(&PlotPoint::new(ax.to_plot(p.0), ay.to_plot(p.1)));
            [s.x, s.y]
        })
        .collect();
    let galleys: Vec<_> = names
        .iter()
        .map(|n| painter.layout_no_wrap(n.clone(), font.clone(), text_colour))
        .collect();
    let sizes: Vec<[f32; 2]> = galleys.iter().map(|g| [g.size().x, g.size().y]).collect();
    let inside = Box2 {
        x0: frame.left() + 2.0,
        y0: frame.top() + 2.0,
        x1: frame.right() - 2.0,
        y1: frame.bottom() - 2.0,
    };
    // Only points in view get a name.
    let in_view: Vec<bool> = screen
        .iter()
        .map(|p| frame.contains(egui::pos2(p[0], p[1])))
        .collect();
    let placed = chart::place_labels(&screen, &sizes, radius, 4.0, inside, &tags);
    for ((g, b), shown) in galleys.into_iter().zip(placed).zip(in_view) {
        if let (Some(b), true) = (b, shown) {
            painter.galley(egui::pos2(b.x0, b.y0), g, text_colour);
        }
    }
    // The x axis title under the tick labels, then how to move the view.
    ui.vertical_centered(|ui| {
        ui.label(RichText::new(axis_title(Msg::FleetVramAxis, ax.log)).size(text_size));
    });
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr(lang, Msg::FleetChartReset)).clicked() {
            ui.data_mut(|d| d.insert_temp(reset_id, true));
            // The chart above was drawn this pass: the next one applies the reset.
            ui.ctx().request_repaint();
        }
        ui.label(RichText::new(tr(lang, Msg::FleetChartHint)).weak());
    });
}
