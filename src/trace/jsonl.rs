//! Trace files: JSON Lines, a header line then one sample per line (`docs/trace.md`).
//!
//! Reading treats the file as hostile: it must be a regular file of at most
//! [`TRACE_MAX_BYTES`]; every error names the file, the line and the field. A last line cut off
//! mid-way (the run was killed while writing) is skipped with a note, so the trace of a crashed
//! run still replays. Writing appends one line per sample and flushes it, so a killed run leaves
//! every sample taken before it.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::invalid::TraceInvalid;
use super::{Sample, TRACE_SCHEMA, TRACE_VERSION, Trace, TraceHeader};
use crate::profile::ParseProblem;

/// Largest trace file read: 256 MiB, about three days of 1 s samples of an 8-GPU machine
/// (a line is about 1 KB). Larger files are refused rather than filling memory.
pub const TRACE_MAX_BYTES: u64 = 256 << 20;

/// Why a trace could not be read. Every variant names the file; parse errors name the line
/// (1-based) and the field as a JSON path (`gpus[0].util_percent`).
#[derive(Debug)]
pub enum TraceError {
    /// The file could not be read: an OS error, not a regular file (a folder, a FIFO, a
    /// device), or larger than [`TRACE_MAX_BYTES`] ([`crate::fsutil::read_input`]'s words).
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        problem: crate::fsutil::IoProblem,
    },
    /// A line is not valid, or has a value that cannot be right.
    Line {
        /// The file.
        path: PathBuf,
        /// Line number, 1-based.
        line: usize,
        /// JSON path of the field (`.` for the line itself).
        field: String,
        /// What is wrong.
        problem: LineProblem,
    },
}

/// What is wrong with one line of a trace. The parser's problems are kept apart from
/// ramvram's own checks so that they can be worded in the user's language
/// (`present::errors::trace_error`), never in serde's words ("expected f64").
#[derive(Clone, Debug, PartialEq)]
pub enum LineProblem {
    /// The line is not UTF-8 text.
    NotUtf8,
    /// The line is not JSON, or a value doesn't fit its field (the field is the error's).
    Parse(ParseProblem),
    /// The header, the file's last line, is cut off before its JSON ends.
    HeaderCutOff(ParseProblem),
    /// The file has no line at all: a trace starts with its header line.
    Empty,
    /// A value that cannot be right, or a line out of place.
    Invalid(TraceInvalid),
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parse = |f: &mut fmt::Formatter<'_>, p: &ParseProblem| match p {
            ParseProblem::EndsEarly { .. } => write!(f, "the line ends inside its JSON"),
            ParseProblem::Missing => write!(f, "missing"),
            ParseProblem::NotObject => write!(f, "not a JSON object"),
            ParseProblem::Syntax(words) | ParseProblem::Data(words) => write!(f, "{words}"),
        };
        match self {
            LineProblem::NotUtf8 => write!(f, "not UTF-8 text"),
            LineProblem::Parse(p) => parse(f, p),
            LineProblem::HeaderCutOff(p) => {
                write!(f, "the header line is cut off: ")?;
                parse(f, p)
            }
            LineProblem::Empty => {
                write!(
                    f,
                    "the file is empty: a trace starts with a {TRACE_SCHEMA} header line"
                )
            }
            LineProblem::Invalid(i) => write!(f, "{i:?}"),
        }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Read { path, problem } => {
                write!(f, "{}: cannot read: {problem}", path.display())
            }
            TraceError::Line {
                path,
                line,
                field,
                problem,
            } => write!(
                f,
                "{}: line {line}: field `{field}`: {problem}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for TraceError {}

/// Something about a trace that was read anyway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceNote {
    /// The last line was cut off mid-way and skipped (its 1-based number).
    TruncatedLastLine(usize),
    /// Fields this version does not know, ignored (JSON paths, first of each).
    IgnoredFields(Vec<String>),
}

