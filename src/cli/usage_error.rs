//! Usage errors in the user's language: an unknown option, a bad value, a misspelt command.
//! In English the terminal shows clap's own message; in Chinese [`message`] writes one from
//! what clap knows about the error (its kind and its context: the option, the value, the
//! accepted values, the suggestion), with the reasons our value parsers give
//! ([`crate::parse::ValueError`]) and clap's own (a number that isn't one, a value out of range)
//! worded in Chinese too. Commands, options and values stay ASCII, as they are typed.

use std::ffi::OsString;
use std::num::{IntErrorKind, ParseFloatError, ParseIntError};

use clap::Command;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::codespan::plain;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::parse::ValueError;
use crate::present::names::labelled;

/// The whole message for `e` in `lang`, as clap would print it (error line, tips, usage, a
/// pointer to `--help`), ending in a newline; `None` in English and for kinds worded only by
/// clap (its text is then shown). `cmd` is the command that parsed `args` (the process's
/// arguments, program name first): the command the user was typing is found in them.
pub fn message(e: &clap::Error, lang: Lang, cmd: &Command, args: &[OsString]) -> Option<String> {
    if lang == Lang::En {
        return None;
    }
    let usage = match e.get(ContextKind::Usage) {
        Some(ContextValue::StyledStr(u)) => {
            let u = u.to_string();
            Some(
                u.trim()
                    .strip_prefix("Usage:")
                    .unwrap_or(&u)
                    .trim()
                    .to_string(),
            )
        }
        _ => None,
    };
    // The usage line starts with the command clap was parsing; without one, the arguments say.
    let path = match &usage {
        Some(u) => u
            .split_whitespace()
            .take_while(|w| !w.starts_with(['[', '<', '-']))
            .map(str::to_string)
            .collect(),
        None => command_path(cmd, args),
    };
    let command = path.join(" ");
    let mut tips = Vec::new();
    let mut lines = Vec::new();
    let main = match e.kind() {
        ErrorKind::UnknownArgument => {
            let arg = string(e, ContextKind::InvalidArg)?;
            if let Some(s) = e.get(ContextKind::SuggestedArg) {
                tips.push(did_you_mean(lang, s));
            }
            tips.extend(suggested(lang, e));
            let msg = if arg.starts_with('-') {
                Msg::UsageUnknownOption
            } else {
                Msg::UsageUnexpectedArgument
            };
            trf(lang, msg, &[("command", &command), ("arg", &arg)])
        }
        ErrorKind::InvalidValue => {
            let arg = flag(&string(e, ContextKind::InvalidArg)?);
            let value = string(e, ContextKind::InvalidValue)?;
            if let Some(ContextValue::Strings(values)) = e.get(ContextKind::ValidValue) {
                if !values.is_empty() {
                    lines.push(labelled(
                        lang,
                        tr(lang, Msg::UsagePossibleValues),
                        &crate::present::join(lang, values),
                    ));
                }
            }
            if let Some(s) = e.get(ContextKind::SuggestedValue) {
                tips.push(did_you_mean(lang, s));
            }
            if value.is_empty() {
                trf(lang, Msg::UsageMissingValue, &[("arg", &arg)])
            } else {
                trf(
                    lang,
                    Msg::UsageInvalidValue,
                    &[("arg", &arg), ("value", &value)],
                )
            }
        }
        ErrorKind::ValueValidation => {
            let arg = flag(&string(e, ContextKind::InvalidArg)?);
            let value = string(e, ContextKind::InvalidValue)?;
            let reason = reason(lang, std::error::Error::source(e)?, &value)?;
            trf(
                lang,
                Msg::UsageValueRejected,
                &[("arg", &arg), ("reason", &reason)],
            )
        }
        ErrorKind::InvalidSubcommand => {
            let name = string(e, ContextKind::InvalidSubcommand)?;
            if let Some(s) = e.get(ContextKind::SuggestedSubcommand) {
                tips.push(did_you_mean(lang, s));
            }
            tips.extend(suggested(lang, e));
            trf(
                lang,
                Msg::UsageUnknownCommand,
                &[("command", &command), ("name", &name)],
            )
        }
        ErrorKind::MissingRequiredArgument => {
            let Some(ContextValue::Strings(args)) = e.get(ContextKind::InvalidArg) else {
                return None;
            };
            let args: Vec<String> = args.iter().map(|a| format!("`{}`", flag(a))).collect();
            trf(
                lang,
                Msg::UsageMissingRequired,
                &[("args", &crate::present::join(lang, &args))],
            )
        }
        ErrorKind::ArgumentConflict => conflict(lang, e)?,
        ErrorKind::NoEquals => {
            let arg = flag(&string(e, ContextKind::InvalidArg)?);
            trf(lang, Msg::UsageNoEquals, &[("arg", &arg)])
        }
        ErrorKind::TooManyValues => {
            let arg = flag(&string(e, ContextKind::InvalidArg)?);
            let value = string(e, ContextKind::InvalidValue)?;
            let switch =
                find_long(cmd, &path, &arg).is_some_and(|a| !a.get_action().takes_values());
            let msg = if switch {
                Msg::UsageSwitchValue
            } else {
                Msg::UsageTooManyValues
            };
            trf(lang, msg, &[("arg", &arg), ("value", &value)])
        }
        ErrorKind::WrongNumberOfValues => {
            let arg = flag(&string(e, ContextKind::InvalidArg)?);
            let actual = number(e, ContextKind::ActualNumValues)?;
            let expected = number(e, ContextKind::ExpectedNumValues)?;
            trf(
                lang,
                Msg::UsageWrongNumber,
                &[("arg", &arg), ("actual", &actual), ("expected", &expected)],
            )
        }
        ErrorKind::TooFewValues => {
            let arg = flag(&string(e, ContextKind::InvalidArg)?);
            let actual = number(e, ContextKind::ActualNumValues)?;
            let min = number(e, ContextKind::MinValues)?;
            trf(
                lang,
                Msg::UsageTooFew,
                &[("arg", &arg), ("actual", &actual), ("min", &min)],
            )
        }
        ErrorKind::MissingSubcommand => {
            let name = string(e, ContextKind::InvalidSubcommand)?;
            if let Some(ContextValue::Strings(subs)) = e.get(ContextKind::ValidSubcommand) {
                lines.push(labelled(
                    lang,
                    tr(lang, Msg::UsageSubcommands),
                    &crate::present::join(lang, subs),
                ));
            }
            trf(lang, Msg::UsageMissingCommand, &[("command", &name)])
        }
        _ => return None,
    };
    let mut out = labelled(lang, tr(lang, Msg::CliError), &main);
    out.push_str(sentence_end(lang));
    for line in lines {
        out.push_str("\n  ");
        out.push_str(&line);
    }
    for tip in tips {
        out.push_str("\n  ");
        out.push_str(&labelled(lang, tr(lang, Msg::UsageTip), &tip));
    }
    if let Some(usage) = usage {
        out.push_str("\n\n");
        out.push_str(&labelled(lang, tr(lang, Msg::ClihelpUiUsage), &usage));
    }
    out.push_str("\n\n");
    let help = format!("{command} --help");
    out.push_str(&trf(lang, Msg::UsageMore, &[("command", &help)]));
    out.push('\n');
    Some(plain(&out))
}

