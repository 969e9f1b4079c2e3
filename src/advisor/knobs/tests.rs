//! The knob table's own tests: every row complete and unique, every value written as `apply`
//! and read back by its flag's parser unchanged (values worked by hand), and `docs/knobs.md`
//! equal to the rows.

use super::types::{DefaultSource, Kind, Knob, KnobId as K, KnobValue as V, Label, Plan};
use super::*;
use crate::advisor::inference::{Engine, InferencePlan, WeightFormat, knob_values as served};
use crate::advisor::training::knob_values as trained;
use crate::advisor::training::{
    ActivationInput, OffloadTarget, Strategy, TrainingPlan, TransformerShape,
};
use crate::advisor::whatif::MachineChange;
use crate::advisor::workload::knob_values as loaded;
use crate::i18n::{Lang, Msg, tr};

#[test]
fn every_id_has_one_row_with_a_unique_flag_and_field() {
    let rows: Vec<&Knob> = all().collect();
    // Ids are numbered from 0 in declaration order: as many rows as ids, each id once, means
    // every id has its row.
    assert_eq!(rows.len(), K::NumaBind as usize + 1);
    let mut ids: Vec<K> = rows.iter().map(|k| k.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), rows.len(), "an id with two rows");
    let mut flags: Vec<&str> = rows.iter().map(|k| k.flag).collect();
    flags.sort_unstable();
    flags.dedup();
    assert_eq!(flags.len(), rows.len(), "a flag with two rows");
    // `--zero-stage N` is `--strategy zeroN`: the one alias, setting the same field.
    let mut fields: Vec<(Plan, &str)> = rows
        .iter()
        .filter(|k| k.id != K::ZeroStage)
        .flat_map(|k| k.fields.iter().map(move |f| (k.plan, *f)))
        .collect();
    let n = fields.len();
    fields.sort_unstable();
    fields.dedup();
    assert_eq!(fields.len(), n, "a field set by two knobs of one plan");
    for k in &rows {
        assert!(!k.fields.is_empty(), "{} sets no field", k.flag);
        let sides = if k.kind == Kind::Resolution { 2 } else { 1 };
        assert_eq!(k.fields.len(), sides, "{}", k.flag);
        assert_eq!(find(k.id).map(|r| r.flag), Some(k.flag));
        assert_eq!(of_flag(k.flag).map(|r| r.id), Some(k.id));
    }
}

#[test]
fn every_row_has_its_help_and_a_label_in_both_languages() {
    for k in all() {
        let help = Msg::from_key(&k.help_key())
            .or_else(|| Msg::from_key(&format!("clihelp.shared.{}", k.arg_id())));
        assert!(help.is_some(), "no help for --{}", k.flag);
        let texts: Vec<&str> = match k.label {
            Some(Label::Text(m)) => vec![m]
                .into_iter()
                .flat_map(|m| [tr(Lang::En, m), tr(Lang::Zh, m)])
                .collect(),
            Some(Label::Sides(w, h)) => [w, h]
                .into_iter()
                .flat_map(|m| [tr(Lang::En, m), tr(Lang::Zh, m)])
                .collect(),
            // A PyTorch keyword is its own label in both languages.
            Some(Label::Keyword) => vec![k.fields[0]],
            None => continue,
        };
        assert!(texts.iter().all(|t| !t.trim().is_empty()), "{}", k.flag);
    }
    // The window has a control for every workload knob but the two only the command line
    // and scenario files take (non-image sample bytes, a measured decode rate).
    let unlabelled: Vec<K> = WORKLOAD
        .iter()
        .filter(|k| k.label.is_none())
        .map(|k| k.id)
        .collect();
    assert_eq!(unlabelled, [K::SampleBytes, K::DecodeRate]);
}

#[test]
fn every_default_is_read_by_its_own_parser_and_within_its_range() {
    for k in all() {
        let Some(d) = k.default else { continue };
        let v = parse(k, d).unwrap_or_else(|e| panic!("--{} {d}: {e}", k.flag));
        assert_eq!(check_range(k, v), Ok(()), "--{} {d}", k.flag);
    }
    // DeepSpeed's NVMe defaults (`offload_param.buffer_count = 5`, `buffer_size = 1e8`).
    assert_eq!(
        parse(knob(K::NvmeBufferSize), "100000000"),
        Ok(V::Whole(100_000_000))
    );
    assert_eq!(knob(K::NvmeBufferCount).source, DefaultSource::DeepSpeed);
    assert_eq!(parse(knob(K::LoraShare), "1%"), Ok(V::Float(0.01)));
}

