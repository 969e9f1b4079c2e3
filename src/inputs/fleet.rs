//! Machines for the fleet view from files: profile files, a folder of them, a Slurm inventory.

use std::path::{Path, PathBuf};

use crate::advisor::fleet::{FleetInput, Origin};
use crate::import::slurm;
use crate::profile::dir::{Skip, load_dir};
use crate::profile::{MachineProfile, ProfileError, load_profile};

/// Files that were not profiles: (file as shown, why). Worded by `present::errors::skip`.
pub type SkippedFiles = Vec<(String, Skip)>;

/// A file's name as every view shows it: on one line, line breaks and control characters
/// escaped ([`crate::sanitize::one_line`]); a file name is hostile text too.
pub fn shown(path: &Path) -> String {
    crate::sanitize::one_line(&path.display().to_string()).into_owned()
}

fn from_loaded(path: &Path, profile: MachineProfile) -> FleetInput {
    let file = shown(path);
    let label = profile.host.hostname.clone().unwrap_or_else(|| {
        path.file_stem().map_or_else(
            || file.clone(),
            |s| crate::sanitize::one_line(&s.to_string_lossy()).into_owned(),
        )
    });
    (label, Origin::File(file), profile, Vec::new())
}

/// Profile files; those that can't be read are skipped with the reason.
pub fn from_files(paths: &[PathBuf]) -> (Vec<FleetInput>, SkippedFiles) {
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    for path in paths {
        match load_profile(path) {
            Ok(p) => inputs.push(from_loaded(path, p.profile)),
            Err(e) => skipped.push((shown(path), Skip::Error(e))),
        }
    }
    (inputs, skipped)
}

/// Every profile in a folder.
///
/// # Errors
/// The folder can't be listed.
pub fn from_dir(dir: &Path) -> Result<(Vec<FleetInput>, SkippedFiles), ProfileError> {
    let loaded = load_dir(dir)?;
    let inputs = loaded
        .profiles
        .into_iter()
        .map(|(path, p)| from_loaded(&path, p.profile))
        .collect();
    let skipped = loaded
        .skipped
        .into_iter()
        .map(|(p, r)| (shown(&p), r))
        .collect();
    Ok((inputs, skipped))
}

/// Every node of a Slurm inventory (`scontrol show node --json`).
///
/// # Errors
/// The file and field of a read or parse error.
pub fn from_slurm(file: &Path) -> Result<Vec<FleetInput>, ProfileError> {
    let origin = Origin::Slurm(shown(file));
    Ok(slurm::import(file)?
        .into_iter()
        .map(|p| {
            (
                p.host.hostname.clone().unwrap_or_default(),
                origin.clone(),
                p,
                Vec::new(),
            )
        })
        .collect())
}
