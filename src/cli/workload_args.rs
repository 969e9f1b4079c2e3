//! `advise` flags for the workload simulator.

use clap::{Args, ValueEnum};

use crate::advisor::workload::{
    Augmentation, CacheMode, CacheScope, DataFormat, DecodeOn, Dtype, InertInput, StoredFormat,
    Workload, inert_inputs, presets,
};
use crate::i18n::{Lang, Msg, trf};
use crate::inputs::dataset::DatasetScan;
use crate::parse::{ValueError, parse_count, parse_resolution, parse_size};
use crate::present::errors;
use crate::profile::{DiskKind, Problem};

/// Flags describing a data-loading workload. Any of them turns the simulator on, starting from
/// the preset `--workload` names, else the `generic` one; the values taken from it are printed.
/// A flag that can't change the result (given the others) is an error naming it.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Workload simulator (data loading)")]
pub struct WorkloadArgs {
    /// Preset to start from: imagenet-resnet50, seed-4k-medical, t2i-1024-multiscale,
    /// llm-token-shards, generic (the default when other workload flags are given).
    #[arg(long = "workload", value_parser = parse_workload_preset)]
    pub workload_preset: Option<String>,
    /// The dataset's folder, scanned by names, sizes and a sample of image headers (links not
    /// followed): sets the dataset size, samples, image size, stored format and layout that
    /// other flags don't.
    #[arg(long, value_parser = parse_dataset)]
    pub dataset: Option<DatasetScan>,
    /// Dataset size on storage, with units: 2TB, 138GB, 500GiB.
    #[arg(long, value_parser = parse_size)]
    pub dataset_size: Option<u64>,
    /// Number of samples (default: keeps the base's average file size).
    #[arg(long, value_parser = parse_count)]
    pub samples: Option<u64>,
    /// Stored image size, WIDTHxHEIGHT (3840x2160); without --dataset-size the dataset keeps
    /// the base's bytes per pixel.
    #[arg(long, value_parser = parse_resolution)]
    pub image_size: Option<(u32, u32)>,
    /// Training crop side in pixels (the GPU sees crop × crop).
    #[arg(long)]
    pub crop: Option<u32>,
    /// Stored format.
    #[arg(long, value_enum)]
    pub stored: Option<StoredArg>,
    /// Bytes of one decoded non-image sample (tokens, point clouds), with units.
    #[arg(long, value_parser = parse_size)]
    pub sample_bytes: Option<u64>,
    /// Batch tensor dtype.
    #[arg(long, value_enum)]
    pub dtype: Option<DtypeArg>,
    /// Batch size.
    #[arg(long)]
    pub batch_size: Option<u32>,
    /// DataLoader num_workers.
    #[arg(long)]
    pub num_workers: Option<u32>,
    /// DataLoader prefetch_factor (PyTorch default 2).
    #[arg(long)]
    pub prefetch_factor: Option<u32>,
    /// DataLoader pin_memory (`--pin-memory` or `--pin-memory false`).
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub pin_memory: Option<bool>,
    /// DataLoader persistent_workers.
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub persistent_workers: Option<bool>,
    /// Online augmentation cost.
    #[arg(long, value_enum)]
    pub augmentation: Option<AugmentationArg>,
    /// Dataset layout.
    #[arg(long, value_enum)]
    pub data_format: Option<DataFormatArg>,
    /// Decode on the CPU workers or the GPU (DALI).
    #[arg(long, value_enum)]
    pub decode_on: Option<DecodeArg>,
    /// Samples per second the GPUs consume.
    #[arg(long)]
    pub gpu_demand: Option<f64>,
    /// Experiments running at once.
    #[arg(long)]
    pub concurrent_experiments: Option<u32>,
    /// Where the dataset lives (default: the machine's largest local disk).
    #[arg(long, value_enum)]
    pub storage: Option<StorageArg>,
    /// JPEG decode rate per core measured on this machine, megapixels/s (`ramvram bench
    /// decode`).
    #[arg(long)]
    pub decode_rate: Option<f64>,
    /// What the training script caches in RAM: none, the stored files, or decoded images.
    #[arg(long, value_enum)]
    pub cache: Option<CacheArg>,
    /// Size of a cached decoded image, WIDTHxHEIGHT: the training size after resize or
    /// letterbox (default: the crop).
    #[arg(long, value_parser = parse_resolution)]
    pub cache_size: Option<(u32, u32)>,
    /// Element type of the cached decoded images (default u8).
    #[arg(long, value_enum)]
    pub cache_dtype: Option<DtypeArg>,
    /// Who holds the cache: one shared copy, one per DDP rank (GPU), or one per worker.
    #[arg(long, value_enum)]
    pub cache_scope: Option<CacheScopeArg>,
    /// Bytes of Python objects per sample in the dataset index (default 190, measured for
    /// ImageFolder; 0 for an index in NumPy arrays).
    #[arg(long)]
    pub index_bytes: Option<u64>,
}

