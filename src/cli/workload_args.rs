//! `advise` flags for the workload simulator.

use clap::{Args, ValueEnum};

use crate::advisor::workload::{
    Augmentation, DataFormat, DecodeOn, Dtype, StoredFormat, Workload, presets,
};
use crate::i18n::Lang;
use crate::parse::{parse_count, parse_resolution, parse_size};
use crate::present::errors;
use crate::profile::{DiskKind, Problem};

/// Flags describing a data-loading workload. A workload is simulated when `--workload` or
/// `--dataset-size` is given; other flags override the preset (default imagenet-resnet50).
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Workload simulator (data loading)")]
pub struct WorkloadArgs {
    /// Preset: imagenet-resnet50, seed-4k-medical, t2i-1024-multiscale, llm-token-shards.
    #[arg(long = "workload", value_parser = parse_workload_preset)]
    pub workload_preset: Option<String>,
    /// Dataset size on storage, with units: 2TB, 138GB, 500GiB.
    #[arg(long, value_parser = parse_size)]
    pub dataset_size: Option<u64>,
    /// Number of samples (default: keeps the preset's average file size).
    #[arg(long, value_parser = parse_count)]
    pub samples: Option<u64>,
    /// Stored image size, WIDTHxHEIGHT (3840x2160).
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
    /// JPEG decode rate per core measured on this machine, megapixels/s.
    #[arg(long)]
    pub decode_rate: Option<f64>,
}

fn parse_workload_preset(s: &str) -> Result<String, String> {
    match presets::preset(s) {
        Some(_) => Ok(s.to_string()),
        None => {
            let ids: Vec<&str> = presets::presets().iter().map(|(id, _)| *id).collect();
            Err(format!(
                "unknown workload `{s}`; one of: {}",
                ids.join(", ")
            ))
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
value_enum!(DataFormatArg => DataFormat { Files => DataFormat::Files, Shards => DataFormat::Shards, Mmap => DataFormat::Mmap, InRam => DataFormat::InRam });
value_enum!(DecodeArg => DecodeOn { Cpu => DecodeOn::Cpu, Gpu => DecodeOn::Gpu });
value_enum!(StorageArg => DiskKind { Nvme => DiskKind::Nvme, Ssd => DiskKind::Ssd, Hdd => DiskKind::Hdd, Network => DiskKind::Network });

impl WorkloadArgs {
    /// The workload these flags describe, `None` when neither `--workload` nor `--dataset-size`
    /// is given.
    ///
    /// # Errors
    /// Values that can't be right (0 workers is allowed; 0 batch size, 0 samples are not).
    pub fn workload(&self, lang: Lang) -> Result<Option<Workload>, String> {
        let mut w = match (&self.workload_preset, self.dataset_size) {
            (Some(id), _) => presets::preset(id).expect("checked by clap"),
            (None, Some(_)) => presets::preset("imagenet-resnet50").expect("preset exists"),
            (None, None) => return Ok(None),
        };
        if let Some(d) = self.dataset_size {
            w.set_dataset_size(d);
        }
        if let Some(n) = self.samples {
            w.samples = n;
        }
        if let Some((width, height)) = self.image_size {
            w.width = width;
            w.height = height;
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
        w.validate()
            .map_err(|(field, problem)| errors::flag(lang, flag_of(field), &problem))?;
        Ok(Some(w))
    }
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
        _ => "workload",
    }
}
