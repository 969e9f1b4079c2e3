//! Profile files named on the command line: loaded with one line naming the file and field
//! on error, and a note for each field this version ignores or a newer schema.

use std::path::Path;
use std::process::ExitCode;

use super::{EXIT_BAD_INPUT, fail, say};
use crate::i18n::{Lang, Msg, trf};
use crate::present::errors::profile_error;
use crate::profile::{self, MachineProfile};

/// Says, one line each, which fields of `path` this version of ramvram ignored.
pub(super) fn warn_ignored(lang: Lang, path: &Path, fields: &[String]) {
    for field in fields {
        let file = path.display().to_string();
        say(&trf(
            lang,
            Msg::CliIgnoredField,
            &[("file", &file), ("field", field)],
        ));
    }
}

/// Loads a profile for the command line, printing one line naming the file and field on error.
pub fn load_for_cli(lang: Lang, path: &Path) -> Result<MachineProfile, ExitCode> {
    match profile::load_profile(path) {
        Ok(loaded) => {
            if let Some(version) = loaded.newer_schema {
                say(&trf(
                    lang,
                    Msg::CliNewerSchema,
                    &[
                        ("file", &path.display().to_string()),
                        ("version", &version.to_string()),
                        ("ours", &profile::SCHEMA_VERSION.to_string()),
                    ],
                ));
            }
            warn_ignored(lang, path, &loaded.ignored_fields);
            Ok(loaded.profile)
        }
        Err(e) => Err(fail(lang, EXIT_BAD_INPUT, &profile_error(lang, &e))),
    }
}
