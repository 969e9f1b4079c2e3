//! Panels: each takes what it shows and the language, draws, and returns the user's commands.

pub mod bandwidth;
pub mod bandwidth_pipeline;
pub mod bench_view;
mod command;
pub mod decode_rate;
pub mod export;
pub mod fleet;
pub mod fleet_chart;
pub mod hardware;
pub mod lab_order;
pub mod machine;
pub mod monitor;
pub mod prometheus;
pub mod recommendations;
pub mod rules;
pub mod toolbar;
pub mod training;
mod widgets;
pub mod workload;
pub mod workload_inputs;
pub mod workload_validation;

pub use command::{Command, Tab};
pub use widgets::{heading, include_switch, number, restored_note, slider};
