//! The `checkpoint-save` and `resume` phases of a training plan: CPU RAM per node (the node of
//! rank 0) while the state is saved and while a saved state is read back, on top of what the
//! training phase holds. Formulas and sources: `docs/model.md` § "Training memory: saving and
//! resuming".

use super::amounts::Bytes;
use super::breakdown::{Phase, PhaseId};
use super::checkpointing::{Lifecycle, ResumeLoad, SaveStateDict};
use super::loading::CHECKPOINT_SHARD_BYTES;
use super::plan::{FineTune, OffloadTarget, Strategy, TrainingPlan};

/// What the framework does when the plan names no save: FSDP writes one full state dict from
/// rank 0 (torchtune's `full_finetune_distributed` recipe, `training.gather_cpu_state_dict`;
/// accelerate's FSDP1 `fsdp_state_dict_type` FULL_STATE_DICT), DDP saves rank 0's copy, and
/// DeepSpeed writes its ZeRO checkpoint, one partition per rank (`save_checkpoint`).
pub fn default_save(plan: &TrainingPlan) -> SaveStateDict {
    match plan.strategy {
        Strategy::FsdpFullShard | Strategy::Ddp => SaveStateDict::Full,
        Strategy::Zero1 | Strategy::Zero2 | Strategy::Zero3 => SaveStateDict::Sharded,
    }
}

fn deepspeed(s: Strategy) -> bool {
    matches!(s, Strategy::Zero1 | Strategy::Zero2 | Strategy::Zero3)
}

/// Ranks that wrote the checkpoint the plan resumes (`--resume-world-size`, else the plan's own).
pub fn saved_world_size(plan: &TrainingPlan) -> u64 {
    let own = u64::from(plan.gpus_per_node) * u64::from(plan.nodes);
    plan.resume_world_size.map_or(own, u64::from).max(1)
}

/// What the framework does when the plan names no resume path: FSDP's full state dict saved on
/// rank 0 is held once per node (see below); any other full checkpoint is `torch.load`ed by
/// every rank (DDP scripts); a sharded one
/// is read rank by rank (DCP reshards to any world size; DeepSpeed reads its own partition);
/// except DeepSpeed ZeRO-1/2 at another world size, whose elastic loading reads every partition
/// in every rank (deepspeed/runtime/engine.py `_get_all_zero_checkpoint_state_dicts`). ZeRO-3
/// has no elastic loading ("ZeRO-3 elastic checkpointing is deprecated and unsupported. Use
/// Universal Checkpointing instead.", deepspeed/runtime/zero/stage3.py `load_state_dict`), so
/// its default at another world size is the universal checkpoint, read per rank.
pub fn default_resume(plan: &TrainingPlan, save: SaveStateDict) -> ResumeLoad {
    let own = u64::from(plan.gpus_per_node) * u64::from(plan.nodes);
    let elsewhere = saved_world_size(plan) != own;
    if deepspeed(plan.strategy) {
        if elsewhere && plan.strategy != Strategy::Zero3 {
            ResumeLoad::EveryRank
        } else {
            ResumeLoad::PerRank
        }
    } else if save == SaveStateDict::Sharded {
        ResumeLoad::PerRank
    } else if plan.strategy == Strategy::FsdpFullShard && save == SaveStateDict::Full {
        // One copy on the node: torchtune's checkpointers read it with `safe_torch_load(...,
        // mmap=True)` (torchtune/training/checkpointing/_utils.py), so the ranks share the
        // page cache, and accelerate's `load_fsdp_optimizer` reads the optimizer on rank 0
        // only (`FullOptimStateDictConfig(rank0_only=True)`, accelerate/utils/fsdp_utils.py).
        ResumeLoad::Rank0
    } else {
        ResumeLoad::EveryRank
    }
}