/// The reason a value was refused, in `lang`: our parsers' [`ValueError`], and the errors of
/// clap's own number parsers (`std`'s "invalid digit found in string", clap's
/// "300 is not in 1..=60"). `None` for anything else.
pub fn reason(
    lang: Lang,
    source: &(dyn std::error::Error + 'static),
    value: &str,
) -> Option<String> {
    if let Some(v) = source.downcast_ref::<ValueError>() {
        return Some(v.text(lang));
    }
    let simple = |msg: Msg| trf(lang, msg, &[("value", value)]);
    if let Some(p) = source.downcast_ref::<ParseIntError>() {
        return Some(match p.kind() {
            IntErrorKind::Empty => tr(lang, Msg::ValueEmpty).to_string(),
            IntErrorKind::PosOverflow => simple(Msg::ValueIntegerTooLarge),
            IntErrorKind::NegOverflow => simple(Msg::ValueIntegerTooSmall),
            _ => simple(Msg::ValueNotInteger),
        });
    }
    if source.downcast_ref::<ParseFloatError>().is_some() {
        return Some(simple(Msg::ValueNotNumber));
    }
    // clap's ranged integer parsers: "{value} is not in {min}..={max}" (or `..{end}`).
    let text = source.to_string();
    let (got, bounds) = text.split_once(" is not in ")?;
    let (min, max) = match bounds.split_once("..=") {
        Some((min, max)) => (min.to_string(), max.parse::<i128>().ok()?),
        None => {
            let (min, end) = bounds.split_once("..")?;
            (min.to_string(), end.parse::<i128>().ok()? - 1)
        }
    };
    let (got_n, min_n) = (got.parse::<i128>().ok()?, min.parse::<i128>().ok()?);
    if min_n == 0 && got_n < 0 && max >= i128::from(i32::MAX) {
        return Some(trf(lang, Msg::ValueNegative, &[("value", got)]));
    }
    // Past 10^15 in scientific notation (u64::MAX as 1.845e19, not 20 digits).
    let n = |t: &str| crate::format::number_text(t).into_owned();
    Some(trf(
        lang,
        Msg::ValueOutOfRange,
        &[
            ("value", &n(got)),
            ("min", &n(&min)),
            ("max", &n(&max.to_string())),
        ],
    ))
}

/// "the argument X cannot be used with Y", and its forms.
fn conflict(lang: Lang, e: &clap::Error) -> Option<String> {
    let prior = e.get(ContextKind::PriorArg);
    if let Some(arg) = string(e, ContextKind::InvalidArg) {
        if prior == Some(&ContextValue::String(arg.clone())) {
            return Some(trf(lang, Msg::UsageRepeated, &[("arg", &flag(&arg))]));
        }
        let arg = flag(&arg);
        return Some(match others(lang, prior) {
            Some(other) => trf(
                lang,
                Msg::UsageConflict,
                &[("arg", &arg), ("other", &other)],
            ),
            None => trf(lang, Msg::UsageConflictOthers, &[("arg", &arg)]),
        });
    }
    let name = string(e, ContextKind::InvalidSubcommand)?;
    let other = others(lang, prior)?;
    Some(trf(
        lang,
        Msg::UsageCommandConflict,
        &[("name", &name), ("other", &other)],
    ))
}

/// The arguments a conflict names, as code spans joined as `lang` joins a list.
fn others(lang: Lang, prior: Option<&ContextValue>) -> Option<String> {
    let names: Vec<String> = match prior? {
        ContextValue::String(one) => vec![flag(one)],
        ContextValue::Strings(many) if !many.is_empty() => many.iter().map(|a| flag(a)).collect(),
        _ => return None,
    };
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    Some(crate::present::join(lang, &quoted))
}

/// "did you mean X?" for a suggestion (one value or several).
fn did_you_mean(lang: Lang, s: &ContextValue) -> String {
    let items: Vec<String> = match s {
        ContextValue::String(one) => vec![format!("`{one}`")],
        ContextValue::Strings(many) => many.iter().map(|m| format!("`{m}`")).collect(),
        other => vec![format!("`{other}`")],
    };
    let what = items.join(tr(lang, Msg::UsageOr));
    trf(lang, Msg::UsageDidYouMean, &[("what", &what)])
}

/// clap's free-text tips, recognised and reworded: "to pass 'X' as a value, use 'Y'",
/// "'advise --json' exists", "subcommand 'X' exists; to use it, remove the '--' before it".
/// A tip not recognised is left out rather than shown in English.
fn suggested(lang: Lang, e: &clap::Error) -> Vec<String> {
    let Some(ContextValue::StyledStrs(tips)) = e.get(ContextKind::Suggested) else {
        return Vec::new();
    };
    tips.iter()
        .filter_map(|tip| {
            let tip = tip.to_string();
            let text = if let Some(rest) = tip.strip_prefix("to pass '") {
                let (arg, usage) = rest.split_once("' as a value, use '")?;
                let usage = usage.strip_suffix('\'')?;
                trf(lang, Msg::UsageAsValue, &[("arg", arg), ("usage", usage)])
            } else if let Some(rest) = tip.strip_prefix("subcommand '") {
                let (arg, _) = rest.split_once("' exists")?;
                trf(lang, Msg::UsageRemoveDashes, &[("arg", arg)])
            } else {
                let usage = tip.strip_prefix('\'')?.strip_suffix("' exists")?;
                trf(lang, Msg::UsageAfterSubcommand, &[("usage", usage)])
            };
            Some(text + sentence_end(lang))
        })
        .collect()
}

/// An argument as clap names it (`--num-workers <NUM_WORKERS>`, `<FOLDER>`) as typed:
/// `--num-workers`; a positional keeps its name.
fn flag(display: &str) -> String {
    if display.starts_with('-') {
        display
            .split([' ', '='])
            .next()
            .unwrap_or(display)
            .to_string()
    } else {
        display.to_string()
    }
}

fn string(e: &clap::Error, kind: ContextKind) -> Option<String> {
    match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn number(e: &clap::Error, kind: ContextKind) -> Option<String> {
    match e.get(kind)? {
        ContextValue::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn sentence_end(lang: Lang) -> &'static str {
    match lang {
        Lang::En => ".",
        Lang::Zh => "。",
    }
}

/// The option `--name` (`arg`) of the command at `path` (`ramvram`, `advise`, …) or a global one.
fn find_long<'a>(cmd: &'a Command, path: &[String], arg: &str) -> Option<&'a clap::Arg> {
    let long = arg.strip_prefix("--")?;
    let mut current = cmd;
    for name in path.iter().skip(1) {
        current = current.find_subcommand(name)?;
    }
    current
        .get_arguments()
        .chain(cmd.get_arguments())
        .find(|a| a.get_long() == Some(long))
}

/// The command the user was typing: `ramvram`, then each subcommand named in `args` (after
/// the program name), skipping options and the values of those that take one.
fn command_path(cmd: &Command, args: &[OsString]) -> Vec<String> {
    let mut path = vec![cmd.get_name().to_string()];
    let mut current = cmd;
    let mut words = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        let takes_value = |found: Option<&clap::Arg>| {
            found.is_some_and(|a| {
                a.get_action().takes_values() && a.get_num_args().is_none_or(|n| n.min_values() > 0)
            })
        };
        if let Some(long) = word.strip_prefix("--") {
            if !long.contains('=') {
                let found = current
                    .get_arguments()
                    .chain(cmd.get_arguments())
                    .find(|a| a.get_long() == Some(long));
                if takes_value(found) {
                    words.next();
                }
            }
            continue;
        }
        if let Some(shorts) = word.strip_prefix('-') {
            let mut chars = shorts.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                let found = current.get_arguments().find(|a| a.get_short() == Some(c));
                if takes_value(found) {
                    words.next();
                }
            }
            continue;
        }
        match current.find_subcommand(word.as_ref()) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                current = sub;
            }
            None => break,
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_reasons_are_worded_in_chinese() {
        let zh = |source: &(dyn std::error::Error + 'static), value: &str| {
            reason(Lang::Zh, source, value)
        };
        let digit = "abc".parse::<i64>().unwrap_err();
        assert_eq!(zh(&digit, "abc").as_deref(), Some("`abc` 不是整数"));
        let big = "99999999999999999999".parse::<i64>().unwrap_err();
        assert_eq!(
            zh(&big, "99999999999999999999").as_deref(),
            Some("`99999999999999999999` 太大了")
        );
        let range: Box<dyn std::error::Error> = "300 is not in 1..=60".into();
        assert_eq!(
            zh(range.as_ref(), "300").as_deref(),
            Some("300 超出了范围，要在 1 到 60 之间")
        );
        let below: Box<dyn std::error::Error> = "-1 is not in 0..=4294967295".into();
        assert_eq!(zh(below.as_ref(), "-1").as_deref(), Some("-1 不能是负数"));
        let other: Box<dyn std::error::Error> = "something else".into();
        assert_eq!(zh(other.as_ref(), "x"), None);
    }

    #[test]
    fn options_are_named_as_typed() {
        assert_eq!(flag("--num-workers <NUM_WORKERS>"), "--num-workers");
        assert_eq!(flag("<FOLDER>"), "<FOLDER>");
    }
}
