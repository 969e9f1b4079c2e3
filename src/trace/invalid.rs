//! What ramvram's own checks find wrong on a trace line that parsed: a value that can't be
//! right, or a line out of place. Data only: `present::errors::trace_error` words it in the
//! user's language (`locales/*/monitor.toml`, `[trace_error]`); no string from the file is
//! kept.

/// A trace line's value that can't be right, or a line out of place.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceInvalid {
    /// The header's `schema` is not [`super::TRACE_SCHEMA`]: not a ramvram trace.
    NotTrace,
    /// The header's `version` is one this build doesn't read.
    Version {
        /// The version in the file.
        found: u32,
    },
    /// The header's `interval_s` is not within (0, 86,400] seconds.
    Interval {
        /// The value in the file.
        value: f64,
    },
    /// A sample's `t` is earlier than the sample before it.
    Earlier {
        /// This sample's time, seconds.
        t: f64,
        /// The line before's.
        before: f64,
    },
    /// The samples read so far would take more than the memory budget (twice the file's
    /// size): the lines are far shorter than any ramvram writes.
    TooManySamples {
        /// Samples read, this one included.
        samples: usize,
        /// Bytes a sample takes in memory.
        sample_bytes: usize,
        /// Bytes a GPU of a sample takes.
        gpu_bytes: usize,
    },
    /// A rate, time or power below 0, or not a finite number.
    Negative {
        /// The value in the file.
        value: f64,
    },
    /// A rate, time or power above [`super::jsonl::MAX_TRACE_VALUE`].
    TooLarge {
        /// The value in the file.
        value: f64,
    },
    /// A percentage outside 0–100.
    Percent {
        /// The value in the file.
        value: f64,
    },
    /// `host.shm_used_bytes` above `host.shm_total_bytes`.
    ShmAboveTotal {
        /// Bytes used.
        used: u64,
        /// Bytes in total.
        total: u64,
    },
    /// More GPUs in one sample than [`super::jsonl::MAX_GPUS_PER_SAMPLE`].
    TooManyGpus {
        /// GPUs in the sample.
        count: usize,
    },
    /// One GPU index twice in a sample.
    GpuTwice {
        /// The index.
        index: u32,
    },
}
