//! The `advise` flags that turn one inference plan into another (see
//! [`crate::advisor::recommend::apply`]).

use super::{CheckpointFiles, InferencePlan, WeightFormat};
use crate::advisor::recommend::apply::{Args, decimal, size_arg};

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
