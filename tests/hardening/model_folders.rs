//! Issue 37: `--model DIR` on a folder another user owns. Everything inside is looked up by
//! name relative to the open folder; a symbolic link is followed only to a regular file owned
//! by the owner of a folder only that owner can write (otherwise refused by its name), a FIFO
//! is refused without waiting on it, and nothing of a file behind a refused name (its bytes, its size, its
//! first 8 bytes read as a "header length", its `model_type`) is ever shown.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use ramvram::fsutil::{InputProblem, IoProblem};
use ramvram::inputs::model_files::{ModelProblem, read};

use super::{NOBODY, chmod, common, is_root, mkfifo};

/// The size of the victim file: a figure no real file here has.
const VICTIM_LEN: usize = 424_242;

/// A root-only JSON file outside the folder, shaped like a config so that a reader that
/// followed a link to it would show its `model_type`.
fn victim(dir: &Path) -> PathBuf {
    let mut v = br#"{"model_type": "TOPSECRETTYPE", "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "vocab_size": 100}"#
        .to_vec();
    v.resize(VICTIM_LEN, b' ');
    let p = dir.join("victim.json");
    std::fs::write(&p, &v).unwrap();
    chmod(&p, 0o600);
    p
}

/// What of the victim must never appear: its words, its size, and its first 8 bytes as the
/// little-endian "safetensors header length" the old reader printed.
fn victim_values(victim: &Path) -> Vec<String> {
    let bytes = std::fs::read(victim).unwrap();
    let first = u64::from_le_bytes(bytes[..8].try_into().unwrap());
    vec![
        "TOPSECRET".into(),
        VICTIM_LEN.to_string(),
        "424,242".into(),
        first.to_string(),
        ramvram::format::thousands(first),
    ]
}

fn assert_clean(text: &str, values: &[String]) {
    for v in values {
        assert!(
            !text.contains(v.as_str()),
            "`{v}` of the victim shown: {text}"
        );
    }
}

/// A one-shard model: config.json and model.safetensors (one BF16 tensor of 2 × 2).
fn tiny_model(dir: &Path) {
    std::fs::write(
        dir.join("config.json"),
        r#"{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "vocab_size": 100}"#,
    )
    .unwrap();
    let h = r#"{"w":{"dtype":"BF16","shape":[2,2],"data_offsets":[0,8]}}"#;
    let mut v = (h.len() as u64).to_le_bytes().to_vec();
    v.extend_from_slice(h.as_bytes());
    v.extend_from_slice(&[0u8; 8]);
    std::fs::write(dir.join("model.safetensors"), v).unwrap();
    std::fs::write(dir.join("pytorch_model.bin"), [0u8; 7]).unwrap();
}

fn problem_of(path: &Path) -> Option<ModelProblem> {
    read(path).err().map(|e| e.problem)
}

/// Each file of the folder swapped for a link to something that is not a regular file (a
/// FIFO, `/dev/zero`, a folder) or to nothing is refused by its name, in both languages,
/// without waiting on the FIFO. (A link to a regular file its owner owns is followed, as a
/// Hugging Face hub snapshot needs; links another user planted to root's files are refused:
/// [`as_root_links_nobody_planted_are_followed_only_to_nobodys_own_files`].)
#[test]
fn a_model_folder_refuses_links_inside_to_anything_but_a_regular_file() {
    let root = tempfile::tempdir().unwrap();
    let fifo = root.path().join("fifo");
    mkfifo(&fifo);
    let dir = root.path().join("model");
    std::fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o755);
    let targets = [
        fifo.clone(),
        PathBuf::from("/dev/zero"),
        root.path().to_path_buf(),
        root.path().join("missing"),
    ];
    for name in [
        "config.json",
        "model.safetensors",
        "pytorch_model.bin",
        "model.safetensors.index.json",
    ] {
        for target in &targets {
            tiny_model(&dir);
            let _ = std::fs::remove_file(dir.join(name));
            std::os::unix::fs::symlink(target, dir.join(name)).unwrap();
            assert_eq!(
                problem_of(&dir),
                Some(ModelProblem::Io(IoProblem::Input(InputProblem::Link))),
                "{name} → {}",
                target.display()
            );
            for (lang, words) in [("en", "symbolic link"), ("zh", "符号链接")] {
                let out = common::ramvram()
                    .args(["--lang", lang, "advise", "--inference", "vllm", "--model"])
                    .arg(&dir)
                    .timeout(Duration::from_secs(60))
                    .output()
                    .unwrap();
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "{err}");
                assert!(err.contains(name) && err.contains(words), "{err}");
                // Nothing of the target: not its name, nor where it is.
                for shown in ["fifo", "/dev/zero", "missing"] {
                    assert!(!err.contains(shown), "{err}");
                }
            }
            std::fs::remove_file(dir.join(name)).unwrap();
        }
    }
    // A FIFO in the folder itself: refused at once, not waited on.
    tiny_model(&dir);
    std::fs::remove_file(dir.join("config.json")).unwrap();
    mkfifo(&dir.join("config.json"));
    assert_eq!(
        problem_of(&dir),
        Some(ModelProblem::Io(IoProblem::Input(InputProblem::Fifo)))
    );
}

