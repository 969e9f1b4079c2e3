//! `ramvram collect --slurm`: one profile per node through the scheduler the lab already has.
//! Prints one `srun` line per node (nothing runs without `--run`); with `--run` runs them, up to
//! [`PARALLEL`] at once, checks that each node's output is a profile and writes it to
//! `DIR/NODE.json` through the one write path ([`crate::fsutil::write_atomic`]), then shows the
//! folder as the lab view does (`advise --profile-dir DIR`).
//!
//! Node names come from `--nodes` or from `sinfo`: a name that is not a Slurm node name
//! (letters, digits, `.`, `_`, `-`) is skipped, never put into a command line or a path.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{EXIT_BAD_INPUT, fail, print, say};
use crate::i18n::{Lang, Msg, trf};

/// The `srun`s running, each in a process group of its own, for a signal to reach them all
/// ([`super::child_group`]); elsewhere than Unix, a plain spawn.
#[cfg(unix)]
type Groups = super::child_group::Running;
#[cfg(not(unix))]
#[derive(Default)]
struct Groups {}
#[cfg(not(unix))]
impl Groups {
    fn spawn(&self, c: &mut Command) -> std::io::Result<std::process::Child> {
        c.spawn()
    }
    fn ended(&self, _: u32) {}
}

/// Nodes asked at once with `--run`: 8.
pub const PARALLEL: usize = 8;

/// Most nodes in one collection: 100,000 (a `gpu[1-99999999]` typo is refused, not expanded).
pub const MAX_NODES: usize = 100_000;

/// `ramvram collect` options.
#[derive(Debug, clap::Args)]
pub struct CollectArgs {
    /// Reach the nodes through Slurm (`srun`); the only way so far.
    #[arg(long, required = true)]
    pub slurm: bool,
    /// The folder for the profiles, one NODE.json per node.
    #[arg(long, value_name = "DIR", default_value = "profiles")]
    pub out: PathBuf,
    /// The partition to run in (srun --partition).
    #[arg(long, value_name = "PARTITION")]
    pub partition: Option<String>,
    /// The nodes: gpu01,gpu02 or gpu[01-08,10] (default: every node `sinfo` lists).
    #[arg(long, value_name = "LIST")]
    pub nodes: Option<String>,
    /// Run the srun lines (without it they are only printed).
    #[arg(long)]
    pub run: bool,
    /// The ramvram program on the nodes (default: `ramvram` on their PATH).
    #[arg(long, value_name = "PATH", default_value = "ramvram")]
    pub program: String,
}

/// A Slurm node name: 1–64 letters, digits, `.`, `_` or `-`, not starting with `-` or `.`.
pub fn valid_node_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with(['-', '.'])
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// The file name (without `.json`) for a node: characters outside `[A-Za-z0-9._-]` become `_`,
/// a leading `.` gets a `_` before it, at most 64 bytes; never empty, never a path.
pub fn file_stem(node: &str) -> String {
    let mut s: String = node
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        s.insert(0, '_');
    }
    s
}

/// A `--nodes` list that is not a Slurm host list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadNodeList;

/// Expands a Slurm host list: `gpu01,gpu02`, `gpu[01-04,07]`, `rack[1-2]-n[1-2]`; zero padding
/// is kept (`[08-10]` gives 08, 09, 10).
///
/// # Errors
/// Unbalanced brackets, a bad range, or more than [`MAX_NODES`] names.
pub fn expand_nodes(list: &str) -> Result<Vec<String>, BadNodeList> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            ']' => return Err(BadNodeList),
            ',' if depth == 0 => {
                expand_one(list[start..i].trim(), &mut out)?;
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(BadNodeList);
    }
    expand_one(list[start..].trim(), &mut out)?;
    Ok(out)
}

fn expand_one(item: &str, out: &mut Vec<String>) -> Result<(), BadNodeList> {
    if item.is_empty() {
        return Ok(());
    }
    let Some(open) = item.find('[') else {
        if out.len() >= MAX_NODES {
            return Err(BadNodeList);
        }
        out.push(item.to_string());
        return Ok(());
    };
    let close = item[open..].find(']').ok_or(BadNodeList)? + open;
    let (prefix, ranges, rest) = (&item[..open], &item[open + 1..close], &item[close + 1..]);
    for part in ranges.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (lo, hi) = (
            a.parse::<u64>().map_err(|_| BadNodeList)?,
            b.parse::<u64>().map_err(|_| BadNodeList)?,
        );
        if hi < lo || hi - lo >= MAX_NODES as u64 || a.is_empty() {
            return Err(BadNodeList);
        }
        let width = if a.starts_with('0') { a.len() } else { 0 };
        for n in lo..=hi {
            expand_one(&format!("{prefix}{n:0width$}{rest}"), out)?;
        }
    }
    Ok(())
}

