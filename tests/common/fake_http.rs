//! A tiny HTTP/1.1 server on loopback for tests that need a hostile or scripted Prometheus: one
//! connection at a time, `Connection: close`, the request's form body decoded. Included with
//! `#[path = "common/fake_http.rs"] mod fake_http;` by the tests that use it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A request as the server saw it.
#[derive(Clone, Debug)]
pub struct Request {
    /// `POST`, `GET`.
    pub method: String,
    /// The path, query string removed.
    pub path: String,
    /// Headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The form fields of an `application/x-www-form-urlencoded` body.
    pub form: Vec<(String, String)>,
}

impl Request {
    /// A form field's value.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.form
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What to answer.
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Vec<u8>,
}

impl Reply {
    /// A JSON answer with status 200.
    pub fn json(body: impl Into<Vec<u8>>) -> Reply {
        Reply::status(200, body)
    }

    /// An answer with this status.
    pub fn status(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: body.into(),
        }
    }
}

/// The running server; stops when dropped.
pub struct FakeServer {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Every request so far.
    pub seen: Arc<Mutex<Vec<Request>>>,
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept() up.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn read_request(stream: &mut TcpStream) -> Option<Request> {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).ok()? == 0 || buf.len() > 64 * 1024 {
            return None;
        }
        buf.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let mut lines = head.lines();
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let target = first.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length.min(16 << 20)];
    stream.read_exact(&mut body).ok()?;
    let body = String::from_utf8_lossy(&body).into_owned();
    let form = body
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect();
    Some(Request {
        method,
        path: target.split('?').next().unwrap_or("").to_string(),
        headers,
        form,
    })
}

/// Starts a server answering every request with `handler`.
pub fn serve(handler: impl Fn(&Request) -> Reply + Send + 'static) -> FakeServer {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (stop2, seen2) = (stop.clone(), seen.clone());
    let thread = std::thread::spawn(move || {
        for stream in listener.incoming() {
            if stop2.load(Ordering::Relaxed) {
                break;
            }
            let Ok(mut stream) = stream else { continue };
            let Some(request) = read_request(&mut stream) else {
                continue;
            };
            let reply = handler(&request);
            seen2.lock().unwrap().push(request);
            let mut head = format!(
                "HTTP/1.1 {} Fake\r\nContent-Length: {}\r\nConnection: close\r\n",
                reply.status,
                reply.body.len()
            );
            for (k, v) in &reply.headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&reply.body);
            let _ = stream.flush();
        }
    });
    FakeServer {
        url: format!("http://127.0.0.1:{port}"),
        seen,
        port,
        stop,
        thread: Some(thread),
    }
}

/// A `query_range` answer: one series per (labels JSON, values) with `values` as (Unix time,
/// value text).
pub fn matrix(series: &[(String, Vec<(f64, String)>)]) -> String {
    let items: Vec<String> = series
        .iter()
        .map(|(labels, values)| {
            let v: Vec<String> = values
                .iter()
                .map(|(t, v)| format!("[{t},\"{v}\"]"))
                .collect();
            format!("{{\"metric\":{labels},\"values\":[{}]}}", v.join(","))
        })
        .collect();
    format!(
        "{{\"status\":\"success\",\"data\":{{\"resultType\":\"matrix\",\"result\":[{}]}}}}",
        items.join(",")
    )
}

/// A `query` answer: one sample per (labels JSON, value text).
pub fn vector(series: &[(String, String)]) -> String {
    let items: Vec<String> = series
        .iter()
        .map(|(labels, v)| format!("{{\"metric\":{labels},\"value\":[1717250400,\"{v}\"]}}"))
        .collect();
    format!(
        "{{\"status\":\"success\",\"data\":{{\"resultType\":\"vector\",\"result\":[{}]}}}}",
        items.join(",")
    )
}
