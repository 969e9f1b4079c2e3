//! Redaction: removes what identifies a machine or a person before a profile leaves the lab.
//!
//! By rule, not by field: one [`Scrubber`] learns the identifiers a set of profiles carries
//! (host names, GPU UUIDs, PCI addresses, network-share sources) and knows the shapes
//! identifiers take in any text (a user name in a home, scratch or removable-media path or after
//! `~`, a mount point named after a host, a share source, a UUID, an IPv4 or IPv6 address, a MAC
//! address in any notation, a device path by id or label); every string of a profile passes
//! through it ([`super::strings::for_each_string`]).

use super::MachineProfile;

pub use super::redact_shapes::REDACTED;

/// Folders whose next path component is a user name (Linux, macOS, Fedora Atomic, and the
/// scratch, second-home, Lustre and work areas of HPC clusters), and how many components after
/// it to remove. `/media/USER/LABEL` and `/run/media/USER/LABEL` (udisks mount points) also
/// carry a volume label, which often names a person or project. Under `/data/` the next name is
/// as often a data set as a person: removed all the same, as a redacted report must not carry a
/// name.
const USER_FOLDERS: [(&str, usize); 11] = [
    ("/home/", 1),
    ("/home2/", 1),
    ("/Users/", 1),
    ("/users/", 1),
    ("/var/home/", 1),
    ("/scratch/", 1),
    ("/lustre/", 1),
    ("/work/", 1),
    ("/data/", 1),
    ("/media/", 2),
    ("\\Users\\", 1),
];

/// Device-path folders whose entries are serial numbers, UUIDs, labels or volume-group names.
const DEVICE_FOLDERS: [&str; 2] = ["/dev/disk/", "/dev/mapper/"];

/// Removes identifiers from text: literal ones learned from profiles ([`Scrubber::learn`]) and
/// any text shaped like one.
#[derive(Clone, Debug, Default)]
pub struct Scrubber {
    /// Learned identifiers, ASCII-lowercased, longest first.
    literals: Vec<String>,
}

impl Scrubber {
    /// A scrubber that knows only the shapes (no learned identifiers).
    pub fn new() -> Scrubber {
        Scrubber::default()
    }

    /// A scrubber that has learned `p`'s identifiers.
    pub fn for_profile(p: &MachineProfile) -> Scrubber {
        let mut s = Scrubber::new();
        s.learn(p);
        s
    }

    /// Learns `p`'s identifiers: its host name (and the name's first label, `node7` of
    /// `node7.cluster.example`, and its DNS domain, `cluster.example`, when that has two labels
    /// or more: a lone `local` names nobody), GPU UUIDs and PCI addresses, and the server of
    /// every network share it mounts.
    pub fn learn(&mut self, p: &MachineProfile) {
        if let Some(h) = &p.host.hostname {
            self.add(h);
            if let Some((short, domain)) = h.split_once('.') {
                self.add(short);
                if domain.contains('.') {
                    self.add(domain);
                }
            }
        }
        for g in &p.gpus {
            self.add_opt(g.uuid.as_deref());
            self.add_opt(g.pci_bus_id.as_deref());
        }
        for d in &p.disks {
            if let Some(server) = d.device.as_deref().and_then(share_server) {
                self.add(server);
            }
        }
    }

    /// Learns one identifier (ignored when empty or only punctuation).
    pub fn add(&mut self, identifier: &str) {
        let id = identifier.trim().to_ascii_lowercase();
        if !id.chars().any(|c| c.is_alphanumeric()) || self.literals.contains(&id) {
            return;
        }
        self.literals.push(id);
        self.literals.sort_by_key(|l| std::cmp::Reverse(l.len()));
    }

    fn add_opt(&mut self, identifier: Option<&str>) {
        if let Some(i) = identifier {
            self.add(i);
        }
    }

