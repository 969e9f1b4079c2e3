//! Benchmarks: the only code besides `probe/` that touches the machine. Each returns data (a
//! [`crate::profile::MemoryBandwidth`], a [`crate::profile::StorageBandwidth`]), reports
//! progress through a callback as a fraction 0–1, and stops soon after a shared cancel flag is
//! set. Long runs belong on a background thread (the window) or the command line.

pub mod decode;
pub mod memory;
pub mod storage;

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
            BenchError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for BenchError {}

/// The program name and version recorded with each measurement.
pub fn tool_name() -> String {
    format!("ramvram {}", env!("CARGO_PKG_VERSION"))
}
