//! Reading and writing profile files, with errors that name the file and the field.

use std::fmt;
use std::path::{Path, PathBuf};

use super::MachineProfile;

/// Why a profile could not be used. Every variant names the file; parse and validation errors
/// also name the field as a JSON path (`memory.total_bytes`, `gpus[1].pcie.width_max`).
#[derive(Debug)]
pub enum ProfileError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not valid JSON, or a field has the wrong type.
    Parse {
        /// The file.
        path: PathBuf,
        /// JSON path of the field (`.` when the document itself is malformed).
        field: String,
        /// serde_json's description, with line and column.
        message: String,
    },
    /// A field has a value that cannot be right (0 bytes of RAM, PCIe generation 9, …).
    Invalid {
        /// The file.
        path: PathBuf,
        /// JSON path of the field.
        field: String,
        /// What is wrong, in English (this error is for the command line and logs).
        message: String,
    },
    /// The profile could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileError::Read { path, source } => {
                write!(f, "{}: cannot read: {source}", path.display())
            }
            ProfileError::Parse {
                path,
                field,
                message,
            } => {
                write!(f, "{}: field `{field}`: {message}", path.display())
            }
            ProfileError::Invalid {
                path,
                field,
                message,
            } => {
                write!(f, "{}: field `{field}`: {message}", path.display())
            }
            ProfileError::Write { path, source } => {
                write!(f, "{}: cannot write: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for ProfileError {}

/// A profile read from a file, with the fields this version did not understand.
#[derive(Clone, Debug)]
pub struct LoadedProfile {
    /// The profile.
    pub profile: MachineProfile,
    /// JSON paths of fields that were ignored (written by a newer ramvram, or misspelt).
    pub ignored_fields: Vec<String>,
}

/// Reads and validates a profile file (`-` for standard input). Only a regular file of at most
/// [`crate::fsutil::MAX_INPUT_BYTES`] is read (see [`crate::fsutil::read_input`]).
///
/// # Errors
/// [`ProfileError::Read`] when the file can't be read, is not a regular file or is too large; [`ProfileError::Parse`] for bad JSON or a
/// field of the wrong type; [`ProfileError::Invalid`] for an impossible value.
pub fn load_profile(path: &Path) -> Result<LoadedProfile, ProfileError> {
    let text = crate::fsutil::read_input_string(path, crate::fsutil::MAX_INPUT_BYTES).map_err(
        |source| ProfileError::Read {
            path: path.to_path_buf(),
            source,
        },
    )?;
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
        .map_err(|(field, message)| ProfileError::Invalid {
            path: path.to_path_buf(),
            field,
            message,
        })?;
    Ok(LoadedProfile {
        profile,
        ignored_fields,
    })
}

/// Parses a JSON document into `T`, naming the field of a type error and collecting the paths
/// of fields `T` does not know (a newer version's, or misspelt).
///
/// # Errors
/// [`ProfileError::Parse`] with the field's JSON path.
pub fn parse_document<T: serde::de::DeserializeOwned>(
    text: &str,
    path: &Path,
) -> Result<(T, Vec<String>), ProfileError> {
    let mut ignored = Vec::new();
    let mut json = serde_json::Deserializer::from_str(text);
    let mut record = |p: serde_ignored::Path<'_>| ignored.push(p.to_string());
    let ignoring = serde_ignored::Deserializer::new(&mut json, &mut record);
    let value: T = serde_path_to_error::deserialize(ignoring).map_err(|e| ProfileError::Parse {
        path: path.to_path_buf(),
        field: e.path().to_string(),
        message: e.inner().to_string(),
    })?;
    json.end().map_err(|e| ProfileError::Parse {
        path: path.to_path_buf(),
        field: ".".to_string(),
        message: e.to_string(),
    })?;
    Ok((value, ignored))
}

/// Writes `profile` as pretty JSON, atomically (see [`crate::fsutil::write_atomic`]).
///
/// # Errors
/// [`ProfileError::Write`] with the OS error.
pub fn save_profile(profile: &MachineProfile, path: &Path) -> Result<(), ProfileError> {
    let mut text = serde_json::to_string_pretty(profile).expect("profile serialises");
    text.push('\n');
    crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|source| ProfileError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Checks values that parse but cannot be right. Returns (field path, message).
fn validate(p: &MachineProfile) -> Result<(), (String, String)> {
    fn positive(field: &str, v: Option<u64>) -> Result<(), (String, String)> {
        match v {
            Some(0) => Err((
                field.to_string(),
                "must be greater than 0 (write null when unknown)".to_string(),
            )),
            _ => Ok(()),
        }
    }
    fn range(field: &str, v: Option<u32>, lo: u32, hi: u32) -> Result<(), (String, String)> {
        match v {
            Some(x) if x < lo || x > hi => {
                Err((field.to_string(), format!("{x} is outside {lo}..={hi}")))
            }
            _ => Ok(()),
        }
    }
    if p.schema_version == 0 {
        return Err(("schema_version".into(), "must be 1 or higher".into()));
    }
    positive("memory.total_bytes", p.memory.total_bytes)?;
    // Upper bounds: no machine has more than 1 PiB of RAM or 8 TiB of memory on one GPU; larger
    // values are typos or overflowed arithmetic, and would saturate every sum.
    let at_most = |field: &str, v: Option<u64>, max: u64| match v {
        Some(x) if x > max => Err((
            field.to_string(),
            format!("{x} is larger than {max}, which no machine has"),
        )),
        _ => Ok(()),
    };
    at_most("memory.total_bytes", p.memory.total_bytes, 1 << 50)?;
    at_most("memory.limit_bytes", p.memory.limit_bytes, u64::MAX / 2)?;
    if let (Some(used), Some(total)) = (p.memory.swap_used_bytes, p.memory.swap_total_bytes) {
        if used > total {
            return Err((
                "memory.swap_used_bytes".into(),
                format!("{used} is larger than memory.swap_total_bytes ({total})"),
            ));
        }
    }
    if p.host
        .hostname
        .as_ref()
        .is_some_and(|h| h.chars().count() > 255)
    {
        return Err((
            "host.hostname".into(),
            "is longer than 255 characters".into(),
        ));
    }
    positive("memory.limit_bytes", p.memory.limit_bytes)?;
    range("memory.swappiness", p.memory.swappiness, 0, 200)?;
    range("cpu.physical_cores", p.cpu.physical_cores, 1, 1_000_000)?;
    range("cpu.logical_cpus", p.cpu.logical_cpus, 1, 1_000_000)?;
    if let (Some(avail), Some(total)) = (p.memory.available_bytes, p.memory.total_bytes) {
        if avail > total {
            return Err((
                "memory.available_bytes".into(),
                format!("{avail} is larger than memory.total_bytes ({total})"),
            ));
        }
    }
    range(
        "memory.channels_populated",
        p.memory.channels_populated,
        1,
        256,
    )?;
    range("memory.speed_mts", p.memory.speed_mts, 1, 100_000)?;
    if let Some(bw) = p.memory.theoretical_bandwidth_bytes_per_s {
        if !(bw.is_finite() && bw > 0.0) {
            return Err((
                "memory.theoretical_bandwidth_bytes_per_s".into(),
                format!("{bw} must be a positive number (write null when unknown)"),
            ));
        }
    }
    for (i, d) in p.memory.dimms.iter().enumerate() {
        positive(&format!("memory.dimms[{i}].size_bytes"), d.size_bytes)?;
    }
    for (i, g) in p.gpus.iter().enumerate() {
        positive(&format!("gpus[{i}].vram_total_bytes"), g.vram_total_bytes)?;
        at_most(
            &format!("gpus[{i}].vram_total_bytes"),
            g.vram_total_bytes,
            8 << 40,
        )?;
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
            if let (Some(c), Some(m)) = (l.width_current, l.width_max) {
                if c > m {
                    return Err((
                        format!("gpus[{i}].pcie.width_current"),
                        format!("x{c} is wider than width_max x{m}"),
                    ));
                }
            }
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
        let err = parse_profile(&bad, Path::new("bad.json"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("bad.json: field `memory.total_bytes`"),
            "{err}"
        );
    }

    #[test]
    fn negative_size_is_rejected_with_field() {
        let bad = MINIMAL.replace("17179869184", "-5");
        let err = parse_profile(&bad, Path::new("neg.json"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("`memory.total_bytes`"), "{err}");
    }

    #[test]
    fn zero_ram_is_invalid_not_unknown() {
        let bad = MINIMAL.replace("17179869184", "0");
        let err = parse_profile(&bad, Path::new("z.json"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`memory.total_bytes`") && err.contains("null"),
            "{err}"
        );
    }

    #[test]
    fn unknown_fields_are_reported_not_fatal() {
        let newer = MINIMAL.replace("\"schema_version\":1", "\"schema_version\":2,\"future\":1");
        let loaded = parse_profile(&newer, Path::new("n.json")).unwrap();
        assert_eq!(loaded.ignored_fields, vec!["future".to_string()]);
    }

    #[test]
    fn trailing_garbage_is_an_error() {
        let bad = format!("{MINIMAL} x");
        assert!(parse_profile(&bad, Path::new("t.json")).is_err());
    }
}
