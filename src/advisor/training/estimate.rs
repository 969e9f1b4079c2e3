//! From a plan to bytes: validation, the ZeRO/DDP/FSDP/NVMe formulas, the breakdown, and the
//! loading and training phases with their peaks. Sources in `docs/model.md` § "Training memory".

use super::activations::activations;
use super::amounts::{Bytes, Lines, Totals};
use super::breakdown::{Estimate, EstimateFormula, Location, Phase, PhaseId, StateKind};
use super::loading::{loading, runtime_bytes};
use super::plan::{
    FineTune, NvmeConfig, OffloadTarget, PlanError, PlanWarning, Precision, Strategy, TrainingPlan,
};
use super::presets::assumed_largest_layer;
use super::zero::{self, ADDITIONAL_BUFFER_FACTOR, CpuTerms, Run};

/// The most parameters a plan may have: 100 trillion, 50 times the largest published models
/// (about 2 × 10^12). Beyond it the figures mean nothing (and bytes would overflow).
pub const MAX_PARAMS: u64 = 100_000_000_000_000;

/// The most GPUs per node: 256, far above any server (8–16) or rack-scale domain (72).
pub const MAX_GPUS_PER_NODE: u32 = 256;

/// The most nodes: 100,000.
pub const MAX_NODES: u32 = 100_000;

fn validate(plan: &TrainingPlan) -> Result<(), PlanError> {
    if plan.params == 0 {
        return Err(PlanError::ParamsZero);
    }
    if plan.params > MAX_PARAMS {
        return Err(PlanError::ParamsTooMany);
    }
    if plan.gpus_per_node > MAX_GPUS_PER_NODE {
        return Err(PlanError::GpusTooMany);
    }
    if plan.nodes > MAX_NODES {
        return Err(PlanError::NodesTooMany);
    }
    if plan
        .largest_layer_params
        .is_some_and(|l| l == 0 || l > plan.params)
    {
        return Err(PlanError::LargestLayerTooBig);
    }
    if plan.gpus_per_node == 0 {
        return Err(PlanError::GpusZero);
    }
    if plan.nodes == 0 {
        return Err(PlanError::NodesZero);
    }
    if plan
        .activations
        .is_some_and(|a| a.seq_len == 0 || a.micro_batch == 0)
    {
        return Err(PlanError::ActivationsZero);
    }
    if plan.finetune != FineTune::Full {
        let s = plan.lora_trainable_share;
        if !(s > 0.0 && s <= 1.0) {
            return Err(PlanError::LoraShareOutOfRange);
        }
    }
    if let Some(a) = plan.activations.and_then(|a| a.shape) {
        if a.hidden == 0 || a.layers == 0 || a.heads == Some(0) || a.kv_heads == Some(0) {
            return Err(PlanError::ShapeZero);
        }
    }
    if let Some(c) = plan.nvme {
        if c.param_buffer_count == 0
            || c.param_buffer_size == 0
            || c.optimizer_buffer_count == 0
            || c.aio_block_size == 0
            || c.aio_queue_depth == 0
            || c.aio_thread_count == 0
        {
            return Err(PlanError::NvmeConfigZero);
        }
    }
    if plan.offload_param != OffloadTarget::None && plan.strategy < Strategy::Zero3 {
        return Err(PlanError::ParamOffloadNeedsZero3);
    }
    if plan.offload_optimizer == OffloadTarget::Nvme && plan.strategy != Strategy::Zero3 {
        return Err(PlanError::NvmeNeedsZero3);
    }
    if plan.offload_optimizer != OffloadTarget::None && plan.strategy < Strategy::Zero2 {
        return Err(PlanError::OffloadNeedsZero2);
    }
    if plan.strategy == Strategy::FsdpFullShard && plan.offload_optimizer != plan.offload_param {
        return Err(PlanError::FsdpOffloadTogether);
    }
    Ok(())
}

/// Estimates the memory of `plan`: model states, the loading and training phases, their peaks.
///
/// # Errors
/// A [`PlanError`] for inputs that can't be right.
pub fn estimate(plan: &TrainingPlan) -> Result<Estimate, PlanError> {
    estimate_with(plan, &crate::advisor::overhead::Overheads::TYPICAL)
}

