//! The cases issue 12 says must come out right, and the advice the simulator computes: a RAM
//! cache of decoded images, /dev/shm in a Docker container, flags without a preset, the dataset
//! index copied into workers, num_workers advice that fits, and the dataset size checked
//! against its images.

mod common;

use common::{GIB, fixture, fixture_path};
use ramvram::advisor::recommend::{AdviceId as R, RecKind};
use ramvram::advisor::workload::{
    BudgetItemId, CacheMode, CacheScope, Dtype, MachineRates, Workload, levers, presets, simulate,
};
use ramvram::advisor::{AdviceId, FindingId, Quantity, Scenario, Severity, assess};
use ramvram::profile::DiskKind;

/// COCO train2017 for a YOLO-style trainer: 118,287 images (19.3 GB of JPEGs), letterboxed to
/// 640 and cached decoded at 640 × 480 × 3 uint8 in RAM, 8 workers, batches of 16.
fn coco_cached() -> Workload {
    Workload {
        preset: None,
        dataset_bytes: 19_300_000_000,
        samples: 118_287,
        width: 640,
        height: 480,
        crop: 640,
        dtype: Dtype::U8,
        batch_size: 16,
        num_workers: 8,
        gpu_demand_samples_per_s: 100.0,
        cache: CacheMode::DecodedInRam,
        cache_width: 640,
        cache_height: 480,
        cache_dtype: Dtype::U8,
        cache_scope: CacheScope::Shared,
        ..presets::preset(presets::GENERIC).unwrap()
    }
}

/// A 32 GB machine with one 32 GB V100.
fn v100_32g() -> ramvram::profile::MachineProfile {
    let mut p = fixture("student-3080-32g");
    p.gpus[0].name = Some("Tesla V100-SXM2-32GB".into());
    p.gpus[0].vram_total_bytes = Some(32 * GIB);
    p
}

#[test]
fn a_decoded_coco_cache_does_not_fit_32_gb_and_the_advice_is_disk_or_no_cache() {
    let a = assess(
        &v100_32g(),
        &Scenario {
            workload: Some(coco_cached()),
            ..Scenario::NONE
        },
    );
    let w = a.workload.as_ref().unwrap();
    // 118,287 × 640 × 480 × 3 bytes = 109,013,299,200: about 109 GB of cache.
    let cache = 118_287u64 * 640 * 480 * 3;
    assert_eq!(cache, 109_013_299_200);
    assert_eq!(w.memory_budget.item(BudgetItemId::DecodedCache), cache);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::CacheDoesNotFit)
        .expect("cache does not fit");
    assert_eq!(f.severity, Severity::Critical);
    assert_eq!(f.values["cache"], Quantity::Bytes(cache));
    assert!(
        a.findings
            .iter()
            .all(|f| f.id != FindingId::WorkloadRamExceeded),
        "one finding for one cause"
    );
    // The first two ranked changes: cache on disk, or don't cache — both settings that fit.
    let ids: Vec<R> = a.recommendations.iter().map(|r| r.id).collect();
    assert_eq!(&ids[..2], &[R::CacheOnDisk, R::NoCache], "{ids:?}");
    for r in &a.recommendations[..2] {
        assert_eq!(r.kind, RecKind::Setting);
        assert_eq!(r.result.fits, Some(true));
        assert!(r.result.working_set_bytes.unwrap() < 32 * GIB);
    }
    // A smaller cache: both sides × √(room ÷ cache), rounded down to multiples of 32, where
    // the room leaves 10 % of RAM free (no swap-risk warning after the change).
    let smaller = a
        .recommendations
        .iter()
        .find(|r| r.id == R::SmallerCacheImages)
        .expect("smaller cache");
    let Quantity::Pixels { width, height } = smaller.changes["cache_size"] else {
        panic!("{smaller:?}")
    };
    let others = w.memory_budget.working_set_bytes - cache;
    let room = (0.9 * (32 * GIB) as f64) as u64 - others;
    let scale = (room as f64 / cache as f64).sqrt();
    let side = |s: f64| ((s * scale) as u32 / 32) * 32;
    assert_eq!((width, height), (side(640.0), side(480.0)));
    assert_eq!(smaller.result.fits, Some(true));
    // RAM as the last lever: installed RAM whose usable part holds the working set.
    let add = a
        .recommendations
        .iter()
        .find(|r| r.id == R::AddRam)
        .expect("add RAM");
    let Quantity::Bytes(ram) = add.changes["ram_bytes"] else {
        panic!()
    };
    assert!(
        ram >= w.memory_budget.working_set_bytes && ram == 128 * GIB,
        "{ram}"
    );
}