/// The `srun` command for one node, as arguments: the whole node for five minutes
/// (`--exclusive --mem=0`, so that `detect` inside the job sees the node's CPUs and memory
/// rather than a one-CPU allocation), giving up after two minutes' wait for a busy node.
pub fn srun_argv(node: &str, partition: Option<&str>, program: &str) -> Vec<String> {
    let mut argv = vec![
        "srun".to_string(),
        "--nodes=1".into(),
        "--ntasks=1".into(),
        format!("--nodelist={node}"),
    ];
    if let Some(p) = partition {
        argv.push(format!("--partition={p}"));
    }
    argv.extend(
        [
            "--exclusive",
            "--mem=0",
            "--time=5",
            "--immediate=120",
            "--job-name=ramvram-detect",
        ]
        .map(String::from),
    );
    argv.extend([program.to_string(), "detect".into(), "--json".into()]);
    argv
}

/// A word for a POSIX shell: as it is when it has only safe characters, else in single quotes.
pub fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-/:=@%+,".contains(&b));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A folder as messages name it: without trailing slashes (`profiles/` → `profiles`), so that
/// `{dir}/NODE.json` reads `profiles/NODE.json`; the root stays `/`.
pub fn dir_text(dir: &Path) -> String {
    let text = dir.display().to_string();
    let trimmed = text.trim_end_matches('/');
    if trimmed.is_empty() && !text.is_empty() {
        "/".to_string()
    } else {
        trimmed.to_string()
    }
}

/// The script `collect` prints: comments, `mkdir -p DIR`, and per node an `srun` writing to
/// `DIR/NODE.json.part`, renamed to `DIR/NODE.json` when it succeeds.
pub fn script(
    lang: Lang,
    nodes: &[String],
    dir: &Path,
    partition: Option<&str>,
    program: &str,
) -> String {
    let d = dir_text(dir);
    // The comments are shell text too: the folder quoted, control characters as `?` (a
    // newline in it must not end the comment), code spans without their backticks.
    let comment = |msg| {
        let dir = shell_quote(&d).replace(|c: char| c.is_control(), "?");
        crate::codespan::plain(&trf(lang, msg, &[("dir", &dir)]))
    };
    let mut out = comment(Msg::ClusterCollectScriptIntro) + "\n";
    out.push_str(&format!("mkdir -p -- {}\n", shell_quote(&d)));
    for node in nodes {
        let argv: Vec<String> = srun_argv(node, partition, program)
            .iter()
            .map(|a| shell_quote(a))
            .collect();
        let target = dir.join(format!("{}.json", file_stem(node)));
        let t = target.display().to_string();
        let part = shell_quote(&format!("{t}.part"));
        out.push_str(&format!(
            "{} > {part} && mv -f -- {part} {}\n",
            argv.join(" "),
            shell_quote(&t)
        ));
    }
    out.push_str(&comment(Msg::ClusterCollectScriptCheck));
    out.push('\n');
    out
}

/// The nodes asked for, valid names only (the others named on standard error).
fn nodes(lang: Lang, args: &CollectArgs) -> Result<Vec<String>, String> {
    let names = match &args.nodes {
        Some(list) => expand_nodes(list)
            .map_err(|_| trf(lang, Msg::ClusterCollectBadNodes, &[("value", list)]))?,
        None => {
            let mut cmd = Command::new("sinfo");
            cmd.args(["--noheader", "--Node", "--format=%N"]);
            if let Some(p) = &args.partition {
                cmd.arg(format!("--partition={p}"));
            }
            let out = cmd
                .stdin(Stdio::null())
                .output()
                .map_err(|e| e.to_string())
                .and_then(|o| {
                    if o.status.success() {
                        Ok(o.stdout)
                    } else {
                        Err(String::from_utf8_lossy(&o.stderr).trim().to_string())
                    }
                })
                .map_err(|e| trf(lang, Msg::ClusterCollectSinfoFailed, &[("error", &e)]))?;
            let text = String::from_utf8_lossy(&out);
            let mut v: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
            v.sort();
            v.dedup();
            v.truncate(MAX_NODES);
            v
        }
    };
    let mut valid = Vec::new();
    // Names seen, for a de-duplication linear in the number of nodes.
    let mut seen = std::collections::HashSet::new();
    for name in names.into_iter().filter(|n| !n.is_empty()) {
        if valid_node_name(&name) {
            if seen.insert(name.clone()) {
                valid.push(name);
            }
        } else {
            say(&format!(
                "ramvram: {}",
                trf(lang, Msg::ClusterCollectSkippedNode, &[("node", &name)])
            ));
        }
    }
    if valid.is_empty() {
        return Err(crate::i18n::tr(lang, Msg::ClusterCollectNoNodes).to_string());
    }
    Ok(valid)
}

