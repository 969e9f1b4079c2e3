//! Prometheus as a source: a node's past run as a [`crate::trace::Trace`] from its
//! node_exporter and DCGM exporter series ([`range::fetch`]), and a lab's machines as profiles
//! from what the exporters know about each node ([`fleet::fleet`]). `docs/cluster.md` explains
//! both; the mapping from series to trace fields is [`mapping::Mapping`].
//!
//! Everything from the server is hostile input: answers are size-capped and parsed strictly
//! ([`response`]), values are checked against what their field can hold, label values are
//! clipped. The bearer token ([`TOKEN_ENV`]) is never part of a message, a profile, a
//! trace or a report.

pub mod client;
mod error;
pub mod fields;
pub mod fleet;
pub mod mapping;
pub mod range;
mod redact;
pub mod response;
pub mod time;

pub use client::Client;
pub use error::{PromError, TOKEN_ENV, UrlProblem};
