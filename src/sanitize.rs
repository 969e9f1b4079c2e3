//! Text hygiene for every output: strings from profiles, Slurm inventories and file names are
//! hostile, and a control or bidirectional-override character in a host name must not move a
//! terminal's cursor, reorder a report's text, break an SVG parser or open a Markdown heading.
//!
//! One rule ([`is_unsafe`]) serves the terminal ([`clean`]), the reports' blocks
//! ([`clean_line`], via `report::clean`), JSON ([`write_json_pretty`]) and Markdown
//! ([`markdown_inline`]).

use std::borrow::Cow;
use std::io::{self, Write};

/// True for characters no output should carry: C0 and C1 control characters and DEL (tab and
/// newline are decided by the caller), Unicode bidirectional formatting characters (ALM U+061C,
/// LRM/RLM U+200E–U+200F, embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069),
/// the line and paragraph separators U+2028–U+2029, the byte-order mark U+FEFF, and
/// noncharacters (U+FDD0–U+FDEF and the last two code points of every plane, e.g. U+FFFE),
/// which XML 1.0 forbids and SVG parsers reject. Source: Unicode Standard §23.2 (bidi
/// controls), §23.7 (noncharacters); XML 1.0 § 2.2 (allowed characters).
pub fn is_unsafe(c: char) -> bool {
    let u = c as u32;
    (c.is_control() && c != '\n' && c != '\t')
        || c == '\u{061c}'
        || ('\u{200e}'..='\u{200f}').contains(&c)
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
        || ('\u{2028}'..='\u{2029}').contains(&c)
        || c == '\u{feff}'
        || (0xfdd0..=0xfdef).contains(&u)
        || u & 0xfffe == 0xfffe
}

/// `text` without [`is_unsafe`] characters (newlines and tabs kept). Borrows when nothing had
/// to go.
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|c| !is_unsafe(*c)).collect())
}

/// [`clean`] for one line: newlines, carriage returns and tabs become spaces as well.
pub fn clean_line(text: &str) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) || c == '\n' || c == '\t';
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .filter(|c| !is_unsafe(*c))
            .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
            .collect(),
    )
}

/// `text` on one line with every [`is_unsafe`] character, newline, carriage return and tab
/// shown escaped (`\n`, `\r`, `\t`, else `\u{202e}`), so that a hostile string (a host name,
/// a GPU name, a server's label, a file name) can't start a new line of output, move the
/// cursor or reorder text, and the reader still sees that something was there. Borrows when
/// nothing had to be escaped.
pub fn one_line(text: &str) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) || c == '\n' || c == '\t';
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The most characters [`data`] shows of one string read from a file or a server: enough for
/// any real tensor name, dtype, architecture, host or path component (Hugging Face's longest
/// tensor names are under 100 characters), short enough that a hostile 5 MB name prints one
/// short line. Assumption, not a standard.
pub const DATA_MAX_CHARS: usize = 160;

/// A string that came from a file or a server (a tensor name, a dtype, `model_type`, a GGUF
/// architecture, a folder or file name, a mount point, a label), made safe to word into any
/// line ramvram prints — terminal, Markdown, PDF, the window: [`one_line`]'s escapes (line
/// breaks, control characters and bidirectional overrides shown as `\n`, `\u{202e}`), then
/// clipped to [`DATA_MAX_CHARS`] characters with "…" and the length of the whole string in
/// bytes ("…(5000000 B)"), so the reader sees that it was cut and by how much. Reads at most a
/// few hundred characters of `text` however long it is. Borrows when nothing had to change.
pub fn data(text: &str) -> Cow<'_, str> {
    clipped(text, DATA_MAX_CHARS)
}

/// The most characters [`path`] shows of a path: 4,096, Linux's `PATH_MAX` (limits.h), so that
/// no real path is cut while a name read from a file (an index's shard name) still prints a
/// bounded line.
pub const PATH_MAX_CHARS: usize = 4096;

