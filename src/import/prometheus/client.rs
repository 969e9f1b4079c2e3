//! The HTTP side: POSTs to one Prometheus server's API with timeouts, a size cap, no redirects
//! and no proxy, and an optional bearer token that never appears in what comes back.
//!
//! Only the URL the user gives is contacted: redirects are not followed (a `3xx` answer is an
//! error naming where it pointed), proxies from the environment are not used (a proxy would see
//! the token on plain HTTP), and TLS is rustls with the bundled Mozilla roots (webpki-roots),
//! verified as ureq does by default.

use std::fmt;
use std::time::Duration;

pub use super::error::{PromError, TOKEN_ENV, UrlProblem};
use super::redact::{redact_value, unescape};
use super::response::{self, Answer};

/// Time to resolve the host and open the connection (TLS included): 5 s. A server on the lab's
/// network answers in milliseconds; longer means a wrong address or a firewall.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Time for one whole request: 120 s, Prometheus's own default query timeout
/// (`--query.timeout=2m`), so its answer arrives before we give up.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);

/// Largest answer read: 64 MiB (a week of 15 s samples of 8 GPUs is a few MB per query).
/// Larger answers are refused rather than filling memory.
pub const MAX_RESPONSE_BYTES: u64 = 64 << 20;

/// Longest URL accepted: 2,048 bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// The bearer token: shown as `***` whatever prints it.
#[derive(Clone)]
struct Token(String);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// A Prometheus server: its base URL (with any path prefix, without a final `/`) and how to
/// reach it.
#[derive(Debug)]
pub struct Client {
    base: String,
    agent: ureq::Agent,
    token: Option<Token>,
}

/// The base URL without its final `/`, or why it can't be used.
///
/// # Errors
/// The [`UrlProblem`].
pub fn check_url(url: &str) -> Result<String, UrlProblem> {
    let url = url.trim();
    if url.len() > MAX_URL_BYTES || url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(UrlProblem::Invalid);
    }
    let lower = url.to_ascii_lowercase();
    let rest = if lower.starts_with("http://") {
        &url[7..]
    } else if lower.starts_with("https://") {
        &url[8..]
    } else {
        return Err(UrlProblem::Scheme);
    };
    let authority = rest.split('/').next().unwrap_or("");
    if authority.contains('@') {
        return Err(UrlProblem::Credentials);
    }
    if url.contains('?') || url.contains('#') {
        return Err(UrlProblem::QueryOrFragment);
    }
    if authority.is_empty() || authority.starts_with(':') {
        return Err(UrlProblem::NoHost);
    }
    ureq::http::Uri::try_from(url).map_err(|_| UrlProblem::Invalid)?;
    Ok(url.trim_end_matches('/').to_string())
}

/// True for a `http://` URL whose host is not a loopback address: a token sent there crosses
/// the network in clear text.
pub fn plain_http_off_host(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = super::mapping::host_part(authority);
    !(host == "localhost" || host.starts_with("127.") || host == "[::1]")
}

