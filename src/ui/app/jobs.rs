//! Handles of work running on background threads, as the window's state holds them: a
//! benchmark, a live watch, a Prometheus request. Each sends its result over a channel; the
//! files beside this one start and poll them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::sync::mpsc::Receiver;

use super::source::Source;
use crate::bench::BenchError;
use crate::bench::decode::DecodeRate;
use crate::import::prometheus::range::Fetched;
use crate::profile::{MemoryBandwidth, StorageBandwidth};
use crate::trace::{Sample, TraceHeader};

/// A benchmark's result, sent back from its thread.
pub(super) enum BenchOutcome {
    Memory(Result<MemoryBandwidth, BenchError>),
    Storage(Result<StorageBandwidth, BenchError>),
    Decode(Result<DecodeRate, BenchError>),
    /// The benchmark thread panicked; the panic's message.
    Panicked(String),
}

/// A benchmark running on a background thread.
pub(super) struct RunningBench {
    /// What is measured, in words.
    pub(super) what: String,
    pub(super) cancel: Arc<AtomicBool>,
    /// Progress 0–1 as `f32` bits.
    pub(super) progress: Arc<AtomicU32>,
    pub(super) rx: Receiver<BenchOutcome>,
    /// The machine shown when it started: the result goes to that profile only.
    pub(super) started_for: Source,
}

/// What the watching thread sends.
pub(super) enum WatchEvent {
    Header(Box<TraceHeader>),
    Sample(Box<Sample>),
    /// The thread panicked: the message.
    Failed(String),
}

/// A watch running on a background thread.
pub(super) struct RunningWatch {
    pub(super) cancel: Arc<AtomicBool>,
    pub(super) rx: Receiver<WatchEvent>,
}

/// What the thread sends back.
pub(super) enum PromEvent {
    Nodes(Result<Vec<String>, String>),
    Fetched(Result<Box<Fetched>, String>),
}

/// A request running on its thread, and what it is (for the spinner's label).
pub(super) struct PromJob {
    pub(super) rx: Receiver<PromEvent>,
    pub(super) what: String,
}
