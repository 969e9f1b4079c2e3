//! The training-memory planner: plan inputs on the left ([`form`]), what the plan needs and
//! whether it fits on the right ([`results`]), laid out by [`page`]. All numbers come from the
//! assessment; this panel only edits the plan.

mod form;
mod grid;
mod lifecycle_inputs;
mod page;
mod results;

pub use form::TrainingForm;
pub use page::training;
