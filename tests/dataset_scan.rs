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

/// A baseline JPEG cut down to what a header reader needs: SOI, then an SOF0 segment (ITU-T
/// T.81 §B.2.2: length 17, precision 8, height, width, 3 components), then EOI; `pad` bytes of
/// padding in an APP1 segment before it make the file that much larger.
fn sof_only_jpeg(width: u16, height: u16, pad: u16) -> Vec<u8> {
    let mut j = vec![0xff, 0xd8];
    if pad > 0 {
        j.extend_from_slice(&[0xff, 0xe1]);
        j.extend_from_slice(&(pad + 2).to_be_bytes());
        j.extend(std::iter::repeat_n(0u8, usize::from(pad)));
    }
    j.extend_from_slice(&[0xff, 0xc0, 0, 17, 8]);
    j.extend_from_slice(&height.to_be_bytes());
    j.extend_from_slice(&width.to_be_bytes());
    j.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9]);
    j
}

fn advise_json(dir: &std::path::Path, lang: &str) -> (serde_json::Value, String) {
    let out = ramvram()
        .args(["advise", "--json", "--lang", lang, "--dataset"])
        .arg(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

/// Issue 35 item 6 / issue 37 item 4: 20 small JPEGs of 64 × 48 (a student's first try, 20 ×
/// 1,027 = 20,540 bytes, far under 1 MiB) fill the workload; it used to fail with an error about
/// `--dataset-size`, a flag nobody typed.
#[test]
fn a_folder_under_a_mebibyte_works() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join("cats")).unwrap();
    for i in 0..20 {
        let j = sof_only_jpeg(64, 48, 1000);
        // 2 (SOI) + 1,004 (APP1: marker, length, 1,000 bytes) + 19 (SOF0: marker and its
        // 17-byte segment) + 2 (EOI) = 1,027 bytes per file, counted by hand.
        assert_eq!(j.len(), 1027);
        std::fs::write(root.path().join(format!("cats/{i:02}.jpg")), j).unwrap();
    }
    let (v, stderr) = advise_json(root.path(), "en");
    let w = &v["workload"];
    assert_eq!(w["dataset_bytes"].as_u64(), Some(20 * 1027), "{stderr}");
    assert_eq!(w["samples"].as_u64(), Some(20));
    assert_eq!(
        (w["width"].as_u64(), w["height"].as_u64()),
        (Some(64), Some(48))
    );
    assert!(!stderr.contains("--dataset-size"), "{stderr}");
}

/// A JPEG header saying 0 × 375 (a height left to a DNL marker is legal; a width of 0 is not
/// usable) is noted with its file and field, in the user's language, and not used: the other
/// headers give the size. Before, the size 0 × 375 was taken and the run failed on
/// `--image-size`, a flag nobody typed.
#[test]
fn a_header_out_of_range_is_noted_and_skipped() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("dogs");
    std::fs::create_dir(&dir).unwrap();
    for i in 0..5 {
        std::fs::write(dir.join(format!("{i}.jpg")), sof_only_jpeg(320, 240, 0)).unwrap();
    }
    std::fs::write(dir.join("broken.jpg"), sof_only_jpeg(0, 375, 0)).unwrap();
    let s = scan(root.path()).unwrap();
    assert_eq!(s.image_size, Some((320, 240)));
    assert_eq!(s.header_problems_total, 1);
    let (v, stderr) = advise_json(root.path(), "en");
    assert_eq!(v["workload"]["width"].as_u64(), Some(320));
    let broken = std::path::Path::new("dogs").join("broken.jpg");
    let name = broken.display().to_string();
    assert!(
        stderr.contains(&format!("{name}: the width in its JPEG header is 0")),
        "{stderr}"
    );
    assert!(!stderr.contains("--image-size"), "{stderr}");
    let (_, stderr) = advise_json(root.path(), "zh");
    assert!(
        stderr.contains(&format!("{name}：它的 JPEG 文件头里宽度是 0")),
        "{stderr}"
    );
    // Only broken headers: no image size from the folder, still no error.
    let only = tempfile::tempdir().unwrap();
    std::fs::write(only.path().join("a.jpg"), sof_only_jpeg(0, 375, 0)).unwrap();
    let s = scan(only.path()).unwrap();
    assert_eq!(s.image_size, None);
    advise_json(only.path(), "en");
}