#[test]
fn docker_shm_need_names_the_workers_and_batch_and_sizes_the_flag_from_it() {
    let out = common::ramvram()
        .args(["advise", "--json", "--profile"])
        .arg(fixture_path("docker-4090-limit32g-shm64m"))
        .args([
            "--num-workers",
            "4",
            "--prefetch-factor",
            "2",
            "--batch-size",
            "256",
        ])
        .args(["--image-size", "224x224", "--crop", "224", "--dtype", "u8"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // 4 workers × prefetch 2 × 256 samples × 224 × 224 × 3 bytes.
    let need = 4 * 2 * 256 * 224 * 224 * 3;
    assert_eq!(need, 308_281_344);
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "shm-small")
        .expect("shm finding");
    assert_eq!(f["values"]["needed"]["value"], need);
    assert_eq!(f["values"]["workers"]["value"], 4);
    assert_eq!(f["values"]["batch"]["value"], 256);
    assert_eq!(f["values"]["sample"]["value"], 224 * 224 * 3);
    // Twice the need (616,562,688 bytes) rounded up to a whole GiB: 1 GiB, `--shm-size=1g`.
    let recommended = f["values"]["recommended"]["value"].as_u64().unwrap();
    assert!(recommended >= need && recommended == GIB);
    assert_eq!(f["values"]["shm_flag"]["value"], "1g");
    let rec = v["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "grow-shm")
        .expect("ranked shm advice");
    assert_eq!(rec["changes"]["shm_flag"]["value"], "1g");
    // In words, in both languages.
    let text = common::ramvram()
        .args(["advise", "--profile"])
        .arg(fixture_path("docker-4090-limit32g-shm64m"))
        .args([
            "--num-workers",
            "4",
            "--batch-size",
            "256",
            "--image-size",
            "224x224",
        ])
        .args(["--dtype", "u8"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout)
        .unwrap()
        .replace("\n      ", " ");
    assert!(
        text.contains(
            "4 workers × prefetch_factor 2 × batches of 256 samples × 147\u{a0}KiB per sample"
        ),
        "{text}"
    );
    assert!(text.contains("docker run --shm-size=1g"), "{text}");
}

#[test]
fn dataloader_flags_alone_simulate_from_the_generic_base_and_say_what_they_took() {
    let out = common::ramvram()
        .args(["advise", "--json", "--profile"])
        .arg(fixture_path("seed-4090-32g"))
        .args([
            "--num-workers",
            "4",
            "--batch-size",
            "256",
            "--image-size",
            "224x224",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let w = &v["workload"];
    assert_eq!(w["preset"], "generic");
    assert_eq!(
        (
            w["num_workers"].as_u64(),
            w["batch_size"].as_u64(),
            w["width"].as_u64()
        ),
        (Some(4), Some(256), Some(224))
    );
    // The base's 100,000 files of 0.3 byte per pixel, at 224 × 224: 15,052.8 bytes each.
    assert_eq!(w["dataset_bytes"].as_u64(), Some(1_505_280_000));
    assert!(v["memory_budget"]["working_set_bytes"].as_u64().unwrap() > 0);
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(
        note.contains("starting from the preset “generic”"),
        "{note}"
    );
    assert!(note.contains("--samples 100000"), "{note}");
    // 1,505,280,000 bytes as the flag takes them.
    assert!(note.contains("--dataset-size 1.50528GB"), "{note}");
    for given in ["num-workers", "batch-size", "image-size"] {
        assert!(!note.contains(given), "{given} came from the flags: {note}");
    }
}

/// Flags PyTorch itself refuses (`prefetch_factor` with `num_workers=0`) are errors; a flag
/// that merely can't change the result is a note naming it, and the assessment runs.
#[test]
fn a_flag_that_cannot_change_the_result_is_a_note_unless_pytorch_refuses_it() {
    common::ramvram()
        .args(["advise", "--profile"])
        .arg(fixture_path("seed-4090-32g"))
        .args(["--num-workers", "0", "--prefetch-factor", "4"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--prefetch-factor"))
        .stderr(predicates::str::contains("num_workers is 0"));
    // A cache size without a decoded-image cache.
    common::ramvram()
        .args(["advise", "--lang", "en", "--profile"])
        .arg(fixture_path("seed-4090-32g"))
        .args(["--cache-size", "640x480"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "--cache-size doesn't change the result here",
        ));
}

#[test]
fn the_index_copied_into_every_worker_is_a_finding_with_its_growth_and_the_array_fix() {
    // ImageNet's 1,281,167 samples × 190 bytes, in each of 8 workers, on 16 GiB.
    let a = assess(
        &fixture("aws-g5.xlarge"),
        &Scenario {
            workload: presets::preset("imagenet-resnet50"),
            ..Scenario::NONE
        },
    );
    let per_worker = 1_281_167u64 * 190;
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::DatasetIndexCopied)
        .expect("index copies");
    assert_eq!(f.values["per_worker"], Quantity::Bytes(per_worker));
    assert_eq!(f.values["total"], Quantity::Bytes(8 * per_worker));
    assert_eq!(f.values["workers"], Quantity::Count(8));
    assert_eq!(f.recommendations, vec![AdviceId::IndexAsArrays]);
    let arrays = a
        .recommendations
        .iter()
        .find(|r| r.id == R::IndexAsArrays)
        .expect("index as arrays");
    let before = a.workload.as_ref().unwrap().memory_budget.working_set_bytes;
    assert_eq!(
        arrays.result.working_set_bytes,
        Some(before - 8 * per_worker)
    );
    // The bytes per sample are an input: 60 bytes (short relative paths) makes the copies
    // 60 / 190 as large.
    let short = Workload {
        index_bytes_per_sample: Some(60),
        ..presets::preset("imagenet-resnet50").unwrap()
    };
    let r = simulate(&short, &MachineRates::default());
    assert_eq!(
        r.memory_budget.item(BudgetItemId::WorkerIndexCopies),
        8 * 1_281_167 * 60
    );
}

fn machine(ram_gib: u64) -> MachineRates {
    MachineRates {
        usable_ram_bytes: Some(ram_gib * GIB),
        physical_cores: Some(16),
        memory_bandwidth: Some(45e9),
        storage_kind: DiskKind::Nvme,
        storage_read: 3e9,
        storage_latency: 1e-4,
        pcie_bytes_per_s: Some(31.5e9),
        gpus: 1,
        ..MachineRates::default()
    }
}

#[test]
fn num_workers_advice_is_a_count_that_fits_and_when_none_fits_the_other_levers_are_ranked() {
    // The seed's 4K job on 8 GiB: 8 workers don't fit. Per worker: 90 MiB + the index
    // (666,667 × 190 bytes) + decode buffers (2 × 24,883,200 + 2 × 100,663,296 bytes); the
    // rest is 5 GiB + 40 MiB + the batch in /dev/shm and the pinned one (a 2^27-byte block of
    // PyTorch's caching host allocator).
    let seed = presets::preset("seed-4k-medical").unwrap();
    let m = machine(8);
    let r = simulate(&seed, &m);
    assert!(r.memory_budget.headroom_bytes.unwrap() < 0);
    let per_worker = (90u64 << 20) + 666_667 * 190 + 2 * 24_883_200 + 2 * 100_663_296;
    let fixed = (5u64 << 30) + (40 << 20) + 100_663_296 + (1 << 27);
    // A count fits when it leaves the RAM margin free: 1 GiB here (5 % of 8 GiB is less).
    let most = (8 * GIB - GIB - fixed) / per_worker;
    assert_eq!(most, 3);
    assert_eq!(r.pipeline.recommended_num_workers, Some(3));
    let recs = levers::recommendations(&r, &m, None, &|_| None);
    let fewer = recs.iter().find(|x| x.id == R::ReduceNumWorkers).unwrap();
    assert_eq!(fewer.changes["num_workers"], Quantity::Count(3));
    assert_eq!(fewer.apply, ["--num-workers", "3"]);
    assert_eq!(fewer.result.fits, Some(true));
    // On 5 GiB not even 0 workers fit (the OS and the training process take 5 GiB): no count
    // is recommended, the finding says so, and batch, prefetch, the index and RAM are listed
    // with their numbers.
    let tiny = machine(5);
    let r = simulate(&seed, &tiny);
    assert_eq!(r.pipeline.recommended_num_workers, None);
    let recs = levers::recommendations(&r, &tiny, None, &|_| None);
    let ids: Vec<R> = recs.iter().map(|x| x.id).collect();
    for id in [R::ReducePrefetchFactor, R::ReduceBatchSize, R::AddRam] {
        assert!(ids.contains(&id), "{id:?} in {ids:?}");
    }
    assert!(!ids.contains(&R::ReduceNumWorkers));
    let batch = recs.iter().find(|x| x.id == R::ReduceBatchSize).unwrap();
    assert_eq!(batch.result.fits, Some(false));
    assert!(batch.result.working_set_bytes.unwrap() < r.memory_budget.working_set_bytes);
    let ram = ramvram::advisor::RamSizes {
        mem_total_bytes: Some(5 * GIB),
        limit_bytes: None,
        usable_bytes: Some(5 * GIB),
        limited_by_cgroup: false,
        installed_bytes: None,
        installed_provenance: None,
        installed_basis: None,
        sizing_bytes: Some(5 * GIB),
    };
    let f = ramvram::advisor::workload::findings(&r, &ram);
    let exceeded = f
        .iter()
        .find(|f| f.id == FindingId::WorkloadRamExceeded)
        .unwrap();
    assert_eq!(
        exceeded.recommendations,
        vec![AdviceId::NoWorkerCountFits, AdviceId::AddRam]
    );
}

#[test]
fn a_dataset_size_far_from_its_images_is_flagged_and_a_plausible_one_is_not() {
    let profile = fixture("seed-4090-32g");
    let with = |w: Workload| {
        assess(
            &profile,
            &Scenario {
                workload: Some(w),
                ..Scenario::NONE
            },
        )
    };
    let seed = presets::preset("seed-4k-medical").unwrap();
    // 2,000 GB over 666,667 4K JPEGs: 3 MB each, 0.36 byte per pixel.
    assert!(
        with(seed.clone())
            .findings
            .iter()
            .all(|f| f.id != FindingId::DatasetSizeInconsistent)
    );
    // 100,000 GB: 150 MB per 4K JPEG, 18 bytes per pixel.
    let a = with(Workload {
        dataset_bytes: 100_000_000_000_000,
        ..seed
    });
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::DatasetSizeInconsistent)
        .expect("inconsistent");
    assert_eq!(f.values["implied"], Quantity::Bytes(149_999_925));
    let Quantity::Number(per_pixel) = f.values["per_pixel"] else {
        panic!("{f:?}")
    };
    assert!((per_pixel - 18.084).abs() < 0.0005, "{per_pixel}");
    let words = ramvram::present::finding_explanation(ramvram::i18n::Lang::En, f);
    assert!(words.contains("18.084 bytes per pixel"), "{words}");
    assert_eq!(f.values["typical"], Quantity::Bytes(2_488_320));
}

/// Usable RAM of `gib` GiB, nothing else known.
fn ram_of(gib: u64) -> ramvram::advisor::RamSizes {
    ramvram::advisor::RamSizes {
        mem_total_bytes: Some(gib * GIB),
        limit_bytes: None,
        usable_bytes: Some(gib * GIB),
        limited_by_cgroup: false,
        installed_bytes: None,
        installed_provenance: None,
        installed_basis: None,
        sizing_bytes: Some(gib * GIB),
    }
}

#[test]
fn a_dataset_storage_serves_fast_enough_gets_no_ram_advice() {
    use ramvram::advisor::workload::StageId;
    // The tryout: the seed's 4K job on 32 GiB with the dataset on NVMe. 2,000 GB over 666,667
    // JPEGs is 3.0 MB a file; NVMe reads 3 GB/s, so even with no page cache at all storage
    // delivers 3e9 ÷ 3.0e6 = 1000 samples/s, 25 × the 40 the GPUs want. Caching the dataset
    // (2,000 GB) in RAM can't make training faster: no "add RAM", and the finding says so.
    let seed = presets::preset("seed-4k-medical").unwrap();
    let file = 2_000_000_000_000f64 / 666_667.0;
    let floor = 3e9 / file;
    assert!((floor - 1000.0).abs() < 1.0);
    let r = simulate(&seed, &machine(32));
    let storage = r.pipeline.rate(StageId::StorageRead).unwrap();
    assert!(storage >= floor, "{storage}");
    let f = ramvram::advisor::workload::findings(&r, &ram_of(32));
    let streams = f
        .iter()
        .find(|f| f.id == FindingId::DatasetStreamsFromStorage)
        .expect("the dataset streams fast enough");
    assert_eq!(streams.severity, Severity::Info);
    assert!(streams.recommendations.is_empty());
    assert_eq!(streams.values["demand"], Quantity::Rate(40.0));
    assert!(f.iter().all(|f| f.id != FindingId::DatasetNotCached));
    assert!(
        f.iter()
            .all(|f| !f.recommendations.contains(&AdviceId::AddRam))
    );
    // The whole assessment of the tryout's machine: nothing asks for RAM, and procurement says
    // nothing is to be bought for the workload (its working set, 8.7 GiB, fits in 32).
    let a = assess(
        &fixture("seed-4090-32g"),
        &Scenario {
            workload: Some(seed),
            ..Scenario::NONE
        },
    );
    assert!(
        a.findings
            .iter()
            .all(|f| !f.recommendations.contains(&AdviceId::AddRam))
    );
    assert!(a.recommendations.iter().all(|r| r.id != R::AddRam));
    assert_eq!(
        a.procurement.basis,
        ramvram::advisor::buying::procurement::Basis::WorkFits
    );
    assert_eq!(a.procurement.recommended_ram_bytes, None);
    assert_eq!(a.procurement.work[0].page_cache_bytes, None);
    let text =
        ramvram::cli::text::assessment(ramvram::i18n::Lang::En, &a, None).replace('\u{a0}', " ");
    assert!(
        text.contains("The dataset (1863 GiB) streams from storage fast enough"),
        "{text}"
    );
    assert!(!text.contains("Add RAM to at least 2048"), "{text}");
}

#[test]
fn ram_for_the_page_cache_is_advice_only_when_storage_is_too_slow() {
    use ramvram::advisor::workload::{StageId, typical_storage};
    // ImageNet from a hard disk: one request at a time, each 8 ms of seek plus the file at
    // 180 MB/s (the typical HDD). 1,281,167 files in the preset's dataset: about 110 KB each,
    // 8 ms + 0.6 ms = 8.6 ms, so the disk gives about 116 files/s, far below the 1200 the GPUs
    // want even with the page cache's share: storage limits them, and RAM to hold the dataset
    // is advice (a warning, after shards and a local NVMe copy).
    let (read, latency) = typical_storage(DiskKind::Hdd);
    assert_eq!((read, latency), (0.18e9, 8e-3));
    let inet = presets::preset("imagenet-resnet50").unwrap();
    let file = inet.dataset_bytes as f64 / inet.samples as f64;
    let disk = 1.0 / (latency + file / read);
    assert!(disk > 100.0 && disk < 130.0, "{disk}");
    let hdd = MachineRates {
        storage_kind: DiskKind::Hdd,
        storage_read: read,
        storage_latency: latency,
        ..machine(32)
    };
    let r = simulate(&inet, &hdd);
    assert_eq!(r.pipeline.bottleneck, Some(StageId::StorageRead));
    let f = ramvram::advisor::workload::findings(&r, &ram_of(32));
    let not_cached = f
        .iter()
        .find(|f| f.id == FindingId::DatasetNotCached)
        .unwrap();
    assert_eq!(not_cached.severity, Severity::Warning);
    assert_eq!(
        not_cached.recommendations,
        [
            AdviceId::PackShards,
            AdviceId::CopyToLocalNvme,
            AdviceId::AddRam
        ]
    );
    assert!(
        f.iter()
            .all(|f| f.id != FindingId::DatasetStreamsFromStorage)
    );
    // The seed's 4K job on a slow disk (20 ms a request): 20 ms + 3.0 MB ÷ 180 MB/s = 36.7 ms,
    // 27 files/s, below the 40 the GPUs want; decoding (22 samples/s with 8 workers) is
    // narrower still, so storage would limit the GPUs once decoding is fixed: information,
    // with the same advice.
    let slow = MachineRates {
        storage_latency: 0.02,
        ..hdd
    };
    let seed = presets::preset("seed-4k-medical").unwrap();
    let disk = 1.0 / (0.02 + (2_000_000_000_000f64 / 666_667.0) / read);
    assert!(disk > 27.0 && disk < 28.0, "{disk}");
    let r = simulate(&seed, &slow);
    assert_eq!(r.pipeline.bottleneck, Some(StageId::Decode));
    assert!(r.pipeline.rate(StageId::StorageRead).unwrap() < 40.0);
    let f = ramvram::advisor::workload::findings(&r, &ram_of(32));
    let not_cached = f
        .iter()
        .find(|f| f.id == FindingId::DatasetNotCached)
        .unwrap();
    assert_eq!(not_cached.severity, Severity::Info);
    assert!(not_cached.recommendations.contains(&AdviceId::AddRam));
}

#[test]
fn the_ram_lever_is_the_simulator_rerun_on_the_larger_machine() {
    // The seed's 4K job on 5 GiB doesn't fit. The lever's RAM is the installed size whose usable
    // part holds the working set, rounded up to a common size; its result is the simulator run
    // on a machine with that much: it fits, and the page cache it gains can only help.
    let seed = presets::preset("seed-4k-medical").unwrap();
    let tiny = machine(5);
    let before = simulate(&seed, &tiny);
    let recs = levers::recommendations(&before, &tiny, None, &|_| None);
    let add = recs.iter().find(|x| x.id == R::AddRam).unwrap();
    let Quantity::Bytes(ram) = add.changes["ram_bytes"] else {
        panic!("{:?}", add.changes)
    };
    // Working set: the OS 2 GiB, the training process 3 GiB, and the workers' share (see the
    // test above): more than 8 GiB, less than 12 — 12 GiB is the next common size.
    let ws = before.memory_budget.working_set_bytes;
    assert!(ws > 8 * GIB && ws <= 12 * GIB, "{ws}");
    assert_eq!(ram, 12 * GIB);
    let after = simulate(
        &seed,
        &MachineRates {
            usable_ram_bytes: Some(ram),
            ..tiny.clone()
        },
    );
    assert_eq!(add.result.fits, Some(true));
    assert_eq!(
        add.result.predicted_gpu_utilization,
        after.pipeline.predicted_gpu_utilization
    );
    assert!(levers::improves(
        &levers::outcome(&before, None),
        &add.result
    ));
    // Under a cgroup limit more RAM gives the job nothing: no RAM lever (raise the limit).
    let capped = MachineRates {
        ram_capped: true,
        ..tiny
    };
    let recs = levers::recommendations(&before, &capped, None, &|_| None);
    assert!(recs.iter().all(|x| x.id != R::AddRam));
}

#[test]
fn no_ranked_purchase_without_a_gain_on_any_fixture() {
    // Every fixture with every workload preset: each item that buys RAM (modules, a larger
    // instance, a new machine, a VM's allocation) makes its subject fit where it didn't, or
    // feeds the GPUs better.
    use ramvram::advisor::recommend::Subject;
    let buys = [
        R::AddRam,
        R::LargerInstance,
        R::OtherInstance,
        R::NewMachine,
        R::RaiseVmMemory,
    ];
    for name in common::all_fixtures() {
        let profile = fixture(&name);
        for id in [
            "imagenet-resnet50",
            "seed-4k-medical",
            "t2i-1024-multiscale",
            "llm-token-shards",
        ] {
            let a = assess(
                &profile,
                &Scenario {
                    workload: presets::preset(id),
                    ..Scenario::NONE
                },
            );
            let w = a.workload.as_ref().unwrap();
            let before = levers::outcome(w, None);
            for r in a.recommendations.iter().filter(|r| buys.contains(&r.id)) {
                assert_eq!(r.subject, Subject::Workload, "{name} {id}");
                assert!(
                    levers::improves(&before, &r.result),
                    "{name} {id}: {r:?} against {before:?}"
                );
            }
        }
    }
}
