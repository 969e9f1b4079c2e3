//! Parsing quantities typed by a user: parameter counts (`7B`), sizes (`2TB`, `64GiB`),
//! resolutions (`3840x2160`).

/// Parses a count with an optional SI suffix: `K` = 10^3, `M` = 10^6, `B` or `G` = 10^9,
/// `T` = 10^12 (case-insensitive; `7B`, `6.74b`, `350M`, `131M`, `2851000000`). Underscores and
/// commas between digits are ignored.
///
/// # Errors
/// A message saying what is wrong: empty, not a number, negative, zero, or too large for u64.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| *c != '_' && *c != ',')
        .collect();
    if cleaned.is_empty() {
        return Err("empty".into());
    }
    let (number, scale) = match cleaned.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&cleaned[..cleaned.len() - 1], 1e3),
        Some('M') => (&cleaned[..cleaned.len() - 1], 1e6),
        Some('B') | Some('G') => (&cleaned[..cleaned.len() - 1], 1e9),
        Some('T') => (&cleaned[..cleaned.len() - 1], 1e12),
        _ => (cleaned.as_str(), 1.0),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number (examples: 7B, 350M, 2851000000)"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("`{text}` must be a positive count"));
    }
    let total = (value * scale).round();
    if total < 1.0 {
        return Err(format!("`{text}` must be at least 1"));
    }
    if total >= u64::MAX as f64 {
        return Err(format!("`{text}` is too large"));
    }
    Ok(total as u64)
}

/// Parses a size in bytes: `2TB`, `500GB`, `64GiB`, `1.5TiB`, `4096`. Decimal units (KB, MB,
/// GB, TB, PB = 10^3…10^15) as disks and datasets are sold; binary units (KiB … PiB) as memory
/// is. Case-insensitive; a bare number is bytes.
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size (examples: 2TB, 500GB, 64GiB)"))?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" | "k" => 1e3,
        "mb" | "m" => 1e6,
        "gb" | "g" => 1e9,
        "tb" | "t" => 1e12,
        "pb" | "p" => 1e15,
        "kib" => 1024.0,
        "mib" => 1024f64.powi(2),
        "gib" => 1024f64.powi(3),
        "tib" => 1024f64.powi(4),
        "pib" => 1024f64.powi(5),
        other => {
            return Err(format!(
                "`{text}`: unknown unit `{other}` (use KB, MB, GB, TB or KiB … TiB)"
            ));
        }
    };
    let bytes = value * scale;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(format!("`{text}` must be at least 1 byte"));
    }
    if bytes >= u64::MAX as f64 {
        return Err(format!("`{text}` is too large"));
    }
    Ok(bytes.round() as u64)
}

/// Parses `WIDTHxHEIGHT` (`3840x2160`, `224×224`).
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_resolution(text: &str) -> Result<(u32, u32), String> {
    let t = text.trim().replace('×', "x");
    let (w, h) = t
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{text}`: expected WIDTHxHEIGHT, e.g. 3840x2160"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| *v > 0 && *v <= 65_536)
    };
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("`{text}`: width and height must be 1–65536 pixels")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("7B"), Ok(7_000_000_000));
        assert_eq!(parse_count("350M"), Ok(350_000_000));
        assert_eq!(parse_count("131m"), Ok(131_000_000));
        assert_eq!(parse_count("2.851B"), Ok(2_851_000_000));
        assert_eq!(parse_count("6_738_415_616"), Ok(6_738_415_616));
        assert_eq!(parse_count("1.5K"), Ok(1500));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("2TB"), Ok(2_000_000_000_000));
        assert_eq!(parse_size("64GiB"), Ok(64 << 30));
        assert_eq!(parse_size("1.5 tib"), Ok(3 << 39));
        assert_eq!(parse_size("4096"), Ok(4096));
        for bad in ["", "-1GB", "2XB", "0", "1e40TB", "GB"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_resolution("3840x2160"), Ok((3840, 2160)));
        assert_eq!(parse_resolution("224×224"), Ok((224, 224)));
        assert!(parse_resolution("0x10").is_err() && parse_resolution("big").is_err());
    }

    #[test]
    fn bad_counts() {
        for bad in ["", "abc", "-7B", "0", "0.0001", "1e30T", "NaN", "7X"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }
}
