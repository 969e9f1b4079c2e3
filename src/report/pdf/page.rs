//! Page layout: the report's blocks placed on A4 pages as drawing operations (text lines,
//! rectangles, rules and SVG charts), breaking lines and pages. [`super::render`] draws them.

use super::layout::{Line, Measure};
use super::ops::{
    BASELINE, BOTTOM, CELL_PAD, CONTENT_W, GREY, INK, LEADING, MARGIN, Op, RULE, SHADE, TOP,
};
use super::table;
use super::{charts, fleet_chart, timeline};
use crate::palette::{self, Rgb};
use crate::present::document::{Block, Chart};

/// Pages being laid out.
pub(super) struct Layout {
    /// Each page's drawing operations.
    pub(super) pages: Vec<Vec<Op>>,
    y: f32,
    /// The fonts' measurements.
    pub(super) m: Measure,
}

impl Layout {
    /// One empty page.
    pub(super) fn new() -> Layout {
        Layout {
            pages: vec![Vec::new()],
            y: TOP,
            m: Measure::new(),
        }
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        self.pages.last_mut().expect("at least one page")
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = TOP;
    }

    /// Starts a new page unless `h` more points fit on this one.
    fn ensure(&mut self, h: f32) {
        if self.y + h > BOTTOM && self.y > TOP {
            self.new_page();
        }
    }

    fn line_height(size: f32) -> f32 {
        size * LEADING
    }

    /// Wrapped text at `x` over `width`, breaking pages between lines.
    fn text(&mut self, text: &str, x: f32, width: f32, size: f32, color: Rgb) {
        for line in self.m.wrap(text, size, width) {
            self.ensure(Self::line_height(size));
            let y = self.y + size * BASELINE;
            self.ops().push(Op::Text {
                x,
                y,
                size,
                line,
                color,
            });
            self.y += Self::line_height(size);
        }
    }

    fn space(&mut self, h: f32) {
        self.y += h;
    }

    /// Height of `text` wrapped to `width`.
    fn text_height(&self, text: &str, width: f32, size: f32) -> f32 {
        self.m.wrap(text, size, width).len() as f32 * Self::line_height(size)
    }

    /// Height of a row of wrapped cells.
    fn row_height(&self, cells: &[String], ws: &[f32], size: f32) -> f32 {
        cells
            .iter()
            .zip(ws)
            .map(|(c, w)| self.text_height(c, w - 2.0 * CELL_PAD, size))
            .fold(Self::line_height(size), f32::max)
            + 2.0 * CELL_PAD
    }

    /// Draws a row of wrapped cells at the current y (the caller made room for it).
    fn row(&mut self, cells: &[String], xs: &[f32], ws: &[f32], size: f32, shade: Option<Rgb>) {
        let h = self.row_height(cells, ws, size);
        let top = self.y;
        if let Some(s) = shade {
            self.ops().push(Op::Rect {
                x: MARGIN,
                y: top,
                w: CONTENT_W,
                h,
                color: s,
            });
        }
        for ((cell, x), w) in cells.iter().zip(xs).zip(ws) {
            self.y = top + CELL_PAD;
            for line in self.m.wrap(cell, size, w - 2.0 * CELL_PAD) {
                let y = self.y + size * BASELINE;
                self.ops().push(Op::Text {
                    x: x + CELL_PAD,
                    y,
                    size,
                    line,
                    color: INK,
                });
                self.y += Self::line_height(size);
            }
        }
        self.y = top + h;
        let y = self.y;
        self.ops().push(Op::Line {
            x1: MARGIN,
            y1: y,
            x2: MARGIN + CONTENT_W,
            y2: y,
            width: 0.4,
            color: RULE,
        });
    }

    /// A table whose header repeats at the top of every page it runs onto.
    /// A list: each item's marker (a bullet, a number) in the margin, its text wrapped beside.
    fn list(&mut self, items: &[String], marker: impl Fn(usize) -> String) {
        for (n, i) in items.iter().enumerate() {
            self.item(&marker(n), &[i]);
        }
        self.space(4.0);
    }

