//! Recommendations: what to change when a plan, a workload or the machine falls short, each one
//! computed by re-running the advisor's own model with that change applied (every limit at
//! once, with headroom), and ranked by what the user gives up ([`GivesUp`]): nothing, then
//! speed, then fidelity, then money. Each carries the command-line arguments that apply it
//! ([`Recommendation::apply`]). The words are in the locale files (`recommendation.<id>`,
//! `advice.cost.<id>`); this module holds data.

pub mod apply;
mod gives_up;

pub use gives_up::gives_up;

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
    /// Windows: a larger page file (or a system-managed one) for a loading peak: the same
    /// change as [`RecommendationId::AddSwap`] in Windows' terms.
    GrowPageFile,
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
    /// Remove an offload the plan sets where the GPUs hold the states themselves: same model,
    /// faster (no optimizer step over PCIe), less host RAM.
    DropOffload,
    /// Load the safetensors files (memory-mapped) instead of the pickle (`.bin`) checkpoint.
    UseSafetensors,
    /// Re-save the checkpoint in smaller shards (`save_pretrained(max_shard_size=…)`), so a
    /// pickle load holds one small shard at a time.
    ReshardCheckpoint,
    /// Copy the dataset to local NVMe (or read it from there) instead of a slow disk or network.
    StorageLocalCopy,
    /// Pack many small files into large shards (WebDataset tar, TFRecord, Arrow).
    PackShards,
    /// Store the images pre-resized to near the training resolution.
    PreResize,
    /// Decode and augment on the GPU (NVIDIA DALI, torchvision.io.decode_jpeg on CUDA).
    GpuDecode,
    /// A hosted notebook (Colab, Kaggle): a runtime with more RAM.
    LargerRuntime,
}

/// What a change costs the user, the ranking's first key: a change that gives up nothing comes
/// before one that makes training slower, before one that changes what is trained or served,
/// before one that costs money.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GivesUp {
    /// Same result at the same or better speed: a setting, a file format, an OS setting.
    Nothing,
    /// The same model and data, trained or served more slowly.
    Speed,
    /// A different model or data: LoRA/QLoRA, quantisation, a shorter context, smaller images.
    Fidelity,
    /// Hardware or a larger instance.
    Money,
}

/// A limit a plan is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// One GPU's memory.
    Vram,
    /// Host RAM (or the cgroup / WSL cap, or the unified pool).
    Ram,
    /// `/dev/shm`.
    Shm,
    /// NVMe space for offload.
    Nvme,
}

impl Limit {
    /// The limit's id as the JSON writes it (`"vram"`, `"shm"`).
    pub fn id(self) -> &'static str {
        match self {
            Limit::Vram => "vram",
            Limit::Ram => "ram",
            Limit::Shm => "shm",
            Limit::Nvme => "nvme",
        }
    }

    /// The limit an id names ([`Limit::id`]).
    pub fn from_id(id: &str) -> Option<Limit> {
        [Limit::Vram, Limit::Ram, Limit::Shm, Limit::Nvme]
            .into_iter()
            .find(|l| l.id() == id)
    }
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
    /// `/dev/shm` the DataLoader needs, bytes (workloads with worker processes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shm_needed_bytes: Option<u64>,
    /// The smallest headroom over every limit checked (available − needed, bytes; negative when
    /// short), `None` when no limit could be checked.
    #[serde(default)]
    pub headroom_bytes: Option<i64>,
    /// The limit with that smallest headroom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tightest: Option<Limit>,
    /// That headroom as a share of the limit (for ranking: the most headroom first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headroom_share: Option<f64>,
    /// Every limit holds with its margin after the change (`None`: can't tell).
    pub fits: Option<bool>,
}

impl Outcome {
    /// Records the headroom of the checks given, keeping the one with the smallest share of its
    /// limit.
    pub fn with_headroom(
        mut self,
        checks: &[(Limit, &crate::advisor::check::CapacityCheck)],
    ) -> Self {
        for (limit, c) in checks {
            let (Some(h), Some(a)) = (c.headroom_bytes, c.available_bytes) else {
                continue;
            };
            let share = h as f64 / a.max(1) as f64;
            if self.headroom_share.is_none_or(|s| share < s) {
                self.headroom_bytes = Some(h);
                self.headroom_share = Some(share);
                self.tightest = Some(*limit);
            }
        }
        self
    }
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
    /// What the change costs the user ([`gives_up`]).
    pub gives_up: GivesUp,
    /// The command-line arguments that, added to the same `advise` command, give the plan with
    /// this change (`["--num-workers", "4", "--shm-size", "1g"]`); empty when the change is
    /// outside what a flag can say (buy modules, move to another instance).
    #[serde(default)]
    pub apply: Vec<String>,
    /// The machine-level change this recommendation makes, which the assessment re-assesses on
    /// the changed profile ([`crate::advisor::whatif`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_change: Option<crate::advisor::whatif::MachineChange>,
    /// Further changes this one is paired with (none changes enough alone): their values are
    /// under `also.<name>` in `changes`, and `apply` sets them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<RecommendationId>,
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
            gives_up: gives_up(id),
            apply: Vec::new(),
            machine_change: None,
            also: Vec::new(),
        }
    }

    /// Records a machine-level change and the arguments that apply it.
    pub fn on_machine(mut self, c: crate::advisor::whatif::MachineChange) -> Self {
        self.apply.extend(apply::machine(&c));
        self.machine_change = Some(c);
        self
    }

    /// Records the arguments that apply the change.
    pub fn applied_by(mut self, args: Vec<String>) -> Self {
        self.apply = args;
        self
    }

    /// Records one changed value.
    pub fn with(mut self, name: &str, q: Quantity) -> Self {
        self.changes.insert(name.to_string(), q);
        self
    }
}

