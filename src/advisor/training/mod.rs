//! Training-memory planner: model-state memory per GPU, per node's CPU RAM and on NVMe for a
//! training plan (strategy, offload, precision, optimizer, LoRA/QLoRA), judged against a
//! machine. See `docs/model.md` § "Training memory" for every formula and its source.

mod estimate;
pub mod presets;
pub mod zero;

use serde::{Deserialize, Serialize};

pub use estimate::estimate;
pub use presets::{PRESETS, Preset, TransformerShape};

use super::capacity::{EffectiveRam, VramTotals};
use crate::profile::{DiskKind, MachineProfile};

/// Numeric precision of training.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Precision {
    /// Everything in fp32.
    Fp32,
    /// bf16/fp16 weights and gradients with fp32 master weights (mixed precision).
    #[default]
    Mixed16,
}

/// Optimizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Optimizer {
    /// Adam / AdamW: fp32 momentum and variance, 8 bytes per parameter.
    #[default]
    Adam,
    /// SGD with momentum: one fp32 buffer, 4 bytes per parameter.
    SgdMomentum,
    /// bitsandbytes 8-bit Adam: 8-bit momentum and variance, 2 bytes per parameter
    /// (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization").
    Adam8bit,
    /// Adafactor without momentum: factored second moments, O(rows + cols) per matrix,
    /// counted as 0 bytes per parameter (Shazeer & Stern 2018).
    Adafactor,
}

impl Optimizer {
    /// Optimizer-state bytes per parameter.
    pub fn state_bytes(self) -> f64 {
        match self {
            Optimizer::Adam => 8.0,
            Optimizer::SgdMomentum => 4.0,
            Optimizer::Adam8bit => 2.0,
            Optimizer::Adafactor => 0.0,
        }
    }
}

/// How model states are spread over GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Plain data parallel: every GPU holds everything.
    Ddp,
    /// ZeRO stage 1: optimizer states partitioned.
    Zero1,
    /// ZeRO stage 2: optimizer states and gradients partitioned.
    #[default]
    Zero2,
    /// ZeRO stage 3: parameters too.
    Zero3,
    /// PyTorch FSDP `FULL_SHARD` (ZeRO-3's partitioning).
    FsdpFullShard,
}

/// Where offloaded states go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum OffloadTarget {
    /// Stay on the GPU.
    #[default]
    None,
    /// CPU RAM (ZeRO-Offload, FSDP CPU offload).
    Cpu,
    /// NVMe (ZeRO-Infinity), ZeRO-3 only.
    Nvme,
}

/// Full training or a parameter-efficient method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum FineTune {
    /// All parameters trained.
    #[default]
    Full,
    /// LoRA: frozen 16-bit base, trained low-rank adapters (Hu et al. 2021).
    Lora,
    /// QLoRA: frozen 4-bit NF4 base, trained adapters (Dettmers et al. 2023).
    Qlora,
}

/// Optional activation estimate input (kept apart from model states).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationInput {
    /// Sequence length s (tokens).
    pub seq_len: u64,
    /// Micro-batch size b per GPU.
    pub micro_batch: u64,
    /// Full activation checkpointing (recompute everything but each layer's input).
    pub checkpointing: bool,
    /// Transformer shape; `None` takes the preset's.
    pub shape: Option<TransformerShape>,
}

/// A training plan: what the user wants to train, and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingPlan {
    /// Preset id this plan started from, if any.
    #[serde(default)]
    pub preset: Option<String>,
    /// Total parameters P.
    pub params: u64,
    /// Parameters of the largest layer L; `None` takes the preset's or an assumption.
    #[serde(default)]
    pub largest_layer_params: Option<u64>,
    /// Precision.
    #[serde(default)]
    pub precision: Precision,
    /// Optimizer.
    #[serde(default)]
    pub optimizer: Optimizer,
    /// Strategy.
    #[serde(default)]
    pub strategy: Strategy,
    /// Optimizer offload.
    #[serde(default)]
    pub offload_optimizer: OffloadTarget,
    /// Parameter offload.
    #[serde(default)]
    pub offload_param: OffloadTarget,
    /// DeepSpeed `zero.Init` (ZeRO-3: partition while constructing, no full copy per rank).
    #[serde(default)]
    pub zero_init: bool,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// Nodes.
    pub nodes: u32,
    /// Full training, LoRA or QLoRA.
    #[serde(default)]
    pub finetune: FineTune,
    /// Share of parameters LoRA trains (0–1). Default 1 % (assumption: LoRA on all linear
    /// layers of a 7B decoder at rank 16 trains about 0.6 %).
    #[serde(default = "default_lora_share")]
    pub lora_trainable_share: f64,
    /// Optional activation estimate.
    #[serde(default)]
    pub activations: Option<ActivationInput>,
}

