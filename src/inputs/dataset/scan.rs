//! The walk: directory entries and `lstat` for every file, headers for a spread sample.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::headers::{jpeg_size, kind_of_magic, kind_of_name, png_size, tar_samples};
use super::{
    DatasetScan, FileKind, KindCount, MAX_DEPTH, MAX_FILES, MAX_HEADER_BYTES, SAMPLE_FILES,
};
use crate::fsutil::IoProblem;

/// Class folders counted: 1,000,000 at most (ImageNet-21k has 21,841).
const MAX_CLASSES: usize = 1_000_000;

/// Tar shards whose headers are read for their samples.
const TAR_SAMPLE: usize = 8;

/// Keeps an evenly spread sample of a stream of unknown length: every `stride`-th item, the
/// stride doubling (and every other kept item dropped) whenever the sample is full.
struct Spread {
    items: Vec<(PathBuf, FileKind)>,
    stride: u64,
    seen: u64,
}

impl Spread {
    fn push(&mut self, p: &Path, kind: FileKind) {
        if self.seen % self.stride == 0 {
            self.items.push((p.to_path_buf(), kind));
            if self.items.len() >= SAMPLE_FILES * 2 {
                let mut keep = false;
                self.items.retain(|_| {
                    keep = !keep;
                    keep
                });
                self.stride *= 2;
            }
        }
        self.seen += 1;
    }
}

/// The first bytes of `path`, at most `cap`; `None` when it can't be opened as a regular file.
fn head(path: &Path, cap: u64) -> Option<Vec<u8>> {
    let (file, _) = crate::fsutil::open_input(path).ok()?;
    let mut buf = Vec::new();
    file.take(cap).read_to_end(&mut buf).ok()?;
    Some(buf)
}

fn tar_count(path: &Path) -> Option<u64> {
    let (mut file, len) = crate::fsutil::open_input(path).ok()?;
    tar_samples(
        |offset, n| {
            file.seek(SeekFrom::Start(offset)).ok()?;
            let mut buf = vec![0u8; n];
            file.read_exact(&mut buf).ok()?;
            Some(buf)
        },
        len,
    )
}

