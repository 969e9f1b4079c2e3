//! `/proc/self/mountinfo` parser.

/// One line of `/proc/self/mountinfo` (see proc(5)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MountEntry {
    /// Device major number (`0` for virtual and network file systems).
    pub major: u32,
    /// Device minor number.
    pub minor: u32,
    /// Root of the mount within its file system (`/` for a whole file system).
    pub root: String,
    /// Mount point, with `\040`-style escapes decoded.
    pub mount_point: String,
    /// File system type (`ext4`, `nfs4`, `cgroup2`, …).
    pub fs_type: String,
    /// Mount source (`/dev/nvme0n1p2`, `server:/export`, `tmpfs`).
    pub source: String,
    /// Super-block options (`rw,size=65536k`) — cgroup v1 controllers are listed here.
    pub super_options: String,
}

/// Parses `/proc/self/mountinfo`. Malformed lines are skipped.
pub fn parse_mountinfo(text: &str) -> Vec<MountEntry> {
    text.lines().filter_map(parse_line).collect()
}

fn parse_line(line: &str) -> Option<MountEntry> {
    let (left, right) = line.split_once(" - ")?;
    let mut l = left.split(' ');
    let _mount_id = l.next()?;
    let _parent_id = l.next()?;
    let (major, minor) = l.next()?.split_once(':')?;
    let root = unescape(l.next()?);
    let mount_point = unescape(l.next()?);
    let mut r = right.split(' ');
    let fs_type = r.next()?.to_string();
    let source = unescape(r.next()?);
    let super_options = r.next().unwrap_or("").to_string();
    Some(MountEntry {
        major: major.parse().ok()?,
        minor: minor.parse().ok()?,
        root,
        mount_point,
        fs_type,
        source,
        super_options,
    })
}

/// Decodes the kernel's octal escapes (`\040` space, `\011` tab, `\012` newline, `\134` `\`).
fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 3 < bytes.len() {
            let oct = &bytes[i + 1..i + 4];
            if oct.iter().all(|b| (b'0'..=b'7').contains(b)) {
                let v = oct
                    .iter()
                    .fold(0u32, |acc, b| acc * 8 + u32::from(b - b'0'));
                if let Ok(v) = u8::try_from(v) {
                    out.push(v);
                    i += 4;
                    continue;
                }
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_captured_container_mountinfo() {
        let text = include_str!("../../tests/fixtures/proc/mountinfo-container.txt");
        let m = parse_mountinfo(text);
        let root = m.iter().find(|e| e.mount_point == "/").unwrap();
        assert_eq!((root.major, root.minor), (254, 0));
        assert_eq!(root.fs_type, "ext4");
        assert_eq!(root.source, "/dev/vda");
        let mem = m
            .iter()
            .find(|e| e.mount_point == "/sys/fs/cgroup/memory")
            .unwrap();
        assert!(mem.super_options.split(',').any(|o| o == "memory"));
    }

    #[test]
    fn decodes_spaces_in_mount_points() {
        let line = "40 27 0:50 / /mnt/my\\040data rw - nfs4 nas:/vol\\040a rw,vers=4.2\n";
        let m = parse_mountinfo(line);
        assert_eq!(m[0].mount_point, "/mnt/my data");
        assert_eq!(m[0].source, "nas:/vol a");
        assert_eq!(m[0].fs_type, "nfs4");
    }

    #[test]
    fn skips_garbage() {
        assert!(parse_mountinfo("not a mount line\n").is_empty());
    }
}