/// A trace read from a file, with what was noticed on the way.
#[derive(Clone, Debug)]
pub struct LoadedTrace {
    /// The trace.
    pub trace: Trace,
    /// Notes (a truncated last line, unknown fields).
    pub notes: Vec<TraceNote>,
}

/// Reads a trace file (`-` for standard input) through the one read path for named inputs,
/// [`crate::fsutil::read_input`]: a regular file of at most [`TRACE_MAX_BYTES`].
///
/// # Errors
/// [`TraceError`] naming the file (and line and field for bad content).
pub fn read_trace(path: &Path) -> Result<LoadedTrace, TraceError> {
    let bytes = crate::fsutil::read_input(path, TRACE_MAX_BYTES).map_err(|e| TraceError::Read {
        path: path.to_path_buf(),
        problem: crate::fsutil::IoProblem::of(&e),
    })?;
    parse_trace(&bytes, path)
}

/// Parses the bytes of a trace file; `path` is used only in messages.
///
/// # Errors
/// [`TraceError::Line`] for a header or sample that is not valid.
pub fn parse_trace(bytes: &[u8], path: &Path) -> Result<LoadedTrace, TraceError> {
    let line_problem = |line: usize, field: &str, problem: LineProblem| TraceError::Line {
        path: path.to_path_buf(),
        line,
        field: field.to_string(),
        problem,
    };
    let line_err = |line: usize, field: &str, invalid: TraceInvalid| {
        line_problem(line, field, LineProblem::Invalid(invalid))
    };
    let complete = bytes.ends_with(b"\n");
    let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    // split() yields an empty piece after a final newline.
    let count = if complete {
        lines.len() - 1
    } else {
        lines.len()
    };
    let mut notes = Vec::new();
    let mut ignored: Vec<String> = Vec::new();
    let mut header: Option<TraceHeader> = None;
    let mut samples: Vec<Sample> = Vec::new();
    // What the samples will hold in memory, against what the file may make it hold.
    let budget = (2 * bytes.len()).max(MIN_MEMORY_BUDGET);
    let mut held = lines.len() * std::mem::size_of::<&[u8]>();
    for (i, raw) in lines.iter().take(count).enumerate() {
        let n = i + 1;
        let last_unterminated = !complete && i + 1 == count;
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t.trim_end_matches('\r'),
            Err(_) if last_unterminated && header.is_some() => {
                notes.push(TraceNote::TruncatedLastLine(n));
                break;
            }
            Err(_) => return Err(line_problem(n, ".", LineProblem::NotUtf8)),
        };
        if text.trim().is_empty() {
            continue;
        }
        if header.is_none() {
            let (mut h, ign) = parse_line::<TraceHeader>(text).map_err(|(field, problem)| {
                let problem = if last_unterminated {
                    LineProblem::HeaderCutOff(problem)
                } else {
                    LineProblem::Parse(problem)
                };
                line_problem(n, &field, problem)
            })?;
            check_header(&h).map_err(|(f, m)| line_err(n, &f, m))?;
            if let Some(p) = h.profile.as_mut() {
                crate::profile::strings::make_one_line(p);
            }
            merge_ignored(&mut ignored, ign);
            header = Some(h);
            continue;
        }
        match parse_line::<Sample>(text) {
            Ok((mut s, ign)) => {
                check_sample(&s).map_err(|(f, m)| line_err(n, &f, m))?;
                // Index order, for [`Sample::gpu`]'s binary search (field names in errors
                // above keep the file's order).
                s.gpus.sort_by_key(|g| g.index);
                if let Some(prev) = samples.last() {
                    if s.t < prev.t {
                        return Err(line_err(
                            n,
                            "t",
                            TraceInvalid::Earlier {
                                t: s.t,
                                before: prev.t,
                            },
                        ));
                    }
                }
                merge_ignored(&mut ignored, ign);
                held += std::mem::size_of::<Sample>()
                    + s.gpus.len() * std::mem::size_of::<super::GpuSample>();
                if held > budget {
                    return Err(line_err(
                        n,
                        ".",
                        TraceInvalid::TooManySamples {
                            samples: samples.len() + 1,
                            sample_bytes: std::mem::size_of::<Sample>(),
                            gpu_bytes: std::mem::size_of::<super::GpuSample>(),
                        },
                    ));
                }
                samples.push(s);
            }
            Err(_) if last_unterminated => {
                notes.push(TraceNote::TruncatedLastLine(n));
            }
            Err((field, problem)) => {
                return Err(line_problem(n, &field, LineProblem::Parse(problem)));
            }
        }
    }
    let Some(header) = header else {
        return Err(line_problem(1, ".", LineProblem::Empty));
    };
    if !ignored.is_empty() {
        notes.push(TraceNote::IgnoredFields(ignored));
    }
    Ok(LoadedTrace {
        trace: Trace { header, samples },
        notes,
    })
}

