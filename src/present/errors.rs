//! Errors about files and values in the user's language: a profile or scenario that can't be
//! read or can't be right, a file skipped from the Lab machines view, a bad flag value. The
//! data comes from `profile`, `inputs` and the advisor as ids; the words from `locales/`.

use crate::i18n::{Lang, Msg, tr, trf};
use crate::inputs::scenario::ScenarioError;
use crate::profile::dir::Skip;
use crate::profile::{Problem, ProfileError};

/// What is wrong with a value: "300 is outside 0–200".
pub fn problem(lang: Lang, p: &Problem) -> String {
    match p {
        Problem::Zero => tr(lang, Msg::ProblemZero).to_string(),
        Problem::OutOfRange { value, lo, hi } => trf(
            lang,
            Msg::ProblemOutOfRange,
            &[("value", value), ("lo", lo), ("hi", hi)],
        ),
        Problem::TooLarge { value, max } => trf(
            lang,
            Msg::ProblemTooLarge,
            &[("value", value), ("max", max)],
        ),
        Problem::LargerThanField {
            value,
            other,
            other_value,
        } => trf(
            lang,
            Msg::ProblemLargerThanField,
            &[
                ("value", value),
                ("other", other),
                ("other_value", other_value),
            ],
        ),
        Problem::TooLong { max } => trf(lang, Msg::ProblemTooLong, &[("max", &max.to_string())]),
        Problem::TooMany { count, max } => trf(
            lang,
            Msg::ProblemTooMany,
            &[("count", &count.to_string()), ("max", &max.to_string())],
        ),
        Problem::AboveZeroAtMost { value, hi } => trf(
            lang,
            Msg::ProblemAboveZeroAtMost,
            &[("value", value), ("hi", hi)],
        ),
        Problem::NotPositive { value } => trf(lang, Msg::ProblemNotPositive, &[("value", value)]),
        Problem::SchemaVersion => tr(lang, Msg::ProblemSchemaVersion).to_string(),
        Problem::WidthHeightPair => tr(lang, Msg::ProblemWidthHeightPair).to_string(),
        Problem::NeedsSampleBytes => tr(lang, Msg::ProblemNeedsSampleBytes).to_string(),
    }
}

/// A profile file's error, naming the file and the field: "server.json: field
/// `memory.swappiness`: 300 is outside 0–200".
pub fn profile_error(lang: Lang, e: &ProfileError) -> String {
    let file = e.path().display().to_string();
    match e {
        ProfileError::Read { error, .. } => {
            trf(lang, Msg::ErrorRead, &[("file", &file), ("error", error)])
        }
        ProfileError::Parse { field, message, .. } => trf(
            lang,
            Msg::ErrorParse,
            &[("file", &file), ("field", field), ("error", message)],
        ),
        ProfileError::Invalid {
            field, problem: p, ..
        } => invalid(lang, &file, field, &problem(lang, p)),
        ProfileError::Write { error, .. } => {
            trf(lang, Msg::ErrorWrite, &[("file", &file), ("error", error)])
        }
    }
}

fn invalid(lang: Lang, file: &str, field: &str, problem: &str) -> String {
    trf(
        lang,
        Msg::ErrorInvalid,
        &[("file", file), ("field", field), ("problem", problem)],
    )
}

/// A scenario file's error, naming the file and the field.
pub fn scenario_error(lang: Lang, e: &ScenarioError) -> String {
    match e {
        ScenarioError::File(e) => profile_error(lang, e),
        ScenarioError::Plan { path, field, error } => invalid(
            lang,
            &path.display().to_string(),
            field,
            super::training::plan_error_text(lang, *error),
        ),
    }
}

/// Why a file is not in the Lab machines view.
pub fn skip(lang: Lang, s: &Skip) -> String {
    match s {
        Skip::NotJson => tr(lang, Msg::ErrorNotJson).to_string(),
        Skip::Error(e) => profile_error(lang, e),
    }
}

/// A flag whose value can't be right: "--num-workers: 2000 is outside 0–1024".
pub fn flag(lang: Lang, flag: &str, p: &Problem) -> String {
    trf(
        lang,
        Msg::ErrorFlag,
        &[("flag", flag), ("problem", &problem(lang, p))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_problem_reads_in_both_languages() {
        let e = ProfileError::Invalid {
            path: "server.json".into(),
            field: "memory.swappiness".into(),
            problem: Box::new(Problem::out_of_range(300, 0, 200)),
        };
        assert_eq!(
            profile_error(Lang::En, &e),
            "server.json: field `memory.swappiness`: 300 is outside 0–200"
        );
        assert_eq!(
            profile_error(Lang::Zh, &e),
            "server.json：字段 `memory.swappiness`：300 超出了允许的范围 0–200"
        );
    }
}
