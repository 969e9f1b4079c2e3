//! The advice vocabulary: one id per change ramvram can advise ([`AdviceId`]), what kind of
//! change it is ([`RecKind`]) and what it costs the user ([`GivesUp`]). A finding's advice
//! (`findings[].recommendations`) and the recommender's ranked changes
//! (`recommendations[].id`) use the same ids; the words are in `locales/*/advice.toml` under
//! `advice.<id>.*` (`title`: the ranked change with its numbers; `finding`: a finding's advice
//! sentence). Data only: this file uses nothing of the advisor.

use serde::{Deserialize, Serialize};

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
    /// Parts bought for this machine (memory modules), or work on its hardware.
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

/// Stable advice ids, kebab-case in the JSON (`findings[].recommendations`,
/// `recommendations[].id`, `also`). The ids the recommender ranks come first, in its order
/// (the derived `Ord` sorts them as before); then the ids only a finding carries. The
/// `alias`es are the names of schema 2 (before one id space), so files written then still
/// load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdviceId {
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
    /// LoRA instead of full fine-tuning (a finding's advice: LoRA or QLoRA rather than
    /// full-parameter CPU offload). Schema 2: `prefer-lora` in findings.
    #[serde(alias = "prefer-lora")]
    Lora,
    /// QLoRA instead of full fine-tuning.
    Qlora,
    /// A swap file on fast storage (for a loading peak, or as a safety net).
    AddSwap,
    /// Windows: a larger page file, or a system-managed one on an SSD where there is none: the
    /// same change as [`AdviceId::AddSwap`] in Windows' terms. Schema 2:
    /// `system-managed-page-file` in findings.
    #[serde(alias = "system-managed-page-file")]
    GrowPageFile,
    /// WSL2: raise `memory=` in `.wslconfig`. A finding words it by what is known of Windows'
    /// RAM (entered, estimated, unknown: a text choice, one change). Schema 2:
    /// `wsl-memory-limit` in recommendations, `wsl-raise-memory-estimated` and
    /// `wsl-raise-memory-unknown` in findings.
    #[serde(
        alias = "wsl-memory-limit",
        alias = "wsl-raise-memory-estimated",
        alias = "wsl-raise-memory-unknown"
    )]
    WslRaiseMemory,
    /// Grow `/dev/shm` (`docker run --shm-size`, or `--ipc=host`). Schema 2: `shm-size` in
    /// recommendations.
    #[serde(alias = "shm-size")]
    GrowShm,
    /// Fewer DataLoader workers (a live diagnosis: or a smaller `prefetch_factor`). Schema 2:
    /// `reduce-workers` in findings.
    #[serde(alias = "reduce-workers")]
    ReduceNumWorkers,
    /// More DataLoader workers, to decode faster or keep more reads in flight. Schema 2:
    /// `more-workers` in findings.
    #[serde(alias = "more-workers")]
    IncreaseNumWorkers,
    /// A smaller `prefetch_factor`.
    ReducePrefetchFactor,
    /// A smaller batch per step.
    ReduceBatchSize,
    /// Cache decoded samples on disk instead of in RAM.
    CacheOnDisk,
    /// Don't cache decoded samples.
    NoCache,
    /// Hold the dataset index in NumPy arrays or Arrow, or memory-mapped files (no per-worker
    /// copies).
    IndexAsArrays,
    /// Add memory modules (or replace them) to reach a size.
    AddRam,
    /// A larger cloud instance of the same family (`advisor::buying::purchase`).
    LargerInstance,
    /// A cloud instance of another family (or type) with enough RAM: the family has none, or
    /// the instance type isn't in the catalogue.
    OtherInstance,
    /// A new machine: the memory is soldered, or the board's slots can't hold the size.
    /// Schema 2: `plan-new-machine` in findings.
    #[serde(alias = "plan-new-machine")]
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
    /// Schema 2: `storage-local-copy` in recommendations.
    #[serde(alias = "storage-local-copy")]
    CopyToLocalNvme,
    /// Pack many small files into large shards (WebDataset tar, TFRecord, Arrow) or a
    /// memory-mapped format. Schema 2: `use-shards` in findings.
    #[serde(alias = "use-shards")]
    PackShards,
    /// Store the images pre-resized to near the training resolution.
    PreResize,
    /// Decode and augment on the GPU (NVIDIA DALI, torchvision.io.decode_jpeg on CUDA).
    /// Schema 2: `gpu-data-loading` in findings.
    #[serde(alias = "gpu-data-loading")]
    GpuDecode,
    /// A hosted notebook (Colab, Kaggle): a runtime with more RAM.
    LargerRuntime,
    /// Stream or memory-map the dataset instead of holding it in RAM (a finding's advice).
    StreamDataset,
    /// Raise the container / job memory limit (a finding's advice).
    RaiseLimit,
    /// Plan model, data and OS against one shared pool (a finding's advice).
    BudgetUnifiedPool,
    /// Install or repair the NVIDIA driver so NVML can report VRAM (a finding's advice).
    InstallDriver,
    /// Set `vm.swappiness` to 10–20 (a finding's advice).
    LowerSwappiness,
    /// Reseat the GPU / check the slot, riser and BIOS link settings (a finding's advice).
    CheckPcieSlot,
    /// Switch to a training plan that fits: a pointer to the ranked list (a finding's advice).
    TryFittingPlan,
    /// Set `num_workers` to the recommended value (a finding's advice).
    SetNumWorkers,
    /// Turn on `pin_memory` (a finding's advice).
    PinMemory,
    /// Install modules so every memory channel is populated (a finding's advice).
    PopulateChannels,
    /// Use identical modules in every channel (a finding's advice).
    MatchModules,
    /// No `num_workers` value fits: the other levers (listed with their numbers) or RAM (a
    /// finding's advice).
    NoWorkerCountFits,
    /// Look at the data loader first: the GPU idles between batches (live diagnosis).
    CheckDataLoader,
    /// The data-loading changes are in the ranked list, each with its predicted utilisation
    /// (a finding's advice, in place of canned advice the recommender computes).
    SeeWorkloadChanges,
    /// Windows: "Prefer No Sysmem Fallback" for python.exe in the NVIDIA Control Panel (a
    /// finding's advice).
    PreferNoSysmemFallback,
}

