//! The window under test: one harness for every UI test, set up as the real window is at start
//! ([`ramvram::ui::setup_context`]: the bundled CJK font and the window's style).

use egui_kittest::Harness;
use ramvram::ui::RamvramApp;

/// `app` in a window 1280 points wide and `height` tall. egui gives AccessKit only the widgets
/// on screen, so long pages need a tall window to be read whole.
pub fn window(app: RamvramApp, height: f32) -> Harness<'static, RamvramApp> {
    sized(app, [1280.0, height])
}

/// `app` in a window of `size` points (width, height).
pub fn sized(app: RamvramApp, size: [f32; 2]) -> Harness<'static, RamvramApp> {
    Harness::builder()
        .with_size(size)
        .with_context_setup(ramvram::ui::setup_context)
        .build_ui_state(|ui, app: &mut RamvramApp| app.show(ui), app)
}
