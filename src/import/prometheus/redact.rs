//! Keeping the bearer token out of what the server sends back: JSON strings read with their
//! escapes (a token may come back escaped) and the token replaced in every string and key.

/// `text` with the escapes a JSON string may hold read: `\uXXXX` (a surrogate pair as one
/// character; a lone surrogate as U+FFFD) and `\/ \" \\ \b \f \n \r \t`; anything else kept.
pub(super) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let hex4 = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| -> Option<u32> {
        let digits: String = (0..4).filter_map(|_| chars.next()).collect();
        (digits.len() == 4).then(|| u32::from_str_radix(&digits, 16).ok())?
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('u') => {
                let Some(u) = hex4(&mut chars) else { continue };
                let code = if (0xd800..0xdc00).contains(&u) && chars.peek() == Some(&'\\') {
                    chars.next();
                    chars.next();
                    match hex4(&mut chars) {
                        Some(low) if (0xdc00..0xe000).contains(&low) => {
                            0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00)
                        }
                        _ => 0xfffd,
                    }
                } else {
                    u
                };
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Replaces `token` by `***` in every string and key of `value`; true when one changed.
pub(super) fn redact_value(value: &mut serde_json::Value, token: &str) -> bool {
    use serde_json::Value;
    match value {
        Value::String(s) => match redact_text(s, token) {
            std::borrow::Cow::Owned(r) => {
                *s = r;
                true
            }
            std::borrow::Cow::Borrowed(_) => false,
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| redact_value(v, token) | changed),
        Value::Object(map) => {
            let mut changed = false;
            let entries = std::mem::take(map);
            for (k, mut v) in entries {
                changed |= redact_value(&mut v, token);
                let k = match redact_text(&k, token) {
                    std::borrow::Cow::Owned(r) => {
                        changed = true;
                        r
                    }
                    std::borrow::Cow::Borrowed(_) => k,
                };
                map.insert(k, v);
            }
            changed
        }
        _ => false,
    }
}

/// `text` with the token replaced by `***` wherever it appears raw or in an encoding a server
/// might echo it in: percent-encoded (`%2F`, `%2b`: any of its bytes, either case, `+` for a
/// space; RFC 3986 § 2.1, HTML's form encoding), as HTML character references (`&#47;`,
/// `&#x2F;`, `&amp;`, `&quot;`, `&lt;`, `&gt;`, `&apos;`; HTML § 13.1.4), mixed within one
/// occurrence, and base64 of it (standard and URL-safe alphabets, RFC 4648 §§ 4–5) at any of
/// the three alignments inside a longer base64 text: the characters that only the token's
/// bits decide. Borrows when nothing was found.
pub(super) fn redact_text<'a>(text: &'a str, token: &str) -> std::borrow::Cow<'a, str> {
    let t = token.as_bytes();
    if t.is_empty() {
        return text.into();
    }
    let mut out = text.to_string();
    for core in base64_cores(t) {
        if !core.is_empty() && out.contains(&core) {
            out = out.replace(&core, "***");
        }
    }
    if out.contains(token) {
        out = out.replace(token, "***");
    }
    if out.contains(['%', '&', '+']) {
        out = replace_encoded(&out, t);
    }
    if out == text { text.into() } else { out.into() }
}

/// The byte `text[at..]` starts with, written raw or encoded, and how many bytes it takes.
fn decode_one(text: &[u8], at: usize) -> Option<(u8, usize)> {
    let rest = &text[at..];
    let first = *rest.first()?;
    if first == b'%' && rest.len() >= 3 {
        let hex = std::str::from_utf8(&rest[1..3]).ok()?;
        if let Ok(b) = u8::from_str_radix(hex, 16) {
            return Some((b, 3));
        }
    }
    if first == b'+' {
        return Some((b' ', 1));
    }
    if first == b'&' {
        if let Some(decoded) = entity(rest) {
            return Some(decoded);
        }
    }
    Some((first, 1))
}