/// [`estimate`] on a machine whose runtime overheads are `overheads`
/// ([`crate::advisor::overhead::overheads`]).
///
/// # Errors
/// A [`PlanError`] for inputs that can't be right.
pub fn estimate_with(
    plan: &TrainingPlan,
    overheads: &crate::advisor::overhead::Overheads,
) -> Result<Estimate, PlanError> {
    validate(plan)?;
    let mut warnings = Vec::new();
    let largest = match plan
        .largest_layer_params
        .or_else(|| plan.preset().and_then(|p| p.largest_layer))
    {
        Some(l) => l,
        None => {
            warnings.push(PlanWarning::LargestLayerAssumed);
            assumed_largest_layer(plan.params)
        }
    };
    let run = Run {
        params: plan.params,
        largest_layer: largest,
        gpus_per_node: u64::from(plan.gpus_per_node),
        nodes: u64::from(plan.nodes),
        buffer: ADDITIONAL_BUFFER_FACTOR,
    };
    let mut lines = Lines {
        params: plan.params as f64,
        items: Vec::new(),
    };
    let totals = if plan.finetune == FineTune::Full {
        full(plan, &run, &mut lines, &mut warnings)
    } else {
        super::peft::peft(plan, &run, &mut lines)
    };
    lines.balance(Location::Gpu, totals.gpu);
    lines.balance(Location::Cpu, totals.cpu);
    lines.balance(Location::Nvme, totals.nvme);
    let acts = activations(plan);
    if plan.activations.is_some() && acts.gpu_bytes_per_gpu.is_none() {
        warnings.push(PlanWarning::ActivationsNeedShape);
    }
    let mut load = loading(plan, largest, totals.deepspeed_loading);
    if plan.strategy == Strategy::FsdpFullShard && plan.offload_param == OffloadTarget::Cpu {
        // The sharded flat parameters FSDP keeps in CPU RAM (weights, fp32 master copies,
        // adapters), copied and pinned at its lazy initialisation.
        let sharded = super::fsdp::sharded_on_cpu(&lines);
        let pinned = super::fsdp::pinned_flat_params(plan, &run, sharded);
        load.fsdp_init_bytes_per_node = super::loading::fsdp_offload_init(sharded, pinned);
    }
    let runtime = runtime_bytes(plan.gpus_per_node, overheads);
    // On the GPUs while loading: the weights each GPU ends up with, and for a QLoRA base
    // quantised on the way in, one largest layer at 16 bits being quantised.
    let weights_on_gpu: u64 = lines
        .items
        .iter()
        .filter(|i| i.location == Location::Gpu && i.kind == StateKind::Weights)
        .map(|i| i.bytes)
        .fold(0, u64::saturating_add);
    let quantising = if plan.finetune == FineTune::Qlora {
        2 * largest
    } else {
        0
    };
    let training_gpu = totals
        .gpu
        .saturating_add(acts.gpu_bytes_per_gpu.unwrap_or(0));
    let mut phases = vec![
        Phase {
            phase: PhaseId::Loading,
            cpu_bytes_per_node: load
                .cpu_bytes_per_node
                .max(load.fsdp_init_bytes_per_node)
                .saturating_add(runtime),
            gpu_bytes_per_gpu: weights_on_gpu.saturating_add(quantising),
        },
        Phase {
            phase: PhaseId::Training,
            cpu_bytes_per_node: totals.states_cpu.saturating_add(runtime),
            gpu_bytes_per_gpu: training_gpu,
        },
    ];
    let life = super::lifecycle::lifecycle(plan, &Bytes::of(plan), largest);
    // Every run saves its state and may resume it: the save and resume phases always count,
    // with the framework's defaults when the plan names neither (`lifecycle::default_save`,
    // `default_resume`).
    phases.extend(super::lifecycle::phases(&life, &phases[1], totals.gpu));
    Ok(Estimate {
        gpu_bytes_per_gpu: totals.gpu,
        cpu_bytes_per_node: totals.cpu,
        nvme_bytes: totals.nvme,
        activation_bytes_per_gpu: acts.gpu_bytes_per_gpu,
        activations: acts,
        cpu_peak_bytes_per_node: super::breakdown::peak_cpu(&phases),
        gpu_peak_bytes_per_gpu: super::breakdown::peak_gpu(&phases),
        cpu_peak_phase: super::breakdown::peak_phase(&phases, true),
        gpu_peak_phase: super::breakdown::peak_phase(&phases, false),
        lifecycle: life,
        phases,
        loading: load,
        runtime_bytes_per_node: runtime,
        breakdown: lines.items,
        formula: totals.formula,
        nvme_traffic_per_step_bytes: totals.traffic,
        largest_layer_params: largest,
        warnings,
    })
}

/// DeepSpeed's CPU terms as the phases use them: the states held while training, and its
/// loading copy.
fn split(terms: CpuTerms) -> (u64, Option<f64>) {
    (
        crate::units::saturating_bytes(terms.states.unwrap_or(0.0)),
        terms.loading,
    )
}

