//! The workload simulator against hand calculations, the seed article's example and the
//! monotonicity a user expects.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use ramvram::advisor::workload::{
    Augmentation, BudgetItemId, MachineRates, StageId, Workload, WorkloadResult, presets, simulate,
    typical_storage,
};
use ramvram::profile::DiskKind;

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

fn machine(ram_gib: u64, storage: DiskKind) -> MachineRates {
    let (read, latency) = typical_storage(storage);
    MachineRates {
        usable_ram_bytes: Some(ram_gib * GIB),
        physical_cores: Some(16),
        memory_bandwidth: Some(45e9),
        storage_kind: storage,
        storage_read: read,
        storage_latency: latency,
        // PCIe Gen4 x16: 16 × 1.969 GB/s.
        pcie_bytes_per_s: Some(16.0 * 1.969e9),
        gpus: 1,
        ..MachineRates::default()
    }
}

fn seed() -> Workload {
    presets::preset("seed-4k-medical").unwrap()
}

fn item(r: &WorkloadResult, id: BudgetItemId) -> u64 {
    r.memory_budget.item(id)
}

fn rate(r: &WorkloadResult, id: StageId) -> f64 {
    r.pipeline.rate(id).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn the_seeds_4k_example_by_hand() {
    let r = simulate(&seed(), &machine(32, DiskKind::Nvme));
    // One 4K sample on one core: decode 8,294,400 px at 250 MP/s = 33.18 ms; RandomResizedCrop
    // resamples at 0.4 ns per stored pixel = 3.32 ms; the ops after the crop take 10.4 ms at
    // 224² and scale with the crop's pixels: × (1024/224)² = 217.34 ms. 253.83 ms in all.
    let per_sample =
        8_294_400.0 / 250e6 + 0.4e-9 * 8_294_400.0 + 10.4e-3 * (1024.0f64 / 224.0).powi(2);
    assert!((per_sample - 0.253_834).abs() < 1e-6, "{per_sample}");
    // 8 workers on 16 cores hand over 0.7 of that: 22.1 samples/s, below the preset's 40.
    let decode = 8.0 * 0.7 / per_sample;
    assert!(close(rate(&r, StageId::Decode), decode));
    assert_eq!(r.pipeline.bottleneck, Some(StageId::Decode));
    assert!(close(
        r.pipeline.predicted_gpu_utilization.unwrap(),
        decode / 40.0
    ));
    // The loop waits for data, so no batch waits in the queue: /dev/shm holds the batch in
    // transit (pin_memory moves the one being used into pinned memory). A batch is
    // 8 × 1024² × 3 × 4 = 100,663,296 bytes.
    let batch = 8 * 12_582_912;
    assert_eq!(r.memory_budget.queued_batches, 0);
    assert_eq!(item(&r, BudgetItemId::PrefetchedBatches), batch);
    // Pinned through PyTorch's caching host allocator: a power-of-two block, 2^27 bytes.
    let pinned = 134_217_728;
    assert_eq!(item(&r, BudgetItemId::PinnedStaging), pinned);
    // Decode buffers per decoding process: the decoded 4K image and a resampling intermediate
    // (2 × 3840 × 2160 × 3) and two batches (collating, collated); 8 workers.
    let per_worker = 2 * 24_883_200 + 2 * batch;
    assert_eq!(item(&r, BudgetItemId::DecodeBuffers), 8 * per_worker);
    // Workers 8 × 90 MiB; the index, 190 bytes × 666,667 samples, copied into each of 8.
    assert_eq!(item(&r, BudgetItemId::Workers), 8 * 90 * MIB);
    assert_eq!(item(&r, BudgetItemId::WorkerIndexCopies), 8 * 666_667 * 190);
    assert_eq!(item(&r, BudgetItemId::LoaderMain), 40 * MIB);
    // The seed claims 15–20 GB of extra working set for 8 workers; per-sample decoding, as
    // the DataLoader benchmark measured it, gives about 4 GB.
    let extra: u64 = [
        BudgetItemId::LoaderMain,
        BudgetItemId::Workers,
        BudgetItemId::WorkerIndexCopies,
        BudgetItemId::DecodeBuffers,
        BudgetItemId::PrefetchedBatches,
        BudgetItemId::PinnedStaging,
    ]
    .iter()
    .map(|id| item(&r, *id))
    .sum();
    let by_hand = 40 * MIB + 8 * 90 * MIB + 8 * 666_667 * 190 + 8 * per_worker + batch + pinned;
    assert_eq!(extra, by_hand);
    assert!((3.9e9..4.1e9).contains(&(extra as f64)), "{extra}");
    // /dev/shm is sized for the full queue all the same: 8 × 2 batches.
    assert_eq!(r.shm_needed_bytes, 16 * batch);
}

#[test]
fn memory_bandwidth_then_decode_as_the_narrowest_stage() {
    // Light augmentation at 4K: 33.18 ms decode + 3.0 ns × 8,294,400 px (24.88 ms) + 0.5 ms ×
    // (1024/224)² (10.45 ms) = 68.51 ms per sample; 8 workers × 0.7 → 81.7 samples/s.
    let light = Workload {
        augmentation: Augmentation::Light,
        gpu_demand_samples_per_s: 200.0,
        ..seed()
    };
    let per_sample =
        8_294_400.0 / 250e6 + 3.0e-9 * 8_294_400.0 + 0.5e-3 * (1024.0f64 / 224.0).powi(2);
    // Each sample moves its file (2,999,998 bytes), the decoded image written and read
    // (2 × 24,883,200) and the tensor three times (3 × 12,582,912): 90,515,134 bytes. Half of
    // 45 GB/s carries 248.6 samples/s.
    let touched = 2_999_998.0 + 2.0 * 24_883_200.0 + 3.0 * 12_582_912.0;
    let r = simulate(&light, &machine(32, DiskKind::Nvme));
    assert!(close(rate(&r, StageId::Decode), 8.0 * 0.7 / per_sample));
    assert!(close(rate(&r, StageId::RamBandwidth), 22.5e9 / touched));
    assert_eq!(r.pipeline.bottleneck, Some(StageId::Decode));
    // Single-channel DDR4 (25.6 GB/s): 12.8e9 ÷ 90.5 MB = 141 samples/s, still above decode;
    // at 10 GB/s (an old laptop) RAM is the narrowest: 55.2 samples/s.
    let slow = MachineRates {
        memory_bandwidth: Some(10e9),
        ..machine(32, DiskKind::Nvme)
    };
    let r = simulate(&light, &slow);
    assert!(close(rate(&r, StageId::RamBandwidth), 5e9 / touched));
    assert_eq!(r.pipeline.bottleneck, Some(StageId::RamBandwidth));
}

#[test]
fn the_bottleneck_moves_from_decode_to_storage_when_the_dataset_outgrows_the_page_cache() {
    let m = machine(32, DiskKind::Hdd);
    let light = Workload {
        augmentation: Augmentation::Light,
        gpu_demand_samples_per_s: 150.0,
        ..seed()
    };
    let small = Workload {
        dataset_bytes: 5_000_000_000,
        samples: 1_667,
        ..light.clone()
    };
    let r = simulate(&small, &m);
    assert_eq!(r.memory_budget.dataset_cached_fraction, 1.0);
    assert_eq!(r.pipeline.bottleneck, Some(StageId::Decode));
    let big = simulate(&light, &m);
    // About 22 GB of page cache for a 2 TB dataset.
    assert!(big.memory_budget.dataset_cached_fraction < 0.02);
    assert_eq!(big.pipeline.bottleneck, Some(StageId::StorageRead));
    // One 3 MB file per 8 ms seek + 3 MB at 180 MB/s on a hard disk: 40 files/s, over the
    // uncached share.
    let storage = rate(&big, StageId::StorageRead);
    let file = (2_000_000_000_000u64 / 666_667) as f64; // average file: 2,999,998 bytes
    let per_file = 8e-3 + file / 0.18e9;
    assert!(
        (storage - (1.0 / per_file) / (1.0 - big.memory_budget.dataset_cached_fraction)).abs()
            < 1e-6
    );
}

#[test]
fn the_queue_fills_when_the_gpu_is_slower_and_pinned_memory_grows_with_prefetch() {
    // ImageNet on 16 cores: decoding is far faster than a GPU that takes 10 samples/s, so
    // every worker's prefetch slots fill: 8 × prefetch batches wait, pinned by the pin thread,
    // plus the batch the training step holds. A batch: 256 × 224² × 3 × 4 = 154,140,672 bytes.
    let batch = 256 * 602_112;
    for prefetch in [2u32, 4, 6] {
        let w = Workload {
            gpu_demand_samples_per_s: 10.0,
            prefetch_factor: prefetch,
            ..presets::preset("imagenet-resnet50").unwrap()
        };
        let r = simulate(&w, &machine(256, DiskKind::Nvme));
        assert_eq!(r.pipeline.bottleneck, None);
        let queued = 8 * u64::from(prefetch);
        assert_eq!(r.memory_budget.queued_batches, queued);
        // Each pinned batch takes a power-of-two block of PyTorch's caching host allocator:
        // 2^28 = 268,435,456 bytes for 154,140,672.
        assert_eq!(
            item(&r, BudgetItemId::PinnedStaging),
            (queued + 1) * 268_435_456
        );
        // Only the batch in transit from a worker to the pin thread stays in /dev/shm.
        assert_eq!(item(&r, BudgetItemId::PrefetchedBatches), batch);
        // Without pin_memory the same batches wait in /dev/shm.
        let unpinned = simulate(
            &Workload {
                pin_memory: false,
                ..w
            },
            &machine(256, DiskKind::Nvme),
        );
        assert_eq!(
            item(&unpinned, BudgetItemId::PrefetchedBatches),
            (queued + 1) * batch
        );
        assert_eq!(item(&unpinned, BudgetItemId::PinnedStaging), 0);
    }
}

#[test]
fn more_workers_cross_the_ram_line() {
    let m = machine(16, DiskKind::Nvme);
    let mut last = 0;
    let mut crossed = false;
    for workers in [0, 2, 4, 8, 12, 16, 24] {
        let r = simulate(
            &Workload {
                num_workers: workers,
                ..seed()
            },
            &m,
        );
        let worker_memory = item(&r, BudgetItemId::Workers) + item(&r, BudgetItemId::DecodeBuffers);
        assert!(
            worker_memory >= last,
            "more workers never lower worker memory"
        );
        last = worker_memory;
        crossed |= r.memory_budget.headroom_bytes.unwrap() < 0;
    }
    // 24 workers: 5 GiB + 24 × (90 MiB + 0.13 GB index + 251 MB decode) + 0.2 GB ≈ 19.3 GB
    // > 16 GiB (17.2 GB).
    assert!(crossed, "24 workers at 4K exceed 16 GiB");
}

#[test]
fn more_ram_never_worsens_and_bigger_datasets_never_fit_better() {
    let mut last_util = 0.0;
    for ram in [16, 32, 64, 128, 256, 512, 1024, 4096] {
        let r = simulate(&seed(), &machine(ram, DiskKind::Hdd));
        let u = r.pipeline.predicted_gpu_utilization.unwrap();
        assert!(u >= last_util - 1e-12, "{ram} GiB: {u} < {last_util}");
        last_util = u;
    }
    let mut last_fit = f64::INFINITY;
    for tb in [0.01, 0.1, 1.0, 10.0, 100.0] {
        let w = Workload {
            dataset_bytes: (tb * 1e12) as u64,
            ..seed()
        };
        let f = simulate(&w, &machine(64, DiskKind::Nvme))
            .memory_budget
            .dataset_cached_fraction;
        assert!(f <= last_fit);
        last_fit = f;
    }
}

#[test]
fn absurd_values_clamp_without_nan() {
    let w = Workload {
        dataset_bytes: u64::MAX,
        samples: 0,
        batch_size: 0,
        num_workers: 0,
        prefetch_factor: 0,
        width: 0,
        height: 0,
        sample_bytes: Some(0),
        gpu_demand_samples_per_s: f64::NAN,
        concurrent_experiments: 0,
        cache_width: u32::MAX,
        index_bytes_per_sample: Some(u64::MAX),
        ..seed()
    };
    let r = simulate(&w, &machine(32, DiskKind::Network));
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains("NaN") && !json.contains("inf"), "{json}");
    for s in &r.pipeline.stages {
        if let Some(v) = s.samples_per_s {
            assert!(v.is_finite() && v > 0.0, "{s:?}");
        }
    }
}