/// A path to word into a line: [`data`]'s escapes, clipped only past [`PATH_MAX_CHARS`].
pub fn path(text: &str) -> Cow<'_, str> {
    clipped(text, PATH_MAX_CHARS)
}

/// [`one_line`]'s escapes, then at most `max` characters, then "…(N B)" with the whole length.
fn clipped(text: &str, max: usize) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) || c == '\n' || c == '\t';
    // Character count with an early stop: the clip test must not walk 5 MB either.
    let long = text.chars().nth(max).is_some();
    if !long && !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(max.min(text.len()) + 24);
    let mut shown = 0;
    let mut clipped = false;
    for c in text.chars() {
        let piece: Cow<'_, str> = match c {
            '\n' => "\\n".into(),
            '\r' => "\\r".into(),
            '\t' => "\\t".into(),
            c if is_unsafe(c) => format!("\\u{{{:x}}}", c as u32).into(),
            c => c.to_string().into(),
        };
        let width = piece.chars().count();
        if shown + width > max {
            clipped = true;
            break;
        }
        shown += width;
        out.push_str(&piece);
    }
    if clipped {
        out.push_str(&format!("…({} B)", text.len()));
    }
    Cow::Owned(out)
}

/// What [`write_json_pretty`] does with an [`is_unsafe`] character inside a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnsafeInJson {
    /// Written as a `\uXXXX` escape (UTF-16, so a plane-1 noncharacter becomes a surrogate
    /// pair): the data is unchanged for a JSON reader, and a terminal showing the file sees no
    /// raw control or override character. Files (reports).
    Escape,
    /// Left out, as [`clean`] does for every other output of the command line.
    Drop,
}

/// serde_json's pretty layout (two-space indent, `": "` after a key) with every [`is_unsafe`]
/// character of a string escaped or dropped as it is written. serde_json already escapes C0
/// controls; this handles DEL, C1 and the Unicode formatting characters, which can only occur
/// inside strings. Working on the string fragments, not on the finished text, and writing each
/// line break with its indent at once, keeps 1.2 GB of fleet JSON within its CPU budget
/// (docs/benchmarks.md); the layout is serde_json's `PrettyFormatter`'s, byte for byte (tested).
struct SafeStrings {
    /// How deep the value being written is.
    depth: usize,
    /// Whether the array or object being written has a value yet.
    has_value: bool,
    unsafe_chars: UnsafeInJson,
}

/// A comma, a line break and the indent of 64 levels, sliced for each line.
const BREAK_AND_INDENT: &[u8; 130] = b",\n                                                                                                                                ";