/// Each knob with a value worked by hand: the text typed, the typed value it means.
fn cases() -> Vec<(K, &'static str, V)> {
    vec![
        (K::DatasetSize, "1.50528GB", V::Whole(1_505_280_000)),
        (K::Samples, "666667", V::Whole(666_667)),
        (K::ImageSize, "3840x2160", V::Pair(3840, 2160)),
        (K::Crop, "224", V::Whole(224)),
        (K::Stored, "png", V::Choice("png")),
        (K::SampleBytes, "8KiB", V::Whole(8192)),
        (K::Dtype, "f16", V::Choice("f16")),
        (K::BatchSize, "256", V::Whole(256)),
        (K::NumWorkers, "8", V::Whole(8)),
        (K::PrefetchFactor, "4", V::Whole(4)),
        (K::PinMemory, "false", V::Bool(false)),
        (K::PersistentWorkers, "true", V::Bool(true)),
        (K::Augmentation, "heavy", V::Choice("heavy")),
        (K::DataFormat, "shards", V::Choice("shards")),
        (K::DecodeOn, "gpu", V::Choice("gpu")),
        (K::GpuDemand, "2500.5", V::Float(2500.5)),
        (K::ConcurrentExperiments, "2", V::Whole(2)),
        (K::Storage, "network", V::Choice("network")),
        (K::DecodeRate, "95.25", V::Float(95.25)),
        (K::Cache, "decoded-in-ram", V::Choice("decoded-in-ram")),
        (K::CacheSize, "640x480", V::Pair(640, 480)),
        (K::CacheDtype, "f32", V::Choice("f32")),
        (K::CacheScope, "per-worker", V::Choice("per-worker")),
        (K::IndexBytes, "0", V::Whole(0)),
        (K::Params, "7B", V::Whole(7_000_000_000)),
        (K::LargestLayerParams, "350M", V::Whole(350_000_000)),
        (K::Precision, "fp32", V::Choice("fp32")),
        (K::Optimizer, "adam8bit", V::Choice("adam8bit")),
        (K::Strategy, "zero3", V::Choice("zero3")),
        (K::ZeroStage, "1", V::Whole(1)),
        (K::OffloadOptimizer, "cpu", V::Choice("cpu")),
        (K::OffloadParam, "nvme", V::Choice("nvme")),
        (K::ZeroInit, "true", V::Bool(true)),
        (K::OptimizerInBackward, "true", V::Bool(true)),
        (K::GpusPerNode, "8", V::Whole(8)),
        (K::Nodes, "2", V::Whole(2)),
        (K::Finetune, "qlora", V::Choice("qlora")),
        (K::LoraShare, "2%", V::Float(0.02)),
        (K::SeqLen, "4096", V::Whole(4096)),
        (K::MicroBatch, "4", V::Whole(4)),
        (K::Checkpointing, "true", V::Bool(true)),
        (K::EagerAttention, "true", V::Bool(true)),
        (K::Layers, "32", V::Whole(32)),
        (K::HiddenSize, "4096", V::Whole(4096)),
        (K::Heads, "32", V::Whole(32)),
        (K::Loading, "meta-device", V::Choice("meta-device")),
        (K::CheckpointDtype, "int4", V::Choice("int4")),
        (K::SaveStateDict, "sharded", V::Choice("sharded")),
        (K::ResumeLoad, "per-rank", V::Choice("per-rank")),
        (K::ResumeWorldSize, "16", V::Whole(16)),
        (K::NvmeBufferCount, "6", V::Whole(6)),
        (K::NvmeBufferSize, "200M", V::Whole(200_000_000)),
        (K::NvmeMaxInCpu, "2B", V::Whole(2_000_000_000)),
        (K::NvmeOptimizerBufferCount, "5", V::Whole(5)),
        (K::AioBlockSize, "2097152", V::Whole(2_097_152)),
        (K::AioQueueDepth, "16", V::Whole(16)),
        (K::AioThreadCount, "2", V::Whole(2)),
        (K::Weights, "q4_k_m", V::Choice("q4_k_m")),
        (K::ContextLen, "8192", V::Whole(8192)),
        (K::ConcurrentSequences, "4", V::Whole(4)),
        (K::KvHeads, "8", V::Whole(8)),
        (K::KvCacheDtype, "fp8", V::Choice("fp8")),
        (K::GpuMemoryUtilization, "0.85", V::Float(0.85)),
        (K::VllmVersion, "0.33", V::Choice("0.33")),
        (K::SwapSpace, "8", V::Float(8.0)),
        (K::CpuOffloadGb, "2.5", V::Float(2.5)),
        (K::KvCacheMemoryBytes, "8GiB", V::Whole(8 << 30)),
        (K::KvOffloadingSize, "10", V::Float(10.0)),
        (K::NGpuLayers, "40", V::Whole(40)),
        (K::ExpertsOnCpu, "true", V::Bool(true)),
        (K::NCpuMoe, "12", V::Whole(12)),
        (K::CacheTypeK, "q8_0", V::Choice("q8_0")),
        (K::CacheTypeV, "q4_0", V::Choice("q4_0")),
        (K::FlashAttn, "off", V::Choice("off")),
        (K::UbatchSize, "256", V::Whole(256)),
        (K::CheckpointFiles, "pickle", V::Choice("pickle")),
        (K::DiffusionResolution, "768x1344", V::Pair(768, 1344)),
        (K::DiffusionImages, "4", V::Whole(4)),
        (K::DiffusionOffload, "model", V::Choice("model")),
        (K::AttentionSlicing, "true", V::Bool(true)),
        (K::VaeTiling, "true", V::Bool(true)),
        (K::SingleFile, "true", V::Bool(true)),
        (K::CheckpointShardSize, "9.94GB", V::Whole(9_940_000_000)),
        (K::ShmSize, "16GiB", V::Whole(16 << 30)),
        (K::WslMemory, "24GiB", V::Whole(24 << 30)),
        (K::Ram, "128GiB", V::Whole(128 << 30)),
        (K::Swap, "4GiB", V::Whole(4 << 30)),
        // `#SBATCH --mem=232G` as the flag takes it: 232 × 2^30.
        (K::MemoryLimit, "232GiB", V::Whole(232 << 30)),
        // `iogpu.wired_limit_mb=12288`: 12 GiB.
        (K::GpuWiredLimit, "12288MiB", V::Whole(12 << 30)),
        (K::PageFile, "36GiB", V::Whole(36 << 30)),
        (K::Gtt, "96GiB", V::Whole(96 << 30)),
        (K::NumaBind, "all", V::Choice("all")),
    ]
}