/// Scans the folder `root`.
///
/// # Errors
/// `root` can't be read or is not a folder (then the reason, as for any input).
pub fn scan(root: &Path) -> Result<DatasetScan, IoProblem> {
    let meta = std::fs::metadata(root).map_err(|e| IoProblem::of(&e))?;
    if !meta.is_dir() {
        return Err(IoProblem::Refused("is not a folder".into()));
    }
    let mut out = DatasetScan {
        root: root.to_path_buf(),
        files: 0,
        bytes: 0,
        kinds: Vec::new(),
        class_folders: 0,
        image_size: None,
        sampled: 0,
        magic_mismatches: 0,
        tar_samples: None,
        links_skipped: 0,
        special_skipped: 0,
        unreadable: 0,
        capped: false,
    };
    let mut kinds: BTreeMap<FileKind, (u64, u64)> = BTreeMap::new();
    let mut classes: BTreeSet<std::ffi::OsString> = BTreeSet::new();
    let mut images = Spread {
        items: Vec::new(),
        stride: 1,
        seen: 0,
    };
    let mut tars: Vec<PathBuf> = Vec::new();
    // (folder, depth, the top-level folder it is under)
    let mut stack: Vec<(PathBuf, usize, Option<std::ffi::OsString>)> =
        vec![(root.to_path_buf(), 0, None)];
    // Every entry counts toward the cap (a folder of 10^7 empty folders stops too).
    let mut entries_seen = 0u64;
    'walk: while let Some((dir, depth, top)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            out.unreadable += 1;
            continue;
        };
        for entry in entries {
            entries_seen += 1;
            if entries_seen > MAX_FILES * 2 {
                out.capped = true;
                break 'walk;
            }
            let Ok(entry) = entry else {
                out.unreadable += 1;
                continue;
            };
            // The entry's own type: a link is a link, never what it points to.
            let Ok(t) = entry.file_type() else {
                out.unreadable += 1;
                continue;
            };
            let path = entry.path();
            if t.is_symlink() {
                out.links_skipped += 1;
            } else if t.is_dir() {
                if depth + 1 >= MAX_DEPTH {
                    out.capped = true;
                    continue;
                }
                let top = top.clone().or_else(|| Some(entry.file_name()));
                stack.push((path, depth + 1, top));
            } else if t.is_file() {
                if out.files >= MAX_FILES {
                    out.capped = true;
                    break 'walk;
                }
                let Ok(m) = entry.metadata() else {
                    out.unreadable += 1;
                    continue;
                };
                out.files += 1;
                out.bytes = out.bytes.saturating_add(m.len());
                let kind = kind_of_name(&entry.file_name().to_string_lossy());
                let k = kinds.entry(kind).or_default();
                k.0 += 1;
                k.1 = k.1.saturating_add(m.len());
                if let Some(t) = top.as_ref().filter(|_| classes.len() < MAX_CLASSES) {
                    classes.insert(t.clone());
                }
                match kind {
                    FileKind::Jpeg | FileKind::Png | FileKind::Webp => images.push(&path, kind),
                    FileKind::Tar if tars.len() < TAR_SAMPLE => tars.push(path),
                    _ => {}
                }
            } else {
                out.special_skipped += 1;
            }
        }
    }
    out.class_folders = classes.len() as u64;
    let mut kinds: Vec<KindCount> = kinds
        .into_iter()
        .map(|(kind, (files, bytes))| KindCount { kind, files, bytes })
        .collect();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.bytes));
    out.kinds = kinds;
    let mut sizes: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let step = images.items.len().div_ceil(SAMPLE_FILES).max(1);
    for (path, kind) in images.items.iter().step_by(step) {
        let Some(h) = head(path, MAX_HEADER_BYTES) else {
            out.unreadable += 1;
            continue;
        };
        out.sampled += 1;
        if kind_of_magic(&h).is_some_and(|m| m != *kind) {
            out.magic_mismatches += 1;
        }
        if let Some(s) = jpeg_size(&h).or_else(|| png_size(&h)) {
            *sizes.entry(s).or_default() += 1;
        }
    }
    out.image_size = sizes
        .into_iter()
        .max_by_key(|(s, n)| (*n, std::cmp::Reverse(*s)))
        .map(|(s, _)| s);
    if !tars.is_empty() {
        let counts: Vec<u64> = tars.iter().filter_map(|p| tar_count(p)).collect();
        let shards = out.count(FileKind::Tar);
        if !counts.is_empty() {
            let per_shard = counts.iter().sum::<u64>() as f64 / counts.len() as f64;
            out.tar_samples = Some((per_shard * shards as f64).round() as u64);
        }
    }
    Ok(out)
}

/// A Windows verbatim path as the plain path it names: `\\?\D:\data` → `D:\data`,
/// `\\?\UNC\server\share\x` → `\\server\share\x`; any other path unchanged.
/// (`std::fs::canonicalize` returns verbatim paths on Windows; drive letters are listed plain.)
pub fn without_verbatim_prefix(path: &str) -> String {
    if let Some(rest) = path.strip_prefix(r"\\?\UNC\") {
        return format!(r"\\{rest}");
    }
    match path.strip_prefix(r"\\?\") {
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => rest.to_string(),
        _ => path.to_string(),
    }
}

/// The mounted file system `root` lives on: the disk whose mount point is the longest
/// leading part of `root`'s canonical path (components compared, so `/data2` is not under
/// `/data`). On Windows the canonical path is a verbatim one (`\\?\D:\data`), compared as the
/// drive path detection lists (`D:\`), see [`without_verbatim_prefix`].
pub fn disk_of<'a>(
    root: &Path,
    disks: &'a [crate::profile::Disk],
) -> Option<&'a crate::profile::Disk> {
    let root = std::fs::canonicalize(root).ok()?;
    let root = std::path::PathBuf::from(without_verbatim_prefix(&root.to_string_lossy()));
    disks
        .iter()
        .filter(|d| root.starts_with(Path::new(&d.mount_point)))
        .max_by_key(|d| Path::new(&d.mount_point).components().count())
}
