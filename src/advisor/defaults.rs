//! Defaults that more than one view needs, so the window, the command line and the reports fill
//! a value the user didn't give the same way. A default that only one view uses stays there.

use super::capacity::vram_totals;
use super::training::{FineTune, Preset, Strategy, TrainingPlan};
use crate::profile::MachineProfile;

/// GPUs per node of a training plan the user gave no count for: the machine's discrete GPUs;
/// on a machine with only unified-memory GPUs (Apple Silicon, DGX Spark) or none, 1. A plan is
/// usually written for the machine it runs on; `--gpus-per-node` or the window's field changes
/// it.
pub fn gpus_per_node(profile: &MachineProfile) -> u32 {
    let v = vram_totals(profile);
    let gpus = if v.discrete_gpus > 0 {
        v.discrete_gpus
    } else {
        v.unified_gpus
    };
    gpus.max(1)
}

/// The parallel strategy of a plan the user named none for: ZeRO-2 for a full fine-tune (the
/// seed article's setting, and DeepSpeed's usual start), plain data parallel (DDP) for LoRA
/// and QLoRA, which is what PEFT and TRL run when launched without a DeepSpeed or FSDP
/// configuration (every rank keeps the frozen base; only the adapters train).
pub fn strategy(finetune: FineTune) -> Strategy {
    match finetune {
        FineTune::Full => Strategy::Zero2,
        FineTune::Lora | FineTune::Qlora => Strategy::Ddp,
    }
}

/// The plan for a model preset on `profile` with every other input at its default: mixed
/// precision Adam, ZeRO-2 without offload ([`strategy`] of a full fine-tune), full training, [`gpus_per_node`] GPUs on one node.
pub fn plan_for_preset(preset: &Preset, profile: &MachineProfile) -> TrainingPlan {
    TrainingPlan {
        gpus_per_node: gpus_per_node(profile),
        ..TrainingPlan::from_preset(preset)
    }
}

/// The model a plan starts from when nobody chose one (the window's first plan): Llama 2 7B,
/// the seed article's question. Its plan is [`plan_for_preset`]'s, as `--preset llama2-7b`
/// gives on the command line.
pub const FIRST_PRESET: &str = "llama2-7b";

/// The plan the window shows before the user changes anything: [`FIRST_PRESET`] with the
/// defaults of [`plan_for_preset`] (ZeRO-2 without offload) on one GPU; the window sets the
/// GPU count to [`gpus_per_node`] once it knows the machine.
pub fn first_plan() -> TrainingPlan {
    let preset =
        super::training::presets::preset(FIRST_PRESET).expect("the first preset is in the table");
    TrainingPlan::from_preset(preset)
}

/// A plan for `params` parameters on `profile`, with the defaults of [`plan_for_preset`].
pub fn plan_for_params(params: u64, profile: &MachineProfile) -> TrainingPlan {
    TrainingPlan {
        gpus_per_node: gpus_per_node(profile),
        ..TrainingPlan::new(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{Gpu, GpuVendor};

    fn gpu(index: u32, unified: bool) -> Gpu {
        Gpu {
            index,
            vendor: GpuVendor::Nvidia,
            vram_total_bytes: (!unified).then_some(24 << 30),
            unified_memory: unified,
            ..Gpu::unknown()
        }
    }

    #[test]
    fn gpus_per_node_counts_discrete_gpus_else_one() {
        let mut p = MachineProfile::unknown();
        assert_eq!(gpus_per_node(&p), 1, "no GPU: a plan still has one");
        p.gpus = (0..8).map(|i| gpu(i, false)).collect();
        assert_eq!(gpus_per_node(&p), 8);
        p.gpus = vec![gpu(0, true)];
        assert_eq!(gpus_per_node(&p), 1, "DGX Spark: its one unified GPU");
    }
}
