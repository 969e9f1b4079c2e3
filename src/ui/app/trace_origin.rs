//! Where the trace on the Monitor page comes from: the type the watch and the Prometheus jobs
//! both set, apart from either.

use std::path::PathBuf;

/// Where the trace on the Monitor page comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceOrigin {
    /// Watched in this window (this machine, or a PID).
    Live(Option<u32>),
    /// Opened from a file.
    File(PathBuf),
    /// Fetched from a Prometheus server: a node's range (Unix seconds) every `step` seconds.
    Prometheus {
        /// The server.
        url: String,
        /// The node.
        node: String,
        /// Start of the range.
        start: f64,
        /// End of the range.
        end: f64,
        /// Seconds between samples.
        step: f64,
    },
}