/// As root, on a folder `nobody` owns: `nobody`'s links to a root-only file and to a FIFO are
/// refused by name, with nothing of the file shown and no wait on the FIFO; `nobody`'s links to
/// files `nobody` owns, outside the folder, are followed (`nobody` could read those itself).
#[test]
fn as_root_links_nobody_planted_are_followed_only_to_nobodys_own_files() {
    if !is_root() {
        assert!(
            !std::env::var("RAMVRAM_REQUIRE_ROOT").is_ok_and(|v| v == "1"),
            "RAMVRAM_REQUIRE_ROOT=1 requires this test to run as root"
        );
        println!("skipped: needs root (set RAMVRAM_REQUIRE_ROOT=1 to fail instead)");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    chmod(root.path(), 0o755);
    let victim = victim(root.path());
    let values = victim_values(&victim);
    let fifo = root.path().join("fifo");
    mkfifo(&fifo);
    lchown(&fifo, NOBODY);
    // nobody's own model, outside the folder.
    let own = root.path().join("own");
    std::fs::create_dir(&own).unwrap();
    tiny_model(&own);
    for entry in std::fs::read_dir(&own).unwrap() {
        lchown(&entry.unwrap().path(), NOBODY);
    }
    let dir = root.path().join("model");
    std::fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o755);
    lchown(&dir, NOBODY);
    let plant = |name: &str, target: &Path| {
        let _ = std::fs::remove_file(dir.join(name));
        std::os::unix::fs::symlink(target, dir.join(name)).unwrap();
        lchown(&dir.join(name), NOBODY);
    };
    for name in ["config.json", "model.safetensors"] {
        for target in [&victim, &fifo] {
            for n in ["config.json", "model.safetensors"] {
                plant(n, &own.join(n));
            }
            plant(name, target);
            let (tx, rx) = mpsc::channel();
            let d = dir.clone();
            std::thread::spawn(move || {
                let _ = tx.send(read(&d).map(|r| format!("{r:?}")));
            });
            let r = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("the read waited on a FIFO");
            let e = r.unwrap_err();
            assert_eq!(
                e.problem,
                ModelProblem::Io(IoProblem::Input(InputProblem::Link)),
                "{name} → {}",
                target.display()
            );
            assert_clean(&format!("{e:?}"), &values);
            for lang in ["en", "zh"] {
                let out = common::ramvram()
                    .args(["--lang", lang, "advise", "--inference", "vllm", "--model"])
                    .arg(&dir)
                    .timeout(Duration::from_secs(60))
                    .output()
                    .unwrap();
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "killed or passed: {err}");
                assert!(err.contains(name), "{err}");
                assert_clean(&err, &values);
                assert_clean(&String::from_utf8_lossy(&out.stdout), &values);
            }
        }
    }
    // Both links to nobody's own files: followed, the model read whole (one BF16 tensor of
    // 2 × 2 = 4 parameters, 8 bytes; the config's model_type llama).
    for n in ["config.json", "model.safetensors"] {
        plant(n, &own.join(n));
    }
    let r = read(&dir).unwrap();
    let t = r.tensors.as_ref().unwrap();
    assert_eq!((t.params, t.weight_bytes), (4, 8));
    assert!(format!("{:?}", r.config).contains("llama"));
    // The same links in the folder made writable by its group: someone else could have
    // planted them, so they are refused.
    chmod(&dir, 0o775);
    assert_eq!(
        problem_of(&dir),
        Some(ModelProblem::Io(IoProblem::Input(InputProblem::Link)))
    );
    chmod(&dir, 0o755);
    assert!(read(&dir).is_ok());
    // The same file, shut even to its owner (mode 0o000): refused.
    chmod(&own.join("config.json"), 0o000);
    assert_eq!(
        problem_of(&dir),
        Some(ModelProblem::Io(IoProblem::Input(InputProblem::Link)))
    );
}

/// Renames `from` over `to` (atomic), as the attacker's swaps are.
fn swap_in(from: &Path, to: &Path) {
    let _ = std::fs::rename(from, to);
}