fn default_lora_share() -> f64 {
    0.01
}

impl TrainingPlan {
    /// A plan for `params` parameters with defaults: mixed-precision Adam, ZeRO-2, no offload,
    /// full training, one GPU on one node.
    pub fn new(params: u64) -> TrainingPlan {
        TrainingPlan {
            preset: None,
            params,
            largest_layer_params: None,
            precision: Precision::default(),
            optimizer: Optimizer::default(),
            strategy: Strategy::default(),
            offload_optimizer: OffloadTarget::None,
            offload_param: OffloadTarget::None,
            zero_init: false,
            gpus_per_node: 1,
            nodes: 1,
            finetune: FineTune::Full,
            lora_trainable_share: default_lora_share(),
            activations: None,
        }
    }

    /// A plan from a preset (parameters, largest layer and shape from the model's publication).
    pub fn from_preset(p: &Preset) -> TrainingPlan {
        TrainingPlan {
            preset: Some(p.id.to_string()),
            largest_layer_params: Some(p.largest_layer),
            ..TrainingPlan::new(p.params)
        }
    }

    /// The preset this plan names.
    pub fn preset(&self) -> Option<&'static Preset> {
        self.preset.as_deref().and_then(presets::preset)
    }
}

/// An input that can't be right, naming the input (`params`, `largest_layer_params`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanError {
    /// Zero parameters.
    ParamsZero,
    /// Largest layer bigger than the model.
    LargestLayerTooBig,
    /// Zero GPUs per node.
    GpusZero,
    /// Zero nodes.
    NodesZero,
    /// Optimizer offload asked for with DDP or ZeRO-1, which this planner does not estimate.
    OffloadNeedsZero2,
    /// An activation estimate with a zero sequence length or micro-batch.
    ActivationsZero,
    /// NVMe offload needs ZeRO-3 (DeepSpeed allows NVMe offload only with stage 3).
    NvmeNeedsZero3,
    /// Parameter offload needs ZeRO-3 or FSDP.
    ParamOffloadNeedsZero3,
    /// FSDP's CPUOffload moves parameters, gradients and optimizer states together.
    FsdpOffloadTogether,
    /// LoRA share outside (0, 1].
    LoraShareOutOfRange,
}

impl PlanError {
    /// The input the error is about, as a scenario file names it (`training.<field>`).
    pub fn scenario_field(self) -> &'static str {
        match self {
            PlanError::ParamsZero => "params",
            PlanError::LargestLayerTooBig => "largest_layer_params",
            PlanError::GpusZero => "gpus_per_node",
            PlanError::NodesZero => "nodes",
            PlanError::ActivationsZero => "activations",
            PlanError::NvmeNeedsZero3
            | PlanError::FsdpOffloadTogether
            | PlanError::OffloadNeedsZero2 => "offload_optimizer",
            PlanError::ParamOffloadNeedsZero3 => "offload_param",
            PlanError::LoraShareOutOfRange => "lora_trainable_share",
        }
    }

    /// The input the error is about, as the command-line flag names it.
    pub fn field(self) -> &'static str {
        match self {
            PlanError::ParamsZero => "params",
            PlanError::LargestLayerTooBig => "largest-layer-params",
            PlanError::GpusZero => "gpus-per-node",
            PlanError::NodesZero => "nodes",
            PlanError::ActivationsZero => "seq-len",
            PlanError::NvmeNeedsZero3
            | PlanError::FsdpOffloadTogether
            | PlanError::OffloadNeedsZero2 => "offload-optimizer",
            PlanError::ParamOffloadNeedsZero3 => "offload-param",
            PlanError::LoraShareOutOfRange => "lora-share",
        }
    }
}

