//! Words for the workload simulator.

use crate::advisor::workload::view::PipelineView;
use crate::advisor::workload::{
    Augmentation, BudgetItemId, CacheMode, CacheScope, DataFormat, DecodeOn, Inert, StageId,
    Workload, WorkloadResult,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::Provenance;

/// A preset's display name.
pub fn preset_name(lang: Lang, id: &str) -> &'static str {
    tr(
        lang,
        match id {
            "imagenet-resnet50" => Msg::WorkPresetImagenet,
            "seed-4k-medical" => Msg::WorkPresetSeed4k,
            "t2i-1024-multiscale" => Msg::WorkPresetT2i,
            "llm-token-shards" => Msg::WorkPresetLlm,
            "coco-detector" => Msg::WorkPresetDetector,
            _ => Msg::DataloaderPresetGeneric,
        },
    )
}

/// The preset a workload names, as it stands: its name while untouched, "based on 4K medical
/// images, changed: num_workers" once an input differs
/// ([`crate::advisor::workload::presets::basis`]). `None` when it names no preset this version
/// knows. The window's preset chips, the terminal and the report use it.
pub fn preset_basis(lang: Lang, w: &crate::advisor::workload::Workload) -> Option<String> {
    let b = crate::advisor::workload::presets::basis(w)?;
    let name = preset_name(lang, &b.id);
    Some(if b.changed.is_empty() {
        name.to_string()
    } else {
        trf(
            lang,
            Msg::PresetBasedOn,
            &[
                ("name", name),
                (
                    "fields",
                    &super::join(lang, &changed_labels(lang, &b.changed)),
                ),
            ],
        )
    })
}

/// The inputs changed from a preset (JSON field names, `dataset_bytes`, `width`) in the
/// user's words: each one's label in the window ("Dataset size", "Width"), a DataLoader
/// keyword as PyTorch spells it (`num_workers`), else its `advise` flag; each named once.
pub fn changed_labels(lang: Lang, fields: &[String]) -> Vec<String> {
    use crate::advisor::knobs::{self, Label};
    let mut out: Vec<String> = Vec::new();
    for field in fields {
        let label = match knobs::of_field(knobs::WORKLOAD, field) {
            Some(k) => match k.label {
                Some(Label::Text(m)) => tr(lang, m).to_string(),
                Some(Label::Sides(w, h)) => tr(
                    lang,
                    if k.fields.first() == Some(&field.as_str()) {
                        w
                    } else {
                        h
                    },
                )
                .to_string(),
                Some(Label::Keyword) => field.clone(),
                None => format!("--{}", k.flag),
            },
            None => field.replace('_', " "),
        };
        if !out.contains(&label) {
            out.push(label);
        }
    }
    out
}

/// Augmentation level.
pub fn augmentation(lang: Lang, a: Augmentation) -> &'static str {
    tr(
        lang,
        match a {
            Augmentation::None => Msg::WorkAugNone,
            Augmentation::Light => Msg::WorkAugLight,
            Augmentation::Heavy => Msg::WorkAugHeavy,
        },
    )
}

/// Dataset layout.
pub fn data_format(lang: Lang, f: DataFormat) -> &'static str {
    tr(
        lang,
        match f {
            DataFormat::Files => Msg::WorkFormatFiles,
            DataFormat::Shards => Msg::WorkFormatShards,
            DataFormat::Mmap => Msg::WorkFormatMmap,
            DataFormat::InRam => Msg::WorkFormatInRam,
        },
    )
}

/// Where decoding happens.
pub fn decode_on(lang: Lang, d: DecodeOn) -> &'static str {
    tr(
        lang,
        match d {
            DecodeOn::Cpu => Msg::WorkDecodeCpu,
            DecodeOn::Gpu => Msg::WorkDecodeGpu,
        },
    )
}

/// What is cached in RAM.
pub fn cache_mode(lang: Lang, c: CacheMode) -> &'static str {
    tr(
        lang,
        match c {
            CacheMode::None => Msg::DataloaderCacheNone,
            CacheMode::StoredInRam => Msg::DataloaderCacheStored,
            CacheMode::DecodedInRam => Msg::DataloaderCacheDecoded,
        },
    )
}