fn merge_ignored(into: &mut Vec<String>, new: Vec<String>) {
    for f in new {
        if !into.contains(&f) && into.len() < 20 {
            into.push(f);
        }
    }
}

/// One line as `T`: (field path, message) on error; the paths of unknown fields on success. A
/// byte-order mark before the first line is skipped, and an integral float (`536870912.0`)
/// fills a count or byte field ([`crate::profile::json::from_json`]).
fn parse_line<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<(T, Vec<String>), (String, ParseProblem)> {
    crate::profile::json::from_json::<T>(text).map_err(|(at, e)| ParseProblem::of(&at, &e))
}

fn check_header(h: &TraceHeader) -> Result<(), (String, TraceInvalid)> {
    if h.schema != TRACE_SCHEMA {
        return Err(("schema".into(), TraceInvalid::NotTrace));
    }
    if h.version != TRACE_VERSION {
        return Err(("version".into(), TraceInvalid::Version { found: h.version }));
    }
    if !(h.interval_s.is_finite() && h.interval_s > 0.0 && h.interval_s <= 86_400.0) {
        return Err((
            "interval_s".into(),
            TraceInvalid::Interval {
                value: h.interval_s,
            },
        ));
    }
    Ok(())
}

/// The samples of a trace may take twice its file's size in memory (the file itself, read
/// whole, is the third), or this much for a small file: 16 MiB. A line ramvram writes holds
/// every field (about 700 bytes of text for the 384 bytes of a sample); a file of bare
/// `{"t":1}` lines (8 bytes for 384) would otherwise take 48 times its size.
pub const MIN_MEMORY_BUDGET: usize = 16 << 20;

/// Most GPUs one sample may hold: as many as a profile may list
/// ([`crate::profile::limits::MAX_GPUS`], 1,024; the largest single systems have 256).
pub const MAX_GPUS_PER_SAMPLE: usize = crate::profile::limits::MAX_GPUS;

/// Largest rate, time or power a trace may hold: 10^15 (a petabyte a second, 31 million
/// years, a gigawatt). Assumption: no machine comes near; a larger value is a broken exporter
/// or a hostile file, and would print as a 309-digit number or "inf".
pub const MAX_TRACE_VALUE: f64 = 1e15;

