//! Errors about files and values in the user's language: a profile or scenario that can't be
//! read or can't be right, a file skipped from the Lab machines view, a bad flag value. The
//! data comes from `profile`, `inputs` and the advisor as ids; the words from `locales/`.

use std::path::Path;

use crate::fsutil::IoProblem;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::inputs::scenario::ScenarioError;
use crate::profile::dir::Skip;
use crate::profile::{ParseProblem, Problem, ProfileError};

/// A number from a message's data: scientific notation past 10^15 ([`crate::format::number_text`]),
/// any other text on one line and clipped ([`crate::sanitize::data`]).
fn num(text: &str) -> String {
    crate::sanitize::data(&crate::format::number_text(text)).into_owned()
}

/// What is wrong with a value: "300 is outside 0–200"; numbers past 10^15 in scientific
/// notation ("1e308 is outside 1–1000").
pub fn problem(lang: Lang, p: &Problem) -> String {
    match p {
        Problem::Zero => tr(lang, Msg::ProblemZero).to_string(),
        Problem::OutOfRange { value, lo, hi } => trf(
            lang,
            Msg::ProblemOutOfRange,
            &[("value", &num(value)), ("lo", &num(lo)), ("hi", &num(hi))],
        ),
        Problem::TooLarge { value, max } => trf(
            lang,
            Msg::ProblemTooLarge,
            &[("value", &num(value)), ("max", &num(max))],
        ),
        Problem::LargerThanField {
            value,
            other,
            other_value,
        } => trf(
            lang,
            Msg::ProblemLargerThanField,
            &[
                ("value", &num(value)),
                ("other", other),
                ("other_value", &num(other_value)),
            ],
        ),
        Problem::TooLong { max } => trf(lang, Msg::ProblemTooLong, &[("max", &max.to_string())]),
        Problem::TooMany { count, max } => trf(
            lang,
            Msg::ProblemTooMany,
            &[("count", &count.to_string()), ("max", &max.to_string())],
        ),
        Problem::AboveZeroAtMost { value, hi } => trf(
            lang,
            Msg::ProblemAboveZeroAtMost,
            &[("value", &num(value)), ("hi", &num(hi))],
        ),
        Problem::NotPositive { value } => {
            trf(lang, Msg::ProblemNotPositive, &[("value", &num(value))])
        }
        Problem::SchemaVersion => tr(lang, Msg::ProblemSchemaVersion).to_string(),
        Problem::WidthHeightPair => tr(lang, Msg::ProblemWidthHeightPair).to_string(),
        Problem::NeedsSampleBytes => tr(lang, Msg::ProblemNeedsSampleBytes).to_string(),
    }
}

/// Why a file couldn't be read or written: the common reasons in the user's language (no such
/// file, permission denied, a read-only file system, a full disk), else the words of the OS or
/// of ramvram's refusal.
pub fn io_problem(lang: Lang, p: &IoProblem) -> String {
    match p {
        IoProblem::MissingFolder(dir) => trf(
            lang,
            Msg::ErrorFolderMissing,
            &[("dir", &dir.display().to_string())],
        ),
        IoProblem::NotFound => tr(lang, Msg::ErrorIoNotFound).to_string(),
        IoProblem::PermissionDenied => tr(lang, Msg::ErrorIoPermissionDenied).to_string(),
        IoProblem::ReadOnly => tr(lang, Msg::ErrorIoReadOnly).to_string(),
        IoProblem::NoSpace => tr(lang, Msg::ErrorIoNoSpace).to_string(),
        IoProblem::Input(i) => input_problem(lang, *i),
        IoProblem::Refused(_) | IoProblem::Other(_) => p.to_string(),
    }
}

/// Why a named input was refused before it was read (a folder, a FIFO, too large, not text).
fn input_problem(lang: Lang, p: crate::fsutil::InputProblem) -> String {
    use crate::fsutil::InputProblem as P;
    let msg = match p {
        P::Directory => Msg::ErrorInputDirectory,
        P::Fifo => Msg::ErrorInputFifo,
        P::CharDevice => Msg::ErrorInputCharDevice,
        P::BlockDevice => Msg::ErrorInputBlockDevice,
        P::Socket => Msg::ErrorInputSocket,
        P::TooLarge(cap) => {
            return trf(
                lang,
                Msg::ErrorInputTooLarge,
                &[("mib", &(cap >> 20).to_string())],
            );
        }
        P::NotText => Msg::ErrorInputNotText,
        P::Link => Msg::ErrorInputLink,
        P::Changed => Msg::ErrorInputChanged,
    };
    tr(lang, msg).to_string()
}