    /// `text` with every identifier replaced by [`REDACTED`]: learned identifiers where they
    /// stand as a word (ASCII case ignored), then user names in paths, network-share sources,
    /// UUIDs, MAC addresses and device paths by id or label.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for l in &self.literals {
            out = replace_word(&out, l);
        }
        out = scrub_user_paths(&out);
        out = super::redact_shapes::scrub_tilde_users(&out);
        out = super::redact_shapes::scrub_host_mounts(&out);
        out = scrub_device_paths(&out);
        map_words(&out, |w| {
            if is_share_source(w) {
                return Some(REDACTED.to_string());
            }
            match scrub_hex_ids(w) {
                Some(ids) => Some(super::redact_shapes::scrub_addresses(&ids).unwrap_or(ids)),
                None => super::redact_shapes::scrub_addresses(w),
            }
        })
    }

    /// Scrubs `s` in place.
    pub fn scrub_in_place(&self, s: &mut String) {
        let clean = self.scrub(s);
        if clean != *s {
            *s = clean;
        }
    }
}

/// The server of a network-share source: `nas` of `nas:/export`, `//nas/share` or
/// `\\nas\share`, `host` of `user@host:/path`.
fn share_server(source: &str) -> Option<&str> {
    if let Some(rest) = source
        .strip_prefix("//")
        .or_else(|| source.strip_prefix("\\\\"))
    {
        return rest.split(['/', '\\']).next().filter(|s| !s.is_empty());
    }
    let (server, path) = source.split_once(':')?;
    if !path.starts_with('/') || server.len() < 2 {
        return None;
    }
    let server = server.rsplit('@').next()?;
    Some(server.trim_start_matches('[').trim_end_matches(']')).filter(|s| !s.is_empty())
}

/// A word shaped like a share source (`nas:/export`, `//nas/share`, `\\nas\share`,
/// `user@host:/path`) or a URL (`https://…`).
fn is_share_source(word: &str) -> bool {
    let w = word.trim_matches(|c: char| matches!(c, '(' | ')' | '"' | '\'' | ',' | ';'));
    if (w.starts_with("//") || w.starts_with("\\\\")) && w.len() > 2 {
        return true;
    }
    let Some((server, _)) = w.split_once(":/") else {
        return false;
    };
    server.len() >= 2
        && server.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '@' | '[' | ']' | ':')
        })
}

/// Replaces UUIDs (8-4-4-4-12 hex digits, `GPU-` prefix kept) and MAC addresses (six hex pairs
/// joined by `:` or `-`) inside a word; `None` when there are none.
fn scrub_hex_ids(word: &str) -> Option<String> {
    let b = word.as_bytes();
    let hex_run =
        |i: usize, n: usize| b.len() >= i + n && b[i..i + n].iter().all(u8::is_ascii_hexdigit);
    let mut out = String::new();
    let mut i = 0;
    let mut last = 0;
    let mut found = false;
    while i < b.len() {
        let uuid = hex_run(i, 8)
            && [8, 13, 18, 23].iter().all(|&o| b.get(i + o) == Some(&b'-'))
            && hex_run(i + 9, 4)
            && hex_run(i + 14, 4)
            && hex_run(i + 19, 4)
            && hex_run(i + 24, 12);
        let mac = (0..6).all(|k| hex_run(i + 3 * k, 2))
            && matches!(b.get(i + 2), Some(b':' | b'-'))
            && (1..5).all(|k| b.get(i + 2 + 3 * k) == b.get(i + 2));
        let len = if uuid {
            36
        } else if mac {
            17
        } else {
            0
        };
        let starts_word = i == 0 || !b[i - 1].is_ascii_hexdigit();
        if len > 0 && starts_word {
            out.push_str(&word[last..i]);
            out.push_str(REDACTED);
            i += len;
            last = i;
            found = true;
        } else {
            i += 1;
        }
    }
    found.then(|| {
        out.push_str(&word[last..]);
        out
    })
}

/// Applies `f` to each whitespace-separated word, keeping the whitespace.
fn map_words(text: &str, f: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        match f(word) {
            Some(new) => out.push_str(&new),
            None => out.push_str(word),
        }
        rest = &rest[end..];
    }
    out
}

