//! Issue 33's save and resume phases on a whole assessment: the checkpoint-save peak breaks a
//! plan that trains, and the first change listed is the sharded save.

mod common;

use common::{GIB, fixture};
use ramvram::advisor::recommend::{AdviceId as R, Subject};
use ramvram::advisor::training::{
    LoadingMethod, OffloadTarget, PhaseId, SaveStateDict, Strategy, TrainingPlan, presets,
};
use ramvram::advisor::{self, Scenario};

/// Llama-3.1-8B's parameters (Hugging Face safetensors count).
const P: u64 = 8_030_261_248;

fn plan() -> TrainingPlan {
    TrainingPlan {
        strategy: Strategy::FsdpFullShard,
        offload_optimizer: OffloadTarget::Cpu,
        offload_param: OffloadTarget::Cpu,
        gpus_per_node: 8,
        save_state_dict: Some(SaveStateDict::Full),
        // Rank 0 loads and broadcasts (`sync_module_states=True`), so loading, one bf16 copy
        // per node, stays under the training phase: the save is the one phase that breaks.
        loading: Some(LoadingMethod::Rank0Broadcast),
        ..TrainingPlan::from_preset(presets::preset("llama-3.1-8b").unwrap())
    }
}

#[test]
fn llama_8b_full_save_on_rank_0_breaks_and_a_sharded_save_comes_first() {
    // 8 × 80 GB (a DGX A100's GPUs), FSDP with CPU offload, a full state dict gathered on
    // rank 0's CPU: 12 bytes per parameter (fp32 parameters, AdamW's two fp32 states) =
    // 96,363,134,976 bytes over the training phase. Give the machine the training phase plus
    // a third of that, so steps fit with room and the save doesn't.
    let e = ramvram::advisor::training::estimate(&plan()).unwrap();
    let cpu = |id| {
        e.phases
            .iter()
            .find(|p| p.phase == id)
            .unwrap()
            .cpu_bytes_per_node
    };
    let training = cpu(PhaseId::Training);
    assert_eq!(cpu(PhaseId::CheckpointSave) - training, 12 * P);
    let mut machine = fixture("dgx-a100");
    let ram = (training + 12 * P / 3).div_ceil(GIB) * GIB;
    machine.memory.total_bytes = Some(ram);
    let a = advisor::assess(
        &machine,
        &Scenario {
            training: Some(plan()),
            ..Default::default()
        },
    );
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.fits, Some(false));
    assert_eq!(t.gpu.fits, Some(true));
    // Default resume of FSDP's full state dict saved on rank 0: one copy per node (torchtune
    // reads it memory-mapped, the ranks sharing the page cache; accelerate loads the optimizer
    // on rank 0 only), 12 × P, the same as the save: the save, the earlier of the two, is the
    // peak named.
    assert_eq!(
        t.estimate.lifecycle.resume_cpu_bytes_per_node,
        t.estimate.lifecycle.save_cpu_bytes_per_node
    );
    assert_eq!(t.estimate.cpu_peak_phase, Some(PhaseId::CheckpointSave));
    // The first of the save and resume changes is the sharded save. (With the save's peak
    // 4 × P over the RAM, a swap file covers it, so loading changes that leave the save as it
    // is are listed too, as the OS kind; ranking by the phase they fix is still to do.)
    let first = a
        .recommendations
        .iter()
        .find(|r| {
            r.subject == Subject::Training && matches!(r.id, R::SaveSharded | R::ResumePerRank)
        })
        .expect("a training change");
    assert_eq!(first.id, R::SaveSharded, "{:#?}", a.recommendations);
    assert_eq!(first.result.fits, Some(true), "{first:#?}");
    // The headline names the phase that breaks, in both languages.
    use ramvram::i18n::Lang;
    use ramvram::present::headline::headline;
    let en = headline(Lang::En, &a).title;
    assert!(en.contains("its Checkpoint save phase needs"), "{en}");
    let zh = headline(Lang::Zh, &a).title;
    assert!(zh.contains("保存检查点时"), "{zh}");
    // Its apply: the one flag.
    let apply = first.apply.join(" ");
    assert!(apply.contains("--save-state-dict sharded"), "{apply}");
    // The ranked list names the phase each change fixes (the one that breaks now), in the
    // one line every view renders; a change that comes with a swap file names the one-time
    // peak the file takes: with a loading change the save stays the peak, 4 × P over RAM.
    use ramvram::present::recommend::line;
    assert_eq!(first.result.fixes_phase, Some(PhaseId::CheckpointSave));
    let en = line(Lang::En, first);
    assert!(
        en.contains("fixing what breaks now: Checkpoint save"),
        "{en}"
    );
    let zh = line(Lang::Zh, first);
    assert!(zh.contains("解决了现在出问题的阶段：保存检查点"), "{zh}");
    let with_swap: Vec<_> = a
        .recommendations
        .iter()
        .filter(|r| r.subject == Subject::Training && r.changes.contains_key("swap"))
        .collect();
    assert!(!with_swap.is_empty());
    for r in with_swap {
        assert_eq!(r.result.peak_phase, Some(PhaseId::CheckpointSave), "{r:#?}");
        let en = line(Lang::En, r);
        assert!(
            en.contains("for the one-time peak (Checkpoint save)"),
            "{en}"
        );
        assert!(!en.contains("loading peak"), "{en}");
        let zh = line(Lang::Zh, r);
        assert!(zh.contains("一次性的峰值（保存检查点）"), "{zh}");
    }
}

