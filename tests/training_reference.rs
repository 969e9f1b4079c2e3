//! The training-memory planner against published figures: DeepSpeed's t5-3b table
//! (`shared/reference/deepspeed-t5-3b.md`), the ZeRO paper's 7.5B example, hand calculations.

mod common;

use common::{GIB, fixture};
use ramvram::advisor::recommend::{AdviceId, RecKind, Subject};
use ramvram::advisor::training::{
    EstimateFormula, FineTune, Location, OffloadTarget, PlanError, Strategy, TrainingPlan,
    estimate, presets,
};
use ramvram::advisor::{FindingId, Scenario, assess};

fn t5_3b(
    strategy: Strategy,
    opt: OffloadTarget,
    param: OffloadTarget,
    zero_init: bool,
) -> TrainingPlan {
    TrainingPlan {
        largest_layer_params: Some(32_000_000),
        strategy,
        offload_optimizer: opt,
        offload_param: param,
        zero_init,
        gpus_per_node: 8,
        nodes: 1,
        ..TrainingPlan::new(2_851_000_000)
    }
}

#[test]
fn every_row_of_the_deepspeed_t5_3b_table() {
    use OffloadTarget::{Cpu, None as No};
    // (stage, offload_param, offload_optimizer, zero_init, CPU GiB, GPU GiB) as published.
    let rows = [
        (Strategy::Zero2, No, Cpu, false, 127.45, 5.31),
        (Strategy::Zero3, Cpu, Cpu, true, 71.69, 0.12),
        (Strategy::Zero3, Cpu, Cpu, false, 127.45, 0.12),
        (Strategy::Zero3, No, Cpu, true, 63.72, 0.78),
        (Strategy::Zero3, No, Cpu, false, 127.45, 0.78),
        (Strategy::Zero3, No, No, true, 1.43, 6.09),
        (Strategy::Zero3, No, No, false, 127.45, 6.09),
    ];
    for (stage, param, opt, init, cpu, gpu) in rows {
        let e = estimate(&t5_3b(stage, opt, param, init)).unwrap();
        let (c, g) = (
            e.cpu_bytes_per_node as f64 / GIB as f64,
            e.gpu_bytes_per_gpu as f64 / GIB as f64,
        );
        assert!(
            (c - cpu).abs() <= 0.005,
            "{stage:?} {param:?} {opt:?} init={init}: CPU {c:.3} vs {cpu}"
        );
        assert!(
            (g - gpu).abs() <= 0.005,
            "{stage:?} {param:?} {opt:?} init={init}: GPU {g:.3} vs {gpu}"
        );
        assert_eq!(e.formula, EstimateFormula::DeepspeedEstimator);
    }
}

#[test]
fn breakdown_adds_up_to_the_totals() {
    for opt in [OffloadTarget::None, OffloadTarget::Cpu, OffloadTarget::Nvme] {
        for strategy in [Strategy::Zero2, Strategy::Zero3] {
            let mut plan = t5_3b(strategy, opt, OffloadTarget::None, true);
            if opt == OffloadTarget::Nvme && strategy == Strategy::Zero2 {
                continue;
            }
            plan.offload_param = if strategy == Strategy::Zero3 {
                opt
            } else {
                OffloadTarget::None
            };
            let e = estimate(&plan).unwrap();
            for (loc, total) in [
                (Location::Gpu, e.gpu_bytes_per_gpu),
                (Location::Cpu, e.cpu_bytes_per_node),
                (Location::Nvme, e.nvme_bytes),
            ] {
                let sum: u64 = e
                    .breakdown
                    .iter()
                    .filter(|i| i.location == loc)
                    .map(|i| i.bytes)
                    .sum();
                assert!(
                    sum.abs_diff(total) <= 8,
                    "{strategy:?} {opt:?} {loc:?}: {sum} vs {total}"
                );
            }
        }
    }
}

#[test]
fn zero_paper_figure_1_for_7_5b_on_64_gpus() {
    // Rajbhandari et al. 2020, Figure 1: Ψ = 7.5B, K = 12, Nd = 64: baseline 120 GB,
    // P_os 31.4 GB (GB = 10^9 bytes).
    let plan = |s| TrainingPlan {
        strategy: s,
        gpus_per_node: 8,
        nodes: 8,
        largest_layer_params: Some(1),
        ..TrainingPlan::new(7_500_000_000)
    };
    assert_eq!(
        estimate(&plan(Strategy::Ddp)).unwrap().gpu_bytes_per_gpu,
        120_000_000_000
    );
    let zero1 = estimate(&plan(Strategy::Zero1)).unwrap().gpu_bytes_per_gpu as f64 / 1e9;
    assert!((zero1 - 31.4).abs() < 0.05, "{zero1}");
    // DeepSpeed's code counts fp32 gradients too, so its ZeRO-2 is above the paper's 16.6 GB:
    // 2Ψ + 18Ψ/64 = 17.11 GB.
    let zero2 = estimate(&plan(Strategy::Zero2)).unwrap().gpu_bytes_per_gpu as f64 / 1e9;
    assert!(
        (zero2 - (15.0 + 18.0 * 7.5 / 64.0)).abs() < 0.001,
        "{zero2}"
    );
}