fn lchown(path: &Path, uid: u32) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    unsafe { libc::lchown(c.as_ptr(), uid, uid) };
}

/// As root, on a folder chowned to another user (`nobody`), while a thread swaps
/// `config.json` and the shard for links (owned by that user) to a root-only file and to a
/// FIFO, and for a FIFO, over and over: no read ever shows a value of the victim, and none
/// waits on a FIFO. CI runs this as root (`RAMVRAM_REQUIRE_ROOT=1` makes it fail rather than
/// skip when not root).
#[test]
fn as_root_links_swapped_in_during_reads_never_show_the_victim() {
    if !is_root() {
        assert!(
            !std::env::var("RAMVRAM_REQUIRE_ROOT").is_ok_and(|v| v == "1"),
            "RAMVRAM_REQUIRE_ROOT=1 requires this test to run as root"
        );
        println!("skipped: needs root (set RAMVRAM_REQUIRE_ROOT=1 to fail instead)");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    chmod(root.path(), 0o755);
    let victim = victim(root.path());
    let values = victim_values(&victim);
    let fifo = root.path().join("fifo");
    mkfifo(&fifo);
    let dir = root.path().join("model");
    std::fs::create_dir(&dir).unwrap();
    tiny_model(&dir);
    // The real files' spare names, which neither end in .safetensors nor .bin.
    std::fs::copy(dir.join("config.json"), dir.join(".config.real")).unwrap();
    std::fs::copy(dir.join("model.safetensors"), dir.join(".shard.real")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        lchown(&entry.unwrap().path(), NOBODY);
    }
    lchown(&dir, NOBODY);

    let stop = Arc::new(AtomicBool::new(false));
    let attacker = {
        let (dir, victim, fifo, stop) = (dir.clone(), victim.clone(), fifo.clone(), stop.clone());
        std::thread::spawn(move || {
            let tmp = dir.join(".swap");
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                for (name, real) in [
                    ("config.json", ".config.real"),
                    ("model.safetensors", ".shard.real"),
                ] {
                    let target = dir.join(name);
                    for outside in [&victim, &fifo] {
                        let _ = std::fs::remove_file(&tmp);
                        if std::os::unix::fs::symlink(outside, &tmp).is_ok() {
                            lchown(&tmp, NOBODY);
                            swap_in(&tmp, &target);
                        }
                        let _ = std::fs::remove_file(&tmp);
                        if std::fs::hard_link(dir.join(real), &tmp).is_ok() {
                            swap_in(&tmp, &target);
                        }
                    }
                    let _ = std::fs::remove_file(&tmp);
                    mkfifo_quiet(&tmp);
                    lchown(&tmp, NOBODY);
                    swap_in(&tmp, &target);
                    let _ = std::fs::remove_file(&tmp);
                    if std::fs::hard_link(dir.join(real), &tmp).is_ok() {
                        swap_in(&tmp, &target);
                    }
                    swaps += 4;
                }
            }
            swaps
        })
    };

    // The reads, in a thread of their own: a read waiting on a FIFO fails the test by the
    // deadline instead of hanging it.
    let (tx, rx) = mpsc::channel();
    let reader = {
        let dir = dir.clone();
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            let mut refused = 0u64;
            for _ in 0..3000 {
                let r = read(&dir);
                if r.is_err() {
                    refused += 1;
                }
                seen.push(format!("{r:?}"));
            }
            let _ = tx.send((seen, refused));
        })
    };
    let (seen, refused) = rx
        .recv_timeout(Duration::from_secs(300))
        .expect("3,000 reads did not finish in 300 s: a read is waiting on a FIFO");
    reader.join().unwrap();
    for text in &seen {
        assert_clean(text, &values);
    }
    assert!(
        refused > 0,
        "no read met a swapped name: the race never happened"
    );
    // The command line, during the same swaps: stdout and stderr carry nothing of the victim.
    for lang in ["en", "zh", "en", "zh", "en", "zh", "en", "zh"] {
        let out = common::ramvram()
            .args(["--lang", lang, "advise", "--inference", "vllm", "--model"])
            .arg(&dir)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(out.status.code().is_some(), "killed: waited on a FIFO?");
        assert_clean(&String::from_utf8_lossy(&out.stderr), &values);
        assert_clean(&String::from_utf8_lossy(&out.stdout), &values);
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = attacker.join().unwrap();
    assert!(swaps > 0);
    println!("3,000 reads beside {swaps} swaps: {refused} refused, none showed the victim");
}

fn mkfifo_quiet(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
}