/// Who holds the cache.
pub fn cache_scope(lang: Lang, c: CacheScope) -> &'static str {
    tr(
        lang,
        match c {
            CacheScope::Shared => Msg::DataloaderScopeShared,
            CacheScope::PerRank => Msg::DataloaderScopePerRank,
            CacheScope::PerWorker => Msg::DataloaderScopePerWorker,
        },
    )
}

/// Why an input can't change the result.
pub fn inert_reason(lang: Lang, i: Inert) -> &'static str {
    tr(
        lang,
        match i {
            Inert::ImagesHaveASize => Msg::DataloaderInertImagesHaveASize,
            Inert::NotImages => Msg::DataloaderInertNotImages,
            Inert::NoWorkers => Msg::DataloaderInertNoWorkers,
            Inert::GpuDecode => Msg::DataloaderInertGpuDecode,
            Inert::DecodedCache => Msg::DataloaderInertDecodedCache,
            Inert::NoDecodedCache => Msg::DataloaderInertNoDecodedCache,
            Inert::NoCache => Msg::DataloaderInertNoCache,
            Inert::NotPerWorkerCache => Msg::DataloaderInertNotPerWorkerCache,
            Inert::CachedInRam => Msg::DataloaderInertCachedInRam,
        },
    )
}

/// The decode rate the utilisation rests on: when it is the built-in default, that it is
/// assumed, with the utilisation at half and double the rate and how to measure it; else the
/// rate given. `w` is the workload simulated, `p` the assessment's pipeline
/// ([`crate::advisor::Assessment::pipeline`]). `None` when nothing is decoded on the CPU.
pub fn decode_assumption(lang: Lang, w: &Workload, p: &PipelineView) -> Option<String> {
    let source = p.decode_source.filter(|_| p.with_workload)?;
    let rate = super::bench::mpix(p.decode_mpix_per_core);
    let flat = |low: f64, high: f64| (high - low).abs() < 5e-4;
    Some(
        match (
            source,
            p.utilization_at_half_decode_rate,
            p.utilization_at_double_decode_rate,
        ) {
            (Provenance::Default, Some(low), Some(high)) if flat(low, high) => trf(
                lang,
                Msg::DataloaderDecodeAssumedFlat,
                &[
                    ("rate", &rate),
                    ("value", &format::percent(low)),
                    ("width", &w.width.to_string()),
                    ("height", &w.height.to_string()),
                ],
            ),
            (Provenance::Default, Some(low), Some(high)) => trf(
                lang,
                Msg::DataloaderDecodeAssumed,
                &[
                    ("rate", &rate),
                    ("low", &format::percent(low)),
                    ("high", &format::percent(high)),
                    ("width", &w.width.to_string()),
                    ("height", &w.height.to_string()),
                ],
            ),
            _ => trf(lang, Msg::DataloaderDecodeGiven, &[("rate", &rate)]),
        },
    )
}

/// A RAM budget part, in the words of the workers' start method (spawn has no /dev/shm).
pub fn budget_item(
    lang: Lang,
    id: BudgetItemId,
    start: crate::profile::StartMethod,
) -> &'static str {
    let spawn = start == crate::profile::StartMethod::Spawn;
    tr(
        lang,
        match id {
            BudgetItemId::WorkerIndexCopies if spawn => Msg::WindowsWorkloadItemIndex,
            BudgetItemId::PrefetchedBatches if spawn => Msg::WindowsWorkloadItemPrefetch,
            BudgetItemId::Os => Msg::WorkItemOs,
            BudgetItemId::MainProcess => Msg::WorkItemMain,
            BudgetItemId::Workers => Msg::WorkItemWorkers,
            BudgetItemId::WorkerIndexCopies => Msg::WorkItemIndex,
            BudgetItemId::DecodeBuffers => Msg::WorkItemDecode,
            BudgetItemId::PrefetchedBatches => Msg::WorkItemPrefetch,
            BudgetItemId::PinnedStaging => Msg::WorkItemPinned,
            BudgetItemId::DatasetInRam => Msg::WorkItemDataset,
            BudgetItemId::PageCache => Msg::WorkItemCache,
            BudgetItemId::LoaderMain => Msg::DataloaderItemLoaderMain,
            BudgetItemId::DecodedCache => Msg::DataloaderItemDecodedCache,
        },
    )
}

