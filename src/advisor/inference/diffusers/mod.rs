//! A diffusion pipeline served with diffusers: its memory by phase ([`estimate`]) and what to
//! change when it doesn't fit ([`advice`]); the plan's types are [`crate::advisor::diffusion`].

pub mod advice;
pub mod estimate;
