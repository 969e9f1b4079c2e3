//! The data-loading workload's knobs ([`crate::advisor::workload::Workload`]), in the order
//! `advise --help` lists them. Ranges are the model's (`Workload::validate`); defaults come
//! from the base preset unless a row says otherwise.

use super::types::{DefaultSource as D, Kind, Knob, KnobId as K, Label as L, Plan, Range};
use crate::i18n::Msg;

/// `--dtype` and `--cache-dtype` values.
const DTYPES: &[&str] = &["u8", "f16", "f32"];

const fn row(id: K, flag: &'static str, fields: &'static [&'static str], kind: Kind) -> Knob {
    Knob {
        id,
        plan: Plan::Workload,
        flag,
        fields,
        kind,
        range: None,
        default: None,
        source: D::Preset,
        label: None,
        in_base_note: false,
    }
}

/// Named in the note on the base preset when taken from it.
const fn noted(mut k: Knob) -> Knob {
    k.in_base_note = true;
    k
}

const fn ranged(mut k: Knob, r: Range) -> Knob {
    k.range = Some(r);
    k
}

const fn labelled(mut k: Knob, l: L) -> Knob {
    k.label = Some(l);
    k
}

const fn defaults(mut k: Knob, value: &'static str, source: D) -> Knob {
    k.default = Some(value);
    k.source = source;
    k
}

/// The workload's knobs.
pub const WORKLOAD: &[Knob] = &[
    labelled(
        ranged(
            noted(row(
                K::DatasetSize,
                "dataset-size",
                &["dataset_bytes"],
                Kind::Size,
            )),
            // From 1 byte: a student's first dataset folder of 20 small JPEGs is 20 KB.
            Range::whole(1, 1 << 50),
        ),
        L::Text(Msg::WorkDataset),
    ),
    Knob {
        source: D::Derived,
        ..labelled(
            ranged(
                noted(row(K::Samples, "samples", &["samples"], Kind::Count)),
                Range::whole(1, 1 << 40),
            ),
            L::Text(Msg::WorkSamples),
        )
    },
    labelled(
        ranged(
            noted(row(
                K::ImageSize,
                "image-size",
                &["width", "height"],
                Kind::Resolution,
            )),
            Range::whole(0, 65_536),
        ),
        L::Sides(Msg::WorkWidth, Msg::WorkHeight),
    ),
    labelled(
        ranged(
            noted(row(K::Crop, "crop", &["crop"], Kind::U32)),
            Range::positive(16_384),
        ),
        L::Text(Msg::WorkCrop),
    ),
    labelled(
        noted(row(
            K::Stored,
            "stored",
            &["stored"],
            Kind::Choice(&["jpeg", "png", "raw"]),
        )),
        L::Text(Msg::WorkStored),
    ),
    noted(row(
        K::SampleBytes,
        "sample-bytes",
        &["sample_bytes"],
        Kind::Size,
    )),
    labelled(
        noted(row(K::Dtype, "dtype", &["dtype"], Kind::Choice(DTYPES))),
        L::Text(Msg::WorkDtype),
    ),
    labelled(
        ranged(
            noted(row(K::BatchSize, "batch-size", &["batch_size"], Kind::U32)),
            Range::positive(65_536),
        ),
        L::Keyword,
    ),
    labelled(
        ranged(
            noted(row(
                K::NumWorkers,
                "num-workers",
                &["num_workers"],
                Kind::U32,
            )),
            Range::whole(0, 1024),
        ),
        L::Keyword,
    ),
    labelled(
        defaults(
            ranged(
                noted(row(
                    K::PrefetchFactor,
                    "prefetch-factor",
                    &["prefetch_factor"],
                    Kind::U32,
                )),
                Range::positive(64),
            ),
            "2",
            D::PyTorch,
        ),
        L::Keyword,
    ),
    labelled(
        noted(row(K::PinMemory, "pin-memory", &["pin_memory"], Kind::Bool)),
        L::Keyword,
    ),
    labelled(
        defaults(
            row(
                K::PersistentWorkers,
                "persistent-workers",
                &["persistent_workers"],
                Kind::Bool,
            ),
            "false",
            D::PyTorch,
        ),
        L::Keyword,
    ),
    labelled(
        noted(row(
            K::Augmentation,
            "augmentation",
            &["augmentation"],
            Kind::Choice(&["none", "light", "heavy"]),
        )),
        L::Text(Msg::WorkAugmentation),
    ),
    labelled(
        row(
            K::DataFormat,
            "data-format",
            &["format"],
            Kind::Choice(&["files", "shards", "mmap"]),
        ),
        L::Text(Msg::WorkFormat),
    ),
    labelled(
        row(
            K::DecodeOn,
            "decode-on",
            &["decode_on"],
            Kind::Choice(&["cpu", "gpu"]),
        ),
        L::Text(Msg::WorkDecodeOn),
    ),
    labelled(
        ranged(
            noted(row(
                K::GpuDemand,
                "gpu-demand",
                &["gpu_demand_samples_per_s"],
                Kind::Float,
            )),
            Range::above_zero(1e7),
        ),
        L::Text(Msg::WorkDemand),
    ),
    labelled(
        ranged(
            row(
                K::ConcurrentExperiments,
                "concurrent-experiments",
                &["concurrent_experiments"],
                Kind::U32,
            ),
            Range::positive(64),
        ),
        L::Text(Msg::WorkConcurrent),
    ),
    Knob {
        source: D::Machine,
        ..labelled(
            row(
                K::Storage,
                "storage",
                &["storage"],
                Kind::Choice(&["nvme", "ssd", "hdd", "network"]),
            ),
            L::Text(Msg::WorkStorage),
        )
    },
    Knob {
        source: D::Assumption,
        ..ranged(
            row(
                K::DecodeRate,
                "decode-rate",
                &["measured_decode_mpix_per_core"],
                Kind::Float,
            ),
            Range::above_zero(1e5),
        )
    },
    labelled(
        defaults(
            row(
                K::Cache,
                "cache",
                &["cache"],
                Kind::Choice(&["none", "stored-in-ram", "decoded-in-ram"]),
            ),
            "none",
            D::Off,
        ),
        L::Text(Msg::DataloaderCache),
    ),
    Knob {
        source: D::Derived,
        ..labelled(
            ranged(
                row(
                    K::CacheSize,
                    "cache-size",
                    &["cache_width", "cache_height"],
                    Kind::Resolution,
                ),
                Range::whole(0, 65_536),
            ),
            L::Sides(Msg::DataloaderCacheWidth, Msg::DataloaderCacheHeight),
        )
    },
    labelled(
        defaults(
            row(
                K::CacheDtype,
                "cache-dtype",
                &["cache_dtype"],
                Kind::Choice(DTYPES),
            ),
            "u8",
            D::Assumption,
        ),
        L::Text(Msg::DataloaderCacheDtype),
    ),
    labelled(
        defaults(
            row(
                K::CacheScope,
                "cache-scope",
                &["cache_scope"],
                Kind::Choice(&["shared", "per-rank", "per-worker"]),
            ),
            "shared",
            D::Assumption,
        ),
        L::Text(Msg::DataloaderCacheScope),
    ),
    labelled(
        defaults(
            ranged(
                row(
                    K::IndexBytes,
                    "index-bytes",
                    &["index_bytes_per_sample"],
                    Kind::U64,
                ),
                Range::whole(0, 1 << 20),
            ),
            "190",
            D::Assumption,
        ),
        L::Text(Msg::DataloaderIndexBytes),
    ),
];
