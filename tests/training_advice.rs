//! Issue 11's training cases: the loading phase, the ranked changes with their new peaks, and
//! the activation line — each right value worked out here by hand.

mod common;

use common::{GIB, fixture};
use ramvram::advisor::recommend::{AdviceId as R, RecKind};
use ramvram::advisor::training::{
    CheckpointDtype, FineTune, LoadingMethod, OffloadTarget, PhaseId, Strategy, TrainingPlan,
    presets,
};
use ramvram::advisor::{self, Assessment, Scenario};

fn assess(profile: &str, plan: TrainingPlan) -> Assessment {
    advisor::assess(
        &fixture(profile),
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    )
}

fn phase_cpu(a: &Assessment, id: PhaseId) -> u64 {
    let t = a.training_memory.as_ref().unwrap();
    t.estimate
        .phases
        .iter()
        .find(|p| p.phase == id)
        .unwrap()
        .cpu_bytes_per_node
}

/// Runtime of a node: the OS (2 GiB) and one 3 GiB training process per GPU.
fn runtime(gpus: u64) -> u64 {
    2 * GIB + 3 * GIB * gpus
}

/// Answer.AI's FSDP + QLoRA: Llama 2 70B on two 24 GB GPUs with CPU offload, 128 GiB of RAM
/// (AnswerDotAI/fsdp_qlora#24: "just over 128GB RAM", a spike while loading that settles lower;
/// a 10 GB swap file got through it). Worked here from fsdp_qlora's `train.py` and FSDP1's
/// `_flat_param.py`, p = 68,976,648,192, base = p × 4.127 / 8, adapters 1 % of p:
/// - `--low_memory` (rank 0 loads, `sync_module_states=True`): each of the 2 ranks maps every
///   safetensors file (page cache) and copies one tensor at a time to its GPU, the largest being
///   the 32,000 × 8,192 embedding in bf16; rank 0 keeps the quantised base: 2 × 0.52 GB + base =
///   36.6 GB;
/// - FSDP's lazy init with CPU offload then holds the unpinned shard, its pinned copy and the
///   pinned `_cpu_grad`, each rank's shard of each flat parameter in a power-of-two block
///   (tests/fsdp_cases.rs): 36.96 GB + 2 × 43.49 GB, + 8 GiB of runtime = 123.4 GiB
///   (132.5 GB), the phase's peak, 3.5 % over the report's 128 GB (before the pinned blocks:
///   111.3 GiB; before FSDP as PyTorch holds it: 170 GiB by rank 0, 265 GiB by default);
/// - training settles at base + `_cpu_grad` + adapters (2 + 14 bytes each) + the blocks'
///   rounding + runtime = 96.71 GiB.
///
/// The default (transformers loads a bitsandbytes model shard by shard onto each GPU) has the
/// same spike. Loading the 16-bit base on every rank is the one that doesn't fit, and a
/// loading setting comes first.
#[test]
fn qlora_70b_on_two_24gb_gpus_peaks_at_fsdps_offload_init() {
    let p = 68_976_648_192u64;
    let plan = TrainingPlan {
        finetune: FineTune::Qlora,
        strategy: Strategy::FsdpFullShard,
        offload_optimizer: OffloadTarget::Cpu,
        offload_param: OffloadTarget::Cpu,
        gpus_per_node: 2,
        ..TrainingPlan::from_preset(presets::preset("llama2-70b").unwrap())
    };
    let base = (p as f64 * 4.127 / 8.0).round() as u64;
    let adapter_weights = (0.01 * p as f64 * 2.0).round() as u64;
    let adapter_states = (0.01 * p as f64 * 14.0).round() as u64;
    // Each rank's shard of each of the 81 flat parameters (80 decoder layers and the root) is
    // pinned in a 2^28-byte block, twice (tests/fsdp_cases.rs works it out).
    let pinned = 2 * 81 * (1u64 << 28);
    let shard = base + adapter_weights;
    let spike = shard + 2 * pinned + runtime(2);
    let training = 2 * base + adapter_weights + adapter_states + 2 * (pinned - shard) + runtime(2);
    let near = |a: u64, b: u64| a.abs_diff(b) <= 4;

    let a = assess("puget-2x3090-128g", plan.clone());
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.gpu.fits, Some(true), "fits in VRAM: {:?}", t.gpu);
    assert_eq!(t.estimate.loading.method, LoadingMethod::LowCpuMemUsage);
    assert!(t.estimate.loading.default);
    assert_eq!(t.estimate.loading.cpu_bytes_per_node, 2 * 5_000_000_000);
    assert!(near(phase_cpu(&a, PhaseId::Loading), spike));
    assert!(near(phase_cpu(&a, PhaseId::Training), training));
    // The report's peak and its shape: the loading phase is the peak, training lower.
    assert!((spike as f64 / GIB as f64 - 123.42).abs() < 0.01);
    assert!((training as f64 / GIB as f64 - 96.71).abs() < 0.01);
    assert!(spike > 128_000_000_000 && (spike as f64) < 1.04 * 128e9);
    // On 128 GiB that leaves 4.6 GiB, under the headroom: the cheapest fix is a swap file for
    // the loading peak, as the report's 10 GB swap file was.
    assert_eq!(t.cpu.fits, Some(false));
    assert_eq!(a.recommendations[0].id, R::AddSwap);
    assert_eq!(a.recommendations[0].result.fits, Some(true));

    // fsdp_qlora's `--low_memory`: the load itself (36.6 GB) stays under the spike.
    let low_memory = TrainingPlan {
        loading: Some(LoadingMethod::Rank0Broadcast),
        ..plan.clone()
    };
    let a = assess("puget-2x3090-128g", low_memory);
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.estimate.largest_layer_params, 32_000 * 8_192);
    assert!(near(
        t.estimate.loading.cpu_bytes_per_node,
        2 * 2 * 32_000 * 8_192 + base
    ));
    assert_eq!(t.estimate.loading.page_cache_bytes, 2 * p);
    assert!(near(phase_cpu(&a, PhaseId::Loading), spike));

    // Every rank loading the 16-bit base (a plain FSDP script): 2 × 2 × p, over RAM; the first
    // fix is a loading setting, which brings the peak back to the spike.
    let every_rank = TrainingPlan {
        loading: Some(LoadingMethod::EveryRank),
        ..plan
    };
    let a = assess("puget-2x3090-128g", every_rank);
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(phase_cpu(&a, PhaseId::Loading), 2 * 2 * p + runtime(2));
    assert_eq!(t.cpu.fits, Some(false));
    // Loading on rank 0 (fsdp_qlora's `--low_memory`) brings the peak back to the offload
    // init's spike, 132,525,883,686 B: inside the 137,438,953,472 B usable but not its 5 %
    // margin, so it comes with the swap file that holds the margin, as the machine-level
    // swap file is sized: 132,525,883,686 ÷ 0.95 = 139,500,930,196 to hold, 2,061,976,724 B
    // over, + 10 % = 2.11 GiB, 3 GiB in whole GiB. That is the report's own fix (`--low_memory`
    // and a swap file) and comes first; the meta device does the same; dropping the offload
    // (the 4-bit base sharded over the two 24 GB GPUs, speed not priced) fits too.
    let first = &a.recommendations[0];
    assert_eq!(first.id, R::LoadOnRank0);
    assert_eq!(first.kind, RecKind::Os);
    assert_eq!(first.result.fits, Some(true));
    assert_eq!(
        first.changes.get("swap"),
        Some(&ramvram::advisor::Quantity::Bytes(3 * GIB))
    );
    for id in [R::LoadOnRank0, R::MetaDeviceInit] {
        let r = a.recommendations.iter().find(|r| r.id == id).unwrap();
        assert!(near(r.result.cpu_peak_bytes_per_node.unwrap(), spike));
        assert_eq!(r.result.fits, Some(true));
    }
    let drop = a
        .recommendations
        .iter()
        .find(|r| r.id == R::DropOffload)
        .unwrap();
    assert_eq!(drop.result.fits, Some(true));
    // A swap file alone is not offered: the overflow is larger than RAM.
    assert!(a.recommendations.iter().all(|r| r.id != R::AddSwap));
}

