//! The bandwidth advisor against hand calculations and published figures.

mod common;

use common::{GIB, fixture};
use ramvram::advisor::bandwidth::BandwidthBasis;
use ramvram::advisor::workload::StageId;
use ramvram::advisor::{FindingId, Quantity, RuleStatus, assess};
use ramvram::profile::{MemoryBandwidth, Provenance, StorageBandwidth};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn single_channel_ddr4_with_rtx_4090_is_bandwidth_bound() {
    let a = assess(
        &fixture("student-4090-ddr4-single-channel"),
        &ramvram::advisor::Scenario::NONE,
    );
    let b = a.bandwidth.as_ref().expect("bandwidth computed");
    // One channel × 3200 MT/s × 8 bytes = 25.6 GB/s.
    assert_eq!(b.memory.theoretical_bytes_per_s, Some(25.6e9));
    assert_eq!(b.memory.theoretical_source, Some(Provenance::Estimated));
    assert_eq!(b.memory.channels, Some(1));
    // The seed's rule: 24 GiB of VRAM × 2 GB/s per GiB = 48 GB/s.
    assert!(close(b.seed_rule.required_bytes_per_s.unwrap(), 48e9));
    assert_eq!(b.seed_rule.status, RuleStatus::Fail);
    assert_eq!(b.seed_rule.basis, Some(BandwidthBasis::Theoretical));
    // 25.6 GB/s covers 25.6 / 2 = 12.8 GiB of VRAM.
    assert_eq!(
        b.seed_rule.covers_vram_bytes,
        Some((12.8 * GIB as f64) as u64)
    );
    // Without a workload the stages are the machine's capacities: RAM 25.6 GB/s, PCIe Gen4 x16
    // 16 × 1.969 = 31.5 GB/s. They move different bytes per sample, so no stage is named the
    // narrowest and nothing says whether the GPUs starve (the demand is unknown).
    assert_eq!(b.pipeline.stages[1].capacity_bytes_per_s, Some(25.6e9));
    let pcie = b.pipeline.stages[3].capacity_bytes_per_s.unwrap();
    assert!(close(pcie, 16.0 * 16e9 * 128.0 / 130.0 / 8.0));
    assert_eq!(b.pipeline.narrowest, None);
    assert_eq!(b.pipeline.starves_gpus, None);
    assert_eq!(b.pipeline.stages[4].source, Provenance::Unknown);
    let ids: Vec<FindingId> = a.findings.iter().map(|f| f.id).collect();
    assert!(ids.contains(&FindingId::MemoryBandwidthBound), "{ids:?}");
    assert!(ids.contains(&FindingId::SingleChannelMemory), "{ids:?}");
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::MemoryBandwidthBound)
        .unwrap();
    assert_eq!(f.values["actual"], Quantity::BytesPerSecond(25.6e9));
    // The seed's own claim (§二.1): under 50 GB/s cannot keep up with an RTX 4090.
    assert!(b.memory.theoretical_bytes_per_s.unwrap() < 50e9);
}

#[test]
fn pcie_x8_fixture_still_degraded_with_its_bandwidth() {
    let a = assess(
        &fixture("lab-4090-pcie-x8"),
        &ramvram::advisor::Scenario::NONE,
    );
    assert!(
        a.findings
            .iter()
            .any(|f| f.id == FindingId::PcieLinkDegraded)
    );
    let p = &a.bandwidth.as_ref().unwrap().pcie[0];
    // Gen4: 16 GT/s × 128/130 / 8 = 1.969 GB/s per lane; x8 = 15.75, x16 = 31.51 GB/s.
    let lane = 16e9 * 128.0 / 130.0 / 8.0;
    assert!(close(p.current_bytes_per_s.unwrap(), 8.0 * lane));
    assert!(close(p.max_bytes_per_s.unwrap(), 16.0 * lane));
}

#[test]
fn quad_channel_ddr4_3200_from_dmidecode_is_102_4_gbps_and_covers_51_gib() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/dmi/dmidecode-workstation-ddr4-4x32.txt"),
    )
    .unwrap();
    let mut p = fixture("lab-4090-128g");
    ramvram::probe::dimm::apply_dimms(&mut p.memory, ramvram::probe::dimm::parse_dmidecode(&text));
    let a = assess(&p, &ramvram::advisor::Scenario::NONE);
    let b = a.bandwidth.unwrap();
    assert_eq!(b.memory.channels, Some(4));
    assert_eq!(b.memory.theoretical_bytes_per_s, Some(102.4e9));
    // 102.4 GB/s ÷ 2 GB/s per GiB = 51.2 GiB of VRAM: enough for one 24 GiB RTX 4090.
    assert_eq!(
        b.seed_rule.covers_vram_bytes,
        Some((51.2 * GIB as f64) as u64)
    );
    assert_eq!(b.seed_rule.status, RuleStatus::Pass);
    assert!(
        a.findings
            .iter()
            .all(|f| f.id != FindingId::MemoryBandwidthBound
                && f.id != FindingId::SingleChannelMemory)
    );
}

