//! Bandwidth: theoretical and measured memory bandwidth, the seed's "200 GB/s per 100 GB of
//! VRAM" rule, PCIe per GPU and the measured dataset folders. The data pipeline it shows comes
//! from the workload simulator (`workload::view`). Pure: everything comes from the profile (including its
//! `measurements`).
//!
//! Units: bytes/s as `f64`; shown as GB/s (10^9 bytes/s, the STREAM and PCIe convention).

use serde::{Deserialize, Serialize};

use super::capacity::VramTotals;
use super::findings::{AdviceId, Finding, FindingId, Quantity, Severity};
use super::rules::RuleStatus;
use crate::profile::{Disk, DiskKind, MachineProfile, Provenance};

pub use super::bandwidth_views::{
    BandwidthBasis, MemoryBandwidthView, PcieView, SeedBandwidthRule, StorageView,
};

/// Bytes each memory channel moves per transfer: 8 (a 64-bit channel). Source: JEDEC DDR4
/// (JESD79-4) 64-bit module data bus; a DDR5 DIMM has two 32-bit subchannels (JESD79-5), the
/// same 8 bytes per transfer per DIMM. Soldered LPDDR channels that report a narrower data
/// width (16 or 32 bits) use that width instead.
pub const BYTES_PER_CHANNEL: f64 = 8.0;

/// The seed's rule (§四.1): "at least 200 GB/s of memory bandwidth per 100 GB of VRAM", i.e.
/// 2 GB/s (2 × 10^9 bytes/s) per GB of VRAM. VRAM "GB" are binary (docs/model.md), so the
/// rule asks 2 × 10^9 bytes/s per GiB. Quad-channel DDR4-3200 (102.4 GB/s) covers 51.2 GiB.
pub const SEED_BYTES_PER_S_PER_VRAM_GIB: f64 = 2e9;

/// PCIe bandwidth per lane and direction after line encoding, bytes/s, for generations 1–7.
/// Source: PCI-SIG base specifications: Gen1 2.5 GT/s and Gen2 5 GT/s with 8b/10b encoding;
/// Gen3 8, Gen4 16, Gen5 32 GT/s with 128b/130b; Gen6 64 and Gen7 128 GT/s (PAM4) with
/// 242-byte payloads in 256-byte FLITs. Gen1 0.25, Gen2 0.5, Gen3 0.985, Gen4 1.969,
/// Gen5 3.938, Gen6 7.563, Gen7 15.125 GB/s.
pub fn pcie_lane_bytes_per_s(generation: u32) -> Option<f64> {
    let (gt, efficiency) = match generation {
        1 => (2.5e9, 8.0 / 10.0),
        2 => (5e9, 8.0 / 10.0),
        3 => (8e9, 128.0 / 130.0),
        4 => (16e9, 128.0 / 130.0),
        5 => (32e9, 128.0 / 130.0),
        6 => (64e9, 242.0 / 256.0),
        7 => (128e9, 242.0 / 256.0),
        _ => return None,
    };
    Some(gt * efficiency / 8.0)
}

/// A link's bandwidth per direction: lanes × per-lane rate.
pub fn pcie_bytes_per_s(generation: Option<u32>, width: Option<u32>) -> Option<f64> {
    Some(pcie_lane_bytes_per_s(generation?)? * f64::from(width?))
}

/// Samples per second a stage of `bytes_per_s` carries when each sample is `sample_bytes`
/// (e.g. an ImageNet JPEG of ~110 KB, or a decoded 224 × 224 × 3 float32 tensor of 602,112 B);
/// `None` for a zero sample size.
pub fn samples_per_s(bytes_per_s: f64, sample_bytes: u64) -> Option<f64> {
    (sample_bytes > 0).then(|| bytes_per_s / sample_bytes as f64)
}

/// Theoretical memory bandwidth: channels × MT/s × bytes per channel.
pub fn theoretical_memory_bytes_per_s(channels: u32, mts: u32, bytes_per_channel: f64) -> f64 {
    f64::from(channels) * f64::from(mts) * 1e6 * bytes_per_channel
}

/// The mount holding `path`: the longest mount point that is `path` or one of its parent
/// folders (compared by path components, so `/data2` is not under `/data`).
pub fn mount_for<'a>(path: &str, disks: &'a [Disk]) -> Option<&'a Disk> {
    let p = std::path::Path::new(path);
    disks
        .iter()
        .filter(|d| p.starts_with(&d.mount_point))
        .max_by_key(|d| std::path::Path::new(&d.mount_point).components().count())
}

