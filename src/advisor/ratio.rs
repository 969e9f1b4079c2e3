//! The RAM:VRAM ratio and the seed's tiers.

use serde::{Deserialize, Serialize};

use super::capacity::{RamSizes, VramTotals};

/// The seed article's ratio tiers (§四.1 "golden rules", revised; see `docs/model.md`):
/// below 1.0 insufficient; 1.0–1.5 the capacity baseline, enough without offload (the seed
/// says 1.0–1.2 is enough for that case); 1.5–2.0 enough for CPU offload; 2.0 and above for
/// large models and high-resolution work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// ratio < 1.0.
    Insufficient,
    /// 1.0 ≤ ratio < 1.5.
    Baseline,
    /// 1.5 ≤ ratio < 2.0.
    Offload,
    /// ratio ≥ 2.0.
    LargeModel,
}

impl Tier {
    /// Lower bounds of the tiers above `Insufficient`: 1.0, 1.5, 2.0 (seed §四.1).
    pub const BOUNDS: [f64; 3] = [1.0, 1.5, 2.0];

    /// The tier of a ratio. NaN (impossible from [`ratios`]) counts as insufficient.
    pub fn of(ratio: f64) -> Tier {
        if ratio >= Self::BOUNDS[2] {
            Tier::LargeModel
        } else if ratio >= Self::BOUNDS[1] {
            Tier::Offload
        } else if ratio >= Self::BOUNDS[0] {
            Tier::Baseline
        } else {
            Tier::Insufficient
        }
    }

    /// All tiers from lowest to highest.
    pub const ALL: [Tier; 4] = [
        Tier::Insufficient,
        Tier::Baseline,
        Tier::Offload,
        Tier::LargeModel,
    ];
}

/// The two ratios and the tier of the first.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// RAM as sized ([`RamSizes::sizing_bytes`]: installed, or the cgroup limit that caps
    /// the job) / the discrete GPUs' nominal memory. `None` when either is unknown or there is
    /// no discrete GPU.
    pub ram_to_vram_total: Option<f64>,
    /// RAM as sized / the largest discrete GPU's nominal memory.
    pub ram_to_largest_gpu: Option<f64>,
    /// Seed tier of `ram_to_vram_total`.
    pub tier: Option<Tier>,
}

/// Computes the ratios. Division happens only with a non-zero denominator.
pub fn ratios(ram: &RamSizes, vram: &VramTotals) -> Ratio {
    let div = |num: Option<u64>, den: Option<u64>| match (num, den) {
        (Some(n), Some(d)) if d > 0 => Some(n as f64 / d as f64),
        _ => None,
    };
    let total = div(ram.sizing_bytes, vram.nominal_total_bytes);
    Ratio {
        ram_to_vram_total: total,
        ram_to_largest_gpu: div(ram.sizing_bytes, vram.nominal_largest_bytes),
        tier: total.map(Tier::of),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tier_boundaries_follow_the_seed() {
        assert_eq!(Tier::of(0.67), Tier::Insufficient);
        assert_eq!(Tier::of(0.999), Tier::Insufficient);
        assert_eq!(Tier::of(1.0), Tier::Baseline);
        assert_eq!(Tier::of(1.49), Tier::Baseline);
        assert_eq!(Tier::of(1.5), Tier::Offload);
        assert_eq!(Tier::of(2.0), Tier::LargeModel);
        assert_eq!(Tier::of(3.2), Tier::LargeModel);
    }
}
