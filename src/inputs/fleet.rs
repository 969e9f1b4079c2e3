//! Machines for the fleet view from files: profile files, a folder of them, a Slurm inventory.

use std::path::{Path, PathBuf};

use crate::advisor::fleet::{FleetInput, Origin};
use crate::import::slurm;
use crate::profile::dir::{Skip, load_dir};
use crate::profile::{MachineProfile, ProfileError, load_profile};

/// Files that were not profiles: (file as shown, why). Worded by `present::errors::skip`.
pub type SkippedFiles = Vec<(String, Skip)>;

fn from_loaded(path: &Path, profile: MachineProfile) -> FleetInput {
    let file = path.display().to_string();
    let label = profile.host.hostname.clone().unwrap_or_else(|| {
        path.file_stem()
            .map_or_else(|| file.clone(), |s| s.to_string_lossy().into_owned())
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
            Err(e) => skipped.push((path.display().to_string(), Skip::Error(e))),
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
        .map(|(p, r)| (p.display().to_string(), r))
        .collect();
    Ok((inputs, skipped))
}

/// Every node of a Slurm inventory (`scontrol show node --json`).
///
/// # Errors
/// The file and field of a read or parse error.
pub fn from_slurm(file: &Path) -> Result<Vec<FleetInput>, ProfileError> {
    let origin = Origin::Slurm(file.display().to_string());
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