impl AdviceId {
    /// Every id, in declaration order.
    pub const ALL: [AdviceId; 59] = {
        use AdviceId as A;
        [
            A::LoadOnRank0,
            A::MetaDeviceInit,
            A::ZeroInit,
            A::LowCpuMemUsage,
            A::ShardedQlora,
            A::Zero3InsteadOfZero2,
            A::OffloadOptimizerToCpu,
            A::OffloadParamsToCpu,
            A::OffloadToNvme,
            A::GradientCheckpointing,
            A::Lora,
            A::Qlora,
            A::AddSwap,
            A::GrowPageFile,
            A::WslRaiseMemory,
            A::GrowShm,
            A::ReduceNumWorkers,
            A::IncreaseNumWorkers,
            A::ReducePrefetchFactor,
            A::ReduceBatchSize,
            A::CacheOnDisk,
            A::NoCache,
            A::IndexAsArrays,
            A::AddRam,
            A::LargerInstance,
            A::OtherInstance,
            A::NewMachine,
            A::RaiseVmMemory,
            A::SmallerCacheImages,
            A::ReduceContext,
            A::KvCacheFp8,
            A::CpuOffloadGb,
            A::GpuLayers,
            A::DeviceMapOffload,
            A::QuantizeWeights,
            A::ReduceSwapSpace,
            A::DropOffload,
            A::UseSafetensors,
            A::ReshardCheckpoint,
            A::CopyToLocalNvme,
            A::PackShards,
            A::PreResize,
            A::GpuDecode,
            A::LargerRuntime,
            A::StreamDataset,
            A::RaiseLimit,
            A::BudgetUnifiedPool,
            A::InstallDriver,
            A::LowerSwappiness,
            A::CheckPcieSlot,
            A::TryFittingPlan,
            A::SetNumWorkers,
            A::PinMemory,
            A::PopulateChannels,
            A::MatchModules,
            A::NoWorkerCountFits,
            A::CheckDataLoader,
            A::SeeWorkloadChanges,
            A::PreferNoSysmemFallback,
        ]
    };

