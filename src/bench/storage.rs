//! Storage read benchmark on the folder a dataset lives in.
//!
//! In a temporary folder it creates inside the target folder
//! (`.ramvram-bench-<host>-<pid namespace>-<pid>-<n>`, held locked and handled through its open
//! descriptor, see `storage_fs` and `storage_stale`), it writes one large file and a set of
//! 4 KiB files, then measures:
//!
//! - **sequential read**: the large file in 1 MiB blocks, one request at a time, with
//!   `O_DIRECT` so the page cache is bypassed (aligned buffers); when the file system refuses
//!   `O_DIRECT` (tmpfs, some network file systems) it reads normally after asking the kernel to
//!   drop the file's cached pages (`POSIX_FADV_DONTNEED`), and says the figure may include the
//!   page cache;
//! - **small-file random read**: the 4 KiB files in random order, each opened, read and closed
//!   (`O_DIRECT` where allowed), as a DataLoader reading many small images does: files per second
//!   and bytes per second.
//!
//! The temporary folder is removed when the benchmark ends, however it ends (its `Drop` also
//! runs when a panic unwinds; the command line turns SIGINT, SIGTERM and SIGHUP into a cancel). Each phase stops at its time budget, so a slow disk gives a
//! shorter sample, not a longer wait.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::storage_fs::{AlignedBuf, WorkDir, drop_cache, read_at};
use super::{BenchError, PathProblem};
use crate::profile::StorageBandwidth;

/// Block size of the sequential read: 1 MiB (fio's comparison run uses `--bs=1M`).
pub const SEQ_BLOCK_BYTES: usize = 1 << 20;

/// Size of one small file: 4 KiB (the seed's "many small files" case; one page).
pub const SMALL_FILE_BYTES: usize = 4096;

/// Space kept free beyond the test files, so the benchmark never fills a disk: 64 MiB.
/// Assumption: enough for the file system's own metadata and other writers meanwhile.
pub const SPACE_MARGIN_BYTES: u64 = 64 << 20;

/// How to run the storage benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct StorageBenchConfig {
    /// Size of the sequentially read file, bytes (a multiple of 1 MiB).
    pub sequential_bytes: u64,
    /// Number of 4 KiB files for the random read.
    pub small_files: u32,
    /// Time budget of the sequential read (passes over the file stop after it).
    pub sequential_budget: Duration,
    /// At most this many passes over the large file (with `O_DIRECT` only; without it a second
    /// pass would come from the page cache).
    pub max_sequential_passes: u32,
    /// Time budget of the small-file read.
    pub small_files_budget: Duration,
}

impl Default for StorageBenchConfig {
    /// 512 MiB read sequentially (up to 1.5 s), 2,000 small files (up to 1 s).
    fn default() -> StorageBenchConfig {
        StorageBenchConfig {
            sequential_bytes: 512 << 20,
            small_files: 2000,
            sequential_budget: Duration::from_millis(1500),
            max_sequential_passes: 8,
            small_files_budget: Duration::from_millis(1000),
        }
    }
}

impl StorageBenchConfig {
    /// Bytes the test files take on disk.
    pub fn bytes_needed(&self) -> u64 {
        self.sequential_bytes + u64::from(self.small_files) * SMALL_FILE_BYTES as u64
    }
}

/// Checks that `dir` is an existing folder with room for `needed` bytes plus the margin.
///
/// # Errors
/// [`BenchError::Path`] with [`PathProblem::Missing`], [`PathProblem::NotADirectory`] or
/// [`PathProblem::Full`].
pub fn check_folder(dir: &Path, needed: u64) -> Result<(), BenchError> {
    let problem = |kind, detail: Option<String>| BenchError::Path {
        path: dir.to_path_buf(),
        kind,
        detail,
    };
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(problem(PathProblem::Missing, None));
        }
        Err(e) => return Err(problem(PathProblem::NotWritable, Some(e.to_string()))),
        Ok(m) if !m.is_dir() => return Err(problem(PathProblem::NotADirectory, None)),
        Ok(_) => {}
    }
    if let Some(avail) = available_bytes(dir) {
        if !has_room(avail, needed) {
            return Err(problem(
                PathProblem::Full,
                Some(format!(
                    "{avail} bytes free, {} needed",
                    needed + SPACE_MARGIN_BYTES
                )),
            ));
        }
    }
    Ok(())
}

/// True when `available` bytes hold `needed` plus [`SPACE_MARGIN_BYTES`].
pub fn has_room(available: u64, needed: u64) -> bool {
    available >= needed.saturating_add(SPACE_MARGIN_BYTES)
}

