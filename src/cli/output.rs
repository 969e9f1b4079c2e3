//! What the command line writes: standard output and standard error without terminal control
//! characters, code spans without their backticks, and write failures that never panic.

use std::io::Write;
use std::process::ExitCode;

use super::EXIT_OUTPUT_FAILED;
use crate::i18n::{Lang, Msg, tr, trf};

/// Removes terminal control characters, bidirectional formatting and noncharacters
/// ([`crate::sanitize::clean`]): profiles come from other machines, and a host name must not be
/// able to move the cursor or retitle the terminal.
pub fn printable(text: &str) -> String {
    crate::sanitize::clean(text).into_owned()
}

/// Writes one line to standard error, code spans without their backticks
/// ([`crate::codespan`]). A closed or full stderr (`2>/dev/full`, a closed pipe)
/// is ignored rather than a panic, as `eprintln!` would give: the exit status still says what
/// happened.
pub(crate) fn say(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", printable(&crate::codespan::plain(text)));
    let _ = err.flush();
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
