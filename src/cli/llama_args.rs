//! `advise` values of llama.cpp's own flags (`--cache-type-k/-v`, `--flash-attn`), as
//! llama.cpp spells them (common/arg.cpp).

use clap::ValueEnum;

use crate::advisor::inference::llama_cpp::CacheType;

/// `--cache-type-k/-v` values (llama.cpp common/arg.cpp `kv_cache_types`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CacheTypeArg {
    /// f16.
    F16,
    /// f32.
    F32,
    /// bf16.
    Bf16,
    /// q8_0.
    #[value(name = "q8_0")]
    Q8_0,
    /// q4_0.
    #[value(name = "q4_0")]
    Q4_0,
    /// q4_1.
    #[value(name = "q4_1")]
    Q4_1,
    /// iq4_nl.
    #[value(name = "iq4_nl")]
    Iq4Nl,
    /// q5_0.
    #[value(name = "q5_0")]
    Q5_0,
    /// q5_1.
    #[value(name = "q5_1")]
    Q5_1,
}

impl CacheTypeArg {
    pub(super) fn cache_type(self) -> CacheType {
        match self {
            CacheTypeArg::F16 => CacheType::F16,
            CacheTypeArg::F32 => CacheType::F32,
            CacheTypeArg::Bf16 => CacheType::Bf16,
            CacheTypeArg::Q8_0 => CacheType::Q8_0,
            CacheTypeArg::Q4_0 => CacheType::Q4_0,
            CacheTypeArg::Q4_1 => CacheType::Q4_1,
            CacheTypeArg::Iq4Nl => CacheType::Iq4Nl,
            CacheTypeArg::Q5_0 => CacheType::Q5_0,
            CacheTypeArg::Q5_1 => CacheType::Q5_1,
        }
    }
}

/// `--flash-attn` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FlashArg {
    /// On where the device supports it (llama.cpp's default).
    Auto,
    /// On.
    On,
    /// Off.
    Off,
}