#[test]
fn g5_xlarge_7b_zero2_offload_does_not_fit_and_qlora_does() {
    let profile = fixture("aws-g5.xlarge");
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess(
        &profile,
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    );
    let t = a.training_memory.as_ref().unwrap();
    // DeepSpeed ZeRO-2 offload, one GPU: CPU = P × max(4, 16) × 1.5 = 24 bytes/param, kept as
    // DeepSpeed reports it.
    let p = 6_738_415_616u64;
    assert_eq!(t.estimate.cpu_bytes_per_node, 24 * p);
    // The node also runs the OS (2 GiB) and one training process (3 GiB): the need is DeepSpeed's
    // figure plus 5 GiB.
    let runtime = 5 * GIB;
    assert_eq!(t.estimate.runtime_bytes_per_node, runtime);
    let training = t
        .estimate
        .phases
        .iter()
        .find(|x| x.phase == ramvram::advisor::training::PhaseId::Training)
        .unwrap()
        .cpu_bytes_per_node;
    assert_eq!(training, 24 * p + runtime);
    // Resuming (every run may): the one rank reads its optimizer partition, the fp32 weights
    // and Adam's two moments, 12 × P, to the CPU beside the offloaded states it replaces
    // (deepspeed/runtime/engine.py `_get_all_zero_checkpoint_state_dicts`, map_location='cpu').
    assert_eq!(t.cpu.needed_bytes, 24 * p + 12 * p + runtime);
    assert_eq!(t.cpu.available_bytes, Some(16 * GIB));
    assert_eq!(t.gpu.needed_bytes, 2 * p);
    assert_eq!(
        t.gpu.fits,
        Some(true),
        "12.6\u{a0}GiB of fp16 weights fit the 24\u{a0}GiB A10G"
    );
    assert_eq!(t.fits, Some(false));
    assert!(
        a.findings
            .iter()
            .any(|f| f.id == FindingId::TrainingDoesNotFit)
    );
    // 36 × P + 5 GiB = 230.9 GiB; with the 5 % margin 243.1 GiB, the whole 16 GiB usable here
    // (share 1): the next common capacity, 256 GiB.
    assert_eq!(t.ram_to_fit_bytes, Some(256 * GIB));
    // QLoRA fits. The candidate keeps ZeRO-2 with optimizer offload, so the adapters' gradients,
    // master weights and Adam states (2 + 4 + 8 bytes for 1 % of P) sit in CPU RAM, and the GPU
    // holds the 4-bit base (4.127 bits per parameter) and the adapters' 16-bit weights. The
    // GPU peak is the loading phase: the base plus one largest layer (the 131,072,000-parameter
    // embedding) at 16 bits being quantised. QLoRA loads shard by shard (transformers' default
    // with bitsandbytes), so the CPU peak is one 5 × 10^9-byte shard plus the runtime.
    let qlora = a
        .recommendations
        .iter()
        .find(|r| r.id == AdviceId::Qlora)
        .unwrap();
    assert_eq!(qlora.subject, Subject::Training);
    assert_eq!(qlora.kind, RecKind::Software);
    assert_eq!(qlora.result.fits, Some(true));
    let base = (p as f64 * 4.127 / 8.0).round() as u64;
    assert_eq!(
        qlora.result.gpu_peak_bytes_per_gpu,
        Some(base + 2 * 131_072_000)
    );
    assert_eq!(
        qlora.result.cpu_peak_bytes_per_node,
        Some(5_000_000_000 + runtime)
    );
    // Nothing that doesn't help is listed: ZeRO-3 with the same offload keeps 16 bytes per
    // parameter on the CPU, so it is not offered.
    assert!(
        !a.recommendations
            .iter()
            .any(|r| r.id == AdviceId::Zero3InsteadOfZero2)
    );
    // A QLoRA plan that doesn't fit (70B on one A10G) is not offered QLoRA again.
    let qlora_70b = TrainingPlan {
        finetune: ramvram::advisor::training::FineTune::Qlora,
        ..TrainingPlan::from_preset(presets::preset("llama2-70b").unwrap())
    };
    let a = assess(
        &profile,
        &Scenario {
            training: Some(qlora_70b),
            ..Default::default()
        },
    );
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.fits, Some(false));
    assert!(a.recommendations.iter().all(|r| r.id != AdviceId::Qlora));
}

