//! The one interface every GPU source implements, and what it returns.

use crate::profile::{Gpu, Note};

/// What a GPU source found: the GPUs and anything it could not read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuProbe {
    /// GPUs, in the source's index order.
    pub gpus: Vec<Gpu>,
    /// Problems, as profile notes.
    pub notes: Vec<Note>,
}

/// A source of GPU information.
pub trait GpuSource {
    /// Reads every GPU this source can see. Never panics; failures become notes.
    fn probe(&self) -> GpuProbe;
}