/// A 40B model under FSDP with CPU offload on 8 GPUs, fp32 checkpoint loaded by every rank:
/// 8 × 40 × 10^9 × 4 B = 1,280 × 10^9 B at load, over a p4d's 1,152 GiB. Loading on rank 0
/// brings the load to one copy, 160 × 10^9 B, and the plan fits — its peak then the default
/// checkpoint save (FSDP's full state dict on rank 0), not the training phase.
#[test]
fn forty_b_fp32_checkpoint_on_eight_ranks_is_fixed_by_loading_on_rank0() {
    let p = 40_000_000_000u64;
    let plan = TrainingPlan {
        strategy: Strategy::FsdpFullShard,
        offload_optimizer: OffloadTarget::Cpu,
        offload_param: OffloadTarget::Cpu,
        gpus_per_node: 8,
        checkpoint_dtype: CheckpointDtype::Fp32,
        ..TrainingPlan::new(p)
    };
    let a = assess("aws-p4d.24xlarge", plan);
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(
        phase_cpu(&a, PhaseId::Loading),
        1_280_000_000_000 + runtime(8)
    );
    assert_eq!(t.cpu.available_bytes, Some(1152 * GIB));
    assert_eq!(t.fits, Some(false));
    // Training keeps FSDP's offloaded states as PyTorch holds them, no buffer factor: the fp32
    // sharded parameters (4), their fp32 gradients (4) and Adam's two fp32 moments (8).
    let training = 16 * p + runtime(8);
    assert_eq!(phase_cpu(&a, PhaseId::Training), training);
    let first = &a.recommendations[0];
    assert_eq!(first.id, R::LoadOnRank0);
    assert_eq!(first.result.fits, Some(true));
    // The load is 160 × 10^9 B + the runtime, under the training phase. Every run saves: with
    // no save named, FSDP's default full state dict gathers on rank 0's CPU the fp32
    // parameters (4 B) and Adam's two moments (4 + 4 B) of every parameter (torchtune's
    // `gather_cpu_state_dict`, accelerate's FULL_STATE_DICT with `rank0_only`), 12 × 40 × 10^9
    // = 480 × 10^9 B beside the training phase: 1,120 × 10^9 B + 26 GiB = 1,069 GiB, the new
    // peak, still under 1,152 GiB less its 5 % margin (1,094.4 GiB).
    assert!(160_000_000_000 + runtime(8) < training);
    let save = training + 12 * p;
    assert_eq!(save, 1_147_917_287_424);
    assert_eq!(first.result.cpu_peak_bytes_per_node, Some(save));
    assert!(save as f64 <= 0.95 * (1152 * GIB) as f64);
    assert!(a.recommendations.iter().any(|r| r.id == R::MetaDeviceInit));
}

