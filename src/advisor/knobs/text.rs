//! A knob's value as the command line writes and reads it: the `apply` arguments of a
//! recommendation ([`args`]), the note on a base preset's values ([`note_text`]), the parser of
//! each [`Kind`] ([`parse`]).

use super::types::{Kind, Knob, KnobValue, Setting};
use super::values::knob;
use crate::i18n::Msg;
use crate::parse::{ValueError, parse_count, parse_resolution, parse_size};

/// A byte count as the size parser reads it, exactly: whole GiB or MiB (`64MiB`, memory), whole
/// GB or MB (`2GB`, files and datasets), else bytes.
pub fn size_arg(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;
    if bytes == 0 {
        "0".to_string()
    } else if bytes % GIB == 0 {
        format!("{}GiB", bytes / GIB)
    } else if bytes % 1_000_000_000 == 0 {
        format!("{}GB", bytes / 1_000_000_000)
    } else if bytes % MIB == 0 {
        format!("{}MiB", bytes / MIB)
    } else if bytes % 1_000_000 == 0 {
        format!("{}MB", bytes / 1_000_000)
    } else {
        bytes.to_string()
    }
}

/// A float as a flag value: at most two decimals, no trailing zeros.
pub fn decimal(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Bytes in decimal GB with up to six decimals (exact to the kilobyte), no space
/// (`1_505_280_000` → `1.50528GB`).
fn decimal_gb(bytes: u64) -> String {
    let text = format!("{:.6}", bytes as f64 / 1e9);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}GB")
}

/// `v` as `k`'s flag takes it in a recommendation's `apply`: sizes by [`size_arg`], decimals to
/// two places, resolutions `WxH`.
pub fn value_text(k: &Knob, v: KnobValue) -> String {
    match v {
        KnobValue::Whole(n) if k.kind == Kind::Size => size_arg(n),
        KnobValue::Whole(n) => n.to_string(),
        KnobValue::Pair(w, h) => format!("{w}x{h}"),
        KnobValue::Choice(name) => name.to_string(),
        KnobValue::Bool(b) => b.to_string(),
        KnobValue::Float(f) if k.kind == Kind::Share => f.to_string(),
        KnobValue::Float(f) => decimal(f),
    }
}

/// `v` as the note on a base preset writes it: exact, sizes of a megabyte or more in decimal GB
/// (`--dataset-size 1.50528GB`), decimals in full.
pub fn note_text(k: &Knob, v: KnobValue) -> String {
    match v {
        KnobValue::Whole(n) if k.kind == Kind::Size && n >= 1_000_000 => decimal_gb(n),
        KnobValue::Whole(n) if k.kind == Kind::Size => n.to_string(),
        KnobValue::Float(f) => f.to_string(),
        _ => value_text(k, v),
    }
}

/// The `advise` arguments that set `settings`, in order: `--flag value`, or `--flag` alone for
/// a switch turned on (a switch turned off has no flag and is left out).
pub fn args(settings: &[Setting]) -> Vec<String> {
    let mut out = Vec::new();
    for s in settings {
        let k = knob(s.knob);
        match (k.kind, s.value) {
            (Kind::Switch, KnobValue::Bool(true)) => out.push(format!("--{}", k.flag)),
            (Kind::Switch, _) => {}
            (_, v) => {
                out.push(format!("--{}", k.flag));
                out.push(value_text(k, v));
            }
        }
    }
    out
}

/// Reads `text` as `k`'s flag does.
///
/// # Errors
/// A value its parser refuses (not a number, an unknown unit or name), or a share outside
/// (0, 1].
pub fn parse(k: &Knob, text: &str) -> Result<KnobValue, ValueError> {
    let int = |max: u64| {
        let n: u64 = text
            .trim()
            .parse()
            .map_err(|_| ValueError::new(Msg::ValueNotInteger, text))?;
        if n > max {
            return Err(ValueError::new(Msg::ValueIntegerTooLarge, text));
        }
        Ok(KnobValue::Whole(n))
    };
    match k.kind {
        Kind::U32 => int(u64::from(u32::MAX)),
        Kind::U64 => int(u64::MAX),
        Kind::Count => parse_count(text).map(KnobValue::Whole),
        Kind::Size => parse_size(text).map(KnobValue::Whole),
        Kind::Resolution => parse_resolution(text).map(|(w, h)| KnobValue::Pair(w, h)),
        Kind::Choice(names) => names
            .iter()
            .find(|n| **n == text)
            .map(|n| KnobValue::Choice(n))
            .ok_or_else(|| unknown(text, names)),
        Kind::Bool | Kind::Switch => match text {
            "true" => Ok(KnobValue::Bool(true)),
            "false" => Ok(KnobValue::Bool(false)),
            _ => Err(unknown(text, &["true", "false"])),
        },
        Kind::Float => match text.trim().parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(KnobValue::Float(f)),
            _ => Err(ValueError::new(Msg::ValueNotNumber, text)),
        },
        Kind::Share => parse_share(text).map(KnobValue::Float),
    }
}

fn unknown(text: &str, names: &[&str]) -> ValueError {
    ValueError::new(Msg::ValueUnknownChoice, text)
        .with_list("ids", names.iter().map(|n| n.to_string()).collect())
}

/// A share typed as `0.01` or `1%`: above 0 and at most 1.
///
/// # Errors
/// Not a number, or outside (0, 1].
pub fn parse_share(s: &str) -> Result<f64, ValueError> {
    let t = s.trim();
    let v = match t.strip_suffix('%') {
        Some(pct) => pct.trim().parse::<f64>().map(|v| v / 100.0),
        None => t.parse::<f64>(),
    }
    .map_err(|_| ValueError::new(Msg::ValueShareNotShare, s))?;
    if v.is_finite() && v > 0.0 && v <= 1.0 {
        Ok(v)
    } else {
        Err(ValueError::new(Msg::ValueShareRange, s))
    }
}

/// The settings a list of `advise` arguments makes, as [`args`] writes them: `--flag value`,
/// or `--flag` alone for a switch. What reading a recommendation back from its JSON (which has
/// `apply`, not the typed settings) rebuilds. An argument that names no knob, or a value its
/// parser refuses, is skipped: the JSON may come from another version.
pub fn settings_of(apply: &[String]) -> Vec<Setting> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < apply.len() {
        let Some(k) = apply[i].strip_prefix("--").and_then(super::values::of_flag) else {
            i += 1;
            continue;
        };
        let next = apply.get(i + 1).filter(|v| !v.starts_with("--"));
        match (k.kind, next) {
            (Kind::Switch, _) => {
                out.push(Setting {
                    knob: k.id,
                    value: KnobValue::Bool(true),
                });
                i += 1;
            }
            (_, Some(text)) => {
                if let Ok(value) = parse(k, text) {
                    out.push(Setting { knob: k.id, value });
                }
                i += 2;
            }
            (_, None) => i += 1,
        }
    }
    out
}