/// "FILE: REASON" / "FILE：REASON".
fn in_file(lang: Lang, file: &str, reason: &str) -> String {
    // A file name is hostile text: on one line, escaped, clipped.
    let file = crate::sanitize::path(file);
    trf(
        lang,
        Msg::ErrorInFile,
        &[("file", &file), ("reason", reason)],
    )
}

/// Why a file couldn't be written, naming the file as the user gave it: "x.pdf: the folder
/// /nonexistent/dir doesn't exist", "x.pdf: cannot write: permission denied".
pub fn write_failed(lang: Lang, path: &Path, e: &std::io::Error) -> String {
    write_problem(lang, &path.display().to_string(), &IoProblem::of(e))
}

fn write_problem(lang: Lang, file: &str, p: &IoProblem) -> String {
    in_file(lang, file, &write_reason(lang, p))
}

/// Why a file couldn't be read, naming it: "x.json: cannot read: no such file".
pub fn read_failed(lang: Lang, path: &Path, e: &std::io::Error) -> String {
    let reason = trf(
        lang,
        Msg::ErrorRead,
        &[("error", &io_problem(lang, &IoProblem::of(e)))],
    );
    in_file(lang, &path.display().to_string(), &reason)
}

/// A profile file's error, naming the file and the field: "server.json: field
/// `memory.swappiness`: 300 is outside 0–200".
pub fn profile_error(lang: Lang, e: &ProfileError) -> String {
    let file = e.path().display().to_string();
    if let ProfileError::Write { error, .. } = e {
        return write_problem(lang, &file, error);
    }
    in_file(lang, &file, &profile_problem(lang, e))
}

/// A JSON document's (or trace line's) parse problem at `field`, in `lang`: the field, and
/// serde's words reworded with the expected type in plain words ([`super::serde_words`]).
pub(crate) fn parse_problem(lang: Lang, field: &str, problem: &ParseProblem) -> String {
    match problem {
        ParseProblem::EndsEarly { line } => {
            trf(lang, Msg::ErrorEndsEarly, &[("line", &line.to_string())])
        }
        ParseProblem::Missing => trf(lang, Msg::ErrorMissingField, &[("field", field)]),
        ParseProblem::NotObject => tr(lang, Msg::ErrorNotObject).to_string(),
        ParseProblem::Syntax(words) => trf(
            lang,
            Msg::ErrorSyntax,
            &[("error", &super::serde_words::syntax_words(lang, words))],
        ),
        ParseProblem::Data(words) if field == "." || field.is_empty() => {
            super::serde_words::data_words(lang, words)
        }
        ParseProblem::Data(words) => trf(
            lang,
            Msg::ErrorParse,
            &[
                ("field", field),
                ("error", &super::serde_words::data_words(lang, words)),
            ],
        ),
    }
}

