//! Benchmarks: the only code besides `probe/` that touches the machine. Each returns data (a
//! [`crate::profile::MemoryBandwidth`], a [`crate::profile::StorageBandwidth`]), reports
//! progress through a callback as a fraction 0–1, and stops soon after a shared cancel flag is
//! set. Long runs belong on a background thread (the window) or the command line.

pub mod decode;
pub mod memory;
mod memory_size;
pub mod storage;
mod storage_fs;
mod storage_stale;

use std::fmt;

/// Why a benchmark produced no result.
#[derive(Debug)]
pub enum BenchError {
    /// The cancel flag was set.
    Cancelled,
    /// Memory for the arrays could not be allocated.
    OutOfMemory {
        /// Bytes asked for.
        bytes: u64,
    },
    /// The results of the kernels were wrong (a bug, or faulty memory).
    Verification(String),
    /// A storage benchmark could not use the folder: missing, not a folder, not writable, full.
    Path {
        /// The folder.
        path: std::path::PathBuf,
        /// What went wrong.
        kind: PathProblem,
        /// The OS error text, when there is one.
        detail: Option<String>,
    },
    /// `bench decode`'s image is larger than a JPEG can be (65,535 pixels a side).
    ImageTooLarge {
        /// Width asked for, pixels.
        width: u32,
        /// Height asked for, pixels.
        height: u32,
    },
    /// A rate came out non-finite, zero or beyond physical limits (a timer too coarse for a
    /// tiny run, or broken arithmetic): nothing is reported or stored.
    Implausible {
        /// The profile field, e.g. `triad_bytes_per_s`.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// Reading or writing the test file failed.
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// What is wrong with a storage benchmark's folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathProblem {
    /// It does not exist.
    Missing,
    /// It exists but is not a folder.
    NotADirectory,
    /// A file can't be created in it.
    NotWritable,
    /// Not enough free space for the test file.
    Full,
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Cancelled => write!(f, "cancelled"),
            BenchError::OutOfMemory { bytes } => {
                write!(f, "cannot allocate {bytes} bytes for the arrays")
            }
            BenchError::Verification(s) => write!(f, "wrong results: {s}"),
            BenchError::Path { path, kind, detail } => {
                let what = match kind {
                    PathProblem::Missing => "does not exist",
                    PathProblem::NotADirectory => "is not a folder",
                    PathProblem::NotWritable => "is not writable",
                    PathProblem::Full => "does not have enough free space",
                };
                write!(f, "{}: {what}", path.display())?;
                if let Some(d) = detail {
                    write!(f, " ({d})")?;
                }
                Ok(())
            }
            BenchError::ImageTooLarge { width, height } => write!(
                f,
                "{width}×{height} is larger than a JPEG can be (65535 pixels a side)"
            ),
            BenchError::Implausible { what, value } => {
                write!(f, "{what} came out as {value}, which can't be right")
            }
            BenchError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for BenchError {}

/// Checks that a measured rate can be stored: finite, positive and at most `max` (the profile's
/// caps in [`crate::profile::limits`]). A NaN would be written as `null` into a field that
/// must be a number, and the profile would no longer load.
///
/// # Errors
/// [`BenchError::Implausible`] naming the field.
pub fn plausible(what: &'static str, value: f64, max: f64) -> Result<f64, BenchError> {
    if value.is_finite() && value > 0.0 && value <= max {
        Ok(value)
    } else {
        Err(BenchError::Implausible { what, value })
    }
}

/// The program name and version recorded with each measurement.
pub fn tool_name() -> String {
    format!("ramvram {}", env!("CARGO_PKG_VERSION"))
}
