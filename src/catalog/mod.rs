//! The catalogue: GPUs, memory types and platforms with a source for every row
//! (`assets/catalog/*.csv`, embedded at build time). Used to map Slurm GRES types to VRAM and to
//! build planned machines.

pub mod planner;
pub mod slurm;

use std::sync::OnceLock;

use serde::Deserialize;

use crate::profile::GpuVendor;

/// One GPU model.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct GpuModel {
    /// Model name, e.g. "GeForce RTX 3090 24GB".
    pub model: String,
    /// Vendor.
    pub vendor: GpuVendor,
    /// Memory in GiB (vendors' "GB" of VRAM are binary); for unified parts, the pool.
    pub vram_gib: u64,
    /// Memory bandwidth, GB/s (10^9 B/s).
    pub memory_bandwidth_gb_s: Option<f64>,
    /// PCIe generation of the card's host link, when it has one and it is published.
    pub pcie_gen: Option<u32>,
    /// GPU shares system memory.
    pub unified_memory: bool,
    /// Names Slurm sites use in GRES (`gpu:a100:8`), `;`-separated.
    pub slurm_aliases: String,
    /// Where the figures come from.
    pub source: String,
}

impl GpuModel {
    /// The profile entry of GPU `index` for a catalogue model, or for an unknown one (`None`)
    /// named `name`: vendor "other" and VRAM unknown. Unified-memory parts have no VRAM of
    /// their own. What only detection can know (PCIe link, driver, use) is `None`.
    pub fn profile_gpu(
        model: Option<&GpuModel>,
        index: u32,
        name: Option<String>,
    ) -> crate::profile::Gpu {
        crate::profile::Gpu {
            index,
            vendor: model.map_or(GpuVendor::Other, |m| m.vendor),
            name: model.map(|m| m.model.clone()).or(name),
            vram_total_bytes: model
                .filter(|m| !m.unified_memory)
                .map(|m| m.vram_gib << 30),
            vram_used_bytes: None,
            unified_memory: model.is_some_and(|m| m.unified_memory),
            pcie: None,
            driver_version: None,
            utilization_percent: None,
            pci_bus_id: None,
            uuid: None,
            pcie_rx_bytes_per_s: None,
            status: Default::default(),
            pcie_tx_bytes_per_s: None,
        }
    }
}

/// One memory type and speed.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct MemoryType {
    /// "DDR5-5600".
    #[serde(rename = "type")]
    pub name: String,
    /// Transfer rate, MT/s.
    pub mt_s: u32,
    /// Bytes per channel per transfer (8 for a 64-bit DDR channel).
    pub bytes_per_channel_transfer: u32,
    /// Where it comes from.
    pub source: String,
}

impl MemoryType {
    /// Theoretical bandwidth of `channels` channels, bytes/s: channels × MT/s × bytes.
    pub fn bandwidth_bytes_per_s(&self, channels: u32) -> f64 {
        f64::from(channels)
            * f64::from(self.mt_s)
            * 1e6
            * f64::from(self.bytes_per_channel_transfer)
    }
}

/// One CPU platform.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Platform {
    /// Name.
    pub platform: String,
    /// Memory channels per socket.
    pub channels_per_socket: u32,
    /// DIMM slots per channel on typical boards.
    pub dimms_per_channel: u32,
    /// Sockets.
    pub max_sockets: u32,
    /// "DDR4" or "DDR5".
    pub memory: String,
    /// Where it comes from.
    pub source: String,
}

/// The whole catalogue.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalog {
    /// GPUs.
    pub gpus: Vec<GpuModel>,
    /// Memory types.
    pub memory: Vec<MemoryType>,
    /// Platforms.
    pub platforms: Vec<Platform>,
}

fn parse<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Vec<T> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.unwrap_or_else(|e| panic!("assets/catalog/{name} row {}: {e}", i + 2)))
        .collect()
}

/// The embedded catalogue, parsed once. The files are part of the build; a malformed row is a
/// build defect that every catalogue test catches, so parsing panics with the file and row.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog {
        gpus: parse("gpus.csv", include_str!("../../assets/catalog/gpus.csv")),
        memory: parse(
            "memory.csv",
            include_str!("../../assets/catalog/memory.csv"),
        ),
        platforms: parse(
            "platforms.csv",
            include_str!("../../assets/catalog/platforms.csv"),
        ),
    })
}

/// Lower-case letters and digits only: "RTX-3090" and "rtx_3090" compare equal.
fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl Catalog {
    /// A GPU by model name or Slurm alias, ignoring case and punctuation.
    pub fn gpu(&self, name: &str) -> Option<&GpuModel> {
        let n = normalise(name);
        if n.is_empty() {
            return None;
        }
        self.gpus
            .iter()
            .find(|g| normalise(&g.model) == n)
            .or_else(|| {
                self.gpus
                    .iter()
                    .find(|g| g.slurm_aliases.split(';').any(|a| normalise(a) == n))
            })
    }

    /// A memory type by name ("DDR5-5600").
    pub fn memory_type(&self, name: &str) -> Option<&MemoryType> {
        let n = normalise(name);
        self.memory.iter().find(|m| normalise(&m.name) == n)
    }

    /// A platform by name.
    pub fn platform(&self, name: &str) -> Option<&Platform> {
        self.platforms.iter().find(|p| p.platform == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_has_a_source_and_sane_numbers() {
        let c = catalog();
        assert!(c.gpus.len() >= 30);
        for g in &c.gpus {
            assert!(!g.source.trim().is_empty(), "{}", g.model);
            assert!(g.vram_gib > 0 && g.vram_gib <= 1024, "{}", g.model);
        }
        for m in &c.memory {
            assert!(!m.source.is_empty() && m.mt_s >= 2133, "{}", m.name);
        }
        for p in &c.platforms {
            assert!(
                !p.source.is_empty() && p.channels_per_socket >= 2,
                "{}",
                p.platform
            );
        }
    }

    #[test]
    fn lookups_by_alias() {
        let c = catalog();
        assert_eq!(c.gpu("a100").unwrap().vram_gib, 80);
        assert_eq!(c.gpu("A100_40GB").unwrap().vram_gib, 40);
        assert_eq!(c.gpu("rtx3090").unwrap().model, "GeForce RTX 3090 24GB");
        assert!(c.gpu("GB10").unwrap().unified_memory);
        assert!(c.gpu("tesla_k80").is_none());
    }

    #[test]
    fn quad_channel_ddr4_3200_is_102_4_gb_s() {
        // The seed article's example: 4 × 3200 MT/s × 8 B = 102.4 GB/s.
        let m = catalog().memory_type("DDR4-3200").unwrap();
        assert!((m.bandwidth_bytes_per_s(4) - 102.4e9).abs() < 1.0);
    }
}
