//! Words for what kind of machine this is and what to buy for it ([`Purchase`](crate::advisor::buying::purchase::Purchase)), in one
//! language; shared by the window, the terminal and the reports. Computes nothing: every number
//! comes from the advisor.

pub mod lab;
pub mod order;
mod paragraph;
mod platform;
mod section;

pub use paragraph::{alternative, dimm_set, paragraph};
pub use platform::{channels, kind, platform, platform_rows, provider};
pub(crate) use section::rules_purpose;
pub use section::{
    Section, section, section_lines, short_of, short_words, shown, work_names, work_need,
};

#[cfg(test)]
pub use paragraph::lines;

#[cfg(test)]
mod tests;