/// Full-parameter training: DDP, ZeRO-1/2/3, FSDP, CPU and NVMe offload.
fn full(
    plan: &TrainingPlan,
    run: &Run,
    lines: &mut Lines,
    warnings: &mut Vec<PlanWarning>,
) -> Totals {
    let b = Bytes::of(plan);
    let z = b.zero();
    let p = run.params as f64;
    let t = (run.gpus_per_node * run.nodes) as f64;
    let n = run.nodes as f64;
    let g = run.gpus_per_node as f64;
    let deepspeed_exact = plan.precision == Precision::Mixed16
        && plan.optimizer == super::Optimizer::Adam
        && matches!(plan.strategy, Strategy::Zero2 | Strategy::Zero3);
    let formula = if deepspeed_exact {
        EstimateFormula::DeepspeedEstimator
    } else {
        EstimateFormula::RamvramEstimate
    };
    // DeepSpeed's loading copy belongs to DeepSpeed's strategies; DDP and FSDP load by the
    // plan's method (`loading::loading`).
    let deepspeed = matches!(
        plan.strategy,
        Strategy::Zero1 | Strategy::Zero2 | Strategy::Zero3
    );
    let opt = plan.offload_optimizer;
    let param = plan.offload_param;
    if plan.strategy == Strategy::FsdpFullShard {
        // PyTorch's own sizes, not DeepSpeed's formula and buffer factor.
        return super::fsdp::fsdp(plan, run, lines);
    }
    match plan.strategy {
        Strategy::Ddp | Strategy::Zero1 => {
            let shard = if plan.strategy == Strategy::Zero1 {
                t
            } else {
                1.0
            };
            lines.add(StateKind::Weights, Location::Gpu, b.weights * p);
            // torchtune's optimizer in the backward pass frees each gradient once stepped.
            let graded = if plan.optimizer_in_backward && plan.strategy == Strategy::Ddp {
                run.largest_layer as f64
            } else {
                p
            };
            lines.add(
                StateKind::Gradients,
                Location::Gpu,
                b.replicated_gradients() * graded,
            );
            lines.add(
                StateKind::MasterWeights,
                Location::Gpu,
                b.master * p / shard,
            );
            lines.add(
                StateKind::OptimizerStates,
                Location::Gpu,
                b.states * p / shard,
            );
            let gpu = lines
                .items
                .iter()
                .map(|i| i.bytes)
                .fold(0, u64::saturating_add);
            // Each rank loads an fp32 copy before partitioning (DeepSpeed's no-offload term).
            let copy = 4.0 * p * g * ADDITIONAL_BUFFER_FACTOR;
            Totals {
                cpu: copy as u64,
                gpu,
                nvme: 0,
                traffic: None,
                formula,
                states_cpu: 0,
                deepspeed_loading: deepspeed.then_some(copy),
            }
        }
        Strategy::Zero2 => {
            let offload = opt == OffloadTarget::Cpu;
            let (cpu, gpu) = zero::zero2(run, &z, offload);
            let (states_cpu, deepspeed_loading) = split(zero::zero2_terms(run, &z, offload));
            lines.add(StateKind::Weights, Location::Gpu, b.weights * p);
            let side = if offload {
                Location::Cpu
            } else {
                Location::Gpu
            };
            let div = if offload { 1.0 } else { t };
            if !offload {
                lines.add(StateKind::Gradients, Location::Gpu, b.grads16 * p / t);
            }
            lines.add(StateKind::Gradients32, side, b.grads32 * p / div);
            lines.add(StateKind::MasterWeights, side, b.master * p / div);
            lines.add(StateKind::OptimizerStates, side, b.states * p / div);
            Totals {
                cpu,
                gpu,
                nvme: 0,
                traffic: None,
                formula,
                states_cpu,
                deepspeed_loading,
            }
        }
        // FSDP returned above (`fsdp::fsdp`); its arm is ZeRO-3's only to keep the match whole.
        Strategy::Zero3 | Strategy::FsdpFullShard => {
            if opt == OffloadTarget::None && param != OffloadTarget::None {
                warnings.push(PlanWarning::ParamOffloadIgnored);
            }
            let opt_off = opt != OffloadTarget::None;
            let param_off = opt_off && param != OffloadTarget::None;
            // CPU- and NVMe-side amounts start from DeepSpeed's CPU-offload formula; what goes to
            // NVMe leaves the CPU, which keeps swap buffers instead (ZeRO-Infinity).
            let (cpu_formula, gpu) = zero::zero3(run, &z, opt_off, param_off, plan.zero_init);
            let terms = zero::zero3_terms(run, &z, opt_off, param_off, plan.zero_init);
            let (states_cpu, copy) = split(terms);
            let deepspeed_loading = copy;
            lines.add(
                StateKind::GatheredLayer,
                Location::Gpu,
                4.0 * run.largest_layer as f64,
            );
            let opt_where = match opt {
                OffloadTarget::None => Location::Gpu,
                OffloadTarget::Cpu => Location::Cpu,
                OffloadTarget::Nvme => Location::Nvme,
            };
            let param_where = if !param_off {
                Location::Gpu
            } else if param == OffloadTarget::Nvme {
                Location::Nvme
            } else {
                Location::Cpu
            };
            let per = |loc: Location| if loc == Location::Gpu { t } else { n };
            lines.add(
                StateKind::Weights,
                param_where,
                b.weights * p / per(param_where),
            );
            lines.add(
                StateKind::Gradients32,
                opt_where,
                b.grads32 * p / per(opt_where),
            );
            lines.add(
                StateKind::MasterWeights,
                opt_where,
                b.master * p / per(opt_where),
            );
            lines.add(
                StateKind::OptimizerStates,
                opt_where,
                b.states * p / per(opt_where),
            );
            let on_nvme: f64 = lines
                .items
                .iter()
                .filter(|i| i.location == Location::Nvme)
                .map(|i| i.bytes as f64)
                .sum();
            if on_nvme == 0.0 {
                return Totals {
                    cpu: cpu_formula,
                    gpu,
                    nvme: 0,
                    traffic: None,
                    formula,
                    states_cpu,
                    deepspeed_loading,
                };
            }
            // NVMe offload: ramvram's estimate. CPU keeps what stays on the CPU × buffer factor,
            // plus the pinned swap buffers the NVMe settings ask for.
            let on_cpu: f64 = lines
                .items
                .iter()
                .filter(|i| i.location == Location::Cpu)
                .map(|i| i.bytes as f64)
                .sum();
            let config = plan.nvme.unwrap_or_default();
            let buffers = nvme_buffers(&config, run, param == OffloadTarget::Nvme);
            let states = on_cpu * ADDITIONAL_BUFFER_FACTOR + buffers;
            // The optimizer step reads and writes the optimizer side on NVMe once per step.
            let optimizer_side: f64 = lines
                .items
                .iter()
                .filter(|i| i.location == Location::Nvme && i.kind != StateKind::Weights)
                .map(|i| i.bytes as f64)
                .sum();
            // Without zero.Init every rank still loads an fp32 copy first (DeepSpeed's term).
            let copy = (!plan.zero_init).then_some(4.0 * p * g * ADDITIONAL_BUFFER_FACTOR);
            Totals {
                cpu: states as u64,
                gpu,
                nvme: on_nvme as u64,
                traffic: Some((2.0 * optimizer_side) as u64),
                formula: EstimateFormula::RamvramEstimate,
                states_cpu: states as u64,
                deepspeed_loading: copy,
            }
        }
    }
}

