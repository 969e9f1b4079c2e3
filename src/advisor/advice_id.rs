//! The advice vocabulary: one id per change ramvram can advise ([`AdviceId`]), what kind of
//! change it is ([`RecKind`]) and what it costs the user ([`GivesUp`]). A finding's advice
//! (`findings[].recommendations`) and the recommender's ranked changes
//! (`recommendations[].id`) use the same ids; the words are in `locales/*/advice.toml` under
//! `advice.<id>.*` (`title`: the ranked change with its numbers; `finding`: a finding's advice
//! sentence). Data only: this file uses nothing of the advisor.
//!
//! Every id is one row of the table at the end of this file (`advice_ids!`): its variant, its
//! JSON name, the schema 2 names still read, its [`RecKind`], its [`GivesUp`], the message of
//! what it costs in words, and the one-line description docs/profile.md lists. The enum, its
//! serde names, [`AdviceId::ALL`], [`AdviceId::kind`], [`AdviceId::gives_up`] and the message
//! keys are derived from the rows; `tests/advice_ids.rs` fails when a row lacks its words or
//! its docs row. How to add one: docs/extending.md.

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

/// What a change costs the user, in classes: nothing, speed, fidelity (what is trained or
/// served changes), money. Stated beside each change; the ranking ([`crate::advisor::recommend::rank`])
/// orders what solves by whether it keeps the plan, its speed and its effort, and orders what
/// only helps by this class.
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

/// Declares [`AdviceId`] from its rows and derives everything else from them. A row:
///
/// ```text
/// /// more docs for the variant (optional)
/// Variant "json-name" => RecKind, GivesUp,
///     cost "locale.key.of.its.cost", alias "schema-2-name", …,
///     "One line for docs/profile.md: what the change is";
/// ```
macro_rules! advice_ids {
    ($(
        $(#[doc = $extra:literal])*
        $variant:ident $name:tt => $kind:ident, $gives:ident,
            cost $cost:literal, $(alias $alias:tt,)*
            $summary:literal;
    )*) => {
        /// Stable advice ids, kebab-case in the JSON (`findings[].recommendations`,
        /// `recommendations[].id`, `also`). The ids the recommender ranks come first, in its
        /// order (the derived `Ord` is the rows' order, as before); then the ids only a
        /// finding carries. The `alias`es are the names of schema 2 (before one id space), so
        /// files written then still load.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum AdviceId {
            $(
                #[doc = concat!($summary, ".")]
                $(#[doc = $extra])*
                $(#[doc = concat!("Schema 2: `", $alias, "`.")])*
                #[serde(rename = $name $(, alias = $alias)*)]
                $variant,
            )*
        }

        /// How many ids there are.
        const COUNT: usize = [$($name),*].len();

        impl AdviceId {
            /// Every id, in declaration order.
            pub const ALL: [AdviceId; COUNT] = [$(AdviceId::$variant),*];

            /// The id as the JSON writes it (kebab-case): `"load-on-rank0"`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(AdviceId::$variant => $name,)*
                }
            }

            /// The schema 2 names read as this id (serde aliases; never written).
            pub fn aliases(self) -> &'static [&'static str] {
                match self {
                    $(AdviceId::$variant => &[$($alias),*],)*
                }
            }

            /// What the change is, in one line (docs/profile.md's "Advice ids" table).
            pub fn summary(self) -> &'static str {
                match self {
                    $(AdviceId::$variant => $summary,)*
                }
            }

            /// The locale key of what the change costs, in words (`advice.cost.*`), shown
            /// beside a ranked change.
            pub fn cost_key(self) -> &'static str {
                match self {
                    $(AdviceId::$variant => $cost,)*
                }
            }

            /// The kind of change ([`RecKind`]): a setting, software, the OS, hardware or a
            /// cloud instance. The recommender's one exception: a training setting that needs a
            /// swap file for its loading peak counts as an OS change (`training::advice`).
            pub fn kind(self) -> RecKind {
                match self {
                    $(AdviceId::$variant => RecKind::$kind,)*
                }
            }

            /// What the change costs the user ([`GivesUp`]): the order of what only helps, and
            /// money's own path among what solves. Reasoning per class in `docs/model.md`
            /// § "Ranking: what solves first":
            /// - nothing: loading methods (the same weights arrive on the GPUs), safetensors and
            ///   smaller shards, dropping an offload the GPUs don't need, OS limits
            ///   (`/dev/shm`, WSL's `memory=`, Apple's wired limit), workers and prefetching
            ///   that only change how much is in flight, the index held as arrays, a local copy
            ///   or shards of the same data, and the settings a finding advises (swappiness,
            ///   `pin_memory`, a driver, a link setting);
            /// - speed: offloading to CPU RAM or NVMe, ZeRO-3's extra all-gathers,
            ///   checkpointing's recomputation (about a third more compute), fewer workers, a
            ///   smaller batch (more steps), swap or a page file, layers kept in host RAM, no
            ///   decoded cache (decoding again each epoch);
            /// - fidelity: LoRA/QLoRA (a different set of trained weights), quantised weights or
            ///   KV cache, a shorter context, smaller stored or cached images;
            /// - money: modules, a larger instance or runtime, a new machine, a VM's host
            ///   memory.
            pub fn gives_up(self) -> GivesUp {
                match self {
                    $(AdviceId::$variant => GivesUp::$gives,)*
                }
            }
        }
    };
}

