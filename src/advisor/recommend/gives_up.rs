//! What each kind of change costs the user: the ranking's first key. One table, so the window,
//! the terminal, the reports and the JSON put the same change in the same class.

use super::{GivesUp, RecommendationId};

/// The class of `id` ([`GivesUp`]). Reasoning per class in `docs/model.md` § "Ranking":
/// - nothing: loading methods (the same weights arrive on the GPUs), safetensors and smaller
///   shards, dropping an offload the GPUs don't need, OS limits (`/dev/shm`, WSL's `memory=`,
///   Apple's wired limit), workers and prefetching that only change how much is in flight,
///   the index held as arrays, a local copy or shards of the same data;
/// - speed: offloading to CPU RAM or NVMe, ZeRO-3's extra all-gathers, checkpointing's
///   recomputation (about a third more compute), fewer workers, a smaller batch (more steps),
///   swap, layers kept in host RAM, no decoded cache (decoding again each epoch);
/// - fidelity: LoRA/QLoRA (a different set of trained weights), quantised weights or KV cache,
///   a shorter context, smaller stored or cached images;
/// - money: modules, a larger instance or runtime, a new machine.
pub fn gives_up(id: RecommendationId) -> GivesUp {
    use RecommendationId as R;
    match id {
        R::LoadOnRank0
        | R::MetaDeviceInit
        | R::ZeroInit
        | R::LowCpuMemUsage
        | R::DropOffload
        | R::UseSafetensors
        | R::ReshardCheckpoint
        | R::WslMemoryLimit
        | R::ShmSize
        | R::IncreaseNumWorkers
        | R::ReducePrefetchFactor
        | R::IndexAsArrays
        | R::ReduceSwapSpace
        | R::StorageLocalCopy
        | R::PackShards
        | R::GpuDecode => GivesUp::Nothing,
        R::Zero3InsteadOfZero2
        | R::OffloadOptimizerToCpu
        | R::OffloadParamsToCpu
        | R::OffloadToNvme
        | R::GradientCheckpointing
        | R::AddSwap
        | R::GrowPageFile
        | R::ReduceNumWorkers
        | R::ReduceBatchSize
        | R::CacheOnDisk
        | R::NoCache
        | R::CpuOffloadGb
        | R::GpuLayers
        | R::DeviceMapOffload => GivesUp::Speed,
        R::Lora
        | R::Qlora
        | R::ShardedQlora
        | R::QuantizeWeights
        | R::KvCacheFp8
        | R::ReduceContext
        | R::SmallerCacheImages
        | R::PreResize => GivesUp::Fidelity,
        R::AddRam
        | R::LargerInstance
        | R::OtherInstance
        | R::NewMachine
        | R::RaiseVmMemory
        | R::LargerRuntime => GivesUp::Money,
    }
}