/// 7B on ZeRO-3 with CPU offload and no activation figure: every output says the activations are
/// not included; given 32 layers, hidden 4096, sequence 2048 and micro-batch 1 it estimates them
/// with Korthikanti et al.'s formula.
#[test]
fn activations_are_said_to_be_missing_then_estimated_for_any_shape() {
    let base = [
        "advise",
        "--json",
        "--params",
        "7B",
        "--zero-stage",
        "3",
        "--offload-optimizer",
        "cpu",
        "--offload-param",
        "cpu",
    ];
    let v = common::json_of(
        common::ramvram()
            .args(base)
            .arg("--profile")
            .arg(common::fixture_path("aws-g5.xlarge")),
    );
    assert_eq!(v["training_memory"]["activations"]["included"], false);
    assert!(v["training_memory"]["activations"]["gpu_bytes_per_gpu"].is_null());
    let text = String::from_utf8(
        common::ramvram()
            .arg("advise")
            .args(&base[2..])
            .args(["--profile"])
            .arg(common::fixture_path("aws-g5.xlarge"))
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(text.contains("activations not included"), "{text}");
    // FlashAttention (the default): 34 · s · b · h per layer = 34 × 2048 × 4096 bytes; 32 layers.
    let shape = [
        "--seq-len",
        "2048",
        "--micro-batch",
        "1",
        "--layers",
        "32",
        "--hidden-size",
        "4096",
    ];
    let v = common::json_of(
        common::ramvram()
            .args(base)
            .args(shape)
            .arg("--profile")
            .arg(common::fixture_path("aws-g5.xlarge")),
    );
    let act = &v["training_memory"]["activations"];
    assert_eq!(act["included"], true);
    assert_eq!(act["gpu_bytes_per_gpu"], 34u64 * 2048 * 4096 * 32);
    assert_eq!(act["formula"], "korthikanti-flash");
    assert_eq!(
        act["heads_assumed"], true,
        "no --heads: 4096 / 128 = 32 assumed"
    );
    // Eager attention adds 5·a·s/h = 5 × 32 × 2048 / 4096 = 80 per layer: 114 · s · b · h.
    let v = common::json_of(
        common::ramvram()
            .args(base)
            .args(shape)
            .args(["--eager-attention", "--profile"])
            .arg(common::fixture_path("aws-g5.xlarge")),
    );
    assert_eq!(
        v["training_memory"]["activations"]["gpu_bytes_per_gpu"],
        114u64 * 2048 * 4096 * 32
    );
}

/// A flag that can't change the plan is an error naming it.
#[test]
fn inapplicable_flags_are_named() {
    common::ramvram()
        .args([
            "advise",
            "--params",
            "7B",
            "--aio-queue-depth",
            "16",
            "--profile",
        ])
        .arg(common::fixture_path("aws-g5.xlarge"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--aio-queue-depth only applies with --offload-optimizer nvme",
        ));
    common::ramvram()
        .args(["advise", "--params", "7B", "--checkpointing", "--profile"])
        .arg(common::fixture_path("aws-g5.xlarge"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--checkpointing only applies with --seq-len and --micro-batch",
        ));
}

/// AWS g5.xlarge (16 GiB, one 24 GB A10G): the ranked list's hardware item is a larger g5
/// instance by name — never memory modules.
#[test]
fn a_cloud_instance_gets_a_larger_instance_never_dimms() {
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess("aws-g5.xlarge", plan);
    assert!(!a.recommendations.iter().any(|r| r.id == R::AddRam));
    let larger = a
        .recommendations
        .iter()
        .find(|r| r.id == R::LargerInstance)
        .expect("a larger instance");
    assert_eq!(larger.kind, RecKind::Cloud);
    let ramvram::advisor::Quantity::Text(name) = &larger.changes["instance_type"] else {
        panic!("instance type")
    };
    assert!(name.starts_with("g5."), "{name}");
    // Issue 34: money is its own path beside the plan changes, never hidden behind them. The
    // instance runs the plan as it stands (relative speed 1.0); QLoRA changes the model and
    // its speed can't be priced (no FLOP rate), so the instance comes first among the changes
    // that solve otherwise.
    let position = |id| a.recommendations.iter().position(|r| r.id == id);
    assert_eq!(larger.result.relative_speed, Some(1.0));
    assert!(position(R::LargerInstance) < position(R::Qlora));
}

/// A desktop with one 32 GB DDR4-3200 module in a 4-slot board and a 24 GB GPU: a plan needing
/// about 40 GiB of RAM gets "add one 32 GB DDR4-3200 module" (64 GiB, dual channel) as its
/// hardware item.
#[test]
fn a_desktop_with_one_module_gets_its_twin() {
    // ZeRO-2 with CPU offload of a 1.3B model: 24 bytes × 1,315,758,080 = 29.4 GiB + 5 GiB of
    // runtime = 34.4 GiB > the 31.x GiB usable.
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        ..TrainingPlan::from_preset(presets::preset("opt-1.3b").unwrap())
    };
    let a = assess("desktop-3090-1x32-ddr4-4slot", plan);
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.cpu.fits, Some(false), "{:?}", t.cpu);
    let add = a
        .recommendations
        .iter()
        .find(|r| r.id == R::AddRam)
        .expect("add RAM");
    // The size and its unit are joined by a no-break space, as every quantity shown is.
    let ramvram::advisor::Quantity::Modules {
        count,
        size_bytes,
        memory_type,
        speed_mts,
        ..
    } = &add.changes["modules"]
    else {
        panic!("{add:?}")
    };
    assert_eq!(
        (*count, *size_bytes, memory_type.as_str(), *speed_mts),
        (1, 32 * GIB, "DDR4", Some(3200))
    );
    let title = ramvram::present::recommend::title(ramvram::i18n::Lang::En, add);
    assert!(title.contains("1 × 32\u{a0}GB DDR4-3200"), "{title}");
    assert_eq!(
        add.changes["ram_bytes"],
        ramvram::advisor::Quantity::Bytes(64 * GIB)
    );
    assert_eq!(add.result.fits, Some(true));
}