/// A pipeline stage.
pub fn stage(lang: Lang, id: StageId) -> &'static str {
    tr(
        lang,
        match id {
            StageId::StorageRead => Msg::WorkStageStorage,
            StageId::RamBandwidth => Msg::WorkStageRam,
            StageId::Decode => Msg::WorkStageDecode,
            StageId::PcieHostToDevice => Msg::WorkStagePcie,
            StageId::GpuDemand => Msg::WorkStageDemand,
        },
    )
}

/// Why a stage has no rate: the dataset is cached (storage), or a figure is unknown.
pub fn stage_not_limiting(lang: Lang, id: StageId) -> String {
    tr(
        lang,
        if id == StageId::StorageRead {
            Msg::WorkStageCached
        } else {
            Msg::WorkStageUnknown
        },
    )
    .to_string()
}

/// The RAM budget as rows of (item, size in GiB), in the simulator's order: what the terminal,
/// the report and the Data loading page list under "RAM budget".
pub fn budget_rows(lang: Lang, r: &WorkloadResult) -> Vec<(&'static str, String)> {
    let b = &r.memory_budget;
    b.items
        .iter()
        .map(|i| {
            (
                budget_item(lang, i.id, b.start_method),
                format::gib(i.bytes),
            )
        })
        .collect()
}

/// The working set against RAM in one line: "working set 41.2 GiB of 64.0 GiB RAM" (RAM
/// "unknown" when not detected).
pub fn ram_bar_label(lang: Lang, r: &WorkloadResult) -> String {
    let b = &r.memory_budget;
    let working = format::gib(b.working_set_bytes);
    let ram = format::gib_or_unknown(lang, b.usable_ram_bytes);
    match b.headroom_bytes.filter(|h| *h < 0) {
        Some(h) => trf(
            lang,
            Msg::WorkRamBarLabelOver,
            &[
                ("working", &working),
                ("ram", &ram),
                ("over", &format::gib(h.unsigned_abs())),
            ],
        ),
        None => trf(
            lang,
            Msg::WorkRamBarLabel,
            &[("working", &working), ("ram", &ram)],
        ),
    }
}

/// The evaluation pause in one line: the working set with every loader's queue full against
/// RAM, then each loader's waiting batches, pinned and /dev/shm bytes. `None` for a result
/// without it (assessments written before it existed).
pub fn pause_line(lang: Lang, r: &WorkloadResult) -> Option<String> {
    use crate::advisor::workload::LoaderRole;
    let p = r.evaluation_pause.as_ref()?;
    let loaders: Vec<String> = p
        .loaders
        .iter()
        .map(|l| {
            trf(
                lang,
                // Spawned workers (Windows, macOS) pass batches through shared memory that
                // isn't `/dev/shm`.
                if r.start_method == crate::profile::StartMethod::Spawn {
                    Msg::WorkPauseLoaderShared
                } else {
                    Msg::WorkPauseLoader
                },
                &[
                    (
                        "loader",
                        tr(
                            lang,
                            match l.role {
                                LoaderRole::Training => Msg::WorkPauseTraining,
                                LoaderRole::Validation => Msg::WorkPauseValidation,
                            },
                        ),
                    ),
                    ("batches", &l.queued_batches.to_string()),
                    ("pinned", &format::gib(l.pinned_bytes)),
                    ("shm", &format::gib(l.shm_bytes)),
                ],
            )
        })
        .collect();
    Some(trf(
        lang,
        Msg::WorkPauseLine,
        &[
            ("working", &format::gib(p.working_set_bytes)),
            (
                "ram",
                &format::gib_or_unknown(lang, r.memory_budget.usable_ram_bytes),
            ),
            ("loaders", &loaders.join(tr(lang, Msg::WorkPauseJoin))),
        ],
    ))
}

