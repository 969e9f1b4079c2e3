//! File dialogs that always work: the system's dialog (rfd) where one can be shown, otherwise a
//! path typed in the window ([`super::path_prompt`]) with the same checks.
//!
//! On Linux and the BSDs rfd 0.17 asks the XDG desktop portal over the session D-Bus and, when
//! that fails, runs `zenity`; with neither it logs an error and returns `None` at once, exactly
//! as if the user had pressed Cancel (rfd's `backend/xdg_desktop_portal.rs`). So the window
//! looks before it asks ([`detect`]): `zenity` on `PATH`, or `org.freedesktop.portal.Desktop`
//! owned or activatable on the session bus. And it notices afterwards: a dialog that "was
//! cancelled" faster than a person can ([`TOO_FAST`]) had no backend, and the typed path takes
//! over. macOS and Windows always have their own dialogs.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::i18n::{Lang, Msg, tr, trf};

/// A dialog that returned nothing sooner than this had no backend (nobody cancels that fast).
pub const TOO_FAST: Duration = Duration::from_millis(300);

/// How the window asks for a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The system's dialog, through rfd.
    Native,
    /// A path typed in the window.
    InWindow,
}

/// Whether the XDG desktop portal answers on the session bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Portal {
    /// `org.freedesktop.portal.Desktop` is running or can be started.
    Present,
    /// No session bus, or no portal on it.
    Absent,
    /// The bus could not be asked (no `dbus-send`).
    Unknown,
}

/// What was found, and the choice it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detection {
    /// `zenity` is an executable file on `PATH`.
    pub zenity: bool,
    /// The portal's state.
    pub portal: Portal,
}

impl Detection {
    /// The system's dialog when zenity or a portal may answer; a typed path otherwise. An
    /// unknown portal gets the benefit of the doubt: [`TOO_FAST`] catches a wrong guess.
    pub fn backend(&self) -> Backend {
        if self.zenity || self.portal != Portal::Absent {
            Backend::Native
        } else {
            Backend::InWindow
        }
    }
}

/// Looks for zenity and the portal in this process's environment. On macOS and Windows the
/// answer is always the system's dialog. Takes at most about a second (a D-Bus call with a
/// timeout), once per window.
pub fn detect() -> Backend {
    if !cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    )) {
        return Backend::Native;
    }
    let path = std::env::var_os("PATH");
    Detection {
        zenity: on_path("zenity", path.as_deref()),
        portal: portal(session_bus().is_some()),
    }
    .backend()
}

/// `name` is an executable regular file in one of the folders of `path` (a `PATH` value;
/// relative folders in it are ignored).
pub fn on_path(name: &str, path: Option<&OsStr>) -> bool {
    let Some(path) = path else { return false };
    std::env::split_paths(path).any(|dir| {
        dir.is_absolute()
            && std::fs::metadata(dir.join(name)).is_ok_and(|m| m.is_file() && executable(&m))
    })
}

#[cfg(unix)]
fn executable(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    true
}

/// The session bus's address, as libdbus finds it: `DBUS_SESSION_BUS_ADDRESS`, else the socket
/// `$XDG_RUNTIME_DIR/bus`.
fn session_bus() -> Option<String> {
    if let Some(a) = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").filter(|a| !a.is_empty()) {
        return Some(a.to_string_lossy().into_owned());
    }
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty())?;
    let socket = Path::new(&runtime).join("bus");
    socket
        .exists()
        .then(|| format!("unix:path={}", socket.display()))
}

