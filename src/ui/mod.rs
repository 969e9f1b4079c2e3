//! The window (eframe/egui). Panels only draw an [`Assessment`](crate::advisor::Assessment)
//! and return what the user asked for; [`app::RamvramApp`] applies those commands at the end of
//! the frame. Detection runs on a background thread.

pub mod app;
pub mod fonts;
pub mod gauge;
pub mod panels;
pub mod settings;
pub mod theme;

pub use app::RamvramApp;

use crate::cli::Args;
use crate::i18n::Lang;

/// Why no window can be opened here, or `None` when a display is available.
/// On Linux and the BSDs a window needs `DISPLAY` (X11) or `WAYLAND_DISPLAY`; macOS and Windows
/// always have one for a logged-in user.
pub fn display_problem() -> Option<String> {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            return Some("DISPLAY and WAYLAND_DISPLAY are not set".into());
        }
    }
    None
}

/// Opens the window and runs until it is closed.
///
/// # Errors
/// eframe's error text when the window or its graphics context could not be created.
pub fn run(args: &Args) -> Result<(), String> {
    let (settings, settings_notice) = settings::Settings::load();
    // --lang, then RAMVRAM_LANG, then the language chosen last time, then the system's.
    let lang = args
        .lang
        .map(|l| crate::cli::primary_language(Some(l)))
        .or_else(Lang::from_override)
        .or(settings.lang)
        .or_else(Lang::from_system)
        .unwrap_or_default();
    let profile = args.profile.clone();
    let profile_dir = args.profile_dir.clone();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("ramvram — RAM·VRAM Advisor 内存·显存顾问")
            .with_app_id("ramvram")
            .with_inner_size([1280.0, 820.0])
            .with_min_inner_size([720.0, 480.0]),
        ..Default::default()
    };
    eframe::run_native(
        "ramvram",
        options,
        Box::new(move |cc| {
            fonts::install(&cc.egui_ctx);
            let mut app = RamvramApp::new(lang, settings);
            app.remember_workload();
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
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| e.to_string())
}
