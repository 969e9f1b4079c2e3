//! What the command line writes: standard output and standard error without terminal control
//! characters, code spans without their backticks, and write failures that never panic.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::i18n::{Lang, Msg, tr, trf};

/// Exit status for bad input (a missing or invalid profile), as for clap's usage errors.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status when output could not be written.
pub const EXIT_OUTPUT_FAILED: u8 = 1;

/// Removes terminal control characters, bidirectional formatting and noncharacters
/// ([`crate::sanitize::clean`]): profiles come from other machines, and a host name must not be
/// able to move the cursor or retitle the terminal.
pub fn printable(text: &str) -> String {
    crate::sanitize::clean(text).into_owned()
}

/// The width text output is laid out for: the terminal's `COLUMNS`, as `ls` and `git` read
/// it ([`crate::report::terminal::width_for`]: 40 to 100 columns; 100 when unset).
pub fn columns() -> usize {
    crate::report::terminal::width_for(std::env::var("COLUMNS").ok().as_deref())
}

/// Set when a write to standard error failed (other than into a closed pipe).
static STDERR_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes one line to standard error, code spans without their backticks
/// ([`crate::codespan`]). A full or failing stderr (`2>/dev/full`) is no panic, as `eprintln!`
/// would give: it is remembered, and the run then ends with a failure status
/// ([`exit_status`]). A closed pipe is not a failure, as for standard output.
pub(crate) fn say(text: &str) {
    let mut err = std::io::stderr().lock();
    let written =
        writeln!(err, "{}", printable(&crate::codespan::plain(text))).and_then(|()| err.flush());
    if written.is_err_and(|e| e.kind() != std::io::ErrorKind::BrokenPipe) {
        STDERR_FAILED.store(true, Ordering::Relaxed);
    }
}

/// The status a command ends with: `code`, except that a run that would succeed while one of
/// its messages to standard error could not be written ends with [`EXIT_OUTPUT_FAILED`] (1).
/// A status that already says failure is kept (2 for bad input stays 2). This is what GNU
/// tools do (gnulib's `close_stdout` exits with a failure status when standard error can't be
/// written): a script that checks the status learns that the run's messages were lost, even
/// though its main output (a report file, stdout) was written.
pub fn exit_status(code: ExitCode) -> ExitCode {
    if code == ExitCode::SUCCESS && STDERR_FAILED.load(Ordering::Relaxed) {
        ExitCode::from(EXIT_OUTPUT_FAILED)
    } else {
        code
    }
}

/// Prints text for a reader (not JSON): code spans lose their backticks ([`crate::codespan`]),
/// as the commands in hints must be copied without them.
pub(crate) fn print_text(text: &str) -> ExitCode {
    print(&crate::codespan::plain(text))
}

/// Prints `text` as it is (JSON, or text already without code-span markup).
pub(crate) fn print(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out
        .write_all(printable(text).as_bytes())
        .and_then(|()| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`ramvram advise | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            say(&error_line(
                Lang::from_environment(),
                &format!("stdout: {e}"),
            ));
            ExitCode::from(EXIT_OUTPUT_FAILED)
        }
    }
}

/// Tells stderr when `RAMVRAM_LANG` names a language ramvram doesn't have, in the language used
/// instead (the system's, else English).
pub fn warn_unknown_language() {
    if let Some(value) = Lang::unknown_override() {
        let lang = Lang::from_environment();
        say(&format!(
            "ramvram: {}",
            printable(&trf(
                lang,
                Msg::CliLangUnknown,
                &[("value", &value), ("lang", lang.native_name())],
            ))
        ));
    }
}

pub(crate) fn fail(lang: Lang, code: u8, message: &str) -> ExitCode {
    say(&error_line(lang, message));
    ExitCode::from(code)
}

/// "ramvram: error: MESSAGE" / "ramvram：错误：MESSAGE", with the language's colons.
pub(crate) fn error_line(lang: Lang, message: &str) -> String {
    use crate::present::names::labelled;
    labelled(
        lang,
        &labelled(lang, "ramvram", tr(lang, Msg::CliError)),
        message,
    )
}
