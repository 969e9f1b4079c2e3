//! Column layout for the terminal: the terminal renderer's helpers ([`crate::report::terminal`]),
//! for the command outputs that are not yet a document.

pub(super) use crate::report::terminal::{heading, label_width, pad, section, wrap, wrap_hanging};
