//! Where the machine on screen comes from.

use std::path::PathBuf;

/// Where the machine on screen comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Detected on this machine.
    Detected,
    /// Loaded from a profile file.
    File(PathBuf),
}
