//! How a training run saves and resumes its checkpoint (the plan's choices) and what the
//! `checkpoint-save` and `resume` phases were computed from. Types only: the phases are
//! computed in `lifecycle`. Sources in `docs/model.md` § "Training memory: saving and resuming".

use serde::{Deserialize, Serialize};

/// How the training state is saved (`--save-state-dict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SaveStateDict {
    /// One full state dict written by rank 0: FSDP `StateDictType.FULL_STATE_DICT` with
    /// `FullStateDictConfig(offload_to_cpu=True, rank0_only=True)` and
    /// `FullOptimStateDictConfig` alike (torch/distributed/fsdp/api.py;
    /// torch/distributed/fsdp/_state_dict_utils.py `_full_post_state_dict_hook`), FSDP2's
    /// `get_state_dict(..., StateDictOptions(full_state_dict=True, cpu_offload=True))`
    /// (torch/distributed/checkpoint/state_dict.py), torchtune's `gather_cpu_state_dict`;
    /// DeepSpeed ZeRO-3 with `stage3_gather_16bit_weights_on_model_save`
    /// (deepspeed/runtime/engine.py `_zero3_consolidated_16bit_state_dict`) or
    /// `save_pretrained` from rank 0.
    Full,
    /// A full state dict gathered in every rank's CPU RAM: `offload_to_cpu=True` without
    /// `rank0_only` (FSDP's `FullStateDictConfig` defaults `rank0_only=False`).
    FullEveryRank,
    /// Each rank writes its own shard: FSDP `SHARDED_STATE_DICT` through
    /// `torch.distributed.checkpoint` (DCP), DeepSpeed's ZeRO checkpoint (`save_checkpoint`:
    /// one `*_optim_states.pt` per data-parallel rank).
    Sharded,
}

/// How the saved state is read back when the run resumes (`--resume-load`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResumeLoad {
    /// Every rank loads everything that was saved: `torch.load` of a full checkpoint in every
    /// rank (torchtune's checkpointers, most DDP/FSDP scripts); DeepSpeed ZeRO-1/2 at another
    /// world size (`elastic_checkpoint`: deepspeed/runtime/engine.py
    /// `_get_all_zero_checkpoint_state_dicts` loads every `*_optim_states.pt` in every rank).
    EveryRank,
    /// Rank 0 loads, the other ranks receive a broadcast: `StateDictOptions(
    /// full_state_dict=True, broadcast_from_rank0=True)` with `set_state_dict`
    /// (torch/distributed/checkpoint/state_dict.py).
    Rank0,
    /// Each rank reads only what it keeps: DCP's `load` of a sharded checkpoint (reshards to
    /// any world size); DeepSpeed's own partition at the same world size, or a universal
    /// checkpoint (`ds_to_universal.py`, `checkpoint.load_universal`) at another, read one
    /// parameter at a time (deepspeed/checkpoint/universal_checkpoint.py
    /// `load_hp_checkpoint_state`).
    PerRank,
}

/// What the save and resume phases were computed from (`lifecycle` in the plan's JSON).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lifecycle {
    /// How the state is saved.
    pub save: SaveStateDict,
    /// True when the plan named none and the framework's default was taken.
    pub save_default: bool,
    /// How it is read back.
    pub resume: ResumeLoad,
    /// True when the plan named none and the framework's default was taken.
    pub resume_default: bool,
    /// Ranks that wrote the checkpoint being resumed.
    pub saved_world_size: u64,
    /// Bytes per trained parameter in the saved state: the parameters as the optimizer
    /// holds them (fp32 master weights under mixed precision, else the working weights) plus
    /// the optimizer states.
    pub saved_bytes_per_param: f64,
    /// CPU RAM per node the save adds to the training phase's, bytes (the node of rank 0).
    pub save_cpu_bytes_per_node: u64,
    /// CPU RAM per node reading the checkpoint adds to the training states, bytes.
    pub resume_cpu_bytes_per_node: u64,
}

impl Default for Lifecycle {
    /// Nothing saved or resumed (assessments written before the phases existed).
    fn default() -> Lifecycle {
        Lifecycle {
            save: SaveStateDict::Sharded,
            save_default: true,
            resume: ResumeLoad::PerRank,
            resume_default: true,
            saved_world_size: 1,
            saved_bytes_per_param: 0.0,
            save_cpu_bytes_per_node: 0,
            resume_cpu_bytes_per_node: 0,
        }
    }
}
