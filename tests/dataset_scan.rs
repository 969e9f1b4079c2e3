//! `--dataset PATH`: a folder of JPEGs written by the `image` crate's encoder in class
//! folders, with a link out of the folder, a FIFO and a label file beside them. The count and
//! bytes are the test's own (what it wrote); the size is the encoder's input.

mod common;

use common::ramvram;
use ramvram::inputs::dataset::{FileKind, scan};

/// Writes `n` JPEGs of `w` × `h` noise (so they compress to tens of KiB) into `dir`; returns
/// their bytes.
fn jpegs(dir: &std::path::Path, n: u32, w: u32, h: u32, seed: u32) -> u64 {
    std::fs::create_dir_all(dir).unwrap();
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let mut total = 0;
    for i in 0..n {
        let pixels: Vec<u8> = (0..w * h * 3)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            })
            .collect();
        let mut buf = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut buf, 90)
            .encode(&pixels, w, h, image::ExtendedColorType::Rgb8)
            .unwrap();
        total += buf.len() as u64;
        std::fs::write(dir.join(format!("{i:05}.jpg")), buf).unwrap();
    }
    total
}

#[test]
fn a_folder_of_jpegs_gives_its_exact_count_bytes_and_size() {
    let root = tempfile::tempdir().unwrap();
    let mut bytes = 0;
    for (i, class) in ["cat", "dog", "fox"].iter().enumerate() {
        bytes += jpegs(&root.path().join(class), 12, 320, 240, i as u32);
    }
    std::fs::write(root.path().join("labels.csv"), b"file,label\n").unwrap();
    bytes += 11;
    #[cfg(unix)]
    {
        // A link out of the folder (not followed) and a FIFO (skipped, never opened).
        std::os::unix::fs::symlink("/etc", root.path().join("etc")).unwrap();
        let fifo = std::ffi::CString::new(root.path().join("pipe").to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    }
    let s = scan(root.path()).unwrap();
    assert_eq!(s.files, 37);
    assert_eq!(s.bytes, bytes);
    assert_eq!(s.count(FileKind::Jpeg), 36);
    assert_eq!(s.count(FileKind::Other), 1);
    assert_eq!(s.class_folders, 3);
    assert_eq!(s.image_size, Some((320, 240)));
    assert_eq!(s.sampled, 36);
    assert_eq!(s.magic_mismatches, 0);
    assert!(!s.capped);
    #[cfg(unix)]
    assert_eq!((s.links_skipped, s.special_skipped), (1, 1));

    // On the command line the scan fills the workload, and says so.
    let out = ramvram()
        .args(["advise", "--json", "--dataset"])
        .arg(root.path())
        .assert()
        .success()
        .get_output()
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let w = &v["workload"];
    assert_eq!(w["dataset_bytes"].as_u64(), Some(bytes));
    assert_eq!(w["samples"].as_u64(), Some(36));
    assert_eq!(
        (w["width"].as_u64(), w["height"].as_u64()),
        (Some(320), Some(240))
    );
    assert_eq!(w["stored"], "jpeg");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("37 files"), "{stderr}");
    // A typed value wins and is named.
    let out = ramvram()
        .args(["advise", "--json", "--samples", "1000", "--dataset"])
        .arg(root.path())
        .assert()
        .success()
        .get_output()
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["workload"]["samples"].as_u64(), Some(1000));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--samples"));
}

#[test]
fn a_file_or_a_missing_folder_is_refused_naming_it() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("x.txt");
    std::fs::write(&file, b"x").unwrap();
    assert!(scan(&file).is_err());
    ramvram()
        .args(["advise", "--dataset"])
        .arg(root.path().join("missing"))
        .assert()
        .failure()
        .stderr(predicates::str::contains("missing"));
}

/// The dataset's file system is the mount with the longest matching path: a folder under
/// `/tmp` on a machine with `/` on a disk and `/tmp` on NVMe is on the NVMe; `/tm` matches
/// nothing (whole components only).
#[test]
fn the_dataset_folder_is_on_the_longest_matching_mount() {
    use ramvram::profile::{Disk, DiskKind};
    let root = tempfile::tempdir().unwrap();
    let disk = |mount: &str, kind| Disk {
        mount_point: mount.into(),
        file_system: None,
        kind,
        device: None,
        total_bytes: None,
        available_bytes: None,
    };
    let canonical = std::fs::canonicalize(root.path()).unwrap();
    let parent = canonical.parent().unwrap().display().to_string();
    let partial = &parent[..parent.len() - 1];
    let disks = [
        disk("/", DiskKind::Hdd),
        disk(&parent, DiskKind::Nvme),
        disk(partial, DiskKind::Network),
    ];
    let d = ramvram::inputs::dataset::disk_of(root.path(), &disks).unwrap();
    assert_eq!(d.kind, DiskKind::Nvme);
    assert_eq!(
        ramvram::inputs::dataset::disk_of(root.path(), &disks[..1])
            .unwrap()
            .kind,
        DiskKind::Hdd
    );
}
