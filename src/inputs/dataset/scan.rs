//! The walk: every folder read relative to its parent's descriptor, every entry looked at
//! without following it, and a spread sample of headers read through the same descriptors
//! ([`crate::fsutil::beneath`]): a class folder swapped for a link while the scan runs is
//! counted as a link, never walked.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::rc::Rc;

use super::headers::{jpeg_size, kind_of_magic, kind_of_name, png_size, tar_samples};
use super::{
    DatasetScan, FileKind, HeaderField, HeaderProblem, KindCount, MAX_DEPTH, MAX_ENTRIES,
    MAX_FILES, MAX_HEADER_BYTES, MAX_HEADER_PROBLEMS, MAX_IMAGE_SIDE, SAMPLE_FILES,
};
use crate::fsutil::IoProblem;
use crate::fsutil::beneath::{EntryKind, Folder, is_swapped, open_file_beneath};

/// Class folders counted: 1,000,000 at most (ImageNet-21k has 21,841).
const MAX_CLASSES: usize = 1_000_000;

/// Tar shards whose headers are read for their samples.
const TAR_SAMPLE: usize = 8;

/// A file's place under the root: its folders' names (shared by the files of one folder) and
/// its own name.
type RelPath = (Rc<Vec<OsString>>, OsString);

fn components((dirs, name): &RelPath) -> Vec<OsString> {
    dirs.iter().cloned().chain([name.clone()]).collect()
}

fn shown((dirs, name): &RelPath) -> String {
    let mut p = std::path::PathBuf::new();
    for d in dirs.iter() {
        p.push(d);
    }
    p.push(name);
    p.display().to_string()
}

/// Keeps an evenly spread sample of a stream of unknown length: every `stride`-th item, the
/// stride doubling (and every other kept item dropped) whenever the sample is full.
struct Spread {
    items: Vec<(RelPath, FileKind)>,
    stride: u64,
    seen: u64,
}