/// Values that parse but cannot be right: percentages outside 0–100, negative rates, a time
/// that is not a finite number of seconds, a value above [`MAX_TRACE_VALUE`], more GPUs than
/// [`MAX_GPUS_PER_SAMPLE`].
fn check_sample(s: &Sample) -> Result<(), (String, TraceInvalid)> {
    let finite_nonneg = |field: &str, v: Option<f64>| match v {
        Some(x) if !(x.is_finite() && x >= 0.0) => {
            Err((field.to_string(), TraceInvalid::Negative { value: x }))
        }
        Some(x) if x > MAX_TRACE_VALUE => {
            Err((field.to_string(), TraceInvalid::TooLarge { value: x }))
        }
        _ => Ok(()),
    };
    let percent = |field: &str, v: Option<f64>| match v {
        Some(x) if !(0.0..=100.0).contains(&x) => {
            Err((field.to_string(), TraceInvalid::Percent { value: x }))
        }
        _ => Ok(()),
    };
    finite_nonneg("t", Some(s.t))?;
    let h = &s.host;
    for (f, v) in [
        ("host.swap_in_pages_per_s", h.swap_in_pages_per_s),
        ("host.swap_out_pages_per_s", h.swap_out_pages_per_s),
        ("host.major_faults_per_s", h.major_faults_per_s),
        ("host.kswapd_cpu_percent", h.kswapd_cpu_percent),
        ("host.disk_read_bytes_per_s", h.disk_read_bytes_per_s),
    ] {
        finite_nonneg(f, v)?;
    }
    for (f, v) in [
        ("host.psi_memory_some_avg10", h.psi_memory_some_avg10),
        ("host.psi_memory_full_avg10", h.psi_memory_full_avg10),
        ("host.psi_io_some_avg10", h.psi_io_some_avg10),
        ("host.cpu_busy_percent", h.cpu_busy_percent),
        ("host.iowait_percent", h.iowait_percent),
    ] {
        percent(f, v)?;
    }
    if let (Some(used), Some(total)) = (h.shm_used_bytes, h.shm_total_bytes) {
        if used > total {
            return Err((
                "host.shm_used_bytes".into(),
                TraceInvalid::ShmAboveTotal { used, total },
            ));
        }
    }
    if s.gpus.len() > MAX_GPUS_PER_SAMPLE {
        return Err((
            "gpus".into(),
            TraceInvalid::TooManyGpus {
                count: s.gpus.len(),
            },
        ));
    }
    // Indices seen: a duplicate is found in linear time.
    let mut seen = std::collections::HashSet::with_capacity(s.gpus.len());
    for (i, g) in s.gpus.iter().enumerate() {
        percent(&format!("gpus[{i}].util_percent"), g.util_percent)?;
        finite_nonneg(&format!("gpus[{i}].power_w"), g.power_w)?;
        finite_nonneg(
            &format!("gpus[{i}].pcie_rx_bytes_per_s"),
            g.pcie_rx_bytes_per_s,
        )?;
        finite_nonneg(
            &format!("gpus[{i}].pcie_tx_bytes_per_s"),
            g.pcie_tx_bytes_per_s,
        )?;
        if !seen.insert(g.index) {
            return Err((
                format!("gpus[{i}].index"),
                TraceInvalid::GpuTwice { index: g.index },
            ));
        }
    }
    if let Some(p) = &s.process {
        finite_nonneg("process.cpu_percent", p.cpu_percent)?;
    }
    Ok(())
}

/// A whole trace as the file's text: the header line, then one line per sample (what
/// [`TraceWriter`] writes one line at a time). For a trace that exists at once, such as one
/// fetched from a metrics server; write it with [`crate::fsutil::write_atomic`].
pub fn to_jsonl(trace: &Trace) -> String {
    let mut out = serde_json::to_string(&trace.header).expect("header serialises");
    out.push('\n');
    for s in &trace.samples {
        out.push_str(&serde_json::to_string(s).expect("sample serialises"));
        out.push('\n');
    }
    out
}

/// Writes a trace as it is sampled: the header when created, then one line per sample, each
/// flushed to the file at once.
pub struct TraceWriter {
    file: std::fs::File,
}

