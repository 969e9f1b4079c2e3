//! The window's application, split by job: its state ([`state`]), detecting this machine
//! ([`detection`]), the toolbar's source line and the message banner ([`banner`]), one frame
//! ([`frame`]: draws the panels, then applies their commands), and the files, benchmarks, file
//! dialogs and the Monitor page's jobs. This file only declares the parts and re-exports what
//! the rest of the crate uses.

mod banner;
mod bench_jobs;
mod commands;
mod detection;
mod file_dialog_state;
mod file_dialogs;
mod files;
mod fleet_files;
mod frame;
mod jobs;
mod message;
mod monitor_jobs;
mod monitor_state;
mod prometheus_jobs;
mod remembered;
mod saving;
mod scenario_inputs;
mod source;
mod state;
mod trace_origin;
mod worker;

pub use file_dialog_state::Purpose;
pub use message::Message;
pub use prometheus_jobs::PrometheusStart;
pub use source::Source;
pub use state::RamvramApp;
