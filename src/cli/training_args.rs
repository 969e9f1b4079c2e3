//! `advise` flags for the training-memory planner.

use clap::Args;

use super::model_args::{ModelChoice, parse_model};
pub use super::training_values::{
    CheckpointArg, FineTuneArg, LoadingArg, OffloadArg, OptimizerArg, PrecisionArg, ResumeArg,
    SaveArg, StrategyArg,
};
use crate::advisor::defaults;
use crate::advisor::knobs::{self, DefaultSource, KnobId as K, Plan};
use crate::advisor::training::{
    ActivationInput, CheckpointDtype, FineTune, LoadingMethod, NvmeConfig, OffloadTarget,
    Optimizer, Precision, ResumeLoad, SaveStateDict, Strategy, TrainingPlan, TransformerShape,
    presets,
};
use crate::i18n::{Lang, Msg, trf};
use crate::parse::{ValueError, parse_count};
use crate::profile::MachineProfile;

/// Flags describing a training plan. A plan is built when `--params` or `--preset` is given.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Training-memory planner")]
pub struct TrainingArgs {
    /// Model preset: resnet50, vit-l16, opt-1.3b, sdxl-unet, llama2-7b, llama2-13b, llama-65b,
    /// llama2-70b.
    #[arg(long, value_parser = parse_preset)]
    pub preset: Option<String>,
    /// A model by name (a catalogue id, Hugging Face id or alias, case ignored: qwen2.5-7b,
    /// Qwen/Qwen2.5-7B-Instruct) or path (a Hugging Face folder, a .safetensors or .gguf file,
    /// read by its headers). Flags given beside it override what it gives.
    #[arg(long, value_parser = parse_model, conflicts_with = "preset")]
    pub model: Option<ModelChoice>,
    /// Total parameters, with units: 7B, 350M, 2851000000.
    #[arg(long, value_parser = parse_count)]
    pub params: Option<u64>,
    /// Parameters of the largest layer (default: the preset's, else an assumption).
    #[arg(long, value_parser = parse_count)]
    pub largest_layer_params: Option<u64>,
    /// Precision.
    #[arg(long, value_enum)]
    pub precision: Option<PrecisionArg>,
    /// Optimizer.
    #[arg(long, value_enum)]
    pub optimizer: Option<OptimizerArg>,
    /// Strategy (default zero2).
    #[arg(long, value_enum, overrides_with = "zero_stage")]
    pub strategy: Option<StrategyArg>,
    /// DeepSpeed ZeRO stage 0–3 (0 = plain data parallel); same as --strategy zeroN. Of the
    /// two, the one given last counts, so a recommendation's `--strategy` added to a command
    /// line with `--zero-stage` applies.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=3), overrides_with = "strategy")]
    pub zero_stage: Option<u8>,
    /// Offload optimizer states (and fp32 gradients) to cpu or nvme.
    #[arg(long, value_enum)]
    pub offload_optimizer: Option<OffloadArg>,
    /// Offload parameters to cpu or nvme (ZeRO-3 / FSDP).
    #[arg(long, value_enum)]
    pub offload_param: Option<OffloadArg>,
    /// DeepSpeed zero.Init: build the model already partitioned.
    #[arg(long)]
    pub zero_init: bool,
    /// The optimizer steps each parameter in the backward pass (torchtune optimizer_in_bwd).
    #[arg(long)]
    pub optimizer_in_backward: bool,
    /// GPUs per node (default: the machine's GPU count, at least 1).
    #[arg(long)]
    pub gpus_per_node: Option<u32>,
    /// Nodes (default 1).
    #[arg(long)]
    pub nodes: Option<u32>,
    /// Full training, LoRA or QLoRA.
    #[arg(long, value_enum)]
    pub finetune: Option<FineTuneArg>,
    /// Share of parameters LoRA trains: 0.01 or 1% (default 1%).
    #[arg(long, value_parser = knobs::parse_share)]
    pub lora_share: Option<f64>,
    /// Sequence length, for the activation estimate (transformer presets).
    #[arg(long, requires = "micro_batch")]
    pub seq_len: Option<u64>,
    /// Micro-batch per GPU, for the activation estimate.
    #[arg(long, requires = "seq_len")]
    pub micro_batch: Option<u64>,
    /// Full activation checkpointing, for the activation estimate.
    #[arg(long)]
    pub checkpointing: bool,
    /// Eager attention, which stores the s × s attention scores (default: FlashAttention or
    /// PyTorch SDPA, which don't).
    #[arg(long)]
    pub eager_attention: bool,
    /// Layers of a model that isn't a preset (with --hidden-size), for the activation estimate.
    #[arg(long, requires = "hidden_size")]
    pub layers: Option<u64>,
    /// Hidden size of a model that isn't a preset (with --layers).
    #[arg(long, requires = "layers")]
    pub hidden_size: Option<u64>,
    /// Attention heads (default: hidden size ÷ 128, said so in the output).
    #[arg(long)]
    pub heads: Option<u64>,
    /// How the checkpoint is loaded (default: what the framework does for the strategy).
    #[arg(long, value_enum)]
    pub loading: Option<LoadingArg>,
    /// The checkpoint's element type on disk (default bf16).
    #[arg(long, value_enum)]
    pub checkpoint_dtype: Option<CheckpointArg>,
    /// How the training state is saved (default: what the framework does for the strategy).
    #[arg(long, value_enum)]
    pub save_state_dict: Option<SaveArg>,
    /// How a saved state is read back on resume (default: what the framework does).
    #[arg(long, value_enum)]
    pub resume_load: Option<ResumeArg>,
    /// Ranks that wrote the checkpoint being resumed (default: this plan's).
    #[arg(long)]
    pub resume_world_size: Option<u32>,
    /// DeepSpeed offload_param.buffer_count (NVMe offload; default 5).
    #[arg(long)]
    pub nvme_buffer_count: Option<u32>,
    /// DeepSpeed offload_param.buffer_size, elements (NVMe offload; default 1e8).
    #[arg(long, value_parser = parse_count)]
    pub nvme_buffer_size: Option<u64>,
    /// DeepSpeed offload_param.max_in_cpu, elements (NVMe offload; default 1e9).
    #[arg(long, value_parser = parse_count)]
    pub nvme_max_in_cpu: Option<u64>,
    /// DeepSpeed offload_optimizer.buffer_count (NVMe offload; default 4).
    #[arg(long)]
    pub nvme_optimizer_buffer_count: Option<u32>,
    /// DeepSpeed aio.block_size, bytes (NVMe offload; default 1048576).
    #[arg(long, value_parser = parse_count)]
    pub aio_block_size: Option<u64>,
    /// DeepSpeed aio.queue_depth (NVMe offload; default 8).
    #[arg(long)]
    pub aio_queue_depth: Option<u32>,
    /// DeepSpeed aio.thread_count (NVMe offload; default 1).
    #[arg(long)]
    pub aio_thread_count: Option<u32>,
}

