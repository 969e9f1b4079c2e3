//! The PDF writer: lays the report's blocks out on A4 pages ([`page`]; lines are broken there,
//! since krilla draws one run of text in one font), then draws them with krilla. Text is real
//! text, Latin runs in the bundled Latin font and Chinese runs in the bundled CJK font, both
//! embedded as subsets; charts are plotters SVG placed as vectors by krilla-svg; every page has
//! a page number in each of the report's languages.

pub mod charts;
pub mod fleet_chart;
pub mod layout;
mod ops;
mod page;
pub mod table;
pub mod timeline;

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::text::{Font, TextDirection};
use krilla::{Data, Document};
use krilla_svg::{SurfaceExt, SvgSettings};

use crate::assets::{CJK_FONT, LATIN_FONT, MONO_FONT};
use crate::i18n::{Lang, Msg, trf};
use crate::palette::Rgb;
use crate::present::document::Block;
use layout::{Face, Line};
use ops::{GREY, Op, PAGE_H, PAGE_W};
use page::Layout;

/// The page footer text, "Page 2 of 5".
pub fn page_label(lang: Lang, n: usize, total: usize) -> String {
    trf(
        lang,
        Msg::ReportPage,
        &[("n", &n.to_string()), ("total", &total.to_string())],
    )
}

fn fill(c: Rgb) -> Fill {
    Fill {
        paint: rgb::Color::new(c.0, c.1, c.2).into(),
        ..Default::default()
    }
}

/// Renders blocks to PDF bytes. `title` goes into the document metadata; `langs` are the
/// report's languages, first first: the first sets the document language, and every page's
/// footer gives the page number in each.
///
/// # Errors
/// krilla's or usvg's error text.
pub fn render(blocks: &[Block], title: &str, langs: &[Lang]) -> Result<Vec<u8>, String> {
    let mut l = Layout::new();
    for b in blocks {
        l.block(b);
    }
    let mut svg_options = usvg::Options::default();
    svg_options.fontdb_mut().load_font_data(LATIN_FONT.to_vec());
    svg_options.fontdb_mut().load_font_data(CJK_FONT.to_vec());
    let latin =
        Font::new(Data::from(LATIN_FONT), 0).ok_or("the bundled Latin font could not be read")?;
    let cjk = Font::new(Data::from(CJK_FONT), 0).ok_or("the bundled CJK font could not be read")?;
    let mono = Font::new(Data::from(MONO_FONT), 0)
        .ok_or("the bundled monospace font could not be read")?;
    let font = |face: Face| match face {
        Face::Latin => latin.clone(),
        Face::Cjk => cjk.clone(),
        Face::Mono => mono.clone(),
    };
    let mut doc = Document::new();
    let code = match langs.first() {
        Some(Lang::Zh) => "zh-CN",
        _ => "en",
    };
    doc.set_metadata(
        Metadata::new()
            .title(title.to_string())
            .language(code.to_string())
            .creator(format!("ramvram {}", env!("CARGO_PKG_VERSION"))),
    );
    let total = l.pages.len();
    let size = Size::from_wh(PAGE_W, PAGE_H).expect("A4 is a valid size");
    // Draws one line of text, each run in its own font.
    let text = |s: &mut krilla::surface::Surface, x: f32, y: f32, size: f32, line: &Line| {
        let mut x = x;
        for (face, run) in l.m.runs_in(&line.text, &line.code) {
            s.draw_text(
                Point::from_xy(x, y),
                font(face),
                size,
                run,
                false,
                TextDirection::Auto,
            );
            x += l.m.face_width(face, run, size);
        }
    };
    for (i, ops) in l.pages.iter().enumerate() {
        let mut page = doc.start_page_with(PageSettings::new(size));
        let mut s = page.surface();
        for op in ops {
            match op {
                Op::Text {
                    x,
                    y,
                    size,
                    line: t,
                    color,
                } => {
                    s.set_fill(Some(fill(*color)));
                    text(&mut s, *x, *y, *size, t);
                }
                Op::Rect { x, y, w, h, color } => {
                    if let Some(rect) = Rect::from_xywh(*x, *y, w.max(0.01), h.max(0.01)) {
                        let mut pb = PathBuilder::new();
                        pb.push_rect(rect);
                        if let Some(path) = pb.finish() {
                            s.set_stroke(None);
                            s.set_fill(Some(fill(*color)));
                            s.draw_path(&path);
                        }
                    }
                }
                Op::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    width,
                    color,
                } => {
                    let mut pb = PathBuilder::new();
                    pb.move_to(*x1, *y1);
                    pb.line_to(*x2, *y2);
                    if let Some(path) = pb.finish() {
                        s.set_fill(None);
                        s.set_stroke(Some(Stroke {
                            paint: rgb::Color::new(color.0, color.1, color.2).into(),
                            width: *width,
                            ..Default::default()
                        }));
                        s.draw_path(&path);
                        s.set_stroke(None);
                    }
                }
                Op::Svg { x, y, w, h, svg } => {
                    let tree =
                        usvg::Tree::from_str(svg, &svg_options).map_err(|e| e.to_string())?;
                    s.push_transform(&Transform::from_translate(*x, *y));
                    let size = Size::from_wh(*w, *h).ok_or("empty chart")?;
                    s.draw_svg(&tree, size, SvgSettings::default());
                    s.pop();
                }
            }
        }
        let label = footer(langs, i + 1, total);
        let width = l.m.width(&label, 8.0);
        s.set_fill(Some(fill(GREY)));
        text(
            &mut s,
            (PAGE_W - width) / 2.0,
            PAGE_H - 30.0,
            8.0,
            &Line::plain(label),
        );
        s.finish();
        page.finish();
    }
    doc.finish().map_err(|e| format!("{e:?}"))
}

/// The footer: "Page 2 of 5" in each language, joined by a spaced "·".
fn footer(langs: &[Lang], n: usize, total: usize) -> String {
    langs
        .iter()
        .map(|l| page_label(*l, n, total))
        .collect::<Vec<_>>()
        .join("   ·   ")
}
