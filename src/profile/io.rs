//! Reading and writing profile files, with errors that name the file and the field.

use std::path::{Path, PathBuf};

use super::MachineProfile;
use super::limits::{MAX_RAM_BYTES, MAX_VRAM_BYTES};
use super::problem::Problem;

/// Why a profile could not be used. Every variant names the file; parse and validation errors
/// also name the field as a JSON path (`memory.total_bytes`, `gpus[1].pcie.width_max`). Worded
/// in the user's language by `present::errors::profile_error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: crate::fsutil::IoProblem,
    },
    /// The file is not valid JSON, or a field has the wrong type or is missing.
    Parse {
        /// The file.
        path: PathBuf,
        /// JSON path of the field (`.` when the document itself is malformed); for
        /// [`ParseProblem::Missing`], the missing field's own path.
        field: String,
        /// What is wrong.
        problem: ParseProblem,
    },
    /// A field has a value that cannot be right (0 bytes of RAM, PCIe generation 9, …).
    Invalid {
        /// The file.
        path: PathBuf,
        /// JSON path of the field.
        field: String,
        /// What is wrong (boxed: it keeps the numbers as written).
        problem: Box<Problem>,
    },
    /// The profile could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: crate::fsutil::IoProblem,
    },
}

/// What is wrong with a JSON document that didn't parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseProblem {
    /// The text ends inside the JSON (a file cut off while it was copied or written); the line
    /// where it ends.
    EndsEarly {
        /// 1-based line of the end.
        line: usize,
    },
    /// A field the format needs is not there.
    Missing,
    /// The document is JSON but not an object (`[1, 2]`, `"text"`, `42`): no profile or
    /// scenario.
    NotObject,
    /// Not JSON at some place (a stray comma, text after the document): the parser's words,
    /// with line and column.
    Syntax(String),
    /// A value of the wrong type or out of its type's range: the parser's words, with line
    /// and column.
    Data(String),
}

impl ParseProblem {
    /// The problem behind a `serde_json` error met at JSON path `at` (`.` for the document),
    /// and the field to name: `at`, or for a missing field its own path (`at.name`).
    pub fn of(at: &str, e: &serde_json::Error) -> (String, ParseProblem) {
        use serde_json::error::Category;
        match e.classify() {
            Category::Eof => (at.to_string(), ParseProblem::EndsEarly { line: e.line() }),
            Category::Syntax | Category::Io => {
                (at.to_string(), ParseProblem::Syntax(e.to_string()))
            }
            Category::Data => {
                // serde's words for a missing field: "missing field `name`".
                let text = e.to_string();
                let missing = text
                    .strip_prefix("missing field `")
                    .and_then(|rest| rest.split_once('`'))
                    .map(|(name, _)| name.to_string());
                match missing {
                    Some(name) if at == "." || at.is_empty() => (name, ParseProblem::Missing),
                    Some(name) => (format!("{at}.{name}"), ParseProblem::Missing),
                    None => (at.to_string(), ParseProblem::Data(text)),
                }
            }
        }
    }
}

impl ProfileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ProfileError::Read { path, .. }
            | ProfileError::Parse { path, .. }
            | ProfileError::Invalid { path, .. }
            | ProfileError::Write { path, .. } => path,
        }
    }

    pub(crate) fn read(path: &Path, e: &std::io::Error) -> ProfileError {
        ProfileError::Read {
            path: path.to_path_buf(),
            error: crate::fsutil::IoProblem::of(e),
        }
    }

    pub(crate) fn write(path: &Path, e: &std::io::Error) -> ProfileError {
        ProfileError::Write {
            path: path.to_path_buf(),
            error: crate::fsutil::IoProblem::of(e),
        }
    }

    /// A parse error of `path` from `serde_json`, met at JSON path `at`.
    pub(crate) fn parse(path: &Path, at: &str, e: &serde_json::Error) -> ProfileError {
        let (field, problem) = ParseProblem::of(at, e);
        ProfileError::Parse {
            path: path.to_path_buf(),
            field,
            problem,
        }
    }
}

/// A profile read from a file, with the fields this version did not understand.
#[derive(Clone, Debug)]
pub struct LoadedProfile {
    /// The profile.
    pub profile: MachineProfile,
    /// JSON paths of fields that were ignored (written by a newer ramvram, or misspelt).
    pub ignored_fields: Vec<String>,
    /// The file's `schema_version` when it is newer than this ramvram reads
    /// ([`super::SCHEMA_VERSION`]): it loads, and the caller says that fields may be misread.
    pub newer_schema: Option<u32>,
}

