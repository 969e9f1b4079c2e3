//! Mounted file systems that can hold a dataset, and what each is stored on.
//!
//! Linux only: from `/proc/self/mountinfo` and `/sys/dev/block`. sysinfo's disk list would
//! `statvfs` every mount on the calling thread, and a dead NFS share would hang detection; here
//! each mount gets its own time-limited call ([`super::statfs`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::mounts::MountEntry;
use super::statfs::{StatOutcome, statvfs_with_timeout};
use crate::profile::{Disk, DiskKind, Note, NoteId};

/// Network and cluster file systems: reads cross the network, and small files cost a round
/// trip each (the seed's NFS case).
const NETWORK_FS: &[&str] = &[
    "nfs",
    "nfs4",
    "cifs",
    "smb3",
    "smbfs",
    "lustre",
    "gpfs",
    "beegfs",
    "ceph",
    "glusterfs",
    "fuse.glusterfs",
    "fuse.sshfs",
    "fuse.s3fs",
    "fuse.rclone",
    "fuse.juicefs",
    "fuse.gcsfuse",
    "fuse.cephfs",
    "wekafs",
    "panfs",
    "afs",
    "9p",
    "davfs",
    "fuse.davfs2",
];

/// Local block-device file systems.
const LOCAL_FS: &[&str] = &[
    "ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "jfs", "reiserfs", "vfat", "exfat",
    "ntfs", "ntfs3", "fuseblk", "bcachefs", "hfsplus", "apfs",
];

/// Mount points under these are system areas, not dataset locations.
const SYSTEM_PREFIXES: &[&str] = &[
    "/proc",
    "/sys",
    "/dev",
    "/run",
    "/snap",
    "/boot",
    "/var/lib/docker",
];

/// True when `fs_type` is a network or cluster file system.
pub fn is_network_fs(fs_type: &str) -> bool {
    NETWORK_FS.contains(&fs_type)
}

/// Picks the mounts worth listing: local and network file systems (and an overlay root, as in
/// containers), outside system areas, one per (device, root) pair.
pub fn dataset_mounts(mounts: &[MountEntry]) -> Vec<&MountEntry> {
    let mut seen: Vec<(u32, u32, &str)> = Vec::new();
    let mut out = Vec::new();
    for m in mounts {
        let fs = m.fs_type.as_str();
        let wanted = LOCAL_FS.contains(&fs)
            || is_network_fs(fs)
            || (fs == "overlay" && m.mount_point == "/");
        let system = SYSTEM_PREFIXES
            .iter()
            .any(|p| m.mount_point == *p || m.mount_point.starts_with(&format!("{p}/")));
        if !wanted || system {
            continue;
        }
        let key = (m.major, m.minor, m.root.as_str());
        if m.major != 0 && seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(m);
    }
    out
}

/// What a local block device is: looks up `<sys>/dev/block/MAJ:MIN`, walks from a partition to
/// its disk and from device-mapper or md devices to their first member, then decides by name
/// (`nvme*` → NVMe) and `queue/rotational` (0 → SSD, 1 → HDD). Virtual disks (virtio `vd*`,
/// Xen `xvd*`, loop, zram) are `Unknown`: their rotational flag says nothing about the storage.
pub fn block_kind(sys: &Path, major: u32, minor: u32) -> DiskKind {
    let link = sys.join(format!("dev/block/{major}:{minor}"));
    match std::fs::canonicalize(&link) {
        Ok(dev) => device_kind(&dev, 0),
        Err(_) => DiskKind::Unknown,
    }
}

fn device_kind(dev: &Path, depth: u32) -> DiskKind {
    let disk: PathBuf = if dev.join("partition").exists() {
        dev.parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| dev.to_path_buf())
    } else {
        dev.to_path_buf()
    };
    let name = disk
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with("nvme") {
        return DiskKind::Nvme;
    }
    if (name.starts_with("dm-") || name.starts_with("md")) && depth < 4 {
        let first_member = std::fs::read_dir(disk.join("slaves"))
            .ok()
            .and_then(|mut d| d.next())
            .and_then(Result::ok)
            .and_then(|e| std::fs::canonicalize(e.path()).ok());
        return first_member.map_or(DiskKind::Unknown, |m| device_kind(&m, depth + 1));
    }
    if ["vd", "xvd", "loop", "zram", "ram", "nbd"]
        .iter()
        .any(|p| name.starts_with(p))
    {
        return DiskKind::Unknown;
    }
    match std::fs::read_to_string(disk.join("queue/rotational"))
        .as_deref()
        .map(str::trim)
    {
        Ok("0") => DiskKind::Ssd,
        Ok("1") => DiskKind::Hdd,
        _ => DiskKind::Unknown,
    }
}