impl SafeStrings {
    /// A line break (after a comma unless `first`) and the indent of the current depth.
    fn new_line<W: ?Sized + Write>(&self, w: &mut W, first: bool) -> io::Result<()> {
        let start = usize::from(first);
        let wanted = 2 + 2 * self.depth;
        if wanted <= BREAK_AND_INDENT.len() {
            return w.write_all(&BREAK_AND_INDENT[start..wanted]);
        }
        w.write_all(&BREAK_AND_INDENT[start..])?;
        for _ in 0..(wanted - BREAK_AND_INDENT.len()) / 2 {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.new_line(w, true)?;
        }
        w.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for SafeStrings {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.new_line(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.new_line(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Printable ASCII, the usual case, holds no unsafe character.
        if fragment.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return w.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if !is_unsafe(c) {
                continue;
            }
            w.write_all(&fragment.as_bytes()[start..i])?;
            if self.unsafe_chars == UnsafeInJson::Escape {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(w, "\\u{u:04x}")?;
                }
            }
            start = i + c.len_utf8();
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// Writes `value` as pretty JSON (serde_json's layout) to `out`, with every [`is_unsafe`]
/// character inside a string escaped or dropped (`unsafe_chars`). Nothing is added after the
/// closing bracket.
///
/// # Errors
/// The writer's error, or the value's own serialisation error.
pub fn write_json_pretty<W: Write, T: serde::Serialize + ?Sized>(
    out: W,
    value: &T,
    unsafe_chars: UnsafeInJson,
) -> serde_json::Result<()> {
    let formatter = SafeStrings {
        depth: 0,
        has_value: false,
        unsafe_chars,
    };
    value.serialize(&mut serde_json::Serializer::with_formatter(out, formatter))
}

/// [`write_json_pretty`] into a string.
///
/// # Errors
/// The value's own serialisation error (a map with non-string keys, a failing `Serialize`).
pub fn json_pretty<T: serde::Serialize + ?Sized>(
    value: &T,
    unsafe_chars: UnsafeInJson,
) -> serde_json::Result<String> {
    let mut bytes = Vec::with_capacity(4096);
    write_json_pretty(&mut bytes, value, unsafe_chars)?;
    // serde_json writes UTF-8, and the formatter only removes whole characters or adds ASCII.
    Ok(String::from_utf8(bytes).expect("serde_json writes UTF-8"))
}

/// One line of Markdown text that renders as the same words and nothing else: [`clean_line`],
/// then a backslash before every character that could start raw HTML, an entity, a link or a
/// table cell (`\ < > & [ ] |`), and before a first character that would start a block
/// (`#`, `>`, `-`, `+`, `*`, `=`, `_`, or a number, `.` or `)` and a space: a heading, quote,
/// list or rule).
/// CommonMark § 2.4 allows a backslash before any ASCII punctuation.
pub fn markdown_inline(text: &str) -> String {
    let line = clean_line(text);
    let mut out = String::with_capacity(line.len() + 8);
    let trimmed = line.trim_start();
    let lead = line.len() - trimmed.len();
    out.push_str(&line[..lead]);
    // An ordered-list marker is 1–9 digits, `.` or `)`, then a space or the end of the line.
    let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
    let after = &trimmed[digits..];
    let list_number = (1..=9).contains(&digits)
        && after.starts_with(['.', ')'])
        && (after.len() == 1 || after[1..].starts_with(' '));
    let starts_block = trimmed.starts_with(['#', '>', '-', '+', '*', '=', '_']) || list_number;
    for (i, c) in trimmed.char_indices() {
        let escape = matches!(c, '\\' | '<' | '>' | '&' | '[' | ']' | '|')
            || (starts_block && i == if list_number { digits } else { 0 });
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bidi_and_noncharacters_are_removed() {
        assert_eq!(clean("gpu\u{1b}]0;pwned\u{7}-01"), "gpu]0;pwned-01");
        assert_eq!(clean("a\u{0}b\u{fffe}c\u{1fffe}d\u{9b}e"), "abcde");
        assert_eq!(clean("abc\u{202e}fdp.exe"), "abcfdp.exe");
        assert_eq!(clean("x\u{2066}y\u{2069}\u{200f}z"), "xyz");
        assert_eq!(clean("line 1\nline\t2"), "line 1\nline\t2");
        assert!(matches!(clean("节点-01 ✓"), Cow::Borrowed(_)));
        assert_eq!(clean_line("a\nb\r\nc\td"), "a b c d");
    }

    #[test]
    fn one_line_shows_line_breaks_controls_and_overrides_escaped() {
        assert_eq!(
            one_line("evil\nFORGED\r\tx\u{202e}y\u{1b}[2J"),
            r"evil\nFORGED\r\tx\u{202e}y\u{1b}[2J"
        );
        assert!(matches!(one_line("节点-01 ✓"), Cow::Borrowed(_)));
    }

    #[test]
    fn data_is_escaped_on_one_line_and_clipped() {
        // A forged line stays visible as text, on the same line.
        assert_eq!(
            data("q\nramvram: FAKE LINE: verdict OK"),
            r"q\nramvram: FAKE LINE: verdict OK"
        );
        assert_eq!(data("a\u{1b}[2Jb\u{202e}"), r"a\u{1b}[2Jb\u{202e}");
        assert!(matches!(
            data("model.layers.0.self_attn.q_proj.weight"),
            Cow::Borrowed(_)
        ));
        // A 5,000,000-byte name: 160 characters kept, then the ellipsis and the whole length.
        let huge = "x".repeat(5_000_000);
        let shown = data(&huge);
        assert_eq!(shown, format!("{}…(5000000 B)", "x".repeat(160)));
        // Exactly 160 characters (of 3 bytes each) is not clipped; 161 is.
        let at = "节".repeat(160);
        assert!(matches!(data(&at), Cow::Borrowed(_)));
        let over = "节".repeat(161);
        assert_eq!(data(&over), format!("{}…(483 B)", "节".repeat(160)));
        // An escape is never cut in half: 159 letters then a newline (2 characters escaped).
        let edge = format!("{}\nrest", "y".repeat(159));
        assert_eq!(data(&edge), format!("{}…(164 B)", "y".repeat(159)));
        // A path keeps up to PATH_MAX characters: a 300-character one whole, escaped.
        let long_path = format!("/data/{}\n", "p".repeat(300));
        assert_eq!(path(&long_path), format!("/data/{}\\n", "p".repeat(300)));
        assert!(path(&"q".repeat(5000)).ends_with("…(5000 B)"));
    }

    #[test]
    fn json_keeps_its_data_and_shows_no_raw_controls() {
        // RLM-override U+202E, the C1 control NEL U+0085 and the noncharacter U+1FFFE, whose
        // UTF-16 form is the surrogate pair D83F DFFE (Unicode §3.9: (0x1FFFE − 0x10000) >> 10
        // = 0x3F above 0xD800, low ten bits 0x3FE above 0xDC00); the tab is escaped by
        // serde_json itself.
        let value = serde_json::json!({"host": "a\u{202e}b\u{85}c\u{1fffe}\td"});
        let safe = json_pretty(&value, UnsafeInJson::Escape).unwrap();
        assert_eq!(
            safe,
            "{\n  \"host\": \"a\\u202eb\\u0085c\\ud83f\\udffe\\td\"\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, value);
        let dropped = json_pretty(&value, UnsafeInJson::Drop).unwrap();
        assert_eq!(dropped, "{\n  \"host\": \"abc\\td\"\n}");
        // Everything else is serde_json's own pretty layout.
        let mut deep = serde_json::json!([[], {}, 1.5, null]);
        for i in 0..70 {
            deep = serde_json::json!({ "k": [i, deep], "e": [] });
        }
        let plain = serde_json::json!({"a": [1, "节点"], "b": {}, "deep": deep});
        assert_eq!(
            json_pretty(&plain, UnsafeInJson::Escape).unwrap(),
            serde_json::to_string_pretty(&plain).unwrap()
        );
    }

    #[test]
    fn markdown_text_cannot_open_html_headings_links_or_cells() {
        assert_eq!(
            markdown_inline("node\n# Owned <script>alert(1)</script>"),
            r"node # Owned \<script\>alert(1)\</script\>"
        );
        assert_eq!(markdown_inline("# top"), r"\# top");
        assert_eq!(markdown_inline("12. item"), r"12\. item");
        assert_eq!(markdown_inline("12.0 GiB"), "12.0 GiB");
        assert_eq!(markdown_inline("- x | y"), r"\- x \| y");
        assert_eq!(markdown_inline("[click](http://x)"), r"\[click\](http://x)");
        assert_eq!(markdown_inline("&amp; a\\b"), r"\&amp; a\\b");
        assert_eq!(
            markdown_inline("16.0 GiB (ratio 0.67×)"),
            "16.0 GiB (ratio 0.67×)"
        );
    }
}