fn training_plan() -> TrainingPlan {
    TrainingPlan {
        activations: Some(ActivationInput {
            seq_len: 2048,
            micro_batch: 1,
            checkpointing: false,
            shape: Some(TransformerShape {
                hidden: 2048,
                layers: 24,
                ..TransformerShape::default()
            }),
            flash_attention: true,
        }),
        ..TrainingPlan::new(1_000_000_000)
    }
}

fn inference_plan() -> InferencePlan {
    let shape = TransformerShape {
        hidden: 4096,
        layers: 32,
        heads: Some(32),
        ..TransformerShape::default()
    };
    InferencePlan::new(Engine::Vllm, 7_000_000_000, shape, WeightFormat::Bf16)
}

/// Sets `v` on a plan of `k`'s kind and reads it back.
fn set_and_get(k: &Knob, v: V) -> Option<V> {
    match k.plan {
        Plan::Workload => {
            let mut w = crate::advisor::workload::presets::preset("generic")?;
            assert!(loaded::set(&mut w, k.id, v), "--{}", k.flag);
            loaded::get(&w, k.id)
        }
        Plan::Training | Plan::Model => {
            let mut p = training_plan();
            assert!(trained::set(&mut p, k.id, v), "--{}", k.flag);
            trained::get(&p, k.id)
        }
        Plan::Inference => {
            let mut p = inference_plan();
            assert!(served::set(&mut p, k.id, v), "--{}", k.flag);
            served::get(&p, k.id)
        }
        Plan::Machine => {
            if let V::Choice(name) = v {
                let c = MachineChange {
                    numa_bind: crate::advisor::whatif::NumaBind::parse(name),
                    ..MachineChange::default()
                };
                return machine_settings(&c).first().map(|s| s.value);
            }
            let V::Whole(b) = v else { return None };
            let c = MachineChange {
                shm_bytes: (k.id == K::ShmSize).then_some(b),
                wsl_memory_bytes: (k.id == K::WslMemory).then_some(b),
                ram_bytes: (k.id == K::Ram).then_some(b),
                swap_bytes: (k.id == K::Swap).then_some(b),
                memory_limit_bytes: (k.id == K::MemoryLimit).then_some(b),
                gpu_wired_limit_bytes: (k.id == K::GpuWiredLimit).then_some(b),
                page_file_bytes: (k.id == K::PageFile).then_some(b),
                gtt_bytes: (k.id == K::Gtt).then_some(b),
                numa_bind: None,
            };
            machine_settings(&c).first().map(|s| s.value)
        }
    }
}