/// A trace file's error in `lang`, naming the file, the line and the field: "run.jsonl: line
/// 3: field `t`: invalid type: a string, expected a number at column 6" (the column within the
/// line; the parser's own "line 1" is the line alone). A file that can't be read gets the
/// common reasons in the user's words ([`io_problem`]). serde's type names ("f64") and any
/// string from the file never appear.
pub fn trace_error(lang: Lang, e: &crate::trace::jsonl::TraceError) -> String {
    use crate::trace::jsonl::{LineProblem, TraceError};
    match e {
        TraceError::Read { path, problem } => in_file(
            lang,
            &path.display().to_string(),
            &trf(
                lang,
                Msg::ErrorRead,
                &[("error", &io_problem(lang, problem))],
            ),
        ),
        TraceError::Line {
            path,
            line,
            field,
            problem,
        } => {
            let parsed = |p: &ParseProblem| match p {
                // A line is parsed alone: its JSON ending early is the line's, not the file's.
                ParseProblem::EndsEarly { .. } => {
                    tr(lang, Msg::TraceErrorLineEndsEarly).to_string()
                }
                // The parser's place is "line 1" of the line alone: only its column is said.
                ParseProblem::Syntax(words) | ParseProblem::Data(words) => {
                    let (body, column) = match words.rsplit_once(" at line 1 column ") {
                        Some((body, column)) if column.bytes().all(|b| b.is_ascii_digit()) => {
                            (body.to_string(), Some(column))
                        }
                        _ => (words.clone(), None),
                    };
                    let alone = match p {
                        ParseProblem::Syntax(_) => ParseProblem::Syntax(body),
                        _ => ParseProblem::Data(body),
                    };
                    let mut text = parse_problem(lang, field, &alone);
                    if let Some(column) = column {
                        text.push_str(&trf(lang, Msg::ErrorSerdeAtColumn, &[("column", column)]));
                    }
                    text
                }
                p => parse_problem(lang, field, p),
            };
            let reason = match problem {
                LineProblem::NotUtf8 => tr(lang, Msg::TraceErrorNotUtf8).to_string(),
                LineProblem::Parse(p) => parsed(p),
                LineProblem::HeaderCutOff(p) => {
                    trf(lang, Msg::TraceErrorHeaderCutOff, &[("error", &parsed(p))])
                }
                LineProblem::Empty => tr(lang, Msg::TraceErrorEmpty).to_string(),
                LineProblem::Invalid(i) => invalid_problem(lang, field, &trace_invalid(lang, i)),
            };
            let reason = trf(
                lang,
                Msg::TraceErrorLine,
                &[("line", &line.to_string()), ("reason", &reason)],
            );
            in_file(lang, &path.display().to_string(), &reason)
        }
    }
}

/// A trace value that can't be right, or a line out of place, in `lang`: "140 is outside
/// 0–100 %". Numbers as Rust writes them (the file's own figure), a too-large one in
/// scientific notation.
fn trace_invalid(lang: Lang, i: &crate::trace::invalid::TraceInvalid) -> String {
    use crate::trace::invalid::TraceInvalid as I;
    use crate::trace::jsonl::{MAX_GPUS_PER_SAMPLE, MAX_TRACE_VALUE};
    let (msg, args): (Msg, Vec<(&str, String)>) = match i {
        I::NotTrace => (
            Msg::TraceErrorNotTrace,
            vec![("schema", crate::trace::TRACE_SCHEMA.to_string())],
        ),
        I::Version { found } => (
            Msg::TraceErrorVersion,
            vec![
                ("found", found.to_string()),
                ("supported", crate::trace::TRACE_VERSION.to_string()),
            ],
        ),
        I::Interval { value } => (Msg::TraceErrorInterval, vec![("value", value.to_string())]),
        I::Earlier { t, before } => (
            Msg::TraceErrorEarlier,
            vec![("t", t.to_string()), ("before", before.to_string())],
        ),
        I::TooManySamples {
            samples,
            sample_bytes,
            gpu_bytes,
        } => (
            Msg::TraceErrorTooManySamples,
            vec![
                ("samples", samples.to_string()),
                ("sample_bytes", sample_bytes.to_string()),
                ("gpu_bytes", gpu_bytes.to_string()),
            ],
        ),
        I::Negative { value } => (Msg::TraceErrorNegative, vec![("value", value.to_string())]),
        I::TooLarge { value } => (
            Msg::TraceErrorTooLarge,
            vec![
                ("value", format!("{value:e}")),
                ("max", format!("{MAX_TRACE_VALUE:e}")),
            ],
        ),
        I::Percent { value } => (Msg::TraceErrorPercent, vec![("value", value.to_string())]),
        I::ShmAboveTotal { used, total } => (
            Msg::TraceErrorShmAboveTotal,
            vec![("used", used.to_string()), ("total", total.to_string())],
        ),
        I::TooManyGpus { count } => (
            Msg::TraceErrorTooManyGpus,
            vec![
                ("count", count.to_string()),
                ("max", MAX_GPUS_PER_SAMPLE.to_string()),
            ],
        ),
        I::GpuTwice { index } => (Msg::TraceErrorGpuTwice, vec![("index", index.to_string())]),
    };
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, msg, &args)
}