#[test]
fn the_default_decode_rate_is_marked_with_the_range_it_spans() {
    // The seed preset decodes at the default 250 MP/s: 22.1 samples/s of 40 (55.2 %). At
    // 125 MP/s a sample takes 66.36 + 3.32 + 217.34 = 287.0 ms (19.5 samples/s, 48.8 %); at
    // 500 MP/s 16.59 + 3.32 + 217.34 = 237.2 ms (23.6 samples/s, 59.0 %).
    let r = simulate(&seed(), &machine(32, DiskKind::Nvme));
    let d = r.pipeline.decode.unwrap();
    assert_eq!(d.mpix_per_core, 250.0);
    assert_eq!(d.source, ramvram::profile::Provenance::Default);
    let crop = 10.4e-3 * (1024.0f64 / 224.0).powi(2) + 0.4e-9 * 8_294_400.0;
    let util = |mpix: f64| 8.0 * 0.7 / (8_294_400.0 / (mpix * 1e6) + crop) / 40.0;
    assert!(close(d.utilization_at_half.unwrap(), util(125.0)));
    assert!(close(d.utilization_at_double.unwrap(), util(500.0)));
    // A measured rate is not an assumption: no range.
    let measured = Workload {
        measured_decode_mpix_per_core: Some(180.0),
        ..seed()
    };
    let d = simulate(&measured, &machine(32, DiskKind::Nvme))
        .pipeline
        .decode
        .unwrap();
    assert_eq!(d.utilization_at_half, None);
}

