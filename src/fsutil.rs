//! File writing that never leaves a half-written file behind.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where `path` really points: a symbolic link is followed to its target (so that writing a
/// report "through" a link updates the file it names, not the link).
fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            let target = std::fs::read_link(path)?;
            let joined = match path.parent() {
                Some(dir) if target.is_relative() => dir.join(target),
                _ => target,
            };
            resolve(&joined)
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// Writes `bytes` to `path` atomically: the data goes to a temporary file in the same folder,
/// is flushed to disk, and is then renamed over `path`. On any error the temporary file is
/// removed and an existing file at `path` is left untouched. A symbolic link is followed; a
/// path that exists but is not a regular file (a folder, a device such as `/dev/null`, a FIFO)
/// is refused rather than replaced.
///
/// # Errors
/// The underlying I/O error (permission denied, disk full, missing folder, not a regular file).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let path = resolve(path)?;
    if let Ok(meta) = std::fs::metadata(&path) {
        if !meta.is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "exists and is not a regular file; refusing to replace it",
            ));
        }
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file path"))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left behind");
    }

    #[test]
    fn missing_folder_is_an_error_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/folder/a.json");
        assert!(write_atomic(&path, b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_special_files_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.md");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "the link stays a link"
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A character device is never replaced.
        assert!(write_atomic(Path::new("/dev/null"), b"x").is_err());
        assert!(
            !std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_file()
        );
        // A folder neither.
        assert!(write_atomic(dir.path(), b"x").is_err());
    }
}