#[test]
fn every_knob_set_written_as_apply_and_parsed_back_gives_the_same_value() {
    let cases = cases();
    assert_eq!(cases.len(), all().count(), "a knob without a worked value");
    for (id, typed, want) in cases {
        let k = knob(id);
        assert_eq!(parse(k, typed), Ok(want), "--{} {typed}", k.flag);
        assert_eq!(set_and_get(k, want), Some(want), "--{} {typed}", k.flag);
        let args = args(&[Setting {
            knob: id,
            value: want,
        }]);
        assert_eq!(args[0], format!("--{}", k.flag));
        let back = match k.kind {
            Kind::Switch => {
                assert_eq!(args.len(), 1, "{args:?}");
                V::Bool(true)
            }
            _ => parse(k, &args[1]).unwrap_or_else(|e| panic!("{args:?}: {e}")),
        };
        assert_eq!(back, want, "{args:?}");
    }
}

#[test]
fn sizes_are_written_as_the_size_parser_reads_them() {
    assert_eq!(size_arg(64 << 20), "64MiB");
    assert_eq!(size_arg(1 << 30), "1GiB");
    assert_eq!(size_arg(128 << 30), "128GiB");
    assert_eq!(size_arg(2_000_000_000), "2GB");
    assert_eq!(size_arg(586_806_000_000), "586806MB");
    assert_eq!(size_arg(1000), "1000");
    // The note on a base preset: decimal GB, exact to the kilobyte.
    let size = knob(K::DatasetSize);
    assert_eq!(note_text(size, V::Whole(1_505_280_000)), "1.50528GB");
    assert_eq!(value_text(size, V::Whole(1_505_280_000)), "1505280000");
}

#[test]
fn a_change_is_the_flags_of_the_knobs_that_differ() {
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
    let settings = trained::changes(&from, &to);
    assert_eq!(
        settings.iter().map(|s| s.knob).collect::<Vec<_>>(),
        [K::OffloadOptimizer, K::OffloadParam]
    );
    assert_eq!(
        args(&settings),
        ["--offload-optimizer", "none", "--offload-param", "none"]
    );
    let w = crate::advisor::workload::presets::preset("generic").expect("built in");
    let fewer = crate::advisor::workload::Workload {
        num_workers: 3,
        batch_size: 96,
        ..w.clone()
    };
    assert_eq!(
        args(&loaded::changes(&w, &fewer)),
        ["--num-workers", "3", "--batch-size", "96"]
    );
    // A machine change: 16 GiB of /dev/shm is `--shm-size 16GiB`.
    let shm = machine_settings(&MachineChange {
        shm_bytes: Some(16 << 30),
        ..Default::default()
    });
    assert_eq!(args(&shm), ["--shm-size", "16GiB"]);
}

#[test]
fn a_range_error_names_the_field_and_the_bounds() {
    let (field, problem) = check_range(knob(K::NumWorkers), V::Whole(2000)).unwrap_err();
    assert_eq!(field, "num_workers");
    assert_eq!(
        problem,
        crate::profile::Problem::out_of_range(2000, 0, 1024)
    );
    let (field, _) = check_range(knob(K::ImageSize), V::Pair(640, 70_000)).unwrap_err();
    assert_eq!(field, "height");
    assert!(check_range(knob(K::GpuDemand), V::Float(0.0)).is_err());
    assert!(check_range(knob(K::GpuDemand), V::Float(1e7)).is_ok());
}

