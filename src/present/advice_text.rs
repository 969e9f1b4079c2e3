//! The words of each piece of advice ([`AdviceId`]): its title as a ranked change
//! (`advice.<id>.title`, filled from the change's values) and its sentence as a finding's
//! advice (`advice.<id>.finding`, filled from the finding's values). An id the recommender
//! never ranks has no title, and one no finding carries has no finding sentence: the other
//! text stands in, so every id has words in both languages (`tests/advice_ids.rs`).

use crate::advisor::AdviceId;
use crate::i18n::Msg;

/// The title's message for a ranked change (`advice.<id>.title`); for an id only a finding
/// carries, its finding sentence.
pub fn title_msg(id: AdviceId) -> Msg {
    title(id).unwrap_or_else(|| finding_msg(id))
}

/// A finding's advice sentence for `id` (`advice.<id>.finding`), in its plain variant; for an
/// id only the recommender ranks, its title. [`finding_variant_msg`] picks the WSL wording.
pub fn finding_msg(id: AdviceId) -> Msg {
    finding(id).unwrap_or_else(|| title(id).unwrap_or(Msg::RecommendationSection))
}

/// What is known of Windows' RAM, which words WSL's `memory=` advice
/// ([`AdviceId::WslRaiseMemory`]) as a finding: one change, three texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowsRamKnown {
    /// Entered in the profile: the figures are exact.
    Entered,
    /// Estimated from WSL's default cap (half of Windows' RAM).
    Estimated,
    /// Unknown: it can't be read from inside WSL.
    Unknown,
}

/// The finding sentence for `id`, with WSL's wording chosen by what is known of Windows' RAM.
pub fn finding_variant_msg(id: AdviceId, windows_ram: WindowsRamKnown) -> Msg {
    match (id, windows_ram) {
        (AdviceId::WslRaiseMemory, WindowsRamKnown::Estimated) => {
            Msg::AdviceWslRaiseMemoryFindingEstimated
        }
        (AdviceId::WslRaiseMemory, WindowsRamKnown::Unknown) => {
            Msg::AdviceWslRaiseMemoryFindingUnknown
        }
        _ => finding_msg(id),
    }
}

/// `advice.<id>.title`, where the id has one.
pub fn title(id: AdviceId) -> Option<Msg> {
    use AdviceId as A;
    Some(match id {
        A::LoadOnRank0 => Msg::AdviceLoadOnRank0Title,
        A::MetaDeviceInit => Msg::AdviceMetaDeviceInitTitle,
        A::ZeroInit => Msg::AdviceZeroInitTitle,
        A::LowCpuMemUsage => Msg::AdviceLowCpuMemUsageTitle,
        A::ShardedQlora => Msg::AdviceShardedQloraTitle,
        A::Zero3InsteadOfZero2 => Msg::AdviceZero3InsteadOfZero2Title,
        A::OffloadOptimizerToCpu => Msg::AdviceOffloadOptimizerToCpuTitle,
        A::OffloadParamsToCpu => Msg::AdviceOffloadParamsToCpuTitle,
        A::OffloadToNvme => Msg::AdviceOffloadToNvmeTitle,
        A::GradientCheckpointing => Msg::AdviceGradientCheckpointingTitle,
        A::Lora => Msg::AdviceLoraTitle,
        A::Qlora => Msg::AdviceQloraTitle,
        A::AddSwap => Msg::AdviceAddSwapTitle,
        A::GrowPageFile => Msg::AdviceGrowPageFileTitle,
        A::WslRaiseMemory => Msg::AdviceWslRaiseMemoryTitle,
        A::GrowShm => Msg::AdviceGrowShmTitle,
        A::ReduceNumWorkers => Msg::AdviceReduceNumWorkersTitle,
        A::IncreaseNumWorkers => Msg::AdviceIncreaseNumWorkersTitle,
        A::ReducePrefetchFactor => Msg::AdviceReducePrefetchFactorTitle,
        A::ReduceBatchSize => Msg::AdviceReduceBatchSizeTitle,
        A::CacheOnDisk => Msg::AdviceCacheOnDiskTitle,
        A::NoCache => Msg::AdviceNoCacheTitle,
        A::IndexAsArrays => Msg::AdviceIndexAsArraysTitle,
        A::AddRam => Msg::AdviceAddRamTitle,
        A::LargerInstance => Msg::AdviceLargerInstanceTitle,
        A::OtherInstance => Msg::AdviceOtherInstanceTitle,
        A::NewMachine => Msg::AdviceNewMachineTitle,
        A::RaiseVmMemory => Msg::AdviceRaiseVmMemoryTitle,
        A::SmallerCacheImages => Msg::AdviceSmallerCacheImagesTitle,
        A::ReduceContext => Msg::AdviceReduceContextTitle,
        A::KvCacheFp8 => Msg::AdviceKvCacheFp8Title,
        A::CpuOffloadGb => Msg::AdviceCpuOffloadGbTitle,
        A::GpuLayers => Msg::AdviceGpuLayersTitle,
        A::DeviceMapOffload => Msg::AdviceDeviceMapOffloadTitle,
        A::QuantizeWeights => Msg::AdviceQuantizeWeightsTitle,
        A::ReduceSwapSpace => Msg::AdviceReduceSwapSpaceTitle,
        A::DropOffload => Msg::AdviceDropOffloadTitle,
        A::UseSafetensors => Msg::AdviceUseSafetensorsTitle,
        A::ReshardCheckpoint => Msg::AdviceReshardCheckpointTitle,
        A::CopyToLocalNvme => Msg::AdviceCopyToLocalNvmeTitle,
        A::PackShards => Msg::AdvicePackShardsTitle,
        A::PreResize => Msg::AdvicePreResizeTitle,
        A::GpuDecode => Msg::AdviceGpuDecodeTitle,
        A::LargerRuntime => Msg::AdviceLargerRuntimeTitle,
        A::StreamDataset
        | A::RaiseLimit
        | A::BudgetUnifiedPool
        | A::InstallDriver
        | A::LowerSwappiness
        | A::CheckPcieSlot
        | A::TryFittingPlan
        | A::SetNumWorkers
        | A::PinMemory
        | A::PopulateChannels
        | A::MatchModules
        | A::NoWorkerCountFits
        | A::CheckDataLoader
        | A::SeeWorkloadChanges
        | A::PreferNoSysmemFallback => return None,
    })
}

