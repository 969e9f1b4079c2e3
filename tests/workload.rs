//! The workload simulator against hand calculations, the seed article's example and the
//! monotonicity a user expects.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use ramvram::advisor::workload::{
    BudgetItemId, DataFormat, MachineRates, StageId, Workload, presets, simulate,
};
use ramvram::profile::DiskKind;

const GIB: u64 = 1 << 30;

fn machine(ram_gib: u64, storage: DiskKind) -> MachineRates {
    let (read, latency) = ramvram::advisor::workload::typical_storage(storage);
    MachineRates {
        effective_ram_bytes: Some(ram_gib * GIB),
        physical_cores: Some(16),
        memory_bandwidth: Some(45e9),
        storage_kind: storage,
        storage_read: read,
        storage_latency: latency,
        // PCIe Gen4 x16: 16 × 1.969 GB/s.
        pcie_bytes_per_s: Some(16.0 * 1.969e9),
        gpus: 1,
    }
}

fn seed() -> Workload {
    presets::preset("seed-4k-medical").unwrap()
}

fn item(r: &ramvram::advisor::workload::WorkloadResult, id: BudgetItemId) -> u64 {
    r.memory_budget
        .items
        .iter()
        .find(|i| i.id == id)
        .map_or(0, |i| i.bytes)
}

#[test]
fn the_seeds_4k_example_by_hand() {
    let r = simulate(&seed(), &machine(32, DiskKind::Nvme));
    // Decode buffers, per decoding process: 2 decoded 4K images (3840·2160·3 bytes), 2 float32
    // full-resolution copies for heavy augmentation (3840·2160·3·4 bytes) and 2 collated batches
    // of 8 × 1024²·3·4 bytes; 8 workers.
    let per_worker = 2 * 24_883_200 + 2 * 99_532_800 + 2 * 8 * 12_582_912;
    assert_eq!(per_worker, 450_158_592);
    assert_eq!(item(&r, BudgetItemId::DecodeBuffers), 8 * per_worker);
    // Prefetched batches: 8 workers × prefetch 2 × 8 × 1024²·3·4 bytes.
    assert_eq!(
        item(&r, BudgetItemId::PrefetchedBatches),
        16 * 8 * 12_582_912
    );
    assert_eq!(r.shm_needed_bytes, 16 * 8 * 12_582_912);
    // The seed claims 15–20 GB of extra working set for 8 workers. Measured per-sample
    // decoding (docs/validation.md) puts it at about 7 GB: workers 8 × 96 MiB, index copies
    // 8 × 666,667 × 150 B, decode buffers, prefetched batches and 2 pinned batches.
    let extra: u64 = [
        BudgetItemId::Workers,
        BudgetItemId::WorkerIndexCopies,
        BudgetItemId::DecodeBuffers,
        BudgetItemId::PrefetchedBatches,
        BudgetItemId::PinnedStaging,
    ]
    .iter()
    .map(|id| item(&r, *id))
    .sum();
    let by_hand = 8 * 96 * (1 << 20)
        + 8 * 666_667 * 150
        + 8 * per_worker
        + 16 * 8 * 12_582_912
        + 2 * 8 * 12_582_912;
    assert_eq!(extra, by_hand);
    assert!((6.9e9..7.1e9).contains(&(extra as f64)), "{extra}");
    // Decode: 8 workers × 0.7 hand-off × 250 MP/s ÷ (8.2944 MP × heavy augmentation 3.0)
    // = 56.26 samples/s: enough for the seed's 40 samples/s, not for 80.
    let fast_gpu = Workload {
        gpu_demand_samples_per_s: 80.0,
        ..seed()
    };
    // Each 4K sample moves ~489 MB through memory: the file (3 MB), the decoded image written and
    // read (2 × 24.9 MB), two float copies written and read (4 × 99.5 MB) and the tensor three
    // times (3 × 12.6 MB). Half of 45 GB/s gives 46.1 samples/s: dual-channel DDR5 is the
    // narrowest stage at 80 samples/s.
    let r = simulate(&fast_gpu, &machine(32, DiskKind::Nvme));
    let touched = 2_999_998.0 + 2.0 * 24_883_200.0 + 4.0 * 99_532_800.0 + 3.0 * 12_582_912.0;
    let ram = r
        .pipeline
        .stages
        .iter()
        .find(|s| s.id == StageId::RamBandwidth)
        .unwrap()
        .samples_per_s
        .unwrap();
    assert!((ram / (22.5e9 / touched) - 1.0).abs() < 1e-6, "{ram}");
    assert_eq!(r.pipeline.bottleneck, Some(StageId::RamBandwidth));
    // With 8-channel server memory (300 GB/s) decoding is the narrowest stage.
    let server = MachineRates {
        memory_bandwidth: Some(300e9),
        ..machine(32, DiskKind::Nvme)
    };
    let r = simulate(&fast_gpu, &server);
    let decode = r
        .pipeline
        .stages
        .iter()
        .find(|s| s.id == StageId::Decode)
        .unwrap()
        .samples_per_s
        .unwrap();
    assert!((decode - 8.0 * 0.7 * 250e6 / (8_294_400.0 * 3.0)).abs() < 1e-6);
    assert_eq!(r.pipeline.bottleneck, Some(StageId::Decode));
    let util = r.pipeline.predicted_gpu_utilization.unwrap();
    assert!((util - decode / 80.0).abs() < 1e-9);
    // n × 7.03 samples/s ≥ 80 first at n = 12 (84.4; 11 gives 77.4), within 16 cores.
    assert_eq!(r.pipeline.recommended_num_workers, Some(12));
    assert_eq!(
        simulate(&seed(), &machine(32, DiskKind::Nvme))
            .pipeline
            .bottleneck,
        None
    );
}