fn parse_preset(s: &str) -> Result<String, ValueError> {
    // A diffusion pipeline keeps its own name (its denoiser is the preset trained);
    // `--inference diffusers` serves the whole pipeline.
    if let Some(p) = crate::catalog::catalog().pipeline(s) {
        return Ok(p.id.clone());
    }
    match presets::preset(s) {
        Some(p) => Ok(p.id.to_string()),
        None => {
            let ids = presets::presets().iter().map(|p| p.id.clone()).collect();
            Err(ValueError::new(Msg::ValueUnknownPreset, s).with_list("ids", ids))
        }
    }
}

/// The fine-tuning method `--finetune` names (full without it).
fn finetune_of(arg: Option<FineTuneArg>) -> FineTune {
    match arg {
        None | Some(FineTuneArg::Full) => FineTune::Full,
        Some(FineTuneArg::Lora) => FineTune::Lora,
        Some(FineTuneArg::Qlora) => FineTune::Qlora,
    }
}

fn offload(o: Option<OffloadArg>) -> OffloadTarget {
    match o {
        None | Some(OffloadArg::None) => OffloadTarget::None,
        Some(OffloadArg::Cpu) => OffloadTarget::Cpu,
        Some(OffloadArg::Nvme) => OffloadTarget::Nvme,
    }
}

impl TrainingArgs {
    /// `--checkpoint-dtype` as the planners read it (training and inference).
    pub fn checkpoint_dtype_given(&self) -> Option<CheckpointDtype> {
        self.checkpoint_dtype.map(|c| match c {
            CheckpointArg::Bf16 => CheckpointDtype::Bf16,
            CheckpointArg::Fp32 => CheckpointDtype::Fp32,
            CheckpointArg::Int4 => CheckpointDtype::Int4,
        })
    }