/// Something the user should know about how the plan was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanWarning {
    /// The largest layer was not given; [`presets::assumed_largest_layer`] was used.
    LargestLayerAssumed,
    /// ZeRO-3 parameter offload without optimizer offload: DeepSpeed's estimator ignores it.
    ParamOffloadIgnored,
    /// LoRA/QLoRA computed with the frozen base on every GPU (data parallel).
    LoraAsDataParallel,
    /// The plan uses more GPUs per node than the machine has.
    MoreGpusThanMachine,
    /// Activations asked for but no transformer shape known.
    ActivationsNeedShape,
}

/// What a model state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateKind {
    /// Working weights (16-bit, or fp32 without mixed precision; 4-bit for QLoRA's base).
    Weights,
    /// Gradients (16- and 32-bit).
    Gradients,
    /// fp32 master weights (mixed precision).
    MasterWeights,
    /// Optimizer states (Adam momentum and variance, …).
    OptimizerStates,
    /// LoRA adapters with their gradients and optimizer states.
    Adapters,
    /// Buffers: DeepSpeed's additional_buffer_factor, per-rank loading copies, the gathered
    /// largest layer, NVMe swap buffers.
    Buffers,
}

/// Where memory is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Location {
    /// Each GPU.
    Gpu,
    /// CPU RAM of each node.
    Cpu,
    /// NVMe of each node.
    Nvme,
}

/// One line of the breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakdownItem {
    /// What.
    pub kind: StateKind,
    /// Where.
    pub location: Location,
    /// Bytes (per GPU for `gpu`, per node for `cpu` and `nvme`).
    pub bytes: u64,
    /// `bytes / params`.
    pub bytes_per_param: f64,
}

/// Whose formula the totals come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EstimateSource {
    /// DeepSpeed's `estimate_zero2/zero3_model_states_mem_needs`, reproduced exactly.
    DeepspeedEstimator,
    /// ramvram's estimate from the papers (docs/model.md).
    RamvramEstimate,
}

/// Memory a plan needs. Model states only, plus an optional, separate activation estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Model states on each GPU, bytes.
    pub gpu_bytes_per_gpu: u64,
    /// Model states in each node's CPU RAM, bytes.
    pub cpu_bytes_per_node: u64,
    /// Model states on each node's NVMe, bytes (0 without NVMe offload).
    pub nvme_bytes: u64,
    /// Activations per GPU (Korthikanti et al. 2022), when asked for.
    pub activation_bytes_per_gpu: Option<u64>,
    /// Per-state breakdown; per location it adds up to the totals.
    pub breakdown: Vec<BreakdownItem>,
    /// Whose formula.
    pub source: EstimateSource,
    /// Bytes read and written on NVMe per optimizer step (ZeRO-Infinity), when offloading there.
    pub nvme_traffic_per_step_bytes: Option<u64>,
    /// The largest layer used (given, from the preset, or assumed).
    pub largest_layer_params: u64,
    /// How the plan was read.
    pub warnings: Vec<PlanWarning>,
}

/// One capacity compared with the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapacityCheck {
    /// Bytes needed.
    pub needed_bytes: u64,
    /// Bytes the machine has (`None`: unknown).
    pub available_bytes: Option<u64>,
    /// `needed ≤ available`, or `None` when unknown.
    pub fits: Option<bool>,
}

impl CapacityCheck {
    fn new(needed: u64, available: Option<u64>) -> CapacityCheck {
        CapacityCheck {
            needed_bytes: needed,
            available_bytes: available,
            fits: available.map(|a| needed <= a),
        }
    }

    /// Bytes missing (0 when it fits or is unknown).
    pub fn missing_bytes(&self) -> u64 {
        self.available_bytes
            .map_or(0, |a| self.needed_bytes.saturating_sub(a))
    }
}