/// A 7B full fine-tune with ZeRO-2 and the optimizer offloaded to the CPU on four 16 GB GPUs
/// and 64 GiB: no setting or technique that keeps the full fine-tune fits, so the list ends with
/// the hardware that does, sized by hand, even though this machine's slots can't be read.
/// DeepSpeed's term: 6,738,415,616 × max(4 × 4, 16) × 1.5 bytes = 150.6 GiB, + 14 GiB runtime.
/// Resuming (every run may), each of the 4 ranks `torch.load`s its own optimizer partition,
/// fp32 weights and Adam's two moments, 12 × p ÷ 4 bytes, to the CPU beside the offloaded
/// states it replaces (deepspeed/runtime/engine.py `_get_all_zero_checkpoint_state_dicts`,
/// map_location='cpu'): + 12 × p = 75.3 GiB, 239.9 GiB in all. With the 5 % margin that is
/// 252.6 GiB usable; MemTotal is 62.7 GiB of 64 GiB installed, so the installed size to reach
/// is 252.6 / (62.7 / 64) = 257.8 GiB → the next common size, 384 GiB.
#[test]
fn a_plan_no_setting_fixes_ends_with_the_ram_to_reach_on_an_unknown_board() {
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        gpus_per_node: 4,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess("live-4x4080-64g", plan);
    let p = 6_738_415_616u64;
    let states = (p as f64 * 16.0 * 1.5) as u64;
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(phase_cpu(&a, PhaseId::Training), states + runtime(4));
    assert!(t.cpu.needed_bytes.abs_diff(states + 12 * p + runtime(4)) <= 1);
    assert_eq!(t.estimate.cpu_peak_phase, Some(PhaseId::Resume));
    // The installed size to reach: need ÷ 0.95 ÷ (65,745,012 kB ÷ 64 GiB).
    let installed = t.cpu.needed_bytes as f64 / 0.95 / (65_745_012.0 * 1024.0 / (64 * GIB) as f64);
    assert!((installed / GIB as f64 - 257.8).abs() < 0.05, "{installed}");
    // ZeRO-2 under DeepSpeed: rank 0 broadcasting is FSDP's setting, not offered here.
    assert!(a.recommendations.iter().all(|r| r.id != R::LoadOnRank0));
    // Issue 34: the money path stands beside the plan changes (LoRA, QLoRA: other weights
    // trained, speed unknown), ordered by speed: the RAM that runs the plan as it stands (1.0)
    // comes before them, not last.
    let last = a
        .recommendations
        .iter()
        .find(|r| r.id == R::AddRam)
        .expect("add RAM");
    assert_eq!((last.id, last.kind), (R::AddRam, RecKind::Hardware));
    let position = |id| a.recommendations.iter().position(|r| r.id == id);
    assert!(
        position(R::AddRam) < position(R::Lora),
        "{:?}",
        position(R::Lora)
    );
    assert_eq!(last.result.fits, Some(true));
    assert_eq!(
        last.changes["ram_bytes"],
        ramvram::advisor::Quantity::Bytes(384 * GIB)
    );
    assert!(!last.changes.contains_key("modules"));
}

