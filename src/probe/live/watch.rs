//! The sampling loop shared by `ramvram watch` and the window: one sample every interval until
//! the duration is up, the caller says stop, or the callback asks to. Waits in short slices so
//! that a stop is noticed within [`STOP_CHECK`].

use std::time::{Duration, Instant};

use super::Sampler;
use crate::trace::Sample;

/// How often a wait checks whether to stop: 50 ms.
pub const STOP_CHECK: Duration = Duration::from_millis(50);

/// What the callback wants after a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Keep sampling.
    Continue,
    /// Stop now.
    Stop,
}

/// Why the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The duration was reached.
    Duration,
    /// `stop` returned true (Ctrl-C, the window's Stop, the command ended).
    Stopped,
    /// The callback returned [`Step::Stop`].
    Callback,
}

/// Samples every `interval` (the first one after one interval, so that its rates cover it)
/// until `duration` has passed, `stop()` is true or `on_sample` returns [`Step::Stop`]. A
/// sample that takes longer than the interval delays the next one rather than bunching them.
pub fn run(
    sampler: &mut Sampler,
    interval: Duration,
    duration: Option<Duration>,
    stop: &dyn Fn() -> bool,
    on_sample: &mut dyn FnMut(Sample) -> Step,
) -> Ended {
    let start = Instant::now();
    let mut next = start + interval;
    loop {
        loop {
            if stop() {
                return Ended::Stopped;
            }
            let now = Instant::now();
            if now >= next {
                break;
            }
            std::thread::sleep((next - now).min(STOP_CHECK));
        }
        if on_sample(sampler.sample()) == Step::Stop {
            return Ended::Callback;
        }
        if duration.is_some_and(|d| start.elapsed() + Duration::from_millis(1) >= d) {
            return Ended::Duration;
        }
        next += interval;
        let now = Instant::now();
        if next < now {
            next = now + interval;
        }
    }
}