/// Orders recommendations: those that make every limit fit (with headroom) first, then those
/// that only help; within each, by what the user gives up ([`GivesUp`]). Among changes that
/// fit, the highest predicted GPU utilisation comes first (workloads), and among those that
/// give up nothing, those that need no other files of the model come before those that do
/// (safetensors files that may not be published, a checkpoint re-saved — which itself needs one
/// load), then by effort (a setting, then an OS or container setting, then code), then the most
/// headroom (as a share of its limit): they cost the same, so the safest wins. Within the other classes the modules' own order stays, which puts the smaller
/// sacrifice first (optimizer offload before parameter offload, LoRA before QLoRA, the smaller
/// purchase first). Of two recommendations with one id and subject, the better ranked is kept.
pub fn rank(mut recs: Vec<Recommendation>) -> Vec<Recommendation> {
    recs.sort_by(|a, b| {
        let key = |r: &Recommendation| (r.result.fits != Some(true), r.gives_up);
        key(a).cmp(&key(b)).then_with(|| {
            if a.result.fits != Some(true) {
                return std::cmp::Ordering::Equal;
            }
            let util = |r: &Recommendation| r.result.predicted_gpu_utilization.unwrap_or(-1.0);
            let nothing = |r: &Recommendation| r.gives_up == GivesUp::Nothing;
            let files = |r: &Recommendation| {
                nothing(r)
                    && matches!(
                        r.id,
                        RecommendationId::UseSafetensors | RecommendationId::ReshardCheckpoint
                    )
            };
            let room = |r: &Recommendation| {
                if nothing(r) {
                    quantised(r.result.headroom_share.unwrap_or(f64::NEG_INFINITY))
                } else {
                    0.0
                }
            };
            // Then by effort: a setting, then an OS or container setting, then a change of code.
            let kind = |r: &Recommendation| match (nothing(r), r.kind) {
                (false, _) => 0,
                (true, RecKind::Setting) => 0,
                (true, RecKind::Os) => 1,
                (true, _) => 2,
            };
            util(b)
                .total_cmp(&util(a))
                .then_with(|| files(a).cmp(&files(b)))
                .then_with(|| kind(a).cmp(&kind(b)))
                .then_with(|| room(b).total_cmp(&room(a)))
        })
    });
    let mut seen = std::collections::HashSet::new();
    recs.retain(|r| seen.insert((r.id, r.subject)));
    recs
}

/// A headroom share rounded to whole per cent: two changes within a per cent of each other keep
/// their modules' order.
fn quantised(share: f64) -> f64 {
    (share * 100.0).floor()
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
    fn fitting_changes_come_first_by_what_they_give_up_and_money_last_among_them() {
        use RecommendationId as R;
        let ranked = rank(vec![
            rec(R::AddRam, RecKind::Hardware, Some(true)),
            rec(R::Zero3InsteadOfZero2, RecKind::Software, Some(false)),
            rec(R::Lora, RecKind::Software, Some(true)),
            rec(R::AddSwap, RecKind::Os, Some(true)),
            rec(R::LoadOnRank0, RecKind::Setting, Some(true)),
            rec(R::LoadOnRank0, RecKind::Setting, Some(true)),
            rec(R::Qlora, RecKind::Software, None),
        ]);
        let ids: Vec<R> = ranked.iter().map(|r| r.id).collect();
        // Nothing (rank 0 loading), speed (a swap file), fidelity (LoRA), money (RAM); then
        // what doesn't fit: speed (ZeRO-3) before fidelity (QLoRA).
        assert_eq!(
            ids,
            [
                R::LoadOnRank0,
                R::AddSwap,
                R::Lora,
                R::AddRam,
                R::Zero3InsteadOfZero2,
                R::Qlora
            ]
        );
    }

    #[test]
    fn within_a_class_the_most_headroom_comes_first() {
        use RecommendationId as R;
        let with_room = |id, share: f64| {
            let mut r = rec(id, RecKind::Setting, Some(true));
            r.result.headroom_share = Some(share);
            r
        };
        let ranked = rank(vec![
            with_room(R::LoadOnRank0, 0.06),
            with_room(R::MetaDeviceInit, 0.30),
        ]);
        assert_eq!(ranked[0].id, R::MetaDeviceInit);
    }
}