/// Issue 33, case 4 inside a training plan: a training loader (8 workers, prefetch 4, pinned,
/// batches of 100 × 1,000,000 bytes) and a validation loader (4 workers, prefetch 2, not
/// pinned) beside an FSDP plan on a 64 GiB machine (MemTotal 62.7 GiB, 4 GPUs). Steps wait for
/// data (a GPU demand far above what the loader gives), so in steady state the training
/// loader's queue is empty: one pinned block (the batch the loop holds) and one batch in
/// /dev/shm. At the pause every queue fills, and beyond the steady working set the loaders add
/// (each worked in `workload::pause`'s test):
/// - the training queue: 8 × 4 = 32 more pinned blocks of 2^27 bytes = 4,294,967,296;
/// - the validation queue: 4 × 2 + 1 = 9 batches in /dev/shm = 900,000,000;
/// - the validation loader's processes: its main state 40 MiB, 4 workers × 90 MiB, each
///   decoding two samples and two batches, 4 × 202,000,000 = 1,227,430,400;
///
/// 6,422,397,696 bytes in all: the plan's `evaluation-pause` phase is its training phase plus
/// that, and with the load one bf16 copy (2 × 10^9 bytes) and the save and resume only one
/// largest fp32 tensor per rank, it sets the plan's peak and is what the verdict checks.
#[test]
fn a_validation_loader_makes_the_evaluation_pause_a_phase_of_the_plan() {
    use ramvram::advisor::training::{ResumeLoad, SaveStateDict};
    use ramvram::advisor::workload::{Loader, Workload, presets as loaders};
    let workload = Workload {
        width: 0,
        height: 0,
        crop: 0,
        sample_bytes: Some(1_000_000),
        samples: 1_000,
        dataset_bytes: 1_000_000_000,
        batch_size: 100,
        num_workers: 8,
        prefetch_factor: 4,
        pin_memory: true,
        index_bytes_per_sample: Some(0),
        concurrent_experiments: 1,
        gpu_demand_samples_per_s: 1e7,
        validation: Some(Loader {
            batch_size: 100,
            num_workers: 4,
            prefetch_factor: 2,
            pin_memory: false,
        }),
        ..loaders::preset("imagenet-resnet50").unwrap()
    };
    let plan = TrainingPlan {
        strategy: Strategy::FsdpFullShard,
        gpus_per_node: 4,
        largest_layer_params: Some(1_000_000),
        save_state_dict: Some(SaveStateDict::Sharded),
        resume_load: Some(ResumeLoad::PerRank),
        // Rank 0 loads the 2 GB bf16 checkpoint and broadcasts: under the pause's extra.
        loading: Some(LoadingMethod::Rank0Broadcast),
        ..TrainingPlan::new(1_000_000_000)
    };
    let assess = |w: Option<Workload>| {
        advisor::assess(
            &fixture("live-4x4080-64g"),
            &Scenario {
                training: Some(plan.clone()),
                workload: w,
                ..Default::default()
            },
        )
    };
    let a = assess(Some(workload.clone()));
    let w = a.workload.as_ref().unwrap();
    assert_eq!(w.memory_budget.queued_batches, 0);
    let mib = 1u64 << 20;
    let extra = 32 * 134_217_728 + 900_000_000 + 40 * mib + 4 * 90 * mib + 4 * 202_000_000;
    assert_eq!(extra, 6_422_397_696);
    let t = a.training_memory.as_ref().unwrap();
    let cpu = |id| {
        t.estimate
            .phases
            .iter()
            .find(|p| p.phase == id)
            .map(|p| p.cpu_bytes_per_node)
    };
    let training = cpu(PhaseId::Training).unwrap();
    assert_eq!(cpu(PhaseId::EvaluationPause), Some(training + extra));
    // Save and resume: 4 ranks × 4 bytes × the 1,000,000-parameter largest tensor.
    assert_eq!(cpu(PhaseId::CheckpointSave), Some(training + 16_000_000));
    assert_eq!(t.estimate.cpu_peak_phase, Some(PhaseId::EvaluationPause));
    assert_eq!(t.cpu.needed_bytes, training + extra);
    // The JSON names it among the plan's phases.
    let v = serde_json::to_value(&a).unwrap();
    let phases = v["training_memory"]["phases"].as_array().unwrap();
    assert!(
        phases.iter().any(
            |p| p["phase"] == "evaluation-pause" && p["cpu_bytes_per_node"] == training + extra
        )
    );
    // Without the validation loader the plan has no such phase.
    let a = assess(Some(Workload {
        validation: None,
        ..workload
    }));
    let t = a.training_memory.as_ref().unwrap();
    assert!(
        t.estimate
            .phases
            .iter()
            .all(|p| p.phase != PhaseId::EvaluationPause)
    );
}