/// "RAM that would fit it" is the installed size, the same figure as the add-RAM item: a
/// 3,366,666,667-parameter model under the same plan needs, at its peak (resuming: DeepSpeed's
/// p × 16 × 1.5 B of states and each rank's optimizer partition read beside them, 12 × p B),
/// 36 × p = 112.9 GiB + 14 GiB runtime = 126.9 GiB usable. 128 GiB installed leaves only
/// 128 × 65,745,012 kB / 64 GiB = 125.4 GiB to Linux here, so the installed size to reach is
/// above 128 GiB → 144 GiB, not 128.
#[test]
fn ram_that_would_fit_is_installed_ram_as_the_add_ram_item_says() {
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        gpus_per_node: 4,
        params: 3_366_666_667,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess("live-4x4080-64g", plan);
    let t = a.training_memory.as_ref().unwrap();
    let need = 36 * 3_366_666_667 + runtime(4);
    assert!(
        t.cpu.needed_bytes.abs_diff(need) <= 1,
        "{}",
        t.cpu.needed_bytes
    );
    // What Linux gets of 128 GiB installed here: 128 × MemTotal / 64 GiB.
    let usable_of_128 = 128 * 65_745_012 * 1024 / 64;
    assert!(need > usable_of_128, "{need} vs {usable_of_128}");
    assert_eq!(t.ram_to_fit_bytes, Some(144 * GIB));
    let add = a
        .recommendations
        .iter()
        .find(|r| r.id == R::AddRam)
        .unwrap();
    assert_eq!(
        add.changes["ram_bytes"],
        ramvram::advisor::Quantity::Bytes(144 * GIB)
    );
}

