//! From a plan to bytes: validation, the ZeRO/DDP/FSDP/NVMe/LoRA formulas, the breakdown and
//! the activation estimate. Sources in `docs/model.md` § "Training memory".

use super::presets::assumed_largest_layer;
use super::zero::{self, ADDITIONAL_BUFFER_FACTOR, Run, StateBytes};
use super::{
    BreakdownItem, Estimate, EstimateSource, FineTune, Location, OffloadTarget, PlanError,
    PlanWarning, Precision, StateKind, Strategy, TrainingPlan,
};

/// QLoRA's frozen base: 4-bit NF4 weights plus double-quantised constants, 0.127 bits per
/// parameter (Dettmers et al. 2023, QLoRA, §3 "Double Quantization"): (4 + 0.127) / 8 bytes.
pub const QLORA_BASE_BYTES: f64 = (4.0 + 0.127) / 8.0;

/// CPU RAM a process needs to load a checkpoint shard by shard (Hugging Face transformers'
/// `low_cpu_mem_usage` loading; `save_pretrained`'s default `max_shard_size` is "5GB"):
/// 5 × 10^9 bytes per process, or the 16-bit model if smaller. Assumption for LoRA/QLoRA.
pub const CHECKPOINT_SHARD_BYTES: f64 = 5e9;

/// DeepSpeed `offload_param` defaults: `buffer_count` 5, `buffer_size` 1e8 elements (16-bit).
const PARAM_SWAP_BUFFERS: f64 = 5.0;
const PARAM_SWAP_BUFFER_ELEMENTS: f64 = 1e8;
/// DeepSpeed `offload_optimizer` default `buffer_count` 4 (fp32 elements of the largest layer).
const OPTIMIZER_SWAP_BUFFERS: f64 = 4.0;

/// Per-parameter bytes of each state for a precision and optimizer.
#[derive(Clone, Copy, Debug)]
struct Bytes {
    weights: f64,
    grads16: f64,
    grads32: f64,
    master: f64,
    states: f64,
}

impl Bytes {
    fn of(plan: &TrainingPlan) -> Bytes {
        let states = plan.optimizer.state_bytes();
        match plan.precision {
            Precision::Mixed16 => Bytes {
                weights: 2.0,
                grads16: 2.0,
                grads32: 4.0,
                master: 4.0,
                states,
            },
            Precision::Fp32 => Bytes {
                weights: 4.0,
                grads16: 0.0,
                grads32: 4.0,
                master: 0.0,
                states,
            },
        }
    }

    /// The grouping the ZeRO formulas use; equals [`zero::ADAM_MIXED`] for mixed Adam.
    fn zero(&self) -> StateBytes {
        let offloaded = self.grads32 + self.master + self.states;
        StateBytes {
            weights: self.weights,
            zero2_partitioned: self.grads16 + offloaded,
            offloaded_optimizer: offloaded,
            zero3_partitioned: self.weights + offloaded,
        }
    }

    /// The ZeRO paper's count for DDP and ZeRO-1 (Rajbhandari et al. 2020, §3/§5.1):
    /// weights + gradients (one copy, in the training precision) replicated; K = master +
    /// optimizer states.
    fn replicated_gradients(&self) -> f64 {
        if self.grads16 > 0.0 {
            self.grads16
        } else {
            self.grads32
        }
    }
}