/// A workload built from flags, and what came from its base preset.
#[derive(Clone, Debug, PartialEq)]
pub struct FromFlags {
    /// The workload.
    pub workload: Workload,
    /// One line saying which preset it started from and which values it took from it.
    pub note: String,
}

fn parse_dataset(s: &str) -> Result<DatasetScan, ValueError> {
    crate::inputs::dataset::scan(std::path::Path::new(s)).map_err(|p| {
        ValueError::new(Msg::ModelErrorInFile, s).with_reason(crate::present::model::io_reason(&p))
    })
}

fn parse_workload_preset(s: &str) -> Result<String, ValueError> {
    match presets::preset(s) {
        Some(_) => Ok(s.to_string()),
        None => {
            let ids = presets::presets()
                .iter()
                .map(|(id, _)| id.to_string())
                .collect();
            Err(ValueError::new(Msg::ValueUnknownWorkload, s).with_list("ids", ids))
        }
    }
}

macro_rules! value_enum {
    ($name:ident => $target:ty { $($variant:ident => $value:expr),+ $(,)? }) => {
        #[doc = concat!("Command-line values for [`", stringify!($target), "`].")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
        #[allow(missing_docs)]
        pub enum $name { $($variant),+ }
        impl From<$name> for $target {
            fn from(v: $name) -> $target {
                match v { $($name::$variant => $value),+ }
            }
        }
    };
}

value_enum!(StoredArg => StoredFormat { Jpeg => StoredFormat::Jpeg, Png => StoredFormat::Png, Raw => StoredFormat::Raw });
value_enum!(DtypeArg => Dtype { U8 => Dtype::U8, F16 => Dtype::F16, F32 => Dtype::F32 });
value_enum!(AugmentationArg => Augmentation { None => Augmentation::None, Light => Augmentation::Light, Heavy => Augmentation::Heavy });
value_enum!(DataFormatArg => DataFormat { Files => DataFormat::Files, Shards => DataFormat::Shards, Mmap => DataFormat::Mmap });
value_enum!(CacheArg => CacheMode { None => CacheMode::None, StoredInRam => CacheMode::StoredInRam, DecodedInRam => CacheMode::DecodedInRam });
value_enum!(CacheScopeArg => CacheScope { Shared => CacheScope::Shared, PerRank => CacheScope::PerRank, PerWorker => CacheScope::PerWorker });
value_enum!(DecodeArg => DecodeOn { Cpu => DecodeOn::Cpu, Gpu => DecodeOn::Gpu });
value_enum!(StorageArg => DiskKind { Nvme => DiskKind::Nvme, Ssd => DiskKind::Ssd, Hdd => DiskKind::Hdd, Network => DiskKind::Network });