/// Everything about bandwidth for one machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bandwidth {
    /// Memory bandwidth.
    pub memory: MemoryBandwidthView,
    /// The seed's rule.
    pub seed_rule: SeedBandwidthRule,
    /// PCIe per GPU (GPUs whose link is known).
    pub pcie: Vec<PcieView>,
    /// The pipeline storage → RAM → CPU decode → PCIe → GPU: the machine's stage capacities,
    /// and with a workload the simulator's samples/s per stage (filled by the advisor from
    /// [`super::workload::view::pipeline_view`], the one pipeline model).
    #[serde(default)]
    pub pipeline: super::workload::view::PipelineView,
    /// Measured folders with their mounts, latest first.
    #[serde(default)]
    pub storage: Vec<StorageView>,
}

/// Computes the bandwidth view: memory, the seed's rule, PCIe per GPU and the measured
/// folders. Its `pipeline` is left empty: the advisor fills it from the workload simulator's
/// model ([`super::workload::view::pipeline_view`]), with or without a workload.
pub fn bandwidth(profile: &MachineProfile, vram: &VramTotals) -> Bandwidth {
    let memory = memory_view(profile);
    let pcie: Vec<PcieView> = profile
        .gpus
        .iter()
        .filter_map(|g| {
            let link = g.pcie?;
            let idle = g
                .utilization_percent
                .is_some_and(|u| u < super::findings::BUSY_UTILIZATION_PERCENT);
            let current = pcie_bytes_per_s(link.gen_current, link.width_current);
            let gen_effective = if idle {
                link.gen_max.or(link.gen_current)
            } else {
                link.gen_current.or(link.gen_max)
            };
            let slowed = matches!((link.gen_current, link.gen_max), (Some(c), Some(m)) if c < m);
            Some(PcieView {
                gpu: g.index,
                link,
                idle_slowdown: idle && slowed,
                rx_bytes_per_s: g.pcie_rx_bytes_per_s,
                tx_bytes_per_s: g.pcie_tx_bytes_per_s,
                current_bytes_per_s: current,
                max_bytes_per_s: pcie_bytes_per_s(link.gen_max, link.width_max),
                effective_bytes_per_s: pcie_bytes_per_s(gen_effective, link.width_current),
            })
        })
        .collect();
    let seed_rule = seed_rule(&memory, vram);
    let storage = profile
        .measurements
        .storage
        .iter()
        .map(|s| {
            let disk = mount_for(&s.path, &profile.disks);
            StorageView {
                path: s.path.clone(),
                mount_point: disk.map(|d| d.mount_point.clone()),
                kind: disk.map(|d| d.kind),
                sequential_read_bytes_per_s: s.sequential_read_bytes_per_s,
                random_read_files_per_s: s.random_read_files_per_s,
            }
        })
        .collect();
    Bandwidth {
        memory,
        seed_rule,
        pcie,
        pipeline: Default::default(),
        storage,
    }
}

