//! What the panels return: the page to show ([`Tab`]) and what the user asked for
//! ([`Command`]), applied by the app at the end of the frame.

use std::path::PathBuf;

use crate::advisor::training::TrainingPlan;
use crate::i18n::Lang;

/// The window's pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tab {
    /// The machine: verdict, ratio, rules, findings.
    #[default]
    Machine,
    /// The training-memory planner.
    Training,
    /// Memory, PCIe and storage bandwidth and the data pipeline.
    Bandwidth,
    /// The workload simulator (data loading).
    Workload,
    /// Several machines side by side, and planned ones.
    Fleet,
    /// Live diagnosis: watch this machine or open a recorded trace.
    Monitor,
}

/// What the user asked for; applied by the app at the end of the frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Switch the language.
    SetLang(Lang),
    /// Show a file dialog and open the chosen profile.
    OpenProfileDialog,
    /// Open this profile file.
    LoadProfile(PathBuf),
    /// Detect this machine again and show it.
    DetectThisMachine,
    /// Dismiss the message banner.
    DismissMessage,
    /// Show another page.
    SetTab(Tab),
    /// Use this training plan (and include it in the assessment: the user set it up).
    SetPlan(TrainingPlan),
    /// Include the training plan in the assessment and the report, or leave it out.
    IncludeTraining(bool),
    /// Include the workload in the assessment and the report, or leave it out.
    IncludeWorkload(bool),
    /// Show the export dialog.
    OpenExport,
    /// Close the export dialog.
    CloseExport,
    /// Ask for a file name, then export.
    ChooseExportFile,
    /// Export the report to this file with the dialog's choices.
    ExportTo(PathBuf),
    /// Show the folder holding this file in the file manager.
    RevealFile(PathBuf),
    /// Pick profile files for the fleet.
    AddProfilesDialog,
    /// Pick a folder of profiles for the fleet.
    AddFolderDialog,
    /// Pick a Slurm inventory for the fleet.
    ImportSlurmDialog,
    /// Add these profile files to the fleet.
    AddFleetFiles(Vec<PathBuf>),
    /// Add a planned machine to the fleet.
    AddPlanned(crate::catalog::planner::PlannedMachine),
    /// Empty the fleet.
    ClearFleet,
    /// Show one fleet machine's full assessment.
    ShowFleetMachine(usize),
    /// Sort the fleet table by this column (again: reverse).
    SortFleet(usize),
    /// Larger text and charts for a projector.
    ToggleMeetingMode,
    /// Pick a file and export the fleet comparison.
    ExportFleetDialog,
    /// Pick the lab's price list (CSV `item,price,currency`) for the lab's order.
    OpenPricesDialog,
    /// Price the lab's order with the typical prices again.
    UseTypicalPrices,
    /// Use this workload (and include it in the assessment: the user set it up).
    SetWorkload(crate::advisor::workload::Workload),
    /// Pick a scenario file and load its workload and training plan.
    OpenScenarioDialog,
    /// Pick a dataset folder and set the workload from its scan.
    OpenDatasetDialog,
    /// Pick a model file (`.safetensors`, `.gguf`) and plan for it.
    OpenModelFileDialog,
    /// Pick a Hugging Face model folder and plan for it.
    OpenModelFolderDialog,
    /// Save the workload and training plan as a scenario file.
    SaveScenarioDialog,
    /// Run the memory bandwidth benchmark in the background.
    StartMemoryBench,
    /// Measure JPEG decode speed at the workload's resolution.
    StartDecodeBench,
    /// Run the storage benchmark in this folder in the background.
    StartStorageBench(PathBuf),
    /// Cancel the running benchmark.
    CancelBench,
    /// Use this memory configuration, typed by the user.
    SetMemoryConfig {
        /// `DDR4`, `DDR5`, …
        memory_type: String,
        /// MT/s.
        speed_mts: u32,
        /// Populated channels.
        channels: u32,
    },
    /// Pick a file with `dmidecode -t memory` output and use its modules.
    OpenDmidecodeDialog,
    /// Save the shown profile (with its measurements) to a file the user picks.
    SaveProfileDialog,
    /// Start watching this machine, or the process with this PID (the field's text; empty for
    /// the whole machine).
    StartWatch(String),
    /// Stop watching.
    StopWatch,
    /// Pick a trace file and open it on the Monitor page.
    OpenTraceDialog,
    /// Open this trace file on the Monitor page.
    OpenTrace(PathBuf),
    /// Show or hide the Monitor page's "From Prometheus…" form.
    TogglePrometheus,
    /// Ask the form's Prometheus server for its nodes.
    ListPrometheusNodes,
    /// Fetch the form's node and range from Prometheus.
    FetchPrometheus,
}
