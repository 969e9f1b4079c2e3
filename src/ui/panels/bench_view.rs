//! What the Bandwidth and Data loading pages show about a benchmark in progress or just ended:
//! the state the window keeps between frames, apart from the pages that draw it.

/// What the page shows about a benchmark in progress or just ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchView {
    /// The running benchmark's description and progress (0–1), if one runs.
    pub running: Option<(String, f32)>,
    /// The last benchmark's error or "Cancelled.", if it did not produce a result.
    pub message: Option<String>,
    /// The folder typed for the storage benchmark.
    pub storage_folder: String,
    /// Memory type being entered.
    pub entry_type: String,
    /// Speed being entered, MT/s.
    pub entry_speed: u32,
    /// Channels being entered.
    pub entry_channels: u32,
    /// False when the shown profile is another machine's: the benchmarks would measure this
    /// computer, so they are disabled.
    pub can_measure: bool,
    /// Show the pipeline in samples/s (with a workload) instead of GB/s.
    pub per_sample: bool,
    /// The last JPEG decode measurement on this computer (shown on the Data loading page).
    pub decode: Option<crate::bench::decode::DecodeRate>,
}

impl BenchView {
    /// An empty view with a typical entry (dual-channel DDR4-3200) to start from.
    pub fn new() -> BenchView {
        BenchView {
            entry_type: "DDR4".into(),
            entry_speed: 3200,
            entry_channels: 2,
            ..BenchView::default()
        }
    }
}
