//! `watch -- CMD` and the shell's job control: Ctrl-Z (`SIGTSTP`) stops the command's process
//! group together with ramvram, and `SIGCONT` (`fg`, `bg`, `kill -CONT`) continues it.
//!
//! The command runs in a process group of its own (so that ramvram's interrupts reach all of it
//! and nothing else of the caller's), which a terminal's Ctrl-Z does not reach: it goes to the
//! foreground group, ramvram's. Without these handlers the command went on running (a training
//! job using the GPUs) while ramvram was stopped. The handler passes the stop on, then stops
//! ramvram as the default action would (so the shell sees a job stopped by `SIGTSTP`), and
//! continues the command's group when ramvram is continued. The approach of `less` and `vi`:
//! restore the default action, unblock the signal, raise it, and put the handler back once
//! continued.

use std::sync::atomic::{AtomicI32, Ordering};

/// The command's process group (its leader's pid), 0 when there is none to pass signals to.
static GROUP: AtomicI32 = AtomicI32::new(0);

/// Sends `signal` to the command's group, when there is one. Async-signal-safe.
fn to_group(signal: libc::c_int) {
    let group = GROUP.load(Ordering::Relaxed);
    if group > 1 {
        // SAFETY: kill has no memory preconditions; -group names the command's group only.
        unsafe { libc::kill(-group, signal) };
    }
}

extern "C" fn on_stop(_: libc::c_int) {
    to_group(libc::SIGTSTP);
    // SAFETY: signal, sigemptyset, sigaddset, sigprocmask and raise are async-signal-safe
    // (POSIX.1-2017, 2.4.3); `set` is a local, initialised by sigemptyset before use.
    unsafe {
        libc::signal(libc::SIGTSTP, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTSTP);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        // Stops here until SIGCONT.
        libc::raise(libc::SIGTSTP);
        libc::signal(libc::SIGTSTP, handler(on_stop));
    }
    to_group(libc::SIGCONT);
}

extern "C" fn on_continue(_: libc::c_int) {
    if GROUP.load(Ordering::Relaxed) > 1 {
        // This runs first when ramvram is continued, before `on_stop` gets past its `raise`:
        // the stop handler is back before the command is continued, so a second Ctrl-Z right
        // after `fg` is passed on too.
        // SAFETY: signal is async-signal-safe.
        unsafe { libc::signal(libc::SIGTSTP, handler(on_stop)) };
    }
    to_group(libc::SIGCONT);
}

fn handler(f: extern "C" fn(libc::c_int)) -> libc::sighandler_t {
    f as *const () as libc::sighandler_t
}

/// From now on, a stop (`SIGTSTP`) of ramvram stops the process group `group` too, and
/// `SIGCONT` continues it. `group` is the command's pid (it leads its own group).
pub(super) fn follow(group: u32) {
    GROUP.store(libc::pid_t::try_from(group).unwrap_or(0), Ordering::Relaxed);
    // SAFETY: installs handlers that only call async-signal-safe functions.
    unsafe {
        libc::signal(libc::SIGTSTP, handler(on_stop));
        libc::signal(libc::SIGCONT, handler(on_continue));
    }
}

/// Stops passing signals on (the command has ended and its group id may be reused): ramvram
/// stops and continues alone again.
pub(super) fn release() {
    GROUP.store(0, Ordering::Relaxed);
    // SAFETY: restores the default actions.
    unsafe {
        libc::signal(libc::SIGTSTP, libc::SIG_DFL);
        libc::signal(libc::SIGCONT, libc::SIG_DFL);
    }
}