impl Client {
    /// A client for the server at `url` (`http://prometheus:9090`, or with a path prefix),
    /// sending `token` as a bearer token when given.
    ///
    /// # Errors
    /// [`PromError::BadUrl`], or [`PromError::BadToken`] for a token that is not visible ASCII
    /// (its text is never part of the error).
    pub fn new(url: &str, token: Option<String>) -> Result<Client, PromError> {
        let base = check_url(url).map_err(|problem| PromError::BadUrl {
            url: url.chars().take(200).collect(),
            problem,
        })?;
        let token = match token.filter(|t| !t.is_empty()) {
            Some(t) if t.len() <= 8192 && t.bytes().all(|b| (0x21..=0x7e).contains(&b)) => {
                Some(Token(t))
            }
            Some(_) => return Err(PromError::BadToken),
            None => None,
        };
        let config = ureq::Agent::config_builder()
            .timeout_resolve(Some(CONNECT_TIMEOUT))
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .timeout_global(Some(REQUEST_TIMEOUT))
            .max_redirects(0)
            .http_status_as_error(false)
            .proxy(None)
            .user_agent(format!("ramvram/{}", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(Client {
            base,
            agent: config.into(),
            token,
        })
    }

    /// [`Client::new`] with the token from [`TOKEN_ENV`] (unset or empty: none).
    ///
    /// # Errors
    /// As [`Client::new`].
    pub fn from_env(url: &str) -> Result<Client, PromError> {
        Client::new(url, std::env::var(TOKEN_ENV).ok())
    }

    /// The base URL as used (no final `/`).
    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// True when a token is sent.
    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }

    /// `text` with every occurrence of the token replaced by `***`: raw, percent-encoded,
    /// as HTML character references or in base64 ([`super::redact::redact_text`]).
    pub fn redact(&self, text: &str) -> String {
        match &self.token {
            Some(t) => super::redact::redact_text(text, &t.0).into_owned(),
            None => text.to_string(),
        }
    }

    fn redact_bytes(&self, bytes: Vec<u8>) -> Vec<u8> {
        let Some(Token(t)) = &self.token else {
            return bytes;
        };
        // A text body (JSON is UTF-8): the token in every encoding a server might echo.
        if let Ok(text) = std::str::from_utf8(&bytes) {
            if let std::borrow::Cow::Owned(r) = super::redact::redact_text(text, t) {
                return r.into_bytes();
            }
        }
        let needle = t.as_bytes();
        if bytes.windows(needle.len()).all(|w| w != needle) {
            return bytes;
        }
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i..].starts_with(needle) {
                out.extend_from_slice(b"***");
                i += needle.len();
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        out
    }

    /// `body` with the token also replaced in every string (and object key) as JSON decodes
    /// it: a server can echo the token escaped (`\/`, `\uXXXX`, `\"`), which the raw bytes
    /// don't show. Only a JSON body with a backslash in it can hide the token this way; it is
    /// written again when a string changed.
    fn redact_decoded(&self, body: Vec<u8>) -> Vec<u8> {
        let Some(Token(t)) = &self.token else {
            return body;
        };
        if !body.contains(&b'\\') {
            return body;
        }
        let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(&body) else {
            return body;
        };
        if !redact_value(&mut value, t) {
            return body;
        }
        match serde_json::to_vec(&value) {
            Ok(bytes) => bytes,
            Err(_) => body,
        }
    }

    /// `text` (not JSON: a proxy's error page) with JSON-style escapes read (`\/`, `\uXXXX`,
    /// `\"`, `\\`) and the token replaced, when the token hides behind them; else as it is.
    fn redact_escaped(&self, text: &str) -> String {
        let Some(Token(t)) = &self.token else {
            return text.to_string();
        };
        if !text.contains('\\') {
            return text.to_string();
        }
        let decoded = unescape(text);
        match super::redact::redact_text(&decoded, t) {
            std::borrow::Cow::Owned(r) => r,
            std::borrow::Cow::Borrowed(_) => text.to_string(),
        }
    }

    /// An instant query (`/api/v1/query`) at Unix time `time` (the server's now when `None`).
    ///
    /// # Errors
    /// Any [`PromError`] of the request or the answer.
    pub fn query(&self, query: &str, time: Option<f64>) -> Result<Answer, PromError> {
        let mut form = vec![("query", query.to_string())];
        if let Some(t) = time {
            form.push(("time", format!("{t:.3}")));
        }
        response::parse_vector(&self.post("/api/v1/query", &form)?)
    }

    /// A range query (`/api/v1/query_range`) from `start` to `end` (Unix seconds) every `step`
    /// seconds.
    ///
    /// # Errors
    /// Any [`PromError`] of the request or the answer.
    pub fn query_range(
        &self,
        query: &str,
        start: f64,
        end: f64,
        step: f64,
    ) -> Result<Answer, PromError> {
        let form = [
            ("query", query.to_string()),
            ("start", format!("{start:.3}")),
            ("end", format!("{end:.3}")),
            ("step", format!("{step}")),
        ];
        response::parse_matrix(&self.post("/api/v1/query_range", &form)?)
    }

    /// POSTs a form to `path` under the base URL and returns the answer's body (token
    /// replaced by `***`) when the status is 2xx.
    fn post(&self, path: &str, form: &[(&str, String)]) -> Result<Vec<u8>, PromError> {
        let url = format!("{}{path}", self.base);
        let mut request = self.agent.post(&url).header("Accept", "application/json");
        if let Some(Token(t)) = &self.token {
            request = request.header("Authorization", format!("Bearer {t}"));
        }
        let mut answer = request
            .send_form(form.iter().map(|(k, v)| (*k, v.as_str())))
            .map_err(|e| PromError::Transport(self.redact(&e.to_string())))?;
        let status = answer.status().as_u16();
        if (300..400).contains(&status) {
            let location = answer
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .chars()
                .take(200)
                .collect::<String>();
            return Err(PromError::Redirect {
                status,
                location: self.redact(&location),
            });
        }
        let body = answer
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE_BYTES)
            .read_to_vec()
            .map_err(|e| match e {
                ureq::Error::BodyExceedsLimit(_) => PromError::TooLarge {
                    limit: MAX_RESPONSE_BYTES,
                },
                e => PromError::Transport(self.redact(&e.to_string())),
            })?;
        let body = self.redact_decoded(self.redact_bytes(body));
        if status == 401 || status == 403 {
            return Err(PromError::Unauthorized { status });
        }
        if !(200..300).contains(&status) {
            return Err(response::api_error(&body).unwrap_or_else(|| {
                let text = String::from_utf8_lossy(&body);
                let first = text.lines().next().unwrap_or("").trim();
                PromError::Http {
                    status,
                    detail: self.redact_escaped(first).chars().take(200).collect(),
                }
            }));
        }
        Ok(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked() {
        assert_eq!(
            check_url("http://prom:9090/"),
            Ok("http://prom:9090".to_string())
        );
        assert_eq!(
            check_url(" https://lab.example/prometheus "),
            Ok("https://lab.example/prometheus".to_string())
        );
        assert_eq!(check_url("ftp://prom"), Err(UrlProblem::Scheme));
        assert_eq!(check_url("prom:9090"), Err(UrlProblem::Scheme));
        assert_eq!(
            check_url("http://admin:hunter2@prom:9090"),
            Err(UrlProblem::Credentials)
        );
        assert_eq!(
            check_url("http://prom:9090/api/v1/query?query=up"),
            Err(UrlProblem::QueryOrFragment)
        );
        assert_eq!(check_url("http://"), Err(UrlProblem::NoHost));
        assert_eq!(check_url("http://prom\n:9090"), Err(UrlProblem::Invalid));
        assert_eq!(
            check_url(&format!("http://{}", "a".repeat(3000))),
            Err(UrlProblem::Invalid)
        );
    }

    #[test]
    fn tokens_never_show() {
        let c = Client::new("http://127.0.0.1:1", Some("s3cr3t-t0ken".into())).unwrap();
        assert!(c.has_token());
        assert!(!format!("{c:?}").contains("s3cr3t"));
        assert_eq!(c.redact("Bearer s3cr3t-t0ken!"), "Bearer ***!");
        assert_eq!(
            c.redact_bytes(b"{\"a\":\"s3cr3t-t0ken\"}".to_vec()),
            b"{\"a\":\"***\"}".to_vec()
        );
        // Escaped as JSON allows: `\/`, `\uXXXX` (here for `s`, `3` and `-`), in a key too.
        let escaped =
            br#"{"a":"\u0073\u0033cr3t\u002dt0ken","s3cr3t-t\u0030ken":["x\/s3cr3t-t0ken"]}"#;
        let v: serde_json::Value =
            serde_json::from_slice(&c.redact_decoded(escaped.to_vec())).unwrap();
        assert_eq!(v, serde_json::json!({"a": "***", "***": ["x/***"]}));
        // A text (not JSON) error body with the token escaped: read and redacted.
        assert_eq!(
            c.redact_escaped(r"denied: \u0073\u0033cr3t-t0ken\/x"),
            "denied: ***/x"
        );
        assert_eq!(c.redact_escaped(r"a\/b"), r"a\/b", "no token: as it was");
        let bad = Client::new("http://127.0.0.1:1", Some("two words".into())).unwrap_err();
        assert_eq!(bad, PromError::BadToken);
        assert!(
            !Client::new("http://127.0.0.1:1", Some(String::new()))
                .unwrap()
                .has_token()
        );
    }

    #[test]
    fn clear_text_tokens_are_noticed_off_this_host() {
        assert!(plain_http_off_host("http://prom:9090"));
        assert!(!plain_http_off_host("https://prom:9090"));
        assert!(!plain_http_off_host("http://127.0.0.1:9090"));
        assert!(!plain_http_off_host("http://localhost:9090/prom"));
    }

    #[test]
    fn a_closed_port_is_a_transport_error() {
        // Port 1 on loopback: nothing listens there; refused at once.
        let c = Client::new("http://127.0.0.1:1", None).unwrap();
        assert!(matches!(c.query("up", None), Err(PromError::Transport(_))));
    }
}