#[test]
fn the_seed_65b_claim_is_a_fraction_of_deepspeeds_figure() {
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        ..TrainingPlan::from_preset(presets::preset("llama-65b").unwrap())
    };
    let e = estimate(&plan).unwrap();
    // 65.2e9 × 24 bytes = 1.5648e12 bytes, six times the seed's 260 GB.
    assert_eq!(e.cpu_bytes_per_node, 1_564_800_000_000);
    assert!(e.cpu_bytes_per_node as f64 / 260e9 > 6.0);
}

#[test]
fn bad_plans_name_the_input() {
    let base = TrainingPlan::new(7_000_000_000);
    let cases: Vec<(TrainingPlan, PlanError, &str)> = vec![
        (
            TrainingPlan {
                params: 0,
                ..base.clone()
            },
            PlanError::ParamsZero,
            "params",
        ),
        (
            TrainingPlan {
                largest_layer_params: Some(8_000_000_000),
                ..base.clone()
            },
            PlanError::LargestLayerTooBig,
            "largest-layer-params",
        ),
        (
            TrainingPlan {
                gpus_per_node: 0,
                ..base.clone()
            },
            PlanError::GpusZero,
            "gpus-per-node",
        ),
        (
            TrainingPlan {
                nodes: 0,
                ..base.clone()
            },
            PlanError::NodesZero,
            "nodes",
        ),
        (
            TrainingPlan {
                strategy: Strategy::Ddp,
                offload_optimizer: OffloadTarget::Cpu,
                ..base.clone()
            },
            PlanError::OffloadNeedsZero2,
            "offload-optimizer",
        ),
        (
            TrainingPlan {
                strategy: Strategy::Zero1,
                offload_param: OffloadTarget::Nvme,
                ..base.clone()
            },
            PlanError::ParamOffloadNeedsZero3,
            "offload-param",
        ),
        (
            TrainingPlan {
                strategy: Strategy::Zero2,
                offload_optimizer: OffloadTarget::Nvme,
                ..base.clone()
            },
            PlanError::NvmeNeedsZero3,
            "offload-optimizer",
        ),
        (
            TrainingPlan {
                strategy: Strategy::Zero2,
                offload_param: OffloadTarget::Cpu,
                ..base.clone()
            },
            PlanError::ParamOffloadNeedsZero3,
            "offload-param",
        ),
        (
            TrainingPlan {
                strategy: Strategy::FsdpFullShard,
                offload_optimizer: OffloadTarget::Cpu,
                ..base.clone()
            },
            PlanError::FsdpOffloadTogether,
            "offload-optimizer",
        ),
        (
            TrainingPlan {
                finetune: FineTune::Lora,
                lora_trainable_share: 1.5,
                ..base.clone()
            },
            PlanError::LoraShareOutOfRange,
            "lora-share",
        ),
        (
            TrainingPlan {
                finetune: FineTune::Lora,
                lora_trainable_share: f64::NAN,
                ..base.clone()
            },
            PlanError::LoraShareOutOfRange,
            "lora-share",
        ),
    ];
    for (plan, error, field) in cases {
        assert_eq!(estimate(&plan).unwrap_err(), error);
        assert_eq!(error.field(), field);
    }
}

#[test]
fn activations_follow_korthikanti() {
    // Llama 2 7B, s = 4096, b = 1, eager attention: per layer s·b·h·(34 + 5·a·s/h) =
    // 4096·4096·(34 + 5·32·4096/4096) = 16,777,216 × 194 bytes; 32 layers.
    use ramvram::advisor::training::ActivationInput;
    let plan = TrainingPlan {
        activations: Some(ActivationInput {
            seq_len: 4096,
            micro_batch: 1,
            checkpointing: false,
            shape: None,
            flash_attention: false,
        }),
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    assert_eq!(
        estimate(&plan).unwrap().activation_bytes_per_gpu,
        Some(16_777_216 * 194 * 32)
    );
    let ckpt = TrainingPlan {
        activations: Some(ActivationInput {
            seq_len: 4096,
            micro_batch: 1,
            checkpointing: true,
            shape: None,
            flash_attention: false,
        }),
        ..plan
    };
    assert_eq!(
        estimate(&ckpt).unwrap().activation_bytes_per_gpu,
        Some(2 * 16_777_216 * 32)
    );
}

#[test]
fn training_memory_json_round_trips() {
    let profile = fixture("dgx-h100");
    let plan = t5_3b(
        Strategy::Zero3,
        OffloadTarget::Cpu,
        OffloadTarget::Cpu,
        true,
    );
    let a = assess(
        &profile,
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    );
    let text = serde_json::to_string(&a).unwrap();
    let back: ramvram::advisor::Assessment = serde_json::from_str(&text).unwrap();
    assert_eq!(a, back);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for key in [
        "cpu_bytes_per_node",
        "gpu_bytes_per_gpu",
        "nvme_bytes",
        "breakdown",
        "fits",
        "formula",
    ] {
        assert!(!v["training_memory"][key].is_null(), "{key}");
    }
}
