//! The knob table: every setting a user can turn (a flag of `advise`, a field of a scenario
//! file, a control of the window) declared once, as one row ([`Knob`]). The command line's
//! flags, the `apply` arguments of a recommendation, range errors, the window's labels and the
//! docs' flag table (`docs/knobs.md`) are derived from the rows; a recommendation's changes are
//! typed values ([`KnobValue`]) keyed by [`KnobId`]. How to add a knob: `docs/extending.md`.
//!
//! `types` holds the row's types; `rows_*` the rows; `values` looks knobs up and holds what each plan's accessors share
//! (`workload::knob_values`, `training::knob_values`, `inference::knob_values`);
//! `text` writes and parses values as the command line takes them.

mod rows_plans;
mod rows_workload;
mod text;
mod types;
mod values;

#[cfg(test)]
mod tests;

pub use rows_plans::{INFERENCE, MACHINE, TRAINING};
pub use rows_workload::WORKLOAD;
pub use text::{args, decimal, note_text, parse, parse_share, settings_of, size_arg, value_text};
pub use types::{DefaultSource, Kind, Knob, KnobId, KnobValue, Label, Plan, Range, Setting};
pub use values::{
    all, changed, check_range, find, flag, float, knob, machine_settings, name_of, of_field,
    of_flag, on, variant_of, whole, whole32,
};
