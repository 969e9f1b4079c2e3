//! `ramvram`: parse the command line, then run a command or open the window.

use std::process::ExitCode;

use clap::Parser;
use ramvram::cli::{self, Args};

fn main() -> ExitCode {
    let args = Args::parse();
    cli::warn_unknown_language();
    if let Some(code) = cli::run(&args) {
        return code;
    }
    match ramvram::ui::display_problem() {
        Some(reason) => cli::headless_fallback(&args, &reason),
        None => match ramvram::ui::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => cli::headless_fallback(&args, &ramvram::ui::WindowProblem::Failed(e)),
        },
    }
}