/// Llama 2 70B, full fine-tune with ZeRO-3 and no offload on a DGX H100 (8 × 80 GB, 2 TiB): each
/// GPU would need 18 × p / 8 = 145 GiB, and without zero.Init every rank loads an fp32 copy
/// (4 × p × 8 × 1.5 = 3083 GiB). Buying RAM isn't the answer: DeepSpeed's own settings are.
/// Offloading the optimizer with zero.Init: DeepSpeed's estimator gives p × 16 × 1.5 bytes of
/// CPU RAM (estimate_zero3_model_states_mem_needs, cpu_offload, zero_init) and
/// 4 × largest layer + 2 × p / 8 per GPU. Resuming it, each of the 8 ranks reads its own
/// optimizer partition (fp32 weights and Adam's two moments, 12 × p / 8 bytes) to the CPU
/// beside the states it replaces (deepspeed/runtime/zero/stage3.py `_rigid_load_state_dict`),
/// 12 × p = 770.8 GiB more, 2,338.6 GiB in all, over the 2,048 GiB by 290.6 GiB — once, which a
/// swap file takes: the overflow × 1.1, rounded up, 320 GiB.
#[test]
fn seventy_b_zero3_without_offload_is_fixed_by_deepspeed_settings_not_ram() {
    let p = 68_976_648_192u64;
    let plan = TrainingPlan {
        strategy: Strategy::Zero3,
        gpus_per_node: 8,
        ..TrainingPlan::from_preset(presets::preset("llama2-70b").unwrap())
    };
    let a = assess("dgx-h100", plan);
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!((t.gpu.fits, t.cpu.fits), (Some(false), Some(false)));
    let first = &a.recommendations[0];
    assert_eq!(
        (first.id, first.kind),
        (R::OffloadOptimizerToCpu, RecKind::Os)
    );
    assert_eq!(
        first.changes["loading"],
        ramvram::advisor::Quantity::Text("zero.Init".into())
    );
    assert_eq!(first.result.fits, Some(true));
    let cpu = (p as f64 * 16.0 * 1.5) as u64 + 12 * p + runtime(8);
    let overflow = cpu - 2048 * GIB;
    assert!((overflow as f64 / GIB as f64 - 290.6).abs() < 0.05);
    assert_eq!(
        first.changes["swap"],
        ramvram::advisor::Quantity::Bytes(320 * GIB)
    );
    let cpu_got = first.result.cpu_peak_bytes_per_node.unwrap();
    assert!(cpu_got.abs_diff(cpu) <= 2, "{cpu_got} vs {cpu}");
    let gpu = 4 * 262_144_000 + 2 * p / 8;
    let gpu_got = first.result.gpu_peak_bytes_per_gpu.unwrap();
    assert!(gpu_got.abs_diff(gpu) <= 2, "{gpu_got} vs {gpu}");
    // Every fitting change comes before any purchase, and no two techniques say the same thing.
    let hardware = a
        .recommendations
        .iter()
        .position(|r| matches!(r.kind, RecKind::Hardware | RecKind::Cloud));
    let fitting_settings = a
        .recommendations
        .iter()
        .filter(|r| matches!(r.kind, RecKind::Setting | RecKind::Os))
        .filter(|r| r.result.fits == Some(true))
        .count();
    assert!(fitting_settings >= 2);
    assert!(hardware.is_none_or(|h| h >= fitting_settings));
    for (i, r) in a.recommendations.iter().enumerate() {
        for s in &a.recommendations[i + 1..] {
            assert!(
                !(r.kind == RecKind::Software && r.kind == s.kind && r.result == s.result),
                "{:?} and {:?} read the same",
                r.id,
                s.id
            );
        }
    }
}

/// The headline can't say "enough RAM" above a plan that doesn't fit: on the seed's 32 GiB RTX
/// 4090 machine the verdict alone is the 1.0–1.5× baseline (32 / 24 = 1.33), but a 7B full
/// fine-tune with ZeRO-2 and CPU offload needs 6,738,415,616 × 16 × 1.5 B = 151 GiB + 5 GiB of
/// runtime to train and, resuming, its optimizer partition read beside those states
/// (12 × 6,738,415,616 B = 75 GiB): 231 GiB; the headline says so, with the cheapest change that fits, and the machine's
/// verdict after it. Without a plan it is the verdict.
#[test]
fn the_headline_puts_a_plan_that_does_not_fit_first() {
    use ramvram::advisor::{Severity, Verdict};
    use ramvram::i18n::Lang;
    use ramvram::present::headline::headline;
    let alone = ramvram::advisor::assess(
        &common::fixture("seed-4090-32g"),
        &ramvram::advisor::Scenario::NONE,
    );
    assert_eq!(alone.verdict, Verdict::Baseline);
    let h = headline(Lang::En, &alone);
    assert_eq!(h.severity, Severity::Info);
    assert_eq!(h.title, "Enough RAM for training without offload");
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess("seed-4090-32g", plan);
    let h = headline(Lang::En, &a);
    assert_eq!(h.severity, Severity::Critical);
    assert!(
        h.title
            .starts_with("This training plan does not fit this machine")
            && h.title.replace('\u{a0}', " ").contains("231 GiB"),
        "{}",
        h.title
    );
    // The first fitting change that costs no money (issue 34: money is a path beside the
    // plan changes, not the cheapest fix).
    let fix = a
        .recommendations
        .iter()
        .find(|r| {
            r.result.fits == Some(true) && r.gives_up != ramvram::advisor::recommend::GivesUp::Money
        })
        .unwrap();
    let fix_title = ramvram::present::recommend::title(Lang::En, fix);
    assert!(h.detail.contains(&fix_title), "{}", h.detail);
    assert!(h.detail.contains("Enough RAM for training without offload"));
}

