//! The Prometheus client against a scripted server on loopback: the bearer token is sent but
//! never shown (a 401 that echoes it, a hostile server that puts it in its data), redirects are
//! not followed, an oversize answer is refused, the API's errors are put into words, bad times
//! and URLs are named.

#[path = "common/fake_http.rs"]
mod fake_http;

use std::process::{Command, Output};

use fake_http::{Reply, Request, serve};

const TOKEN: &str = "tok-3f9a-SECRET-7c21";

fn ramvram(args: &[&str], token: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ramvram"));
    cmd.args(args)
        .env_remove("RAMVRAM_LANG")
        .env("LANG", "C.UTF-8")
        .env_remove("RAMVRAM_PROMETHEUS_TOKEN");
    if let Some(t) = token {
        cmd.env("RAMVRAM_PROMETHEUS_TOKEN", t);
    }
    cmd.output().unwrap()
}

fn all_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn diagnose_args(url: &str) -> Vec<String> {
    [
        "diagnose",
        "--prometheus",
        url,
        "--instance",
        "gpu07",
        "--from",
        "2024-06-01T14:00:00Z",
        "--to",
        "2024-06-01T14:01:00Z",
        "--step",
        "15s",
    ]
    .map(String::from)
    .to_vec()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn the_token_is_sent_but_never_shown_even_when_refused() {
    // A server that refuses and repeats the Authorization header back, as a careless proxy
    // might.
    let server = serve(|r: &Request| {
        let auth = r.header("authorization").unwrap_or("").to_string();
        Reply::status(401, format!("unauthorized: {auth}"))
    });
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("lab.md");
    let mut json = diagnose_args(&server.url);
    json.push("--json".into());
    for args in [
        diagnose_args(&server.url),
        json,
        ["advise", "--prometheus", &server.url, "--fleet", "--json"]
            .map(String::from)
            .to_vec(),
        [
            "report",
            "--prometheus",
            &server.url,
            "--fleet",
            "--format",
            "md",
            "--out",
            report.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec(),
    ] {
        let out = ramvram(&strs(&args), Some(TOKEN));
        let text = all_text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains("HTTP 401"), "{text}");
        assert!(text.contains("RAMVRAM_PROMETHEUS_TOKEN"), "{text}");
        assert!(!text.contains(TOKEN), "{args:?} leaked the token: {text}");
        assert!(!text.contains("SECRET"), "{text}");
    }
    assert!(!report.exists());
    let seen = server.seen.lock().unwrap();
    assert!(!seen.is_empty());
    assert!(
        seen.iter()
            .all(|r| r.header("authorization") == Some(&format!("Bearer {TOKEN}")))
    );
    assert!(seen.iter().all(|r| r.method == "POST"));
}

#[test]
fn a_hostile_server_cannot_slip_the_token_into_outputs() {
    // Success answers whose labels carry the token: the node's name, the GPU's model.
    let server = serve(|r: &Request| {
        let q = r.field("query").unwrap_or("");
        let node = format!(r#""instance":"gpu07:9100","nodename":"{TOKEN}""#);
        let gpu = format!(r#""instance":"gpu07:9400","gpu":"0","modelName":"GPU {TOKEN}""#);
        if r.path.ends_with("/query_range") {
            let start: f64 = r.field("start").unwrap().parse().unwrap();
            let values = (0..5)
                .map(|k| (start + 15.0 * k as f64, "50".to_string()))
                .collect();
            return Reply::json(fake_http::matrix(&[(format!("{{{gpu}}}"), values)]));
        }
        let body = if q.contains("MemTotal") {
            fake_http::vector(&[(format!("{{{node}}}"), "68719476736".into())])
        } else if q.contains("FB_USED") || q.contains("FB_FREE") {
            fake_http::vector(&[(format!("{{{gpu}}}"), "40960".into())])
        } else if q.contains("uname") {
            fake_http::vector(&[(format!("{{{node}}}"), "1".into())])
        } else {
            fake_http::vector(&[])
        };
        Reply::json(body)
    });
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("run.jsonl");
    let mut args = diagnose_args(&server.url);
    args.extend([
        "--json".into(),
        "--record".into(),
        record.display().to_string(),
    ]);
    let out = ramvram(&strs(&args), Some(TOKEN));
    let text = all_text(&out);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains(TOKEN), "{text}");
    let trace = std::fs::read_to_string(&record).unwrap();
    assert!(!trace.contains(TOKEN), "{trace}");
    // The machine's name in the trace's profile was the token: replaced.
    assert!(trace.contains(r#""hostname":"***""#), "{trace}");

    let out = ramvram(
        &["advise", "--prometheus", &server.url, "--fleet", "--json"],
        Some(TOKEN),
    );
    let text = all_text(&out);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains(TOKEN), "{text}");
    for format in ["md", "json"] {
        let file = dir.path().join(format!("lab.{format}"));
        let out = ramvram(
            &[
                "report",
                "--prometheus",
                &server.url,
                "--fleet",
                "--format",
                format,
                "--out",
                file.to_str().unwrap(),
            ],
            Some(TOKEN),
        );
        assert!(out.status.success(), "{}", all_text(&out));
        let written = std::fs::read_to_string(&file).unwrap();
        assert!(!written.contains(TOKEN), "{written}");
        assert!(written.contains("gpu07"), "{written}");
    }
}

#[test]
fn redirects_are_not_followed() {
    let elsewhere = serve(|_| Reply::json(fake_http::vector(&[])));
    let target = format!("{}/api/v1/query_range", elsewhere.url);
    let server = serve(move |_| Reply {
        status: 302,
        headers: vec![("Location".into(), target.clone())],
        body: Vec::new(),
    });
    let out = ramvram(&strs(&diagnose_args(&server.url)), None);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("HTTP 302"), "{text}");
    assert!(text.contains(&elsewhere.url), "{text}");
    assert!(elsewhere.seen.lock().unwrap().is_empty());
}

#[test]
fn an_oversize_answer_is_refused() {
    // 64 MiB and one byte more than the cap.
    let server = serve(|_| Reply::json(vec![b' '; (64 << 20) + 1]));
    let out = ramvram(&strs(&diagnose_args(&server.url)), None);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.replace('\u{a0}', " ").contains("larger than 64 MiB"),
        "{text}"
    );
}

#[test]
fn the_apis_errors_and_malformed_answers_are_put_into_words() {
    let server = serve(|_| {
        Reply::status(
            400,
            r#"{"status":"error","errorType":"bad_data","error":"1:10: parse error: unexpected \"}\""}"#,
        )
    });
    let out = ramvram(&strs(&diagnose_args(&server.url)), None);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("Prometheus refused the query (bad_data)"),
        "{text}"
    );
    assert!(text.contains("parse error"), "{text}");

    let server = serve(|_| Reply::json("<html>not the API</html>"));
    let mut args = diagnose_args(&server.url);
    args.extend(["--lang".into(), "zh".into()]);
    let out = ramvram(&strs(&args), None);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("应答不是 Prometheus API 的 JSON"), "{text}");
}