    /// One list item: `marker` in the margin, then each of `paragraphs` indented beside it.
    fn item(&mut self, marker: &str, paragraphs: &[&str]) {
        self.ensure(Self::line_height(9.0));
        let y = self.y + 9.0 * BASELINE;
        self.ops().push(Op::Text {
            x: MARGIN + 2.0,
            y,
            size: 9.0,
            line: Line::plain(marker.to_string()),
            color: GREY,
        });
        for p in paragraphs {
            self.text(p, MARGIN + 14.0, CONTENT_W - 14.0, 9.0, INK);
        }
        self.space(2.0);
    }

    fn table(&mut self, header: &[String], rows: &[Vec<String>], widths: &[f32]) {
        const SIZE: f32 = 8.5;
        const HEAD: Rgb = (0xe5, 0xe7, 0xeb);
        let ws = table::column_widths(&self.m, header, rows, widths, CONTENT_W, SIZE);
        let mut xs = Vec::with_capacity(ws.len());
        let mut x = MARGIN;
        for w in &ws {
            xs.push(x);
            x += w;
        }
        let has_header = header.iter().any(|h| !h.is_empty());
        let header_h = if has_header {
            self.row_height(header, &ws, SIZE)
        } else {
            0.0
        };
        let first_h = rows.first().map_or(0.0, |r| self.row_height(r, &ws, SIZE));
        self.ensure(header_h + first_h);
        if has_header {
            self.row(header, &xs, &ws, SIZE, Some(HEAD));
        }
        for (i, r) in rows.iter().enumerate() {
            let h = self.row_height(r, &ws, SIZE);
            if self.y + h > BOTTOM {
                self.new_page();
                if has_header {
                    self.row(header, &xs, &ws, SIZE, Some(HEAD));
                }
            }
            self.row(r, &xs, &ws, SIZE, (i % 2 == 1).then_some(SHADE));
        }
        self.space(8.0);
    }

