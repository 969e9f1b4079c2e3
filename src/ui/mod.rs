//! The window (eframe/egui). Panels only draw an [`Assessment`](crate::advisor::Assessment)
//! and return what the user asked for; [`app::RamvramApp`] applies those commands at the end of
//! the frame. Detection runs on a background thread.

pub mod app;
pub mod blocks;
pub mod file_dialog;
pub mod fonts;
pub mod gauge;
pub mod panels;
pub mod paragraph;
pub mod path_prompt;
pub mod pool_bar;
pub mod settings;
pub mod theme;

pub use app::RamvramApp;

use std::path::PathBuf;

use crate::i18n::{Lang, Msg, tr, trf};

/// What the window opens with, from the command line (or a test).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowOptions {
    /// The language asked for (`--lang`); `None`: `RAMVRAM_LANG`, then the language chosen last
    /// time, then the system's.
    pub lang: Option<Lang>,
    /// A profile to show instead of detecting this machine.
    pub profile: Option<PathBuf>,
    /// A folder of profiles to open on the Lab machines page.
    pub profile_dir: Option<PathBuf>,
    /// A trace (`ramvram watch --record`) to open on the Monitor page.
    pub trace: Option<PathBuf>,
    /// A Prometheus server to read on the Monitor page (and a node's range to fetch at once).
    pub prometheus: Option<app::PrometheusStart>,
}

/// Why the window can't be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowProblem {
    /// Neither `DISPLAY` (X11) nor `WAYLAND_DISPLAY` is set: an SSH session, a container.
    NoDisplay,
    /// A display exists but the window or its graphics context failed: eframe's error text.
    Failed(String),
}

impl WindowProblem {
    /// The reason in `lang`, as a sentence start: "No display: …" or "The window could not be
    /// opened (…)".
    pub fn text(&self, lang: Lang) -> String {
        match self {
            WindowProblem::NoDisplay => tr(lang, Msg::UiNoDisplay).to_string(),
            WindowProblem::Failed(e) => trf(lang, Msg::UiWindowFailed, &[("error", e)]),
        }
    }
}

/// The window's icon: packaging/linux's 256 px PNG, decoded once at start. `None` if it can't be
/// decoded (the window then has the system's default icon).
fn window_icon() -> Option<egui::IconData> {
    let png = include_bytes!("../../packaging/linux/icons/hicolor/256x256/apps/ramvram.png");
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .ok()?
        .into_rgba8();
    Some(egui::IconData {
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
    })
}

/// Why no window can be opened here, or `None` when a display is available.
/// On Linux and the BSDs a window needs `DISPLAY` (X11) or `WAYLAND_DISPLAY`; macOS and Windows
/// always have one for a logged-in user.
pub fn display_problem() -> Option<WindowProblem> {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            return Some(WindowProblem::NoDisplay);
        }
    }
    None
}

/// The window's renderer: OpenGL through glow on Linux (on Mesa under Xvfb its first frame
/// came in 118 ms against wgpu's 283 ms, with 16 MB less resident: docs/benchmarks.md), wgpu
/// elsewhere (Direct3D 12, with the WARP software adapter on a Windows VM without a GPU
/// driver; Metal on macOS). `RAMVRAM_RENDERER=glow` or `wgpu` overrides it (a broken OpenGL
/// driver); any other value is ignored.
pub fn renderer(asked: Option<&str>) -> eframe::Renderer {
    match asked {
        Some("glow") => eframe::Renderer::Glow,
        Some("wgpu") => eframe::Renderer::Wgpu,
        _ if cfg!(target_os = "linux") => eframe::Renderer::Glow,
        _ => eframe::Renderer::Wgpu,
    }
}

/// Sets up `ctx` as the window starts: the bundled fonts ([`fonts::install`]) and the window's
/// style ([`theme::install_style`]). The window ([`run`]) and the tests' harness both call it, so
/// what is tested is drawn as the window draws it.
pub fn setup_context(ctx: &egui::Context) {
    fonts::install(ctx);
    theme::install_style(ctx);
}