/// Among techniques, those that keep training the same model come before those that change
/// it, and a change of method says what it replaces: from a full fine-tune, QLoRA (sharded or
/// not) is "instead of all parameters"; from LoRA it quantises the base, nothing more.
#[test]
fn method_changes_come_last_and_say_what_they_replace() {
    use ramvram::i18n::Lang;
    use ramvram::present::recommend::title;
    let full = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        gpus_per_node: 4,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess("live-4x4080-64g", full);
    let ids: Vec<R> = a.recommendations.iter().map(|r| r.id).collect();
    let at = |id| ids.iter().position(|r| *r == id).unwrap();
    assert!(
        at(R::Lora) < at(R::Qlora) && at(R::Qlora) < at(R::ShardedQlora),
        "{ids:?}"
    );
    let sharded = &a.recommendations[at(R::ShardedQlora)];
    assert!(title(Lang::En, sharded).contains("instead of all parameters"));
    assert!(title(Lang::Zh, sharded).contains("不训练全部参数"));

    let lora = TrainingPlan {
        finetune: FineTune::Lora,
        gpus_per_node: 4,
        ..TrainingPlan::from_preset(presets::preset("llama2-13b").unwrap())
    };
    let a = assess("live-4x4080-64g", lora);
    for r in a
        .recommendations
        .iter()
        .filter(|r| matches!(r.id, R::Qlora | R::ShardedQlora))
    {
        let en = title(Lang::En, r);
        assert!(en.starts_with("Quantise the LoRA base to 4 bits"), "{en}");
        assert!(!en.contains("all parameters"), "{en}");
    }
    assert!(a.recommendations.iter().any(|r| r.id == R::Qlora));
}

/// Llama 2 70B QLoRA sharded by FSDP on four 16 GB RTX 4080s with 64 GiB (the tryout). When
/// every rank loads the 16-bit base: 4 × 2 × p = 514 GiB, eight times RAM. No swap file
/// is offered for that. On the meta device each rank holds one 5 GB shard and the loading rank
/// the quantised base: 4 × 5e9 + p × 4.127 / 8 + 14 GiB = 65.8 GiB, 3.3 GB over the
/// 67,322,892,288 usable bytes; that overflow + 10 % is 3.6 GB → 4 GiB of swap, of which the
/// 2 GiB configured covers half. Loading on rank 0 as fsdp_qlora's `--low_memory` does (each
/// rank maps the files and copies one tensor at a time to its GPU, rank 0 keeps the base):
/// 4 × 2 × 262,144,000 + base + 14 GiB = 52.7 GB, which fits without swap and comes first;
/// the meta device with its 2 GiB swap file after it.
#[test]
fn a_loading_setting_that_nearly_fits_comes_with_a_small_swap_file_never_a_huge_one() {
    let p = 68_976_648_192u64;
    let plan = TrainingPlan {
        finetune: FineTune::Qlora,
        strategy: Strategy::FsdpFullShard,
        gpus_per_node: 4,
        // What a plain FSDP script does (`sync_module_states=False`): every rank loads.
        loading: Some(LoadingMethod::EveryRank),
        ..TrainingPlan::from_preset(presets::preset("llama2-70b").unwrap())
    };
    let a = assess("live-4x4080-64g", plan);
    let usable = 67_322_892_288u64;
    assert_eq!(phase_cpu(&a, PhaseId::Loading), 4 * 2 * p + runtime(4));
    // No swap file several times RAM, alone or with a change.
    for r in &a.recommendations {
        if let Some(ramvram::advisor::Quantity::Bytes(s)) = r.changes.get("swap") {
            assert!(*s <= usable, "{r:?}");
        }
    }
    let base = (p as f64 * 4.127 / 8.0).round() as u64;
    let rank0 = &a.recommendations[0];
    assert_eq!((rank0.id, rank0.kind), (R::LoadOnRank0, RecKind::Setting));
    let low_memory = 4 * 2 * 32_000 * 8_192 + base + runtime(4);
    let peak = rank0.result.cpu_peak_bytes_per_node.unwrap();
    assert!(peak.abs_diff(low_memory) <= 2, "{peak} vs {low_memory}");
    assert!(!rank0.changes.contains_key("swap"));
    let first = &a.recommendations[1];
    assert_eq!((first.id, first.kind), (R::MetaDeviceInit, RecKind::Os));
    let meta = 4 * 5_000_000_000 + base + runtime(4);
    let peak = first.result.cpu_peak_bytes_per_node.unwrap();
    assert!(peak.abs_diff(meta) <= 2, "{peak} vs {meta}");
    let swap = ((peak - usable) as f64 * 1.1 / GIB as f64).ceil() as u64 - 2;
    assert_eq!(swap, 2);
    assert_eq!(
        first.changes["swap"],
        ramvram::advisor::Quantity::Bytes(swap * GIB)
    );
    assert_eq!(first.result.fits, Some(true));
}

/// With nothing that fits or even comes closer (70B QLoRA on one 16 GB laptop GPU), the
/// headline doesn't promise a list that isn't there.
#[test]
fn the_headline_promises_no_list_when_there_is_none() {
    use ramvram::i18n::Lang;
    let plan = TrainingPlan {
        finetune: FineTune::Qlora,
        ..TrainingPlan::from_preset(presets::preset("llama2-70b").unwrap())
    };
    let a = assess("laptop-4090m-lpddr5-soldered", plan);
    assert!(a.recommendations.is_empty(), "{:?}", a.recommendations);
    let h = ramvram::present::headline::headline(Lang::En, &a);
    assert!(!h.detail.contains("What to change"), "{}", h.detail);
    assert!(
        h.detail
            .starts_with("No change ramvram knows of makes it fit"),
        "{}",
        h.detail
    );
}