/// The flag for each input that can be inert.
fn inert_flag(i: InertInput) -> &'static str {
    match i {
        InertInput::SampleBytes => "sample-bytes",
        InertInput::Crop => "crop",
        InertInput::Dtype => "dtype",
        InertInput::Stored => "stored",
        InertInput::Augmentation => "augmentation",
        InertInput::DecodeRate => "decode-rate",
        InertInput::PrefetchFactor => "prefetch-factor",
        InertInput::PersistentWorkers => "persistent-workers",
        InertInput::CacheSize => "cache-size",
        InertInput::CacheDtype => "cache-dtype",
        InertInput::CacheScope => "cache-scope",
        InertInput::IndexBytes => "index-bytes",
        InertInput::Storage => "storage",
    }
}

impl WorkloadArgs {
    /// The flags given (besides `--workload`), by name.
    fn given(&self) -> Vec<&'static str> {
        let flags: [(&'static str, bool); 26] = [
            ("dataset-size", self.dataset_size.is_some()),
            ("samples", self.samples.is_some()),
            ("image-size", self.image_size.is_some()),
            ("crop", self.crop.is_some()),
            ("stored", self.stored.is_some()),
            ("sample-bytes", self.sample_bytes.is_some()),
            ("dtype", self.dtype.is_some()),
            ("batch-size", self.batch_size.is_some()),
            ("num-workers", self.num_workers.is_some()),
            ("prefetch-factor", self.prefetch_factor.is_some()),
            ("pin-memory", self.pin_memory.is_some()),
            ("persistent-workers", self.persistent_workers.is_some()),
            ("augmentation", self.augmentation.is_some()),
            ("data-format", self.data_format.is_some()),
            ("decode-on", self.decode_on.is_some()),
            ("gpu-demand", self.gpu_demand.is_some()),
            (
                "concurrent-experiments",
                self.concurrent_experiments.is_some(),
            ),
            ("storage", self.storage.is_some()),
            ("decode-rate", self.decode_rate.is_some()),
            ("cache", self.cache.is_some()),
            ("cache-size", self.cache_size.is_some()),
            ("cache-dtype", self.cache_dtype.is_some()),
            ("cache-scope", self.cache_scope.is_some()),
            ("index-bytes", self.index_bytes.is_some()),
            ("workload", self.workload_preset.is_some()),
            ("dataset", self.dataset.is_some()),
        ];
        flags
            .iter()
            .filter(|(name, on)| *on && *name != "workload")
            .map(|(name, _)| *name)
            .collect()
    }

