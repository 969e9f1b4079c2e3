//! Recommendations: what to change when a plan, a workload or the machine falls short, each one
//! computed by re-running the advisor's own model with that change applied, and ranked cheapest
//! first: a setting, then a software technique, then the operating system, then hardware a
//! user can buy for that kind of machine. A hardware item comes first only when nothing cheaper
//! fits. The words are in the locale files (`recommendation.<id>`); this module holds data.

pub mod machine;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::findings::Quantity;

/// What a change costs the user, cheapest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecKind {
    /// A flag or a configuration value (`num_workers`, loading on rank 0, `zero_init`).
    Setting,
    /// A different technique in the same software (ZeRO-3 instead of ZeRO-2, QLoRA, NVMe
    /// offload, gradient checkpointing).
    Software,
    /// The operating system or container (swap, `.wslconfig`, `--shm-size`).
    Os,
    /// Parts bought for this machine (memory modules).
    Hardware,
    /// A larger cloud instance of the same family.
    Cloud,
}

impl RecKind {
    /// Rank for ordering: hardware and a larger instance cost the same rank (both are money).
    pub fn cost(self) -> u8 {
        match self {
            RecKind::Setting => 0,
            RecKind::Software => 1,
            RecKind::Os => 2,
            RecKind::Hardware | RecKind::Cloud => 3,
        }
    }
}

/// Stable recommendation ids (`recommendations[].id` in `advise --json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecommendationId {
    /// Load the checkpoint on rank 0 only and broadcast (FSDP `sync_module_states=True`).
    LoadOnRank0,
    /// Build the model on the meta device and load shards into place.
    MetaDeviceInit,
    /// DeepSpeed `zero.Init`: build the model already partitioned.
    ZeroInit,
    /// Hugging Face `from_pretrained(low_cpu_mem_usage=True)`: load shard by shard.
    LowCpuMemUsage,
    /// QLoRA with the 4-bit base sharded by FSDP across the GPUs.
    ShardedQlora,
    /// ZeRO-3 instead of ZeRO-2 (parameters partitioned too).
    Zero3InsteadOfZero2,
    /// DeepSpeed ZeRO-Offload: the optimizer states (and fp32 gradients) in CPU RAM.
    OffloadOptimizerToCpu,
    /// The parameters in CPU RAM too: ZeRO-3 `offload_param`, or FSDP `CPUOffload`.
    OffloadParamsToCpu,
    /// DeepSpeed ZeRO-Infinity: optimizer states (and parameters) on NVMe.
    OffloadToNvme,
    /// Activation (gradient) checkpointing.
    GradientCheckpointing,
    /// LoRA instead of full fine-tuning.
    Lora,
    /// QLoRA instead of full fine-tuning.
    Qlora,
    /// A swap file on fast storage for a loading peak.
    AddSwap,
    /// Raise WSL2's memory cap in `.wslconfig`.
    WslMemoryLimit,
    /// Grow `/dev/shm` (`docker run --shm-size`).
    ShmSize,
    /// Fewer DataLoader workers.
    ReduceNumWorkers,
    /// More DataLoader workers.
    IncreaseNumWorkers,
    /// A smaller `prefetch_factor`.
    ReducePrefetchFactor,
    /// A smaller batch per step.
    ReduceBatchSize,
    /// Cache decoded samples on disk instead of in RAM.
    CacheOnDisk,
    /// Don't cache decoded samples.
    NoCache,
    /// Hold the dataset index in NumPy arrays or Arrow (no per-worker copies).
    IndexAsArrays,
    /// Add memory modules (or replace them) to reach a size.
    AddRam,
    /// A larger cloud instance of the same family.
    LargerInstance,
    /// A cloud instance of another family (or type) with enough RAM: the family has none, or
    /// the instance type isn't in the catalogue.
    OtherInstance,
    /// A new machine: the memory is soldered, or the board's slots can't hold the size.
    NewMachine,
    /// A virtual machine outside a known cloud: its host gives it more memory.
    RaiseVmMemory,
    /// Cache decoded images at a smaller size (`cache_size`), so the cache fits.
    SmallerCacheImages,
    /// A shorter context (vLLM `max_model_len`, llama.cpp `-c`).
    ReduceContext,
    /// An 8-bit KV cache (vLLM `kv_cache_dtype=fp8`).
    KvCacheFp8,
    /// vLLM `cpu_offload_gb`: part of each GPU's weights in host RAM.
    CpuOffloadGb,
    /// llama.cpp `n_gpu_layers`: the layers that fit on the GPUs, the rest in RAM.
    GpuLayers,
    /// transformers `device_map="auto"` with `max_memory`: the layers that fit on the GPUs,
    /// the rest in CPU RAM, copied to the GPU for every forward pass.
    DeviceMapOffload,
    /// Serve 4-bit weights (GPTQ/AWQ, GGUF Q4_K_M).
    QuantizeWeights,
    /// A smaller vLLM `swap_space`.
    ReduceSwapSpace,
}