/// The save and resume figures of `plan`, with `b` its bytes per parameter of each state
/// (the same [`Bytes::of`] the training formulas use) and `largest` its largest layer.
///
/// With G ranks per node, T in all, S ranks that wrote the checkpoint, P parameters of which
/// P_t are trained (P × the LoRA share for LoRA/QLoRA), w the working weights' bytes per
/// parameter and s = (master weights, else working weights) + optimizer states per trained
/// parameter (the saved state; 12 for mixed-precision Adam), on the node of rank 0:
///
/// Save:
/// - DDP: 4 × L: `torch.save` copies one GPU storage at a time to the CPU
///   (torch/serialization.py `_save`);
/// - FSDP full, rank 0: s × P_t gathered in rank 0's CPU RAM (`offload_to_cpu`, `rank0_only`);
///   full in every rank: G × s × P_t; sharded (`SHARDED_STATE_DICT` through
///   torch.distributed.checkpoint's `FileSystemWriter`, a synchronous save): each rank's local
///   shards are written as they lie, a CPU tensor in place and a GPU one copied to the CPU one
///   tensor at a time (torch/distributed/checkpoint/filesystem.py `_write_files_from_queue`),
///   so nothing with the state offloaded to the CPU, else G × master × L (one largest fp32
///   tensor per rank); an `async_save` would stage the whole shard, G × s × P_t / T;
/// - DeepSpeed: the ZeRO checkpoint through `torch.save`, nothing with the optimizer offloaded
///   to the CPU (its tensors are written where they lie), else G × master × P_t / T (each rank's
///   flat fp32 partition copied to the CPU, one storage at a time); full adds ZeRO-3's consolidated 16-bit
///   state dict on rank 0 (w × P, `_zero3_consolidated_16bit_state_dict`, × G in every rank) or,
///   for ZeRO-1/2, `save_pretrained`'s one safetensors shard held whole (min(5 GB, w × P);
///   safetensors `save_file` builds every tensor's bytes of the file first).
///
/// Resume (DeepSpeed reads its ZeRO checkpoint whatever the save, after, for ZeRO-1/2, the
/// model-states file with the 16-bit module in every rank, G × w × P_t (a PEFT model's file
/// holds its trained parameters only), kept on the CPU by
/// `SDLoader.load`'s `map_location`, deepspeed/runtime/state_dict_factory.py; the larger of
/// the two counts):
/// - every rank: G × s × P_t;
/// - rank 0: s × P_t;
/// - per rank: a sharded FSDP state read by torch.distributed.checkpoint `load` into the
///   state dict's own tensors in place (torch/distributed/checkpoint/state_dict_loader.py), so
///   nothing beyond the states already counted with them on the CPU, else one largest fp32
///   tensor read per rank, G × master × L; a full one can't be split, so rank 0's
///   s × P_t; DeepSpeed at the same world size G × s × P_t / S, at another (universal
///   checkpoint, one parameter at a time) G × s × L.
pub(super) fn lifecycle(plan: &TrainingPlan, b: &Bytes, largest: u64) -> Lifecycle {
    let save = plan.save_state_dict.unwrap_or_else(|| default_save(plan));
    let resume = plan
        .resume_load
        .unwrap_or_else(|| default_resume(plan, save));
    let p = plan.params as f64;
    let trained = if plan.finetune == FineTune::Full {
        p
    } else {
        p * plan.lora_trainable_share
    };
    let g = f64::from(plan.gpus_per_node);
    let t = g * f64::from(plan.nodes);
    let s_world = saved_world_size(plan) as f64;
    let l = largest as f64;
    let master = if b.master > 0.0 { b.master } else { b.weights };
    let s = master + b.states;
    let whole = s * trained;
    // DeepSpeed's ZeRO checkpoint goes through `torch.save`, which writes a CPU tensor where it
    // lies and copies a GPU one to the CPU one storage at a time (torch/serialization.py
    // `_save`): with the optimizer offloaded to the CPU it adds nothing; otherwise each rank
    // stages its largest storage, the flat fp32 partition (`single_partition_of_fp32_groups`,
    // deepspeed/runtime/zero/stage_1_and_2.py): G × master × P_t / T.
    let zero_checkpoint = if plan.offload_optimizer == OffloadTarget::Cpu {
        0.0
    } else {
        g * master * trained / t
    };
    let save_cpu = match (plan.strategy, save) {
        (Strategy::Ddp, _) => 4.0 * l,
        (Strategy::FsdpFullShard, SaveStateDict::Full) => whole,
        (Strategy::FsdpFullShard, SaveStateDict::FullEveryRank) => g * whole,
        (Strategy::FsdpFullShard, SaveStateDict::Sharded) => {
            if plan.offload_optimizer == OffloadTarget::Cpu {
                0.0
            } else {
                g * master * l
            }
        }
        (_, SaveStateDict::Sharded) => zero_checkpoint,
        (st, full) => {
            let copies = if full == SaveStateDict::FullEveryRank {
                g
            } else {
                1.0
            };
            let consolidated = if st == Strategy::Zero3 {
                b.weights * p
            } else {
                (b.weights * p).min(CHECKPOINT_SHARD_BYTES)
            };
            zero_checkpoint + copies * consolidated
        }
    };
    let resume_cpu = if deepspeed(plan.strategy) {
        // The module file holds the trained parameters only for LoRA/QLoRA: transformers'
        // Trainer saves a PEFT model with `save_checkpoint(output_dir,
        // exclude_frozen_parameters=True)` (trainer.py `_save_optimizer_and_scheduler`).
        let module = if plan.strategy == Strategy::Zero3 {
            0.0
        } else {
            g * b.weights * trained
        };
        let states = match resume {
            ResumeLoad::EveryRank => g * whole,
            ResumeLoad::Rank0 => whole,
            ResumeLoad::PerRank if s_world as u64 == t as u64 => g * whole / s_world,
            ResumeLoad::PerRank => g * s * l,
        };
        // `load_checkpoint` reads the module file and lets it go (`_load_checkpoint` returns)
        // before `_load_zero_checkpoint` reads the optimizer partitions
        // (deepspeed/runtime/engine.py): the larger of the two, not both.
        module.max(states)
    } else {
        match (resume, save) {
            (ResumeLoad::EveryRank, _) => g * whole,
            (ResumeLoad::PerRank, SaveStateDict::Sharded) if plan.strategy != Strategy::Ddp => {
                if plan.offload_optimizer == OffloadTarget::Cpu {
                    0.0
                } else {
                    g * master * l
                }
            }
            _ => whole,
        }
    };
    Lifecycle {
        save,
        save_default: plan.save_state_dict.is_none(),
        resume,
        resume_default: plan.resume_load.is_none(),
        saved_world_size: s_world as u64,
        saved_bytes_per_param: s,
        save_cpu_bytes_per_node: crate::units::saturating_bytes(save_cpu),
        resume_cpu_bytes_per_node: crate::units::saturating_bytes(resume_cpu),
    }
}

