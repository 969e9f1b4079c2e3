//! `--help` in the user's language: clap's command, built from the derive, with every command's
//! description, every flag's help, the values a flag takes and clap's own words ("Usage",
//! "Options", "Print help") replaced by texts from `locales/*/clihelp.toml`. The language is
//! known before parsing: `--lang en|zh` on the command line, else `RAMVRAM_LANG`, else the
//! system's ([`help_language`]).

use std::ffi::OsString;
use std::io::Write as _;

use clap::error::ErrorKind;
use clap::{Arg, ArgAction, Command, CommandFactory, FromArgMatches};

use crate::i18n::{Lang, Msg, tr};
use crate::present::names::labelled;

use super::{Args, LangArg, primary_language, usage_error};

/// The text under `key` in `lang`, code spans without their backticks (help goes to a
/// terminal); `None` when the locale files have no such key.
fn text(lang: Lang, key: &str) -> Option<String> {
    Msg::from_key(key).map(|m| crate::codespan::plain(tr(lang, m)))
}

/// The language `--help` is shown in: `--lang en|zh` among `args` (the value after `--lang`, or
/// `--lang=…`), else [`primary_language`]'s choice without one. A bad `--lang` value is left
/// for clap to report.
pub fn help_language(args: &[OsString]) -> Lang {
    let mut given = None;
    let mut iter = args.iter().map(|a| a.to_string_lossy());
    while let Some(arg) = iter.next() {
        let value = match arg.strip_prefix("--lang") {
            Some("") => iter.next().map(|v| v.into_owned()),
            Some(rest) => rest.strip_prefix('=').map(str::to_string),
            None => continue,
        };
        given = match value.as_deref() {
            Some("en") => Some(LangArg::En),
            Some("zh") => Some(LangArg::Zh),
            Some("both") => Some(LangArg::Both),
            _ => given,
        };
    }
    primary_language(given)
}

/// Parses the process's command line with help in the user's language ([`help_language`]).
/// `--help` and `-h` print the help and exit 0 (1 when standard output can't take it:
/// `--help > /dev/full`); a usage error prints its message to standard error and exits 2, as
/// `Args::parse` does: clap's message in English, ours in Chinese ([`usage_error::message`]).
pub fn parse() -> Args {
    let raw: Vec<OsString> = std::env::args_os().collect();
    let lang = help_language(&raw);
    let mut cmd = command(lang);
    let matches = match cmd.try_get_matches_from_mut(&raw) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let text = if lang == Lang::Zh {
                rendered(&e, lang)
            } else {
                e.render().to_string()
            };
            std::process::exit(print_or_fail(lang, &text));
        }
        Err(e) => exit_with(&e, lang, &cmd, &raw),
    };
    Args::from_arg_matches(&matches).unwrap_or_else(|e| exit_with(&e, lang, &cmd, &raw))
}

/// Writes the help (or version) to standard output: exit status 0, or 1 with a message when it
/// can't be written (a full disk, `/dev/full`); a closed pipe (`--help | head`) is not an error.
fn print_or_fail(lang: Lang, text: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            super::say(&super::output::error_line(lang, &format!("stdout: {e}")));
            i32::from(super::EXIT_OUTPUT_FAILED)
        }
    }
}

/// Ends the process for a usage error `e` (or help shown for a missing command) in `lang`:
/// the message on standard error, exit status 2. Without a message of ours, clap's own.
fn exit_with(e: &clap::Error, lang: Lang, cmd: &Command, raw: &[OsString]) -> ! {
    let text = match e.kind() {
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand if lang == Lang::Zh => {
            Some(rendered(e, lang))
        }
        _ => usage_error::message(e, lang, cmd, raw),
    };
    match text {
        Some(text) => {
            // Exit status 2 whether or not stderr took the message.
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(super::printable(&text).as_bytes());
            let _ = err.flush();
            std::process::exit(i32::from(super::EXIT_BAD_INPUT));
        }
        None => e.exit(),
    }
}

