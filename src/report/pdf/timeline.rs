//! The live-diagnosis timeline as SVG: the charts of [`crate::present::timeline::timeline`]
//! stacked on one time axis, each diagnosis shaded in its severity's colour (named in the
//! first chart), the same charts the window's Monitor page draws.

use plotters::prelude::*;

use super::charts::{font, font_registered, rgb};
use crate::palette;
use crate::present::timeline::{TimelinePanel, TimelineSpan};

/// Height of one chart, SVG units (= PDF points).
pub const PANEL_HEIGHT: u32 = 112;

/// Room for the time axis title below the last chart.
const AXIS_TITLE_HEIGHT: u32 = 18;

/// Height of `panels` charts stacked, with the axis title's room when there is one.
pub fn height(panels: usize, axis_title: bool) -> u32 {
    PANEL_HEIGHT * panels.max(1) as u32 + if axis_title { AXIS_TITLE_HEIGHT } else { 0 }
}

/// The stacked charts; `x_range` is the first and last sample's time; `x_label` (when not
/// empty) goes under the last; `label_spans` names the shaded ranges in the first.
pub fn timeline(
    panels: &[TimelinePanel],
    spans: &[TimelineSpan],
    x_label: &str,
    x_range: (f64, f64),
    label_spans: bool,
    width: u32,
) -> String {
    font_registered();
    let height = height(panels.len(), !x_label.is_empty());
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let (top, bottom) = root.split_vertically(PANEL_HEIGHT * panels.len().max(1) as u32);
        let areas = top.split_evenly((panels.len().max(1), 1));
        let (x0, x1) = x_range;
        let x1 = if x1 > x0 { x1 } else { x0 + 1.0 };
        for (i, (panel, area)) in panels.iter().zip(areas.iter()).enumerate() {
            let highest = panel
                .series
                .iter()
                .flat_map(|s| s.runs.iter().flatten().map(|p| p[1]))
                .fold(0.0f64, f64::max);
            let y_max = if panel.percent {
                100.0
            } else {
                (highest * 1.12).max(1.0)
            };
            let built = ChartBuilder::on(area)
                .margin_top(4)
                .margin_right(8)
                .caption(panel.title.clone(), font(&panel.title, 9.0))
                .x_label_area_size(16)
                .y_label_area_size(42)
                .build_cartesian_2d(x0..x1, 0f64..y_max);
            let Ok(mut chart) = built else { continue };
            let _ = chart
                .configure_mesh()
                .label_style(font("0", 7.5))
                .light_line_style(RGBColor(0xf2, 0xf2, 0xf2))
                .x_max_light_lines(1)
                .y_max_light_lines(1)
                .x_labels(8)
                .y_labels(4)
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| {
                    if y_max < 5.0 {
                        format!("{v:.1}")
                    } else {
                        format!("{v:.0}")
                    }
                })
                .draw();
            for (k, s) in spans.iter().enumerate() {
                let colour = rgb(palette::severity(s.severity));
                let (from, to) = (s.from.max(x0), s.to.min(x1));
                if to <= from {
                    continue;
                }
                let _ = chart.draw_series(std::iter::once(Rectangle::new(
                    [(from, y_max), (to, 0.0)],
                    colour
                        .mix(crate::present::timeline::shade_alpha(s.severity))
                        .filled(),
                )));
                if i == 0 && label_spans {
                    let _ = chart.draw_series(std::iter::once(Text::new(
                        s.label.clone(),
                        // One line per diagnosis, so that names of overlapping ranges
                        // don't cover each other.
                        (from, y_max * (0.97 - 0.11 * (k % 4) as f64)),
                        font(&s.label, 7.5).color(&colour),
                    )));
                }
            }
            for series in &panel.series {
                let colour = rgb(palette::series(series.colour_index));
                for (k, run) in series.runs.iter().enumerate() {
                    let drawn = chart.draw_series(LineSeries::new(
                        run.iter().map(|p| (p[0], p[1])),
                        colour.stroke_width(1),
                    ));
                    if let (Ok(d), 0) = (drawn, k) {
                        d.label(series.label.clone()).legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 12, y)], colour.stroke_width(2))
                        });
                    }
                }
            }
            // One family for the legend: the CJK font when any label needs it.
            let legend_text: String = panel.series.iter().map(|s| s.label.as_str()).collect();
            let _ = chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .label_font(font(&legend_text, 7.5))
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(0xcc, 0xcc, 0xcc))
                .draw();
        }
        let style = font(x_label, 8.0).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Top,
        ));
        if !x_label.is_empty() {
            let _ = bottom.draw(&Text::new(
                x_label.to_string(),
                (width as i32 / 2, 2),
                style,
            ));
        }
        let _ = root.present();
    }
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::present::timeline as timeline_data;
    use crate::trace::synthetic;

    #[test]
    fn sawtooth_timeline_has_its_charts_shading_and_chinese_text() {
        let t = synthetic::sawtooth(120, 4);
        let s = crate::advisor::diagnose::diagnose(&t);
        let panels = timeline_data::timeline(Lang::Zh, &t, 600);
        let svg = timeline(
            &panels,
            &timeline_data::spans(Lang::Zh, &s),
            "秒",
            (0.0, 119.0),
            true,
            495,
        );
        assert!(svg.contains("GPU 利用率（%）"));
        assert!(svg.contains("GPU 等数据"));
        assert!(svg.contains("可用内存"));
        // Four charts (PSI is all zero but known), each with the critical gpu-starved range
        // (opacity 0.18) and the informational power-unstable one (0.07).
        assert_eq!(panels.len(), 4);
        assert_eq!(svg.matches("opacity=\"0.18\"").count(), 4);
        assert_eq!(svg.matches("opacity=\"0.07\"").count(), 4);
        // Without span names (a chart continuing a stack) and without an axis title.
        let bare = timeline(&panels[1..2], &[], "", (0.0, 119.0), false, 495);
        assert!(!bare.contains("GPU 等数据") && !bare.contains('秒'));
        assert!(bare.contains("height=\"112\""), "{bare}");
    }
}