fn memory_view(profile: &MachineProfile) -> MemoryBandwidthView {
    let m = &profile.memory;
    let dimms = &m.dimms;
    let memory_type = m
        .memory_type
        .clone()
        .or_else(|| dimms.iter().find_map(|d| d.memory_type.clone()));
    // The controller runs every channel at the slowest module's speed.
    let speed_mts = m
        .speed_mts
        .or_else(|| dimms.iter().filter_map(|d| d.effective_speed_mts()).min());
    let layout = crate::profile::infer_channels(dimms);
    let (channels, channels_source) = match (m.channels_populated, layout.as_ref()) {
        (Some(c), _) => (Some(c), m.channels_source.or(Some(Provenance::Entered))),
        (None, Some(l)) => (Some(l.count()), Some(Provenance::Estimated)),
        (None, None) => (None, None),
    };
    let width = dimms
        .iter()
        .filter_map(|d| d.data_width_bits)
        .filter(|w| *w > 0 && *w < 64)
        .min()
        .map_or(BYTES_PER_CHANNEL, |w| f64::from(w) / 8.0);
    let (theoretical, theoretical_source) = match m.theoretical_bandwidth_bytes_per_s {
        Some(t) => (
            Some(t),
            m.theoretical_bandwidth_source.or(Some(Provenance::Entered)),
        ),
        None => match (channels, speed_mts) {
            (Some(c), Some(s)) => {
                // The figure is only as sure as its least sure input.
                let source = if channels_source == Some(Provenance::Estimated) {
                    Provenance::Estimated
                } else if m.speed_mts.is_some() || channels_source == Some(Provenance::Entered) {
                    m.theoretical_bandwidth_source
                        .unwrap_or(Provenance::Entered)
                } else {
                    Provenance::Detected
                };
                (
                    Some(theoretical_memory_bytes_per_s(c, s, width)),
                    Some(source),
                )
            }
            _ => (None, None),
        },
    };
    let measured = profile.measurements.memory_bandwidth.as_ref();
    let triad = measured.map(|b| b.triad_bytes_per_s).filter(|v| *v > 0.0);
    MemoryBandwidthView {
        memory_type,
        speed_mts,
        channels,
        channels_source,
        modules: dimms.len() as u32,
        uneven_channels: layout.as_ref().is_some_and(|l| l.uneven()),
        theoretical_bytes_per_s: theoretical,
        theoretical_source,
        measured_triad_bytes_per_s: triad,
        measured_noisy: measured.is_some_and(|b| b.noisy),
        measured_single_pass: measured.is_some_and(|b| b.repetitions < 2),
        efficiency: match (triad, theoretical) {
            (Some(t), Some(p)) if p > 0.0 => Some(t / p),
            _ => None,
        },
    }
}

fn seed_rule(memory: &MemoryBandwidthView, vram: &VramTotals) -> SeedBandwidthRule {
    let (actual, basis) = match (
        memory.theoretical_bytes_per_s,
        memory.measured_triad_bytes_per_s,
    ) {
        (Some(t), _) => (Some(t), Some(BandwidthBasis::Theoretical)),
        (None, Some(m)) => (Some(m), Some(BandwidthBasis::Measured)),
        (None, None) => (None, None),
    };
    let gib = crate::units::GIB as f64;
    let required = vram
        .nominal_total_bytes
        .map(|v| v as f64 / gib * SEED_BYTES_PER_S_PER_VRAM_GIB);
    let status = if vram.discrete_gpus == 0 {
        RuleStatus::NotApplicable
    } else {
        match (actual, required) {
            (Some(a), Some(r)) if a >= r => RuleStatus::Pass,
            (Some(_), Some(_)) => RuleStatus::Fail,
            _ => RuleStatus::CantCheck,
        }
    };
    SeedBandwidthRule {
        vram_bytes: vram.nominal_total_bytes,
        required_bytes_per_s: required,
        actual_bytes_per_s: actual,
        basis,
        covers_vram_bytes: actual.map(|a| (a / SEED_BYTES_PER_S_PER_VRAM_GIB * gib) as u64),
        status,
    }
}

