//! The messages the banner under the toolbar shows.

use std::path::PathBuf;

use crate::ui::settings::SettingsProblem;

/// A message banner under the toolbar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A profile could not be opened: the error names the file and field.
    LoadFailed(crate::profile::ProfileError),
    /// A scenario could not be opened: the error names the file and field.
    ScenarioFailed(crate::inputs::scenario::ScenarioError),
    /// A profile had fields this version does not know.
    IgnoredFields(Vec<String>),
    /// A profile was written by a newer ramvram (its `schema_version`).
    NewerSchema(u32),
    /// Settings could not be read or saved.
    Settings(SettingsProblem),
    /// A report was written here.
    Exported(PathBuf),
    /// A report could not be written: the path and the system's reason.
    ExportFailed(String),
    /// A price list could not be used: the file, the line and the field, worded.
    PricesFailed(String),
    /// Detection stopped with an internal error (a panic on its thread): the error's text.
    DetectionFailed(String),
    /// A dataset folder was scanned: what it holds (shown as information).
    DatasetScanned(Box<crate::inputs::dataset::DatasetScan>),
    /// A dataset folder could not be scanned: the folder and why.
    DatasetFailed(PathBuf, crate::fsutil::IoProblem),
    /// A model file or folder could not be read: the error names the file.
    ModelFailed(crate::inputs::model_files::ModelFileError),
}