/// Replaces `word` (ASCII-lowercase) where it stands alone: not inside a longer run of ASCII
/// letters and digits.
fn replace_word(text: &str, word: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    let bytes = text.as_bytes();
    let alnum = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphanumeric);
    while let Some(pos) = lower[from..].find(word) {
        let at = from + pos;
        let end = at + word.len();
        if (at == 0 || !alnum(at - 1)) && !alnum(end) {
            out.push_str(&text[from..at]);
            out.push_str(REDACTED);
            from = end;
        } else {
            let next = lower[at..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[from..at + next]);
            from = at + next;
        }
    }
    out.push_str(&text[from..]);
    out
}

/// Where a user name ends: a path separator, white space or punctuation that closes a path.
fn is_separator(c: char) -> bool {
    c == '/' || c == '\\' || c.is_whitespace() || matches!(c, ')' | '"' | '\'' | ',' | ';' | ':')
}

/// Where a volume label ends: as [`is_separator`], but a label may hold spaces ("My Passport").
fn is_label_end(c: char) -> bool {
    c != ' ' && is_separator(c)
}

/// Replaces the component(s) after `prefix` everywhere in `text`.
fn scrub_after(text: &str, prefix: &str, components: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        out.push_str(&rest[..i + prefix.len()]);
        let mut after = &rest[i + prefix.len()..];
        for n in 0..components {
            let ends: fn(char) -> bool = if n == 0 { is_separator } else { is_label_end };
            let end = after.find(ends).unwrap_or(after.len());
            if end == 0 {
                break;
            }
            out.push_str(REDACTED);
            after = &after[end..];
            // Continue into the next component only across one path separator.
            if n + 1 < components {
                match after.chars().next() {
                    Some(c @ ('/' | '\\')) => {
                        out.push(c);
                        after = &after[1..];
                    }
                    _ => break,
                }
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Replaces the user name in home-folder and removable-media paths: `/home/alice/data` →
/// `/home/[redacted]/data`, `/run/media/alice/BACKUP` → `/run/media/[redacted]/[redacted]`.
pub fn scrub_user_paths(text: &str) -> String {
    USER_FOLDERS
        .iter()
        .fold(text.to_string(), |t, (prefix, n)| {
            scrub_after(&t, prefix, *n)
        })
}

/// Replaces device names that are serial numbers, UUIDs, labels or volume groups:
/// `/dev/disk/by-id/nvme-Samsung_SSD_S4EVNF0M` → `/dev/disk/by-id/[redacted]`.
fn scrub_device_paths(text: &str) -> String {
    let text = scrub_after(text, "/dev/mapper/", 1);
    // /dev/disk/by-id/NAME: keep the by-* folder, remove the name.
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find(DEVICE_FOLDERS[0]) {
        let start = i + DEVICE_FOLDERS[0].len();
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let folder_end = after.find(is_separator).unwrap_or(after.len());
        out.push_str(&after[..folder_end]);
        let tail = &after[folder_end..];
        match tail.strip_prefix('/') {
            Some(name) => {
                let end = name.find(is_separator).unwrap_or(name.len());
                out.push('/');
                if end > 0 {
                    out.push_str(REDACTED);
                }
                rest = &name[end..];
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

impl MachineProfile {
    /// A copy without the host name, GPU UUIDs, PCI addresses and device sources, and with
    /// every other string scrubbed by a [`Scrubber`] that learned this profile.
    pub fn redacted(&self) -> MachineProfile {
        self.redacted_with(&Scrubber::for_profile(self))
    }

    /// [`MachineProfile::redacted`] with a scrubber that may know more (every machine of a
    /// fleet: one host's name can appear in another's mounts).
    pub fn redacted_with(&self, scrubber: &Scrubber) -> MachineProfile {
        let mut p = self.clone();
        p.host.hostname = None;
        for g in &mut p.gpus {
            g.uuid = None;
            g.pci_bus_id = None;
        }
        for d in &mut p.disks {
            // A block device or a remote source (`nas-alice:/export/alice`) can name a host or
            // a person; the disk's kind and size stay.
            d.device = None;
        }
        super::strings::for_each_string(&mut p, &mut |s, _| scrubber.scrub_in_place(s));
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{Disk, DiskKind};

    #[test]
    fn user_names_leave_paths() {
        assert_eq!(
            scrub_user_paths("/home/alice/data"),
            "/home/[redacted]/data"
        );
        assert_eq!(scrub_user_paths("/Users/bob"), "/Users/[redacted]");
        assert_eq!(scrub_user_paths("/data/imagenet"), "/data/[redacted]");
        for root in ["/scratch", "/home2", "/lustre", "/users", "/work"] {
            assert_eq!(
                scrub_user_paths(&format!("{root}/alice/x")),
                format!("{root}/[redacted]/x")
            );
        }
        assert_eq!(
            scrub_user_paths("a /home/x/y and /home/z"),
            "a /home/[redacted]/y and /home/[redacted]"
        );
        assert_eq!(
            scrub_user_paths("/run/media/alice/ALICE-PHD/imagenet"),
            "/run/media/[redacted]/[redacted]/imagenet"
        );
        assert_eq!(
            scrub_user_paths("/media/bob/Alice Smith/x"),
            "/media/[redacted]/[redacted]/x"
        );
        assert_eq!(
            scrub_user_paths(r"C:\Users\carol\x"),
            r"C:\Users\[redacted]\x"
        );
    }

    #[test]
    fn shapes_are_removed_without_learning() {
        let s = Scrubber::new();
        assert_eq!(
            s.scrub("mount nas-alice:/export/alice did not answer"),
            "mount [redacted] did not answer"
        );
        assert_eq!(s.scrub("(//fileserver/lab)"), "[redacted]");
        assert_eq!(
            s.scrub("GPU-6f1c0b2e-3a4d-4e5f-8a9b-0c1d2e3f4a5b lost"),
            "GPU-[redacted] lost"
        );
        assert_eq!(s.scrub("mac 0c:42:a1:9e:00:01."), "mac [redacted].");
        assert_eq!(
            s.scrub("/dev/disk/by-id/nvme-Samsung_SSD_980_S64DNF0R123456 /dev/nvme0n1p2"),
            "/dev/disk/by-id/[redacted] /dev/nvme0n1p2"
        );
        assert_eq!(
            s.scrub("/dev/mapper/vg_alice-home"),
            "/dev/mapper/[redacted]"
        );
        // Not identifiers: a GRES string, a version, a time, a size.
        for kept in [
            "gpu:a100:8",
            "550.54.15",
            "12:30:45",
            "16.0 GiB",
            "/dev/shm",
        ] {
            assert_eq!(s.scrub(kept), kept);
        }
    }

    #[test]
    fn learned_names_go_where_they_stand_as_words() {
        let mut s = Scrubber::new();
        s.add("GPU-Node-17.cluster.example");
        s.add("gpu-node-17");
        assert_eq!(
            s.scrub("/mnt/gpu-node-17-scratch on GPU-NODE-17.cluster.example"),
            "/mnt/[redacted]-scratch on [redacted]"
        );
        assert_eq!(s.scrub("gpu-node-170"), "gpu-node-170");
    }

    #[test]
    fn host_and_ids_are_removed() {
        let mut p = MachineProfile::unknown();
        p.host.hostname = Some("gpu-node-17".into());
        p.disks.push(Disk {
            mount_point: "/mnt/gpu-node-17-scratch".into(),
            file_system: Some("nfs4".into()),
            kind: DiskKind::Network,
            device: Some("nas:/export/gpu-node-17".into()),
            total_bytes: None,
            available_bytes: None,
        });
        let r = p.redacted();
        let json = serde_json::to_string(&r).unwrap();
        assert!(!json.contains("gpu-node-17"), "{json}");
        assert_eq!(r.host.hostname, None);
        assert_eq!(r.disks[0].mount_point, "/mnt/[redacted]-scratch");
    }
}
