//! What can go wrong reading Prometheus, and the environment variable holding the token the
//! errors name (never the token itself).

use std::fmt;

/// The environment variable holding a bearer token for the server (sent as
/// `Authorization: Bearer …`). Never written to profiles, traces, reports or messages.
pub const TOKEN_ENV: &str = "RAMVRAM_PROMETHEUS_TOKEN";

/// Why a server URL can't be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UrlProblem {
    /// Not `http://` or `https://`.
    Scheme,
    /// `user:password@` in the URL: credentials go in [`TOKEN_ENV`], never in a URL that ends up
    /// in messages and shell histories.
    Credentials,
    /// A `?query` or `#fragment`: give the server's base URL.
    QueryOrFragment,
    /// No host.
    NoHost,
    /// Spaces, control characters, too long, or not a valid URI.
    Invalid,
}

/// Why Prometheus could not be read. The texts inside come from the server or the HTTP client
/// with the token removed; `present::cluster` words each variant for people.
#[derive(Clone, Debug, PartialEq)]
pub enum PromError {
    /// The server URL can't be used (the URL as given, clipped to 200 characters).
    BadUrl {
        /// The URL.
        url: String,
        /// Why.
        problem: UrlProblem,
    },
    /// The token in [`TOKEN_ENV`] has spaces, control or non-ASCII characters.
    BadToken,
    /// No answer: the host could not be resolved or reached, a timeout, a TLS failure (the
    /// client's words).
    Transport(String),
    /// HTTP 401 or 403: the server wants (other) credentials.
    Unauthorized {
        /// The status.
        status: u16,
    },
    /// A redirect, which ramvram does not follow.
    Redirect {
        /// The status.
        status: u16,
        /// Where it pointed (clipped).
        location: String,
    },
    /// Another HTTP error status, with the first line of its body.
    Http {
        /// The status.
        status: u16,
        /// The body's first line (clipped).
        detail: String,
    },
    /// Prometheus answered `"status":"error"`.
    Api {
        /// `errorType` (`bad_data`, `execution`, `timeout`, …).
        error_type: String,
        /// `error`, the server's words.
        error: String,
    },
    /// The answer is larger than the cap.
    TooLarge {
        /// The cap, bytes.
        limit: u64,
    },
    /// The answer is not what the API documents.
    Malformed(String),
    /// A result type other than the one asked for (a query that is a scalar, say).
    WrongResultType {
        /// `matrix` or `vector`.
        expected: &'static str,
        /// What came.
        found: String,
    },
    /// The range is empty, reversed, or its step is too small.
    BadRange,
    /// The node has no sample in the range and the server's `up` series doesn't name it
    /// either: a misspelt or unknown node.
    UnknownNode {
        /// The node as given.
        node: String,
        /// The nodes the server knows (the mapping's `list` series), sorted.
        known: Vec<String>,
    },
    /// The server knows the node but has no sample of it in the range.
    EmptyRange {
        /// The node as given.
        node: String,
        /// Start of the range, Unix seconds.
        start: f64,
        /// End of the range, Unix seconds.
        end: f64,
    },
    /// The range has more steps than a trace holds.
    TooManySteps {
        /// Steps asked for.
        steps: u64,
        /// The most.
        max: u64,
    },
}

impl fmt::Display for PromError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromError::BadUrl { url, problem } => write!(f, "{url}: unusable URL ({problem:?})"),
            PromError::BadToken => write!(f, "{TOKEN_ENV} is not a valid bearer token"),
            PromError::Transport(e) => write!(f, "no answer: {e}"),
            PromError::Unauthorized { status } => write!(f, "HTTP {status}: not authorised"),
            PromError::Redirect { status, location } => {
                write!(f, "HTTP {status}: redirect to {location} not followed")
            }
            PromError::Http { status, detail } => write!(f, "HTTP {status}: {detail}"),
            PromError::Api { error_type, error } => write!(f, "{error_type}: {error}"),
            PromError::TooLarge { limit } => {
                write!(f, "answer larger than {} MiB", limit >> 20)
            }
            PromError::Malformed(m) => write!(f, "malformed answer: {m}"),
            PromError::WrongResultType { expected, found } => {
                write!(f, "result type {found}, not {expected}")
            }
            PromError::BadRange => write!(f, "empty or reversed time range"),
            PromError::UnknownNode { node, known } => {
                write!(
                    f,
                    "no data for node {node}; known nodes: {}",
                    known.join(", ")
                )
            }
            PromError::EmptyRange { node, .. } => {
                write!(f, "no samples of node {node} in the range")
            }
            PromError::TooManySteps { steps, max } => {
                write!(f, "{steps} steps, more than {max}")
            }
        }
    }
}

impl std::error::Error for PromError {}