/// A chain of 70 nested folders stops at 64 levels and says so.
#[test]
fn a_deep_folder_chain_is_cut_and_the_note_says_where() {
    let root = tempfile::tempdir().unwrap();
    let mut p = root.path().to_path_buf();
    for _ in 0..70 {
        p.push("d");
    }
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(p.join("deep.jpg"), sof_only_jpeg(8, 8, 0)).unwrap();
    std::fs::write(root.path().join("top.jpg"), sof_only_jpeg(8, 8, 0)).unwrap();
    let s = scan(root.path()).unwrap();
    assert!(s.depth_capped);
    assert_eq!(s.files, 1);
    let note = ramvram::present::dataset::scan_note(ramvram::i18n::Lang::En, &s, &[]);
    assert!(note.contains("more than 64 levels deep"), "{note}");
}

/// Python 3 is needed for the tar fixtures (its `tarfile` is the writer under test); under CI
/// (`CI` or `RAMVRAM_REQUIRE_PYTHON=1`) its absence fails the test.
fn python3() -> Option<&'static str> {
    let ok = std::process::Command::new("python3")
        .arg("-c")
        .arg("import tarfile")
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        return Some("python3");
    }
    let required = std::env::var_os("CI").is_some()
        || std::env::var("RAMVRAM_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
    assert!(!required, "python3 with tarfile is required under CI");
    eprintln!("skipped: no python3");
    None
}

/// A directory name of 121 characters, so that every member's path is longer than ustar's
/// 100-byte name field: each writer must store it as a long name.
fn long_dir() -> String {
    format!("{}/{}", "x".repeat(60), "y".repeat(60))
}

/// Writes a shard with Python's `tarfile` in `format` (`PAX_FORMAT`, `GNU_FORMAT`,
/// `USTAR_FORMAT`): `samples` samples, each a `.jpg` and a `.cls` member under `dir`.
fn python_shard(py: &str, path: &std::path::Path, format: &str, dir: &str, samples: u32) {
    let script = format!(
        r#"
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w", format=tarfile.{format}) as t:
    for i in range({samples}):
        for ext, data in (("jpg", b"\xff\xd8\xff" + bytes(600)), ("cls", str(i).encode())):
            info = tarfile.TarInfo("{dir}/sample{{:06d}}.{{}}".format(i, ext))
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
"#
    );
    let ok = std::process::Command::new(py)
        .arg("-c")
        .arg(script)
        .arg(path)
        .status()
        .unwrap();
    assert!(ok.success());
}

/// Issue 37 item 7: shards written by Python's `tarfile` in its default format (PAX: the long
/// path in an `x` header, a truncated name in the ustar header) and in GNU format (the long path
/// in a `././@LongLink` member), and by GNU tar in both formats, count their samples. By hand:
/// each Python shard holds 5 samples (sample000000 … sample000004, a .jpg and a .cls each), each
/// GNU tar shard 4; before, each counted 1 (every truncated name had the same key).
#[test]
fn long_names_in_pax_and_gnu_shards_are_counted() {
    let Some(py) = python3() else { return };
    for format in ["PAX_FORMAT", "GNU_FORMAT"] {
        let root = tempfile::tempdir().unwrap();
        for shard in 0..2 {
            let path = root.path().join(format!("shard-{shard:06}.tar"));
            python_shard(py, &path, format, &long_dir(), 5);
        }
        let s = scan(root.path()).unwrap();
        assert_eq!(s.count(FileKind::Tar), 2, "{format}");
        // 2 shards × 5 samples.
        assert_eq!(s.tar_samples, Some(10), "{format}");
    }
    // Short names in plain ustar: the same count (the control).
    let root = tempfile::tempdir().unwrap();
    python_shard(py, &root.path().join("a.tar"), "USTAR_FORMAT", "short", 3);
    assert_eq!(scan(root.path()).unwrap().tar_samples, Some(3));

    // GNU tar, from files on disk, sorted by name: 4 samples in the long folder, plus the
    // folders' own members (not samples).
    let src = tempfile::tempdir().unwrap();
    let long = src.path().join(long_dir());
    std::fs::create_dir_all(&long).unwrap();
    for i in 0..4 {
        std::fs::write(long.join(format!("img{i:04}.jpg")), [0xffu8, 0xd8, 0xff]).unwrap();
        std::fs::write(long.join(format!("img{i:04}.json")), b"{}").unwrap();
    }
    for format in ["gnu", "posix"] {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("shard.tar");
        let status = std::process::Command::new("tar")
            .args(["--sort=name", &format!("--format={format}"), "-cf"])
            .arg(&out)
            .arg("-C")
            .arg(src.path())
            .arg(".")
            .status();
        let Ok(status) = status else {
            eprintln!("skipped GNU tar: not installed");
            return;
        };
        assert!(status.success());
        assert_eq!(scan(root.path()).unwrap().tar_samples, Some(4), "{format}");
    }
}