/// Asks the session bus whether the portal is there (owned now, or activatable on demand).
fn portal(bus: bool) -> Portal {
    if !bus {
        return Portal::Absent;
    }
    const NAME: &str = "org.freedesktop.portal.Desktop";
    let call = |method: &str, arg: Option<&str>| -> Option<String> {
        let mut cmd = Command::new("dbus-send");
        cmd.args([
            "--session",
            "--print-reply",
            "--reply-timeout=1000",
            "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            &format!("org.freedesktop.DBus.{method}"),
        ]);
        if let Some(a) = arg {
            cmd.arg(a);
        }
        let out = cmd
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    match call("NameHasOwner", Some(&format!("string:{NAME}"))) {
        None => Portal::Unknown,
        Some(r) if r.contains("boolean true") => Portal::Present,
        Some(_) => match call("ListActivatableNames", None) {
            Some(names) if names.contains(&format!("\"{NAME}\"")) => Portal::Present,
            Some(_) => Portal::Absent,
            None => Portal::Unknown,
        },
    }
}

/// What a dialog asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One existing file.
    Open,
    /// One or more existing files.
    OpenMany,
    /// One existing folder.
    Folder,
    /// A file to write (it may exist; its folder must).
    Save,
}

/// One file dialog: what it asks for, its title, its filters and a suggested file name.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// What is asked for.
    pub kind: Kind,
    /// The dialog's title.
    pub title: String,
    /// (name, extensions without the dot), first the default.
    pub filters: Vec<(String, Vec<String>)>,
    /// Suggested file name (save dialogs).
    pub file_name: Option<String>,
}

impl Request {
    /// Shows the system's dialog and waits for it. Returns the chosen paths (empty when the
    /// user cancelled) and how long it took.
    pub fn run_native(&self) -> (Vec<PathBuf>, Duration) {
        let started = std::time::Instant::now();
        let mut d = rfd::FileDialog::new().set_title(self.title.as_str());
        for (name, exts) in &self.filters {
            d = d.add_filter(name.as_str(), exts);
        }
        if let Some(f) = &self.file_name {
            d = d.set_file_name(f.as_str());
        }
        let paths = match self.kind {
            Kind::Open => d.pick_file().into_iter().collect(),
            Kind::OpenMany => d.pick_files().unwrap_or_default(),
            Kind::Folder => d.pick_folder().into_iter().collect(),
            Kind::Save => d.save_file().into_iter().collect(),
        };
        (paths, started.elapsed())
    }

    /// Checks typed paths as the system's dialog would: files to open exist and are files, a
    /// folder is a folder, a file to save is not a folder and its folder exists. `~/` is the
    /// home folder; a relative path starts in `cwd`. A file to save without an extension gets
    /// the first filter's. Returns the absolute paths, or why not in `lang`.
    pub fn validate(
        &self,
        lang: Lang,
        typed: &str,
        cwd: &Path,
        home: Option<&Path>,
    ) -> Result<Vec<PathBuf>, String> {
        let lines: Vec<&str> = match self.kind {
            Kind::OpenMany => typed
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect(),
            _ => vec![typed.trim()],
        };
        if lines.iter().all(|l| l.is_empty()) {
            return Err(tr(lang, Msg::DialogEmpty).to_string());
        }
        let shown = |p: &Path| p.display().to_string();
        let mut out = Vec::new();
        for line in lines {
            let path = absolute(line, cwd, home);
            let meta = std::fs::metadata(&path);
            match self.kind {
                Kind::Open | Kind::OpenMany => match meta {
                    Ok(m) if m.is_file() => {}
                    Ok(_) => return Err(trf(lang, Msg::DialogNotFile, &[("path", &shown(&path))])),
                    Err(_) => {
                        return Err(trf(lang, Msg::DialogMissing, &[("path", &shown(&path))]));
                    }
                },
                Kind::Folder => {
                    if !meta.is_ok_and(|m| m.is_dir()) {
                        return Err(trf(lang, Msg::DialogNotFolder, &[("path", &shown(&path))]));
                    }
                }
                Kind::Save => {
                    if meta.is_ok_and(|m| m.is_dir()) || line.ends_with('/') {
                        return Err(trf(lang, Msg::DialogIsFolder, &[("path", &shown(&path))]));
                    }
                    let dir = path.parent().unwrap_or(Path::new("/"));
                    if !dir.is_dir() {
                        return Err(trf(lang, Msg::DialogNoFolder, &[("dir", &shown(dir))]));
                    }
                }
            }
            let path = match (self.kind, self.filters.first()) {
                (Kind::Save, Some((_, exts))) if path.extension().is_none() && !exts.is_empty() => {
                    path.with_extension(&exts[0])
                }
                _ => path,
            };
            out.push(path);
        }
        Ok(out)
    }
}

