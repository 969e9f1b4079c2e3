//! Settings that outlive the window (the language, the Training and Data loading pages' inputs
//! and whether each is included in the report), kept
//! apart from runtime state.
//! A missing file means defaults; an unreadable or corrupt one means defaults and a notice, and a
//! corrupt one is kept as `settings.json.bad` rather than overwritten.

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
    #[serde(deserialize_with = "lenient")]
    pub workload: Option<crate::advisor::workload::Workload>,
    /// The Training page's plan as last left; `None` starts from the advisor's first plan. As
    /// for the workload, one that no longer estimates is ignored and one that doesn't parse is
    /// dropped.
    #[serde(deserialize_with = "lenient")]
    pub training: Option<crate::advisor::training::TrainingPlan>,
    /// The user ticked "Include this plan in the assessment and the report".
    pub include_training: bool,
    /// The user ticked "Include this workload in the assessment and the report".
    pub include_workload: bool,
}

/// A value written by another version that doesn't parse becomes `None`, keeping the rest.
fn lenient<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
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
    /// Where an unreadable file was kept (`settings.json.bad`), so that the user's settings
    /// can be recovered by hand; `None` when it was left in place.
    pub kept_as: Option<String>,
}

impl Settings {
    /// Loads the settings; defaults plus a problem when the file exists but can't be used.
    /// Only a regular file of at most [`crate::fsutil::MAX_SETTINGS_BYTES`] is read (a FIFO or
    /// `/dev/zero` there must not stop the window from opening). A file that is not valid
    /// settings is renamed to `settings.json.bad` (the notice says so) and nothing is written
    /// in its place until the user changes a setting.
    pub fn load() -> (Settings, Option<SettingsProblem>) {
        match path() {
            Some(path) => Settings::load_from(&path),
            None => (Settings::default(), None),
        }
    }

    /// [`Settings::load`] from `path`.
    pub fn load_from(path: &std::path::Path) -> (Settings, Option<SettingsProblem>) {
        let text = match crate::fsutil::read_input_string(path, crate::fsutil::MAX_SETTINGS_BYTES) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Settings::default(), None);
            }
            Err(e) => {
                let corrupt = e
                    .get_ref()
                    .and_then(|i| i.downcast_ref::<crate::fsutil::InputProblem>())
                    .is_some_and(|p| {
                        matches!(
                            p,
                            crate::fsutil::InputProblem::TooLarge(_)
                                | crate::fsutil::InputProblem::NotText
                        )
                    });
                let mut p = problem(path, e.to_string(), false);
                if corrupt {
                    p.kept_as = keep_bad_file(path);
                }
                return (Settings::default(), Some(p));
            }
            Ok(text) => text,
        };
        match serde_json::from_str(&text) {
            Ok(s) => (s, None),
            Err(e) => {
                let mut p = problem(path, e.to_string(), false);
                p.kept_as = keep_bad_file(path);
                (Settings::default(), Some(p))
            }
        }
    }

    /// Saves the settings atomically, creating the folder.
    ///
    /// # Errors
    /// The file and the system's error (read-only home, full disk).
    pub fn save(&self) -> Result<(), SettingsProblem> {
        let Some(path) = path() else { return Ok(()) };
        self.save_to(&path)
    }

    /// [`Settings::save`] to `path`.
    ///
    /// # Errors
    /// The file and the system's error.
    pub fn save_to(&self, path: &std::path::Path) -> Result<(), SettingsProblem> {
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let text = serde_json::to_string_pretty(self).expect("settings serialise");
            crate::fsutil::write_atomic(path, text.as_bytes())
        };
        write().map_err(|e| problem(path, e.to_string(), true))
    }
}

/// Renames a settings file that could not be used to `NAME.bad` (a regular file only);
/// returns the new name.
fn keep_bad_file(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut bad = path.as_os_str().to_owned();
    bad.push(".bad");
    let bad = PathBuf::from(bad);
    std::fs::rename(path, &bad).ok()?;
    Some(bad.display().to_string())
}

fn problem(path: &std::path::Path, error: String, writing: bool) -> SettingsProblem {
    SettingsProblem {
        file: path.display().to_string(),
        error,
        writing,
        kept_as: None,
    }
}