/// Pinned host memory per node for ZeRO-Infinity's NVMe swapping, from the plan's settings
/// (DeepSpeed's defaults: [`NvmeConfig::default`]), per rank:
/// - optimizer swap buffers: `offload_optimizer.buffer_count` × the largest of (the largest
///   layer, `offload_param.buffer_size`) fp32 elements (4 bytes);
/// - with parameters on NVMe, parameter swap buffers: `offload_param.buffer_count` × the same
///   count of 16-bit elements, and up to `max_in_cpu` parameter elements (16-bit) kept in CPU
///   RAM, at most this rank's share of the parameters;
/// - asynchronous I/O: `aio.block_size` × `queue_depth` × `thread_count` bytes.
pub fn nvme_buffers(c: &NvmeConfig, run: &Run, params_on_nvme: bool) -> f64 {
    let g = run.gpus_per_node as f64;
    let t = (run.gpus_per_node * run.nodes) as f64;
    let elements = (run.largest_layer as f64).max(c.param_buffer_size as f64);
    let mut per_rank = f64::from(c.optimizer_buffer_count) * elements * 4.0;
    if params_on_nvme {
        per_rank += f64::from(c.param_buffer_count) * elements * 2.0;
        per_rank += (c.max_in_cpu as f64).min(run.params as f64 / t) * 2.0;
    }
    per_rank +=
        c.aio_block_size as f64 * f64::from(c.aio_queue_depth) * f64::from(c.aio_thread_count);
    g * per_rank
}
