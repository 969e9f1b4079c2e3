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
        Value::String(s) if s.contains(token) => {
            *s = s.replace(token, "***");
            true
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| redact_value(v, token) | changed),
        Value::Object(map) => {
            let mut changed = false;
            let entries = std::mem::take(map);
            for (k, mut v) in entries {
                changed |= redact_value(&mut v, token);
                let k = if k.contains(token) {
                    changed = true;
                    k.replace(token, "***")
                } else {
                    k
                };
                map.insert(k, v);
            }
            changed
        }
        _ => false,
    }
}
