//! Checks of a loaded profile's platform, memory layout and Windows sections: values no machine
//! can have are refused with the field's JSON path ([`super::io`] runs them).

use super::platform::MAX_INSTANCE_TYPE_CHARS;
use super::windows::{MAX_WINDOWS_ITEMS, MAX_WINDOWS_TEXT_CHARS};

/// Checks the fields of this file's part of a profile (`host.platform`, the slot counts,
/// `memory.wsl`): an instance type of at most [`MAX_INSTANCE_TYPE_CHARS`] printable characters,
/// slot and channel counts a board can have, sizes no larger than [`super::MAX_RAM_BYTES`].
///
/// # Errors
/// The field's JSON path and what is wrong with it.
pub(super) fn platform(p: &super::MachineProfile) -> Result<(), (String, super::Problem)> {
    use super::Problem;
    let err = |field: &str, problem| Err((field.to_string(), problem));
    if let Some(t) = p
        .host
        .platform
        .as_ref()
        .and_then(|p| p.instance_type.as_ref())
    {
        if t.chars().count() > MAX_INSTANCE_TYPE_CHARS || t.chars().any(char::is_control) {
            return err(
                "host.platform.instance_type",
                Problem::TooLong {
                    max: MAX_INSTANCE_TYPE_CHARS,
                },
            );
        }
    }
    let m = &p.memory;
    let counts = [
        ("memory.slots_total", m.slots_total, 1, 1024),
        ("memory.slots_populated", m.slots_populated, 0, 1024),
        ("memory.channels_total", m.channels_total, 1, 256),
    ];
    for (field, v, lo, hi) in counts {
        if let Some(x) = v.filter(|x| *x < lo || *x > hi) {
            return err(field, Problem::out_of_range(x, lo, hi));
        }
    }
    if let (Some(used), Some(total)) = (m.slots_populated, m.slots_total) {
        if used > total {
            return err(
                "memory.slots_populated",
                Problem::LargerThanField {
                    value: used.to_string(),
                    other: "memory.slots_total".into(),
                    other_value: total.to_string(),
                },
            );
        }
    }
    if let Some(w) = &m.wsl {
        if let Some(v) = w.version.filter(|v| !(1..=2).contains(v)) {
            return err("memory.wsl.version", Problem::out_of_range(v, 1, 2));
        }
        let sizes = [
            ("memory.wsl.memory_cap_bytes", w.memory_cap_bytes, false),
            (
                "memory.wsl.wslconfig_memory_bytes",
                w.wslconfig_memory_bytes,
                true,
            ),
            (
                "memory.wsl.wslconfig_swap_bytes",
                w.wslconfig_swap_bytes,
                true,
            ),
            ("memory.wsl.windows_ram_bytes", w.windows_ram_bytes, false),
        ];
        for (field, v, zero_ok) in sizes {
            match v {
                Some(0) if !zero_ok => return err(field, Problem::Zero),
                Some(x) if x > super::MAX_RAM_BYTES => {
                    return err(
                        field,
                        Problem::TooLarge {
                            value: x.to_string(),
                            max: super::MAX_RAM_BYTES.to_string(),
                        },
                    );
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Checks `windows` in a profile: at most [`MAX_WINDOWS_ITEMS`] page files, adapters and driver
/// models; texts of at most [`MAX_WINDOWS_TEXT_CHARS`] printable characters; RAM sizes no larger
/// than [`super::MAX_RAM_BYTES`] (page files and the commit limit up to 64 times that).
///
/// # Errors
/// The field's JSON path and what is wrong with it.
pub(super) fn windows(p: &super::MachineProfile) -> Result<(), (String, super::Problem)> {
    use super::Problem;
    let Some(w) = &p.windows else { return Ok(()) };
    let err = |field: String, problem| Err((field, problem));
    let too_large = |v: u64, max: u64| Problem::TooLarge {
        value: v.to_string(),
        max: max.to_string(),
    };
    let ram_max = super::MAX_RAM_BYTES;
    let commit_max = ram_max.saturating_mul(64);
    let text_ok =
        |s: &str| s.chars().count() <= MAX_WINDOWS_TEXT_CHARS && !s.chars().any(char::is_control);
    let lists = [
        (
            "windows.page_files",
            w.page_files.as_ref().map_or(0, Vec::len),
        ),
        ("windows.adapters", w.adapters.len()),
        ("windows.driver_models", w.driver_models.len()),
    ];
    for (field, n) in lists {
        if n > MAX_WINDOWS_ITEMS {
            return err(
                field.into(),
                Problem::TooLong {
                    max: MAX_WINDOWS_ITEMS,
                },
            );
        }
    }
    let sizes = [
        (
            "windows.installed_ram_bytes",
            w.installed_ram_bytes,
            ram_max,
        ),
        (
            "windows.commit_limit_bytes",
            w.commit_limit_bytes,
            commit_max,
        ),
        ("windows.commit_used_bytes", w.commit_used_bytes, commit_max),
    ];
    for (field, v, max) in sizes {
        match v {
            Some(0) if field == "windows.installed_ram_bytes" => {
                return err(field.into(), Problem::Zero);
            }
            Some(x) if x > max => return err(field.into(), too_large(x, max)),
            _ => {}
        }
    }
    for (i, f) in w.page_files.iter().flatten().enumerate() {
        if !text_ok(&f.path) {
            return err(
                format!("windows.page_files[{i}].path"),
                Problem::TooLong {
                    max: MAX_WINDOWS_TEXT_CHARS,
                },
            );
        }
        for (name, v) in [
            ("initial_bytes", f.initial_bytes),
            ("maximum_bytes", f.maximum_bytes),
            ("size_bytes", f.size_bytes),
            ("used_bytes", f.used_bytes),
            ("peak_bytes", f.peak_bytes),
        ] {
            if let Some(x) = v.filter(|x| *x > commit_max) {
                return err(
                    format!("windows.page_files[{i}].{name}"),
                    too_large(x, commit_max),
                );
            }
        }
    }
    for (i, a) in w.adapters.iter().enumerate() {
        if a.name.as_deref().is_some_and(|n| !text_ok(n)) {
            return err(
                format!("windows.adapters[{i}].name"),
                Problem::TooLong {
                    max: MAX_WINDOWS_TEXT_CHARS,
                },
            );
        }
        for (name, v) in [
            ("dedicated_video_bytes", a.dedicated_video_bytes),
            ("dedicated_system_bytes", a.dedicated_system_bytes),
            ("shared_system_bytes", a.shared_system_bytes),
        ] {
            if let Some(x) = v.filter(|x| *x > ram_max) {
                return err(
                    format!("windows.adapters[{i}].{name}"),
                    too_large(x, ram_max),
                );
            }
        }
    }
    Ok(())
}