/// `typed` as an absolute path: `~` and `~/…` in `home`, relative ones in `cwd`.
fn absolute(typed: &str, cwd: &Path, home: Option<&Path>) -> PathBuf {
    let expanded = match (typed, home) {
        ("~", Some(h)) => h.to_path_buf(),
        (t, Some(h)) if t.starts_with("~/") => h.join(&t[2..]),
        (t, _) => PathBuf::from(t),
    };
    if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn without_zenity_or_a_portal_the_path_is_typed_in_the_window() {
        let none = Detection {
            zenity: false,
            portal: Portal::Absent,
        };
        assert_eq!(none.backend(), Backend::InWindow);
        for found in [
            Detection {
                zenity: true,
                portal: Portal::Absent,
            },
            Detection {
                zenity: false,
                portal: Portal::Present,
            },
            Detection {
                zenity: false,
                portal: Portal::Unknown,
            },
        ] {
            assert_eq!(found.backend(), Backend::Native, "{found:?}");
        }
        // No session bus at all: no portal, without asking anything.
        assert_eq!(portal(false), Portal::Absent);
    }

    #[test]
    fn zenity_counts_only_as_an_executable_file_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = std::env::join_paths([dir.path()]).unwrap();
        assert!(!on_path("zenity", Some(&path)));
        let z = dir.path().join("zenity");
        std::fs::write(&z, "#!/bin/sh\n").unwrap();
        assert!(!on_path("zenity", Some(&path)), "not executable");
        std::fs::set_permissions(&z, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(on_path("zenity", Some(&path)));
        assert!(!on_path("zenity", None));
        assert!(!on_path("zenity", Some(OsStr::new(""))));
    }

    fn request(kind: Kind) -> Request {
        Request {
            kind,
            title: "t".into(),
            filters: vec![("PDF".into(), vec!["pdf".into()])],
            file_name: None,
        }
    }

    #[test]
    fn typed_paths_are_checked_like_a_dialog_would() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("a.json"), "{}").unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        let en = Lang::En;
        let open = request(Kind::Open);
        assert_eq!(
            open.validate(en, "a.json", d, None).unwrap(),
            [d.join("a.json")]
        );
        assert!(
            open.validate(en, "missing.json", d, None)
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(
            open.validate(en, "sub", d, None)
                .unwrap_err()
                .contains("folder")
        );
        assert!(open.validate(en, "   ", d, None).is_err());
        assert_eq!(
            open.validate(en, "~/a.json", Path::new("/"), Some(d))
                .unwrap(),
            [d.join("a.json")]
        );
        let many = request(Kind::OpenMany);
        let two = format!("{}\n\n a.json \n", d.join("a.json").display());
        assert_eq!(many.validate(en, &two, d, None).unwrap().len(), 2);
        let folder = request(Kind::Folder);
        assert_eq!(
            folder.validate(en, "sub", d, None).unwrap(),
            [d.join("sub")]
        );
        assert!(folder.validate(en, "a.json", d, None).is_err());
        let save = request(Kind::Save);
        assert_eq!(
            save.validate(en, "lab", d, None).unwrap(),
            [d.join("lab.pdf")]
        );
        assert_eq!(
            save.validate(en, "r.md", d, None).unwrap(),
            [d.join("r.md")]
        );
        assert!(save.validate(en, "sub", d, None).is_err());
        assert!(save.validate(en, "nowhere/r.pdf", d, None).is_err());
    }
}