#[test]
fn measured_efficiency_and_pipeline_with_measurements() {
    let mut p = fixture("student-4090-ddr4-single-channel");
    p.measurements.memory_bandwidth = Some(MemoryBandwidth {
        copy_bytes_per_s: 19e9,
        scale_bytes_per_s: 19e9,
        add_bytes_per_s: 20e9,
        triad_bytes_per_s: 20.48e9,
        threads: 24,
        pinned: true,
        array_bytes: 256 << 20,
        repetitions: 10,
        spread: 0.02,
        noisy: false,
        tool: None,
    });
    p.measurements.storage.push(StorageBandwidth {
        path: "/data".into(),
        sequential_read_bytes_per_s: Some(0.55e9),
        direct_io: true,
        sequential_bytes: 1 << 30,
        random_read_files_per_s: Some(5000.0),
        random_read_bytes_per_s: Some(5000.0 * 4096.0),
        random_direct_io: true,
        tool: None,
    });
    let b = assess(&p, &ramvram::advisor::Scenario::NONE)
        .bandwidth
        .unwrap();
    // 20.48 / 25.6 = 0.8.
    assert!(close(b.memory.efficiency.unwrap(), 0.8));
    // The measured folder is the dataset's storage: 0.55 GB/s, latency 1 / 5000 files/s.
    let storage = &b.pipeline.stages[0];
    assert_eq!(storage.capacity_bytes_per_s, Some(0.55e9));
    assert_eq!(storage.source, Provenance::Measured);
    assert_eq!(b.pipeline.storage_path.as_deref(), Some("/data"));
    let ram = &b.pipeline.stages[1];
    assert_eq!(ram.source, Provenance::Measured);
    assert_eq!(ram.capacity_bytes_per_s, Some(20.48e9));
    // CPU decode without a workload: the default 250 MP/s per core on every physical core,
    // in decoded RGB bytes (3 per pixel), marked as the default.
    let cores = f64::from(p.cpu.physical_cores.unwrap());
    let decode = &b.pipeline.stages[2];
    assert_eq!(decode.source, Provenance::Default);
    assert!(close(
        decode.capacity_bytes_per_s.unwrap(),
        cores * 250e6 * 3.0
    ));
    // A profile with measurements saves and loads unchanged.
    let text = serde_json::to_string(&p).unwrap();
    let back = ramvram::profile::parse_profile(&text, std::path::Path::new("m.json")).unwrap();
    assert!(back.ignored_fields.is_empty());
    assert_eq!(back.profile, p);
}

#[test]
fn old_profiles_load_and_keep_their_json_keys() {
    // A profile without any of the new fields (written before them) has no `measurements` or
    // `dimms` key when written again, and its assessment keeps every earlier key.
    let p = fixture("aws-g5.xlarge");
    let v = serde_json::to_value(&p).unwrap();
    assert!(v.get("measurements").is_none());
    assert!(v["memory"].get("dimms").is_none());
    let a = serde_json::to_value(assess(&p, &ramvram::advisor::Scenario::NONE)).unwrap();
    for key in [
        "schema_version",
        "profile",
        "memory",
        "vram",
        "ratio",
        "verdict",
        "rules",
        "findings",
    ] {
        assert!(a.get(key).is_some(), "{key}");
    }
    // With no memory speed, no PCIe link and no measurement, the pipeline still has stated
    // figures: the storage kind's typical read speed and the default decode rate, each marked.
    let mut bare = fixture("aws-g5.xlarge");
    for g in &mut bare.gpus {
        g.pcie = None;
    }
    let b = assess(&bare, &ramvram::advisor::Scenario::NONE)
        .bandwidth
        .unwrap();
    assert_eq!(b.pipeline.stages[0].source, Provenance::Typical);
    assert_eq!(b.pipeline.stages[1].source, Provenance::Unknown);
    assert_eq!(b.pipeline.stages[2].source, Provenance::Default);
    assert_eq!(b.pipeline.stages[3].source, Provenance::Unknown);
}

