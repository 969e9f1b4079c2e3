//! The knob table's types: a knob's id, its row ([`Knob`]: flag, fields, unit and parser,
//! range, default and its source, labels, plan) and a typed value ([`KnobValue`]).

use crate::i18n::Msg;

/// Which plan a knob belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Plan {
    /// The data-loading workload ([`crate::advisor::workload::Workload`]).
    Workload,
    /// The training plan ([`crate::advisor::training::TrainingPlan`]).
    Training,
    /// The model and its GPUs, read by the training and the inference planners alike (the
    /// model's size and shape, GPUs per node); stored in the training plan.
    Model,
    /// The model served ([`crate::advisor::inference::InferencePlan`]).
    Inference,
    /// The machine itself ([`crate::advisor::whatif::MachineChange`]).
    Machine,
}

/// How a knob's value is written on the command line, and which parser reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A plain whole number that fits 32 bits (`8`).
    U32,
    /// A plain whole number (`4096`).
    U64,
    /// A count with optional units ([`crate::parse::parse_count`]: `7B`, `350M`, `1e8`).
    Count,
    /// Bytes with units ([`crate::parse::parse_size`]: `2TB`, `500GiB`, `64MiB`).
    Size,
    /// `WIDTHxHEIGHT` in pixels ([`crate::parse::parse_resolution`]: `3840x2160`).
    Resolution,
    /// One of these names, as the command line spells them.
    Choice(&'static [&'static str]),
    /// `true` or `false`; the flag alone means `true` (`--pin-memory`, `--pin-memory false`).
    Bool,
    /// A switch: the flag alone turns it on; absent is off.
    Switch,
    /// A decimal number (`2500`, `0.9`).
    Float,
    /// A share of a whole: `0.01` or `1%`, above 0 and at most 1.
    Share,
}

/// The values a knob takes, for range errors and the window's sliders. A value outside is an
/// error naming the flag (or the field, in a scenario file).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// `min` itself is refused (a rate above zero: `--gpu-demand`, `--decode-rate`).
    pub above_min: bool,
    /// `0` on the command line is refused as zero ("must not be 0") before the range is
    /// checked (`--batch-size 0`).
    pub zero_refused: bool,
}

impl Range {
    /// Whole numbers from `min` to `max`.
    pub const fn whole(min: u64, max: u64) -> Range {
        Range {
            min: min as f64,
            max: max as f64,
            above_min: false,
            zero_refused: false,
        }
    }

    /// Whole numbers from 1 to `max`, where 0 is refused as zero.
    pub const fn positive(max: u64) -> Range {
        Range {
            min: 1.0,
            max: max as f64,
            above_min: false,
            zero_refused: true,
        }
    }

    /// Numbers above 0 and at most `max`.
    pub const fn above_zero(max: f64) -> Range {
        Range {
            min: 0.0,
            max,
            above_min: true,
            zero_refused: false,
        }
    }
}

/// Where a knob's value comes from when it isn't given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultSource {
    /// The base preset (`--workload`, else `generic`; `--preset` or `--model`).
    Preset,
    /// PyTorch's own default (`DataLoader(prefetch_factor=2)`).
    PyTorch,
    /// The machine: its largest local disk, its GPU count.
    Machine,
    /// Derived from other knobs (the crop, the dataset size ÷ the file size).
    Derived,
    /// A stated assumption of the model (`docs/model.md`).
    Assumption,
    /// DeepSpeed's own default (`offload_param.buffer_count = 5`).
    DeepSpeed,
    /// The serving engine's own default (vLLM's `--gpu-memory-utilization 0.9`).
    Engine,
    /// Off, none or unchanged unless given.
    Off,
}

/// The knob's label in the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// A message from the locale files.
    Text(Msg),
    /// A width and a height, each with its message (`WIDTHxHEIGHT` knobs).
    Sides(Msg, Msg),
    /// The knob's field name itself: a PyTorch keyword (`num_workers`), the same in every
    /// language.
    Keyword,
}

