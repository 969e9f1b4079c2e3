//! Shapes of identifiers in any text, for [`super::redact::Scrubber`]: network addresses (IPv4,
//! IPv6, and MAC addresses in every common notation), user names after `~`, and mount points
//! named after a host (`/mnt/nas07`).

use std::net::{Ipv4Addr, Ipv6Addr};

/// Text put where something was removed.
pub const REDACTED: &str = "[redacted]";

/// Folders whose entries are mount points, often named after the server they mount.
const MOUNT_FOLDERS: [&str; 2] = ["/mnt/", "/net/"];

/// Characters an address is written with: hex digits, `.` and `:`.
fn address_char(c: char) -> bool {
    c.is_ascii_hexdigit() || c == '.' || c == ':'
}

/// True when `run` is an IPv4 address (with or without a `:port`), an IPv6 address, or a MAC
/// address written `aabb.ccdd.eeff` (Cisco) or as twelve bare hex digits with a letter among
/// them (`0c42a19e0001`; twelve decimal digits are a number, not an address).
fn is_address(run: &str) -> bool {
    let ipv4 = |s: &str| s.split('.').count() == 4 && s.parse::<Ipv4Addr>().is_ok();
    if ipv4(run)
        || run.rsplit_once(':').is_some_and(|(ip, port)| {
            ipv4(ip) && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
        })
    {
        return true;
    }
    if run.matches(':').count() >= 2
        && run.chars().any(|c| c.is_ascii_hexdigit())
        && run.parse::<Ipv6Addr>().is_ok()
    {
        return true;
    }
    let groups: Vec<&str> = run.split('.').collect();
    if groups.len() == 3
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.chars().all(|c| c.is_ascii_hexdigit()))
    {
        return true;
    }
    run.len() == 12
        && run.chars().all(|c| c.is_ascii_hexdigit())
        && run.chars().any(|c| c.is_ascii_alphabetic())
}

/// `word` with every network address in it replaced; `None` when there is none. An address is
/// a run of hex digits, `.` and `:` that stands apart from letters and digits around it.
pub(super) fn scrub_addresses(word: &str) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    let mut found = false;
    let mut i = 0;
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    while i < chars.len() {
        if !address_char(chars[i].1) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && address_char(chars[i].1) {
            i += 1;
        }
        let from = chars[start].0;
        let at = |k: usize| chars.get(k).map_or(word.len(), |c| c.0);
        let mut end = i;
        if !is_address(&word[from..at(end)]) {
            // A sentence's full stop or colon after an address is not part of it.
            while end > start && matches!(chars[end - 1].1, '.' | ':') {
                end -= 1;
            }
        }
        let to = at(end);
        let apart = |k: Option<&(usize, char)>| k.is_none_or(|(_, c)| !c.is_alphanumeric());
        let before = start.checked_sub(1).map(|k| &chars[k]);
        if end > start && apart(before) && apart(chars.get(i)) && is_address(&word[from..to]) {
            out.push_str(&word[last..from]);
            out.push_str(REDACTED);
            last = to;
            found = true;
        }
    }
    found.then(|| {
        out.push_str(&word[last..]);
        out
    })
}

/// Replaces the user name of `~name` (a home folder in shell notation); `~` alone and `~/`
/// (one's own home) stay.
pub(super) fn scrub_tilde_users(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('~') {
        let before = rest[..i].chars().next_back();
        out.push_str(&rest[..=i]);
        let after = &rest[i + 1..];
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .unwrap_or(after.len());
        let starts_name = after
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        if starts_name && before.is_none_or(|c| !c.is_alphanumeric()) {
            out.push_str(REDACTED);
            rest = &after[end..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Replaces a mount point's name under `/mnt/` or `/net/` when it is shaped like a host name:
/// letters and digits together (`/mnt/nas07`, `/net/fs-2`); `/mnt/data` stays.
pub(super) fn scrub_host_mounts(text: &str) -> String {
    let mut text = text.to_string();
    for folder in MOUNT_FOLDERS {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(i) = rest.find(folder) {
            let start = i + folder.len();
            out.push_str(&rest[..start]);
            let after = &rest[start..];
            let end = after
                .find(|c: char| {
                    c == '/' || c.is_whitespace() || matches!(c, ')' | '"' | '\'' | ',' | ';')
                })
                .unwrap_or(after.len());
            let name = &after[..end];
            let hosty = name.chars().any(|c| c.is_ascii_alphabetic())
                && name.chars().any(|c| c.is_ascii_digit());
            out.push_str(if hosty { REDACTED } else { name });
            rest = &after[end..];
        }
        out.push_str(rest);
        text = out;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_in_every_notation_are_found_and_numbers_kept() {
        for (text, want) in [
            ("10.1.2.3", "[redacted]"),
            ("(10.1.2.3:9100),", "([redacted]),"),
            ("fe80::1c:2aff:fe3b:9d01", "[redacted]"),
            ("[2001:db8::7]:9090", "[[redacted]]:9090"),
            ("0c42.a19e.0001", "[redacted]"),
            ("mac=0c42a19e0001", "mac=[redacted]"),
            ("at 10.0.0.7.", "at [redacted]."),
        ] {
            assert_eq!(scrub_addresses(text).as_deref(), Some(want), "{text}");
        }
        // A driver version, a time, a byte count, a ratio, a node:port, an instance name.
        for text in [
            "535.104.05",
            "14:00:00",
            "123456789012",
            "0.67",
            "gpu07:9100",
            "v1.2.3.4",
        ] {
            assert_eq!(scrub_addresses(text), None, "{text}");
        }
    }

    #[test]
    fn tilde_users_and_host_named_mounts_go() {
        assert_eq!(
            scrub_tilde_users("~alice/data and ~/x"),
            "~[redacted]/data and ~/x"
        );
        assert_eq!(scrub_tilde_users("a~b"), "a~b");
        assert_eq!(
            scrub_host_mounts("/mnt/nas07/imagenet /mnt/data /net/fs2"),
            "/mnt/[redacted]/imagenet /mnt/data /net/[redacted]"
        );
    }
}