/// The help clap rendered into `e`, as plain text; in Chinese its headings end in a full-width
/// colon ("选项："): clap writes an ASCII one after every heading.
pub fn rendered(e: &clap::Error, lang: Lang) -> String {
    let text = e.render().to_string();
    if lang != Lang::Zh {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        match body.strip_suffix(':') {
            Some(heading) if !heading.starts_with(' ') && !heading.is_empty() => {
                out.push_str(heading);
                out.push('：');
            }
            _ => out.push_str(body),
        }
        out.push_str(end);
    }
    out
}

/// The command line's clap command with its help in `lang`.
pub fn command(lang: Lang) -> Command {
    let mut cmd = localize(Args::command(), lang, "root");
    // clap adds its `help` subcommand while building; it gets our words afterwards.
    cmd.build();
    localize_help_subcommands(cmd, lang)
}

fn localize_help_subcommands(cmd: Command, lang: Lang) -> Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd;
    for name in names {
        cmd = cmd.mut_subcommand(&name, |s| {
            if name == "help" {
                s.about(tr(lang, Msg::ClihelpUiHelpCommand))
            } else {
                localize_help_subcommands(s, lang)
            }
        });
    }
    cmd
}

/// `cmd` (at `path`: `root`, `advise`, `bench_memory`) with its texts in `lang`.
fn localize(cmd: Command, lang: Lang, path: &str) -> Command {
    let ui = |m: Msg| tr(lang, m);
    let about_key = if path == "root" {
        "clihelp.about.root".to_string()
    } else {
        format!("clihelp.about.{path}")
    };
    let mut cmd = cmd;
    if let Some(about) = text(lang, &about_key) {
        cmd = cmd.about(about).long_about(None::<&'static str>);
    }
    let mut usage = format!("{} [{}]", cmd_path(path), ui(Msg::ClihelpUiUsageOptions));
    for pos in cmd.get_positionals() {
        usage.push_str(&format!(" <{}>", pos.get_id().as_str().to_uppercase()));
    }
    if cmd.has_subcommands() {
        usage.push_str(&format!(" [{}]", ui(Msg::ClihelpUiUsageCommand)));
    }
    cmd = cmd
        .override_usage(usage)
        .help_template(format!(
            "{{about-with-newline}}\n{}\n\n{{all-args}}{{after-help}}",
            labelled(lang, ui(Msg::ClihelpUiUsage), "{usage}")
        ))
        .subcommand_help_heading(ui(Msg::ClihelpUiCommands))
        .disable_help_flag(true)
        .arg(
            Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::Help)
                .help(ui(Msg::ClihelpUiHelp)),
        );
    if path == "root" {
        cmd = cmd.disable_version_flag(true).arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(ui(Msg::ClihelpUiVersion)),
        );
    }
    let section = path.to_string();
    cmd = cmd.mut_args(|a| localize_arg(a, lang, &section));
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in subs {
        let sub_path = if path == "root" {
            name.clone()
        } else {
            format!("{path}_{name}")
        };
        cmd = cmd.mut_subcommand(&name, |s| localize(s, lang, &sub_path));
    }
    cmd
}

/// `ramvram`, `ramvram advise`, `ramvram bench memory` for a command's `path`.
fn cmd_path(path: &str) -> String {
    if path == "root" {
        "ramvram".into()
    } else {
        format!("ramvram {}", path.replace('_', " "))
    }
}