/// Every knob, by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum KnobId {
    // The data-loading workload.
    DatasetSize,
    Samples,
    ImageSize,
    Crop,
    Stored,
    SampleBytes,
    Dtype,
    BatchSize,
    NumWorkers,
    PrefetchFactor,
    PinMemory,
    PersistentWorkers,
    Augmentation,
    DataFormat,
    DecodeOn,
    GpuDemand,
    ConcurrentExperiments,
    Storage,
    DecodeRate,
    Cache,
    CacheSize,
    CacheDtype,
    CacheScope,
    IndexBytes,
    // The training plan.
    Params,
    LargestLayerParams,
    Precision,
    Optimizer,
    Strategy,
    ZeroStage,
    OffloadOptimizer,
    OffloadParam,
    ZeroInit,
    OptimizerInBackward,
    GpusPerNode,
    Nodes,
    Finetune,
    LoraShare,
    SeqLen,
    MicroBatch,
    Checkpointing,
    EagerAttention,
    Layers,
    HiddenSize,
    Heads,
    Loading,
    CheckpointDtype,
    SaveStateDict,
    ResumeLoad,
    ResumeWorldSize,
    NvmeBufferCount,
    NvmeBufferSize,
    NvmeMaxInCpu,
    NvmeOptimizerBufferCount,
    AioBlockSize,
    AioQueueDepth,
    AioThreadCount,
    // The model served.
    Weights,
    ContextLen,
    ConcurrentSequences,
    KvHeads,
    KvCacheDtype,
    GpuMemoryUtilization,
    /// vLLM's release (`--vllm-version`).
    VllmVersion,
    SwapSpace,
    CpuOffloadGb,
    KvCacheMemoryBytes,
    KvOffloadingSize,
    NGpuLayers,
    ExpertsOnCpu,
    NCpuMoe,
    CacheTypeK,
    CacheTypeV,
    FlashAttn,
    UbatchSize,
    CheckpointFiles,
    CheckpointShardSize,
    DiffusionResolution,
    DiffusionImages,
    DiffusionOffload,
    AttentionSlicing,
    VaeTiling,
    SingleFile,
    // The machine.
    ShmSize,
    WslMemory,
    Ram,
    Swap,
    MemoryLimit,
    GpuWiredLimit,
    PageFile,
    Gtt,
    NumaBind,
}

/// One knob: everything the command line, the scenario file, the window and the docs need to
/// know about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    /// Its id.
    pub id: KnobId,
    /// The plan it belongs to.
    pub plan: Plan,
    /// The `advise` flag, without `--` (`num-workers`). Its clap id and its help key
    /// (`clihelp.advise.<id>`) are the flag with `_` for `-` ([`Knob::arg_id`]).
    pub flag: &'static str,
    /// The field(s) of the plan's JSON (scenario file, `advise --json`) it sets: one, or a
    /// width and a height (`width`, `height`).
    pub fields: &'static [&'static str],
    /// Its unit and parser.
    pub kind: Kind,
    /// The values it takes; `None` when any value of its kind is fine.
    pub range: Option<Range>,
    /// Its default as the flag would take it (`2`), when it is a fixed value.
    pub default: Option<&'static str>,
    /// Where the default comes from.
    pub source: DefaultSource,
    /// Its label in the window; `None` where the window has no control for it.
    pub label: Option<Label>,
    /// The command line's note on the base preset names its value when the preset gave it
    /// ("taken from it: `--num-workers 8`").
    pub in_base_note: bool,
}

impl Knob {
    /// The clap id of its flag and the last part of its help key: the flag with `_` for `-`
    /// (`num_workers`).
    pub fn arg_id(&self) -> String {
        self.flag.replace('-', "_")
    }

    /// Its help text's key in `locales/*/clihelp.toml` (`clihelp.advise.num_workers`).
    pub fn help_key(&self) -> String {
        format!("clihelp.advise.{}", self.arg_id())
    }

    /// The value names of a choice knob (empty for others).
    pub fn choices(&self) -> &'static [&'static str] {
        match self.kind {
            Kind::Choice(names) => names,
            _ => &[],
        }
    }
}

/// A knob's value, typed by its [`Kind`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KnobValue {
    /// A whole number: a count, bytes ([`Kind::Size`]), a plain integer.
    Whole(u64),
    /// Width and height, pixels.
    Pair(u32, u32),
    /// One of the knob's value names ([`Knob::choices`]).
    Choice(&'static str),
    /// On or off ([`Kind::Bool`], [`Kind::Switch`]).
    Bool(bool),
    /// A decimal number or a share.
    Float(f64),
}

/// One knob set to one value: what a recommendation changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// The knob.
    pub knob: KnobId,
    /// Its new value.
    pub value: KnobValue,
}
