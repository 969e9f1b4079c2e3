//! The catalogue: GPUs, memory types and platforms with a source for every row
//! (`assets/catalog/*.csv`, embedded at build time). Used to map Slurm GRES types to VRAM and to
//! build planned machines.

pub mod instances;
pub mod model_shape;
pub mod models;
pub mod modules;
pub mod pipelines;
pub mod planner;
pub mod prices;
pub mod rows;

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
    /// Names the vendor's library reports for this model (NVML's `nvmlDeviceGetName`, as
    /// `nvidia-smi` prints it; AMD's product name), `;`-separated; empty when not known.
    #[serde(default)]
    pub detected_names: String,
    /// Peak dense BF16/FP16 tensor throughput, TFLOPS (10^12 FLOP/s), without structured
    /// sparsity, from the vendor's datasheet or whitepaper (named in `source`); empty where
    /// none was looked up.
    #[serde(default)]
    pub bf16_dense_tflops: Option<f64>,
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
            unified_memory: model.is_some_and(|m| m.unified_memory),
            ..crate::profile::Gpu::unknown()
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
    /// The modules its boards take: UDIMM on desktops, RDIMM on workstations and servers.
    pub form_factor: modules::FormFactor,
    /// Where it comes from.
    pub source: String,
}

impl Platform {
    /// Module sizes, bytes, sold for this platform's memory type and form factor
    /// (`modules.csv`), smallest first.
    pub fn module_sizes(&self, modules: &[modules::ModuleSize]) -> Vec<u64> {
        modules::sizes(modules, &self.memory, self.form_factor)
    }
}

/// A CPU model family and the platform it sits on: a CPU whose model name contains
/// `cpu_contains` (case ignored) takes that platform's memory (`cpus.csv`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CpuPlatform {
    /// Text the CPU's model name contains ("Threadripper PRO 5", "EPYC 9").
    pub cpu_contains: String,
    /// The platform's name in `platforms.csv`.
    pub platform: String,
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
    /// Cloud instance types.
    pub instances: Vec<instances::InstanceType>,
    /// Memory module sizes that exist.
    pub modules: Vec<modules::ModuleSize>,
    /// CPU families and their platforms.
    pub cpus: Vec<CpuPlatform>,
    /// Models people train and serve (`models.csv`).
    pub models: Vec<models::ModelEntry>,
    /// Diffusion pipelines and their components' rows (`pipelines.csv`).
    pub pipelines: Vec<pipelines::PipelineEntry>,
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
        instances: parse(
            "instances.csv",
            include_str!("../../assets/catalog/instances.csv"),
        ),
        modules: parse(
            "modules.csv",
            include_str!("../../assets/catalog/modules.csv"),
        ),
        cpus: parse("cpus.csv", include_str!("../../assets/catalog/cpus.csv")),
        models: models::parse(include_str!("../../assets/catalog/models.csv")),
        pipelines: pipelines::parse(include_str!("../../assets/catalog/pipelines.csv")),
    })
}

/// Lower-case letters and digits only: "RTX-3090" and "rtx_3090" compare equal.
fn normalise(s: &str) -> String {
    normalised(s).map(char::from).collect()
}

/// The bytes of [`normalise`]`(s)` without building the string: ASCII letters and digits,
/// lowercased (the filter keeps only ASCII, so ASCII lowercasing is the whole of it).
fn normalised(s: &str) -> impl Iterator<Item = u8> + '_ {
    s.bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_lowercase())
}

