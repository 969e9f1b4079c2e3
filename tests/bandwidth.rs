//! The bandwidth advisor against hand calculations and published figures.

mod common;

use common::{GIB, fixture};
use ramvram::advisor::bandwidth::{BandwidthBasis, StageId, StageSource};
use ramvram::advisor::{FindingId, Quantity, RuleStatus, assess};
use ramvram::profile::{MemoryBandwidth, StorageBandwidth, ValueSource};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn single_channel_ddr4_with_rtx_4090_is_bandwidth_bound() {
    let a = assess(&fixture("student-4090-ddr4-single-channel"));
    let b = a.bandwidth.as_ref().expect("bandwidth computed");
    // One channel × 3200 MT/s × 8 bytes = 25.6 GB/s.
    assert_eq!(b.memory.theoretical_bytes_per_s, Some(25.6e9));
    assert_eq!(b.memory.theoretical_source, Some(ValueSource::Estimated));
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
    // PCIe Gen4 x16 = 16 × 1.969 = 31.5 GB/s > 25.6: RAM is the narrowest stage.
    assert_eq!(b.pipeline.narrowest, Some(StageId::RamBandwidth));
    // Without a workload the GPUs' demand is unknown, so nothing says whether they starve.
    assert_eq!(b.pipeline.starves_gpus, None);
    assert_eq!(b.pipeline.stages[4].source, StageSource::Unknown);
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
    let a = assess(&fixture("lab-4090-pcie-x8"));
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
    let a = assess(&p);
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
    let b = assess(&p).bandwidth.unwrap();
    // 20.48 / 25.6 = 0.8.
    assert!(close(b.memory.efficiency.unwrap(), 0.8));
    // A SATA-class 0.55 GB/s disk is now the narrowest stage.
    assert_eq!(b.pipeline.narrowest, Some(StageId::StorageRead));
    let ram = &b.pipeline.stages[1];
    assert_eq!(ram.source, StageSource::Measured);
    assert_eq!(ram.bytes_per_s, Some(20.48e9));
    assert_eq!(
        b.pipeline.stages[2].source,
        StageSource::Unknown,
        "CPU decode: unknown without a workload"
    );
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
    let a = serde_json::to_value(assess(&p)).unwrap();
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
    // Nothing about bandwidth is known for a machine with no memory speed, no PCIe link and no
    // measurement: the key is left out.
    let mut bare = fixture("aws-g5.xlarge");
    for g in &mut bare.gpus {
        g.pcie = None;
    }
    assert!(
        serde_json::to_value(assess(&bare))
            .unwrap()
            .get("bandwidth")
            .is_none()
    );
}

#[test]
fn nfs_dataset_is_the_narrowest_stage_of_a_well_built_workstation() {
    let a = assess(&fixture("lab-a6000-nfs-measured"));
    let b = a.bandwidth.as_ref().unwrap();
    // Quad-channel DDR4-3200: 4 × 3200 × 8 = 102.4 GB/s; measured Triad 80 GB/s → 78.125 %.
    assert_eq!(b.memory.theoretical_bytes_per_s, Some(102.4e9));
    assert!(close(b.memory.efficiency.unwrap(), 0.78125));
    // 48 GiB of VRAM asks 96 GB/s; 102.4 GB/s passes (theoretical is what the rule judges).
    assert!(close(b.seed_rule.required_bytes_per_s.unwrap(), 96e9));
    assert_eq!(b.seed_rule.status, RuleStatus::Pass);
    // Stages: NFS 0.35 GB/s, RAM 80 (measured), PCIe Gen4 x16 31.5: the NFS share is narrowest.
    assert_eq!(b.pipeline.narrowest, Some(StageId::StorageRead));
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
