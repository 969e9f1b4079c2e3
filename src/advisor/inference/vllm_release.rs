//! A vLLM release ([`VllmRelease`], `--vllm-version`): which of vLLM's rules a plan follows
//! ([`super::vllm`]). Types only.

use serde::{Deserialize, Serialize};

/// `gpu_memory_utilization` when the user leaves it unset on CUDA and ROCm, where the extensible
/// KV cache is on by default: 1.0 (`CacheConfig.resolved_gpu_memory_utilization`).
pub const DEFAULT_UTILIZATION: f64 = 1.0;

/// `gpu_memory_utilization` when unset before 0.34: 0.92 (`CacheConfig`, vLLM 0.33.0).
pub const DEFAULT_UTILIZATION_BEFORE_0_34: f64 = 0.92;

/// A vLLM release by its minor version (vLLM's releases are 0.x.y): 34 is 0.34. Written
/// `"0.34"` in JSON; `"0.33.1"` reads as 0.33.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct VllmRelease(pub u16);

impl VllmRelease {
    /// The release these rules were read from, the default: 0.34.
    pub const CURRENT: VllmRelease = VllmRelease(34);
    /// The first release with the extensible KV cache: 0.34 (0.33.0's `CacheConfig` has no
    /// `enable_extensible_kv_cache`; vllm-project/vllm#56492 brought it).
    pub const EXTENSIBLE_KV_CACHE: VllmRelease = VllmRelease(34);

    /// True when the release sizes its KV cache from the memory free after warmup.
    pub fn extensible_kv_cache(self) -> bool {
        self >= Self::EXTENSIBLE_KV_CACHE
    }

    /// `gpu_memory_utilization` when unset: 1.0 with the extensible KV cache, 0.92 before.
    pub fn default_utilization(self) -> f64 {
        if self.extensible_kv_cache() {
            DEFAULT_UTILIZATION
        } else {
            DEFAULT_UTILIZATION_BEFORE_0_34
        }
    }
}

impl Default for VllmRelease {
    fn default() -> Self {
        Self::CURRENT
    }
}

impl TryFrom<String> for VllmRelease {
    type Error = String;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        let mut parts = s.trim().trim_start_matches('v').split('.');
        let minor = match (parts.next(), parts.next()) {
            (Some("0"), Some(m)) => m.parse::<u16>().ok(),
            _ => None,
        };
        minor
            .map(VllmRelease)
            .ok_or_else(|| format!("not a vLLM release (0.N): {s}"))
    }
}

impl From<VllmRelease> for String {
    fn from(r: VllmRelease) -> String {
        format!("0.{}", r.0)
    }
}

/// `--vllm-version`'s parser: `0.N` or `0.N.M`, as [`VllmRelease`]'s JSON.
///
/// # Errors
/// A message naming the text when it isn't a 0.x release.
pub fn parse_release(s: &str) -> Result<VllmRelease, String> {
    VllmRelease::try_from(s.to_string())
}

/// The releases `--vllm-version` names, newest first: the V1 engine's (the default engine since
/// 0.8.0) up to the current one. The knob row of `--vllm-version` spells them in the same order.
pub const RELEASES: [VllmRelease; 27] = {
    let mut out = [VllmRelease(0); 27];
    let mut i = 0;
    while i < 27 {
        out[i] = VllmRelease(34 - i as u16);
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::knobs::{KnobId, knob};

    #[test]
    fn the_knob_names_every_release_in_order() {
        let names = knob(KnobId::VllmVersion).choices();
        assert_eq!(names.len(), RELEASES.len());
        for (r, n) in RELEASES.iter().zip(names) {
            assert_eq!(&String::from(*r), n);
        }
        assert_eq!(names[0], "0.34");
    }
}
