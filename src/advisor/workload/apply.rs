//! The `advise` flags that turn one data-loading workload into another (see
//! [`crate::advisor::recommend::apply`]).

use super::{CacheMode, DataFormat, DecodeOn, StoredFormat, Workload};
use crate::advisor::recommend::apply::{Args, size_arg};
use crate::profile::DiskKind;

/// `--storage`'s value; `None` for a kind the flag can't name (unknown storage).
fn storage(k: DiskKind) -> Option<&'static str> {
    match k {
        DiskKind::Nvme => Some("nvme"),
        DiskKind::Ssd => Some("ssd"),
        DiskKind::Hdd => Some("hdd"),
        DiskKind::Network => Some("network"),
        DiskKind::Unknown => None,
    }
}

/// The flags that turn workload `from` into `to`.
pub fn workload(from: &Workload, to: &Workload) -> Vec<String> {
    let mut a = Args::default();
    if from.num_workers != to.num_workers {
        a.flag("num-workers", to.num_workers);
    }
    if from.prefetch_factor != to.prefetch_factor {
        a.flag("prefetch-factor", to.prefetch_factor);
    }
    if from.batch_size != to.batch_size {
        a.flag("batch-size", to.batch_size);
    }
    if (from.width, from.height) != (to.width, to.height) {
        a.flag("image-size", format!("{}x{}", to.width, to.height));
    }
    if from.dataset_bytes != to.dataset_bytes {
        a.flag("dataset-size", size_arg(to.dataset_bytes));
    }
    if from.stored != to.stored {
        a.flag(
            "stored",
            match to.stored {
                StoredFormat::Jpeg => "jpeg",
                StoredFormat::Png => "png",
                StoredFormat::Raw => "raw",
            },
        );
    }
    if from.format != to.format {
        a.flag(
            "data-format",
            match to.format {
                DataFormat::Files | DataFormat::InRam => "files",
                DataFormat::Shards => "shards",
                DataFormat::Mmap => "mmap",
            },
        );
    }
    if from.decode_on != to.decode_on {
        a.flag(
            "decode-on",
            match to.decode_on {
                DecodeOn::Cpu => "cpu",
                DecodeOn::Gpu => "gpu",
            },
        );
    }
    if from.storage != to.storage {
        if let Some(k) = to.storage.and_then(storage) {
            a.flag("storage", k);
        }
    }
    if from.cache != to.cache {
        a.flag(
            "cache",
            match to.cache {
                CacheMode::None => "none",
                CacheMode::StoredInRam => "stored-in-ram",
                CacheMode::DecodedInRam => "decoded-in-ram",
            },
        );
    }
    if (from.cache_width, from.cache_height) != (to.cache_width, to.cache_height) {
        a.flag(
            "cache-size",
            format!("{}x{}", to.cache_width, to.cache_height),
        );
    }
    if from.index_bytes_per_sample != to.index_bytes_per_sample {
        if let Some(b) = to.index_bytes_per_sample {
            a.flag("index-bytes", b);
        }
    }
    a.0
}
