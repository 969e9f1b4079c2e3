//! `--dataset PATH`: a dataset folder scanned without reading its data: file count and bytes,
//! the format mix by extension (confirmed by magic bytes on a sample), image sizes from the
//! headers of a sample spread over the tree, class folders, and the layout (one file per
//! sample, tar shards, memory-mapped stores). Links are never followed, special files are
//! skipped, and the walk stops at [`MAX_FILES`] with a note. This file holds the types;
//! [`scan`] walks.

mod headers;
mod scan;

use std::path::PathBuf;

use serde::Serialize;

pub use scan::{disk_of, scan};

/// Files counted before the walk stops: 5,000,000 (the 1,000,000-file folder fits five
/// times; each file costs a directory entry and a `lstat`, no open). The walk also stops after
/// twice as many directory entries of any kind.
pub const MAX_FILES: u64 = 5_000_000;

/// Folder depth followed: 64 levels.
pub const MAX_DEPTH: usize = 64;

/// Image headers read: at most 512 files spread over the walk, each read to at most
/// [`MAX_HEADER_BYTES`].
pub const SAMPLE_FILES: usize = 512;

/// Bytes read from one sampled file to find its image size: 256 KiB (a JPEG's EXIF block with
/// its thumbnail is at most 64 KiB).
pub const MAX_HEADER_BYTES: u64 = 256 << 10;

/// What a file is, by its extension (and, for sampled files, its first bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// JPEG image.
    Jpeg,
    /// PNG image.
    Png,
    /// WebP image.
    Webp,
    /// A tar archive (WebDataset shards).
    Tar,
    /// Parquet.
    Parquet,
    /// Arrow IPC / Hugging Face datasets' cache files.
    Arrow,
    /// LMDB (`data.mdb`).
    Lmdb,
    /// HDF5.
    Hdf5,
    /// TFRecord.
    TfRecord,
    /// NumPy arrays (`.npy`, `.npz`).
    Numpy,
    /// Anything else (labels, CSVs, JSON).
    Other,
}

/// Files of one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindCount {
    /// The kind.
    pub kind: FileKind,
    /// Files.
    pub files: u64,
    /// Bytes.
    pub bytes: u64,
}

/// What the scan found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DatasetScan {
    /// The folder scanned.
    pub root: PathBuf,
    /// Regular files counted.
    pub files: u64,
    /// Their bytes (sizes as `lstat` gives them).
    pub bytes: u64,
    /// Files and bytes per kind, most bytes first.
    pub kinds: Vec<KindCount>,
    /// Folders directly under the root that hold files (ImageFolder's classes).
    pub class_folders: u64,
    /// The most common image size among the sampled headers, (width, height).
    pub image_size: Option<(u32, u32)>,
    /// Image headers read for it.
    pub sampled: u64,
    /// Sampled files whose first bytes disagree with their extension.
    pub magic_mismatches: u64,
    /// Samples in tar shards, from the tar headers of the sampled shards (distinct keys before
    /// the first dot), scaled to all shards; `None` without tar files.
    pub tar_samples: Option<u64>,
    /// Symbolic links seen and not followed.
    pub links_skipped: u64,
    /// FIFOs, sockets and devices skipped.
    pub special_skipped: u64,
    /// Entries that could not be read (permission denied).
    pub unreadable: u64,
    /// The walk stopped at [`MAX_FILES`] or [`MAX_DEPTH`].
    pub capped: bool,
}

impl DatasetScan {
    /// The kind holding the most bytes.
    pub fn main_kind(&self) -> Option<FileKind> {
        self.kinds.first().map(|k| k.kind)
    }

    /// Files of `kind`.
    pub fn count(&self, kind: FileKind) -> u64 {
        self.kinds
            .iter()
            .find(|k| k.kind == kind)
            .map_or(0, |k| k.files)
    }
}