/// The byte an HTML character reference at the start of `rest` (`&…;`) stands for, and its
/// length.
fn entity(rest: &[u8]) -> Option<(u8, usize)> {
    {
        let end = rest.iter().take(12).position(|&c| c == b';')?;
        let name = std::str::from_utf8(&rest[1..end]).ok()?;
        let b = match name {
            "amp" => b'&',
            "lt" => b'<',
            "gt" => b'>',
            "quot" => b'"',
            "apos" => b'\'',
            n if n.starts_with(['x', 'X']) && n.len() > 1 => {
                u8::try_from(u32::from_str_radix(&n[1..], 16).ok()?).ok()?
            }
            n if n.starts_with('#') => {
                let n = &n[1..];
                match n.strip_prefix(['x', 'X']) {
                    Some(h) => u8::try_from(u32::from_str_radix(h, 16).ok()?).ok()?,
                    None => u8::try_from(n.parse::<u32>().ok()?).ok()?,
                }
            }
            _ => return None,
        };
        Some((b, end + 1))
    }
}

/// `text` with every stretch that decodes ([`decode_one`]) to `token` replaced by `***`.
fn replace_encoded(text: &str, token: &[u8]) -> String {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let mut j = i;
        let mut matched = 0;
        while matched < token.len() {
            match decode_one(bytes, j) {
                Some((b, len)) if b == token[matched] || (b == b' ' && token[matched] == b'+') => {
                    j += len;
                    matched += 1;
                }
                _ => break,
            }
        }
        // `+` read as a space above only matches a `+` of the token written raw.
        if matched == token.len() && j > i {
            out.extend_from_slice(b"***");
            i = j;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    // Whole UTF-8 characters were copied or replaced by ASCII, as the matcher only consumes
    // ASCII escapes or bytes equal to the token's, a valid UTF-8 string.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The base64 characters decided by `token`'s bits alone, when it starts at each of the three
/// byte alignments, in the standard and the URL-safe alphabet (empty for a token too short to
/// decide a character).
fn base64_cores(token: &[u8]) -> Vec<String> {
    const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut cores = Vec::new();
    for k in 0..3usize {
        let mut bits: Vec<bool> = vec![false; 8 * k];
        for b in token {
            bits.extend((0..8).rev().map(|i| b >> i & 1 == 1));
        }
        // Characters whose six bits all lie within the token's: from ceil(8k / 6) to
        // floor(8(k + n) / 6).
        let first = (8 * k).div_ceil(6);
        let last = bits.len() / 6;
        let core: String = (first..last)
            .map(|c| {
                let v = (0..6).fold(0usize, |v, i| v << 1 | usize::from(bits[6 * c + i]));
                STD[v] as char
            })
            .collect();
        if core.len() >= 8 {
            cores.push(core.replace('+', "-").replace('/', "_"));
            cores.push(core);
        }
    }
    cores
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token with `/`, `+` and `=` (a base64-looking secret, as many are).
    const TOKEN: &str = "tok/3f+9a=SECRET/7c21";

    #[test]
    fn the_token_is_found_in_every_encoding_a_server_echoes() {
        // Percent-encoding by hand (RFC 3986: `/` 0x2F, `+` 0x2B, `=` 0x3D), both cases.
        let upper = "tok%2F3f%2B9a%3DSECRET%2F7c21";
        let lower = "tok%2f3f%2b9a%3dSECRET%2f7c21";
        let every = "%74%6F%6B%2F%33%66%2B%39%61%3D%53%45%43%52%45%54%2F%37%63%32%31";
        // HTML character references: decimal, hex, mixed with raw characters.
        let html = "tok&#47;3f&#x2B;9a&#61;SECRET&#x2f;7c21";
        // base64 of "Bearer " + TOKEN (Python: base64.b64encode(b"Bearer tok/3f+9a=SECRET/7c21")):
        // the token begins 7 bytes in, alignment 1.
        let b64 = "QmVhcmVyIHRvay8zZis5YT1TRUNSRVQvN2MyMQ==";
        for form in [upper, lower, every, html] {
            let text = format!("node label: {form} end");
            assert_eq!(redact_text(&text, TOKEN), "node label: *** end", "{form}");
        }
        let out = redact_text(b64, TOKEN);
        // What is left can't be decoded back to the token: its middle is gone.
        assert!(
            out.contains("***") && !out.contains("vay8zZis5YT1TRUNSRVQvN2My"),
            "{out}"
        );
        assert_eq!(redact_text(TOKEN, TOKEN), "***");
        // Nothing to hide: borrowed, unchanged, even with escapes of other text.
        let plain = "gpu07%2F9100 &amp; a+b";
        assert!(matches!(
            redact_text(plain, TOKEN),
            std::borrow::Cow::Borrowed(_)
        ));
        // A raw `&` or `%` in a token still matches raw.
        assert_eq!(redact_text("x a&b%zz y", "a&b%zz"), "x *** y");
    }
}
