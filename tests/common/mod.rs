//! Shared test helpers.
#![allow(dead_code)]

use std::path::PathBuf;

use ramvram::profile::{MachineProfile, load_profile};

pub mod window;

/// Path of a fixture profile by its file stem.
pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/profiles")
        .join(format!("{name}.json"))
}

/// Loads a fixture profile by its file stem.
pub fn fixture(name: &str) -> MachineProfile {
    load_profile(&fixture_path(name))
        .unwrap_or_else(|e| panic!("{e:?}"))
        .profile
}

/// Every fixture profile's stem, sorted.
pub fn all_fixtures() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profiles");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.path()
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

pub const GIB: u64 = 1 << 30;

/// The `ramvram` binary with a known language: no `RAMVRAM_LANG`, a C.UTF-8 locale.
pub fn ramvram() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("ramvram").unwrap();
    cmd.env_remove("RAMVRAM_LANG")
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("COLUMNS");
    cmd
}

/// Runs `cmd`, which must succeed, and parses its standard output as JSON.
pub fn json_of(cmd: &mut assert_cmd::Command) -> serde_json::Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("valid JSON")
}