    /// The workload these flags describe, `None` when no workload flag is given. It starts from
    /// `--workload`'s preset, else [`presets::GENERIC`].
    ///
    /// # Errors
    /// Values that can't be right (0 workers is allowed; 0 batch size, 0 samples are not), and
    /// a flag that can't change the result given the others.
    pub fn workload(&self, lang: Lang) -> Result<Option<FromFlags>, String> {
        let given = self.given();
        if given.is_empty() && self.workload_preset.is_none() {
            return Ok(None);
        }
        let base_id = self
            .workload_preset
            .clone()
            .unwrap_or_else(|| presets::GENERIC.to_string());
        let mut w = presets::preset(&base_id).expect("checked by clap or built in");
        let scan = self.dataset.as_ref().map(DatasetScan::workload_values);
        let dataset_size = self
            .dataset_size
            .or(scan.as_ref().and_then(|s| s.dataset_size));
        if let Some(d) = dataset_size {
            w.set_dataset_size(d);
        }
        if let Some(n) = self.samples.or(scan.as_ref().and_then(|s| s.samples)) {
            // Without --dataset-size the base's files keep their size.
            let file = w.file_bytes();
            w.samples = n;
            if dataset_size.is_none() {
                w.dataset_bytes = file.saturating_mul(n).max(1);
            }
        }
        if let Some(s) = scan.as_ref().filter(|_| self.stored.is_none()) {
            w.stored = s.stored.unwrap_or(w.stored);
        }
        if let Some(s) = scan.as_ref().filter(|_| self.data_format.is_none()) {
            w.format = s.format.unwrap_or(w.format);
        }
        let image_size = self.image_size.or(scan.as_ref().and_then(|s| s.image_size));
        if let Some((width, height)) = image_size {
            if dataset_size.is_none() {
                w.set_image_size(width, height);
            } else {
                w.width = width;
                w.height = height;
            }
        }
        let positive = |v: Option<u32>, flag: &str| match v {
            Some(0) => Err(errors::flag(lang, flag, &Problem::Zero)),
            _ => Ok(v),
        };
        if let Some(c) = positive(self.crop, "crop")? {
            w.crop = c;
        }
        if let Some(b) = positive(self.batch_size, "batch-size")? {
            w.batch_size = b;
        }
        if let Some(p) = positive(self.prefetch_factor, "prefetch-factor")? {
            w.prefetch_factor = p;
        }
        if let Some(c) = positive(self.concurrent_experiments, "concurrent-experiments")? {
            w.concurrent_experiments = c;
        }
        if let Some(n) = self.num_workers {
            w.num_workers = n;
        }
        if let Some(s) = self.stored {
            w.stored = s.into();
        }
        if let Some(b) = self.sample_bytes {
            w.sample_bytes = Some(b);
        }
        if let Some(d) = self.dtype {
            w.dtype = d.into();
        }
        if let Some(p) = self.pin_memory {
            w.pin_memory = p;
        }
        if let Some(p) = self.persistent_workers {
            w.persistent_workers = p;
        }
        if let Some(a) = self.augmentation {
            w.augmentation = a.into();
        }
        if let Some(f) = self.data_format {
            w.format = f.into();
        }
        if let Some(d) = self.decode_on {
            w.decode_on = d.into();
        }
        if let Some(g) = self.gpu_demand {
            if !(g.is_finite() && g > 0.0) {
                let p = Problem::NotPositive {
                    value: g.to_string(),
                };
                return Err(errors::flag(lang, "gpu-demand", &p));
            }
            w.gpu_demand_samples_per_s = g;
        }
        if let Some(s) = self.storage {
            w.storage = Some(s.into());
        }
        if let Some(r) = self.decode_rate {
            if !(r.is_finite() && r > 0.0) {
                let p = Problem::NotPositive {
                    value: r.to_string(),
                };
                return Err(errors::flag(lang, "decode-rate", &p));
            }
            w.measured_decode_mpix_per_core = Some(r);
        }
        if let Some(c) = self.cache {
            w.cache = c.into();
        }
        if let Some((width, height)) = self.cache_size {
            w.cache_width = width;
            w.cache_height = height;
        }
        if let Some(d) = self.cache_dtype {
            w.cache_dtype = d.into();
        }
        if let Some(c) = self.cache_scope {
            w.cache_scope = c.into();
        }
        if let Some(b) = self.index_bytes {
            w.index_bytes_per_sample = Some(b);
        }
        w.validate()
            .map_err(|(field, problem)| errors::flag(lang, flag_of(field), &problem))?;
        let inert = inert_inputs(&w);
        let given_inert: Vec<_> = inert
            .iter()
            .filter(|(i, _)| given.contains(&inert_flag(*i)))
            .collect();
        let words = |msg, (input, reason): &(InertInput, crate::advisor::workload::Inert)| {
            trf(
                lang,
                msg,
                &[
                    ("flag", inert_flag(*input)),
                    (
                        "reason",
                        crate::present::workload::inert_reason(lang, *reason),
                    ),
                ],
            )
        };
        // PyTorch's DataLoader itself refuses `prefetch_factor` and `persistent_workers` with
        // `num_workers=0` (ValueError): those stay errors. Any other flag that can't change the
        // result is a note — users paste their real DataLoader settings.
        if let Some(refused) = given_inert.iter().find(|(i, _)| {
            matches!(
                i,
                InertInput::PrefetchFactor | InertInput::PersistentWorkers
            ) && w.num_workers == 0
        }) {
            return Err(words(Msg::DataloaderCliInert, refused));
        }
        let filled: Vec<&str> = scan.as_ref().map_or_else(Vec::new, |s| {
            [
                ("dataset-size", s.dataset_size.is_some()),
                ("samples", s.samples.is_some()),
                ("image-size", s.image_size.is_some()),
                ("stored", s.stored.is_some()),
                ("data-format", s.format.is_some()),
            ]
            .into_iter()
            .filter_map(|(f, on)| on.then_some(f))
            .collect()
        });
        let inert_notes: Vec<String> = given_inert
            .iter()
            .map(|x| words(Msg::AdviceInertNote, x))
            .collect();
        let taken: Vec<String> = base_values(&w)
            .into_iter()
            .filter(|(flag, _)| !given.contains(flag) && !filled.contains(flag))
            .filter(|(flag, _)| !inert.iter().any(|(i, _)| inert_flag(*i) == *flag))
            .map(|(flag, value)| format!("`--{flag} {value}`"))
            .collect();
        let name = crate::present::workload::preset_name(lang, &base_id);
        let note = if taken.is_empty() {
            trf(
                lang,
                Msg::DataloaderCliBaseNone,
                &[("preset", &base_id), ("name", name)],
            )
        } else {
            trf(
                lang,
                Msg::DataloaderCliBase,
                &[
                    ("preset", &base_id),
                    ("name", name),
                    ("fields", &crate::present::join(lang, &taken)),
                ],
            )
        };
        let note = std::iter::once(note)
            .chain(inert_notes)
            .collect::<Vec<_>>()
            .join("\nramvram: ");
        let note = match &self.dataset {
            Some(s) => {
                let typed: Vec<&str> = filled
                    .iter()
                    .copied()
                    .filter(|f| given.contains(f))
                    .collect();
                format!(
                    "{}\nramvram: {}",
                    crate::present::dataset::scan_note(lang, s, &typed),
                    note
                )
            }
            None => note,
        };
        Ok(Some(FromFlags { workload: w, note }))
    }
}