/// `ramvram collect --slurm …`.
pub(super) fn collect(lang: Lang, args: &CollectArgs) -> ExitCode {
    if let Some(p) = &args.partition {
        if !valid_node_name(p) {
            return fail(
                lang,
                EXIT_BAD_INPUT,
                &format!("--partition {}", shell_quote(p)),
            );
        }
    }
    let nodes = match nodes(lang, args) {
        Ok(n) => n,
        Err(e) => return fail(lang, EXIT_BAD_INPUT, &e),
    };
    let partition = args.partition.as_deref();
    if !args.run {
        return print(&script(lang, &nodes, &args.out, partition, &args.program));
    }
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        return fail(
            lang,
            super::EXIT_OUTPUT_FAILED,
            &crate::present::errors::write_failed(lang, &args.out, &e),
        );
    }
    // SIGINT, SIGTERM or SIGHUP: no more sruns start, the signal goes to every srun's group,
    // which has 10 s to end before it is killed; then ramvram exits 128 + the signal.
    super::interrupt::catch_interrupts();
    let interrupted = || super::interrupt::INTERRUPTED.load(Ordering::Relaxed);
    let groups = Groups::default();
    let next = AtomicUsize::new(0);
    let done = Mutex::new(0usize);
    let workers = PARALLEL.min(nodes.len());
    let finished = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        #[cfg(unix)]
        scope.spawn(|| {
            while finished.load(Ordering::Relaxed) < workers {
                if let Some(sig) = super::interrupt::interrupting_signal() {
                    super::child_group::end_groups(&groups.close(), sig, &mut || {});
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        });
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(node) = nodes
                    .get(next.fetch_add(1, Ordering::Relaxed))
                    .filter(|_| !interrupted())
                {
                    let argv = srun_argv(node, partition, &args.program);
                    let file = args.out.join(format!("{}.json", file_stem(node)));
                    match one(lang, &argv, &file, &groups) {
                        Ok(()) => {
                            let f = file.display().to_string();
                            say(&trf(
                                lang,
                                Msg::ClusterCollectWrote,
                                &[("node", node), ("file", &f)],
                            ));
                            *done.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                        }
                        Err(e) => say(&format!(
                            "ramvram: {}",
                            trf(
                                lang,
                                Msg::ClusterCollectFailed,
                                &[("node", node), ("error", &e)]
                            )
                        )),
                    }
                }
                finished.fetch_add(1, Ordering::Relaxed);
            });
        }
    });
    if let Some(sig) = super::interrupt::interrupting_signal() {
        let signal = sig.to_string();
        say(&trf(
            lang,
            Msg::ClusterCollectInterrupted,
            &[("signal", &signal)],
        ));
        return ExitCode::from(128 + sig as u8);
    }
    let ok = *done.lock().unwrap_or_else(|e| e.into_inner());
    say(&trf(
        lang,
        Msg::ClusterCollectSummary,
        &[
            ("ok", &ok.to_string()),
            ("total", &nodes.len().to_string()),
            ("dir", &dir_text(&args.out)),
        ],
    ));
    // The folder check the lab view does: every profile in DIR side by side, files that are
    // not profiles named with the reason.
    let table = super::fleet::print_table(lang, Some(&args.out), None, None);
    if ok == nodes.len() {
        table
    } else {
        ExitCode::from(super::EXIT_OUTPUT_FAILED)
    }
}