/// Lists dataset mounts with kind and space. Each `statvfs` waits at most `limit`; a mount that
/// does not answer is listed with unknown sizes and a [`NoteId::MountTimedOut`] note.
pub fn list_disks(mounts: &[MountEntry], sys: &Path, limit: Duration) -> (Vec<Disk>, Vec<Note>) {
    let mut disks = Vec::new();
    let mut notes = Vec::new();
    for m in dataset_mounts(mounts) {
        let kind = if is_network_fs(&m.fs_type) {
            DiskKind::Network
        } else if m.major == 0 {
            DiskKind::Unknown
        } else {
            block_kind(sys, m.major, m.minor)
        };
        if !is_network_fs(&m.fs_type) && !Path::new(&m.mount_point).is_dir() {
            continue; // a file bind-mounted into a container (/etc/hosts)
        }
        // Local mounts answer at once; only network mounts can hang, but all go through the
        // same time-limited call.
        let (total, available) = match statvfs_with_timeout(Path::new(&m.mount_point), limit) {
            StatOutcome::Space(s) => (Some(s.total), Some(s.available)),
            StatOutcome::Failed(_) => (None, None),
            StatOutcome::TimedOut => {
                notes.push(Note {
                    id: NoteId::MountTimedOut,
                    detail: Some(m.mount_point.clone()),
                });
                (None, None)
            }
        };
        disks.push(Disk {
            mount_point: m.mount_point.clone(),
            file_system: Some(m.fs_type.clone()),
            kind,
            device: Some(m.source.clone()),
            total_bytes: total,
            available_bytes: available,
        });
    }
    (disks, notes)
}

#[cfg(test)]
mod tests {
    use super::super::mounts::parse_mountinfo;
    use super::*;

    const MOUNTS: &str = "\
22 27 0:21 / /proc rw - proc proc rw
25 24 0:23 / /dev/shm rw - tmpfs tmpfs rw,size=65536k
27 1 259:2 / / rw - ext4 /dev/nvme0n1p2 rw
28 27 259:1 / /boot/efi rw - vfat /dev/nvme0n1p1 rw
29 27 8:17 / /data rw - xfs /dev/sdb1 rw
30 27 8:17 /projects /home/lab/projects rw - xfs /dev/sdb1 rw
31 27 0:50 / /mnt/nas rw - nfs4 nas:/export rw,vers=4.2
32 27 8:17 / /data2 rw - xfs /dev/sdb1 rw
33 27 0:60 / /scratch rw - lustre 10.0.0.1@o2ib:/scratch rw
";

    #[test]
    fn keeps_dataset_mounts_and_drops_system_ones() {
        let m = parse_mountinfo(MOUNTS);
        let kept: Vec<&str> = dataset_mounts(&m)
            .iter()
            .map(|e| e.mount_point.as_str())
            .collect();
        // /data2 is the same device and root as /data: listed once.
        assert_eq!(
            kept,
            ["/", "/data", "/home/lab/projects", "/mnt/nas", "/scratch"]
        );
    }

    #[test]
    fn network_file_systems() {
        for fs in ["nfs", "nfs4", "cifs", "lustre", "gpfs", "beegfs", "ceph"] {
            assert!(is_network_fs(fs), "{fs}");
        }
        assert!(!is_network_fs("ext4"));
    }

    #[test]
    fn classifies_from_a_fake_sysfs_tree() {
        let sys = tempfile::tempdir().unwrap();
        let root = sys.path();
        let mk = |dir: &str, rot: Option<&str>| {
            let d = root.join(dir);
            std::fs::create_dir_all(d.join("queue")).unwrap();
            if let Some(r) = rot {
                std::fs::write(d.join("queue/rotational"), r).unwrap();
            }
            d
        };
        let nvme = mk("devices/pci0/nvme/nvme0/nvme0n1", Some("0\n"));
        let nvme_p2 = nvme.join("nvme0n1p2");
        std::fs::create_dir_all(&nvme_p2).unwrap();
        std::fs::write(nvme_p2.join("partition"), "2\n").unwrap();
        let sdb = mk("devices/pci0/ata2/sdb", Some("1\n"));
        let ssd = mk("devices/pci0/ata3/sdc", Some("0\n"));
        let vda = mk("devices/pci0/virtio1/vda", Some("1\n"));
        let dm = mk("devices/virtual/block/dm-0", Some("0\n"));
        std::fs::create_dir_all(dm.join("slaves")).unwrap();
        std::os::unix::fs::symlink(&sdb, dm.join("slaves/sdb")).unwrap();
        std::fs::create_dir_all(root.join("dev/block")).unwrap();
        for (id, target) in [
            ("259:2", &nvme_p2),
            ("8:16", &sdb),
            ("8:32", &ssd),
            ("254:0", &vda),
            ("253:0", &dm),
        ] {
            std::os::unix::fs::symlink(target, root.join("dev/block").join(id)).unwrap();
        }
        assert_eq!(block_kind(root, 259, 2), DiskKind::Nvme);
        assert_eq!(block_kind(root, 8, 16), DiskKind::Hdd);
        assert_eq!(block_kind(root, 8, 32), DiskKind::Ssd);
        assert_eq!(block_kind(root, 254, 0), DiskKind::Unknown);
        assert_eq!(
            block_kind(root, 253, 0),
            DiskKind::Hdd,
            "LVM on a rotating disk"
        );
        assert_eq!(block_kind(root, 9, 9), DiskKind::Unknown);
    }
}
