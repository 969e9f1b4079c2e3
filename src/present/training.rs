//! Words for the training-memory planner.

use crate::advisor::training::{
    EstimateFormula, FineTune, Location, OffloadTarget, Optimizer, PlanError, PlanWarning,
    Precision, StateKind, Strategy, TrainingMemory, TrainingPlan,
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
        Precision::Bf16 => tr(lang, Msg::TrainPrecisionBf16),
    }
}

/// Optimizer name.
pub fn optimizer(lang: Lang, o: Optimizer) -> &'static str {
    match o {
        Optimizer::Adam => "Adam / AdamW",
        Optimizer::SgdMomentum => tr(lang, Msg::TrainOptimizerSgd),
        Optimizer::Adam8bit => tr(lang, Msg::TrainOptimizerAdam8bit),
        Optimizer::PagedAdam8bit => tr(lang, Msg::TrainOptimizerPagedAdam8bit),
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

/// A breakdown line's name, saying what the bytes are for this plan: "weights (bf16/fp16)",
/// "gradients (fp32)", "Adam momentum and variance (fp32)", "frozen base weights (4-bit)".
/// No two lines of one plan share a name.
pub fn state_kind(lang: Lang, plan: &TrainingPlan, k: StateKind) -> &'static str {
    let mixed = plan.precision == Precision::Mixed16;
    let bf16 = plan.precision == Precision::Bf16;
    tr(
        lang,
        match k {
            StateKind::Weights => match plan.finetune {
                FineTune::Qlora => Msg::TrainStateBaseWeights4,
                FineTune::Lora if mixed || bf16 => Msg::TrainStateBaseWeights16,
                FineTune::Lora => Msg::TrainStateBaseWeights32,
                FineTune::Full if mixed || bf16 => Msg::TrainStateWeights16,
                FineTune::Full => Msg::TrainStateWeights32,
            },
            StateKind::Gradients if mixed => Msg::TrainStateGradients16,
            StateKind::Gradients | StateKind::Gradients32 if bf16 => Msg::TrainStateGradients16,
            StateKind::Gradients | StateKind::Gradients32 => Msg::TrainStateGradients32,
            StateKind::MasterWeights => Msg::TrainStateMaster,
            StateKind::OptimizerStates => match plan.optimizer {
                Optimizer::Adam if bf16 => Msg::TrainStateAdamBf16,
                Optimizer::Adam => Msg::TrainStateAdam,
                Optimizer::SgdMomentum if bf16 => Msg::TrainStateSgdBf16,
                Optimizer::SgdMomentum => Msg::TrainStateSgd,
                Optimizer::Adam8bit | Optimizer::PagedAdam8bit => Msg::TrainStateAdam8bit,
                Optimizer::Adafactor => Msg::TrainStateAdafactor,
            },
            StateKind::Adapters => Msg::TrainStateAdapters,
            StateKind::AdapterStates => Msg::TrainStateAdapterStates,
            StateKind::GatheredLayer => Msg::TrainStateGatheredLayer,
            StateKind::Buffers => Msg::TrainStateBuffers,
            StateKind::FrozenGradients => Msg::TrainStateFrozenGradients,
            StateKind::PinnedBlocks => Msg::TrainStatePinnedBlocks,
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

/// Whose formula the estimate comes from, as a sentence: "Computed with DeepSpeed's
/// estimator …" / "ramvram's estimate from the … papers".
pub fn source(lang: Lang, s: EstimateFormula) -> &'static str {
    tr(
        lang,
        match s {
            EstimateFormula::DeepspeedEstimator => Msg::TrainSourceDeepspeed,
            EstimateFormula::RamvramEstimate => Msg::TrainSourceRamvram,
            EstimateFormula::PytorchFsdp => Msg::TrainSourcePytorchFsdp,
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
            PlanError::ParamsTooMany => Msg::PlanErrorParamsTooMany,
            PlanError::GpusTooMany => Msg::PlanErrorGpusTooMany,
            PlanError::NodesTooMany => Msg::PlanErrorNodesTooMany,
            PlanError::OffloadNeedsZero2 => Msg::PlanErrorOffloadNeedsZero2,
            PlanError::ActivationsZero => Msg::PlanErrorActivationsZero,
            PlanError::NvmeNeedsZero3 => Msg::PlanErrorNvmeNeedsZero3,
            PlanError::ParamOffloadNeedsZero3 => Msg::PlanErrorParamOffloadNeedsZero3,
            PlanError::FsdpOffloadTogether => Msg::PlanErrorFsdpOffloadTogether,
            PlanError::LoraShareOutOfRange => Msg::PlanErrorLoraShare,
            PlanError::ShapeZero => Msg::PlanErrorShapeZero,
            PlanError::NvmeConfigZero => Msg::PlanErrorNvmeConfigZero,
        },
    )
}

/// A plan error, naming the command-line flag.
pub fn plan_error(lang: Lang, e: PlanError) -> String {
    super::names::labelled(
        lang,
        &format!("`--{}`", e.field()),
        plan_error_text(lang, e),
    )
}

/// A plan warning.
pub fn plan_warning(lang: Lang, w: PlanWarning) -> &'static str {
    tr(
        lang,
        match w {
            PlanWarning::LargestLayerAssumed => Msg::PlanWarningLargestLayerAssumed,
            PlanWarning::ParamOffloadIgnored => Msg::PlanWarningParamOffloadIgnored,
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
        Some(preset) => format!(
            "{} · {}",
            super::names::preset_name(lang, preset),
            format::params(p.params)
        ),
        None => format::params(p.params),
    };
    let model = format!(
        "{model} · {}",
        super::names::labelled(
            lang,
            tr(lang, Msg::TrainLargestLayer),
            &format::params(t.estimate.largest_layer_params)
        )
    );
    let plan = format!(
        "{} · {} · {} · {} · {} · {} · {}",
        strategy(lang, p.strategy),
        super::names::labelled(
            lang,
            tr(lang, Msg::TrainOffloadOptimizer),
            offload(lang, p.offload_optimizer)
        ),
        super::names::labelled(
            lang,
            tr(lang, Msg::TrainOffloadParam),
            offload(lang, p.offload_param)
        ),
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

pub use super::phase::phase_name;

/// One row of a plan's capacity checks: what it is ("GPU memory per GPU"), needed, this
/// machine's (GiB; "unknown" when not detected), and [`fits_word`], or "fits, no headroom" for
/// a need that fits but not with its margin (`plan-tight`, as the headline says). `label` names
/// the check; training and inference plans use the same rows.
pub fn check_row(
    lang: Lang,
    label: Msg,
    c: &crate::advisor::training::CapacityCheck,
) -> [String; 4] {
    [
        tr(lang, label).to_string(),
        format::gib(c.needed_bytes),
        format::gib_or_unknown(lang, c.available_bytes),
        if c.tight() {
            tr(lang, Msg::TrainNoHeadroom).to_string()
        } else {
            fits_word(lang, c.fits).to_string()
        },
    ]
}

/// The memory breakdown table: header (state, where, size, bytes per parameter) and one row per
/// piece of training state, its size in GiB and its bytes per parameter to two decimals.
pub fn breakdown_table(lang: Lang, t: &TrainingMemory) -> ([String; 4], Vec<[String; 4]>) {
    let header = [
        Msg::TrainColState,
        Msg::TrainColWhere,
        Msg::TrainColBytes,
        Msg::TrainColPerParam,
    ]
    .map(|m| tr(lang, m).to_string());
    let rows = t
        .estimate
        .breakdown
        .iter()
        .map(|i| {
            [
                state_kind(lang, &t.plan, i.kind).to_string(),
                location(lang, i.location).to_string(),
                format::gib(i.bytes),
                format!("{:.2}", i.bytes_per_param),
            ]
        })
        .collect();
    (header, rows)
}

/// The phases table: header, one row per phase, and the peak row, CPU RAM per node and VRAM per
/// GPU in GiB.
pub fn phase_table(lang: Lang, t: &TrainingMemory) -> ([String; 3], Vec<[String; 3]>) {
    let header =
        [Msg::PhaseColPhase, Msg::PhaseColCpu, Msg::PhaseColGpu].map(|m| tr(lang, m).to_string());
    let mut rows: Vec<[String; 3]> = t
        .estimate
        .phases
        .iter()
        .map(|p| {
            [
                phase_name(lang, p.phase).to_string(),
                format::gib(p.cpu_bytes_per_node),
                format::gib(p.gpu_bytes_per_gpu),
            ]
        })
        .collect();
    // The peak row names the phase that sets each peak.
    let at = |bytes: u64, phase: Option<crate::advisor::training::PhaseId>| match phase {
        Some(p) => trf(
            lang,
            Msg::PhasePeakAt,
            &[
                ("bytes", &format::gib(bytes)),
                ("phase", phase_name(lang, p)),
            ],
        ),
        None => format::gib(bytes),
    };
    rows.push([
        tr(lang, Msg::PhasePeak).to_string(),
        at(
            t.estimate.cpu_peak_bytes_per_node,
            t.estimate.cpu_peak_phase,
        ),
        at(t.estimate.gpu_peak_bytes_per_gpu, t.estimate.gpu_peak_phase),
    ]);
    (header, rows)
}

/// "CPU figures include the OS … 17.0 GiB on this node."
pub fn runtime_note(lang: Lang, t: &TrainingMemory) -> String {
    trf(
        lang,
        Msg::PhaseRuntimeNote,
        &[("runtime", &format::gib(t.estimate.runtime_bytes_per_node))],
    )
}

/// A loading method's words.
pub fn loading_method(lang: Lang, m: crate::advisor::training::LoadingMethod) -> &'static str {
    use crate::advisor::training::LoadingMethod as L;
    tr(
        lang,
        match m {
            L::EveryRank => Msg::LoadingEveryRank,
            L::Rank0Broadcast => Msg::LoadingRank0Broadcast,
            L::MetaDevice => Msg::LoadingMetaDevice,
            L::LowCpuMemUsage => Msg::LoadingLowCpuMemUsage,
            L::Mmap => Msg::LoadingMmap,
        },
    )
}

/// "Loading: every rank loads the whole checkpoint — 280 GB per node for the checkpoint (what
/// the framework does by default for this plan)".
pub fn loading_line(lang: Lang, t: &TrainingMemory) -> String {
    let l = &t.estimate.loading;
    let mut source = String::new();
    if l.deepspeed_copy {
        source.push_str(tr(lang, Msg::LoadingDeepspeedCopy));
    }
    if l.default {
        source.push_str(tr(lang, Msg::LoadingDefaultSuffix));
    }
    if l.page_cache_bytes > 0 {
        source.push_str(&trf(
            lang,
            Msg::LoadingPageCache,
            &[("bytes", &format::gib(l.page_cache_bytes))],
        ));
    }
    if l.fsdp_init_bytes_per_node > 0 {
        source.push_str(&trf(
            lang,
            Msg::LoadingFsdpInit,
            &[("bytes", &format::gib(l.fsdp_init_bytes_per_node))],
        ));
    }
    trf(
        lang,
        Msg::LoadingLine,
        &[
            ("method", loading_method(lang, l.method)),
            ("cpu", &format::gib(l.cpu_bytes_per_node)),
            ("source", &source),
        ],
    )
}

/// The activation line every view shows next to the VRAM figure: the estimate with its formula,
/// or that activations are not included.
pub fn activations_line(lang: Lang, t: &TrainingMemory) -> String {
    use crate::advisor::training::activations::ActivationFormula as F;
    let a = &t.estimate.activations;
    match (a.included, a.gpu_bytes_per_gpu, a.formula) {
        (true, Some(bytes), Some(f)) => {
            let formula = tr(
                lang,
                match f {
                    F::Korthikanti => Msg::ActivationsKorthikanti,
                    F::KorthikantiFlash => Msg::ActivationsFlash,
                    F::Checkpointed => Msg::ActivationsCheckpointed,
                },
            );
            let heads = if a.heads_assumed {
                tr(lang, Msg::ActivationsHeadsAssumed)
            } else {
                ""
            };
            trf(
                lang,
                Msg::ActivationsIncluded,
                &[
                    ("bytes", &format::gib(bytes)),
                    ("formula", formula),
                    ("heads", heads),
                ],
            )
        }
        _ => tr(lang, Msg::ActivationsNotIncluded).to_string(),
    }
}

/// DeepSpeed's own figures, and what they cover, when its estimator applies.
pub fn deepspeed_line(lang: Lang, t: &TrainingMemory) -> Option<String> {
    (t.estimate.formula == EstimateFormula::DeepspeedEstimator).then(|| {
        trf(
            lang,
            Msg::DeepspeedFigure,
            &[
                ("cpu", &format::gib(t.estimate.cpu_bytes_per_node)),
                ("gpu", &format::gib(t.estimate.gpu_bytes_per_gpu)),
            ],
        )
    })
}

/// The line under a plan that doesn't fit about RAM: the installed RAM that would fit it (the
/// common size, and the minimum it rounds up from), or that more RAM alone wouldn't, when the
/// GPUs or the NVMe space fall short too; for a plan that fits only because the swap
/// configured takes its one-time peak (named), by how much that peak passes RAM. `None` when
/// host RAM isn't what falls short. The window, the terminal and the reports show this line.
pub fn ram_line(lang: Lang, t: &TrainingMemory) -> Option<String> {
    if t.fits == Some(true) && t.cpu.fits == Some(false) {
        let phase = t
            .estimate
            .cpu_peak_phase
            .map_or(String::new(), |p| phase_name(lang, p).to_string());
        return Some(trf(
            lang,
            Msg::TrainSwapTakesLoadingPeak,
            &[
                ("over", &format::gib(t.cpu.missing_bytes())),
                ("phase", &phase),
            ],
        ));
    }
    if let (Some(ram), Some(min)) = (t.ram_to_fit_bytes, t.ram_needed_installed_bytes) {
        return Some(trf(
            lang,
            Msg::TrainRamToFit,
            &[("ram", &format::gib(ram)), ("min", &format::gib(min))],
        ));
    }
    (t.cpu.fits == Some(false)).then(|| {
        trf(
            lang,
            Msg::TrainRamWontFix,
            &[(
                "short",
                &crate::present::purchase::short_words(
                    lang,
                    t.gpu.fits == Some(false),
                    t.nvme.as_ref().is_some_and(|n| n.fits == Some(false)),
                ),
            )],
        )
    })
}

/// The plan's one-line verdict: fits, fits only without headroom (`plan-tight`), doesn't fit,
/// or can't tell. The window, the terminal and the reports say the same.
pub fn verdict_msg(t: &crate::advisor::training::TrainingMemory) -> Msg {
    match t.fits {
        Some(true) => Msg::TrainVerdictFits,
        Some(false) if t.tight() => Msg::AdviceVerdictTight,
        Some(false) => Msg::TrainVerdictDoesNotFit,
        None => Msg::TrainVerdictUnknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::training::CapacityCheck;

    /// A check by hand: 159 GiB needed of 163 GiB leaves 4 GiB, under the RAM margin of
    /// max(5 % × 163, 1) = 8.15 GiB: it fits only without headroom, as the headline says.
    #[test]
    fn a_need_within_the_capacity_but_not_its_margin_is_said_to_have_no_headroom() {
        const GIB: u64 = 1 << 30;
        let check = |needed: u64, available: u64| CapacityCheck {
            needed_bytes: needed,
            available_bytes: Some(available),
            margin_bytes: available / 20,
            headroom_bytes: Some(available as i64 - needed as i64),
            fits: Some(needed + available / 20 <= available),
        };
        let word = |lang, c: &CapacityCheck| check_row(lang, Msg::TrainFits, c)[3].clone();
        assert_eq!(
            word(Lang::En, &check(159 * GIB, 163 * GIB)),
            "fits, no headroom"
        );
        assert_eq!(
            word(Lang::Zh, &check(159 * GIB, 163 * GIB)),
            "勉强放得下，没有余量"
        );
        assert_eq!(word(Lang::En, &check(100 * GIB, 163 * GIB)), "fits");
        assert_eq!(word(Lang::En, &check(170 * GIB, 163 * GIB)), "does not fit");
    }
}