impl Spread {
    fn push(&mut self, p: &RelPath, kind: FileKind) {
        if self.seen % self.stride == 0 {
            self.items.push((p.clone(), kind));
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

/// The first bytes of the file at `rel` under `root`, at most `cap`; `None` when it can't be
/// opened as a regular file inside `root`.
fn head(root: &Folder, rel: &RelPath, cap: u64) -> Option<Vec<u8>> {
    let (file, _) = open_file_beneath(root, &components(rel)).ok()?;
    let mut buf = Vec::new();
    file.take(cap).read_to_end(&mut buf).ok()?;
    Some(buf)
}

fn tar_count(root: &Folder, rel: &RelPath) -> Option<u64> {
    let (mut file, len) = open_file_beneath(root, &components(rel)).ok()?;
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

/// A folder being read: it, its depth, its place under the root, the top-level folder it is
/// under.
type Opened = (Rc<Folder>, usize, Rc<Vec<OsString>>, Option<OsString>);

/// A folder still to be read: its parent (open), its name there, its depth, its place under the
/// root and the top-level folder it is under.
struct Pending {
    parent: Rc<Folder>,
    name: OsString,
    depth: usize,
    rel: Rc<Vec<OsString>>,
    top: Option<OsString>,
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
    let top_folder = Rc::new(Folder::open(root).map_err(|e| IoProblem::of(&e))?);
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
        entries_capped: false,
        depth_capped: false,
        header_problems: Vec::new(),
        header_problems_total: 0,
    };
    let mut kinds: BTreeMap<FileKind, (u64, u64)> = BTreeMap::new();
    let mut classes: BTreeSet<OsString> = BTreeSet::new();
    let mut images = Spread {
        items: Vec::new(),
        stride: 1,
        seen: 0,
    };
    let mut tars: Vec<RelPath> = Vec::new();
    let mut stack: Vec<Pending> = Vec::new();
    // Every entry counts toward the cap (a folder of 10^7 empty folders stops too).
    let mut entries_seen = 0u64;
    let mut current: Option<Opened> = Some((top_folder.clone(), 0, Rc::new(Vec::new()), None));
    loop {
        let (dir, depth, rel, top) = match current.take() {
            Some(c) => c,
            None => {
                let Some(p) = stack.pop() else { break };
                match p.parent.open_dir(&p.name) {
                    Ok(f) => (Rc::new(f), p.depth, p.rel, p.top),
                    // Swapped for a link (or a file) since it was listed: not followed.
                    Err(e) if is_swapped(&e) => {
                        out.links_skipped += 1;
                        continue;
                    }
                    Err(_) => {
                        out.unreadable += 1;
                        continue;
                    }
                }
            }
        };
        let mut over = false;
        let mut files_full = false;
        let listed = dir.list(|name| {
            entries_seen += 1;
            if entries_seen > MAX_ENTRIES {
                over = true;
                return false;
            }
            // The entry's own type: a link is a link, never what it points to.
            let Ok(kind) = dir.kind_of(&name) else {
                out.unreadable += 1;
                return true;
            };
            match kind {
                EntryKind::Link => out.links_skipped += 1,
                EntryKind::Special => out.special_skipped += 1,
                EntryKind::Dir => {
                    if depth + 1 >= MAX_DEPTH {
                        out.depth_capped = true;
                        return true;
                    }
                    let top = top.clone().or_else(|| Some(name.clone()));
                    let mut sub = (*rel).clone();
                    sub.push(name.clone());
                    stack.push(Pending {
                        parent: dir.clone(),
                        name,
                        depth: depth + 1,
                        rel: Rc::new(sub),
                        top,
                    });
                }
                EntryKind::File(len) => {
                    if out.files >= MAX_FILES {
                        files_full = true;
                        return false;
                    }
                    out.files += 1;
                    out.bytes = out.bytes.saturating_add(len);
                    let kind = kind_of_name(&name.to_string_lossy());
                    let k = kinds.entry(kind).or_default();
                    k.0 += 1;
                    k.1 = k.1.saturating_add(len);
                    if let Some(t) = top.as_ref().filter(|_| classes.len() < MAX_CLASSES) {
                        classes.insert(t.clone());
                    }
                    let at = || (rel.clone(), name.clone());
                    match kind {
                        FileKind::Jpeg | FileKind::Png | FileKind::Webp => {
                            images.push(&at(), kind);
                        }
                        FileKind::Tar if tars.len() < TAR_SAMPLE => tars.push(at()),
                        _ => {}
                    }
                }
            }
            true
        });
        match listed {
            Ok(true) | Err(_) => out.unreadable += 1,
            Ok(false) => {}
        }
        if files_full {
            out.capped = true;
            break;
        }
        if over {
            out.entries_capped = true;
            break;
        }
    }
    drop(stack);
    out.class_folders = classes.len() as u64;
    let mut kinds: Vec<KindCount> = kinds
        .into_iter()
        .map(|(kind, (files, bytes))| KindCount { kind, files, bytes })
        .collect();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.bytes));
    out.kinds = kinds;
    let mut sizes: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let step = images.items.len().div_ceil(SAMPLE_FILES).max(1);
    for (rel, kind) in images.items.iter().step_by(step) {
        let Some(h) = head(&top_folder, rel, MAX_HEADER_BYTES) else {
            out.unreadable += 1;
            continue;
        };
        out.sampled += 1;
        if kind_of_magic(&h).is_some_and(|m| m != *kind) {
            out.magic_mismatches += 1;
        }
        let size = jpeg_size(&h)
            .map(|s| (s, FileKind::Jpeg))
            .or_else(|| png_size(&h).map(|s| (s, FileKind::Png)));
        let Some(((w, h), format)) = size else {
            continue;
        };
        // A side outside 1–65,536 (a JPEG whose height comes later in a DNL marker says 0) is
        // noted with its file and field, and not used.
        let bad = [(HeaderField::Width, w), (HeaderField::Height, h)]
            .into_iter()
            .find(|(_, v)| !(1..=MAX_IMAGE_SIDE).contains(v));
        if let Some((field, value)) = bad {
            out.header_problems_total += 1;
            if out.header_problems.len() < MAX_HEADER_PROBLEMS {
                out.header_problems.push(HeaderProblem {
                    file: shown(rel),
                    format,
                    field,
                    value: u64::from(value),
                });
            }
            continue;
        }
        *sizes.entry((w, h)).or_default() += 1;
    }
    out.image_size = sizes
        .into_iter()
        .max_by_key(|(s, n)| (*n, std::cmp::Reverse(*s)))
        .map(|(s, _)| s);
    if !tars.is_empty() {
        let counts: Vec<u64> = tars
            .iter()
            .filter_map(|p| tar_count(&top_folder, p))
            .collect();
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