/// Opens the window and runs until it is closed.
///
/// # Errors
/// eframe's error text when the window or its graphics context could not be created.
pub fn run(options: WindowOptions) -> Result<(), String> {
    let (settings, settings_notice) = settings::Settings::load();
    // --lang, then RAMVRAM_LANG, then the language chosen last time, then the system's.
    let lang = options
        .lang
        .or_else(Lang::from_override)
        .or(settings.lang)
        .or_else(Lang::from_system)
        .unwrap_or_default();
    let WindowOptions {
        profile,
        profile_dir,
        trace,
        prometheus,
        ..
    } = options;
    let mut viewport = egui::ViewportBuilder::default();
    if let Some(icon) = window_icon() {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions {
        viewport: viewport
            .with_title("ramvram — RAM·VRAM Advisor 内存·显存顾问")
            .with_app_id("ramvram")
            .with_inner_size([1280.0, 820.0])
            .with_min_inner_size([720.0, 480.0]),
        renderer: renderer(std::env::var("RAMVRAM_RENDERER").ok().as_deref()),
        ..Default::default()
    };
    eframe::run_native(
        "ramvram",
        options,
        Box::new(move |cc| {
            setup_context(&cc.egui_ctx);
            let mut app = RamvramApp::new(lang, settings);
            app.remember_inputs();
            if let Some(notice) = settings_notice {
                app.notify(notice);
            }
            if let Some(path) = profile {
                app.load_profile(&path);
            }
            // Without a profile, or when it could not be read (the message says why), show
            // this machine rather than an empty window.
            if app.assessment().is_none() {
                app.start_detection(&cc.egui_ctx);
            }
            if let Some(dir) = profile_dir {
                app.add_fleet_dir(&dir);
            }
            if let Some(file) = trace {
                app.open_trace(&file);
            }
            if let Some(start) = prometheus {
                app.open_prometheus(&cc.egui_ctx, start);
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| one_line_error(&e.to_string()))
}

/// A windowing library's error as one short line for the terminal: without the source
/// location it carries ("os error at /root/.cargo/registry/…/linux/mod.rs:788: Failed to open
/// connection to X server" becomes "Failed to open connection to X server"), on one line, at
/// most 160 characters.
pub fn one_line_error(e: &str) -> String {
    // The reason follows the last "<file>.rs:<line>: " (or "<file>.rs:<line>:<col>: ").
    let mut rest = e;
    while let Some(at) = rest.find(".rs:") {
        let after = &rest[at + 4..];
        let digits = after.trim_start_matches(|c: char| c.is_ascii_digit() || c == ':');
        if digits.len() < after.len() && digits.starts_with(' ') {
            rest = digits.trim_start();
        } else {
            rest = after;
        }
    }
    let text = if rest.trim().is_empty() { e } else { rest };
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 160 {
        format!("{}…", one.chars().take(159).collect::<String>())
    } else {
        one
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_window_error_is_one_short_line_without_a_build_path() {
        // What eframe 0.37 / winit 0.30 return with DISPLAY=:99 and no X server there.
        let winit = "winit EventLoopError: os error at /root/.cargo/registry/src/\
            index.crates.io-1949cf8c6b5b557f/winit-0.30.13/src/platform_impl/linux/mod.rs:788: \
            Failed to open connection to X server";
        assert_eq!(
            super::one_line_error(winit),
            "Failed to open connection to X server"
        );
        assert_eq!(
            super::one_line_error("no\nadapter   found"),
            "no adapter found"
        );
        assert_eq!(super::one_line_error("a.rs:"), "a.rs:");
        assert_eq!(super::one_line_error(&"x".repeat(300)).chars().count(), 160);
    }

    #[test]
    fn the_window_icon_decodes_to_256_by_256_rgba() {
        let icon = super::window_icon().expect("bundled PNG decodes");
        assert_eq!((icon.width, icon.height), (256, 256));
        assert_eq!(icon.rgba.len(), 256 * 256 * 4);
    }
}