#[test]
fn the_bottleneck_moves_from_decode_to_storage_when_the_dataset_outgrows_the_page_cache() {
    // Light augmentation: decoding reaches 8 × 0.7 × 250 MP/s ÷ (8.29 MP × 1.5) = 112.5
    // samples/s, below a demand of 150 and more than a hard disk delivers 3 MB files.
    let m = machine(32, DiskKind::Hdd);
    let light = Workload {
        augmentation: ramvram::advisor::workload::Augmentation::Light,
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
    // About 21 GB of page cache for a 2 TB dataset.
    assert!(big.memory_budget.dataset_cached_fraction < 0.02);
    assert_eq!(big.pipeline.bottleneck, Some(StageId::StorageRead));
    // One 3 MB file per 8 ms seek + 3 MB at 180 MB/s on a hard disk: 40 files/s, over the
    // uncached share.
    let storage = big.pipeline.stages[0].samples_per_s.unwrap();
    let file = (2_000_000_000_000u64 / 666_667) as f64; // average file: 2,999,998 bytes
    let per_file = 8e-3 + file / 0.18e9;
    assert!(
        (storage - (1.0 / per_file) / (1.0 - big.memory_budget.dataset_cached_fraction)).abs()
            < 1e-6
    );
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
    // 16 workers: 5 GiB + 16 × (96 MiB + 0.1 GB index + 450 MB decode + 201 MB prefetched)
    // + 0.2 GB pinned ≈ 19.4 GB > 16 GiB (17.2 GB).
    assert!(crossed, "16 workers at 4K exceed 16 GiB");
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
        format: DataFormat::Files,
        ..seed()
    };
    let r = simulate(&w, &machine(32, DiskKind::Network));
    let json = serde_json::to_string(&r).unwrap();
    assert!(
        !json.contains("NaN")
            && !json.contains("inf")
            && !json.contains("null,\"bottleneck\":null"),
        "{json}"
    );
    for s in &r.pipeline.stages {
        if let Some(v) = s.samples_per_s {
            assert!(v.is_finite() && v > 0.0, "{s:?}");
        }
    }
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
            "80",
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
    assert_eq!(b["effective_ram_bytes"].as_u64(), Some(32 * GIB));
    assert!(
        b["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["id"] == "decode-buffers")
    );
    assert!(b["headroom_bytes"].is_i64());
    let p = &v["pipeline"];
    assert_eq!(p["bottleneck"], "decode");
    assert!(p["predicted_gpu_utilization"].as_f64().unwrap() < 1.0);
    // The fixture has 16 physical cores: 12 workers × 7.03 samples/s ≥ 80, as by hand above.
    assert_eq!(p["recommended_num_workers"].as_u64(), Some(12));
    assert_eq!(p["stages"].as_array().unwrap().len(), 5);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["id"] == "starved-by-decode")
    );
}

#[test]
fn bad_workload_flags_exit_2() {
    for flags in [
        ["--dataset-size", "-2TB"],
        ["--batch-size", "0"],
        ["--image-size", "4k"],
        ["--gpu-demand", "-1"],
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
