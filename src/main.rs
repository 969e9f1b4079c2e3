//! `ramvram`: parse the command line, then run a command or open the window. The only place
//! that knows both the command line and the window: neither module imports the other.

use std::process::ExitCode;

use ramvram::cli::{self, Args};
use ramvram::ui::{self, WindowOptions, WindowProblem};

/// The window's Prometheus start from `ramvram --prometheus URL …`, if given.
fn window_prometheus(w: &cli::prometheus::ServerRange) -> Option<ui::app::PrometheusStart> {
    Some(ui::app::PrometheusStart {
        url: w.prometheus.clone()?,
        node: w.instance.clone(),
        from: w.from.clone(),
        to: w.to.clone(),
        step: w.step.clone(),
        mapping: w.mapping.clone(),
    })
}

fn main() -> ExitCode {
    let args: Args = cli::help::parse();
    cli::warn_unknown_language();
    if let Some(code) = cli::run(&args) {
        return code;
    }
    let lang = cli::primary_language(args.lang);
    let problem = match ui::display_problem() {
        Some(problem) => problem,
        None => {
            let options = WindowOptions {
                lang: args
                    .lang
                    .filter(|l| *l != cli::LangArg::Both)
                    .map(|l| cli::primary_language(Some(l))),
                profile: args.profile.clone(),
                profile_dir: args.profile_dir.clone(),
                trace: args.trace.clone(),
                prometheus: window_prometheus(&args.window_prometheus),
            };
            match ui::run(options) {
                Ok(()) => return ExitCode::SUCCESS,
                Err(e) => WindowProblem::Failed(e),
            }
        }
    };
    cli::headless_fallback(&args, &problem.text(lang))
}
