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
}
