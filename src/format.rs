//! Number formatting for display: the one place bytes become "GiB" and ratios become "×".
//!
//! Memory sizes show in GiB (2^30 bytes); bandwidth in GB/s (10^9 bytes/s, the STREAM and PCIe
//! convention). An unknown value shows as the locale's "unknown". A number and its unit are
//! joined by a no-break space ([`NBSP`]), so no view breaks "16.0 / GiB" across lines.

use crate::i18n::{Lang, Msg, tr};

/// The no-break space (U+00A0) between a number and its unit: every line breaker (UAX #14, in
/// the window, the PDF and the terminal) keeps the two on one line.
pub const NBSP: char = '\u{a0}';

/// Bytes per GiB, as a float.
pub const GIB: f64 = crate::units::GIB as f64;

/// `17179869184` → `"16.0 GiB"`; below 1 GiB, MiB (`"64 MiB"`); from 10 TiB (10,240 GiB), TiB
/// (`"12.5 TiB"`, `"1,024 TiB"`), where a count of GiB stops being readable.
pub fn gib(bytes: u64) -> String {
    let g = bytes as f64 / GIB;
    if g >= 10_240.0 {
        let t = g / 1024.0;
        if t >= 100.0 {
            format!("{}{NBSP}TiB", thousands(t.round() as u64))
        } else {
            format!("{t:.1}{NBSP}TiB")
        }
    } else if g >= 100.0 {
        format!("{g:.0}{NBSP}GiB")
    } else if g >= 1.0 {
        format!("{g:.1}{NBSP}GiB")
    } else {
        format!("{:.0}{NBSP}MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}

/// A size that may be small (a sample, a file): below 1 MiB in KiB (`153600` → `"150 KiB"`),
/// else as [`gib`].
pub fn size(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{:.0}{NBSP}KiB", bytes as f64 / 1024.0)
    } else {
        gib(bytes)
    }
}

/// One sample's size: as [`size`], with one decimal between 1 and 100 MiB (`1_228_800` →
/// `"1.2 MiB"`, a 640² RGB image), where a whole MiB would hide a fifth of it.
pub fn sample_size(bytes: u64) -> String {
    let mib = bytes as f64 / (1u64 << 20) as f64;
    if (1.0..100.0).contains(&mib) {
        format!("{mib:.1}{NBSP}MiB")
    } else {
        size(bytes)
    }
}

/// A size in decimal GB (10^9 bytes), as disk vendors, `du --si` and NVIDIA's reference
/// architectures count: a dataset on storage, "128 GB per GPU". `2_000_000_000_000` →
/// `"2,000 GB"`; below 10 GB one decimal (`"4.5 GB"`).
pub fn gb(bytes: u64) -> String {
    let gb = crate::units::to_gb(bytes);
    if gb >= 10.0 {
        format!("{}{NBSP}GB", thousands(gb.round() as u64))
    } else {
        format!("{gb:.1}{NBSP}GB")
    }
}

/// Beyond this, a number in a message is written in scientific notation: 10^15, past any
/// size, count or rate ramvram accepts, where digits stop being readable.
pub const SCIENTIFIC_FROM: f64 = 1e15;

/// A number as a message writes it: as given up to [`SCIENTIFIC_FROM`], in scientific notation
/// with four significant digits past it (`1e308`, not 309 digits; `1.845e19` for 2^64 − 1),
/// the sign kept. Text that isn't a number is returned as it is.
pub fn number_text(text: &str) -> std::borrow::Cow<'_, str> {
    let t = text.trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v.abs() >= SCIENTIFIC_FROM => {
            let s = format!("{v:.3e}");
            let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            format!("{mantissa}e{exponent}").into()
        }
        _ => text.into(),
    }
}

/// `1234567` → `"1,234,567"`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// [`gib`], or "unknown" in `lang`.
pub fn gib_or_unknown(lang: Lang, bytes: Option<u64>) -> String {
    bytes.map_or_else(|| unknown(lang), gib)
}

/// Bandwidth in GB/s (10^9 bytes/s, the STREAM and PCIe convention): `102_400_000_000.0` →
/// `"102.4 GB/s"`; below 10 GB/s two decimals (`"0.98 GB/s"`).
pub fn gbps(bytes_per_s: f64) -> String {
    let g = bytes_per_s / 1e9;
    if g >= 10.0 {
        format!("{g:.1}{NBSP}GB/s")
    } else {
        format!("{g:.2}{NBSP}GB/s")
    }
}

/// [`gbps`], or "unknown".
pub fn gbps_or_unknown(lang: Lang, v: Option<f64>) -> String {
    v.map_or_else(|| unknown(lang), gbps)
}

/// Bandwidth in MB/s (10^6 bytes/s), for small reads: `12_288_000.0` → `"12.3 MB/s"`.
pub fn mbps(bytes_per_s: f64) -> String {
    format!("{:.1}{NBSP}MB/s", bytes_per_s / 1e6)
}

