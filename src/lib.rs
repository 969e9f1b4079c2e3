//! ramvram — RAM·VRAM Advisor (内存·显存顾问).
//!
//! Checks whether a deep-learning machine's system RAM can keep its GPUs fed. The flow is
//! probe → profile → pure advisor → window / command line / report:
//!
//! - [`probe`] detects this machine into a [`profile::MachineProfile`] (or one is loaded from
//!   a file written on another machine);
//! - [`advisor::assess`] turns a profile into an [`advisor::Assessment`], purely;
//! - [`present`] puts an assessment into words in one [`i18n::Lang`]; the command line
//!   ([`cli`]) and the window ([`ui`]) show them.

#![warn(missing_docs)]

pub mod advisor;
pub mod assets;
pub mod bench;
pub mod catalog;
pub mod chart;
pub mod cli;
pub mod codespan;
pub mod format;
pub mod fsutil;
pub mod i18n;
pub mod import;
pub mod inputs;
pub mod linebreak;
pub mod palette;
pub mod parse;
pub mod present;
pub mod probe;
pub mod profile;
pub mod report;
pub mod sanitize;
pub mod trace;
pub mod ui;
pub mod units;
