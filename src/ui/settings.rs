//! Settings that outlive the window (the language and the Data loading page's scenario), kept
//! apart from runtime state.
//! A missing file means defaults; an unreadable or corrupt one means defaults and a notice.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::i18n::Lang;

/// Persisted settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The language chosen in the window; `None` follows the system.
    pub lang: Option<Lang>,
    /// The Data loading page's workload as last left; `None` starts from the seed's example.
    /// A saved workload that no longer validates is ignored, and one that doesn't parse (written
    /// by another version) is dropped without losing the other settings.
    #[serde(deserialize_with = "lenient_workload")]
    pub workload: Option<crate::advisor::workload::Workload>,
}

fn lenient_workload<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<crate::advisor::workload::Workload>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value(value).ok())
}

/// `$XDG_CONFIG_HOME/ramvram/settings.json`, else `~/.config/ramvram/settings.json`
/// (`%APPDATA%\ramvram\settings.json` on Windows). `None` when no home is known.
pub fn path() -> Option<PathBuf> {
    let var = |v: &str| {
        std::env::var_os(v)
            .filter(|x| !x.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        var("APPDATA")
    } else {
        var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|h| h.join(".config")))
    };
    base.map(|b| b.join("ramvram").join("settings.json"))
}

/// Why settings could not be read or written: the file and the system's error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsProblem {
    /// The settings file.
    pub file: String,
    /// The error text.
    pub error: String,
    /// True for a failed write, false for a failed read.
    pub writing: bool,
}

impl Settings {
    /// Loads the settings; defaults plus a problem when the file exists but can't be used.
    pub fn load() -> (Settings, Option<SettingsProblem>) {
        let Some(path) = path() else {
            return (Settings::default(), None);
        };
        match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Settings::default(), None),
            Err(e) => (
                Settings::default(),
                Some(problem(&path, e.to_string(), false)),
            ),
            Ok(text) => match serde_json::from_str(&text) {
                Ok(s) => (s, None),
                Err(e) => (
                    Settings::default(),
                    Some(problem(&path, e.to_string(), false)),
                ),
            },
        }
    }

    /// Saves the settings atomically, creating the folder.
    ///
    /// # Errors
    /// The file and the system's error (read-only home, full disk).
    pub fn save(&self) -> Result<(), SettingsProblem> {
        let Some(path) = path() else { return Ok(()) };
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let text = serde_json::to_string_pretty(self).expect("settings serialise");
            crate::fsutil::write_atomic(&path, text.as_bytes())
        };
        write().map_err(|e| problem(&path, e.to_string(), true))
    }
}

fn problem(path: &std::path::Path, error: String, writing: bool) -> SettingsProblem {
    SettingsProblem {
        file: path.display().to_string(),
        error,
        writing,
    }
}