/// A stage's rate, the same in every view: "1,234 samples/s", or why it has none ("cached" for
/// storage, "unknown" otherwise; [`stage_not_limiting`]). `samples_per_s` is the simulator's
/// samples per second for the stage.
pub fn stage_rate(lang: Lang, id: StageId, samples_per_s: Option<f64>) -> String {
    samples_per_s.map_or_else(|| stage_not_limiting(lang, id), |v| format::rate(lang, v))
}

/// The pipeline as rows of (stage name, rate), storage first: what the terminal, the report's
/// workload section and the Data loading page list under "Pipeline". `p` is the assessment's
/// pipeline ([`crate::advisor::Assessment::pipeline`]).
pub fn stage_rows(lang: Lang, p: &PipelineView) -> Vec<(&'static str, String)> {
    p.stages
        .iter()
        .map(|s| (stage(lang, s.id), stage_rate(lang, s.id, s.samples_per_s)))
        .collect()
}

/// One sentence naming the narrowest stage of the simulated pipeline `p`, in numbers: the
/// stage that starves the GPUs with its rate and their demand, or that none does.
pub fn bottleneck_sentence(lang: Lang, p: &PipelineView) -> String {
    let demand = format::rate(lang, p.rate(StageId::GpuDemand).unwrap_or(0.0));
    if !p.demand_given {
        // A placeholder demand is not compared against: the narrowest supply, and how to give one.
        let narrowest = p.narrowest.map_or_else(
            || format::unknown(lang).to_string(),
            |id| {
                format!(
                    "{} ({})",
                    stage(lang, id),
                    format::rate(lang, p.rate(id).unwrap_or(0.0))
                )
            },
        );
        return trf(lang, Msg::WorkDemandUnknown, &[("narrowest", &narrowest)]);
    }
    match p.bottleneck() {
        Some(id) => {
            let supply = p.rate(id).unwrap_or(0.0);
            trf(
                lang,
                Msg::WorkBottleneck,
                &[
                    ("stage", stage(lang, id)),
                    ("supply", &format::rate(lang, supply)),
                    ("demand", &demand),
                ],
            )
        }
        None => trf(lang, Msg::WorkNoBottleneck, &[("demand", &demand)]),
    }
}

/// A workload in one line: "4K medical images (seed article) · 2,000 GB · 3840×2160 → 512² ·
/// batch_size 32 · num_workers 8 · prefetch_factor 2 · light augmentation". The terminal and the
/// report's "What this report assesses" use it.
pub fn summary(lang: Lang, w: &crate::advisor::workload::Workload) -> String {
    let mut parts = Vec::new();
    if let Some(p) = preset_basis(lang, w) {
        parts.push(p);
    }
    parts.push(format::gb(w.dataset_bytes));
    parts.push(if w.width > 0 {
        format!("{}×{} → {}²", w.width, w.height, w.crop)
    } else {
        format::gib(w.decoded_bytes())
    });
    parts.push(format!("batch_size {}", w.batch_size));
    parts.push(format!("num_workers {}", w.num_workers));
    parts.push(format!("prefetch_factor {}", w.prefetch_factor));
    parts.push(augmentation(lang, w.augmentation).to_string());
    parts.join(" · ")
}

/// Under spawn (Windows, macOS), what that does to the workers' memory, with its sources;
/// `None` under fork.
pub fn spawn_note(lang: Lang, r: &WorkloadResult) -> Option<String> {
    (r.start_method == crate::profile::StartMethod::Spawn).then(|| {
        trf(
            lang,
            Msg::WindowsWorkloadSpawn,
            &[(
                "worker",
                &format::gib(crate::advisor::workload::WORKER_SPAWN_BASE_BYTES),
            )],
        )
    })
}
