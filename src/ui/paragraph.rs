//! Running text in the window: left-aligned (ragged right, never justified, whatever the
//! layout around it), broken at UAX #14 opportunities ([`crate::linebreak`], the same breaking
//! as the PDF) so that mixed Chinese and Latin text never breaks inside a Latin word.
//!
//! egui justifies a wrapped label inside a cross-justified layout (`ui.columns`), spreading its
//! letters apart, and breaks lines with its own rules. A [`Paragraph`] breaks the text itself,
//! lays out each line unwrapped, and stacks them into one galley ([`egui::Galley::concat`]) that
//! keeps the whole text: selecting, copying and screen readers see the text as written.

use std::sync::Arc;

use egui::text::LayoutJob;
use egui::{Align, FontSelection, Galley, Response, RichText, Ui, Widget, WidgetText};

use crate::linebreak;

/// A paragraph of text, broken to the available width. Add it with `ui.add(Paragraph::new(…))`.
#[must_use = "add it with ui.add(…)"]
pub struct Paragraph {
    text: RichText,
}

impl Paragraph {
    /// A paragraph of `text` (a `&str`, `String` or styled [`RichText`]).
    pub fn new(text: impl Into<RichText>) -> Paragraph {
        Paragraph { text: text.into() }
    }
}

impl Widget for Paragraph {
    fn ui(self, ui: &mut Ui) -> Response {
        let galley = layout(ui, self.text, ui.available_width());
        ui.add(egui::Label::new(galley))
    }
}

/// Lays `text` out as lines no wider than `width` points. Code spans (`` `ramvram detect` ``,
/// see [`crate::codespan`]) lose their backticks, are set in the monospace font on the code
/// background, and never break across lines; nor do options, paths and file names.
pub fn layout(ui: &Ui, text: RichText, width: f32) -> Arc<Galley> {
    let job =
        WidgetText::from(text).into_layout_job(ui.style(), FontSelection::Default, Align::LEFT);
    let pixels_per_point = ui.ctx().pixels_per_point();
    let format = job
        .sections
        .first()
        .map(|s| s.format.clone())
        .unwrap_or_default();
    let mut code_format = format.clone();
    code_format.font_id = egui::FontId::monospace(format.font_id.size);
    code_format.background = ui.visuals().code_bg_color;
    let spans = crate::codespan::parse(&job.text);
    let full = spans.text.as_str();
    let in_code = |i: usize| spans.code.iter().any(|r| r.contains(&i));
    ui.fonts_mut(|fonts| {
        // Width of text[..i] at every char boundary.
        let mut prefix: Vec<(usize, f32)> = Vec::with_capacity(full.len() + 1);
        let mut x = 0.0;
        for (i, c) in full.char_indices() {
            prefix.push((i, x));
            let font = if in_code(i) { &code_format } else { &format };
            x += fonts.glyph_width(&font.font_id, c);
        }
        prefix.push((full.len(), x));
        let at = |i: usize| {
            prefix
                .binary_search_by_key(&i, |p| p.0)
                .map_or(0.0, |k| prefix[k].1)
        };
        let lines =
            linebreak::break_lines_keeping(full, &spans.code, width, |r| at(r.end) - at(r.start));
        let galleys: Vec<Arc<Galley>> = lines
            .iter()
            .map(|l| {
                let end = if l.hard {
                    l.range.end - '\n'.len_utf8()
                } else {
                    l.range.end
                };
                let mut line = LayoutJob::default();
                // One section per run of plain text or code within the line.
                let mut start = l.range.start;
                while start < end {
                    let code = in_code(start);
                    let stop = full[start..end]
                        .char_indices()
                        .map(|(i, _)| start + i)
                        .find(|&i| in_code(i) != code)
                        .unwrap_or(end);
                    let f = if code { &code_format } else { &format };
                    line.append(&full[start..stop], 0.0, f.clone());
                    start = stop;
                }
                line.halign = Align::LEFT;
                line.wrap.max_width = f32::INFINITY;
                fonts.layout_job(line)
            })
            .collect();
        let mut whole = LayoutJob::single_section(full.to_string(), format.clone());
        whole.halign = Align::LEFT;
        whole.justify = false;
        whole.wrap.max_width = width;
        let mut galley = Galley::concat(Arc::new(whole), &galleys, pixels_per_point);
        // Each line galley has one row; a row ends with a newline only where the text has one
        // (the breaks made here are soft: the text between rows is continuous).
        for (row, line) in galley.rows.iter_mut().zip(&lines) {
            row.ends_with_newline = line.hard;
        }
        Arc::new(galley)
    })
}