/// True when `s` normalises to `n` (already normalised): compared byte by byte, with no
/// allocation, since a lookup compares every catalogue row and alias.
fn same_name(s: &str, n: &str) -> bool {
    normalised(s).eq(n.bytes())
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
            .find(|g| same_name(&g.model, &n))
            .or_else(|| {
                self.gpus
                    .iter()
                    .find(|g| g.slurm_aliases.split(';').any(|a| same_name(a, &n)))
            })
    }

    /// The model a detected GPU is, from the name its driver reports ("NVIDIA H100 80GB HBM3")
    /// or a catalogue model name, ignoring case and punctuation. `detected_vram` (the driver's
    /// total) must be 90–100 % of the model's nominal memory, the share drivers report after
    /// their reservations (an H100 80GB shows 81,559 of 81,920 MiB, a T4 with ECC 15,109 of
    /// 16,384): one name can cover two memory sizes (GeForce RTX 3080 10 and 12 GB), and then
    /// the driver's figure decides. `None` when nothing matches.
    pub fn gpu_detected(&self, name: &str, detected_vram: Option<u64>) -> Option<&GpuModel> {
        let n = normalise(name);
        if n.is_empty() {
            return None;
        }
        let model = self.gpus.iter().find(|g| {
            same_name(&g.model, &n) || g.detected_names.split(';').any(|a| same_name(a, &n))
        })?;
        let nominal = (model.vram_gib << 30) as f64;
        match detected_vram {
            Some(v) if !model.unified_memory => {
                let share = v as f64 / nominal;
                (0.9..=1.0).contains(&share).then_some(model)
            }
            _ => Some(model),
        }
    }

    /// A memory type by name ("DDR5-5600").
    pub fn memory_type(&self, name: &str) -> Option<&MemoryType> {
        let n = normalise(name);
        self.memory.iter().find(|m| same_name(&m.name, &n))
    }

    /// A platform by name.
    pub fn platform(&self, name: &str) -> Option<&Platform> {
        self.platforms.iter().find(|p| p.platform == name)
    }

    /// The platform a CPU of model name `model` sits on, from the first `cpus.csv` row whose
    /// text it contains; `None` for a CPU the catalogue doesn't place (Intel Core 12th–14th
    /// generation boards take DDR4 or DDR5, so the CPU alone can't tell).
    pub fn platform_for_cpu(&self, model: &str) -> Option<&Platform> {
        let model = model.to_lowercase();
        self.cpus
            .iter()
            .find(|c| model.contains(&c.cpu_contains.to_lowercase()))
            .and_then(|c| self.platform(&c.platform))
    }

    /// A model by id, Hub id (its model part alone too) or alias, ignoring case.
    pub fn model(&self, name: &str) -> Option<&models::ModelEntry> {
        models::find(&self.models, name)
    }

    /// A diffusion pipeline by id, Hub id (its model part alone too) or alias, ignoring case.
    pub fn pipeline(&self, name: &str) -> Option<&pipelines::PipelineEntry> {
        pipelines::find(&self.pipelines, name)
    }

    /// A cloud instance type by name (case and Azure's `Standard_` prefix ignored).
    pub fn instance(&self, name: &str) -> Option<&instances::InstanceType> {
        instances::find(&self.instances, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_as_their_letters_and_digits_lowercased() {
        // Written out by hand: punctuation, spaces and non-ASCII letters drop out.
        assert_eq!(normalise("GeForce RTX-3090 24GB"), "geforcertx309024gb");
        assert_eq!(normalise("Ａ100 «x»"), "100x");
        for (a, b, same) in [
            ("rtx_3090", "RTX 3090", true),
            ("NVIDIA H100 80GB HBM3", "nvidia-h100-80gb-hbm3", true),
            ("A100", "A1000", false),
            ("", "", true),
            ("é", "", true),
        ] {
            assert_eq!(same_name(a, &normalise(b)), same, "{a} / {b}");
        }
    }

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
            // Every platform takes modules the catalogue sells: desktops (Intel's X299 Core
            // X-series among them) unbuffered, the rest registered (AMD, Intel platform
            // specifications).
            assert!(!p.module_sizes(&c.modules).is_empty(), "{}", p.platform);
            let desktop = p.platform.starts_with("Desktop") || p.platform.starts_with("Core X");
            let expected = if desktop {
                modules::FormFactor::Udimm
            } else {
                modules::FormFactor::Rdimm
            };
            assert_eq!(p.form_factor, expected, "{}", p.platform);
        }
    }

    #[test]
    fn cpus_name_platforms_that_exist() {
        let c = catalog();
        for row in &c.cpus {
            assert!(c.platform(&row.platform).is_some(), "{}", row.platform);
            assert!(!row.source.is_empty(), "{}", row.cpu_contains);
        }
        let of = |m: &str| {
            c.platform_for_cpu(m)
                .map(|p| (p.channels_per_socket, p.memory.as_str()))
        };
        // /proc/cpuinfo model names as Linux prints them.
        assert_eq!(
            of("AMD Ryzen Threadripper PRO 5955WX 16-Cores"),
            Some((8, "DDR4"))
        );
        assert_eq!(
            of("AMD Ryzen Threadripper PRO 7985WX 64-Cores"),
            Some((8, "DDR5"))
        );
        assert_eq!(
            of("AMD Ryzen Threadripper 7960X 24-Cores"),
            Some((4, "DDR5"))
        );
        assert_eq!(of("AMD EPYC 7742 64-Core Processor"), Some((8, "DDR4")));
        assert_eq!(of("AMD EPYC 9654 96-Core Processor"), Some((12, "DDR5")));
        assert_eq!(of("Intel(R) Xeon(R) Platinum 8480+"), Some((8, "DDR5")));
        assert_eq!(of("Intel(R) Xeon(R) w7-3465X"), Some((8, "DDR5")));
        assert_eq!(of("AMD Ryzen 9 7950X 16-Core Processor"), Some((2, "DDR5")));
        assert_eq!(of("AMD Ryzen 9 5950X 16-Core Processor"), Some((2, "DDR4")));
        // Core X-series (LGA2066, 4 DDR4 channels per ark.intel.com) share the i9-10 and i9-79
        // prefixes with the dual-channel desktops and Ryzen's "7900X".
        assert_eq!(
            of("Intel(R) Core(TM) i9-10980XE CPU @ 3.00GHz"),
            Some((4, "DDR4"))
        );
        assert_eq!(
            of("Intel(R) Core(TM) i9-7900X CPU @ 3.30GHz"),
            Some((4, "DDR4"))
        );
        assert_eq!(
            of("Intel(R) Core(TM) i9-10900K CPU @ 3.70GHz"),
            Some((2, "DDR4"))
        );
        assert_eq!(of("AMD Ryzen 9 7900X 12-Core Processor"), Some((2, "DDR5")));
        // LGA1700 boards take DDR4 or DDR5: the CPU can't tell.
        assert_eq!(of("12th Gen Intel(R) Core(TM) i9-12900K"), None);
        assert_eq!(of("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz"), None);
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
    fn detected_names_find_the_nominal_size_when_the_driver_total_agrees() {
        let c = catalog();
        // NVML reports an H100 SXM5 80GB as 81,559 MiB.
        let h100 = c.gpu_detected("NVIDIA H100 80GB HBM3", Some(81_559 << 20));
        assert_eq!(h100.unwrap().vram_gib, 80);
        // A GeForce RTX 3080 with 12,288 MiB is the 12 GB card, not the catalogue's 10 GB.
        assert!(
            c.gpu_detected("NVIDIA GeForce RTX 3080", Some(12_288 << 20))
                .is_none()
        );
        assert_eq!(
            c.gpu_detected("NVIDIA GeForce RTX 3080", Some(10_240 << 20))
                .unwrap()
                .vram_gib,
            10
        );
        // Profiles written by hand use the catalogue's model names.
        assert_eq!(c.gpu_detected("A10G 24GB", None).unwrap().vram_gib, 24);
        assert!(
            c.gpu_detected("NVIDIA GeForce GTX 1080", Some(8 << 30))
                .is_none()
        );
    }

    #[test]
    fn instances_have_sources_and_known_gpus() {
        let c = catalog();
        for i in &c.instances {
            assert!(!i.source.trim().is_empty(), "{}", i.instance_type);
            // Every figure cites the provider's own page (Azure's: the source of its
            // learn.microsoft.com size tables, github:MicrosoftDocs/azure-compute-docs).
            let page = match i.provider {
                crate::profile::CloudProvider::Aws => "aws.amazon.com/ec2/instance-types/",
                crate::profile::CloudProvider::Gcp => "cloud.google.com/",
                crate::profile::CloudProvider::Azure => "MicrosoftDocs/azure-compute-docs",
                _ => "",
            };
            assert!(
                !page.is_empty() && i.source.contains(page),
                "{}: {}",
                i.instance_type,
                i.source
            );
            assert!(
                c.gpu(&i.gpu_model).is_some(),
                "{}: {}",
                i.instance_type,
                i.gpu_model
            );
            assert!(
                i.gpu_count >= 1 && i.vcpus >= 1 && i.ram > 0,
                "{}",
                i.instance_type
            );
        }
        // The families the issue asks for, at least.
        for name in [
            "g4dn.xlarge",
            "g5.xlarge",
            "g6.xlarge",
            "p4d.24xlarge",
            "p5.48xlarge",
            "g2-standard-4",
            "a2-highgpu-1g",
            "a3-highgpu-8g",
            "NC4as_T4_v3",
            "Standard_NC24ads_A100_v4",
            "standard_nc40ads_h100_v5",
            "Standard_ND96asr_v4",
            "Standard_ND96isr_H100_v5",
        ] {
            assert!(c.instance(name).is_some(), "{name}");
        }
        // Units: AWS's 16 GiB is 16 × 2^30; Google's "85 GB" is JEDEC binary, 85 × 2^30.
        assert_eq!(c.instance("g5.xlarge").unwrap().ram_bytes(), 17_179_869_184);
        assert_eq!(
            c.instance("a2-highgpu-1g").unwrap().ram_bytes(),
            85 * 1_073_741_824
        );
        assert_eq!(c.instance("nonexistent.large"), None);
        assert_eq!(c.instance(""), None);
    }

    #[test]
    fn module_sizes_that_exist() {
        use modules::{FormFactor, sizes, soldered};
        let c = catalog();
        let gb = |v: Vec<u64>| v.into_iter().map(|b| b >> 30).collect::<Vec<_>>();
        // The list: DDR4 UDIMM 8/16/32; DDR5 UDIMM 8/16/24/32/48/64; RDIMM larger.
        assert_eq!(
            gb(sizes(&c.modules, "DDR4", FormFactor::Udimm)),
            [8, 16, 32]
        );
        assert_eq!(
            gb(sizes(&c.modules, "ddr5", FormFactor::Udimm)),
            [8, 16, 24, 32, 48, 64]
        );
        assert_eq!(
            gb(sizes(&c.modules, "DDR5", FormFactor::Rdimm)),
            [16, 32, 64, 128, 256]
        );
        assert!(!sizes(&c.modules, "DDR4", FormFactor::Udimm).contains(&(24 << 30)));
        assert!(soldered(&c.modules, "LPDDR5"));
        assert!(!soldered(&c.modules, "DDR5"));
        for m in &c.modules {
            assert!(
                !m.source.is_empty(),
                "{} {:?}",
                m.memory_type,
                m.form_factor
            );
            assert_eq!(m.size_gb.is_none(), m.form_factor == FormFactor::Soldered);
        }
    }

    #[test]
    fn quad_channel_ddr4_3200_is_102_4_gb_s() {
        // The seed article's example: 4 × 3200 MT/s × 8 B = 102.4 GB/s.
        let m = catalog().memory_type("DDR4-3200").unwrap();
        assert!((m.bandwidth_bytes_per_s(4) - 102.4e9).abs() < 1.0);
    }
}