/// The `checkpoint-save` and `resume` phases: the training phase's CPU RAM (the states it
/// holds and the runtime) plus what saving or reading adds ([`lifecycle`]); on the GPUs the
/// model states without activations (`states_gpu`: no step runs while saving or loading).
pub(super) fn phases(l: &Lifecycle, training: &Phase, states_gpu: u64) -> [Phase; 2] {
    [
        Phase {
            phase: PhaseId::CheckpointSave,
            cpu_bytes_per_node: training
                .cpu_bytes_per_node
                .saturating_add(l.save_cpu_bytes_per_node),
            gpu_bytes_per_gpu: states_gpu,
        },
        Phase {
            phase: PhaseId::Resume,
            cpu_bytes_per_node: training
                .cpu_bytes_per_node
                .saturating_add(l.resume_cpu_bytes_per_node),
            gpu_bytes_per_gpu: states_gpu,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::super::breakdown::{PhaseId, phase_cpu};
    use super::super::plan::TrainingPlan;
    use super::*;

    /// Llama-3.1-8B: 8,030,261,248 parameters (model.safetensors.index.json total_size / 2);
    /// its largest tensor, the 128,256 × 4,096 embedding, 525,336,576.
    const LLAMA_8B: u64 = 8_030_261_248;
    const LLAMA_8B_EMBED: u64 = 128_256 * 4_096;
    /// Llama-2-13B: 13,015,864,320 parameters; its embedding 32,000 × 5,120.
    const LLAMA_13B: u64 = 13_015_864_320;
    const LLAMA_13B_EMBED: u64 = 32_000 * 5_120;

    fn fsdp_8b_offloaded() -> TrainingPlan {
        TrainingPlan {
            save_state_dict: Some(SaveStateDict::Full),
            strategy: Strategy::FsdpFullShard,
            offload_optimizer: OffloadTarget::Cpu,
            offload_param: OffloadTarget::Cpu,
            gpus_per_node: 8,
            largest_layer_params: Some(LLAMA_8B_EMBED),
            ..TrainingPlan::new(LLAMA_8B)
        }
    }

    #[test]
    fn llama_8b_fsdp_full_state_dict_on_rank_0() {
        // Issue 33, case 1: FSDP full fine-tune on 8 GPUs with CPU offload, the full state
        // dict gathered on rank 0's CPU (offload_to_cpu, rank0_only): the fp32 parameters
        // (4 bytes) and AdamW's exp_avg and exp_avg_sq (4 + 4 bytes) of every parameter:
        // 12 × 8,030,261,248 = 96,363,134,976 bytes (89.7 GiB) on top of the training phase.
        let e = crate::advisor::training::estimate(&fsdp_8b_offloaded()).unwrap();
        assert_eq!(e.lifecycle.save, SaveStateDict::Full);
        // FSDP's default save, for a plan that names none, is the same full state dict.
        let mut quiet = fsdp_8b_offloaded();
        quiet.save_state_dict = None;
        let q = crate::advisor::training::estimate(&quiet).unwrap();
        assert!(q.lifecycle.save_default && q.lifecycle.save == SaveStateDict::Full);
        assert_eq!(q.lifecycle.save_cpu_bytes_per_node, 96_363_134_976);
        assert_eq!(e.lifecycle.save_cpu_bytes_per_node, 96_363_134_976);
        let training = phase_cpu(&e.phases, PhaseId::Training);
        let save = phase_cpu(&e.phases, PhaseId::CheckpointSave);
        assert_eq!(save - training, 96_363_134_976);
        // Resuming it the default way holds one copy per node (torchtune reads it memory-mapped,
        // the ranks sharing the page cache; accelerate loads the optimizer on rank 0 only):
        // reading adds what saving adds, and saving (the earlier of the two) sets the peak,
        // above loading (8 ranks × the bf16 checkpoint, 16 bytes per parameter, against
        // training's states + 12).
        assert_eq!(e.lifecycle.resume, ResumeLoad::Rank0);
        assert_eq!(e.lifecycle.resume_cpu_bytes_per_node, 96_363_134_976);
        assert_eq!(e.cpu_peak_phase, Some(PhaseId::CheckpointSave));
        assert_eq!(e.cpu_peak_bytes_per_node, save);
        // Every rank `torch.load`ing it whole holds 8 copies, 8 × 96,363,134,976: the peak.
        let mut p = fsdp_8b_offloaded();
        p.resume_load = Some(ResumeLoad::EveryRank);
        let e = crate::advisor::training::estimate(&p).unwrap();
        assert_eq!(e.lifecycle.resume_cpu_bytes_per_node, 770_905_079_808);
        assert_eq!(e.cpu_peak_phase, Some(PhaseId::Resume));
        // Without rank0_only every rank holds that copy: 8 × 96,363,134,976.
        let mut p = fsdp_8b_offloaded();
        p.save_state_dict = Some(SaveStateDict::FullEveryRank);
        let e = crate::advisor::training::estimate(&p).unwrap();
        assert_eq!(e.lifecycle.save_cpu_bytes_per_node, 770_905_079_808);
        // Sharded, written synchronously: with the optimizer (and so its states) offloaded,
        // every rank writes its CPU shards where they lie, adding nothing.
        p.save_state_dict = Some(SaveStateDict::Sharded);
        p.nodes = 2;
        let e = crate::advisor::training::estimate(&p).unwrap();
        assert_eq!(e.lifecycle.save_cpu_bytes_per_node, 0);
        // On the GPUs, each rank copies one tensor at a time: 8 ranks × 4 bytes (fp32 master)
        // × the largest tensor (the 128,256 × 4,096 embedding = 525,336,576 elements) =
        // 16,810,770,432 bytes.
        p.offload_optimizer = OffloadTarget::None;
        p.offload_param = OffloadTarget::None;
        let e = crate::advisor::training::estimate(&p).unwrap();
        assert_eq!(e.lifecycle.save_cpu_bytes_per_node, 16_810_770_432);
    }

    #[test]
    fn zero3_13b_written_on_16_resumed_on_8() {
        // Issue 33, case 2: a ZeRO-3 checkpoint of Llama-2-13B written by 16 ranks, resumed
        // on one node of 8. ZeRO-3 can't load it rigidly at another world size and has no
        // elastic loading, so it goes through a universal checkpoint: each rank reads one
        // parameter's fp32 weights, exp_avg and exp_avg_sq (12 bytes per element) at a time,
        // the largest being the embedding: 8 × 12 × 163,840,000 = 15,728,640,000 bytes per
        // node on top of the training phase (no offload: the runtime only).
        let plan = TrainingPlan {
            strategy: Strategy::Zero3,
            gpus_per_node: 8,
            resume_world_size: Some(16),
            largest_layer_params: Some(LLAMA_13B_EMBED),
            ..TrainingPlan::new(LLAMA_13B)
        };
        let e = crate::advisor::training::estimate(&plan).unwrap();
        assert_eq!(e.lifecycle.resume, ResumeLoad::PerRank);
        assert_eq!(e.lifecycle.saved_world_size, 16);
        assert_eq!(e.lifecycle.resume_cpu_bytes_per_node, 15_728_640_000);
        let runtime =
            super::super::loading::runtime_bytes(8, &crate::advisor::overhead::Overheads::TYPICAL);
        assert_eq!(
            phase_cpu(&e.phases, PhaseId::Resume),
            runtime + 15_728_640_000
        );
        // Every rank reading every one of the 16 partitions (what ZeRO-1/2's elastic loading
        // does): 8 ranks × 12 × 13,015,864,320 = 1,249,522,974,720 bytes per node.
        let mut every = plan.clone();
        every.resume_load = Some(ResumeLoad::EveryRank);
        let e = crate::advisor::training::estimate(&every).unwrap();
        assert_eq!(e.lifecycle.resume_cpu_bytes_per_node, 1_249_522_974_720);
        // Written by these 8 ranks, each reads its own partition: 8 × 12 × P / 8 =
        // 156,190,371,840 bytes.
        let mut same = plan;
        same.resume_world_size = None;
        let e = crate::advisor::training::estimate(&same).unwrap();
        assert_eq!(e.lifecycle.resume_cpu_bytes_per_node, 156_190_371_840);
    }

    #[test]
    fn zero2_written_by_4_resumed_on_32_loads_every_partition() {
        // The report: ZeRO-2 elastic loading at another world size reads all four
        // partitions in every rank (12 bytes per parameter each), after every rank's copy of
        // the 16-bit module (2 bytes) was let go: per node of 8, 8 × 12 × P.
        let plan = TrainingPlan {
            strategy: Strategy::Zero2,
            gpus_per_node: 8,
            nodes: 4,
            resume_world_size: Some(4),
            largest_layer_params: Some(1_000),
            ..TrainingPlan::new(1_000_000_000)
        };
        let e = crate::advisor::training::estimate(&plan).unwrap();
        assert_eq!(e.lifecycle.resume, ResumeLoad::EveryRank);
        assert_eq!(
            e.lifecycle.resume_cpu_bytes_per_node,
            8 * 12 * 1_000_000_000
        );
    }
}