/// Another plan that was tried because the user's does not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlternativeId {
    /// The same offload with ZeRO-3.
    Zero3,
    /// ZeRO-3 with optimizer and parameters offloaded to CPU.
    Zero3CpuOffload,
    /// ZeRO-3 with optimizer and parameters on NVMe (ZeRO-Infinity).
    Zero3NvmeOffload,
    /// LoRA.
    Lora,
    /// QLoRA.
    Qlora,
}

/// An alternative plan and whether it fits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// Which.
    pub id: AlternativeId,
    /// GPU bytes per GPU.
    pub gpu_bytes_per_gpu: u64,
    /// CPU bytes per node.
    pub cpu_bytes_per_node: u64,
    /// NVMe bytes per node.
    pub nvme_bytes: u64,
    /// Fits this machine (`None`: can't tell).
    pub fits: Option<bool>,
}

/// The planner's result for one plan on one machine (`training_memory` in `advise --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingMemory {
    /// The plan as given.
    pub plan: TrainingPlan,
    /// What it needs.
    #[serde(flatten)]
    pub estimate: Estimate,
    /// Per-GPU need (model states + activations when given) against the smallest GPU.
    pub gpu: CapacityCheck,
    /// Per-node CPU need against effective RAM (for unified memory: GPU and CPU together).
    pub cpu: CapacityCheck,
    /// NVMe need against the largest free NVMe mount (`None` without NVMe offload).
    pub nvme: Option<CapacityCheck>,
    /// Everything fits (`None`: something can't be checked).
    pub fits: Option<bool>,
    /// RAM that would fit the CPU need, rounded up to a common capacity (when CPU doesn't fit).
    pub ram_to_fit_bytes: Option<u64>,
    /// Plans tried when this one doesn't fit.
    pub alternatives: Vec<Alternative>,
}

/// Common total RAM capacities in GiB, buildable from equal DIMMs (8–128 GB modules on 2–16
/// channels). Assumption from vendor catalogues.
pub const COMMON_RAM_GIB: [u64; 19] = [
    16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192,
];

/// The smallest common capacity ≥ `bytes` (or `bytes` itself above the table).
pub fn round_up_ram(bytes: u64) -> u64 {
    COMMON_RAM_GIB
        .iter()
        .map(|g| g << 30)
        .find(|b| *b >= bytes)
        .unwrap_or(bytes)
}

struct MachineCapacity {
    gpu: Option<u64>,
    cpu: Option<u64>,
    nvme: Option<u64>,
    unified: bool,
    gpus: u32,
}

fn capacity(profile: &MachineProfile, ram: &EffectiveRam, vram: &VramTotals) -> MachineCapacity {
    let smallest_gpu = profile
        .gpus
        .iter()
        .filter(|g| !g.unified_memory)
        .filter_map(|g| g.vram_total_bytes)
        .min();
    let nvme = profile
        .disks
        .iter()
        .filter(|d| d.kind == DiskKind::Nvme)
        .filter_map(|d| d.available_bytes)
        .max();
    MachineCapacity {
        gpu: if vram.unknown_vram_gpus > 0 {
            None
        } else {
            smallest_gpu
        },
        cpu: ram.effective_bytes,
        nvme,
        unified: vram.discrete_gpus == 0 && vram.unified_gpus > 0,
        gpus: vram.discrete_gpus + vram.unified_gpus,
    }
}