    /// The knobs given, by id, in the table's order of fields here.
    fn given(&self) -> Vec<K> {
        [
            (K::Params, self.params.is_some()),
            (K::LargestLayerParams, self.largest_layer_params.is_some()),
            (K::Precision, self.precision.is_some()),
            (K::Optimizer, self.optimizer.is_some()),
            (K::Strategy, self.strategy.is_some()),
            (K::ZeroStage, self.zero_stage.is_some()),
            (K::OffloadOptimizer, self.offload_optimizer.is_some()),
            (K::OffloadParam, self.offload_param.is_some()),
            (K::ZeroInit, self.zero_init),
            (K::OptimizerInBackward, self.optimizer_in_backward),
            (K::GpusPerNode, self.gpus_per_node.is_some()),
            (K::Nodes, self.nodes.is_some()),
            (K::Finetune, self.finetune.is_some()),
            (K::LoraShare, self.lora_share.is_some()),
            (K::SeqLen, self.seq_len.is_some()),
            (K::MicroBatch, self.micro_batch.is_some()),
            (K::Checkpointing, self.checkpointing),
            (K::EagerAttention, self.eager_attention),
            (K::Layers, self.layers.is_some()),
            (K::HiddenSize, self.hidden_size.is_some()),
            (K::Heads, self.heads.is_some()),
            (K::Loading, self.loading.is_some()),
            (K::CheckpointDtype, self.checkpoint_dtype.is_some()),
            (K::SaveStateDict, self.save_state_dict.is_some()),
            (K::ResumeLoad, self.resume_load.is_some()),
            (K::ResumeWorldSize, self.resume_world_size.is_some()),
            (K::NvmeBufferCount, self.nvme_buffer_count.is_some()),
            (K::NvmeBufferSize, self.nvme_buffer_size.is_some()),
            (K::NvmeMaxInCpu, self.nvme_max_in_cpu.is_some()),
            (
                K::NvmeOptimizerBufferCount,
                self.nvme_optimizer_buffer_count.is_some(),
            ),
            (K::AioBlockSize, self.aio_block_size.is_some()),
            (K::AioQueueDepth, self.aio_queue_depth.is_some()),
            (K::AioThreadCount, self.aio_thread_count.is_some()),
        ]
        .into_iter()
        .filter_map(|(id, set)| set.then_some(id))
        .collect()
    }

    /// True when any planner flag is set: any knob of the training table but the model's size
    /// and the settings that only refine another flag (heads, attention, checkpointing).
    fn any(&self) -> bool {
        self.given().into_iter().any(|id| {
            !matches!(
                id,
                K::Params | K::Heads | K::Checkpointing | K::EagerAttention
            )
        })
    }