/// What the model says once a change is applied. Each field is `None` when it doesn't apply
/// to the change's subject (a workload has no per-GPU peak).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Peak CPU RAM per node, bytes (training, inference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_peak_bytes_per_node: Option<u64>,
    /// Peak VRAM per GPU, bytes (training, inference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_peak_bytes_per_gpu: Option<u64>,
    /// The data-loading working set, bytes (workloads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_set_bytes: Option<u64>,
    /// Predicted GPU utilisation, 0–1 (workloads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_gpu_utilization: Option<f64>,
    /// Everything fits after the change (`None`: can't tell).
    pub fits: Option<bool>,
}

/// What a recommendation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Subject {
    /// The training plan.
    Training,
    /// The inference plan.
    Inference,
    /// The data-loading workload.
    Workload,
    /// The machine itself.
    Machine,
}

/// One recommendation with its computed result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// Stable id.
    pub id: RecommendationId,
    /// What it costs.
    pub kind: RecKind,
    /// What it is about.
    pub subject: Subject,
    /// The values it sets, by name (`num_workers`, `ram_bytes`, `instance_type`, …); the
    /// locale texts use the same names as placeholders.
    pub changes: BTreeMap<String, Quantity>,
    /// The model re-run with the change.
    pub result: Outcome,
}

impl Recommendation {
    /// A recommendation with no changes recorded yet.
    pub fn new(id: RecommendationId, kind: RecKind, subject: Subject, result: Outcome) -> Self {
        Recommendation {
            id,
            kind,
            subject,
            changes: BTreeMap::new(),
            result,
        }
    }

    /// Records one changed value.
    pub fn with(mut self, name: &str, q: Quantity) -> Self {
        self.changes.insert(name.to_string(), q);
        self
    }
}

/// Orders recommendations: those that make everything fit first, cheapest kind first; then
/// those that only help, cheapest first. Within a group the order given is kept (each module
/// lists its own in the order it prefers). A second recommendation with an id and subject
/// already listed is dropped.
pub fn rank(mut recs: Vec<Recommendation>) -> Vec<Recommendation> {
    let mut seen = std::collections::HashSet::new();
    recs.retain(|r| seen.insert((r.id, r.subject)));
    recs.sort_by_key(|r| (r.result.fits != Some(true), r.kind.cost()));
    recs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: RecommendationId, kind: RecKind, fits: Option<bool>) -> Recommendation {
        Recommendation::new(
            id,
            kind,
            Subject::Training,
            Outcome {
                fits,
                ..Outcome::default()
            },
        )
    }

    #[test]
    fn fitting_changes_come_first_cheapest_first_and_hardware_last_among_them() {
        use RecommendationId as R;
        let ranked = rank(vec![
            rec(R::AddRam, RecKind::Hardware, Some(true)),
            rec(R::Zero3InsteadOfZero2, RecKind::Software, Some(false)),
            rec(R::AddSwap, RecKind::Os, Some(true)),
            rec(R::LoadOnRank0, RecKind::Setting, Some(true)),
            rec(R::LoadOnRank0, RecKind::Setting, Some(true)),
            rec(R::Qlora, RecKind::Software, None),
        ]);
        let ids: Vec<R> = ranked.iter().map(|r| r.id).collect();
        assert_eq!(
            ids,
            [
                R::LoadOnRank0,
                R::AddSwap,
                R::AddRam,
                R::Zero3InsteadOfZero2,
                R::Qlora
            ]
        );
    }
}
