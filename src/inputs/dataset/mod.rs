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

use crate::advisor::workload::{DataFormat, StoredFormat};

pub use scan::{disk_of, scan, without_verbatim_prefix};

/// Files counted before the walk stops: 5,000,000 (the 1,000,000-file folder fits five
/// times; each file costs a directory entry and an `fstatat`, no open).
pub const MAX_FILES: u64 = 5_000_000;

/// Directory entries of any kind read before the walk stops: 10,000,000, twice [`MAX_FILES`]
/// (a folder of 10^7 empty folders stops too).
pub const MAX_ENTRIES: u64 = 2 * MAX_FILES;

/// Image sides taken from a header: 1–65,536 pixels, the `--image-size` range. A side outside
/// it (a JPEG's height of 0, which T.81 §B.2.2 lets a later DNL marker define) is noted and the
/// header not used.
pub const MAX_IMAGE_SIDE: u32 = 65_536;

/// Header problems kept with their file for the note (all are counted).
pub const MAX_HEADER_PROBLEMS: usize = 3;

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

/// The field of an image header a problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeaderField {
    /// The width.
    Width,
    /// The height.
    Height,
}

/// A sampled header whose value is out of range: noted, not used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeaderProblem {
    /// The file, relative to the scanned folder.
    pub file: String,
    /// Its format (JPEG or PNG).
    pub format: FileKind,
    /// The field.
    pub field: HeaderField,
    /// The value the header gives.
    pub value: u64,
}

/// What the scan found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    /// The walk stopped at [`MAX_FILES`] files.
    pub capped: bool,
    /// The walk stopped at [`MAX_ENTRIES`] directory entries.
    pub entries_capped: bool,
    /// Folders deeper than [`MAX_DEPTH`] levels were not read.
    pub depth_capped: bool,
    /// Sampled headers with a width or height outside 1–[`MAX_IMAGE_SIDE`] (at most
    /// [`MAX_HEADER_PROBLEMS`] kept), not used for the image size.
    pub header_problems: Vec<HeaderProblem>,
    /// All such headers.
    pub header_problems_total: u64,
}

/// What a scan sets in a workload: dataset size, samples (tar samples for shards, else image or
/// array files), image size, stored format and layout; `None` where the scan can't tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkloadValues {
    /// Bytes of the files.
    pub dataset_size: Option<u64>,
    /// Samples.
    pub samples: Option<u64>,
    /// The most common image size, (width, height).
    pub image_size: Option<(u32, u32)>,
    /// JPEG, PNG or raw arrays.
    pub stored: Option<StoredFormat>,
    /// One file per sample, shards or a memory-mapped store.
    pub format: Option<DataFormat>,
}

impl DatasetScan {
    /// The workload values this scan gives.
    pub fn workload_values(&self) -> WorkloadValues {
        let s = self;
        let images = s.count(FileKind::Jpeg) + s.count(FileKind::Png) + s.count(FileKind::Webp);
        let format = match s.main_kind() {
            Some(FileKind::Tar | FileKind::TfRecord) => Some(DataFormat::Shards),
            Some(FileKind::Lmdb | FileKind::Hdf5 | FileKind::Arrow | FileKind::Parquet) => {
                Some(DataFormat::Mmap)
            }
            Some(FileKind::Jpeg | FileKind::Png | FileKind::Webp | FileKind::Numpy) => {
                Some(DataFormat::Files)
            }
            _ => None,
        };
        let samples = match format {
            Some(DataFormat::Shards) => s.tar_samples,
            _ if images > 0 => Some(images),
            _ => Some(s.count(FileKind::Numpy)).filter(|&n| n > 0),
        };
        let stored = match (s.count(FileKind::Jpeg), s.count(FileKind::Png)) {
            (j, p) if j > 0 && j >= p => Some(StoredFormat::Jpeg),
            (_, p) if p > 0 => Some(StoredFormat::Png),
            _ if s.main_kind() == Some(FileKind::Numpy) => Some(StoredFormat::Raw),
            _ => None,
        };
        WorkloadValues {
            dataset_size: Some(s.bytes).filter(|&b| b > 0),
            samples: samples.filter(|&n| n > 0),
            image_size: s.image_size,
            stored,
            format,
        }
    }

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