/// Llama 2 7B with ZeRO-2 and no offload on one 24 GB A10G with 16 GiB of RAM (aws-g5.xlarge):
/// VRAM breaks while training (every state on the one GPU) and RAM breaks resuming — the rank
/// reads its whole optimizer partition, 12 × 6,738,415,616 = 80,860,987,392 B, to the CPU
/// (more than the 2 × P of the 16-bit module file read before it), beside the 5 GiB runtime:
/// 86,229,696,512 B. A change that makes the plan fit names both phases it fixes.
#[test]
fn a_change_names_both_phases_when_ram_and_vram_break_at_different_phases() {
    use ramvram::i18n::Lang;
    use ramvram::present::recommend::line;
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = advisor::assess(
        &fixture("aws-g5.xlarge"),
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    );
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.cpu.needed_bytes, 5 * GIB + 12 * 6_738_415_616);
    assert_eq!(t.cpu.needed_bytes, 86_229_696_512);
    assert_eq!(t.estimate.cpu_peak_phase, Some(PhaseId::Resume));
    assert_eq!(t.estimate.gpu_peak_phase, Some(PhaseId::Training));
    assert_eq!((t.cpu.fits, t.gpu.fits), (Some(false), Some(false)));
    let r = a
        .recommendations
        .iter()
        .find(|r| r.result.fits == Some(true) && r.subject == Subject::Training)
        .expect("a change that fits");
    assert_eq!(
        (r.result.fixes_phase, r.result.fixes_gpu_phase),
        (Some(PhaseId::Resume), Some(PhaseId::Training))
    );
    let en = line(Lang::En, r);
    assert!(
        en.contains("fixing what breaks now: Resume (RAM) and Training (VRAM)"),
        "{en}"
    );
    let zh = line(Lang::Zh, r);
    assert!(zh.contains("恢复训练（内存）和训练阶段（显存）"), "{zh}");
}

/// The evaluation pause's batches are pinned and come back at every evaluation: no swap file
/// takes it. The plan of the test above on a machine whose usable RAM holds the pause with
/// 100 MiB left, less than the 1 GiB margin, and no swap configured: it fits only without
/// headroom, and no change offers swap for it (swap takes only a one-off peak: loading, a save, a resume).
#[test]
fn no_swap_file_is_offered_for_the_evaluation_pause() {
    use ramvram::advisor::training::{ResumeLoad, SaveStateDict};
    use ramvram::advisor::workload::{Loader, Workload, presets as loaders};
    let workload = Workload {
        width: 0,
        height: 0,
        crop: 0,
        sample_bytes: Some(1_000_000),
        samples: 1_000,
        dataset_bytes: 1_000_000_000,
        batch_size: 100,
        num_workers: 8,
        prefetch_factor: 4,
        pin_memory: true,
        index_bytes_per_sample: Some(0),
        concurrent_experiments: 1,
        gpu_demand_samples_per_s: 1e7,
        validation: Some(Loader {
            batch_size: 100,
            num_workers: 4,
            prefetch_factor: 2,
            pin_memory: false,
        }),
        ..loaders::preset("imagenet-resnet50").unwrap()
    };
    let plan = TrainingPlan {
        strategy: Strategy::FsdpFullShard,
        gpus_per_node: 4,
        largest_layer_params: Some(1_000_000),
        save_state_dict: Some(SaveStateDict::Sharded),
        resume_load: Some(ResumeLoad::PerRank),
        // Rank 0 loads the 2 GB bf16 checkpoint and broadcasts: under the pause's extra.
        loading: Some(LoadingMethod::Rank0Broadcast),
        ..TrainingPlan::new(1_000_000_000)
    };
    let base = advisor::assess(
        &fixture("live-4x4080-64g"),
        &Scenario {
            training: Some(plan.clone()),
            workload: Some(workload.clone()),
            ..Default::default()
        },
    );
    let pause = base.training_memory.as_ref().unwrap().cpu.needed_bytes;
    let mut machine = fixture("live-4x4080-64g");
    machine.memory.total_bytes = Some(pause + (100 << 20));
    machine.memory.available_bytes = None;
    machine.memory.limit_bytes = None;
    machine.memory.swap_total_bytes = Some(0);
    let assess = |w: Option<Workload>| {
        advisor::assess(
            &machine,
            &Scenario {
                training: Some(plan.clone()),
                workload: w,
                ..Default::default()
            },
        )
    };
    let a = assess(Some(workload));
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.estimate.cpu_peak_phase, Some(PhaseId::EvaluationPause));
    assert_eq!(t.cpu.needed_bytes, pause);
    assert_eq!(t.cpu.fits, Some(false), "{:?}", t.cpu);
    assert!(t.cpu.tight(), "{:?}", t.cpu);
    assert_ne!(t.fits, Some(true));
    for r in &a.recommendations {
        assert!(
            !r.changes.contains_key("swap")
                && r.id != ramvram::advisor::recommend::AdviceId::AddSwap,
            "{:?}",
            r.id
        );
    }
}