/// What is wrong in a profile file, without the file's name (for a list that names it already).
pub fn profile_problem(lang: Lang, e: &ProfileError) -> String {
    match e {
        ProfileError::Read { error, .. } => {
            trf(lang, Msg::ErrorRead, &[("error", &io_problem(lang, error))])
        }
        ProfileError::Parse { field, problem, .. } => parse_problem(lang, field, problem),
        ProfileError::Invalid {
            field, problem: p, ..
        } => invalid_problem(lang, field, &problem(lang, p)),
        ProfileError::Write { error, .. } => write_reason(lang, error),
    }
}

/// Why a write failed, without the file: a missing folder and ramvram's refusals are
/// sentences of their own ("the folder … doesn't exist", "is a symbolic link owned by another
/// user …"); the rest follow "cannot write:".
fn write_reason(lang: Lang, p: &IoProblem) -> String {
    match p {
        IoProblem::MissingFolder(_) | IoProblem::Refused(_) => io_problem(lang, p),
        _ => trf(lang, Msg::ErrorWrite, &[("error", &io_problem(lang, p))]),
    }
}

fn invalid_problem(lang: Lang, field: &str, problem: &str) -> String {
    trf(
        lang,
        Msg::ErrorInvalid,
        &[("field", field), ("problem", problem)],
    )
}

fn invalid(lang: Lang, file: &str, field: &str, problem: &str) -> String {
    in_file(lang, file, &invalid_problem(lang, field, problem))
}

/// A scenario file's error, naming the file and the field.
pub fn scenario_error(lang: Lang, e: &ScenarioError) -> String {
    match e {
        ScenarioError::File(e) => profile_error(lang, e),
        ScenarioError::Plan { path, field, error } => invalid(
            lang,
            &path.display().to_string(),
            field,
            super::training::plan_error_text(lang, *error),
        ),
    }
}

/// Why a file is not in the Lab machines view, without the file's name (the list names it).
pub fn skip(lang: Lang, s: &Skip) -> String {
    match s {
        Skip::NotJson => tr(lang, Msg::ErrorNotJson).to_string(),
        Skip::Error(e) => profile_problem(lang, e),
    }
}