impl AdviceId {
    /// The locale key of one of the id's messages: `advice.<id>.<part>`, the JSON name with
    /// `_` for `-` (`message_key("title")` of `load-on-rank0` is `advice.load_on_rank0.title`).
    /// The parts: `title` (a ranked change), `finding` (a finding's advice), and variants of
    /// either (`finding_estimated`, `title_size`, …).
    pub fn message_key(self, part: &str) -> String {
        format!("advice.{}.{part}", self.as_str().replace('-', "_"))
    }
}

// The table: one row per id. The recommender's ids first, in its order; then the ids only a
// finding carries. Add a row at the end (docs/extending.md).
advice_ids! {
    LoadOnRank0 "load-on-rank0" => Setting, Nothing,
        cost "advice.cost.load",
        "Load the checkpoint on rank 0 only and broadcast (FSDP `sync_module_states=True`)";
    MetaDeviceInit "meta-device-init" => Setting, Nothing,
        cost "advice.cost.load",
        "Build the model on the meta device and load shards into place";
    ZeroInit "zero-init" => Setting, Nothing,
        cost "advice.cost.load",
        "DeepSpeed `zero.Init`: build the model already partitioned";
    LowCpuMemUsage "low-cpu-mem-usage" => Setting, Nothing,
        cost "advice.cost.load",
        "Hugging Face `from_pretrained(low_cpu_mem_usage=True)`: load shard by shard";
    ShardedQlora "sharded-qlora" => Software, Fidelity,
        cost "advice.cost.peft",
        "QLoRA with the 4-bit base sharded by FSDP across the GPUs";
    Zero3InsteadOfZero2 "zero3-instead-of-zero2" => Software, Speed,
        cost "advice.cost.zero3",
        "ZeRO-3 instead of ZeRO-2 (parameters partitioned too)";
    OffloadOptimizerToCpu "offload-optimizer-to-cpu" => Setting, Speed,
        cost "advice.cost.offload",
        "DeepSpeed ZeRO-Offload: the optimizer states (and fp32 gradients) in CPU RAM";
    OffloadParamsToCpu "offload-params-to-cpu" => Setting, Speed,
        cost "advice.cost.offload",
        "The parameters in CPU RAM too: ZeRO-3 `offload_param`, or FSDP `CPUOffload`";
    OffloadToNvme "offload-to-nvme" => Software, Speed,
        cost "advice.cost.offload",
        "DeepSpeed ZeRO-Infinity: optimizer states (and parameters) on NVMe";
    GradientCheckpointing "gradient-checkpointing" => Software, Speed,
        cost "advice.cost.checkpointing",
        "Activation (gradient) checkpointing";
    Lora "lora" => Software, Fidelity,
        cost "advice.cost.peft", alias "prefer-lora",
        "LoRA instead of full fine-tuning (a finding's advice: LoRA or QLoRA rather than \
         full-parameter CPU offload)";
    Qlora "qlora" => Software, Fidelity,
        cost "advice.cost.peft",
        "QLoRA instead of full fine-tuning";
    AddSwap "add-swap" => Os, Speed,
        cost "advice.cost.swap",
        "A swap file on fast storage (for a loading peak, or as a safety net)";
    GrowPageFile "grow-page-file" => Os, Speed,
        cost "windows.advice.cost_page_file", alias "system-managed-page-file",
        "Windows: a larger page file, or a system-managed one on an SSD where there is none: the \
         same change as `add-swap` in Windows' terms";
    /// A finding words it by what is known of Windows' RAM (entered, estimated,
    /// unknown): one change, three texts.
    WslRaiseMemory "wsl-raise-memory" => Os, Nothing,
        cost "advice.cost.os", alias "wsl-memory-limit", alias "wsl-raise-memory-estimated",
        alias "wsl-raise-memory-unknown",
        "WSL2: raise `memory=` in `.wslconfig`";
    GrowShm "grow-shm" => Os, Nothing,
        cost "advice.cost.os", alias "shm-size",
        "Grow `/dev/shm` (`docker run --shm-size`, or `--ipc=host`)";
    ReduceNumWorkers "reduce-num-workers" => Setting, Speed,
        cost "advice.cost.fewer", alias "reduce-workers",
        "Fewer DataLoader workers (a live diagnosis: or a smaller `prefetch_factor`)";
    IncreaseNumWorkers "increase-num-workers" => Setting, Nothing,
        cost "advice.cost.workers", alias "more-workers",
        "More DataLoader workers, to decode faster or keep more reads in flight";
    ReducePrefetchFactor "reduce-prefetch-factor" => Setting, Nothing,
        cost "advice.cost.workers",
        "A smaller `prefetch_factor`";
    ReduceBatchSize "reduce-batch-size" => Setting, Speed,
        cost "advice.cost.fewer",
        "A smaller batch per step";
    CacheOnDisk "cache-on-disk" => Setting, Speed,
        cost "advice.cost.recompute",
        "Cache decoded samples on disk instead of in RAM";
    NoCache "no-cache" => Setting, Speed,
        cost "advice.cost.recompute",
        "Don't cache decoded samples";
    IndexAsArrays "index-as-arrays" => Software, Nothing,
        cost "advice.cost.index",
        "Hold the dataset index in NumPy arrays or Arrow, or memory-mapped files (no per-worker \
         copies)";
    AddRam "add-ram" => Hardware, Money,
        cost "advice.cost.money",
        "Add memory modules (or replace them) to reach a size";
    /// `advisor::buying::purchase` chooses it.
    LargerInstance "larger-instance" => Cloud, Money,
        cost "advice.cost.money",
        "A larger cloud instance of the same family";
    OtherInstance "other-instance" => Cloud, Money,
        cost "advice.cost.money",
        "A cloud instance of another family (or type) with enough RAM: the family has none, or the \
         instance type isn't in the catalogue";
    NewMachine "new-machine" => Hardware, Money,
        cost "advice.cost.money", alias "plan-new-machine",
        "A new machine: the memory is soldered, or the board's slots can't hold the size";
    RaiseVmMemory "raise-vm-memory" => Os, Money,
        cost "advice.cost.money",
        "A virtual machine outside a known cloud: its host gives it more memory";
    SmallerCacheImages "smaller-cache-images" => Setting, Fidelity,
        cost "advice.cost.smaller_images",
        "Cache decoded images at a smaller size (`cache_size`), so the cache fits";
    ReduceContext "reduce-context" => Setting, Fidelity,
        cost "advice.cost.context",
        "A shorter context (vLLM `max_model_len`, llama.cpp `-c`)";
    KvCacheFp8 "kv-cache-fp8" => Setting, Fidelity,
        cost "advice.cost.quantised",
        "An 8-bit KV cache (vLLM `kv_cache_dtype=fp8`)";
    CpuOffloadGb "cpu-offload-gb" => Setting, Speed,
        cost "advice.cost.layers_in_ram",
        "vLLM `cpu_offload_gb`: part of each GPU's weights in host RAM";
    GpuLayers "gpu-layers" => Setting, Speed,
        cost "advice.cost.layers_in_ram",
        "llama.cpp `n_gpu_layers`: the layers that fit on the GPUs, the rest in RAM";
    LlamaFit "llama-fit" => Setting, Speed,
        cost "advice.cost.layers_in_ram",
        "What llama.cpp's own fit (`--fit`, common/fit.cpp) chooses for a GGUF on this GPU: the \
         context, `-ngl` and `--n-cpu-moe`, with 1 GiB left free; the host RAM it leaves in use, \
         which llama.cpp doesn't check";
    DeviceMapOffload "device-map-offload" => Setting, Speed,
        cost "advice.cost.layers_in_ram",
        "transformers `device_map=\"auto\"` with `max_memory`: the layers that fit on the GPUs, \
         the rest in CPU RAM, copied to the GPU for every forward pass";
    QuantizeWeights "quantize-weights" => Software, Fidelity,
        cost "advice.cost.quantised",
        "Serve 4-bit weights (GPTQ/AWQ, GGUF Q4_K_M)";
    ReduceSwapSpace "reduce-swap-space" => Setting, Nothing,
        cost "advice.cost.workers",
        "A smaller vLLM `swap_space`";
    DropOffload "drop-offload" => Setting, Nothing,
        cost "advice.cost.drop_offload",
        "Remove an offload the plan sets where the GPUs hold the states themselves: same model, \
         faster (no optimizer step over PCIe), less host RAM";
    UseSafetensors "use-safetensors" => Setting, Nothing,
        cost "advice.cost.use_safetensors",
        "Load the safetensors files (memory-mapped) instead of the pickle (`.bin`) checkpoint";
    ReshardCheckpoint "reshard-checkpoint" => Setting, Nothing,
        cost "advice.cost.reshard_checkpoint",
        "Re-save the checkpoint in smaller shards (`save_pretrained(max_shard_size=…)`), so a \
         pickle load holds one small shard at a time";
    CopyToLocalNvme "copy-to-local-nvme" => Setting, Nothing,
        cost "advice.cost.storage", alias "storage-local-copy",
        "Copy the dataset to local NVMe (or read it from there) instead of a slow disk or network";
    PackShards "pack-shards" => Software, Nothing,
        cost "advice.cost.storage", alias "use-shards",
        "Pack many small files into large shards (WebDataset tar, TFRecord, Arrow) or a \
         memory-mapped format";
    PreResize "pre-resize" => Software, Fidelity,
        cost "advice.cost.smaller_images",
        "Store the images pre-resized to near the training resolution";
    GpuDecode "gpu-decode" => Software, Nothing,
        cost "advice.cost.gpu_decode", alias "gpu-data-loading",
        "Decode and augment on the GPU (NVIDIA DALI, torchvision.io.decode_jpeg on CUDA)";
    LargerRuntime "larger-runtime" => Cloud, Money,
        cost "advice.cost.money",
        "A hosted notebook (Colab, Kaggle): a runtime with more RAM";
    StreamDataset "stream-dataset" => Software, Nothing,
        cost "advice.cost.storage",
        "Stream or memory-map the dataset instead of holding it in RAM";
    RaiseLimit "raise-limit" => Os, Nothing,
        cost "advice.cost.os",
        "Raise the container / job memory limit";
    BudgetUnifiedPool "budget-unified-pool" => Software, Nothing,
        cost "advice.cost.workers",
        "Plan model, data and OS against one shared pool";
    InstallDriver "install-driver" => Os, Nothing,
        cost "advice.cost.os",
        "Install or repair the NVIDIA driver so NVML can report VRAM";
    LowerSwappiness "lower-swappiness" => Os, Nothing,
        cost "advice.cost.os",
        "Set `vm.swappiness` to 10–20";
    CheckPcieSlot "check-pcie-slot" => Hardware, Nothing,
        cost "advice.cost.os",
        "Reseat the GPU / check the slot, riser and BIOS link settings";
    TryFittingPlan "try-fitting-plan" => Setting, Nothing,
        cost "advice.cost.workers",
        "Switch to a training plan that fits: a pointer to the ranked list";
    SetNumWorkers "set-num-workers" => Setting, Nothing,
        cost "advice.cost.workers",
        "Set `num_workers` to the recommended value";
    PinMemory "pin-memory" => Setting, Nothing,
        cost "advice.cost.workers",
        "Turn on `pin_memory`";
    PopulateChannels "populate-channels" => Hardware, Money,
        cost "advice.cost.money",
        "Install modules so every memory channel is populated";
    MatchModules "match-modules" => Hardware, Money,
        cost "advice.cost.money",
        "Use identical modules in every channel";
    NoWorkerCountFits "no-worker-count-fits" => Setting, Nothing,
        cost "advice.cost.workers",
        "No `num_workers` value fits: the other levers (listed with their numbers) or RAM";
    CheckDataLoader "check-data-loader" => Setting, Nothing,
        cost "advice.cost.workers",
        "Look at the data loader first: the GPU idles between batches (live diagnosis)";
    SeeWorkloadChanges "see-workload-changes" => Setting, Nothing,
        cost "advice.cost.workers",
        "The data-loading changes are in the ranked list, each with its predicted utilisation, in \
         place of canned advice";
    PreferNoSysmemFallback "prefer-no-sysmem-fallback" => Os, Nothing,
        cost "advice.cost.os",
        "Windows: \"Prefer No Sysmem Fallback\" for python.exe in the NVIDIA Control Panel";
    /// The OS and every other program keep what the GPU no longer may take.
    RaiseGpuWiredLimit "raise-gpu-wired-limit" => Os, Nothing,
        cost "advice.cost.os",
        "Apple Silicon: raise the GPU's share of unified memory (`sudo sysctl \
         iogpu.wired_limit_mb=…`, until the next reboot)";
    /// The batches in flight stay in `/dev/shm` (RAM too) but leave the pinned allocator's
    /// power-of-two blocks; copies to the GPU take an extra staging copy.
    UnpinMemory "unpin-memory" => Setting, Speed,
        cost "advice.cost.pageable",
        "Turn off `pin_memory`, so the batches in flight aren't held in page-locked memory too";
    /// Found by searching the three together when no one of them fits alone with as large a
    /// batch (`advisor::workload::loader_levers`).
    FitLoaderSettings "fit-loader-settings" => Setting, Speed,
        cost "advice.cost.fewer",
        "The DataLoader settings that fit together: the largest batch, then pinned memory, then \
         the largest `prefetch_factor`";
    /// The job may then take both sockets' memory; its threads reach the far node's RAM over
    /// the socket link.
    DropNumaBinding "drop-numa-binding" => Os, Nothing,
        cost "advice.cost.os",
        "Drop the NUMA memory binding (`numactl -m NODE`): bind to every node or interleave \
         (`numactl --interleave=all`)";
    /// What the GPU may then map, the OS and every other program lose.
    RaiseGttLimit "raise-gtt-limit" => Os, Nothing,
        cost "advice.cost.os",
        "AMD APU: raise the GPU's GTT limit (`amdgpu.gttsize`, `ttm.pages_limit`) or the BIOS \
         carve-out";
    /// vLLM claims that share of the whole unified pool; the rest is left to the OS and the
    /// host side. Before vLLM 0.34 the share must also fit the memory free at start.
    LowerGpuMemoryUtilization "lower-gpu-memory-utilization" => Setting, Nothing,
        cost "advice.cost.os",
        "vLLM: a lower `gpu_memory_utilization`, so the OS and the host side of a unified pool \
         keep the rest, and (before 0.34) the memory free at start holds it";
    /// Each rank writes its shard: no rank gathers the whole state in CPU RAM.
    SaveSharded "save-sharded" => Setting, Nothing,
        cost "advice.cost.save",
        "Save a sharded checkpoint (`SHARDED_STATE_DICT` through torch.distributed.checkpoint, \
         DeepSpeed's ZeRO checkpoint) instead of a full state dict gathered in CPU RAM";
    /// Only rank 0 holds the gathered copy; the file is the same.
    SaveOnRank0Only "save-on-rank0-only" => Setting, Nothing,
        cost "advice.cost.save",
        "Gather the full state dict on rank 0 only (`rank0_only=True` with \
         `offload_to_cpu=True`)";
    /// Each rank reads only what it keeps (resharding to the new world size as it reads).
    ResumePerRank "resume-per-rank" => Setting, Nothing,
        cost "advice.cost.save",
        "Resume with each rank reading only its own part (torch.distributed.checkpoint, \
         DeepSpeed's universal checkpoint) instead of every rank loading everything";
    DiffusersCpuOffload "diffusers-cpu-offload" => Setting, Speed,
        cost "advice.cost.diffusers_offload",
        "diffusers `enable_model_cpu_offload()` (one component on the GPU at a time) or \
         `enable_sequential_cpu_offload()` (one submodule at a time)";
    VaeTiling "vae-tiling" => Setting, Fidelity,
        cost "advice.cost.vae_tiling",
        "diffusers `enable_vae_tiling()`: the VAE decodes the image in tiles";
    DiffusersFolder "diffusers-folder" => Setting, Nothing,
        cost "advice.cost.use_safetensors",
        "Load the pipeline's diffusers folder (memory-mapped safetensors per component) instead \
         of an all-in-one checkpoint read whole";
}
