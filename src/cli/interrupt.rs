//! Ctrl-C (SIGINT), SIGTERM and SIGHUP as a clean cancel: a flag the long-running commands
//! (`bench`, `watch`) poll, the signal that set it, and the exit status it gives. Shared state
//! only: the commands that use it orchestrate.

/// Set by Ctrl-C during a benchmark or a watch, so that it stops cleanly (a benchmark removes
/// its files).
pub(crate) static INTERRUPTED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// The signal that interrupted the run (0 while none did).
static SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_interrupt(signal: libc::c_int) {
    // Only atomic stores: async-signal-safe.
    SIGNAL.store(signal, std::sync::atomic::Ordering::Relaxed);
    INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The signal that interrupted this run (SIGINT, SIGTERM or SIGHUP), once one did.
pub(crate) fn interrupting_signal() -> Option<i32> {
    Some(SIGNAL.load(std::sync::atomic::Ordering::Relaxed)).filter(|s| (1..64).contains(s))
}

/// Makes Ctrl-C (SIGINT), SIGTERM and SIGHUP (an SSH session that drops) cancel the benchmark
/// instead of killing the process, so the storage benchmark can delete its temporary folder.
pub(crate) fn catch_interrupts() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to atomics.
    unsafe {
        let handler = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
        libc::signal(libc::SIGHUP, handler);
    }
}

/// Exit status after Ctrl-C: 128 + SIGINT, as shells report it (after SIGTERM or SIGHUP:
/// 128 + that signal).
pub const EXIT_INTERRUPTED: u8 = 130;
