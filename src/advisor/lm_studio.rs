//! LM Studio's words for llama.cpp's placement (`lms load`, lmstudio.ai/docs/cli/load): the
//! one value that needs converting, the share of the layers `--gpu` takes.

/// LM Studio's `--gpu` for `n` of llama.cpp's `slots` offloadable layers (`-ngl` counts the
/// layers and the output layer): `off` for none, `max` for all, else the share of the layers
/// (lmstudio.ai/docs/cli/load: "How much to offload to the GPU. Values: 0-1, off, max"), rounded
/// down to two decimals so the layers it stands for are never more than `n`. `None` when the
/// layers are unknown (`slots` 0) and some but not all are offloaded.
pub fn gpu_share(n: u64, slots: u64) -> Option<String> {
    match (n, slots) {
        (0, _) => Some("off".into()),
        (_, 0) => None,
        (n, s) if n >= s => Some("max".into()),
        (n, s) => Some(format!("{:.2}", (n * 100 / s) as f64 / 100.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::gpu_share;

    #[test]
    fn lm_studio_gpu_share_never_stands_for_more_layers() {
        // Llama-3.1-70B: 80 layers + the output layer = 81 slots. -ngl 45 is 45/81 = 0.5555…,
        // written 0.55 (0.55 × 81 = 44.55 layers, not 45.36).
        assert_eq!(gpu_share(45, 81).as_deref(), Some("0.55"));
        assert_eq!(gpu_share(81, 81).as_deref(), Some("max"));
        assert_eq!(gpu_share(99, 81).as_deref(), Some("max"));
        assert_eq!(gpu_share(0, 81).as_deref(), Some("off"));
        assert_eq!(gpu_share(1, 81).as_deref(), Some("0.01"));
        assert_eq!(gpu_share(10, 0), None);
    }
}