/// A fraction as a percentage: `0.052` → `"5.2 %"`.
pub fn percent(f: f64) -> String {
    format!("{:.1}{NBSP}%", f * 100.0)
}

/// A ratio with two decimals and a multiplication sign: `0.6667` → `"0.67×"`.
pub fn ratio(r: f64) -> String {
    format!("{r:.2}×")
}

/// [`ratio`], or "unknown".
pub fn ratio_or_unknown(lang: Lang, r: Option<f64>) -> String {
    r.map_or_else(|| unknown(lang), ratio)
}

/// A count, or "unknown".
pub fn count_or_unknown<T: std::fmt::Display>(lang: Lang, v: Option<T>) -> String {
    v.map_or_else(|| unknown(lang), |v| v.to_string())
}

/// Text, or "unknown".
pub fn text_or_unknown(lang: Lang, v: Option<&str>) -> String {
    v.map_or_else(|| unknown(lang), str::to_string)
}

/// "unknown" / "未知".
pub fn unknown(lang: Lang) -> String {
    tr(lang, Msg::CommonUnknown).to_string()
}

/// A rate in samples per second, e.g. "1,234 samples/s" / "每秒 1234 个样本".
pub fn rate(lang: Lang, samples_per_s: f64) -> String {
    let n = if samples_per_s >= 100.0 {
        format!("{samples_per_s:.0}")
    } else if samples_per_s >= 10.0 {
        format!("{samples_per_s:.1}")
    } else {
        format!("{samples_per_s:.2}")
    };
    crate::i18n::trf(lang, Msg::UnitSamplesPerS, &[("n", &n)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(gib(16 << 30), "16.0\u{a0}GiB");
        assert_eq!(gib(2048 << 30), "2048\u{a0}GiB");
        assert_eq!(gib(64 << 20), "64\u{a0}MiB");
        // 24,684,092 kB (this CI machine's MemTotal) = 23.54 GiB.
        assert_eq!(gib(24_684_092 * 1024), "23.5\u{a0}GiB");
        // 10 TiB and above: 12,800 GiB = 12.5 TiB; 2^60 B = 1,048,576 TiB.
        assert_eq!(gib(10_239 << 30), "10239\u{a0}GiB");
        assert_eq!(gib(12_800 << 30), "12.5\u{a0}TiB");
        assert_eq!(gib(1 << 60), "1,048,576\u{a0}TiB");
    }

    #[test]
    fn dataset_sizes_are_decimal_with_thousands_separators() {
        assert_eq!(gb(2_000_000_000_000), "2,000\u{a0}GB");
        assert_eq!(gb(138_000_000_000), "138\u{a0}GB");
        assert_eq!(gb(4_500_000_000), "4.5\u{a0}GB");
        assert_eq!(thousands(666_667), "666,667");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn bandwidth() {
        // Quad-channel DDR4-3200: 4 × 3200 × 10^6 × 8 B = 102.4 × 10^9 B/s.
        assert_eq!(gbps(4.0 * 3200e6 * 8.0), "102.4\u{a0}GB/s");
        // PCIe Gen3 x1: 8 GT/s × 128/130 / 8 = 0.985 GB/s.
        assert_eq!(gbps(8e9 * 128.0 / 130.0 / 8.0), "0.98\u{a0}GB/s");
        assert_eq!(mbps(4096.0 * 3000.0), "12.3\u{a0}MB/s");
        assert_eq!(percent(0.052), "5.2\u{a0}%");
    }

    #[test]
    fn ratios_and_unknowns() {
        assert_eq!(ratio(16.0 / 24.0), "0.67×");
        assert_eq!(gib_or_unknown(Lang::Zh, None), "未知");
        assert_eq!(gib_or_unknown(Lang::En, None), "unknown");
    }
}

/// A parameter count with SI units, as model cards write it: `6738415616` → `"6.74B"`,
/// `350000000` → `"350M"`, `25557032` → `"25.6M"`.
pub fn params(n: u64) -> String {
    let v = n as f64;
    let (scaled, unit) = if v >= 1e12 {
        (v / 1e12, "T")
    } else if v >= 1e9 {
        (v / 1e9, "B")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "K")
    } else {
        return n.to_string();
    };
    let digits = if scaled >= 100.0 {
        0
    } else if scaled >= 10.0 {
        1
    } else {
        2
    };
    let text = format!("{scaled:.digits$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text}{unit}")
}

#[cfg(test)]
mod params_tests {
    use super::params;

    #[test]
    fn model_card_style() {
        assert_eq!(params(6_738_415_616), "6.74B");
        assert_eq!(params(350_000_000), "350M");
        assert_eq!(params(25_557_032), "25.6M");
        assert_eq!(params(2_851_000_000), "2.85B");
        assert_eq!(params(7_000_000_000), "7B");
        assert_eq!(params(999), "999");
    }
}