/// `advice.<id>.finding` (the plain variant), where a finding carries the id.
pub fn finding(id: AdviceId) -> Option<Msg> {
    use AdviceId as A;
    Some(match id {
        A::Lora => Msg::AdviceLoraFinding,
        A::AddSwap => Msg::AdviceAddSwapFinding,
        A::GrowPageFile => Msg::AdviceGrowPageFileFinding,
        A::WslRaiseMemory => Msg::AdviceWslRaiseMemoryFinding,
        A::GrowShm => Msg::AdviceGrowShmFinding,
        A::ReduceNumWorkers => Msg::AdviceReduceNumWorkersFinding,
        A::IncreaseNumWorkers => Msg::AdviceIncreaseNumWorkersFinding,
        A::IndexAsArrays => Msg::AdviceIndexAsArraysFinding,
        A::AddRam => Msg::AdviceAddRamFinding,
        A::LargerInstance => Msg::AdviceLargerInstanceFinding,
        A::NewMachine => Msg::AdviceNewMachineFinding,
        A::RaiseVmMemory => Msg::AdviceRaiseVmMemoryFinding,
        A::CopyToLocalNvme => Msg::AdviceCopyToLocalNvmeFinding,
        A::PackShards => Msg::AdvicePackShardsFinding,
        A::PreResize => Msg::AdvicePreResizeFinding,
        A::GpuDecode => Msg::AdviceGpuDecodeFinding,
        A::LargerRuntime => Msg::AdviceLargerRuntimeFinding,
        A::StreamDataset => Msg::AdviceStreamDatasetFinding,
        A::RaiseLimit => Msg::AdviceRaiseLimitFinding,
        A::BudgetUnifiedPool => Msg::AdviceBudgetUnifiedPoolFinding,
        A::InstallDriver => Msg::AdviceInstallDriverFinding,
        A::LowerSwappiness => Msg::AdviceLowerSwappinessFinding,
        A::CheckPcieSlot => Msg::AdviceCheckPcieSlotFinding,
        A::TryFittingPlan => Msg::AdviceTryFittingPlanFinding,
        A::SetNumWorkers => Msg::AdviceSetNumWorkersFinding,
        A::PinMemory => Msg::AdvicePinMemoryFinding,
        A::PopulateChannels => Msg::AdvicePopulateChannelsFinding,
        A::MatchModules => Msg::AdviceMatchModulesFinding,
        A::NoWorkerCountFits => Msg::AdviceNoWorkerCountFitsFinding,
        A::CheckDataLoader => Msg::AdviceCheckDataLoaderFinding,
        A::SeeWorkloadChanges => Msg::AdviceSeeWorkloadChangesFinding,
        A::PreferNoSysmemFallback => Msg::AdvicePreferNoSysmemFallbackFinding,
        A::LoadOnRank0
        | A::MetaDeviceInit
        | A::ZeroInit
        | A::LowCpuMemUsage
        | A::ShardedQlora
        | A::Zero3InsteadOfZero2
        | A::OffloadOptimizerToCpu
        | A::OffloadParamsToCpu
        | A::OffloadToNvme
        | A::GradientCheckpointing
        | A::Qlora
        | A::ReducePrefetchFactor
        | A::ReduceBatchSize
        | A::CacheOnDisk
        | A::NoCache
        | A::OtherInstance
        | A::SmallerCacheImages
        | A::ReduceContext
        | A::KvCacheFp8
        | A::CpuOffloadGb
        | A::GpuLayers
        | A::DeviceMapOffload
        | A::QuantizeWeights
        | A::ReduceSwapSpace
        | A::DropOffload
        | A::UseSafetensors
        | A::ReshardCheckpoint => return None,
    })
}