#[test]
fn the_docs_flag_table_is_the_rows() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/knobs.md");
    let want = docs_table();
    if std::env::var_os("RAMVRAM_BLESS").is_some() {
        std::fs::write(&path, &want).expect("docs/knobs.md written");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/knobs.md differs from the knob table; run `RAMVRAM_BLESS=1 cargo test --lib knobs`"
    );
}

/// The unit column of the docs' table.
fn unit(k: &Knob) -> String {
    match k.kind {
        Kind::U32 | Kind::U64 => "integer".into(),
        Kind::Count => "count (`7B`, `350M`)".into(),
        Kind::Size => "bytes with units (`2TB`, `64GiB`)".into(),
        Kind::Resolution => "`WIDTHxHEIGHT` pixels".into(),
        Kind::Choice(names) => names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", "),
        Kind::Bool => "`true`/`false` (alone: true)".into(),
        Kind::Switch => "switch".into(),
        Kind::Float => "decimal".into(),
        Kind::Share => "share (`0.01`, `1%`)".into(),
    }
}

/// The range column of the docs' table.
fn range(k: &Knob) -> String {
    let Some(r) = k.range else {
        return String::new();
    };
    let lo = if r.above_min {
        format!("> {}", r.min)
    } else {
        r.min.to_string()
    };
    format!("{lo} … {}", r.max)
}

/// The docs' flag table (`docs/knobs.md`): one Markdown table per plan, a row per knob, made
/// from the rows; a test keeps the file equal to it.
fn docs_table() -> String {
    let mut out = String::from(
        "# `advise` knobs\n\nGenerated from the knob table (`src/advisor/knobs/`); \
         `cargo test --lib knobs` fails when this file differs from the rows \
         (run it with `RAMVRAM_BLESS=1` to rewrite it). How to add a knob: \
         [extending.md](extending.md).\n",
    );
    for (plan, title) in [
        (Plan::Workload, "Workload simulator (data loading)"),
        (Plan::Model, "The model (training and inference)"),
        (Plan::Training, "Training-memory planner"),
        (Plan::Inference, "Inference memory"),
        (Plan::Machine, "The machine (what if)"),
    ] {
        out.push_str(&format!(
            "\n## {title}\n\n| flag | JSON field | unit | range | default | from |\n|---|---|---|---|---|---|\n"
        ));
        for k in all().filter(|k| k.plan == plan) {
            let fields = k
                .fields
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let default = k.default.map(|d| format!("`{d}`")).unwrap_or_default();
            out.push_str(&format!(
                "| `--{}` | {fields} | {} | {} | {default} | {} |\n",
                k.flag,
                unit(k),
                range(k),
                source(k.source)
            ));
        }
    }
    out
}

fn source(s: DefaultSource) -> &'static str {
    match s {
        DefaultSource::Preset => "the preset",
        DefaultSource::PyTorch => "PyTorch's default",
        DefaultSource::Machine => "the machine",
        DefaultSource::Derived => "other knobs",
        DefaultSource::Assumption => "an assumption (docs/model.md)",
        DefaultSource::DeepSpeed => "DeepSpeed's default",
        DefaultSource::Engine => "the engine's default",
        DefaultSource::Off => "off",
    }
}

#[test]
fn every_workload_and_machine_field_is_a_field_of_the_json() {
    let w = crate::advisor::workload::presets::preset("generic").expect("built in");
    let json = serde_json::to_value(&w).expect("a workload serialises");
    let c = MachineChange {
        shm_bytes: Some(1),
        wsl_memory_bytes: Some(1),
        ram_bytes: Some(1),
        swap_bytes: Some(1),
        memory_limit_bytes: Some(1),
        gpu_wired_limit_bytes: Some(1),
        page_file_bytes: Some(1),
        gtt_bytes: Some(1),
        numa_bind: Some(crate::advisor::whatif::NumaBind::Node(0)),
    };
    let machine = serde_json::to_value(c).expect("a change serialises");
    for k in all() {
        let json = match k.plan {
            Plan::Workload => &json,
            Plan::Machine => &machine,
            _ => continue,
        };
        for f in k.fields {
            assert!(json.get(f).is_some(), "--{}: no field {f}", k.flag);
        }
    }
}
