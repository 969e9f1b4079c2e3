//! Detection notes in words.

use super::names;
use crate::i18n::{Lang, Msg, tr};
use crate::profile::{Note, NoteId};

/// A detection note, with the system's own words appended.
pub fn note(lang: Lang, n: &Note) -> String {
    let msg = match n.id {
        NoteId::NvmlUnavailable => Msg::NoteNvmlUnavailable,
        NoteId::GpuQueryFailed => Msg::NoteGpuQueryFailed,
        NoteId::GpuMemoryUnsupported => Msg::NoteGpuMemoryUnsupported,
        NoteId::MountTimedOut => Msg::NoteMountTimedOut,
        NoteId::SourceUnreadable => Msg::NoteSourceUnreadable,
        NoteId::PlatformPartial => Msg::NotePlatformPartial,
        NoteId::GpuTypeUnknown => Msg::NoteGpuTypeUnknown,
        NoteId::WslConfigMalformed => Msg::NoteWslConfigMalformed,
        NoteId::GpuSuspended => Msg::GpuNoteSuspended,
        NoteId::SourceMalformed => Msg::WindowsNoteSourceMalformed,
        NoteId::SysmemFallbackUnknown => Msg::WindowsNoteSysmemFallbackUnknown,
        NoteId::GpuMigEnabled => Msg::GpuNoteMigEnabled,
        NoteId::ValueOutOfRange => Msg::MacosNoteValueOutOfRange,
    };
    match &n.detail {
        Some(d) => names::aside(lang, tr(lang, msg), d),
        None => tr(lang, msg).to_string(),
    }
}
