//! Parsing quantities typed by a user: parameter counts (`7B`, `350M`, `131M`).

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
    fn bad_counts() {
        for bad in ["", "abc", "-7B", "0", "0.0001", "1e30T", "NaN", "7X"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }
}
