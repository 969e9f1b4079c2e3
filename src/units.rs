//! Byte and rate units, in one place. Memory sizes are binary (GiB = 2^30 bytes, what DIMMs,
//! GPU memory and `MemTotal` count in); bandwidth and dataset sizes on storage are decimal
//! (GB = 10^9 bytes, what STREAM, PCIe and disk vendors count in). Conversions for display live
//! in [`crate::format`]; this module only names the factors.

/// Bytes in a KiB.
pub const KIB: u64 = 1 << 10;
/// Bytes in a MiB.
pub const MIB: u64 = 1 << 20;
/// Bytes in a GiB.
pub const GIB: u64 = 1 << 30;
/// Bytes in a TiB.
pub const TIB: u64 = 1 << 40;
/// Bytes in a GB (10^9), for bandwidth (GB/s) and dataset sizes on storage.
pub const GB: f64 = 1e9;

/// `bytes` in GiB, as a float for charts and sliders.
pub fn to_gib(bytes: u64) -> f64 {
    bytes as f64 / GIB as f64
}

/// `gib` GiB in bytes, rounded to a whole byte and saturating (negative or NaN gives 0).
pub fn from_gib(gib: f64) -> u64 {
    saturating_bytes(gib * GIB as f64)
}

/// `bytes` in GB (10^9), for dataset sizes and bandwidth.
pub fn to_gb(bytes: u64) -> f64 {
    bytes as f64 / GB
}

/// `gb` GB (10^9 bytes) in bytes, rounded and saturating.
pub fn from_gb(gb: f64) -> u64 {
    saturating_bytes(gb * GB)
}

/// `a − b` as a signed byte count, saturating at `i64`'s bounds (headroom: negative when short).
pub fn signed_diff(a: u64, b: u64) -> i64 {
    if a >= b {
        i64::try_from(a - b).unwrap_or(i64::MAX)
    } else {
        i64::try_from(b - a).map_or(i64::MIN, |d| -d)
    }
}

/// A float number of bytes as `u64`: rounded, 0 for negative or NaN, `u64::MAX` above it.
pub fn saturating_bytes(v: f64) -> u64 {
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= u64::MAX as f64 {
        u64::MAX
    } else {
        v.round() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_and_decimal_units_differ_by_the_published_factor() {
        // 1 GiB = 1,073,741,824 bytes = 1.073741824 GB.
        assert_eq!(GIB, 1_073_741_824);
        assert!((to_gb(GIB) - 1.073_741_824).abs() < 1e-12);
        assert_eq!(from_gb(2000.0), 2_000_000_000_000);
        assert_eq!(from_gib(1.5), 1_610_612_736);
        assert_eq!(saturating_bytes(-3.0), 0);
        assert_eq!(saturating_bytes(f64::INFINITY), u64::MAX);
    }
}