impl TraceWriter {
    /// Creates `path` as a new file and writes the header line, through the one write path's
    /// rules ([`crate::fsutil::create_new_file`]): no link another user owns is followed, a
    /// folder or a device is refused, and a file already there is replaced by a fresh one,
    /// never truncated or written through (another user may have created it, or linked it to
    /// someone else's file). ramvram may run as root in a shared folder.
    ///
    /// # Errors
    /// The OS error; a folder that doesn't exist as [`crate::fsutil::MissingFolder`]; a
    /// refusal (`InvalidInput` / `PermissionDenied`) with its sentence. Worded with the path by
    /// `present::errors::write_failed`.
    pub fn create(path: &Path, header: &TraceHeader) -> std::io::Result<TraceWriter> {
        let file = crate::fsutil::create_new_file(path)?;
        let mut w = TraceWriter { file };
        let line = serde_json::to_string(header).expect("header serialises");
        if let Err(e) = w.write_line(&line) {
            // A recording that never started leaves no file (a disk full from the start would
            // leave an empty trace that no reader accepts). Only the file created here goes:
            // the name still leads to the same file (device and inode), or it is left alone.
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let ours = w.file.metadata().ok().map(|m| (m.dev(), m.ino()));
                let there = std::fs::symlink_metadata(path)
                    .ok()
                    .map(|m| (m.dev(), m.ino()));
                if ours.is_some() && ours == there {
                    let _ = std::fs::remove_file(path);
                }
            }
            #[cfg(not(unix))]
            {
                drop(w);
                let _ = std::fs::remove_file(path);
            }
            return Err(e);
        }
        Ok(w)
    }

    /// Appends one sample.
    ///
    /// # Errors
    /// The OS error (disk full, …).
    pub fn append(&mut self, sample: &Sample) -> std::io::Result<()> {
        let line = serde_json::to_string(sample).expect("sample serialises");
        self.write_line(&line)
    }

    fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        // One write per line: a reader never sees half a line unless the process dies inside
        // this call.
        self.file.write_all(&buf).and_then(|()| self.file.flush())
    }
}

#[cfg(test)]
mod tests {
    /// The error as the command line words it in English.
    fn words(e: TraceError) -> String {
        crate::present::errors::trace_error(crate::i18n::Lang::En, &e)
    }

    use super::*;
    use crate::trace::{GpuSample, HostSample};

    const HEADER: &str =
        r#"{"schema":"ramvram-trace","version":1,"profile":null,"interval_s":1.0}"#;

