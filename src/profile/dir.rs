//! Reading a folder of profiles (one per machine, e.g. from a Slurm job step on every node).

use std::path::{Path, PathBuf};

use super::{LoadedProfile, ProfileError};

/// Profiles read from a folder, and the files that were not profiles.
#[derive(Debug, Default)]
pub struct ProfileDir {
    /// `*.json` files that are profiles, sorted by path.
    pub profiles: Vec<(PathBuf, LoadedProfile)>,
    /// Files skipped, with the reason.
    pub skipped: Vec<(PathBuf, Skip)>,
}

/// Why a file of a folder or a list is not in the Lab machines view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Its name does not end in `.json`.
    NotJson,
    /// It could not be read, or is not a valid profile.
    Error(ProfileError),
}

/// Reads every `*.json` file in `dir` (not recursing); other files are skipped with a reason.
/// A symbolic link is skipped, never followed: it could lead out of the folder (to a file only
/// root can read, when ramvram runs as root); a link to a profile inside the folder would only
/// repeat it.
///
/// # Errors
/// [`ProfileError::Read`] when the folder itself can't be listed.
pub fn load_dir(dir: &Path) -> Result<ProfileDir, ProfileError> {
    let entries = std::fs::read_dir(dir).map_err(|e| ProfileError::read(dir, &e))?;
    // The entry's own type (a link is not followed to see what it names).
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .map(|e| e.path())
        .collect();
    paths.sort();
    let mut out = ProfileDir::default();
    for path in paths {
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            out.skipped.push((path, Skip::NotJson));
            continue;
        }
        match super::io::load_profile_in_folder(&path) {
            Ok(p) => out.profiles.push((path, p)),
            Err(e) => out.skipped.push((path, Skip::Error(e))),
        }
    }
    Ok(out)
}
