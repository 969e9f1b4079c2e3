//! What an estimate is made of: model states by kind and place, whose formula gave the totals,
//! and the estimate itself.

use serde::{Deserialize, Serialize};

use super::activations::Activations;
use super::checkpointing::Lifecycle;
use super::loading::Loading;
use super::plan::PlanWarning;

/// What a model state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateKind {
    /// Working weights in the training precision (bf16/fp16 under mixed precision, else fp32);
    /// for LoRA and QLoRA the frozen base (4-bit for QLoRA).
    Weights,
    /// Gradients in the training precision (bf16/fp16 under mixed precision, else fp32).
    Gradients,
    /// The fp32 gradients mixed precision keeps for the optimizer step (ZeRO-2/3 partition or
    /// offload them; DeepSpeed's estimator counts them with the optimizer side).
    Gradients32,
    /// fp32 master weights (mixed precision).
    MasterWeights,
    /// Optimizer states (Adam momentum and variance, …).
    OptimizerStates,
    /// LoRA adapter weights.
    Adapters,
    /// The adapters' gradients, fp32 master copies and optimizer states.
    AdapterStates,
    /// The largest layer, gathered whole on each GPU for its forward and backward pass
    /// (ZeRO-3, FSDP).
    GatheredLayer,
    /// What the formulas add beyond the states themselves: DeepSpeed's additional_buffer_factor
    /// (1.5), per-rank loading copies, NVMe swap buffers.
    Buffers,
    /// FSDP1's sharded CPU gradient (`_cpu_grad`) of flat parameters that hold frozen weights:
    /// with `CPUOffload(offload_params=True)` it is pre-allocated, pinned, for every flat
    /// parameter, as large as its shard (`_flat_param.py::init_flat_param_attributes`).
    FrozenGradients,
    /// What page-locked blocks take beyond the tensors they hold: PyTorch's caching host
    /// allocator rounds every pinned allocation up to a power of two
    /// ([`crate::advisor::pinned::pinned_block`]); FSDP1's pinned flat parameters and their
    /// `_cpu_grad` with CPU offload ([`super::fsdp::pinned_flat_params`]).
    PinnedBlocks,
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

/// Whose formula the totals come from. Every training figure is estimated
/// ([`crate::profile::Provenance::Estimated`]); this says by which formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EstimateFormula {
    /// DeepSpeed's `estimate_zero2/zero3_model_states_mem_needs`, reproduced exactly.
    DeepspeedEstimator,
    /// ramvram's estimate from the papers (docs/model.md).
    RamvramEstimate,
    /// Full-parameter FSDP as PyTorch's FSDP1 (`_flat_param.py`) and FSDP2 (`_fully_shard/`)
    /// hold the shards: ramvram's reading of their code (docs/model.md).
    PytorchFsdp,
}

pub use crate::advisor::phase::PhaseId;

/// One phase's memory: per GPU, and per node's CPU RAM with the runtime (the OS and the
/// training processes) included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    /// Which phase.
    pub phase: PhaseId,
    /// CPU RAM per node, bytes.
    pub cpu_bytes_per_node: u64,
    /// VRAM per GPU, bytes.
    pub gpu_bytes_per_gpu: u64,
}

/// CPU RAM per node of phase `id` among `phases`, bytes; 0 when the plan has no such phase.
pub fn phase_cpu(phases: &[Phase], id: PhaseId) -> u64 {
    phases
        .iter()
        .find(|p| p.phase == id)
        .map_or(0, |p| p.cpu_bytes_per_node)
}

/// The largest CPU RAM per node among `phases` (what must fit), bytes; 0 for no phase.
pub fn peak_cpu(phases: &[Phase]) -> u64 {
    phases
        .iter()
        .map(|p| p.cpu_bytes_per_node)
        .max()
        .unwrap_or(0)
}

/// The largest VRAM per GPU among `phases`, bytes; 0 for no phase.
pub fn peak_gpu(phases: &[Phase]) -> u64 {
    phases
        .iter()
        .map(|p| p.gpu_bytes_per_gpu)
        .max()
        .unwrap_or(0)
}

/// The phase with the largest CPU RAM per node (`cpu`) or VRAM per GPU among `phases`; among
/// equals the steady phase (training, serving) if it is one of them, else the earlier phase.
/// `None` for no phase.
pub fn peak_phase(phases: &[Phase], cpu: bool) -> Option<PhaseId> {
    let of = |p: &Phase| {
        if cpu {
            p.cpu_bytes_per_node
        } else {
            p.gpu_bytes_per_gpu
        }
    };
    let top = phases.iter().map(of).max()?;
    let steady = |p: &&Phase| matches!(p.phase, PhaseId::Training | PhaseId::Serving);
    let at_top = || phases.iter().filter(|p| of(p) == top);
    at_top()
        .find(steady)
        .or_else(|| at_top().next())
        .map(|p| p.phase)
}

/// Memory a plan needs: model states (DeepSpeed's figures where they apply), the loading and
/// training phases, and their peaks, which the verdict uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Model states on each GPU, bytes.
    pub gpu_bytes_per_gpu: u64,
    /// Model states in each node's CPU RAM, bytes: DeepSpeed's estimator figure where it applies
    /// — for ZeRO without `zero_init` it includes the fp32 copy every rank loads before
    /// partitioning, and the larger of that copy and the offloaded states is what it reports.
    pub cpu_bytes_per_node: u64,
    /// Model states on each node's NVMe, bytes (0 without NVMe offload).
    pub nvme_bytes: u64,
    /// Activations per GPU (Korthikanti et al. 2022), when asked for.
    pub activation_bytes_per_gpu: Option<u64>,
    /// The activation line: the figure, whether the per-GPU need includes it, the formula.
    pub activations: Activations,
    /// Loading, training, then checkpoint save and resume.
    pub phases: Vec<Phase>,
    /// The phase that sets the CPU peak ([`peak_phase`]).
    #[serde(default)]
    pub cpu_peak_phase: Option<PhaseId>,
    /// The phase that sets the GPU peak ([`peak_phase`]).
    #[serde(default)]
    pub gpu_peak_phase: Option<PhaseId>,
    /// How the state is saved and resumed, and what each adds.
    #[serde(default)]
    pub lifecycle: Lifecycle,
    /// The larger phase's CPU RAM per node, bytes: what the machine must hold.
    pub cpu_peak_bytes_per_node: u64,
    /// The larger phase's VRAM per GPU, bytes.
    pub gpu_peak_bytes_per_gpu: u64,
    /// How the checkpoint is loaded, and what that costs.
    pub loading: Loading,
    /// The OS and one training process per GPU, included in both phases' CPU figure.
    pub runtime_bytes_per_node: u64,
    /// Per-state breakdown; per location it adds up to the totals.
    pub breakdown: Vec<BreakdownItem>,
    /// Whose formula (`formula` in JSON; `source` before assessment schema 2).
    pub formula: EstimateFormula,
    /// Bytes read and written on NVMe per optimizer step (ZeRO-Infinity), when offloading there.
    pub nvme_traffic_per_step_bytes: Option<u64>,
    /// The largest layer used (given, from the preset, or assumed).
    pub largest_layer_params: u64,
    /// How the plan was read.
    pub warnings: Vec<PlanWarning>,
}