    fn p() -> &'static Path {
        Path::new("run.jsonl")
    }

    #[test]
    fn header_and_samples_parse_with_unknowns() {
        let text = format!(
            "{HEADER}\n{}\n{}\n",
            r#"{"t":0,"host":{"mem_available_bytes":1073741824},"gpus":[],"process":null}"#,
            r#"{"t":1,"host":{"swap_in_pages_per_s":null},"gpus":[{"index":0,"util_percent":97.5}]}"#
        );
        let t = parse_trace(text.as_bytes(), p()).unwrap();
        assert!(t.notes.is_empty());
        assert_eq!(t.trace.samples.len(), 2);
        assert_eq!(t.trace.samples[0].host.mem_available_bytes, Some(1 << 30));
        assert_eq!(t.trace.samples[1].host.swap_in_pages_per_s, None);
        assert_eq!(t.trace.samples[1].gpus[0].util_percent, Some(97.5));
        // Two samples 1 s apart, each standing for 1 s: 2 s.
        assert_eq!(t.trace.duration_s(), 2.0);
    }

    #[test]
    fn a_byte_order_mark_and_integral_floats_are_read_and_fractions_named() {
        // Python's json.dumps(float(2**29)) writes 536870912.0: the integer 2^29 = 536,870,912.
        let text = format!(
            "\u{feff}{HEADER}\n{}\n",
            r#"{"t":0,"host":{"mem_available_bytes":536870912.0},"gpus":[{"index":1.0}]}"#
        );
        let t = parse_trace(text.as_bytes(), p()).unwrap().trace;
        assert_eq!(t.samples[0].host.mem_available_bytes, Some(536_870_912));
        assert_eq!(t.samples[0].gpus[0].index, 1);
        let text = format!(
            "{HEADER}\n{}\n",
            r#"{"t":0,"host":{"mem_available_bytes":0.5}}"#
        );
        let e = parse_trace(text.as_bytes(), p()).unwrap_err().to_string();
        assert!(
            e.contains("line 2: field `host.mem_available_bytes`"),
            "{e}"
        );
    }

    #[test]
    fn many_gpus_are_capped_and_read_in_linear_time_and_absurd_values_named() {
        // 1,024 GPUs (the cap) in reverse order, twice: read, and sorted by index.
        let gpus: Vec<String> = (0..1024u32)
            .rev()
            .map(|i| format!(r#"{{"index":{i},"util_percent":50}}"#))
            .collect();
        let line = format!(r#"{{"t":0,"gpus":[{}]}}"#, gpus.join(","));
        let text = format!(
            "{HEADER}\n{line}\n{}\n",
            line.replace(r#""t":0"#, r#""t":1"#)
        );
        let t = parse_trace(text.as_bytes(), p()).unwrap().trace;
        assert_eq!(t.samples[1].gpus.len(), 1024);
        assert_eq!(t.samples[1].gpus[0].index, 0);
        assert_eq!(t.samples[1].gpu(700).map(|g| g.index), Some(700));
        // 1,025: refused, the field named.
        let over = format!(r#"{{"t":0,"gpus":[{},{{"index":5000}}]}}"#, gpus.join(","));
        let e = words(parse_trace(format!("{HEADER}\n{over}\n").as_bytes(), p()).unwrap_err());
        assert!(e.contains("line 2: field `gpus`: 1025 GPUs"), "{e}");
        // 1e308 pages a second: refused rather than printed as a 309-digit number.
        let absurd = r#"{"t":0,"host":{"swap_in_pages_per_s":1e308}}"#;
        let e = words(parse_trace(format!("{HEADER}\n{absurd}\n").as_bytes(), p()).unwrap_err());
        assert!(
            e.contains("field `host.swap_in_pages_per_s`: 1e308 is more"),
            "{e}"
        );
    }

    #[test]
    fn sparse_lines_that_would_take_many_times_the_file_in_memory_are_refused() {
        // 2,000,000 lines of `{"t":N}`: about 20 MB, each a 384-byte sample (768 MB).
        let mut text = String::from(HEADER);
        text.push('\n');
        for t in 0..2_000_000u32 {
            text.push_str(&format!("{{\"t\":{t}}}\n"));
        }
        let e = words(parse_trace(text.as_bytes(), p()).unwrap_err());
        assert!(
            e.contains("more than twice the file's size in memory"),
            "{e}"
        );
        // By hand: the file is L bytes; its 2,000,002 pieces (the header, the samples and the
        // empty piece after the last newline) cost a slice each up front (16 bytes on 64-bit);
        // each sample a `Sample` more (384 bytes). The k-th sample passes 2L when
        // 2,000,002 × 16 + k × 384 > 2L, on line k + 1.
        let (piece, sample) = (std::mem::size_of::<&[u8]>(), std::mem::size_of::<Sample>());
        let k = (2 * text.len() - 2_000_002 * piece) / sample + 1;
        let line: usize = e
            .split("line ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert_eq!(line, k + 1, "{e}");
    }

    #[test]
    fn a_line_cut_off_mid_way_is_skipped_with_a_note() {
        let text = format!("{HEADER}\n{{\"t\":0}}\n{{\"t\":1,\"host\":{{\"mem_ava");
        let t = parse_trace(text.as_bytes(), p()).unwrap();
        assert_eq!(t.trace.samples.len(), 1);
        assert_eq!(t.notes, vec![TraceNote::TruncatedLastLine(3)]);
    }

    #[test]
    fn a_bad_line_in_the_middle_names_line_and_field() {
        let text = format!(
            "{HEADER}\n{{\"t\":0}}\n{{\"t\":1,\"gpus\":[{{\"index\":0,\"util_percent\":\"high\"}}]}}\n{{\"t\":2}}\n"
        );
        let e = parse_trace(text.as_bytes(), p()).unwrap_err().to_string();
        assert!(
            e.starts_with("run.jsonl: line 3: field `gpus[0].util_percent`"),
            "{e}"
        );
    }

    #[test]
    fn impossible_values_are_refused() {
        let bad = [
            (
                r#"{"t":0,"gpus":[{"index":0,"util_percent":140}]}"#,
                "gpus[0].util_percent",
            ),
            (
                r#"{"t":0,"host":{"swap_in_pages_per_s":-3}}"#,
                "host.swap_in_pages_per_s",
            ),
            (r#"{"t":-1}"#, "t"),
            (
                r#"{"t":0,"host":{"shm_used_bytes":10,"shm_total_bytes":5}}"#,
                "host.shm_used_bytes",
            ),
            (
                r#"{"t":0,"gpus":[{"index":1},{"index":1}]}"#,
                "gpus[1].index",
            ),
        ];
        for (line, field) in bad {
            let text = format!("{HEADER}\n{line}\n");
            let e = parse_trace(text.as_bytes(), p()).unwrap_err().to_string();
            assert!(e.contains(&format!("line 2: field `{field}`")), "{e}");
        }
        let back = format!("{HEADER}\n{{\"t\":5}}\n{{\"t\":4}}\n");
        let e = parse_trace(back.as_bytes(), p()).unwrap_err().to_string();
        assert!(e.contains("line 3: field `t`"), "{e}");
    }

    #[test]
    fn wrong_schema_version_and_empty_files_are_errors() {
        let other = r#"{"schema":"something","version":1,"interval_s":1}"#;
        let e = parse_trace(other.as_bytes(), p()).unwrap_err().to_string();
        assert!(e.contains("line 1: field `schema`"), "{e}");
        let newer = r#"{"schema":"ramvram-trace","version":2,"interval_s":1}"#;
        let e = parse_trace(newer.as_bytes(), p()).unwrap_err().to_string();
        assert!(e.contains("field `version`"), "{e}");
        let e = parse_trace(b"", p()).unwrap_err().to_string();
        assert!(e.contains("empty"), "{e}");
        let e = parse_trace(b"\xff\xfe\n", p()).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("UTF-8"), "{e}");
        // A header cut off is an error, not an empty trace.
        let e = parse_trace(br#"{"schema":"ramvr"#, p())
            .unwrap_err()
            .to_string();
        assert!(e.contains("cut off"), "{e}");
    }

    #[test]
    fn unknown_fields_are_noted() {
        let text = format!("{HEADER}\n{{\"t\":0,\"host\":{{\"future\":1}},\"extra\":2}}\n");
        let t = parse_trace(text.as_bytes(), p()).unwrap();
        assert_eq!(
            t.notes,
            vec![TraceNote::IgnoredFields(vec![
                "host.future".into(),
                "extra".into()
            ])]
        );
    }

    #[test]
    fn written_trace_reads_back_and_refuses_folders_and_links_to_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let header = TraceHeader::new(None, 0.5);
        let mut w = TraceWriter::create(&path, &header).unwrap();
        let s = Sample {
            t: 0.5,
            host: HostSample {
                swap_used_bytes: Some(4096),
                ..Default::default()
            },
            gpus: vec![GpuSample {
                index: 0,
                power_w: Some(301.5),
                ..Default::default()
            }],
            process: None,
        };
        w.append(&s).unwrap();
        drop(w);
        let back = read_trace(&path).unwrap();
        assert_eq!(back.trace.header, header);
        assert_eq!(back.trace.samples, vec![s]);
        #[cfg(unix)]
        {
            // A link of this user's own is followed as write_atomic follows it: the file it
            // names is replaced by a fresh recording (header only), the link stays a link.
            let link = dir.path().join("link.jsonl");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            drop(TraceWriter::create(&link, &header).unwrap());
            assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
            assert!(read_trace(&path).unwrap().trace.samples.is_empty());
            // A link to nothing is refused: nothing is created where it points.
            let nothing = dir.path().join("nothing.jsonl");
            let dangling = dir.path().join("dangling.jsonl");
            std::os::unix::fs::symlink(&nothing, &dangling).unwrap();
            assert!(TraceWriter::create(&dangling, &header).is_err());
            assert!(!nothing.exists());
        }
        assert!(TraceWriter::create(dir.path(), &header).is_err());
        let e = read_trace(dir.path()).unwrap_err().to_string();
        assert!(e.contains("a folder"), "{e}");
    }
}
