//! The planner form's grid rows: a label with the widget screen readers (and UI tests) know
//! by it, and a combo box of labelled choices. Used by the form and its save/resume inputs.

use egui::Ui;

/// A combo box `id` choosing `value` among `options` (value, label).
pub(super) fn combo<T: Copy + PartialEq>(
    ui: &mut Ui,
    id: &str,
    value: &mut T,
    options: &[(T, &str)],
) -> egui::Response {
    let current = options
        .iter()
        .find(|(v, _)| v == value)
        .map_or("", |(_, l)| *l);
    egui::ComboBox::from_id_salt(id)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (v, label) in options {
                ui.selectable_value(value, *v, *label);
            }
        })
        .response
}

/// A grid row `label` whose combo `id` chooses `value` among `choices`, `None` first, worded
/// "default: X" with the framework's default `default` (`Msg::TrainLoadingDefault`); `word`
/// names each choice.
#[allow(clippy::too_many_arguments)]
pub(super) fn default_first<T: Copy + PartialEq>(
    ui: &mut Ui,
    lang: crate::i18n::Lang,
    label: &str,
    id: &str,
    value: &mut Option<T>,
    default: T,
    choices: &[T],
    word: fn(crate::i18n::Lang, T) -> &'static str,
) -> egui::Response {
    let first = crate::i18n::trf(
        lang,
        crate::i18n::Msg::TrainLoadingDefault,
        &[("method", word(lang, default))],
    );
    let mut options: Vec<(Option<T>, &str)> = vec![(None, first.as_str())];
    options.extend(choices.iter().map(|c| (Some(*c), word(lang, *c))));
    row(ui, label, |ui| combo(ui, id, value, &options))
}

/// A grid row: a label and a widget that screen readers (and UI tests) know by that label.
pub(super) fn row(
    ui: &mut Ui,
    label: &str,
    add: impl FnOnce(&mut Ui) -> egui::Response,
) -> egui::Response {
    let l = ui.label(label);
    let r = add(ui).labelled_by(l.id);
    ui.end_row();
    r
}
