//! Redaction: removes what identifies a machine or a person before a profile leaves the lab.

use super::MachineProfile;

/// Text put where something was removed.
pub const REDACTED: &str = "[redacted]";

/// Replaces `/home/<user>` and `/Users/<user>` with `/home/[redacted]` in a path or message.
pub fn scrub_user_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = ["/home/", "/Users/"]
            .iter()
            .filter_map(|p| rest.find(p).map(|i| (i, *p)))
            .min();
        let Some((i, prefix)) = next else { break };
        out.push_str(&rest[..i + prefix.len()]);
        let after = &rest[i + prefix.len()..];
        let end = after
            .find(|c: char| c == '/' || c.is_whitespace() || c == ')' || c == '"')
            .unwrap_or(after.len());
        if end > 0 {
            out.push_str(REDACTED);
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

impl MachineProfile {
    /// A copy without the host name, GPU UUIDs and PCI addresses, and with user names removed
    /// from mount points, device paths and notes.
    pub fn redacted(&self) -> MachineProfile {
        let mut p = self.clone();
        p.host.hostname = None;
        for g in &mut p.gpus {
            g.uuid = None;
            g.pci_bus_id = None;
        }
        for d in &mut p.disks {
            d.mount_point = scrub_user_paths(&d.mount_point);
            // A block device or a remote source (`nas-alice:/export/alice`) can name a host or
            // a person; the disk's kind and size stay.
            d.device = None;
        }
        for n in &mut p.notes {
            n.detail = n.detail.as_deref().map(scrub_user_paths);
        }
        if let Some(hostname) = &self.host.hostname {
            if !hostname.is_empty() {
                // Anything else that happens to carry the host name (an NFS source, a note).
                for d in &mut p.disks {
                    d.mount_point = d.mount_point.replace(hostname.as_str(), REDACTED);
                    d.device = d
                        .device
                        .as_deref()
                        .map(|x| x.replace(hostname.as_str(), REDACTED));
                }
                for n in &mut p.notes {
                    n.detail = n
                        .detail
                        .as_deref()
                        .map(|x| x.replace(hostname.as_str(), REDACTED));
                }
                p.generated_by = p
                    .generated_by
                    .as_deref()
                    .map(|x| x.replace(hostname.as_str(), REDACTED));
            }
        }
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
        assert_eq!(scrub_user_paths("/data/imagenet"), "/data/imagenet");
        assert_eq!(
            scrub_user_paths("a /home/x/y and /home/z"),
            "a /home/[redacted]/y and /home/[redacted]"
        );
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
    }
}