/// Findings about bandwidth: one populated channel, uneven channels, memory bandwidth below
/// the seed's rule.
pub fn findings(b: &Bandwidth) -> Vec<Finding> {
    let mut out = Vec::new();
    let m = &b.memory;
    if m.channels == Some(1) {
        let mut f = Finding::new(
            FindingId::SingleChannelMemory,
            Severity::Warning,
            &[AdviceId::PopulateChannels],
        )
        .with("channels", Quantity::Count(1));
        if let Some(t) = m.theoretical_bytes_per_s {
            f = f.with("theoretical", Quantity::BytesPerSecond(t));
        }
        out.push(f);
    } else if m.uneven_channels {
        out.push(
            Finding::new(
                FindingId::UnevenChannels,
                Severity::Warning,
                &[AdviceId::MatchModules],
            )
            .with(
                "channels",
                Quantity::Count(u64::from(m.channels.unwrap_or(0))),
            )
            .with("modules", Quantity::Count(u64::from(m.modules))),
        );
    }
    for s in &b.storage {
        let id = match s.kind {
            Some(DiskKind::Network) => FindingId::DatasetOnNetworkStorage,
            Some(DiskKind::Hdd) => FindingId::DatasetOnHdd,
            _ => continue,
        };
        let mut f = Finding::new(
            id,
            Severity::Warning,
            &[AdviceId::CopyToLocalNvme, AdviceId::StreamDataset],
        );
        if let Some(files) = s.random_read_files_per_s {
            f = f.with("files", Quantity::Count(files.round() as u64));
        }
        if let Some(seq) = s.sequential_read_bytes_per_s {
            f = f.with("sequential", Quantity::BytesPerSecond(seq));
        }
        out.push(f);
    }
    let r = &b.seed_rule;
    if let (RuleStatus::Fail, Some(actual), Some(required), Some(vram), Some(covers)) = (
        r.status,
        r.actual_bytes_per_s,
        r.required_bytes_per_s,
        r.vram_bytes,
        r.covers_vram_bytes,
    ) {
        out.push(
            Finding::new(
                FindingId::MemoryBandwidthBound,
                Severity::Warning,
                &[AdviceId::PopulateChannels, AdviceId::GpuDecode],
            )
            .with("actual", Quantity::BytesPerSecond(actual))
            .with("required", Quantity::BytesPerSecond(required))
            .with("vram", Quantity::Bytes(vram))
            .with("covers", Quantity::Bytes(covers)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_lane_rates_match_the_published_figures() {
        // The per-lane, per-direction figures usually quoted (GB/s, rounded to 3 decimals).
        let quoted = [
            (1, 0.25),
            (2, 0.5),
            (3, 0.985),
            (4, 1.969),
            (5, 3.938),
            (6, 7.563),
        ];
        for (generation, gbps) in quoted {
            let got = pcie_lane_bytes_per_s(generation).unwrap() / 1e9;
            assert!((got - gbps).abs() < 0.0006, "Gen{generation}: {got}");
        }
        assert_eq!(pcie_lane_bytes_per_s(0), None);
        // Gen4 x16, the RTX 4090's link: 16 × 1.969 = 31.5 GB/s per direction.
        let x16 = pcie_bytes_per_s(Some(4), Some(16)).unwrap();
        assert!((x16 / 1e9 - 31.508).abs() < 0.001, "{x16}");
    }

    #[test]
    fn measured_folders_are_matched_to_their_mounts() {
        let disk = |mount: &str, kind| Disk {
            mount_point: mount.into(),
            file_system: None,
            kind,
            device: None,
            total_bytes: None,
            available_bytes: None,
        };
        let disks = [
            disk("/", DiskKind::Nvme),
            disk("/data", DiskKind::Hdd),
            disk("/mnt/nfs", DiskKind::Network),
        ];
        assert_eq!(
            mount_for("/mnt/nfs/imagenet", &disks).unwrap().kind,
            DiskKind::Network
        );
        assert_eq!(mount_for("/data", &disks).unwrap().kind, DiskKind::Hdd);
        // "/data2" is not under "/data".
        assert_eq!(mount_for("/data2/x", &disks).unwrap().mount_point, "/");
        let mut p = MachineProfile::unknown();
        p.disks = disks.to_vec();
        for (path, files) in [("/mnt/nfs/imagenet", 350.0), ("/home/me", 20_000.0)] {
            p.measurements
                .storage
                .push(crate::profile::StorageBandwidth {
                    path: path.into(),
                    sequential_read_bytes_per_s: Some(0.11e9),
                    direct_io: false,
                    sequential_bytes: 1 << 30,
                    random_read_files_per_s: Some(files),
                    random_read_bytes_per_s: Some(files * 4096.0),
                    random_direct_io: false,
                    tool: None,
                });
        }
        let vram = super::super::capacity::vram_totals(&p);
        let b = bandwidth(&p, &vram);
        let f = findings(&b);
        assert_eq!(f.len(), 1, "only the NFS folder: {f:?}");
        assert_eq!(f[0].id, FindingId::DatasetOnNetworkStorage);
        assert_eq!(f[0].values["files"], Quantity::Count(350));
    }

    #[test]
    fn memory_arithmetic_from_the_seed_and_its_correction() {
        // Quad-channel DDR4-3200: 4 × 3200 MT/s × 8 B = 102.4 GB/s.
        assert_eq!(
            theoretical_memory_bytes_per_s(4, 3200, BYTES_PER_CHANNEL),
            102.4e9
        );
        // Dual-channel DDR5-5200: 2 × 5200 × 8 = 83.2 GB/s.
        assert_eq!(
            theoretical_memory_bytes_per_s(2, 5200, BYTES_PER_CHANNEL),
            83.2e9
        );
        // Under the seed's rule 102.4 GB/s covers 51.2 GiB of VRAM, not 100.
        let covers = 102.4e9 / SEED_BYTES_PER_S_PER_VRAM_GIB;
        assert!((covers - 51.2).abs() < 1e-9);
    }
}