#[test]
fn advise_json_with_flags_has_budget_and_pipeline() {
    let out = Command::cargo_bin("ramvram")
        .unwrap()
        .args(["advise", "--json", "--profile"])
        .arg(common::fixture_path("seed-4090-32g"))
        .args([
            "--dataset-size",
            "2TB",
            "--samples",
            "666667",
            "--image-size",
            "3840x2160",
            "--crop",
            "1024",
        ])
        .args(["--num-workers", "8"])
        .args([
            "--batch-size",
            "8",
            "--prefetch-factor",
            "2",
            "--pin-memory",
            "--augmentation",
            "heavy",
            "--gpu-demand",
            "40",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let b = &v["memory_budget"];
    assert_eq!(b["usable_ram_bytes"].as_u64(), Some(32 * GIB));
    // A file written before the rename reads back: the old name is an alias.
    let mut old = b.clone();
    let usable = old
        .as_object_mut()
        .unwrap()
        .remove("usable_ram_bytes")
        .unwrap();
    old["effective_ram_bytes"] = usable;
    let read: ramvram::advisor::workload::MemoryBudget = serde_json::from_value(old).unwrap();
    assert_eq!(read.usable_ram_bytes, Some(32 * GIB));
    assert!(
        b["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["id"] == "decode-buffers")
    );
    assert!(v.get("pipeline").is_none(), "one pipeline, under bandwidth");
    let p = &v["bandwidth"]["pipeline"];
    assert_eq!(p["narrowest_stage"], "decode");
    assert_eq!(p["starves_gpus"], true);
    // 8 × 0.7 ÷ 253.8 ms = 22.06 samples/s of 40. Each worker adds 2.758 samples/s: 14 make
    // 38.6, 15 make 41.4 (the fixture has 16 physical cores, and 15 workers fit 32 GiB).
    assert!((p["predicted_gpu_utilization"].as_f64().unwrap() - 22.062 / 40.0).abs() < 1e-3);
    assert_eq!(p["recommended_num_workers"].as_u64(), Some(15));
    assert_eq!(p["stages"].as_array().unwrap().len(), 5);
    let finding = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "starved-by-decode")
        .expect("starved by decode");
    assert_eq!(finding["values"]["workers"]["value"], 15);
    let recs = v["recommendations"].as_array().unwrap();
    let more = recs
        .iter()
        .find(|r| r["id"] == "increase-num-workers")
        .expect("more workers");
    assert_eq!(more["changes"]["num_workers"]["value"], 15);
    assert_eq!(more["result"]["fits"], true);
}

/// The assessment carries the scenario it was computed from, and that scenario is a scenario
/// file: given back with `--scenario`, it gives the same assessment as the flags did.
#[test]
fn the_assessments_scenario_is_a_scenario_file_that_gives_the_same_answer() {
    let profile = common::fixture_path("seed-4090-32g");
    let flags = [
        "--workload",
        "imagenet-resnet50",
        "--num-workers",
        "3",
        "--gpu-demand",
        "900",
        "--preset",
        "llama2-7b",
    ];
    let by_flags = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(&profile)
            .args(flags),
    );
    let scenario = &by_flags["scenario"];
    assert_eq!(scenario["workload"]["num_workers"], 3);
    assert_eq!(scenario["workload"]["gpu_demand_samples_per_s"], 900.0);
    assert!(scenario["training"]["params"].as_u64().unwrap() > 6_000_000_000);
    assert_eq!(scenario["inference"], serde_json::Value::Null);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scenario.json");
    std::fs::write(&file, serde_json::to_string_pretty(scenario).unwrap()).unwrap();
    let by_file = common::json_of(
        common::ramvram()
            .args(["advise", "--json", "--profile"])
            .arg(&profile)
            .arg("--scenario")
            .arg(&file),
    );
    assert_eq!(by_file, by_flags);
}

#[test]
fn bad_workload_flags_exit_2() {
    for flags in [
        ["--dataset-size", "-2TB"],
        ["--batch-size", "0"],
        ["--image-size", "4k"],
        ["--gpu-demand", "-1"],
        ["--cache-size", "640"],
    ] {
        let mut cmd = Command::cargo_bin("ramvram").unwrap();
        cmd.args(["advise", "--profile"])
            .arg(common::fixture_path("seed-4090-32g"))
            .args(["--workload", "seed-4k-medical"]);
        let arg = format!("{}={}", flags[0], flags[1]);
        cmd.arg(arg)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(flags[0]));
    }
}