/// Reads and validates a profile file (`-` for standard input). Only a regular file of at most
/// [`crate::fsutil::MAX_INPUT_BYTES`] is read (see [`crate::fsutil::read_input`]).
///
/// # Errors
/// [`ProfileError::Read`] when the file can't be read, is not a regular file or is too large; [`ProfileError::Parse`] for bad JSON or a
/// field of the wrong type; [`ProfileError::Invalid`] for an impossible value.
pub fn load_profile(path: &Path) -> Result<LoadedProfile, ProfileError> {
    let text = crate::fsutil::read_input_string(path, crate::fsutil::MAX_INPUT_BYTES)
        .map_err(|e| ProfileError::read(path, &e))?;
    parse_profile(&text, path)
}

/// [`load_profile`] for a file found by listing a folder (`--profile-dir`): a symbolic link is
/// refused, never followed out of the folder ([`crate::fsutil::read_folder_entry`]).
///
/// # Errors
/// As [`load_profile`]; a link as [`ProfileError::Read`].
pub fn load_profile_in_folder(path: &Path) -> Result<LoadedProfile, ProfileError> {
    let text = crate::fsutil::read_folder_entry(path, crate::fsutil::MAX_INPUT_BYTES)
        .map_err(|e| ProfileError::read(path, &e))?;
    parse_profile(&text, path)
}

/// Parses and validates profile JSON; `path` is used only in error messages.
///
/// # Errors
/// As [`load_profile`], without the read error.
pub fn parse_profile(text: &str, path: &Path) -> Result<LoadedProfile, ProfileError> {
    let (mut profile, ignored_fields) = parse_document::<MachineProfile>(text, path)?;
    validate(&profile)
        .and_then(|()| super::limits::check(&mut profile))
        .map_err(|(field, problem)| ProfileError::Invalid {
            path: path.to_path_buf(),
            field,
            problem: Box::new(problem),
        })?;
    let newer_schema = Some(profile.schema_version).filter(|v| *v > super::SCHEMA_VERSION);
    Ok(LoadedProfile {
        profile,
        ignored_fields,
        newer_schema,
    })
}

/// Parses a JSON document into `T`, naming the field of a type error and collecting the paths
/// of fields `T` does not know (a newer version's, or misspelt). A leading byte-order mark is
/// skipped and an integral float fills an integer field ([`super::json::from_json`]).
///
/// # Errors
/// [`ProfileError::Parse`] with the field's JSON path.
pub fn parse_document<T: serde::de::DeserializeOwned>(
    text: &str,
    path: &Path,
) -> Result<(T, Vec<String>), ProfileError> {
    // A profile and a scenario are JSON objects; serde would read a struct from an array too
    // and report its second element as a field of the wrong type.
    let first = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if !first.is_empty()
        && !first.starts_with('{')
        && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
    {
        return Err(ProfileError::Parse {
            path: path.to_path_buf(),
            field: ".".into(),
            problem: ParseProblem::NotObject,
        });
    }
    super::json::from_json::<T>(text).map_err(|(at, e)| ProfileError::parse(path, &at, &e))
}

/// Writes `profile` as pretty JSON, atomically (see [`crate::fsutil::write_atomic`]).
///
/// # Errors
/// [`ProfileError::Write`] with the OS error.
pub fn save_profile(profile: &MachineProfile, path: &Path) -> Result<(), ProfileError> {
    let mut text = serde_json::to_string_pretty(profile).expect("profile serialises");
    text.push('\n');
    crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| ProfileError::write(path, &e))
}