#[test]
fn nfs_dataset_is_the_narrowest_stage_of_a_well_built_workstation() {
    let a = assess(
        &fixture("lab-a6000-nfs-measured"),
        &ramvram::advisor::Scenario::NONE,
    );
    let b = a.bandwidth.as_ref().unwrap();
    // Quad-channel DDR4-3200: 4 × 3200 × 8 = 102.4 GB/s; measured Triad 80 GB/s → 78.125 %.
    assert_eq!(b.memory.theoretical_bytes_per_s, Some(102.4e9));
    assert!(close(b.memory.efficiency.unwrap(), 0.78125));
    // 48 GiB of VRAM asks 96 GB/s; 102.4 GB/s passes (theoretical is what the rule judges).
    assert!(close(b.seed_rule.required_bytes_per_s.unwrap(), 96e9));
    assert_eq!(b.seed_rule.status, RuleStatus::Pass);
    // The measured NFS share is the dataset's storage: 0.35 GB/s.
    assert_eq!(b.pipeline.stages[0].id, StageId::StorageRead);
    assert_eq!(b.pipeline.stages[0].capacity_bytes_per_s, Some(0.35e9));
    assert_eq!(b.storage[0].mount_point.as_deref(), Some("/mnt/datasets"));
    let f = a
        .findings
        .iter()
        .find(|f| f.id == FindingId::DatasetOnNetworkStorage)
        .expect("NFS dataset finding");
    assert_eq!(f.values["files"], Quantity::Count(420));
    assert!(
        a.findings
            .iter()
            .all(|f| f.id != FindingId::MemoryBandwidthBound
                && f.id != FindingId::SingleChannelMemory
                && f.id != FindingId::UnevenChannels)
    );
}

/// One pipeline model: with a workload, the Bandwidth page's stages are the simulator's, stage
/// for stage, on machines whose PCIe, storage and RAM figures come from different places.
#[test]
fn the_bandwidth_pipeline_is_the_simulators_on_every_fixture() {
    use ramvram::advisor::workload::presets;
    use ramvram::advisor::{Scenario, assess};
    for name in [
        "lab-4090-pcie-x8",
        "student-4090-ddr4-single-channel",
        "lab-a6000-nfs-measured",
        "seed-4090-32g",
        "dgx-h100",
        "docker-4090-limit32g-shm64m",
    ] {
        for preset in ["imagenet-resnet50", "seed-4k-medical", "generic"] {
            let a = assess(
                &fixture(name),
                &Scenario {
                    workload: presets::preset(preset),
                    ..Scenario::NONE
                },
            );
            let w = a.workload.as_ref().unwrap();
            let b = a.bandwidth.as_ref().unwrap();
            assert!(b.pipeline.with_workload);
            assert_eq!(
                b.pipeline.narrowest, w.pipeline.narrowest,
                "{name} {preset}"
            );
            assert!(b.pipeline.narrowest.is_some(), "{name} {preset}");
            // Against the generic preset's placeholder demand nothing is judged (issue 34: no
            // invented demand); a preset for a kind of model has its demand.
            let judged = (preset != "generic").then(|| w.pipeline.bottleneck.is_some());
            assert_eq!(b.pipeline.starves_gpus, judged, "{name} {preset}");
            assert_eq!(
                b.pipeline.demand_given,
                preset != "generic",
                "{name} {preset}"
            );
            for s in &b.pipeline.stages {
                assert_eq!(
                    s.samples_per_s,
                    w.pipeline.rate(s.id),
                    "{name} {preset} {s:?}"
                );
            }
        }
    }
}

#[test]
fn a_degraded_link_counts_at_its_current_width_on_both_pages() {
    use ramvram::advisor::workload::presets;
    use ramvram::advisor::{Scenario, assess};
    // The RTX 4090 runs at Gen4 x8 (97 % busy): 8 × 1.969 = 15.75 GB/s, not the x16 it can
    // reach. Pinned copies reach 0.8 of it: ÷ one 224² float32 sample (602,112 bytes) =
    // 20,928 samples/s.
    let a = assess(
        &fixture("lab-4090-pcie-x8"),
        &Scenario {
            workload: presets::preset("imagenet-resnet50"),
            ..Scenario::NONE
        },
    );
    let x8 = 8.0 * 16e9 * 128.0 / 130.0 / 8.0;
    let b = a.bandwidth.as_ref().unwrap();
    let pcie = b
        .pipeline
        .stages
        .iter()
        .find(|s| s.id == StageId::PcieHostToDevice)
        .unwrap();
    assert!(close(pcie.capacity_bytes_per_s.unwrap(), x8));
    let samples = x8 * 0.8 / 602_112.0;
    assert!(close(pcie.samples_per_s.unwrap(), samples));
    let w = a.workload.as_ref().unwrap();
    assert!(close(
        w.pipeline.rate(StageId::PcieHostToDevice).unwrap(),
        samples
    ));
    // In GB/s the page shows samples/s × the bytes a sample moves there: 0.8 × the link.
    assert!(close(pcie.workload_bytes_per_s().unwrap(), x8 * 0.8));
}