/// A plan for 8 ranks per node judged on a 4-GPU machine is a warning of its own, not a
/// footnote: its per-node figures describe another machine.
#[test]
fn more_ranks_than_gpus_is_a_warning() {
    use ramvram::advisor::findings::{FindingId, Severity};
    let plan = TrainingPlan {
        strategy: Strategy::Zero3,
        gpus_per_node: 8,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let a = assess("live-4x4080-64g", plan.clone());
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::TrainingMoreGpusThanMachine)
        .expect("a warning");
    assert_eq!(f.severity, Severity::Warning);
    let text = ramvram::present::finding_title(ramvram::i18n::Lang::En, f);
    assert_eq!(text, "The plan runs 8 GPUs per node; this machine has 4");
    let fits_here = assess(
        "live-4x4080-64g",
        TrainingPlan {
            gpus_per_node: 4,
            ..plan
        },
    );
    assert!(
        fits_here
            .findings
            .iter()
            .all(|f| f.id != FindingId::TrainingMoreGpusThanMachine)
    );
}

/// Issue 37 item 6: the plan's own verdict counts the swap configured for a one-time loading
/// peak, by the rule a recommendation's swap file follows. The meta-device plan of the case
/// above peaks at 70,615,713,922 B while loading on 67,322,892,288 B usable: 3,292,821,634 B
/// over, + 10 % = 3.37 GiB, so 4 GiB of swap (whole GiB) absorb it and 3 GiB don't. Training
/// itself (4 × 3 GiB + 2 GiB of runtime and the adapters) fits in RAM.
#[test]
fn the_verdict_counts_swap_that_absorbs_the_loading_peak() {
    let plan = TrainingPlan {
        finetune: FineTune::Qlora,
        strategy: Strategy::FsdpFullShard,
        gpus_per_node: 4,
        loading: Some(LoadingMethod::MetaDevice),
        ..TrainingPlan::from_preset(presets::preset("llama2-70b").unwrap())
    };
    let with_swap = |gib: u64| {
        let mut p = fixture("live-4x4080-64g");
        p.memory.swap_total_bytes = Some(gib * GIB);
        advisor::assess(
            &p,
            &Scenario {
                training: Some(plan.clone()),
                ..Default::default()
            },
        )
    };
    let over = 70_615_713_922u64 - 67_322_892_288;
    assert_eq!(((over as f64 * 1.1) / GIB as f64).ceil(), 4.0);
    let short = with_swap(3);
    let t = short.training_memory.as_ref().unwrap();
    assert!(t.cpu.needed_bytes.abs_diff(70_615_713_922) <= 2);
    assert_eq!(t.fits, Some(false));
    assert!(t.ram_to_fit_bytes.is_some());
    let enough = with_swap(4);
    let t = enough.training_memory.as_ref().unwrap();
    assert_eq!(t.fits, Some(true));
    // The RAM check still says the peak is past RAM; no RAM to buy to fit it.
    assert_eq!(t.cpu.fits, Some(false));
    assert_eq!(t.ram_to_fit_bytes, None);
    let line = ramvram::present::training::ram_line(ramvram::i18n::Lang::En, t).unwrap();
    assert!(line.contains("3.1\u{a0}GiB"), "{line}");
    assert!(
        line.starts_with("Only the one-time peak (Loading) passes usable RAM"),
        "{line}"
    );
}

/// Swap never counts as RAM for training itself: 7B full fine-tuning with the optimizer
/// offloaded to the CPU holds 12 B per parameter of Adam states in host RAM while training
/// (12 × 6,738,415,616 B = 80.9 GB, five times a g5.xlarge's 16 GiB), so even 1 TiB of swap
/// leaves it not fitting.
#[test]
fn swap_never_counts_for_the_training_phase() {
    let plan = TrainingPlan {
        strategy: Strategy::Zero2,
        offload_optimizer: OffloadTarget::Cpu,
        ..TrainingPlan::from_preset(presets::preset("llama2-7b").unwrap())
    };
    let mut p = fixture("aws-g5.xlarge");
    p.memory.swap_total_bytes = Some(1 << 40);
    let a = advisor::assess(
        &p,
        &Scenario {
            training: Some(plan),
            ..Default::default()
        },
    );
    assert!(phase_cpu(&a, PhaseId::Training) >= 12 * 6_738_415_616);
    let t = a.training_memory.as_ref().unwrap();
    assert_eq!(t.fits, Some(false));
}
