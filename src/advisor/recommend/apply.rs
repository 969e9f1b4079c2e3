//! The command-line arguments that apply a change: the difference between the plan as given and
//! the plan a recommendation re-ran, written as `advise` flags. Added to the same command, they
//! give the changed plan (the command line lets a later flag override an earlier one), so a user
//! can copy them and a test can re-run them. Pure: flag names are the command line's vocabulary
//! (`docs/cli.md`), checked by the tests that re-run every first recommendation.

use crate::advisor::inference::{CheckpointFiles, InferencePlan, WeightFormat};
use crate::advisor::training::{FineTune, LoadingMethod, OffloadTarget, Strategy, TrainingPlan};
use crate::advisor::workload::{CacheMode, DataFormat, DecodeOn, StoredFormat, Workload};
use crate::profile::DiskKind;

/// Arguments in order, each flag followed by its value.
#[derive(Default)]
struct Args(Vec<String>);

impl Args {
    fn flag(&mut self, name: &str, value: impl ToString) {
        self.0.push(format!("--{name}"));
        self.0.push(value.to_string());
    }
    fn switch(&mut self, name: &str) {
        self.0.push(format!("--{name}"));
    }
}

/// A byte count as the size parser reads it, exactly: whole GiB or MiB (`64MiB`, memory), whole
/// GB or MB (`2GB`, files and datasets), else bytes.
pub fn size_arg(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;
    if bytes == 0 {
        "0".to_string()
    } else if bytes % GIB == 0 {
        format!("{}GiB", bytes / GIB)
    } else if bytes % 1_000_000_000 == 0 {
        format!("{}GB", bytes / 1_000_000_000)
    } else if bytes % MIB == 0 {
        format!("{}MiB", bytes / MIB)
    } else if bytes % 1_000_000 == 0 {
        format!("{}MB", bytes / 1_000_000)
    } else {
        bytes.to_string()
    }
}

fn strategy(s: Strategy) -> &'static str {
    match s {
        Strategy::Ddp => "ddp",
        Strategy::Zero1 => "zero1",
        Strategy::Zero2 => "zero2",
        Strategy::Zero3 => "zero3",
        Strategy::FsdpFullShard => "fsdp",
    }
}

fn offload(o: OffloadTarget) -> &'static str {
    match o {
        OffloadTarget::None => "none",
        OffloadTarget::Cpu => "cpu",
        OffloadTarget::Nvme => "nvme",
    }
}

fn loading(m: LoadingMethod) -> &'static str {
    match m {
        LoadingMethod::EveryRank => "every-rank",
        LoadingMethod::Rank0Broadcast => "rank0",
        LoadingMethod::MetaDevice => "meta-device",
        LoadingMethod::LowCpuMemUsage => "low-cpu-mem-usage",
        LoadingMethod::Mmap => "mmap",
    }
}

fn finetune(f: FineTune) -> &'static str {
    match f {
        FineTune::Full => "full",
        FineTune::Lora => "lora",
        FineTune::Qlora => "qlora",
    }
}

/// The flags that turn training plan `from` into `to`.
pub fn training(from: &TrainingPlan, to: &TrainingPlan) -> Vec<String> {
    let mut a = Args::default();
    // The command line's default strategy depends on the fine-tuning method (DDP for LoRA and
    // QLoRA, `advisor::defaults::strategy`): a change of method names its strategy too.
    if from.strategy != to.strategy || from.finetune != to.finetune {
        a.flag("strategy", strategy(to.strategy));
    }
    if from.offload_optimizer != to.offload_optimizer {
        a.flag("offload-optimizer", offload(to.offload_optimizer));
    }
    if from.offload_param != to.offload_param {
        a.flag("offload-param", offload(to.offload_param));
    }
    if to.zero_init && !from.zero_init {
        a.switch("zero-init");
    }
    if from.finetune != to.finetune {
        a.flag("finetune", finetune(to.finetune));
    }
    if from.loading != to.loading {
        if let Some(m) = to.loading {
            a.flag("loading", loading(m));
        }
    }
    if let (Some(f), Some(t)) = (from.activations, to.activations) {
        if t.checkpointing && !f.checkpointing {
            a.switch("checkpointing");
        }
        if t.micro_batch != f.micro_batch {
            a.flag("micro-batch", t.micro_batch);
        }
    }
    a.0
}