/// Checks values that parse but cannot be right. Returns (field path, problem).
fn validate(p: &MachineProfile) -> Result<(), (String, Problem)> {
    fn positive(field: &str, v: Option<u64>) -> Result<(), (String, Problem)> {
        match v {
            Some(0) => Err((field.to_string(), Problem::Zero)),
            _ => Ok(()),
        }
    }
    fn range(field: &str, v: Option<u32>, lo: u32, hi: u32) -> Result<(), (String, Problem)> {
        match v {
            Some(x) if x < lo || x > hi => {
                Err((field.to_string(), Problem::out_of_range(x, lo, hi)))
            }
            _ => Ok(()),
        }
    }
    fn at_most(field: &str, v: Option<u64>, max: u64) -> Result<(), (String, Problem)> {
        match v {
            Some(x) if x > max => Err((
                field.to_string(),
                Problem::TooLarge {
                    value: x.to_string(),
                    max: max.to_string(),
                },
            )),
            _ => Ok(()),
        }
    }
    fn not_above(
        field: &str,
        v: Option<u64>,
        other: &str,
        limit: Option<u64>,
    ) -> Result<(), (String, Problem)> {
        match (v, limit) {
            (Some(x), Some(l)) if x > l => Err((
                field.to_string(),
                Problem::LargerThanField {
                    value: x.to_string(),
                    other: other.to_string(),
                    other_value: l.to_string(),
                },
            )),
            _ => Ok(()),
        }
    }
    if p.schema_version == 0 {
        return Err(("schema_version".into(), Problem::SchemaVersion));
    }
    let m = &p.memory;
    positive("memory.total_bytes", m.total_bytes)?;
    // Upper bounds: no machine has more than 1 PiB of RAM or 8 TiB of memory on one GPU; larger
    // values are typos or overflowed arithmetic, and would saturate every sum.
    at_most("memory.total_bytes", m.total_bytes, MAX_RAM_BYTES)?;
    positive("memory.installed_bytes", m.installed_bytes)?;
    at_most("memory.installed_bytes", m.installed_bytes, MAX_RAM_BYTES)?;
    at_most("memory.limit_bytes", m.limit_bytes, u64::MAX / 2)?;
    not_above(
        "memory.swap_used_bytes",
        m.swap_used_bytes,
        "memory.swap_total_bytes",
        m.swap_total_bytes,
    )?;
    if p.host
        .hostname
        .as_ref()
        .is_some_and(|h| h.chars().count() > 255)
    {
        return Err(("host.hostname".into(), Problem::TooLong { max: 255 }));
    }
    positive("memory.limit_bytes", m.limit_bytes)?;
    range("memory.swappiness", m.swappiness, 0, 200)?;
    range("cpu.physical_cores", p.cpu.physical_cores, 1, 1_000_000)?;
    range("cpu.logical_cpus", p.cpu.logical_cpus, 1, 1_000_000)?;
    not_above(
        "memory.available_bytes",
        m.available_bytes,
        "memory.total_bytes",
        m.total_bytes,
    )?;
    range("memory.channels_populated", m.channels_populated, 1, 256)?;
    range("memory.speed_mts", m.speed_mts, 1, 100_000)?;
    if let Some(bw) = m.theoretical_bandwidth_bytes_per_s {
        if !(bw.is_finite() && bw > 0.0) {
            return Err((
                "memory.theoretical_bandwidth_bytes_per_s".into(),
                Problem::NotPositive {
                    value: bw.to_string(),
                },
            ));
        }
    }
    for (i, d) in m.dimms.iter().enumerate() {
        positive(&format!("memory.dimms[{i}].size_bytes"), d.size_bytes)?;
    }
    // host.platform, the slot counts and memory.wsl check themselves.
    super::validate::platform(p)?;
    super::validate::windows(p)?;
    super::validate_pools::pools(p)?;
    for (i, g) in p.gpus.iter().enumerate() {
        positive(&format!("gpus[{i}].vram_total_bytes"), g.vram_total_bytes)?;
        at_most(
            &format!("gpus[{i}].vram_total_bytes"),
            g.vram_total_bytes,
            MAX_VRAM_BYTES,
        )?;
        for (j, proc) in g.processes.iter().flatten().enumerate() {
            at_most(
                &format!("gpus[{i}].processes[{j}].used_bytes"),
                proc.used_bytes,
                MAX_VRAM_BYTES,
            )?;
        }
        range(
            &format!("gpus[{i}].utilization_percent"),
            g.utilization_percent,
            0,
            100,
        )?;
        if let Some(l) = &g.pcie {
            range(&format!("gpus[{i}].pcie.gen_current"), l.gen_current, 1, 7)?;
            range(&format!("gpus[{i}].pcie.gen_max"), l.gen_max, 1, 7)?;
            range(&format!("gpus[{i}].pcie.gen_gpu_max"), l.gen_gpu_max, 1, 7)?;
            range(
                &format!("gpus[{i}].pcie.width_current"),
                l.width_current,
                1,
                32,
            )?;
            range(&format!("gpus[{i}].pcie.width_max"), l.width_max, 1, 32)?;
            not_above(
                &format!("gpus[{i}].pcie.width_current"),
                l.width_current.map(u64::from),
                &format!("gpus[{i}].pcie.width_max"),
                l.width_max.map(u64::from),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"{"schema_version":1,"host":{"hostname":null,"os":null,"kernel":null,"arch":null},
        "cpu":{"model":null,"physical_cores":null,"logical_cpus":null},
        "memory":{"total_bytes":17179869184,"available_bytes":null,"swap_total_bytes":null,
        "swap_used_bytes":null,"limit_bytes":null,"swappiness":null,"transparent_hugepages":null,
        "shm_bytes":null}}"#;

    #[test]
    fn minimal_profile_parses_with_unknowns() {
        let p = parse_profile(MINIMAL, Path::new("m.json")).unwrap().profile;
        assert_eq!(p.memory.total_bytes, Some(16 << 30));
        assert_eq!(p.memory.swap_total_bytes, None);
        assert!(p.gpus.is_empty());
    }

    #[test]
    fn wrong_type_names_file_and_field() {
        let bad = MINIMAL.replace("17179869184", "\"sixteen\"");
        let err = parse_profile(&bad, Path::new("bad.json")).unwrap_err();
        assert!(
            matches!(&err, ProfileError::Parse { path, field, .. }
                if path == Path::new("bad.json") && field == "memory.total_bytes"),
            "{err:?}"
        );
    }

    #[test]
    fn a_byte_order_mark_and_an_integral_float_are_read_and_a_fraction_named() {
        // 17179869184.0 is 16 × 2^30 written as a float.
        let text = format!(
            "\u{feff}{}",
            MINIMAL.replace("17179869184", "17179869184.0")
        );
        let p = parse_profile(&text, Path::new("bom.json")).unwrap().profile;
        assert_eq!(p.memory.total_bytes, Some(16 << 30));
        let bad = MINIMAL.replace("17179869184", "17179869184.5");
        let err = parse_profile(&bad, Path::new("half.json")).unwrap_err();
        assert!(
            matches!(&err, ProfileError::Parse { field, .. } if field == "memory.total_bytes"),
            "{err:?}"
        );
    }

    #[test]
    fn negative_size_is_rejected_with_field() {
        let bad = MINIMAL.replace("17179869184", "-5");
        let err = parse_profile(&bad, Path::new("neg.json")).unwrap_err();
        assert!(
            matches!(&err, ProfileError::Parse { field, .. } if field == "memory.total_bytes"),
            "{err:?}"
        );
    }

    #[test]
    fn zero_ram_is_invalid_not_unknown() {
        let bad = MINIMAL.replace("17179869184", "0");
        let err = parse_profile(&bad, Path::new("z.json")).unwrap_err();
        assert_eq!(
            err,
            ProfileError::Invalid {
                path: "z.json".into(),
                field: "memory.total_bytes".into(),
                problem: Box::new(Problem::Zero),
            }
        );
    }

    #[test]
    fn unknown_fields_are_reported_not_fatal() {
        let newer = MINIMAL.replace("\"schema_version\":1", "\"schema_version\":2,\"future\":1");
        let loaded = parse_profile(&newer, Path::new("n.json")).unwrap();
        assert_eq!(loaded.ignored_fields, vec!["future".to_string()]);
        assert_eq!(loaded.newer_schema, Some(2));
        let ours = parse_profile(MINIMAL, Path::new("o.json")).unwrap();
        assert_eq!(ours.newer_schema, None);
    }

    #[test]
    fn json_that_is_not_an_object_is_no_profile() {
        for text in ["[1, 2]", "\"text\"", " 42", "null"] {
            let e = parse_profile(text, Path::new("a.json")).unwrap_err();
            assert!(
                matches!(
                    &e,
                    ProfileError::Parse {
                        problem: ParseProblem::NotObject,
                        ..
                    }
                ),
                "{text}: {e:?}"
            );
        }
        // Broken JSON is still a syntax error, with its place.
        let e = parse_profile("[1,", Path::new("a.json")).unwrap_err();
        assert!(!matches!(
            &e,
            ProfileError::Parse {
                problem: ParseProblem::NotObject,
                ..
            }
        ));
    }

    #[test]
    fn trailing_garbage_is_an_error() {
        let bad = format!("{MINIMAL} x");
        assert!(parse_profile(&bad, Path::new("t.json")).is_err());
    }
}
