//! `ramvram`: parse the command line, then run a command or open the window. The only place
//! that knows both the command line and the window: neither module imports the other.

use std::process::ExitCode;

use clap::Parser;
use ramvram::cli::{self, Args};
use ramvram::ui::{self, WindowOptions, WindowProblem};

fn main() -> ExitCode {
    let args = Args::parse();
    cli::warn_unknown_language();
    if let Some(code) = cli::run(&args) {
        return code;
    }
    let lang = cli::primary_language(args.lang);
    let problem = match ui::display_problem() {
        Some(problem) => problem,
        None => {
            let options = WindowOptions {
                lang: args.lang.map(|l| cli::primary_language(Some(l))),
                profile: args.profile.clone(),
                profile_dir: args.profile_dir.clone(),
                trace: args.trace.clone(),
                prometheus: args.prometheus.clone().map(|url| ui::app::PrometheusStart {
                    url,
                    node: args.instance.clone(),
                    from: args.from.clone(),
                    to: args.to.clone(),
                    step: args.step.clone(),
                    mapping: args.mapping.clone(),
                }),
            };
            match ui::run(options) {
                Ok(()) => return ExitCode::SUCCESS,
                Err(e) => WindowProblem::Failed(e),
            }
        }
    };
    cli::headless_fallback(&args, &problem.text(lang))
}