/// `ui.columns(n, …)` without justification: egui's columns are cross-justified, which makes
/// every wrapped label in them justified (letters spread apart). Each column here lays its
/// contents out top-down and left-aligned instead.
pub fn columns<R>(ui: &mut Ui, n: usize, add: impl FnOnce(&mut [Ui]) -> R) -> R {
    ui.columns(n, |cols| {
        let layout = egui::Layout::top_down(Align::Min);
        let mut inner: Vec<Ui> = cols
            .iter_mut()
            .map(|c| c.new_child(egui::UiBuilder::new().layout(layout)))
            .collect();
        let r = add(&mut inner);
        for (c, i) in cols.iter_mut().zip(&inner) {
            c.advance_cursor_after_rect(i.min_rect());
        }
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Color32;

    const TEXT: &str = "Computed with DeepSpeed's estimator, reproduced exactly. \
        按 DeepSpeed 自带的估算函数计算，结果完全一致。";

    /// Lays `TEXT` out at `width` inside `ui.columns` (a cross-justified layout, where egui's
    /// own labels are justified).
    fn in_a_column(width: f32) -> Arc<Galley> {
        let ctx = egui::Context::default();
        crate::ui::fonts::install(&ctx);
        let mut galley = None;
        for _ in 0..2 {
            // The first pass loads the fonts.
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                ui.columns(2, |cols| {
                    galley = Some(layout(&cols[0], RichText::new(TEXT), width))
                });
            });
            // No renderer here: the font atlas's uploads are dropped.
            out.textures_delta.clear();
        }
        galley.expect("laid out")
    }

    fn rows(galley: &Galley) -> Vec<String> {
        galley
            .rows
            .iter()
            .map(|r| r.row.glyphs.iter().map(|g| g.chr).collect())
            .collect()
    }

    #[test]
    fn keeps_the_whole_text_for_selection_and_screen_readers() {
        let g = in_a_column(180.0);
        assert_eq!(g.text(), TEXT);
        assert_eq!(rows(&g).concat(), TEXT);
        assert!(g.rows.len() > 3);
        assert!(g.rows.iter().all(|r| !r.ends_with_newline));
    }

    #[test]
    fn breaks_between_words_and_ideographs_never_inside_a_latin_word() {
        let g = in_a_column(180.0);
        let rows = rows(&g);
        // Worked out from UAX #14: Latin words only break at spaces; "，" and "。" (CL) never
        // start a line.
        for word in [
            "Computed",
            "DeepSpeed's",
            "estimator,",
            "reproduced",
            "exactly.",
            "DeepSpeed",
        ] {
            assert!(
                rows.iter().any(|r| r.contains(word)),
                "{word} broken: {rows:?}"
            );
        }
        for r in &rows {
            assert!(!r.starts_with('，') && !r.starts_with('。'), "{rows:?}");
            assert!(g.rows.iter().all(|r| r.rect().width() <= 180.0 + 0.5));
        }
    }

    #[test]
    fn is_ragged_not_justified_in_a_justified_column() {
        let g = in_a_column(180.0);
        let ctx = egui::Context::default();
        crate::ui::fonts::install(&ctx);
        let font = egui::TextStyle::Body.resolve(&ctx.global_style());
        // The first pass loads the fonts.
        ctx.run_ui(egui::RawInput::default(), |_| {})
            .textures_delta
            .clear();
        let mut short = 0;
        for (row, text) in g.rows.iter().zip(rows(&g)) {
            // Each line is as wide as its text set on its own: no space added between letters.
            let mut natural = 0.0;
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                natural = ui
                    .fonts_mut(|f| f.layout_no_wrap(text.clone(), font.clone(), Color32::WHITE))
                    .size()
                    .x;
            });
            out.textures_delta.clear();
            assert!((row.rect().width() - natural).abs() < 1.0, "{text:?}");
            if natural < 160.0 {
                short += 1;
            }
        }
        // Lines shorter than the column, which justification would have stretched to 180.
        assert!(short > 0);
    }
}
