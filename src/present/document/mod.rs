//! The document: one per subject, built once and drawn by every view. An [`Assessment`] with its
//! plans ([`machine`]), a watched run ([`monitor`]) and a fleet of machines ([`fleet`]) become
//! [`Block`]s of localised text, tables and charts; the terminal, Markdown and PDF renderers
//! ([`crate::report`]) and the window's read-only parts draw them. If two views need a sentence
//! or a table, it is built here (or by the word builders in [`crate::present`]) once.
//!
//! The types are in [`types`]; this file only names the modules, so that no builder imports
//! through it (no import circle inside the folder).
//!
//! [`Assessment`]: crate::advisor::Assessment

pub mod advice_blocks;
pub mod fleet;
pub mod machine;
pub mod machine_sections;
pub mod monitor;
pub mod plan_sections;
pub mod types;

pub use types::{Block, Chart, FleetPoint, MonitorReport, ReportLang, ReportMeta, Section};