#[test]
fn profiles_written_by_older_builds_keep_their_provenance_words() {
    // A profile as builds before the one `Provenance` wrote it (`ValueSource`, lowercase):
    // one DDR4-3200 channel entered by hand, with the theoretical figure marked "entered" and
    // the channel count "detected"; and the same with "estimated".
    let old = |channels: &str, theoretical: &str| {
        format!(
            r#"{{"schema_version": 1,
              "host": {{"hostname": "old", "os": "Ubuntu 22.04", "kernel": "5.15.0", "arch": "x86_64"}},
              "cpu": {{"model": null, "physical_cores": 8, "logical_cpus": 16}},
              "memory": {{"total_bytes": 33554432000, "memory_type": "DDR4", "speed_mts": 3200,
                         "channels_populated": 1, "channels_source": "{channels}",
                         "theoretical_bandwidth_source": "{theoretical}"}},
              "gpus": [], "disks": [], "notes": []}}"#
        )
    };
    for (channels, theoretical, want_channels, want_theoretical) in [
        (
            "detected",
            "entered",
            Provenance::Detected,
            Provenance::Entered,
        ),
        (
            "estimated",
            "estimated",
            Provenance::Estimated,
            Provenance::Estimated,
        ),
        (
            "entered",
            "detected",
            Provenance::Entered,
            Provenance::Detected,
        ),
    ] {
        let loaded = ramvram::profile::parse_profile(
            &old(channels, theoretical),
            std::path::Path::new("old.json"),
        )
        .unwrap();
        assert!(
            loaded.ignored_fields.is_empty(),
            "{:?}",
            loaded.ignored_fields
        );
        let m = &loaded.profile.memory;
        assert_eq!(m.channels_source, Some(want_channels));
        assert_eq!(m.theoretical_bandwidth_source, Some(want_theoretical));
        // Written again, the words are the ones old builds wrote.
        let v = serde_json::to_value(&loaded.profile).unwrap();
        assert_eq!(v["memory"]["channels_source"], channels);
        assert_eq!(v["memory"]["theoretical_bandwidth_source"], theoretical);
    }
}

#[test]
fn a_theoretical_stage_keeps_its_inputs_provenance() {
    // One channel inferred from slot names: the theoretical 25.6 GB/s is estimated, and the
    // pipeline's RAM stage says both that it is a theoretical peak and that it is estimated.
    let b = assess(
        &fixture("student-4090-ddr4-single-channel"),
        &ramvram::advisor::Scenario::NONE,
    )
    .bandwidth
    .unwrap();
    let ram = &b.pipeline.stages[1];
    assert_eq!(ram.id, StageId::RamBandwidth);
    assert!(ram.theoretical);
    assert_eq!(ram.source, Provenance::Estimated);
    // PCIe is a theoretical figure from detected links; storage is the kind's typical figure.
    let pcie = &b.pipeline.stages[3];
    assert!(pcie.theoretical);
    assert_eq!(pcie.source, Provenance::Detected);
    assert!(!b.pipeline.stages[0].theoretical);
}

/// The decode rate's provenance is in the one pipeline only when the rate plays a part: images
/// decoded by CPU workers (ImageNet's preset: the built-in default rate). With DALI decoding on
/// the GPU it is null, and no view words a decode assumption.
#[test]
fn the_decode_rate_is_named_only_when_cpu_workers_decode() {
    use ramvram::advisor::Scenario;
    use ramvram::advisor::workload::{DecodeOn, presets};
    use ramvram::i18n::Lang;
    let on = |decode_on| {
        let mut w = presets::preset("imagenet-resnet50").unwrap();
        w.decode_on = decode_on;
        assess(
            &fixture("seed-4090-32g"),
            &Scenario {
                workload: Some(w),
                ..Scenario::NONE
            },
        )
    };
    let cpu = on(DecodeOn::Cpu);
    let p = cpu.pipeline().unwrap();
    assert_eq!(p.decode_source, Some(Provenance::Default));
    let w = &cpu.workload.as_ref().unwrap().workload;
    assert!(ramvram::present::workload::decode_assumption(Lang::En, w, p).is_some());
    let gpu = on(DecodeOn::Gpu);
    let p = gpu.pipeline().unwrap();
    assert_eq!(p.decode_source, None);
    let w = &gpu.workload.as_ref().unwrap().workload;
    assert_eq!(
        ramvram::present::workload::decode_assumption(Lang::En, w, p),
        None
    );
}