    /// The kind of change ([`RecKind`]): a setting, software, the OS, hardware or a cloud
    /// instance. The recommender's one exception: a training setting that needs a swap file
    /// for its loading peak counts as an OS change (`training::advice`).
    pub fn kind(self) -> RecKind {
        use AdviceId as A;
        match self {
            A::LoadOnRank0
            | A::MetaDeviceInit
            | A::ZeroInit
            | A::LowCpuMemUsage
            | A::OffloadOptimizerToCpu
            | A::OffloadParamsToCpu
            | A::ReduceNumWorkers
            | A::IncreaseNumWorkers
            | A::ReducePrefetchFactor
            | A::ReduceBatchSize
            | A::CacheOnDisk
            | A::NoCache
            | A::SmallerCacheImages
            | A::ReduceContext
            | A::KvCacheFp8
            | A::CpuOffloadGb
            | A::GpuLayers
            | A::DeviceMapOffload
            | A::ReduceSwapSpace
            | A::DropOffload
            | A::UseSafetensors
            | A::ReshardCheckpoint
            | A::CopyToLocalNvme
            | A::TryFittingPlan
            | A::SetNumWorkers
            | A::PinMemory
            | A::NoWorkerCountFits
            | A::CheckDataLoader
            | A::SeeWorkloadChanges => RecKind::Setting,
            A::ShardedQlora
            | A::Zero3InsteadOfZero2
            | A::OffloadToNvme
            | A::GradientCheckpointing
            | A::Lora
            | A::Qlora
            | A::IndexAsArrays
            | A::QuantizeWeights
            | A::PackShards
            | A::PreResize
            | A::GpuDecode
            | A::StreamDataset
            | A::BudgetUnifiedPool => RecKind::Software,
            A::AddSwap
            | A::GrowPageFile
            | A::WslRaiseMemory
            | A::GrowShm
            | A::RaiseVmMemory
            | A::RaiseLimit
            | A::InstallDriver
            | A::LowerSwappiness
            | A::PreferNoSysmemFallback => RecKind::Os,
            A::AddRam
            | A::NewMachine
            | A::CheckPcieSlot
            | A::PopulateChannels
            | A::MatchModules => RecKind::Hardware,
            A::LargerInstance | A::OtherInstance | A::LargerRuntime => RecKind::Cloud,
        }
    }

    /// What the change costs the user ([`GivesUp`]), the ranking's first key. Reasoning per
    /// class in `docs/model.md` § "Ranking":
    /// - nothing: loading methods (the same weights arrive on the GPUs), safetensors and smaller
    ///   shards, dropping an offload the GPUs don't need, OS limits (`/dev/shm`, WSL's `memory=`,
    ///   Apple's wired limit), workers and prefetching that only change how much is in flight,
    ///   the index held as arrays, a local copy or shards of the same data, and the settings a
    ///   finding advises (swappiness, `pin_memory`, a driver, a link setting);
    /// - speed: offloading to CPU RAM or NVMe, ZeRO-3's extra all-gathers, checkpointing's
    ///   recomputation (about a third more compute), fewer workers, a smaller batch (more
    ///   steps), swap or a page file, layers kept in host RAM, no decoded cache (decoding again
    ///   each epoch);
    /// - fidelity: LoRA/QLoRA (a different set of trained weights), quantised weights or KV
    ///   cache, a shorter context, smaller stored or cached images;
    /// - money: modules, a larger instance or runtime, a new machine, a VM's host memory.
    pub fn gives_up(self) -> GivesUp {
        use AdviceId as A;
        match self {
            A::LoadOnRank0
            | A::MetaDeviceInit
            | A::ZeroInit
            | A::LowCpuMemUsage
            | A::DropOffload
            | A::UseSafetensors
            | A::ReshardCheckpoint
            | A::WslRaiseMemory
            | A::GrowShm
            | A::IncreaseNumWorkers
            | A::ReducePrefetchFactor
            | A::IndexAsArrays
            | A::ReduceSwapSpace
            | A::CopyToLocalNvme
            | A::PackShards
            | A::GpuDecode
            | A::StreamDataset
            | A::RaiseLimit
            | A::BudgetUnifiedPool
            | A::InstallDriver
            | A::LowerSwappiness
            | A::CheckPcieSlot
            | A::TryFittingPlan
            | A::SetNumWorkers
            | A::PinMemory
            | A::NoWorkerCountFits
            | A::CheckDataLoader
            | A::SeeWorkloadChanges
            | A::PreferNoSysmemFallback => GivesUp::Nothing,
            A::Zero3InsteadOfZero2
            | A::OffloadOptimizerToCpu
            | A::OffloadParamsToCpu
            | A::OffloadToNvme
            | A::GradientCheckpointing
            | A::AddSwap
            | A::GrowPageFile
            | A::ReduceNumWorkers
            | A::ReduceBatchSize
            | A::CacheOnDisk
            | A::NoCache
            | A::CpuOffloadGb
            | A::GpuLayers
            | A::DeviceMapOffload => GivesUp::Speed,
            A::Lora
            | A::Qlora
            | A::ShardedQlora
            | A::QuantizeWeights
            | A::KvCacheFp8
            | A::ReduceContext
            | A::SmallerCacheImages
            | A::PreResize => GivesUp::Fidelity,
            A::AddRam
            | A::LargerInstance
            | A::OtherInstance
            | A::NewMachine
            | A::RaiseVmMemory
            | A::LargerRuntime
            | A::PopulateChannels
            | A::MatchModules => GivesUp::Money,
        }
    }
}