#[test]
fn bad_times_urls_and_mappings_are_named_before_anything_is_asked() {
    let server = serve(|_| Reply::json(fake_http::vector(&[])));
    let mut args = diagnose_args(&server.url);
    args[6] = "yesterday".into();
    let out = ramvram(&strs(&args), None);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(text.contains("--from yesterday: not a time"), "{text}");

    let mut args = diagnose_args("http://admin:hunter2@127.0.0.1:1");
    args.truncate(5);
    let out = ramvram(&strs(&args), None);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(text.contains("RAMVRAM_PROMETHEUS_TOKEN"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let mapping = dir.path().join("m.toml");
    std::fs::write(&mapping, "[host]\ncpu_busy = 'x'\n").unwrap();
    let mut args = diagnose_args(&server.url);
    args.extend(["--mapping".into(), mapping.display().to_string()]);
    let out = ramvram(&strs(&args), None);
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2));
    // Code spans print without their backticks on a terminal.
    assert!(text.contains("key host.cpu_busy: unknown key"), "{text}");
    // The reversed range is refused without a request.
    let mut args = diagnose_args(&server.url);
    args.swap(6, 8);
    let out = ramvram(&strs(&args), None);
    assert!(all_text(&out).contains("empty or reversed"));
    assert!(server.seen.lock().unwrap().is_empty());
}