    /// The first flag that only a training plan uses (strategy, offload, precision, optimizer,
    /// fine-tuning, activations, loading, NVMe), as its flag; for `--inference`.
    pub fn training_only_flag(&self) -> Option<&'static str> {
        let only = self
            .given()
            .into_iter()
            .filter(|id| knobs::knob(*id).plan == Plan::Training);
        let (nvme, other): (Vec<K>, Vec<K>) = only.partition(|id| is_nvme(*id));
        other.first().or(nvme.first()).map(|id| knobs::flag(*id))
    }

    /// The first NVMe setting given, as its flag.
    fn nvme_flag(&self) -> Option<&'static str> {
        self.given()
            .into_iter()
            .find(|id| is_nvme(*id))
            .map(knobs::flag)
    }

    /// A flag that can't change this plan: an NVMe setting without NVMe offload, an attention
    /// or shape flag without --seq-len.
    fn inapplicable(&self, plan: &TrainingPlan) -> Option<(&'static str, String)> {
        let nvme = plan.offload_optimizer == OffloadTarget::Nvme
            || plan.offload_param == OffloadTarget::Nvme;
        if let (false, Some(flag)) = (nvme, self.nvme_flag()) {
            return Some((flag, format!("--{} nvme", knobs::flag(K::OffloadOptimizer))));
        }
        let needs_seq = [K::Checkpointing, K::EagerAttention, K::Layers, K::Heads];
        let given = self.given();
        match needs_seq.into_iter().find(|id| given.contains(id)) {
            Some(id) if self.seq_len.is_none() => Some((
                knobs::flag(id),
                format!(
                    "--{} and --{}",
                    knobs::flag(K::SeqLen),
                    knobs::flag(K::MicroBatch)
                ),
            )),
            _ => None,
        }
    }

    /// The catalogue preset `--preset` or `--model` names.
    pub fn chosen_preset(&self) -> Option<&'static presets::Preset> {
        self.preset
            .as_deref()
            .and_then(presets::preset)
            .or_else(|| self.model.as_ref().and_then(ModelChoice::preset))
    }

    /// The model files `--model PATH` read.
    pub fn model_files(&self) -> Option<&crate::inputs::model_files::ModelRead> {
        self.model.as_ref().and_then(ModelChoice::files)
    }

    /// The model flags given beside `--model` (as `--flag`), which replace what it gave.
    pub fn model_overrides(&self, kv_heads: bool) -> Vec<String> {
        if self.model.is_none() {
            return Vec::new();
        }
        let given = self.given();
        let model = [
            K::Params,
            K::LargestLayerParams,
            K::Layers,
            K::HiddenSize,
            K::Heads,
        ];
        model
            .into_iter()
            .filter(|id| given.contains(id))
            .chain(kv_heads.then_some(K::KvHeads))
            .chain(
                given
                    .contains(&K::CheckpointDtype)
                    .then_some(K::CheckpointDtype),
            )
            .map(|id| format!("--{}", knobs::flag(id)))
            .collect()
    }

    /// The plan these flags describe, `None` when no model was given.
    ///
    /// # Errors
    /// When planner flags are given without `--params` or `--preset`.
    pub fn plan(
        &self,
        lang: Lang,
        profile: &MachineProfile,
    ) -> Result<Option<TrainingPlan>, String> {
        let preset = self.chosen_preset();
        let read = self.model_files();
        let mut plan = match (preset, self.params.or(read.and_then(|r| r.params()))) {
            (Some(p), _) => defaults::plan_for_preset(p, profile),
            (None, Some(p)) => defaults::plan_for_params(p, profile),
            (None, None) if self.any() || self.model.is_some() => {
                return Err(crate::i18n::tr(lang, Msg::FlagNeedsModel).to_string());
            }
            (None, None) => return Ok(None),
        };
        if let (Some(_), Some(p)) = (preset, self.params) {
            plan.params = p;
        }
        if let Some(l) = self.largest_layer_params.or(read
            .and_then(|r| r.largest_tensor.as_ref())
            .map(|t| t.elements))
        {
            plan.largest_layer_params = Some(l);
        }
        plan.precision = match self.precision {
            Some(PrecisionArg::Fp32) => Precision::Fp32,
            Some(PrecisionArg::Bf16) => Precision::Bf16,
            None | Some(PrecisionArg::Mixed16) => Precision::Mixed16,
        };
        plan.optimizer = match self.optimizer {
            None | Some(OptimizerArg::Adam) => Optimizer::Adam,
            Some(OptimizerArg::SgdMomentum) => Optimizer::SgdMomentum,
            Some(OptimizerArg::Adam8bit) => Optimizer::Adam8bit,
            Some(OptimizerArg::Adafactor) => Optimizer::Adafactor,
            Some(OptimizerArg::PagedAdam8bit) => Optimizer::PagedAdam8bit,
        };
        plan.strategy = match (self.strategy, self.zero_stage) {
            (Some(StrategyArg::Ddp), _) | (None, Some(0)) => Strategy::Ddp,
            (Some(StrategyArg::Zero1), _) | (None, Some(1)) => Strategy::Zero1,
            (Some(StrategyArg::Zero3), _) | (None, Some(3)) => Strategy::Zero3,
            (Some(StrategyArg::Fsdp), _) => Strategy::FsdpFullShard,
            (Some(StrategyArg::Zero2), _) | (None, Some(2)) => Strategy::Zero2,
            (None, _) => crate::advisor::defaults::strategy(finetune_of(self.finetune)),
        };
        plan.offload_optimizer = offload(self.offload_optimizer);
        plan.offload_param = offload(self.offload_param);
        plan.zero_init = self.zero_init;
        plan.optimizer_in_backward = self.optimizer_in_backward;
        if let Some(g) = self.gpus_per_node {
            plan.gpus_per_node = g;
        }
        plan.nodes = self.nodes.unwrap_or(1);
        plan.finetune = finetune_of(self.finetune);
        if let Some(s) = self.lora_share {
            plan.lora_trainable_share = s;
        }
        if let (Some(seq_len), Some(micro_batch)) = (self.seq_len, self.micro_batch) {
            let shape = match (self.layers, self.hidden_size) {
                (Some(layers), Some(hidden)) => Some(TransformerShape {
                    hidden,
                    layers,
                    heads: self.heads,
                    ..TransformerShape::default()
                }),
                _ => plan
                    .preset()
                    .and_then(|p| p.shape)
                    .or_else(|| read.and_then(|r| r.shape()))
                    .map(|s| TransformerShape {
                        heads: self.heads.or(s.heads),
                        ..s
                    }),
            };
            plan.activations = Some(ActivationInput {
                flash_attention: !self.eager_attention,
                seq_len,
                micro_batch,
                checkpointing: self.checkpointing,
                shape,
            });
        }
        plan.loading = self.loading.map(|l| match l {
            LoadingArg::EveryRank => LoadingMethod::EveryRank,
            LoadingArg::Rank0 => LoadingMethod::Rank0Broadcast,
            LoadingArg::MetaDevice => LoadingMethod::MetaDevice,
            LoadingArg::LowCpuMemUsage => LoadingMethod::LowCpuMemUsage,
            LoadingArg::Mmap => LoadingMethod::Mmap,
        });
        if let Some(s) = self.save_state_dict {
            plan.save_state_dict = Some(match s {
                SaveArg::Full => SaveStateDict::Full,
                SaveArg::FullEveryRank => SaveStateDict::FullEveryRank,
                SaveArg::Sharded => SaveStateDict::Sharded,
            });
        }
        if let Some(r) = self.resume_load {
            plan.resume_load = Some(match r {
                ResumeArg::EveryRank => ResumeLoad::EveryRank,
                ResumeArg::Rank0 => ResumeLoad::Rank0,
                ResumeArg::PerRank => ResumeLoad::PerRank,
            });
        }
        if self.resume_world_size.is_some() {
            plan.resume_world_size = self.resume_world_size;
        }
        if let Some(c) = self.checkpoint_dtype_given() {
            plan.checkpoint_dtype = c;
        } else if let Some(d) = read.and_then(disk_dtype) {
            plan.checkpoint_dtype = d;
        }
        if self.nvme_flag().is_some() {
            let d = NvmeConfig::default();
            plan.nvme = Some(NvmeConfig {
                param_buffer_count: self.nvme_buffer_count.unwrap_or(d.param_buffer_count),
                param_buffer_size: self.nvme_buffer_size.unwrap_or(d.param_buffer_size),
                max_in_cpu: self.nvme_max_in_cpu.unwrap_or(d.max_in_cpu),
                optimizer_buffer_count: self
                    .nvme_optimizer_buffer_count
                    .unwrap_or(d.optimizer_buffer_count),
                aio_block_size: self.aio_block_size.unwrap_or(d.aio_block_size),
                aio_queue_depth: self.aio_queue_depth.unwrap_or(d.aio_queue_depth),
                aio_thread_count: self.aio_thread_count.unwrap_or(d.aio_thread_count),
            });
        }
        if let Some((flag, needs)) = self.inapplicable(&plan) {
            return Err(trf(
                lang,
                Msg::FlagOnlyWith,
                &[("flag", flag), ("needs", &needs)],
            ));
        }
        Ok(Some(plan))
    }
}

/// True for DeepSpeed's NVMe offload settings (the rows whose default is DeepSpeed's).
fn is_nvme(id: K) -> bool {
    knobs::knob(id).source == DefaultSource::DeepSpeed
}

/// The checkpoint's element type as its headers show it: the type holding most bytes (F32 is
/// fp32; BF16, F16 and 8-bit types count as 16-bit for loading; 4-bit GGUF types as int4).
pub(super) fn disk_dtype(r: &crate::inputs::model_files::ModelRead) -> Option<CheckpointDtype> {
    let (name, _) = r.tensors.as_ref()?.by_dtype.first()?;
    Some(match name.as_str() {
        "F32" => CheckpointDtype::Fp32,
        n if n.starts_with("Q4") || n.starts_with("IQ4") || n == "MXFP4" => CheckpointDtype::Int4,
        _ => CheckpointDtype::Bf16,
    })
}
