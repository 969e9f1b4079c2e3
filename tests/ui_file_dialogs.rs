//! File dialogs without a backend (no zenity, no XDG desktop portal): the window shows a path
//! field instead of silently doing nothing, checks what is typed like a dialog would, and then
//! does what the dialog was for. Driven through AccessKit (egui_kittest).

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ramvram::i18n::Lang;
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;
use ramvram::ui::file_dialog::{self, Backend};

const NO_DIALOG: &str = "No file dialog is available on this computer";

fn window(app: RamvramApp) -> Harness<'static, RamvramApp> {
    let mut h = common::window::window(app, 900.0);
    h.run();
    h
}

/// Replaces the text of the path field labelled `label` with `text` and presses `button`.
fn type_path(h: &mut Harness<'static, RamvramApp>, label: &str, text: &str, button: &str) {
    let field = h.get_by_role_and_label(Role::TextInput, label);
    field.focus();
    field.set_text_value_accesskit(text);
    h.run();
    h.get_by_label(button).click();
    h.run();
}

#[test]
fn open_profile_without_a_dialog_backend_shows_a_path_field_that_checks_and_opens() {
    let mut app =
        RamvramApp::with_profile(Lang::En, &common::fixture("dgx-h100"), Source::Detected);
    app.use_file_dialogs(Backend::InWindow);
    let mut h = window(app);
    h.get_by_label("Open profile…").click();
    h.run();
    h.get_by_label_contains(NO_DIALOG);
    // A path that does not exist is refused with the reason, and the field stays.
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.json");
    type_path(&mut h, "Path", missing.to_str().unwrap(), "Open");
    h.get_by_label(&format!("{} does not exist.", missing.display()));
    // A folder is not a profile.
    type_path(&mut h, "Path", dir.path().to_str().unwrap(), "Open");
    h.get_by_label_contains("is a folder, not a file");
    // The fixture opens: the toolbar names it and the verdict is the g5's.
    let g5 = common::fixture_path("aws-g5.xlarge");
    type_path(&mut h, "Path", g5.to_str().unwrap(), "Open");
    assert!(
        h.query_by_label_contains(NO_DIALOG).is_none(),
        "the field closed"
    );
    h.get_by_label("Profile: aws-g5.xlarge.json");
    h.get_by_label("RAM is smaller than GPU memory: expect starved GPUs");
}

#[test]
fn export_report_save_as_without_a_dialog_backend_writes_where_typed() {
    let mut app = RamvramApp::with_profile(
        Lang::Zh,
        &common::fixture("aws-g5.xlarge"),
        Source::Detected,
    );
    app.use_file_dialogs(Backend::InWindow);
    let mut h = window(app);
    h.get_by_label("导出报告…").click();
    h.run();
    h.get_by_label("另存为…").click();
    h.run();
    // The field holds the suggested name; a folder that doesn't exist is refused.
    let field = h.get_by_role_and_label(Role::TextInput, "路径");
    assert_eq!(field.value().as_deref(), Some("ramvram-aws-g5.xlarge.pdf"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("missing").join("r.pdf");
    type_path(&mut h, "路径", bad.to_str().unwrap(), "保存");
    h.get_by_label_contains("不存在");
    // Without an extension the format's is added, as a save dialog's filter would.
    let target = dir.path().join("g5");
    type_path(&mut h, "路径", target.to_str().unwrap(), "保存");
    let written = dir.path().join("g5.pdf");
    assert!(std::fs::read(&written).unwrap().starts_with(b"%PDF-"));
    h.get_by_label_contains(&written.display().to_string());
}

#[test]
fn cancel_closes_the_field_and_changes_nothing() {
    let mut app = RamvramApp::with_profile(
        Lang::En,
        &common::fixture("aws-g5.xlarge"),
        Source::Detected,
    );
    app.use_file_dialogs(Backend::InWindow);
    let mut h = window(app);
    h.get_by_label("Lab machines").click();
    h.run();
    h.get_by_label("Open folder…").click();
    h.run();
    h.get_by_label_contains(NO_DIALOG);
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.query_by_label_contains(NO_DIALOG).is_none());
    assert!(h.state().fleet().is_empty());
}

/// Where this machine really has no dialog backend (CI, a server, this sandbox), rfd returns at
/// once as if cancelled; the window notices and shows the field instead of doing nothing.
#[test]
fn a_system_dialog_that_returns_at_once_turns_into_the_path_field() {
    if file_dialog::detect() == Backend::Native {
        eprintln!("skipped: this machine has zenity or a desktop portal, a real dialog would open");
        return;
    }
    let display = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()));
    if display {
        // libdbus may start a session bus for rfd (X11 autolaunch), which takes longer than a
        // dialog without a backend should; only the display-less case is certain.
        eprintln!("skipped: a display is set");
        return;
    }
    let mut app = RamvramApp::with_profile(
        Lang::En,
        &common::fixture("aws-g5.xlarge"),
        Source::Detected,
    );
    app.use_file_dialogs(Backend::Native);
    let mut h = window(app);
    h.get_by_label("Open profile…").click();
    h.run();
    h.get_by_label_contains(NO_DIALOG);
    h.get_by_role_and_label(Role::TextInput, "Path");
}
