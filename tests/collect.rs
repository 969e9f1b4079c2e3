//! `ramvram collect --slurm`: the printed srun lines, hostile node names, and `--run` with a
//! fake `srun` and `sinfo` on PATH (a node that answers with a profile, one that fails, one
//! that answers with something else), then the folder check.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ramvram(args: &[&str], path_prefix: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ramvram"));
    cmd.args(args)
        .env_remove("RAMVRAM_LANG")
        .env("LANG", "C.UTF-8");
    if let Some(dir) = path_prefix {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![dir.to_path_buf()];
        dirs.extend(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(dirs).unwrap());
    }
    cmd.output().unwrap()
}

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profiles/aws-g5.xlarge.json")
}

fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_printed_lines_skip_hostile_names_and_run_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("profiles");
    let out = ramvram(
        &[
            "collect",
            "--slurm",
            "--nodes",
            "gpu[01-02],../x,a;rm -rf /,b\nc",
            "--partition",
            "gpu",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        None,
    );
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert!(out.status.success(), "{stderr}");
    let sruns: Vec<&str> = stdout.lines().filter(|l| l.starts_with("srun ")).collect();
    assert_eq!(sruns.len(), 2, "{stdout}");
    assert!(sruns[0].contains("--nodelist=gpu01 --partition=gpu"));
    assert!(sruns[1].ends_with("/profiles/gpu02.json"), "{stdout}");
    assert!(!stdout.contains("rm -rf"), "{stdout}");
    assert!(!stdout.contains("../x"), "{stdout}");
    assert!(stderr.contains("../x: not a Slurm node name"), "{stderr}");
    assert!(
        stderr.contains("a;rm -rf /: not a Slurm node name"),
        "{stderr}"
    );
    // Nothing ran, nothing was created.
    assert!(!out_dir.exists());
}

#[test]
fn run_writes_one_profile_per_node_and_checks_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = dir.path().join("srun.log");
    // The fake srun: the node comes from --nodelist=…; gpu01 answers with a profile, gpu02
    // can't be allocated, gpu03 prints something that is not a profile.
    script(
        &bin,
        "srun",
        &format!(
            "echo \"$@\" >> '{}'\nfor a in \"$@\"; do case \"$a\" in --nodelist=*) n=\"${{a#--nodelist=}}\";; esac; done\n\
             case \"$n\" in gpu01) cat '{}';; gpu02) echo 'srun: error: Unable to allocate resources: Requested node configuration is not available' >&2; exit 1;; *) echo 'hello';; esac",
            log.display(),
            fixture().display()
        ),
    );
    // sinfo lists each node once per partition, and one name no scheduler would accept.
    script(
        &bin,
        "sinfo",
        "printf 'gpu01\\ngpu02\\ngpu01\\ngpu03\\n../../etc\\n'",
    );
    let out_dir = dir.path().join("lab");
    let out = ramvram(
        &[
            "collect",
            "--slurm",
            "--run",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        Some(&bin),
    );
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    // Not every node answered: exit status 1, after writing what did.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let written: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(written, ["gpu01.json"]);
    assert_eq!(
        std::fs::read(out_dir.join("gpu01.json")).unwrap(),
        std::fs::read(fixture()).unwrap()
    );
    assert!(stderr.contains("gpu02: srun ended with"), "{stderr}");
    assert!(stderr.contains("Unable to allocate resources"), "{stderr}");
    assert!(
        stderr.contains("gpu03: its output is not a profile"),
        "{stderr}"
    );
    assert!(
        stderr.contains("../../etc: not a Slurm node name"),
        "{stderr}"
    );
    assert!(stderr.contains("1 of 3 nodes collected"), "{stderr}");
    // The folder check: the lab view's table of what is there.
    assert!(stdout.contains("RAM : VRAM"), "{stdout}");
    // The header and one machine (a row's wrapped cells continue on lines that start blank).
    let starts = stdout
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' '))
        .count();
    assert_eq!(starts, 2, "{stdout}");
    // Each srun asked for one node, exclusively, with the program's detect --json.
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(calls.lines().count(), 3, "{calls}");
    assert!(
        calls
            .lines()
            .all(|l| l.contains("--exclusive") && l.ends_with("ramvram detect --json"))
    );
}
