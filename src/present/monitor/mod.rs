//! Words for live diagnosis: a diagnosis's title, explanation and advice, the peaks, and the
//! terminal's one-line status per sample. Used by the terminal, the window and reports, so a
//! diagnosis reads the same everywhere. Computes nothing: the numbers come from the
//! [`Summary`](crate::advisor::diagnose::Summary) and the samples.
//!
//! One file per job: [`units`] (durations, rates, evidence), [`diagnosis`] (one diagnosis),
//! [`run`] (the run's summary, peaks and live line) and [`checks`] (what was checked). This
//! file only names them, so that none imports through it.

pub mod checks;
pub mod diagnosis;
pub mod run;
pub mod units;

pub use checks::{HEADLINE_CHECKS, none_found, unchecked_lines};
#[cfg(test)]
pub use diagnosis::all_messages;
pub use diagnosis::{explanation, range, recommendations, short_name, title, title_with_range};
pub use run::{live_line, peak_lines, summary_line, trace_note};
pub use units::{byte_rate, duration, evidence, percent};

#[cfg(test)]
mod tests;
