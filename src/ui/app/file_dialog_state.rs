//! What a file dialog is for, and the dialogs' state the window keeps: which backend, and the
//! in-window path field while it is open.

use crate::ui::file_dialog::Backend;
use crate::ui::path_prompt::PathPrompt;

/// What a file dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Open a profile and show it.
    OpenProfile,
    /// Write the report with the export dialog's choices.
    ExportReport,
    /// Add profile files to the lab.
    AddProfiles,
    /// Add a folder of profiles to the lab.
    AddFolder,
    /// Add a Slurm inventory's nodes to the lab.
    ImportSlurm,
    /// Write the lab comparison.
    ExportFleet,
    /// Load a scenario's workload and training plan.
    OpenScenario,
    /// Save the workload and training plan.
    SaveScenario,
    /// Read `dmidecode -t memory` output.
    OpenDmidecode,
    /// Save the profile on screen.
    SaveProfile,
    /// Open a recorded trace on the Monitor page.
    OpenTrace,
    /// Scan a dataset folder for the workload.
    OpenDataset,
    /// Read a model file for the training planner.
    OpenModelFile,
    /// Read a Hugging Face model folder for the training planner.
    OpenModelFolder,
    /// Read the lab's price list for the lab's order.
    OpenPrices,
}

/// The dialogs' state: which backend (found on first use) and the path field, while open.
#[derive(Clone, Debug, Default)]
pub struct FileDialogs {
    pub(super) backend: Option<Backend>,
    pub(super) prompt: Option<(Purpose, PathPrompt)>,
}

impl FileDialogs {
    /// The path field is open.
    pub fn prompting(&self) -> bool {
        self.prompt.is_some()
    }
}
