//! [`Workload::validate`]: every field against the range the model handles, the ranges read
//! from the knob table ([`crate::advisor::knobs::WORKLOAD`]).

use super::{CacheMode, Workload};
use crate::advisor::knobs::{self, KnobId};
use crate::profile::Problem;

impl Workload {
    /// Checks every field against the range the model handles. Returns the field's name (as in
    /// a scenario file) and what is wrong. Sliders can't leave these ranges; files and flags can.
    pub fn validate(&self) -> Result<(), (&'static str, Problem)> {
        if (self.width == 0) != (self.height == 0) {
            return Err(("width", Problem::WidthHeightPair));
        }
        if self.width == 0 && self.sample_bytes.unwrap_or(0) == 0 {
            return Err(("sample_bytes", Problem::NeedsSampleBytes));
        }
        if !(1..=16).contains(&self.channels) {
            return Err(("channels", Problem::out_of_range(self.channels, 1, 16)));
        }
        let decoded_cache = self.cache == CacheMode::DecodedInRam && self.width > 0;
        if decoded_cache && (self.cache_width == 0) != (self.cache_height == 0) {
            return Err(("cache_width", Problem::WidthHeightPair));
        }
        for k in knobs::WORKLOAD {
            // The crop matters for images only; the cached size for a cache of decoded images.
            let applies = match k.id {
                KnobId::Crop => self.width > 0,
                KnobId::CacheSize => decoded_cache,
                _ => true,
            };
            if let Some(v) = super::knob_values::get(self, k.id).filter(|_| applies) {
                knobs::check_range(k, v)?;
            }
        }
        Ok(())
    }
}