/// One flag's help in `lang`: its own text (`clihelp.<command>.<flag>`, else
/// `clihelp.shared.<flag>`), its heading, and the values it takes with what each means.
fn localize_arg(arg: Arg, lang: Lang, section: &str) -> Arg {
    let id = arg.get_id().as_str().to_string();
    if id == "help" || id == "version" {
        return arg.help_heading(tr(lang, Msg::ClihelpUiOptions));
    }
    let takes_values = arg.get_action().takes_values();
    let mut arg = if takes_values {
        // Defaults are written in the help text, in words.
        arg.hide_default_value(true).hide_possible_values(true)
    } else {
        arg
    };
    let help = text(lang, &format!("clihelp.{section}.{id}"))
        .or_else(|| text(lang, &format!("clihelp.shared.{id}")));
    let values: Vec<String> = if takes_values {
        arg.get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| {
                let name = v.get_name();
                match text(lang, &format!("clihelp.value.{id}.{name}")) {
                    Some(meaning) if meaning != name => {
                        format!("  - {}", labelled(lang, name, &meaning))
                    }
                    _ => format!("  - {name}"),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    if let Some(help) = help {
        let long = if values.is_empty() {
            help.clone()
        } else {
            format!(
                "{help}\n\n{}\n{}",
                labelled(lang, tr(lang, Msg::ClihelpUiPossibleValues), "").trim_end(),
                values.join("\n")
            )
        };
        arg = arg.help(help).long_help(long);
    }
    let heading = match arg.get_help_heading() {
        Some("Training-memory planner") => Some(tr(lang, Msg::ClihelpUiHeadingTraining)),
        Some("Workload simulator (data loading)") => Some(tr(lang, Msg::ClihelpUiHeadingWorkload)),
        Some("Inference memory") => Some(tr(lang, Msg::ClihelpUiHeadingInference)),
        Some(_) => None,
        None if arg.is_positional() => Some(tr(lang, Msg::ClihelpUiArguments)),
        None => Some(tr(lang, Msg::ClihelpUiOptions)),
    };
    match heading {
        Some(h) => arg.help_heading(h),
        None => arg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn help_of(lang: Lang, args: &[&str]) -> String {
        let mut cmd = command(lang);
        let err = cmd
            .try_get_matches_from_mut(args)
            .expect_err("--help ends parsing");
        assert_eq!(err.kind(), ErrorKind::DisplayHelp);
        rendered(&err, lang)
    }

    #[test]
    fn chinese_help_is_chinese() {
        let help = help_of(Lang::Zh, &["ramvram", "advise", "--help"]);
        assert!(help.contains("用法：ramvram advise [选项]"), "{help}");
        assert!(help.contains("对照 GPU 评估一台机器的内存"), "{help}");
        assert!(help.contains("\n训练显存规划：\n"), "{help}");
        assert!(help.contains("\n选项：\n"), "{help}");
        assert!(help.contains("显示帮助"), "{help}");
        assert!(help.contains("- zero2：ZeRO-2"), "{help}");
        assert!(help.contains("可选值：\n"), "{help}");
        for english in [
            "Usage",
            "Options:",
            "Print help",
            "Possible values",
            "[default",
        ] {
            assert!(!help.contains(english), "{english} in {help}");
        }
        let short = help_of(Lang::Zh, &["ramvram", "-h"]);
        assert!(
            short.contains("检测本机") && short.contains("显示这份帮助"),
            "{short}"
        );
    }

    /// The derive's help headings `localize_arg` translates.
    const HEADINGS: [&str; 3] = [
        "Training-memory planner",
        "Workload simulator (data loading)",
        "Inference memory",
    ];

    #[test]
    fn every_flag_and_command_has_help_in_the_locales() {
        fn walk(cmd: &Command, path: &str, missing: &mut Vec<String>) {
            let about = format!("clihelp.about.{path}");
            if Msg::from_key(&about).is_none() {
                missing.push(about);
            }
            for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
                let id = a.get_id().as_str();
                // A heading `localize_arg` doesn't translate would stay in English.
                if let Some(h) = a.get_help_heading().filter(|h| !HEADINGS.contains(h)) {
                    missing.push(format!("heading {h}"));
                }
                if ["help", "version"].contains(&id) {
                    continue;
                }
                if Msg::from_key(&format!("clihelp.{path}.{id}")).is_none()
                    && Msg::from_key(&format!("clihelp.shared.{id}")).is_none()
                {
                    missing.push(format!("{path}.{id}"));
                }
            }
            for s in cmd.get_subcommands() {
                let sub = if path == "root" {
                    s.get_name().to_string()
                } else {
                    format!("{path}_{}", s.get_name())
                };
                walk(s, &sub, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Args::command(), "root", &mut missing);
        assert!(missing.is_empty(), "no help text for {missing:?}");
    }

    #[test]
    fn the_language_comes_from_lang_before_parsing() {
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            help_language(&args(&["ramvram", "--lang", "zh", "-h"])),
            Lang::Zh
        );
        assert_eq!(
            help_language(&args(&["ramvram", "advise", "--lang=en"])),
            Lang::En
        );
    }
}