/// The values a base preset supplies, by the flag that would set them, as the flag would take
/// them.
fn base_values(w: &Workload) -> Vec<(&'static str, String)> {
    let on = |b: bool| if b { "true" } else { "false" }.to_string();
    let mut v = vec![
        ("dataset-size", decimal_gb(w.dataset_bytes)),
        ("samples", w.samples.to_string()),
    ];
    if w.width > 0 {
        v.push(("image-size", format!("{}x{}", w.width, w.height)));
    } else {
        v.push(("sample-bytes", w.decoded_bytes().to_string()));
    }
    v.extend([
        ("crop", w.crop.to_string()),
        ("stored", format!("{:?}", w.stored).to_lowercase()),
        ("dtype", format!("{:?}", w.dtype).to_lowercase()),
        ("batch-size", w.batch_size.to_string()),
        ("num-workers", w.num_workers.to_string()),
        ("prefetch-factor", w.prefetch_factor.to_string()),
        ("pin-memory", on(w.pin_memory)),
        (
            "augmentation",
            format!("{:?}", w.augmentation).to_lowercase(),
        ),
        ("gpu-demand", w.gpu_demand_samples_per_s.to_string()),
    ]);
    v
}

/// Bytes as `--dataset-size` takes them: decimal GB with up to six decimals (exact to the kilobyte), no space
/// (`1_505_280_000` → `1.50528GB`).
fn decimal_gb(bytes: u64) -> String {
    let text = format!("{:.6}", bytes as f64 / 1e9);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}GB")
}

/// The flag that sets a workload field.
fn flag_of(field: &str) -> &'static str {
    match field {
        "dataset_bytes" => "dataset-size",
        "samples" => "samples",
        "width" | "height" => "image-size",
        "sample_bytes" => "sample-bytes",
        "crop" => "crop",
        "batch_size" => "batch-size",
        "num_workers" => "num-workers",
        "prefetch_factor" => "prefetch-factor",
        "concurrent_experiments" => "concurrent-experiments",
        "gpu_demand_samples_per_s" => "gpu-demand",
        "measured_decode_mpix_per_core" => "decode-rate",
        "cache_width" | "cache_height" => "cache-size",
        "index_bytes_per_sample" => "index-bytes",
        _ => "workload",
    }
}