#[cfg(unix)]
fn available_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the struct for a NUL-terminated path.
    unsafe {
        let mut s: libc::statvfs = std::mem::zeroed();
        (libc::statvfs(c.as_ptr(), &mut s) == 0)
            .then(|| (s.f_bavail as u64).saturating_mul(s.f_frsize as u64))
    }
}

#[cfg(not(unix))]
fn available_bytes(_dir: &Path) -> Option<u64> {
    None
}

fn io_err(path: &Path, source: std::io::Error) -> BenchError {
    if source.raw_os_error() == Some(libc::ENOSPC) {
        return BenchError::Path {
            path: path.parent().unwrap_or(path).to_path_buf(),
            kind: PathProblem::Full,
            detail: Some(source.to_string()),
        };
    }
    BenchError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Runs the benchmark in `dir`. `progress` gets the fraction done (0–1); setting `cancel` stops
/// it within one block or file.
///
/// # Errors
/// [`BenchError::Path`] when the folder is missing, not a folder, not writable or too full;
/// [`BenchError::Io`] when reading or writing fails; [`BenchError::Cancelled`].
pub fn run(
    dir: &Path,
    config: &StorageBenchConfig,
    cancel: &AtomicBool,
    progress: &dyn Fn(f32),
) -> Result<StorageBandwidth, BenchError> {
    check_folder(dir, config.bytes_needed())?;
    remove_stale(dir);
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = super::storage_stale::work_name(COUNTER.fetch_add(1, Ordering::Relaxed));
    let work = WorkDir::create(dir, &name).map_err(|e| {
        let kind = match e.kind() {
            std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                PathProblem::NotWritable
            }
            _ if e.raw_os_error() == Some(libc::ENOSPC) => PathProblem::Full,
            _ => PathProblem::NotWritable,
        };
        BenchError::Path {
            path: dir.to_path_buf(),
            kind,
            detail: Some(e.to_string()),
        }
    })?;
    let check = || {
        if cancel.load(Ordering::Relaxed) {
            Err(BenchError::Cancelled)
        } else {
            Ok(())
        }
    };
    let out_of_memory = |bytes: usize| BenchError::OutOfMemory {
        bytes: bytes as u64,
    };

    // 1. Write the files (0–40 %).
    const BIG: &str = "sequential.bin";
    let big = work.path().join(BIG);
    let blocks = config
        .sequential_bytes
        .div_ceil(SEQ_BLOCK_BYTES as u64)
        .max(1);
    let small_dir = work
        .subdir("small")
        .map_err(|e| io_err(&work.path().join("small"), e))?;
    {
        let mut f = work.create_file(BIG).map_err(|e| io_err(&big, e))?;
        let mut buf = vec![0u8; SEQ_BLOCK_BYTES];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..blocks {
            check()?;
            fill_random(&mut buf, &mut seed);
            f.write_all(&buf).map_err(|e| io_err(&big, e))?;
            progress(0.3 * (i + 1) as f32 / blocks as f32);
        }
        f.sync_all().map_err(|e| io_err(&big, e))?;
        drop_cache(&f);
    }
    let mut buf = vec![0u8; SMALL_FILE_BYTES];
    let mut seed = 0xD1B5_4A32_D192_ED03u64;
    for i in 0..config.small_files {
        check()?;
        let name = small_file(i);
        fill_random(&mut buf, &mut seed);
        let p = small_dir.path().join(&name);
        let mut f = small_dir.create_file(&name).map_err(|e| io_err(&p, e))?;
        f.write_all(&buf).map_err(|e| io_err(&p, e))?;
        if i % 64 == 0 {
            progress(0.3 + 0.05 * i as f32 / config.small_files.max(1) as f32);
        }
    }
    // One flush of the whole file system (cheaper than one fsync per file), then drop the small
    // files' pages from the cache so the non-direct fallback reads them from the disk.
    small_dir.sync();
    for i in 0..config.small_files {
        check()?;
        if let Ok(f) = small_dir.open_plain(&small_file(i)) {
            drop_cache(&f);
        }
    }
    progress(0.4);

    // 2. Sequential read (40–75 %).
    let (sequential, direct_io, sequential_bytes) = {
        let (mut f, direct) = work.open_read(BIG).map_err(|e| io_err(&big, e))?;
        let mut abuf =
            AlignedBuf::new(SEQ_BLOCK_BYTES).map_err(|_| out_of_memory(SEQ_BLOCK_BYTES))?;
        let mut direct = direct;
        let start = Instant::now();
        let mut read_total = 0u64;
        let file_bytes = blocks * SEQ_BLOCK_BYTES as u64;
        let mut passes = 0;
        'passes: loop {
            passes += 1;
            let mut offset = 0u64;
            while offset < file_bytes {
                check()?;
                match read_at(&f, abuf.as_mut_slice(), offset) {
                    Ok(0) => break,
                    Ok(n) => {
                        offset += n as u64;
                        read_total += n as u64;
                    }
                    // A file system may accept O_DIRECT at open and refuse the read: fall back.
                    Err(e) if direct && e.raw_os_error() == Some(libc::EINVAL) => {
                        f = work.open_plain(BIG).map_err(|e| io_err(&big, e))?;
                        drop_cache(&f);
                        direct = false;
                        continue 'passes;
                    }
                    Err(e) => return Err(io_err(&big, e)),
                }
                let t = start.elapsed();
                progress(
                    0.4 + 0.35
                        * (t.as_secs_f32() / config.sequential_budget.as_secs_f32()).min(1.0),
                );
                if t >= config.sequential_budget {
                    break 'passes;
                }
            }
            // Another pass only while the budget allows (a fast NVMe reads 512 MiB in 0.1 s).
            if start.elapsed() >= config.sequential_budget / 2
                || passes >= config.max_sequential_passes
            {
                break;
            }
            if !direct {
                // Without O_DIRECT a second pass would come from the page cache.
                break;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let rate = (read_total > 0 && secs > 0.0).then(|| read_total as f64 / secs);
        (rate, direct, read_total)
    };

    // 3. Small files in random order (75–100 %).
    let mut order: Vec<u32> = (0..config.small_files).collect();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for i in (1..order.len()).rev() {
        let j = (xorshift(&mut rng) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let mut abuf =
        AlignedBuf::new(SMALL_FILE_BYTES).map_err(|_| out_of_memory(SMALL_FILE_BYTES))?;
    let mut files_read = 0u64;
    let mut random_direct = true;
    let start = Instant::now();
    for i in &order {
        check()?;
        let name = small_file(*i);
        let p = small_dir.path().join(&name);
        let (f, direct) = small_dir.open_read(&name).map_err(|e| io_err(&p, e))?;
        random_direct &= direct;
        let n = match read_at(&f, abuf.as_mut_slice(), 0) {
            Err(e) if direct && e.raw_os_error() == Some(libc::EINVAL) => {
                random_direct = false;
                let f = small_dir.open_plain(&name).map_err(|e| io_err(&p, e))?;
                read_at(&f, abuf.as_mut_slice(), 0).map_err(|e| io_err(&p, e))?
            }
            r => r.map_err(|e| io_err(&p, e))?,
        };
        std::hint::black_box(&abuf.as_mut_slice()[..n]);
        files_read += 1;
        let t = start.elapsed();
        if files_read % 16 == 0 {
            progress(
                0.75 + 0.25 * (t.as_secs_f32() / config.small_files_budget.as_secs_f32()).min(1.0),
            );
        }
        if t >= config.small_files_budget {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let files_per_s = (files_read > 0 && secs > 0.0).then(|| files_read as f64 / secs);
    use crate::profile::limits::{MAX_FILES_PER_S, MAX_STORAGE_BYTES_PER_S};
    let check_rate =
        |what, v: Option<f64>, max| v.map(|v| super::plausible(what, v, max)).transpose();
    let sequential = check_rate(
        "sequential_read_bytes_per_s",
        sequential,
        MAX_STORAGE_BYTES_PER_S,
    )?;
    let files_per_s = check_rate("random_read_files_per_s", files_per_s, MAX_FILES_PER_S)?;
    progress(1.0);
    Ok(StorageBandwidth {
        path: std::fs::canonicalize(dir)
            .unwrap_or_else(|_| dir.to_path_buf())
            .display()
            .to_string(),
        sequential_read_bytes_per_s: sequential,
        direct_io,
        sequential_bytes,
        random_read_files_per_s: files_per_s,
        random_read_bytes_per_s: files_per_s.map(|f| f * SMALL_FILE_BYTES as f64),
        random_direct_io: random_direct && files_read > 0,
        tool: Some(super::tool_name()),
    })
}

pub use super::storage_stale::remove_stale;

fn small_file(i: u32) -> String {
    format!("{i:06}.bin")
}

/// Fills `buf` with xorshift64 output so that compressing or deduplicating file systems (ZFS,
/// btrfs with compression) store and read every byte.
fn fill_random(buf: &mut [u8], seed: &mut u64) {
    for chunk in buf.chunks_mut(8) {
        let v = xorshift(seed).to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> StorageBenchConfig {
        StorageBenchConfig {
            sequential_bytes: 4 << 20,
            small_files: 50,
            sequential_budget: Duration::from_secs(60),
            max_sequential_passes: 1,
            small_files_budget: Duration::from_secs(60),
        }
    }

    fn entries(dir: &Path) -> usize {
        std::fs::read_dir(dir).unwrap().count()
    }

    #[test]
    fn measures_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let r = run(dir.path(), &tiny(), &AtomicBool::new(false), &|_| {}).unwrap();
        assert!(r.sequential_read_bytes_per_s.unwrap() > 0.0);
        // The 4 MiB file read once.
        assert_eq!(r.sequential_bytes, 4 << 20);
        // Every small file read once (generous budget): files/s × 4096 = bytes/s.
        let f = r.random_read_files_per_s.unwrap();
        assert!((r.random_read_bytes_per_s.unwrap() - f * 4096.0).abs() < 1e-6 * f * 4096.0);
        assert_eq!(entries(dir.path()), 0, "temporary folder removed");
    }

    #[test]
    fn cancel_and_panic_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let cancel = AtomicBool::new(false);
        let r = run(dir.path(), &tiny(), &cancel, &|p| {
            if p > 0.1 {
                cancel.store(true, Ordering::Relaxed);
            }
        });
        assert!(matches!(r, Err(BenchError::Cancelled)));
        assert_eq!(entries(dir.path()), 0);
        let panicked = std::panic::catch_unwind(|| {
            run(dir.path(), &tiny(), &AtomicBool::new(false), &|p| {
                assert!(p <= 0.3, "simulated crash midway");
            })
        });
        assert!(panicked.is_err());
        assert_eq!(entries(dir.path()), 0);
    }

    #[test]
    fn bad_folders_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        let e = run(&missing, &tiny(), &AtomicBool::new(false), &|_| {}).unwrap_err();
        assert!(matches!(
            e,
            BenchError::Path {
                kind: PathProblem::Missing,
                ..
            }
        ));
        assert!(e.to_string().contains("nope"), "{e}");
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        let e = run(&file, &tiny(), &AtomicBool::new(false), &|_| {}).unwrap_err();
        assert!(matches!(
            e,
            BenchError::Path {
                kind: PathProblem::NotADirectory,
                ..
            }
        ));
        // /proc refuses new entries even to root.
        #[cfg(target_os = "linux")]
        {
            let e = run(
                Path::new("/proc"),
                &tiny(),
                &AtomicBool::new(false),
                &|_| {},
            )
            .unwrap_err();
            assert!(
                matches!(
                    e,
                    BenchError::Path {
                        kind: PathProblem::NotWritable | PathProblem::Full,
                        ..
                    }
                ),
                "{e}"
            );
        }
    }

    #[test]
    fn a_run_holds_its_folder_locked_and_removes_a_dead_runs() {
        let dir = tempfile::tempdir().unwrap();
        let host = crate::fsutil::host_tag();
        let ns = super::super::storage_stale::pid_namespace();
        // A run of this namespace killed with -9 (pid_max is at most 4,194,304: 999999999
        // can't exist), its lock file left unlocked.
        let dead = dir
            .path()
            .join(format!(".ramvram-bench-{host}-{ns}-999999999-0"));
        std::fs::create_dir(&dead).unwrap();
        std::fs::write(dead.join(".lock"), b"").unwrap();
        let unrelated = dir.path().join("dataset");
        std::fs::create_dir(&unrelated).unwrap();
        // While a run is under way, its own folder is locked: seen from outside, not stale.
        let seen_locked = std::cell::Cell::new(None);
        let probe = |f: f32| {
            if f > 0.5 && seen_locked.get().is_none() {
                let mine = std::fs::read_dir(dir.path())
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .find(|p| {
                        p.file_name().is_some_and(|n| {
                            n.to_string_lossy()
                                .contains(&format!("-{ns}-{}-", std::process::id()))
                        })
                    });
                seen_locked.set(mine.map(|m| {
                    let lock = std::fs::OpenOptions::new()
                        .read(true)
                        .write(true)
                        .open(m.join(".lock"))
                        .unwrap();
                    !super::super::storage_stale::try_lock(&lock)
                }));
            }
        };
        run(dir.path(), &tiny(), &AtomicBool::new(false), &probe).unwrap();
        assert_eq!(
            seen_locked.get(),
            Some(true),
            "the run's folder was not locked"
        );
        assert!(!dead.exists());
        assert!(unrelated.exists());
        assert_eq!(entries(dir.path()), 1, "only the dataset folder is left");
    }

    #[test]
    fn room_check_keeps_a_margin() {
        // 1 GiB free, 512 MiB + 8 MiB of files: fits with the 64 MiB margin.
        assert!(has_room(1 << 30, (512 << 20) + (8 << 20)));
        // 100 MiB free for 64 MiB of files: 64 + 64 > 100.
        assert!(!has_room(100 << 20, 64 << 20));
    }
}
