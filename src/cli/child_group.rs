//! The process groups ramvram starts (`watch -- CMD`, `collect --slurm --run`'s `srun`s) end
//! with it: on SIGINT, SIGTERM or SIGHUP the signal goes to each whole group, ramvram waits up
//! to [`GRACE`] for every member of every group to end (not only the leaders it started: a
//! worker the command forked may ignore the signal and keep its GPUs), then kills what is left
//! with SIGKILL and waits for that too. What `docker stop` and systemd's `KillMode=control-group`
//! do: the signal, a grace period (10 s, docker's default), then SIGKILL.

use std::time::{Duration, Instant};

/// How long the groups have to end after the signal before SIGKILL: docker stop's default
/// (`--time 10`).
pub(super) const GRACE: Duration = Duration::from_secs(10);

/// How long to wait for killed members to go, before giving up (a process in an
/// uninterruptible sleep, such as one blocked on a dead NFS server, can't be killed sooner).
const AFTER_KILL: Duration = Duration::from_secs(3);

/// How often the groups are looked at while waiting.
const POLL: Duration = Duration::from_millis(50);

/// Sends `signal` to every process of group `group` (`group` > 1 only, so never to ramvram's
/// own or every process). Errors (a group already gone) are ignored.
pub(super) fn signal_group(group: libc::pid_t, signal: libc::c_int) {
    if group > 1 {
        // SAFETY: kill has no memory preconditions; -group names that process group only.
        unsafe { libc::kill(-group, signal) };
    }
}

/// True while some process of group `group` is still running. A member that has ended but is
/// not yet reaped (a zombie: an orphan waiting for init) no longer runs and doesn't count; on
/// Linux the members' states are read from `/proc/PID/stat` (field 3 the state, field 5 the
/// process group; proc(5)), elsewhere any member counts.
pub(super) fn group_running(group: libc::pid_t) -> bool {
    if group <= 1 {
        return false;
    }
    // SAFETY: signal 0 only checks that the group exists and may be signalled.
    let exists = unsafe { libc::kill(-group, 0) } == 0
        || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    if !exists {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return true;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // The command name is in parentheses and may hold spaces: fields follow the last ')'.
            let Some((_, rest)) = stat.rsplit_once(')') else {
                continue;
            };
            let mut fields = rest.split_whitespace();
            let state = fields.next().unwrap_or("");
            let pgrp = fields.nth(1).and_then(|f| f.parse::<libc::pid_t>().ok());
            if pgrp == Some(group) && state != "Z" && state != "X" {
                return true;
            }
        }
        false
    }
    #[cfg(not(target_os = "linux"))]
    true
}

/// Ends the process groups `groups`: `signal` to each, up to [`GRACE`] for all their members
/// to end, then SIGKILL to each group still running and up to a few seconds more. `reap` is
/// called at every look (it reaps the leaders ramvram started, so that they don't linger as
/// zombies of ramvram's); the groups' other members are reaped by their own parents or init.
/// Returns whether every group ended.
pub(super) fn end_groups(
    groups: &[libc::pid_t],
    signal: libc::c_int,
    reap: &mut dyn FnMut(),
) -> bool {
    for g in groups {
        signal_group(*g, signal);
        // A stopped group (Ctrl-Z) can't act on the signal until it is continued.
        signal_group(*g, libc::SIGCONT);
    }
    let wait = |limit: Duration, reap: &mut dyn FnMut()| {
        let start = Instant::now();
        loop {
            reap();
            if !groups.iter().any(|g| group_running(*g)) {
                return true;
            }
            if start.elapsed() >= limit {
                return false;
            }
            std::thread::sleep(POLL);
        }
    };
    if wait(GRACE, reap) {
        return true;
    }
    for g in groups {
        if group_running(*g) {
            signal_group(*g, libc::SIGKILL);
        }
    }
    wait(AFTER_KILL, reap)
}

/// The process groups a command has started and not yet seen end, for a signal to reach them
/// all (`collect --run` runs up to eight `srun`s at once, each in a group of its own). Once
/// [`Running::close`]d, nothing more is started.
#[derive(Default)]
pub(super) struct Running {
    /// The groups (their leaders' pids), and whether the list is closed.
    state: std::sync::Mutex<(Vec<libc::pid_t>, bool)>,
}

impl Running {
    /// Starts `command` as the leader of a new process group, listed here; refused (an
    /// `Interrupted` error) once the list is closed, so that no `srun` starts after the signal.
    ///
    /// # Errors
    /// The spawn's own error, or `Interrupted` after [`Running::close`].
    pub(super) fn spawn(
        &self,
        command: &mut std::process::Command,
    ) -> std::io::Result<std::process::Child> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.1 {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        std::os::unix::process::CommandExt::process_group(command, 0);
        let child = command.spawn()?;
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            state.0.push(pid);
        }
        Ok(child)
    }

    /// Forgets `leader`'s group once its leader was reaped and nothing of it runs (its id may
    /// then be reused by another group, which must not be signalled).
    pub(super) fn ended(&self, leader: u32) {
        let Ok(pid) = libc::pid_t::try_from(leader) else {
            return;
        };
        if !group_running(pid) {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            state.0.retain(|g| *g != pid);
        }
    }

    /// Closes the list (nothing more starts) and returns the groups started.
    pub(super) fn close(&self) -> Vec<libc::pid_t> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.1 = true;
        state.0.clone()
    }
}
