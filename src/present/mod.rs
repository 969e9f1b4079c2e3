//! Words for an assessment: turns advisor data (ids, severities, numbers) into text in one
//! language. Used by the window, the terminal and reports, so a finding reads the same
//! everywhere. Computes no advice: every number comes from the [`Assessment`](crate::advisor::Assessment).

pub mod advice_text;
pub mod bandwidth;
pub mod bench;
pub mod cluster;
pub mod dataset;
pub mod diffusion;
pub mod document;
pub mod errors;
pub mod finding;
pub mod fleet;
pub mod hardware;
pub mod headline;
pub mod inference;
pub mod inputs;
pub mod lifecycle_words;
pub mod macos;
pub mod memory_words;
pub mod model;
pub mod monitor;
pub mod names;
pub mod notes;
pub mod parts;
pub mod phase;
pub mod pools;
pub mod price_errors;
pub mod provenance;
pub mod purchase;
pub mod ratio;
pub mod recommend;
pub mod rules;
pub mod serde_words;
pub mod timeline;
pub mod training;
pub mod verdict;
pub mod whatif;
pub mod windows;
pub mod words;
pub mod workload;

pub use finding::{finding_explanation, finding_recommendations, finding_title, recommendation};
pub use hardware::{hardware_rows, installed, modules_summary, sizing, thp};
pub use notes::note;
pub use rules::{rule_header, rule_name, rule_row, rule_statement, rule_status};
pub use verdict::verdict;
pub use words::{
    GAUGE_MAX_RATIO, disk_kind, field_status, fill_values, join, sentences, severity, tier,
};
