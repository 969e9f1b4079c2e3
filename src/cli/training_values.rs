//! The values of `advise`'s training-planner flags that take a name (`--precision`,
//! `--strategy`, `--offload-*`, `--finetune`, `--loading`, `--checkpoint-dtype`); their names
//! are the knob table's ([`crate::advisor::knobs::TRAINING`]), checked by its tests.

use clap::ValueEnum;

/// `--loading` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LoadingArg {
    /// Every rank loads the whole checkpoint.
    EveryRank,
    /// Rank 0 loads and broadcasts (FSDP sync_module_states=True).
    Rank0,
    /// Built on the meta device; each rank loads its shards.
    MetaDevice,
    /// Hugging Face low_cpu_mem_usage=True: shard by shard.
    LowCpuMemUsage,
    /// Memory-mapped safetensors.
    Mmap,
}

/// `--save-state-dict` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SaveArg {
    /// One full state dict gathered on rank 0 (offload_to_cpu, rank0_only).
    Full,
    /// A full state dict gathered in every rank's CPU RAM (offload_to_cpu without rank0_only).
    FullEveryRank,
    /// Each rank writes its own shard (DCP, DeepSpeed's ZeRO checkpoint).
    Sharded,
}

/// `--resume-load` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResumeArg {
    /// Every rank loads everything saved.
    EveryRank,
    /// Rank 0 loads and broadcasts (broadcast_from_rank0).
    Rank0,
    /// Each rank reads only its own part (DCP, universal checkpoint).
    PerRank,
}

/// `--checkpoint-dtype` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckpointArg {
    /// bf16/fp16.
    Bf16,
    /// fp32.
    Fp32,
    /// Pre-quantised 4-bit.
    Int4,
}

/// `--precision` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PrecisionArg {
    /// bf16/fp16 mixed precision with fp32 master weights.
    Mixed16,
    /// Everything in fp32.
    Fp32,
    /// Pure bf16: parameters, gradients and optimizer states in bf16 (torchtune, FSDP2).
    Bf16,
}

/// `--optimizer` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OptimizerArg {
    /// Adam / AdamW.
    Adam,
    /// SGD with momentum.
    SgdMomentum,
    /// bitsandbytes 8-bit Adam.
    Adam8bit,
    /// Adafactor.
    Adafactor,
    /// bitsandbytes paged 8-bit AdamW.
    PagedAdam8bit,
}

/// `--strategy` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// Plain data parallel.
    Ddp,
    /// ZeRO-1.
    Zero1,
    /// ZeRO-2.
    Zero2,
    /// ZeRO-3.
    Zero3,
    /// FSDP FULL_SHARD.
    Fsdp,
}

/// `--offload-*` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OffloadArg {
    /// No offload.
    None,
    /// CPU RAM.
    Cpu,
    /// NVMe.
    Nvme,
}

/// `--finetune` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FineTuneArg {
    /// All parameters.
    Full,
    /// LoRA.
    Lora,
    /// QLoRA.
    Qlora,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::knobs::{KnobId as K, knob};

    fn names<E: ValueEnum>() -> Vec<String> {
        E::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect()
    }

    #[test]
    fn the_flags_values_are_the_knob_tables_names() {
        for (id, given) in [
            (K::Precision, names::<PrecisionArg>()),
            (K::Optimizer, names::<OptimizerArg>()),
            (K::Strategy, names::<StrategyArg>()),
            (K::OffloadOptimizer, names::<OffloadArg>()),
            (K::OffloadParam, names::<OffloadArg>()),
            (K::Finetune, names::<FineTuneArg>()),
            (K::Loading, names::<LoadingArg>()),
            (K::CheckpointDtype, names::<CheckpointArg>()),
            (
                K::Weights,
                names::<crate::cli::inference_args::WeightsArg>(),
            ),
            (
                K::KvCacheDtype,
                names::<crate::cli::inference_args::KvArg>(),
            ),
            (
                K::CheckpointFiles,
                names::<crate::cli::inference_args::FilesArg>(),
            ),
            (
                K::DiffusionOffload,
                names::<crate::cli::diffusion_args::OffloadArg>(),
            ),
        ] {
            assert_eq!(given, knob(id).choices(), "--{}", knob(id).flag);
        }
    }
}