/// A flag whose value can't be right: "--num-workers: 2000 is outside 0–1024".
pub fn flag(lang: Lang, flag: &str, p: &Problem) -> String {
    trf(
        lang,
        Msg::ErrorFlag,
        &[("flag", flag), ("problem", &problem(lang, p))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_error(text: &str) -> ProfileError {
        crate::profile::parse_profile(text, Path::new("p.json")).unwrap_err()
    }

    #[test]
    fn parse_errors_read_whole() {
        // Cut off inside `cpu` on line 3: the file ends early, no "field ?".
        let cut = "{\n  \"schema_version\": 1,\n  \"cpu\": {\"model\": \"x\"";
        let e = parse_error(cut);
        assert_eq!(
            profile_error(Lang::En, &e),
            "p.json: the file ends early (line 3): it was cut off, perhaps while being copied \
             or written"
        );
        assert_eq!(
            profile_error(Lang::Zh, &e),
            "p.json：文件提前结束了（第 3 行）：可能在复制或写入时被截断了"
        );
        // `{}`: the field that is missing, by name, no "field .".
        let e = parse_error("{}");
        assert_eq!(
            profile_error(Lang::En, &e),
            "p.json: field `schema_version` is missing"
        );
        assert_eq!(
            profile_error(Lang::Zh, &e),
            "p.json：缺少字段 `schema_version`"
        );
        // A missing field inside an object: its whole path.
        let e = parse_error(r#"{"schema_version": 1, "gpus": [{"vendor": "nvidia"}]}"#);
        assert_eq!(
            profile_error(Lang::En, &e),
            "p.json: field `gpus[0].index` is missing"
        );
        // Not JSON: the parser's words with the place.
        let e = parse_error(r#"{"schema_version": 1,}"#);
        assert_eq!(
            profile_error(Lang::En, &e),
            "p.json: not valid JSON: trailing comma at line 1 column 22"
        );
        // A wrong type names its field, as before.
        let e = parse_error(r#"{"schema_version": "one"}"#);
        assert!(
            profile_error(Lang::En, &e).starts_with("p.json: field `schema_version`: invalid type"),
            "{}",
            profile_error(Lang::En, &e)
        );
        // In Chinese, serde's words are Chinese too; field and file named as in English.
        assert_eq!(
            profile_error(Lang::Zh, &e),
            "p.json：字段 `schema_version`：类型不对：这里要非负整数，写的却是字符串（第 1 行第 24 列）"
        );
        // A list that names the file already gets the reason alone.
        let skip = Skip::Error(parse_error("{}"));
        assert_eq!(
            super::skip(Lang::En, &skip),
            "field `schema_version` is missing"
        );
    }

    #[test]
    fn syntax_errors_and_refused_inputs_read_in_chinese() {
        let e = parse_error("{\"schema_version\": 1,}");
        assert_eq!(
            profile_error(Lang::Zh, &e),
            "p.json：不是有效的 JSON：逗号后面什么都没有（第 1 行第 22 列）"
        );
        let e = parse_error("{\"schema_version\": 1 \"x\": 2}");
        assert!(profile_error(Lang::Zh, &e).contains("这里少了 `,` 或 `}`"));
        // A message serde_json may add later stays as it is rather than disappear.
        assert_eq!(
            crate::present::serde_words::syntax_words(Lang::Zh, "something new at line 2 column 3"),
            "something new at line 2 column 3"
        );
        let dir = tempfile::tempdir().unwrap();
        let err = crate::fsutil::read_input_string(dir.path(), 1 << 20).unwrap_err();
        let zh = read_failed(Lang::Zh, Path::new("d"), &err);
        assert_eq!(
            zh,
            "d：无法读取：是一个文件夹，不是文件（请给一个文件，或用 - 表示标准输入）"
        );
        let en = read_failed(Lang::En, Path::new("d"), &err);
        assert_eq!(
            en,
            "d: cannot read: is a folder, not a regular file (give a file, or - for standard input)"
        );
    }

    /// A trace line is parsed alone, so the parser's "line 1" is not the file's line: only the
    /// column is said. A missing trace gets the same words as a missing profile.
    #[test]
    fn trace_errors_give_the_files_line_and_the_column_and_read_errors_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("run.jsonl");
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/traces/oom-kill.jsonl"
        );
        let header = std::fs::read_to_string(fixture).unwrap();
        let header = header.lines().next().unwrap();
        std::fs::write(&bad, format!("{header}\n{{\"t\":\"abc\"}}\n")).unwrap();
        let e = crate::trace::jsonl::read_trace(&bad).unwrap_err();
        let en = trace_error(Lang::En, &e);
        // `{"t":"abc"` ends at byte 10 of the line, where serde_json reports the string.
        assert!(
            en.ends_with(
                "line 2: field `t`: invalid type: a string, expected a number at column 10"
            ),
            "{en}"
        );
        assert!(!en.contains("line 1"), "{en}");
        let zh = trace_error(Lang::Zh, &e);
        assert!(
            zh.contains("第 2 行") && zh.ends_with("（第 10 列）"),
            "{zh}"
        );
        assert!(!zh.contains("第 1 行"), "{zh}");
        let missing = crate::trace::jsonl::read_trace(&dir.path().join("none.jsonl")).unwrap_err();
        assert!(trace_error(Lang::En, &missing).ends_with("none.jsonl: cannot read: no such file"));
        assert!(trace_error(Lang::Zh, &missing).ends_with("none.jsonl：无法读取：文件不存在"));
        assert!(!trace_error(Lang::En, &missing).contains("os error"));
        // ramvram's own checks, in each language (docs/trace.md's example).
        let hot = dir.path().join("hot.jsonl");
        std::fs::write(
            &hot,
            format!("{header}\n{{\"t\":0,\"gpus\":[{{\"index\":0,\"util_percent\":140}}]}}\n"),
        )
        .unwrap();
        let e = crate::trace::jsonl::read_trace(&hot).unwrap_err();
        assert!(
            trace_error(Lang::En, &e)
                .ends_with("line 2: field `gpus[0].util_percent`: 140 is outside 0–100\u{a0}%"),
            "{:?}",
            trace_error(Lang::En, &e)
        );
        assert!(
            trace_error(Lang::Zh, &e).ends_with("140 超出了 0–100\u{a0}% 的范围"),
            "{}",
            trace_error(Lang::Zh, &e)
        );
        let empty = dir.path().join("empty.jsonl");
        std::fs::write(&empty, "").unwrap();
        let e = crate::trace::jsonl::read_trace(&empty).unwrap_err();
        assert!(
            trace_error(Lang::En, &e).ends_with(
                "empty.jsonl: line 1: the file is empty: a trace starts with its header line"
            ),
            "{}",
            trace_error(Lang::En, &e)
        );
        assert!(
            trace_error(Lang::Zh, &e)
                .ends_with("empty.jsonl：第 1 行：文件是空的：trace 文件的第一行应是头部行"),
            "{}",
            trace_error(Lang::Zh, &e)
        );
    }

    #[test]
    fn write_errors_name_the_users_file_in_the_users_language() {
        let e = std::io::Error::new(
            std::io::ErrorKind::NotFound,
            crate::fsutil::MissingFolder("/nonexistent/dir".into()),
        );
        let out = Path::new("/nonexistent/dir/x.pdf");
        assert_eq!(
            write_failed(Lang::En, out, &e),
            "/nonexistent/dir/x.pdf: the folder /nonexistent/dir doesn't exist"
        );
        assert_eq!(
            write_failed(Lang::Zh, out, &e),
            "/nonexistent/dir/x.pdf：文件夹 /nonexistent/dir 不存在"
        );
        #[cfg(unix)]
        for (code, en, zh) in [
            (libc::EACCES, "permission denied", "没有权限"),
            (
                libc::EROFS,
                "the file system is read-only",
                "文件系统是只读的",
            ),
            (libc::ENOSPC, "no space left on the device", "磁盘空间不足"),
            (libc::ENOENT, "no such file", "文件不存在"),
        ] {
            let e = std::io::Error::from_raw_os_error(code);
            assert_eq!(
                write_failed(Lang::En, Path::new("r.md"), &e),
                format!("r.md: cannot write: {en}")
            );
            assert_eq!(
                write_failed(Lang::Zh, Path::new("r.md"), &e),
                format!("r.md：无法写入：{zh}")
            );
            assert_eq!(
                read_failed(Lang::Zh, Path::new("p.json"), &e),
                format!("p.json：无法读取：{zh}")
            );
        }
    }

    #[test]
    fn a_range_problem_reads_in_both_languages() {
        let e = ProfileError::Invalid {
            path: "server.json".into(),
            field: "memory.swappiness".into(),
            problem: Box::new(Problem::out_of_range(300, 0, 200)),
        };
        assert_eq!(
            profile_error(Lang::En, &e),
            "server.json: field `memory.swappiness`: 300 is outside 0–200"
        );
        assert_eq!(
            profile_error(Lang::Zh, &e),
            "server.json：字段 `memory.swappiness`：300 超出了允许的范围 0–200"
        );
    }

    #[test]
    fn a_scenario_value_of_the_wrong_kind_reads_in_both_languages() {
        let cases = [
            (
                r#"{"workload": {"dataset_bytes": "big"}}"#,
                "s.json: field `workload.dataset_bytes`: invalid type: a string, expected an \
                 unsigned integer at line 1 column 36",
                "s.json：字段 `workload.dataset_bytes`：类型不对：这里要非负整数，写的却是字符串\
                 （第 1 行第 36 列）",
            ),
            (
                r#"{"workload": {"stored": "tiff"}}"#,
                "s.json: field `workload.stored`: unknown variant, expected one of `jpeg`, \
                 `png`, `raw` at line 1 column 30",
                "s.json：字段 `workload.stored`：不认识写的这个值，可选：`jpeg`、`png`、`raw`\
                 （第 1 行第 30 列）",
            ),
        ];
        for (text, en, zh) in cases {
            let e = crate::inputs::scenario::parse_scenario(text, Path::new("s.json")).unwrap_err();
            assert_eq!(scenario_error(Lang::En, &e), en);
            assert_eq!(scenario_error(Lang::Zh, &e), zh);
        }
    }
}