fn checks(
    e: &Estimate,
    m: &MachineCapacity,
) -> (
    CapacityCheck,
    CapacityCheck,
    Option<CapacityCheck>,
    Option<bool>,
) {
    let gpu_need = e
        .gpu_bytes_per_gpu
        .saturating_add(e.activation_bytes_per_gpu.unwrap_or(0));
    let (gpu, cpu) = if m.unified {
        // One pool: the GPU's share and the CPU's share both come out of system RAM.
        let together = gpu_need
            .saturating_mul(u64::from(m.gpus.max(1)))
            .saturating_add(e.cpu_bytes_per_node);
        (
            CapacityCheck::new(gpu_need, m.cpu),
            CapacityCheck::new(together, m.cpu),
        )
    } else {
        (
            CapacityCheck::new(gpu_need, m.gpu),
            CapacityCheck::new(e.cpu_bytes_per_node, m.cpu),
        )
    };
    let nvme = (e.nvme_bytes > 0).then(|| CapacityCheck::new(e.nvme_bytes, m.nvme));
    let all = [Some(gpu.fits), Some(cpu.fits), nvme.map(|n| n.fits)];
    let fits = if all.iter().flatten().any(|f| *f == Some(false)) {
        Some(false)
    } else if all.iter().flatten().all(|f| *f == Some(true)) {
        Some(true)
    } else {
        None
    };
    (gpu, cpu, nvme, fits)
}

/// Estimates `plan` and judges it against `profile`.
///
/// # Errors
/// A [`PlanError`] naming the input that can't be right.
pub fn plan_against(
    plan: &TrainingPlan,
    profile: &MachineProfile,
    ram: &EffectiveRam,
    vram: &VramTotals,
) -> Result<TrainingMemory, PlanError> {
    let mut e = estimate(plan)?;
    let machine = capacity(profile, ram, vram);
    if machine.gpus > 0 && plan.gpus_per_node > machine.gpus {
        e.warnings.push(PlanWarning::MoreGpusThanMachine);
    }
    let (gpu, cpu, nvme, fits) = checks(&e, &machine);
    let mut alternatives = Vec::new();
    if fits == Some(false) {
        for (id, alt) in alternative_plans(plan) {
            if let Ok(ae) = estimate(&alt) {
                let (_, _, _, afits) = checks(&ae, &machine);
                alternatives.push(Alternative {
                    id,
                    gpu_bytes_per_gpu: ae.gpu_bytes_per_gpu,
                    cpu_bytes_per_node: ae.cpu_bytes_per_node,
                    nvme_bytes: ae.nvme_bytes,
                    fits: afits,
                });
            }
        }
    }
    let ram_to_fit_bytes = (cpu.fits == Some(false)).then(|| round_up_ram(cpu.needed_bytes));
    Ok(TrainingMemory {
        plan: plan.clone(),
        estimate: e,
        gpu,
        cpu,
        nvme,
        fits,
        ram_to_fit_bytes,
        alternatives,
    })
}

/// The alternatives tried for a plan that doesn't fit, skipping any equal to it and the plan's
/// own fine-tuning method.
fn alternative_plans(plan: &TrainingPlan) -> Vec<(AlternativeId, TrainingPlan)> {
    let full = TrainingPlan {
        finetune: FineTune::Full,
        ..plan.clone()
    };
    let zero3 = |opt, param| TrainingPlan {
        strategy: Strategy::Zero3,
        offload_optimizer: opt,
        offload_param: param,
        zero_init: true,
        ..full.clone()
    };
    let peft = |f| TrainingPlan {
        finetune: f,
        strategy: Strategy::Ddp,
        offload_optimizer: OffloadTarget::None,
        offload_param: OffloadTarget::None,
        ..plan.clone()
    };
    let mut out = Vec::new();
    if plan.finetune == FineTune::Full && plan.strategy < Strategy::Zero3 {
        out.push((
            AlternativeId::Zero3,
            zero3(plan.offload_optimizer, plan.offload_param),
        ));
    }
    out.push((
        AlternativeId::Zero3CpuOffload,
        zero3(OffloadTarget::Cpu, OffloadTarget::Cpu),
    ));
    out.push((
        AlternativeId::Zero3NvmeOffload,
        zero3(OffloadTarget::Nvme, OffloadTarget::Nvme),
    ));
    // A LoRA or QLoRA plan is not offered itself again under another strategy.
    if plan.finetune != FineTune::Lora {
        out.push((AlternativeId::Lora, peft(FineTune::Lora)));
    }
    if plan.finetune != FineTune::Qlora {
        out.push((AlternativeId::Qlora, peft(FineTune::Qlora)));
    }
    out.retain(|(_, p)| p != plan);
    out
}
