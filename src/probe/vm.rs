//! Kernel memory settings: `vm.swappiness` and transparent huge pages.

use crate::profile::ThpMode;

/// Parses `/proc/sys/vm/swappiness` (an integer 0–200).
pub fn parse_swappiness(text: &str) -> Option<u32> {
    text.trim().parse().ok().filter(|v| *v <= 200)
}

/// Parses `/sys/kernel/mm/transparent_hugepage/enabled`, where the active mode is bracketed:
/// `always [madvise] never`.
pub fn parse_thp(text: &str) -> Option<ThpMode> {
    let start = text.find('[')?;
    let end = start + text[start..].find(']')?;
    match &text[start + 1..end] {
        "always" => Some(ThpMode::Always),
        "madvise" => Some(ThpMode::Madvise),
        "never" => Some(ThpMode::Never),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swappiness() {
        assert_eq!(parse_swappiness("60\n"), Some(60));
        assert_eq!(parse_swappiness("250"), None);
        assert_eq!(parse_swappiness(""), None);
    }

    #[test]
    fn thp_modes() {
        // Captured from the CI machine (Debian 12 default).
        assert_eq!(
            parse_thp("always [madvise] never\n"),
            Some(ThpMode::Madvise)
        );
        assert_eq!(parse_thp("[always] madvise never"), Some(ThpMode::Always));
        assert_eq!(parse_thp("always madvise [never]"), Some(ThpMode::Never));
        assert_eq!(parse_thp("always madvise never"), None);
    }
}