/// A token with `/` in it, and the three ways a server's JSON can carry it without its bytes
/// appearing: `\/` for each slash, `\uXXXX` for every character, and one letter escaped.
const SLASHED: &str = "tok/3f9a/SECRET/7c21";

fn escaped_forms() -> [String; 3] {
    let slashes = SLASHED.replace('/', "\\/");
    let all_u: String = SLASHED
        .chars()
        .map(|c| format!("\\u{:04x}", c as u32))
        .collect();
    let one = SLASHED.replace('S', "\\u0053");
    [slashes, all_u, one]
}

#[test]
fn the_token_echoed_json_escaped_never_shows() {
    let [slashes, all_u, one] = escaped_forms();
    // The hand-written forms decode to the token (checked by a JSON parser, not by ramvram),
    // and none holds the token's bytes, which is all that redacting the raw body can see.
    for form in escaped_forms() {
        let decoded: String = serde_json::from_str(&format!("\"{form}\"")).unwrap();
        assert_eq!(decoded, SLASHED);
        assert!(!form.contains(SLASHED), "{form}");
    }
    let server = serve(move |r: &Request| {
        let q = r.field("query").unwrap_or("");
        let node = format!(r#""instance":"gpu07:9100","nodename":"{slashes}""#);
        let gpu = format!(
            r#""instance":"gpu07:9400","gpu":"0","modelName":"GPU {all_u}","Hostname":"h-{one}""#
        );
        if r.path.ends_with("/query_range") {
            let start: f64 = r.field("start").unwrap().parse().unwrap();
            let values = (0..5)
                .map(|k| (start + 15.0 * k as f64, "50".to_string()))
                .collect();
            return Reply::json(fake_http::matrix(&[(format!("{{{gpu}}}"), values)]));
        }
        let body = if q.contains("MemTotal") {
            fake_http::vector(&[(format!("{{{node}}}"), "68719476736".into())])
        } else if q.contains("FB_USED") || q.contains("FB_FREE") {
            fake_http::vector(&[(format!("{{{gpu}}}"), "40960".into())])
        } else if q.contains("uname") {
            fake_http::vector(&[(format!("{{{node}}}"), "1".into())])
        } else {
            fake_http::vector(&[])
        };
        Reply::json(body)
    });
    let leaks = |what: &str, text: &str| {
        assert!(!text.contains(SLASHED), "{what} leaked the token: {text}");
        assert!(!text.contains("SECRET"), "{what} leaked the token: {text}");
    };
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("run.jsonl");
    let mut args = diagnose_args(&server.url);
    args.extend(["--record".into(), record.display().to_string()]);
    let out = ramvram(&strs(&args), Some(SLASHED));
    assert!(out.status.success(), "{}", all_text(&out));
    leaks("diagnose", &all_text(&out));
    let trace = std::fs::read_to_string(&record).unwrap();
    leaks("the trace", &trace);
    assert!(trace.contains(r#""hostname":"***""#), "{trace}");
    // The fleet table and its JSON.
    for json in [false, true] {
        let mut args = vec!["advise", "--prometheus", &server.url, "--fleet"];
        if json {
            args.push("--json");
        }
        let out = ramvram(&args, Some(SLASHED));
        let text = all_text(&out);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("gpu07"), "{text}");
        leaks("advise --fleet", &text);
    }
    for format in ["md", "json"] {
        let file = dir.path().join(format!("lab.{format}"));
        let out = ramvram(
            &[
                "report",
                "--prometheus",
                &server.url,
                "--fleet",
                "--format",
                format,
                "--out",
                file.to_str().unwrap(),
            ],
            Some(SLASHED),
        );
        assert!(out.status.success(), "{}", all_text(&out));
        let written = std::fs::read_to_string(&file).unwrap();
        assert!(written.contains("gpu07"), "{written}");
        leaks("the report", &written);
    }
    // An API error that quotes the query's token, escaped.
    let [_, all_u, _] = escaped_forms();
    let server = serve(move |_| {
        Reply::status(
            400,
            format!(r#"{{"status":"error","errorType":"bad_data","error":"bad token {all_u}"}}"#),
        )
    });
    let out = ramvram(&strs(&diagnose_args(&server.url)), Some(SLASHED));
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("bad token ***"), "{text}");
    leaks("the API's error", &text);
    // A proxy's text (not JSON) error page with the token written with `\/`.
    let [slashes, _, _] = escaped_forms();
    let server = serve(move |_| Reply::status(502, format!("bad gateway for {slashes}")));
    let out = ramvram(&strs(&diagnose_args(&server.url)), Some(SLASHED));
    let text = all_text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("HTTP 502"), "{text}");
    leaks("a text error page", &text);
}

/// Issue 37, item 7: a token with `/`, `+` and `=` echoed in a label URL-encoded (upper and
/// lower case hex), as HTML character references and in base64 never reaches the fleet table,
/// the Markdown report or a recorded trace. The encoded forms are written by hand (RFC 3986
/// percent-encoding: `/` %2F, `+` %2B, `=` %3D; HTML: `&#47;` `&#x2B;` `&#61;`; base64 of the
/// token from Python's `base64.b64encode(b"tok/3f+9a=SECRET/7c21")`).
#[test]
fn the_token_echoed_url_encoded_html_or_base64_never_shows() {
    const PLUSSED: &str = "tok/3f+9a=SECRET/7c21";
    let forms = [
        "tok%2F3f%2B9a%3DSECRET%2F7c21",
        "tok%2f3f%2b9a%3dSECRET%2f7c21",
        "tok&#47;3f&#x2B;9a&#61;SECRET&#x2f;7c21",
        "dG9rLzNmKzlhPVNFQ1JFVC83YzIx",
    ];
    let server = serve(move |r: &Request| {
        let q = r.field("query").unwrap_or("");
        let node = format!(
            r#""instance":"gpu07:9100","nodename":"n-{}","domainname":"{}""#,
            forms[0], forms[1]
        );
        let gpu = format!(
            r#""instance":"gpu07:9400","gpu":"0","modelName":"GPU {}","Hostname":"h-{}""#,
            forms[2], forms[3]
        );
        if r.path.ends_with("/query_range") {
            let start: f64 = r.field("start").unwrap().parse().unwrap();
            let values = (0..5)
                .map(|k| (start + 15.0 * k as f64, "50".to_string()))
                .collect();
            return Reply::json(fake_http::matrix(&[(format!("{{{gpu}}}"), values)]));
        }
        let body = if q.contains("MemTotal") {
            fake_http::vector(&[(format!("{{{node}}}"), "68719476736".into())])
        } else if q.contains("FB_USED") || q.contains("FB_FREE") {
            fake_http::vector(&[(format!("{{{gpu}}}"), "40960".into())])
        } else if q.contains("uname") {
            fake_http::vector(&[(format!("{{{node}}}"), "1".into())])
        } else {
            fake_http::vector(&[])
        };
        Reply::json(body)
    });
    let leaks = |what: &str, text: &str| {
        assert!(!text.contains("SECRET"), "{what} leaked the token: {text}");
        // The base64 form's middle (what only the token's bits decide).
        assert!(!text.contains("LzNmKzlhPVNFQ1JFVC83YzIx"), "{what}: {text}");
        assert!(!text.contains("dG9rLzNm"), "{what}: {text}");
    };
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("run.jsonl");
    let mut args = diagnose_args(&server.url);
    args.extend(["--record".into(), record.display().to_string()]);
    let out = ramvram(&strs(&args), Some(PLUSSED));
    assert!(out.status.success(), "{}", all_text(&out));
    leaks("diagnose", &all_text(&out));
    leaks("the trace", &std::fs::read_to_string(&record).unwrap());
    let out = ramvram(
        &["advise", "--prometheus", &server.url, "--fleet"],
        Some(PLUSSED),
    );
    let text = all_text(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("gpu07"), "{text}");
    leaks("the fleet table", &text);
    let file = dir.path().join("lab.md");
    let out = ramvram(
        &[
            "report",
            "--prometheus",
            &server.url,
            "--fleet",
            "--format",
            "md",
            "--out",
            file.to_str().unwrap(),
        ],
        Some(PLUSSED),
    );
    assert!(out.status.success(), "{}", all_text(&out));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("gpu07"), "{written}");
    leaks("the Markdown report", &written);
}