    /// Lays out one block after the previous ones.
    pub(super) fn block(&mut self, block: &Block) {
        match block {
            Block::Title(t) => {
                self.text(t, MARGIN, CONTENT_W, 18.0, INK);
                self.space(2.0);
            }
            Block::Meta(t) => {
                self.text(t, MARGIN, CONTENT_W, 9.0, GREY);
                self.space(8.0);
            }
            Block::Heading(t) => {
                // Keep a heading with at least a few lines of what follows it.
                self.ensure(110.0);
                self.space(10.0);
                self.text(t, MARGIN, CONTENT_W, 13.0, INK);
                let y = self.y + 1.0;
                self.ops().push(Op::Line {
                    x1: MARGIN,
                    y1: y,
                    x2: MARGIN + CONTENT_W,
                    y2: y,
                    width: 0.8,
                    color: RULE,
                });
                self.space(7.0);
            }
            Block::Subheading(t) => {
                self.ensure(40.0);
                self.space(4.0);
                self.text(t, MARGIN, CONTENT_W, 10.5, INK);
                self.space(3.0);
            }
            Block::Paragraph(t) => {
                self.text(t, MARGIN, CONTENT_W, 9.5, INK);
                self.space(6.0);
            }
            Block::Note(t) => {
                self.text(t, MARGIN, CONTENT_W, 8.0, GREY);
                self.space(6.0);
            }
            Block::Callout {
                lang,
                severity,
                label,
                title,
                body,
            } => {
                let title = &Block::callout_title(*lang, label, title);
                let colour = palette::severity(*severity);
                let inner = CONTENT_W - 24.0;
                let h = self.text_height(title, inner, 13.0)
                    + self.text_height(body, inner, 9.5)
                    + 20.0;
                self.ensure(h.min(BOTTOM - TOP));
                let top = self.y;
                self.ops().push(Op::Rect {
                    x: MARGIN,
                    y: top,
                    w: 5.0,
                    h,
                    color: colour,
                });
                self.space(8.0);
                self.text(title, MARGIN + 14.0, inner, 13.0, colour);
                self.space(2.0);
                self.text(body, MARGIN + 14.0, inner, 9.5, INK);
                self.y = self.y.max(top + h);
                self.space(6.0);
            }
            Block::KeyValues(kv) => {
                let rows: Vec<Vec<String>> =
                    kv.iter().map(|(k, v)| vec![k.clone(), v.clone()]).collect();
                self.table(&[String::new(), String::new()], &rows, &[1.0, 2.2]);
            }
            Block::Table {
                header,
                rows,
                widths,
            } => self.table(header, rows, widths),
            Block::Verdict { title, body, .. } => {
                for t in [title, body].into_iter().filter(|t| !t.is_empty()) {
                    self.text(t, MARGIN, CONTENT_W, 9.5, INK);
                    self.space(6.0);
                }
            }
            Block::Checks {
                header,
                rows,
                widths,
            } => {
                let rows: Vec<Vec<String>> = rows.iter().map(|(r, _)| r.clone()).collect();
                self.table(header, &rows, widths);
            }
            Block::Bullets(items) => self.list(items, |_| "•".to_string()),
            Block::Numbered(items) => self.list(items, |n| format!("{}.", n + 1)),
            // A numbered item, then the arguments that apply it under its text.
            Block::Recommendation {
                rank,
                text,
                apply_text,
                native,
                ..
            } => {
                // Each tool's text set as code, line by line (its indentation kept inside the
                // span).
                let code: Vec<(&str, Vec<String>)> = native
                    .iter()
                    .map(|(label, t)| {
                        (
                            label.as_str(),
                            t.lines().map(|l| format!("`{l}`")).collect(),
                        )
                    })
                    .collect();
                let mut lines = vec![text.as_str()];
                if !apply_text.is_empty() {
                    lines.push(apply_text);
                }
                for (label, t) in &code {
                    lines.push(label);
                    lines.extend(t.iter().map(String::as_str));
                }
                self.item(&format!("{rank}."), &lines);
                self.space(4.0);
            }
            Block::Finding {
                severity,
                label,
                title,
                explanation,
                recommendations,
                ..
            } => {
                let colour = palette::severity(*severity);
                let inner = CONTENT_W - 14.0;
                let head = format!("{label} · {title}");
                self.ensure(self.text_height(&head, inner, 10.5) + 30.0);
                let top = self.y;
                let page = self.pages.len();
                self.text(&head, MARGIN + 10.0, inner, 10.5, colour);
                self.text(explanation, MARGIN + 10.0, inner, 9.0, INK);
                for r in recommendations {
                    self.text(&format!("→ {r}"), MARGIN + 18.0, inner - 8.0, 9.0, INK);
                }
                // The colour bar spans the finding on the page where it starts.
                let bottom = if self.pages.len() == page {
                    self.y
                } else {
                    BOTTOM
                };
                let bar = Op::Rect {
                    x: MARGIN,
                    y: top,
                    w: 3.5,
                    h: bottom - top,
                    color: colour,
                };
                self.pages[page - 1].push(bar);
                self.space(9.0);
            }
            Block::Chart(chart) => {
                let (svg, w, h) = match chart {
                    Chart::RatioGauge { ratio, tier_labels } => (
                        charts::ratio_gauge(*ratio, tier_labels, (CONTENT_W as u32, 92)),
                        CONTENT_W,
                        92.0,
                    ),
                    Chart::RulesBars {
                        rules,
                        actual_gib,
                        actual_label,
                        axis_label,
                    } => {
                        let h = 54.0 + 17.0 * rules.len() as f32;
                        let size = (CONTENT_W as u32, h as u32);
                        (
                            charts::rules_bars(rules, *actual_gib, actual_label, axis_label, size),
                            CONTENT_W,
                            h,
                        )
                    }
                    Chart::Timeline {
                        panels,
                        spans,
                        x_label,
                        x_range,
                        label_spans,
                    } => {
                        let h = timeline::height(panels.len(), !x_label.is_empty());
                        let svg = timeline::timeline(
                            panels,
                            spans,
                            x_label,
                            *x_range,
                            *label_spans,
                            CONTENT_W as u32,
                        );
                        (svg, CONTENT_W, h as f32)
                    }
                    Chart::FleetScatter {
                        points,
                        x_label,
                        y_label,
                        line_labels,
                        lang,
                    } => {
                        let size = (CONTENT_W as u32, 330);
                        let labels = [x_label.as_str(), y_label.as_str()];
                        (
                            fleet_chart::fleet_scatter(*lang, points, labels, line_labels, size),
                            CONTENT_W,
                            330.0,
                        )
                    }
                };
                self.ensure(h + 6.0);
                let y = self.y;
                self.ops().push(Op::Svg {
                    x: MARGIN,
                    y,
                    w,
                    h,
                    svg,
                });
                self.space(h + 8.0);
            }
        }
    }
}
