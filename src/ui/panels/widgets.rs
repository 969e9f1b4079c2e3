//! Small widgets the pages share: the "include" switch, the "restored" note, sliders and number
//! fields, and a section heading.

/// The "include in the assessment and the report" switch of the Training and Data loading
/// pages; returns the new state when the user flips it.
pub fn include_switch(ui: &mut egui::Ui, label: &str, hint: &str, included: bool) -> Option<bool> {
    let mut on = included;
    let r = ui.checkbox(&mut on, label).on_hover_text(hint);
    (r.changed() && on != included).then_some(on)
}

/// "Restored from your last session", under the include switch of a page whose inputs came
/// from the settings file and are unchanged since.
pub fn restored_note(ui: &mut egui::Ui, lang: crate::i18n::Lang, restored: bool) {
    if restored {
        ui.label(
            egui::RichText::new(crate::i18n::tr(lang, crate::i18n::Msg::PresetRestored)).weak(),
        );
    }
}

/// A slider for a value the user's scenario holds: it limits what the user drags or types to
/// `range`, but never changes a value that arrived from a file or the command line outside it
/// (egui clamps existing values by default, which would silently edit the scenario).
pub fn slider<Num: egui::emath::Numeric>(
    value: &mut Num,
    range: std::ops::RangeInclusive<Num>,
) -> egui::Slider<'_> {
    egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits)
}

/// A number field for a scenario value, with the same rule as [`slider`].
pub fn number<Num: egui::emath::Numeric>(
    value: &mut Num,
    range: std::ops::RangeInclusive<Num>,
) -> egui::DragValue<'_> {
    egui::DragValue::new(value)
        .range(range)
        .clamp_existing_to_range(false)
}

/// A section heading.
pub fn heading(ui: &mut egui::Ui, text: &str) {
    ui.add_space(10.0);
    ui.heading(text);
    ui.separator();
}