/// Runs one node's `srun`, checks its output is a profile, writes it to `file`.
fn one(lang: Lang, argv: &[String], file: &Path, groups: &Groups) -> Result<(), String> {
    let mut child = groups
        .spawn(
            Command::new(&argv[0])
                .args(&argv[1..])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|e| format!("{}: {e}", argv[0]))?;
    let cap = crate::fsutil::MAX_INPUT_BYTES;
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let (out_pipe, err_pipe) = (child.stdout.take(), child.stderr.take());
    std::thread::scope(|s| {
        s.spawn(|| {
            if let Some(p) = err_pipe {
                let _ = p.take(64 * 1024).read_to_end(&mut stderr);
            }
        });
        if let Some(p) = out_pipe {
            let _ = p.take(cap + 1).read_to_end(&mut stdout);
        }
    });
    let status = child.wait().map_err(|e| e.to_string());
    groups.ended(child.id());
    let status = status?;
    if !status.success() {
        let text = String::from_utf8_lossy(&stderr);
        let last = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(trf(
            lang,
            Msg::ClusterCollectExitStatus,
            &[("status", &status.to_string()), ("stderr", last.trim())],
        ));
    }
    let text = String::from_utf8(stdout).map_err(|e| e.to_string())?;
    if text.len() as u64 > cap {
        return Err(format!("more than {} MiB of output", cap >> 20));
    }
    crate::profile::parse_profile(&text, file).map_err(|e| {
        let error = crate::present::errors::profile_error(lang, &e);
        trf(lang, Msg::ClusterCollectNotProfile, &[("error", &error)])
    })?;
    crate::fsutil::write_atomic(file, text.as_bytes())
        .map_err(|e| crate::present::errors::write_failed(lang, file, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_node_names_are_refused_and_their_files_stay_in_the_folder() {
        for bad in [
            "../x",
            "a;rm -rf /",
            "gpu01\nrm -rf /",
            "-w",
            ".hidden",
            "",
            "a b",
            "é",
        ] {
            assert!(!valid_node_name(bad), "{bad:?}");
        }
        for good in ["gpu01", "node-7.lab", "a_b"] {
            assert!(valid_node_name(good), "{good}");
        }
        assert_eq!(file_stem("../x"), "_.._x");
        assert_eq!(file_stem("a;rm -rf /"), "a_rm_-rf__");
        assert_eq!(file_stem("gpu01\nx"), "gpu01_x");
        assert_eq!(file_stem(".."), "_..");
        assert_eq!(file_stem(""), "_");
        for name in ["../x", "a;rm -rf /", "/etc/passwd", "..", "a/../../b"] {
            let path = Path::new("profiles").join(format!("{}.json", file_stem(name)));
            assert_eq!(path.parent(), Some(Path::new("profiles")), "{name}");
        }
    }

    #[test]
    fn host_lists_expand() {
        assert_eq!(expand_nodes("gpu01,gpu02").unwrap(), ["gpu01", "gpu02"]);
        assert_eq!(
            expand_nodes("gpu[08-10,12]").unwrap(),
            ["gpu08", "gpu09", "gpu10", "gpu12"]
        );
        assert_eq!(
            expand_nodes("r[1-2]-n[1-2], cpu1").unwrap(),
            ["r1-n1", "r1-n2", "r2-n1", "r2-n2", "cpu1"]
        );
        for bad in [
            "gpu[1-",
            "gpu]1[",
            "gpu[a-b]",
            "gpu[5-1]",
            "gpu[1-99999999]",
        ] {
            assert!(expand_nodes(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_script_runs_one_quoted_srun_per_node() {
        let nodes = vec!["gpu01".to_string(), "gpu02".to_string()];
        let s = script(
            Lang::En,
            &nodes,
            Path::new("lab profiles"),
            Some("gpu"),
            "/opt/ramvram/bin/ramvram",
        );
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].starts_with("# One srun per node"));
        assert_eq!(lines[1], "mkdir -p -- 'lab profiles'");
        assert_eq!(
            lines[2],
            "srun --nodes=1 --ntasks=1 --nodelist=gpu01 --partition=gpu --exclusive --mem=0 \
             --time=5 --immediate=120 --job-name=ramvram-detect /opt/ramvram/bin/ramvram detect \
             --json > 'lab profiles/gpu01.json.part' && mv -f -- 'lab profiles/gpu01.json.part' \
             'lab profiles/gpu01.json'"
        );
        assert!(lines[3].contains("--nodelist=gpu02"));
        assert!(lines[4].starts_with("# Then check the folder"));
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn a_folder_given_with_a_slash_is_named_once() {
        assert_eq!(dir_text(Path::new("profiles/")), "profiles");
        assert_eq!(dir_text(Path::new("profiles//")), "profiles");
        assert_eq!(dir_text(Path::new("/srv/lab/")), "/srv/lab");
        assert_eq!(dir_text(Path::new("/")), "/");
        let s = script(
            Lang::En,
            &["gpu01".to_string()],
            Path::new("profiles/"),
            None,
            "ramvram",
        );
        assert!(s.contains("goes to profiles/NODE.json."), "{s}");
        assert!(!s.contains("//"), "{s}");
        assert!(s.contains("mkdir -p -- profiles\n"), "{s}");
        assert!(s.contains("ramvram advise --profile-dir profiles\n"), "{s}");
    }

    #[test]
    fn shell_words_are_quoted() {
        assert_eq!(shell_quote("gpu01"), "gpu01");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("a;rm -rf /"), "'a;rm -rf /'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$(reboot)"), "'$(reboot)'");
    }
}
