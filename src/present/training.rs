//! Words for the training-memory planner.

use crate::advisor::training::{
    AlternativeId, EstimateSource, FineTune, Location, OffloadTarget, Optimizer, PlanError,
    PlanWarning, Precision, StateKind, Strategy, TrainingMemory,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

/// Strategy name ("ZeRO-3", "FSDP full shard").
pub fn strategy(lang: Lang, s: Strategy) -> &'static str {
    match s {
        Strategy::Ddp => tr(lang, Msg::TrainStrategyDdp),
        Strategy::Zero1 => "ZeRO-1",
        Strategy::Zero2 => "ZeRO-2",
        Strategy::Zero3 => "ZeRO-3",
        Strategy::FsdpFullShard => "FSDP FULL_SHARD",
    }
}

/// Offload target ("none", "CPU", "NVMe").
pub fn offload(lang: Lang, o: OffloadTarget) -> &'static str {
    match o {
        OffloadTarget::None => tr(lang, Msg::TrainOffloadNone),
        OffloadTarget::Cpu => "CPU",
        OffloadTarget::Nvme => "NVMe",
    }
}

/// Precision ("bf16/fp16 mixed", "fp32").
pub fn precision(lang: Lang, p: Precision) -> &'static str {
    match p {
        Precision::Fp32 => "fp32",
        Precision::Mixed16 => tr(lang, Msg::TrainPrecisionMixed),
    }
}

/// Optimizer name.
pub fn optimizer(lang: Lang, o: Optimizer) -> &'static str {
    match o {
        Optimizer::Adam => "Adam / AdamW",
        Optimizer::SgdMomentum => tr(lang, Msg::TrainOptimizerSgd),
        Optimizer::Adam8bit => tr(lang, Msg::TrainOptimizerAdam8bit),
        Optimizer::Adafactor => "Adafactor",
    }
}

/// Fine-tuning method.
pub fn finetune(lang: Lang, f: FineTune) -> &'static str {
    match f {
        FineTune::Full => tr(lang, Msg::TrainFinetuneFull),
        FineTune::Lora => "LoRA",
        FineTune::Qlora => "QLoRA",
    }
}

/// Breakdown line name.
pub fn state_kind(lang: Lang, k: StateKind) -> &'static str {
    tr(
        lang,
        match k {
            StateKind::Weights => Msg::TrainStateWeights,
            StateKind::Gradients => Msg::TrainStateGradients,
            StateKind::MasterWeights => Msg::TrainStateMaster,
            StateKind::OptimizerStates => Msg::TrainStateOptimizer,
            StateKind::Adapters => Msg::TrainStateAdapters,
            StateKind::Buffers => Msg::TrainStateBuffers,
        },
    )
}

/// Where memory is used ("each GPU", "CPU RAM per node", "NVMe per node").
pub fn location(lang: Lang, l: Location) -> &'static str {
    tr(
        lang,
        match l {
            Location::Gpu => Msg::TrainLocationGpu,
            Location::Cpu => Msg::TrainLocationCpu,
            Location::Nvme => Msg::TrainLocationNvme,
        },
    )
}

/// Alternative plan name.
pub fn alternative(lang: Lang, a: AlternativeId) -> &'static str {
    tr(
        lang,
        match a {
            AlternativeId::Zero3 => Msg::TrainAltZero3,
            AlternativeId::Zero3CpuOffload => Msg::TrainAltZero3Cpu,
            AlternativeId::Zero3NvmeOffload => Msg::TrainAltZero3Nvme,
            AlternativeId::Lora => Msg::TrainAltLora,
            AlternativeId::Qlora => Msg::TrainAltQlora,
        },
    )
}

/// Whose formula.
pub fn source(lang: Lang, s: EstimateSource) -> &'static str {
    tr(
        lang,
        match s {
            EstimateSource::DeepspeedEstimator => Msg::TrainSourceDeepspeed,
            EstimateSource::RamvramEstimate => Msg::TrainSourceRamvram,
        },
    )
}

/// A plan error's text, without the input's name.
pub fn plan_error_text(lang: Lang, e: PlanError) -> &'static str {
    tr(
        lang,
        match e {
            PlanError::ParamsZero => Msg::PlanErrorParamsZero,
            PlanError::LargestLayerTooBig => Msg::PlanErrorLargestLayerTooBig,
            PlanError::GpusZero => Msg::PlanErrorGpusZero,
            PlanError::NodesZero => Msg::PlanErrorNodesZero,
            PlanError::OffloadNeedsZero2 => Msg::PlanErrorOffloadNeedsZero2,
            PlanError::ActivationsZero => Msg::PlanErrorActivationsZero,
            PlanError::NvmeNeedsZero3 => Msg::PlanErrorNvmeNeedsZero3,
            PlanError::ParamOffloadNeedsZero3 => Msg::PlanErrorParamOffloadNeedsZero3,
            PlanError::FsdpOffloadTogether => Msg::PlanErrorFsdpOffloadTogether,
            PlanError::LoraShareOutOfRange => Msg::PlanErrorLoraShare,
        },
    )
}

/// A plan error, naming the command-line flag.
pub fn plan_error(lang: Lang, e: PlanError) -> String {
    format!("--{}: {}", e.field(), plan_error_text(lang, e))
}

/// A plan warning.
pub fn plan_warning(lang: Lang, w: PlanWarning) -> &'static str {
    tr(
        lang,
        match w {
            PlanWarning::LargestLayerAssumed => Msg::PlanWarningLargestLayerAssumed,
            PlanWarning::ParamOffloadIgnored => Msg::PlanWarningParamOffloadIgnored,
            PlanWarning::LoraAsDataParallel => Msg::PlanWarningLoraAsDdp,
            PlanWarning::MoreGpusThanMachine => Msg::PlanWarningMoreGpus,
            PlanWarning::ActivationsNeedShape => Msg::PlanWarningActivationsNeedShape,
        },
    )
}

/// "fits" / "does not fit" / "can't check".
pub fn fits_word(lang: Lang, fits: Option<bool>) -> &'static str {
    tr(
        lang,
        match fits {
            Some(true) => Msg::TrainFits,
            Some(false) => Msg::TrainDoesNotFit,
            None => Msg::TrainCantCheck,
        },
    )
}

/// One-line description of the plan: model, strategy, offload, precision, optimizer, GPUs.
pub fn plan_summary(lang: Lang, t: &TrainingMemory) -> (String, String) {
    let p = &t.plan;
    let model = match p.preset() {
        Some(preset) => format!("{} · {}", preset.name, format::params(p.params)),
        None => format::params(p.params),
    };
    let model = format!(
        "{model} · {} {}",
        tr(lang, Msg::TrainLargestLayer),
        format::params(t.estimate.largest_layer_params)
    );
    let plan = format!(
        "{} · {} {} · {} {} · {} · {} · {} · {}",
        strategy(lang, p.strategy),
        tr(lang, Msg::TrainOffloadOptimizer),
        offload(lang, p.offload_optimizer),
        tr(lang, Msg::TrainOffloadParam),
        offload(lang, p.offload_param),
        precision(lang, p.precision),
        optimizer(lang, p.optimizer),
        trf(
            lang,
            Msg::TrainGpusNodes,
            &[
                ("gpus", &p.gpus_per_node.to_string()),
                ("nodes", &p.nodes.to_string())
            ]
        ),
        finetune(lang, p.finetune),
    );
    (model, plan)
}