fn files(f: CheckpointFiles) -> &'static str {
    match f {
        CheckpointFiles::Safetensors => "safetensors",
        CheckpointFiles::Pickle => "pickle",
    }
}

fn weights(w: WeightFormat) -> &'static str {
    match w {
        WeightFormat::Bf16 => "bf16",
        WeightFormat::Fp8 => "fp8",
        WeightFormat::Int8 => "int8",
        WeightFormat::Int4 => "int4",
        WeightFormat::Q4KM => "q4_k_m",
    }
}

/// A float as a flag value: at most two decimals, no trailing zeros.
fn decimal(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The flags that turn inference plan `from` into `to`.
pub fn inference(from: &InferencePlan, to: &InferencePlan) -> Vec<String> {
    let mut a = Args::default();
    if from.weights != to.weights {
        a.flag("weights", weights(to.weights));
    }
    if from.context_len != to.context_len {
        a.flag("context-len", to.context_len);
    }
    if from.concurrent_sequences != to.concurrent_sequences {
        a.flag("concurrent-sequences", to.concurrent_sequences);
    }
    if from.kv_bytes != to.kv_bytes {
        a.flag(
            "kv-cache-dtype",
            if to.kv_bytes == 1 { "fp8" } else { "auto" },
        );
    }
    if from.swap_space_gib != to.swap_space_gib {
        a.flag("swap-space", decimal(to.swap_space_gib));
    }
    if from.cpu_offload_gib != to.cpu_offload_gib {
        a.flag("cpu-offload-gb", decimal(to.cpu_offload_gib));
    }
    if from.gpu_layers != to.gpu_layers {
        if let Some(g) = to.gpu_layers {
            a.flag("n-gpu-layers", g);
        }
    }
    if from.files != to.files {
        a.flag("checkpoint-files", files(to.files));
    }
    if from.checkpoint_shard_bytes != to.checkpoint_shard_bytes {
        if let Some(b) = to.checkpoint_shard_bytes {
            a.flag("checkpoint-shard-size", size_arg(b));
        }
    }
    a.0
}

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

/// The flags that re-assess the same plan on the machine with `c` applied
/// ([`crate::advisor::whatif`]).
pub fn machine(c: &crate::advisor::whatif::MachineChange) -> Vec<String> {
    let mut a = Args::default();
    if let Some(b) = c.shm_bytes {
        a.flag("shm-size", size_arg(b));
    }
    if let Some(b) = c.wsl_memory_bytes {
        a.flag("wsl-memory", size_arg(b));
    }
    if let Some(b) = c.ram_bytes {
        a.flag("ram", size_arg(b));
    }
    a.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_written_as_the_size_parser_reads_them() {
        assert_eq!(size_arg(64 << 20), "64MiB");
        assert_eq!(size_arg(1 << 30), "1GiB");
        assert_eq!(size_arg(128 << 30), "128GiB");
        assert_eq!(size_arg(2_000_000_000), "2GB");
        assert_eq!(size_arg(586_806_000_000), "586806MB");
        assert_eq!(size_arg(1000), "1000");
    }

    #[test]
    fn a_training_change_is_the_flags_that_differ() {
        let from = TrainingPlan {
            strategy: Strategy::Zero3,
            offload_optimizer: OffloadTarget::Cpu,
            offload_param: OffloadTarget::Cpu,
            zero_init: true,
            ..TrainingPlan::new(7_000_000_000)
        };
        let to = TrainingPlan {
            offload_optimizer: OffloadTarget::None,
            offload_param: OffloadTarget::None,
            ..from.clone()
        };
        assert_eq!(
            training(&from, &to),
            ["--offload-optimizer", "none", "--offload-param", "none"]
        );
    }
}
