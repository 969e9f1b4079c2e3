//! Memory modules, and what the benchmarks measured: additive parts of the profile format
//! (`docs/profile.md`). Every field has a serde default, so profiles written before these
//! fields existed still load.

use serde::{Deserialize, Serialize};

/// One memory module (an SMBIOS type 17 "Memory Device" that holds a module).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dimm {
    /// Slot name, e.g. `"DIMM_A1"`, `"ChannelA-DIMM0"`, `"CPU1_DIMM_B2"`.
    #[serde(default)]
    pub locator: Option<String>,
    /// Bank name, e.g. `"BANK 0"`, `"P0 CHANNEL A"`, `"P0_Node0_Channel1_Dimm0"`.
    #[serde(default)]
    pub bank_locator: Option<String>,
    /// Module size in bytes (SMBIOS "16 GB" is 16 GiB).
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// Memory type as SMBIOS names it: `"DDR4"`, `"DDR5"`, `"LPDDR5"`, `"HBM2"`, …
    #[serde(default)]
    pub memory_type: Option<String>,
    /// The module's rated speed, MT/s.
    #[serde(default)]
    pub speed_mts: Option<u32>,
    /// The speed the memory controller runs it at, MT/s (lower than rated when XMP/EXPO is off
    /// or the controller can't go faster).
    #[serde(default)]
    pub configured_speed_mts: Option<u32>,
    /// Data bus width in bits, without ECC bits (64 for a DDR4/DDR5 DIMM; 16 or 32 for a
    /// soldered LPDDR channel).
    #[serde(default)]
    pub data_width_bits: Option<u32>,
    /// `"DIMM"`, `"SODIMM"`, `"Row Of Chips"` (soldered), …
    #[serde(default)]
    pub form_factor: Option<String>,
    /// Manufacturer's part number.
    #[serde(default)]
    pub part_number: Option<String>,
    /// True for a registered (buffered) module (RDIMM, LRDIMM), false for an unbuffered one
    /// (UDIMM, SODIMM): SMBIOS "Type Detail"; `None` when not reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registered: Option<bool>,
}

impl Dimm {
    /// The speed it runs at: configured speed, else rated speed.
    pub fn effective_speed_mts(&self) -> Option<u32> {
        self.configured_speed_mts.or(self.speed_mts)
    }
}

/// What the benchmarks measured on this machine. Empty in a fresh `detect`; filled by
/// `ramvram bench …` in the window and kept when the profile is saved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measurements {
    /// The STREAM-style memory benchmark.
    #[serde(default)]
    pub memory_bandwidth: Option<MemoryBandwidth>,
    /// Storage benchmarks, one per folder measured (latest first).
    #[serde(default)]
    pub storage: Vec<StorageBandwidth>,
}

impl Measurements {
    /// True when nothing was measured (then the profile leaves `measurements` out).
    pub fn is_empty(&self) -> bool {
        self.memory_bandwidth.is_none() && self.storage.is_empty()
    }
}

/// STREAM-style memory bandwidth: best of the timed repetitions per kernel, in bytes/s
/// (10^9 bytes/s = 1 GB/s), counted as STREAM counts (Copy and Scale 16 bytes per element,
/// Add and Triad 24).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryBandwidth {
    /// `c[i] = a[i]`.
    pub copy_bytes_per_s: f64,
    /// `b[i] = q·c[i]`.
    pub scale_bytes_per_s: f64,
    /// `c[i] = a[i] + b[i]`.
    pub add_bytes_per_s: f64,
    /// `a[i] = b[i] + q·c[i]`.
    pub triad_bytes_per_s: f64,
    /// Worker threads (one per CPU this process may run on).
    pub threads: u32,
    /// True when every thread could be pinned to its own CPU.
    pub pinned: bool,
    /// Bytes per array (three arrays are used).
    pub array_bytes: u64,
    /// Timed repetitions (the first, warm-up, pass is not counted).
    pub repetitions: u32,
    /// Largest (slowest − fastest) / fastest time over the kernels: 0.05 means the repetitions
    /// differed by 5 %.
    pub spread: f64,
    /// True when `spread` exceeds 10 % (the machine was busy, the figures are less certain),
    /// or when only one timed pass fit in the time budget (steadiness can't be judged).
    pub noisy: bool,
    /// The program that measured, e.g. `"ramvram 0.1.0"`.
    #[serde(default)]
    pub tool: Option<String>,
}

/// One storage benchmark on one folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StorageBandwidth {
    /// The folder measured.
    pub path: String,
    /// Sequential read with large blocks, bytes/s.
    pub sequential_read_bytes_per_s: Option<f64>,
    /// True when the sequential read bypassed the page cache (`O_DIRECT`); false when the file
    /// system refused it and the figure may include the page cache.
    pub direct_io: bool,
    /// Bytes read sequentially.
    pub sequential_bytes: u64,
    /// Small-file random read: 4 KiB reads per second at random offsets (each read stands for
    /// one small file, the "many small files" case).
    pub random_read_files_per_s: Option<f64>,
    /// The same reads in bytes/s.
    pub random_read_bytes_per_s: Option<f64>,
    /// True when the random reads bypassed the page cache.
    #[serde(default)]
    pub random_direct_io: bool,
    /// The program that measured.
    #[serde(default)]
    pub tool: Option<String>,
}
