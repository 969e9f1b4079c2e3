//! Training-memory planner: memory per GPU, per node's CPU RAM and on NVMe for a training plan
//! (strategy, offload, precision, optimizer, LoRA/QLoRA, how the checkpoint is loaded), in two
//! phases (loading and training), judged against a machine. See `docs/model.md` § "Training
//! memory" for every formula and its source.

pub mod activations;
mod advice;
mod amounts;
mod breakdown;
pub mod checkpointing;
mod estimate;
mod fsdp;
pub mod knob_values;
mod lifecycle;
mod lifecycle_levers;
pub mod loading;
mod loading_levers;
mod memory;
mod pairs;
mod peft;
mod plan;
mod plan_against;
pub mod presets;
mod swap_lever;
pub mod zero;

pub use advice::outcome_of;
use advice::outcome_of_judged;
pub use breakdown::{
    BreakdownItem, Estimate, EstimateFormula, Location, Phase, PhaseId, StateKind, peak_cpu,
    peak_gpu, peak_phase, phase_cpu,
};
pub use checkpointing::{Lifecycle, ResumeLoad, SaveStateDict};
pub use estimate::{MAX_PARAMS, estimate, estimate_with};
pub use lifecycle::{default_resume, default_save, saved_world_size};
pub use memory::*;
pub use plan::*;
pub use plan_against::plan_against;
pub use presets::{Preset, TransformerShape, presets};