fn validate(plan: &TrainingPlan) -> Result<(), PlanError> {
    if plan.params == 0 {
        return Err(PlanError::ParamsZero);
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
        return Ok(());
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

/// Collects breakdown lines and turns per-parameter amounts into bytes.
struct Lines {
    params: f64,
    items: Vec<BreakdownItem>,
}

impl Lines {
    fn add(&mut self, kind: StateKind, location: Location, bytes: f64) {
        if bytes > 0.0 {
            self.items.push(BreakdownItem {
                kind,
                location,
                bytes: bytes.round() as u64,
                bytes_per_param: bytes / self.params,
            });
        }
    }

    /// Adds a `Buffers` line so that `location` sums to `total`.
    fn balance(&mut self, location: Location, total: u64) {
        let sum: u64 = self
            .items
            .iter()
            .filter(|i| i.location == location)
            .map(|i| i.bytes)
            .sum();
        self.add(
            StateKind::Buffers,
            location,
            total.saturating_sub(sum) as f64,
        );
    }
}

/// Estimates the memory of `plan`.
///
/// # Errors
/// A [`PlanError`] for inputs that can't be right.
pub fn estimate(plan: &TrainingPlan) -> Result<Estimate, PlanError> {
    validate(plan)?;
    let mut warnings = Vec::new();
    let largest = match plan
        .largest_layer_params
        .or_else(|| plan.preset().map(|p| p.largest_layer))
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
    let (cpu, gpu, nvme, traffic, source) = if plan.finetune == FineTune::Full {
        full(plan, &run, &mut lines, &mut warnings)
    } else {
        peft(plan, &run, &mut lines, &mut warnings)
    };
    lines.balance(Location::Gpu, gpu);
    lines.balance(Location::Cpu, cpu);
    lines.balance(Location::Nvme, nvme);
    let activation_bytes_per_gpu = plan.activations.and_then(|a| {
        let shape = a.shape.or_else(|| plan.preset().and_then(|p| p.shape));
        if shape.is_none() {
            warnings.push(PlanWarning::ActivationsNeedShape);
        }
        shape.map(|s| {
            activation_bytes(
                a.seq_len,
                a.micro_batch,
                s.hidden,
                s.heads,
                s.layers,
                a.checkpointing,
            )
        })
    });
    Ok(Estimate {
        gpu_bytes_per_gpu: gpu,
        cpu_bytes_per_node: cpu,
        nvme_bytes: nvme,
        activation_bytes_per_gpu,
        breakdown: lines.items,
        source,
        nvme_traffic_per_step_bytes: traffic,
        largest_layer_params: largest,
        warnings,
    })
}

type Totals = (u64, u64, u64, Option<u64>, EstimateSource);

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
    let source = if deepspeed_exact {
        EstimateSource::DeepspeedEstimator
    } else {
        EstimateSource::RamvramEstimate
    };
    let opt = plan.offload_optimizer;
    let param = plan.offload_param;
    // Each rank loads an fp32 copy before partitioning (DeepSpeed's no-offload CPU term).
    let loading = 4.0 * p * g * ADDITIONAL_BUFFER_FACTOR;
    match plan.strategy {
        Strategy::Ddp | Strategy::Zero1 => {
            let shard = if plan.strategy == Strategy::Zero1 {
                t
            } else {
                1.0
            };
            lines.add(StateKind::Weights, Location::Gpu, b.weights * p);
            lines.add(
                StateKind::Gradients,
                Location::Gpu,
                b.replicated_gradients() * p,
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
            let gpu = lines.items.iter().map(|i| i.bytes).sum();
            (loading as u64, gpu, 0, None, source)
        }
        Strategy::Zero2 => {
            let offload = opt == OffloadTarget::Cpu;
            let (cpu, gpu) = zero::zero2(run, &z, offload);
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
            lines.add(StateKind::Gradients, side, b.grads32 * p / div);
            lines.add(StateKind::MasterWeights, side, b.master * p / div);
            lines.add(StateKind::OptimizerStates, side, b.states * p / div);
            (cpu, gpu, 0, None, source)
        }
        Strategy::Zero3 | Strategy::FsdpFullShard => {
            if opt == OffloadTarget::None && param != OffloadTarget::None {
                warnings.push(PlanWarning::ParamOffloadIgnored);
            }
            let opt_off = opt != OffloadTarget::None;
            let param_off = opt_off && param != OffloadTarget::None;
            // CPU- and NVMe-side amounts start from DeepSpeed's CPU-offload formula; what goes to
            // NVMe leaves the CPU, which keeps swap buffers instead (ZeRO-Infinity).
            let (cpu_formula, gpu) = zero::zero3(run, &z, opt_off, param_off, plan.zero_init);
            lines.add(
                StateKind::Buffers,
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
                StateKind::Gradients,
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
                return (cpu_formula, gpu, 0, None, source);
            }
            // NVMe offload: ramvram's estimate. CPU keeps what stays on the CPU × buffer factor,
            // plus DeepSpeed's default swap buffers per GPU.
            let on_cpu: f64 = lines
                .items
                .iter()
                .filter(|i| i.location == Location::Cpu)
                .map(|i| i.bytes as f64)
                .sum();
            let l = run.largest_layer as f64;
            let mut buffers = g * OPTIMIZER_SWAP_BUFFERS * l.max(PARAM_SWAP_BUFFER_ELEMENTS) * 4.0;
            if param == OffloadTarget::Nvme {
                buffers += g * PARAM_SWAP_BUFFERS * l.max(PARAM_SWAP_BUFFER_ELEMENTS) * 2.0;
            }
            let cpu = on_cpu * ADDITIONAL_BUFFER_FACTOR + buffers;
            // The optimizer step reads and writes the optimizer side on NVMe once per step.
            let optimizer_side: f64 = lines
                .items
                .iter()
                .filter(|i| i.location == Location::Nvme && i.kind != StateKind::Weights)
                .map(|i| i.bytes as f64)
                .sum();
            (
                cpu as u64,
                gpu,
                on_nvme as u64,
                Some((2.0 * optimizer_side) as u64),
                EstimateSource::RamvramEstimate,
            )
        }
    }
}

/// LoRA and QLoRA: frozen base on every GPU, trained adapters with mixed-precision optimizer
/// states (Hu et al. 2021; Dettmers et al. 2023).
fn peft(
    plan: &TrainingPlan,
    run: &Run,
    lines: &mut Lines,
    warnings: &mut Vec<PlanWarning>,
) -> Totals {
    if plan.strategy != Strategy::Ddp || plan.offload_optimizer != OffloadTarget::None {
        warnings.push(PlanWarning::LoraAsDataParallel);
    }
    let b = Bytes::of(plan);
    let p = run.params as f64;
    let base = if plan.finetune == FineTune::Qlora {
        QLORA_BASE_BYTES
    } else {
        b.weights
    };
    lines.add(StateKind::Weights, Location::Gpu, base * p);
    let trained = plan.lora_trainable_share * p;
    lines.add(
        StateKind::Adapters,
        Location::Gpu,
        trained * (b.weights + b.replicated_gradients() + b.master + b.states),
    );
    let gpu = lines.items.iter().map(|i| i.bytes).sum();
    let cpu = run.gpus_per_node as f64 * CHECKPOINT_SHARD_BYTES.min(2.0 * p);
    (cpu as u64, gpu, 0, None, EstimateSource::RamvramEstimate)
}

/// Activation memory per GPU (bytes) of a transformer, Korthikanti et al. 2022, "Reducing
/// Activation Recomputation in Large Transformer Models", §4: per layer
/// `s·b·h·(34 + 5·a·s/h)` bytes with 16-bit activations and no tensor or sequence
/// parallelism; with full recomputation only each layer's input is kept, `2·s·b·h`.
pub fn activation_bytes(
    seq: u64,
    batch: u64,
    hidden: u64,
    heads: u64,
    layers: u64,
    checkpointing: bool,
) -> u64 {
    let (s, b, h, a, l) = (
        seq as f64,
        batch as f64,
        hidden as f64,
        heads as f64,
        layers as f64,
    );
    let per_layer = if checkpointing {
        2.0 * s * b * h
    } else {
        s * b * h * (34.0 + 5.0 * a * s / h)
    };
    let total = per_layer * l;
    if total >= u64::MAX as f64 {
        u64::MAX
    } else {
        total as u64
    }
}
