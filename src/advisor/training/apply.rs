//! The `advise` flags that turn one training plan into another (see
//! [`crate::advisor::recommend::apply`]).

use super::plan::{FineTune, LoadingMethod, OffloadTarget, Strategy, TrainingPlan};
use crate::advisor::recommend::apply::Args;

fn strategy(s: Strategy) -> &'static str {
    match s {
        Strategy::Ddp => "ddp",
        Strategy::Zero1 => "zero1",
        Strategy::Zero2 => "zero2",
        Strategy::Zero3 => "zero3",
        Strategy::FsdpFullShard => "fsdp",
    }
}

fn offload(o: OffloadTarget) -> &'static str {
    match o {
        OffloadTarget::None => "none",
        OffloadTarget::Cpu => "cpu",
        OffloadTarget::Nvme => "nvme",
    }
}

fn loading(m: LoadingMethod) -> &'static str {
    match m {
        LoadingMethod::EveryRank => "every-rank",
        LoadingMethod::Rank0Broadcast => "rank0",
        LoadingMethod::MetaDevice => "meta-device",
        LoadingMethod::LowCpuMemUsage => "low-cpu-mem-usage",
        LoadingMethod::Mmap => "mmap",
    }
}

fn finetune(f: FineTune) -> &'static str {
    match f {
        FineTune::Full => "full",
        FineTune::Lora => "lora",
        FineTune::Qlora => "qlora",
    }
}

/// The flags that turn training plan `from` into `to`.
pub fn training(from: &TrainingPlan, to: &TrainingPlan) -> Vec<String> {
    let mut a = Args::default();
    // The command line's default strategy depends on the fine-tuning method (DDP for LoRA and
    // QLoRA, `advisor::defaults::strategy`): a change of method names its strategy too.
    if from.strategy != to.strategy || from.finetune != to.finetune {
        a.flag("strategy", strategy(to.strategy));
    }
    if from.offload_optimizer != to.offload_optimizer {
        a.flag("offload-optimizer", offload(to.offload_optimizer));
    }
    if from.offload_param != to.offload_param {
        a.flag("offload-param", offload(to.offload_param));
    }
    if to.zero_init && !from.zero_init {
        a.switch("zero-init");
    }
    if from.finetune != to.finetune {
        a.flag("finetune", finetune(to.finetune));
    }
    if from.loading != to.loading {
        if let Some(m) = to.loading {
            a.flag("loading", loading(m));
        }
    }
    if let (Some(f), Some(t)) = (from.activations, to.activations) {
        if t.checkpointing && !f.checkpointing {
            a.switch("checkpointing");
        }
        if t.micro_batch != f.micro_batch {
            a.flag("micro-batch", t.micro_batch);
        }
    }
    a.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_training_change_is_the_flags_that_differ() {
        let from = TrainingPlan {
            strategy: Strategy::Zero3,
            offload_optimizer: OffloadTarget::Cpu,
            offload_param: OffloadTarget::Cpu,
            zero_init: true,
            ..TrainingPlan::new(7_000_000_000)
        };
        let to = TrainingPlan {
            offload_optimizer: OffloadTarget::None,
            offload_param: OffloadTarget::None,
            ..from.clone()
        };
        assert_eq!(
            training(&from, &to),
            ["--offload-optimizer", "none", "--offload-param", "none"]
        );
    }
}
