//! vLLM's GPU budget and host memory as the current release accounts them: vLLM 0.34.0 (PyPI,
//! the V1 engine; the only engine since V0's removal). Each rule names its file and function in
//! that release; `docs/model.md` § "Inference memory" lists them.
//!
//! - The budget on each GPU: `request_memory` (`vllm/v1/worker/utils.py`) asks for
//!   `ceil(total × gpu_memory_utilization)`; `gpu_memory_utilization` unset resolves to 1.0 with
//!   the extensible KV cache (on by default on CUDA and ROCm) and 0.92 otherwise
//!   (`CacheConfig.resolved_gpu_memory_utilization`, `vllm/config/cache.py`). The extensible KV
//!   cache is then sized from the memory free after warmup, keeping at least
//!   `KV_CACHE_MARGIN_FLOOR_BYTES` (1 GiB on CUDA) free (`measure_kv_cache_bytes`,
//!   `vllm/v1/worker/extensible_kv_cache.py`): weights, activations and cache get
//!   min(requested, device − margin).
//! - `kv_cache_memory_bytes` (per GPU) replaces that sizing: the cache is exactly that many bytes
//!   and `gpu_memory_utilization` is ignored (`Worker.determine_available_memory`,
//!   `vllm/v1/worker/gpu_worker.py`).
//! - No swap space: 0.34.0 has no `swap_space` in `CacheConfig` nor `--swap-space` in
//!   `vllm/engine/arg_utils.py` (the V1 scheduler preempts by recomputation); ramvram keeps the
//!   field for V0-era deployments, default 0.
//! - CPU KV offloading: `--kv-offloading-size` GiB (all tensor-parallel ranks together) of host
//!   RAM for the native offloading connector (`VllmConfig._post_init_kv_transfer_config`,
//!   `cpu_bytes_to_use` = GiB × 2^30; `vllm/v1/kv_offload/cpu/spec.py` sizes its chunks from it).
//! - `cpu_offload_gb`: GiB of each GPU's weights in pinned host memory (`UVAOffloadConfig`,
//!   `vllm/config/offload.py`).
//!
//! Earlier releases ([`VllmRelease`], `--vllm-version`) differ in two rules, read from vLLM
//! 0.33.0's wheel: no extensible KV cache, so an unset `gpu_memory_utilization` is 0.92
//! (`CacheConfig.gpu_memory_utilization`), and `request_memory` refuses to start when the
//! memory free at start is below `ceil(total × gpu_memory_utilization)` ("Free memory on
//! device … on startup is less than desired GPU memory utilization"). 0.34 keeps that check only
//! with the extensible KV cache off (`kv_cache_memory_bytes` set turns it off by default). The
//! free memory is `cudaMemGetInfo`'s, except on an integrated GPU (GB10, GH200, Jetson), where
//! it is `psutil.virtual_memory().available` — `MemAvailable` (`MemorySnapshot.measure` in
//! 0.33, `device_memory_info` in 0.34, `vllm/utils/mem_utils.py`).

pub use super::vllm_release::{
    DEFAULT_UTILIZATION, DEFAULT_UTILIZATION_BEFORE_0_34, RELEASES, VllmRelease, parse_release,
};

use super::InferencePlan;
use crate::units::{GIB, saturating_bytes};

/// True when vLLM checks at start that the free memory holds `ceil(total ×
/// gpu_memory_utilization)` (`request_memory`, `vllm/v1/worker/utils.py`): every release
/// before 0.34, and 0.34 with the extensible KV cache off (`kv_cache_memory_bytes` set).
pub fn checks_free_memory_at_start(p: &InferencePlan) -> bool {
    !p.vllm_version.extensible_kv_cache() || p.kv_cache_memory_bytes.is_some()
}

/// What vLLM asks for at start on a device of `total` bytes: `ceil(total ×
/// gpu_memory_utilization)` (`request_memory`).
pub fn requested_bytes(p: &InferencePlan, total: u64) -> u64 {
    saturating_bytes((total as f64 * p.gpu_memory_utilization).ceil())
}

/// The vLLM release these rules were read from.
pub const VLLM_VERSION: &str = "0.34.0";

/// What the extensible KV cache keeps free on a CUDA device at least, 1 GiB
/// (`KV_CACHE_MARGIN_FLOOR_BYTES`, `vllm/v1/worker/extensible_kv_cache.py`; 3 GiB on ROCm,
/// not modelled: ramvram judges every discrete GPU with the CUDA figure).
pub const MARGIN_FLOOR_BYTES: u64 = GIB;

/// Bytes one GPU of `total` bytes lets vLLM's weights, activations and KV cache take.
///
/// Without `kv_cache_memory_bytes`: min(`ceil(total × gpu_memory_utilization)`, total − 1 GiB)
/// (`request_memory`; `measure_kv_cache_bytes`' `min(requested − non_kv, headroom − margin)`
/// with the margin at its floor). With it: the weights on the GPU plus exactly that cache,
/// capped by the device (vLLM sizes nothing then; a cache larger than the device fails to
/// allocate).
pub fn budget_per_gpu(p: &InferencePlan, total: u64, weights_per_gpu: u64) -> u64 {
    match p.kv_cache_memory_bytes {
        Some(kv) => total.min(weights_per_gpu.saturating_add(kv)),
        None => {
            let requested = (total as f64 * p.gpu_memory_utilization).ceil();
            saturating_bytes(requested).min(total.saturating_sub(MARGIN_FLOOR_BYTES))
        }
    }
}

/// The KV cache charged to each GPU: what the plan's sequences need (`needed_per_gpu`), or with
/// `kv_cache_memory_bytes` the cache vLLM allocates, when larger (it allocates all of it at
/// start-up whatever the sequences use).
pub fn kv_charged_per_gpu(p: &InferencePlan, needed_per_gpu: u64) -> u64 {
    p.kv_cache_memory_bytes
        .map_or(needed_per_gpu, |kv| kv.max(needed_per_gpu))
}

/// Host RAM the native CPU KV offloading takes, all ranks together: `kv_offloading_size` GiB
/// × 2^30 (`cpu_bytes_to_use`, `VllmConfig._post_init_kv_transfer_config`).
pub fn kv_offload_host_bytes(p: &InferencePlan) -> u64 {
    saturating_bytes(p.kv_offloading_gib * GIB as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::inference::{Engine, WeightFormat};
    use crate::advisor::training::TransformerShape;

    fn plan() -> InferencePlan {
        let shape = TransformerShape {
            layers: 32,
            hidden: 4096,
            heads: Some(32),
            kv_heads: Some(8),
            ..TransformerShape::default()
        };
        InferencePlan::new(Engine::Vllm, 8_000_000_000, shape, WeightFormat::Bf16)
    }

    #[test]
    fn defaults_are_vllm_0_34s() {
        // vllm/config/cache.py: resolved_gpu_memory_utilization → 1.0 with the extensible
        // KV cache; no swap space in the V1 engine; no KV offloading unless asked.
        let p = plan();
        assert_eq!(p.gpu_memory_utilization, 1.0);
        assert_eq!(p.gpu_memory_utilization, DEFAULT_UTILIZATION);
        assert_eq!(p.swap_space_gib, 0.0);
        assert_eq!(p.kv_offloading_gib, 0.0);
        assert_eq!(p.kv_cache_memory_bytes, None);
    }

    #[test]
    fn budget_is_the_device_less_one_gib_by_default() {
        // An H100's NVML total, 81,559 MiB: min(ceil(1.0 × total), total − 1 GiB) = 80,535 MiB.
        let total = 81_559 * 1024 * 1024;
        assert_eq!(budget_per_gpu(&plan(), total, 0), 80_535 * 1024 * 1024);
    }

    #[test]
    fn an_explicit_utilization_caps_the_budget() {
        // 24 GiB × 0.9 = 21.6 GiB = 23,192,823,398.4 → ceil 23,192,823,399 bytes; below
        // 24 − 1 = 23 GiB, so the utilisation decides.
        let mut p = plan();
        p.gpu_memory_utilization = 0.9;
        assert_eq!(budget_per_gpu(&p, 24 * GIB, 0), 23_192_823_399);
        // 0.99 of 24 GiB = 23.76 GiB would leave less than the 1 GiB margin: 23 GiB.
        p.gpu_memory_utilization = 0.99;
        assert_eq!(budget_per_gpu(&p, 24 * GIB, 0), 23 * GIB);
    }

    #[test]
    fn kv_cache_memory_bytes_replaces_the_utilization() {
        // 16 GB of weights + a 4 GiB cache on an 80 GiB GPU: 16e9 + 4 GiB, whatever the share.
        let mut p = plan();
        p.gpu_memory_utilization = 0.5;
        p.kv_cache_memory_bytes = Some(4 * GIB);
        assert_eq!(
            budget_per_gpu(&p, 80 * GIB, 16_000_000_000),
            16_000_000_000 + 4 * GIB
        );
        // The cache is allocated whole: 1 GiB of need is charged 4 GiB; 6 GiB of need stays 6.
        assert_eq!(kv_charged_per_gpu(&p, GIB), 4 * GIB);
        assert_eq!(kv_charged_per_gpu(&p, 6 * GIB), 6 * GIB);
        // On a 16 GiB GPU the device caps it.
        assert_eq!(budget_per_gpu(&p, 16 * GIB, 16_000_000_000), 16 * GIB);
    }

    #[test]
    fn judged_against_the_budget_with_no_swap_space() {
        // Llama-3-8B shape, bf16, 4,096 tokens on one 24 GiB GPU: weights 8e9 × 2 = 16e9 B; KV
        // per token 2 × 32 layers × 8 heads × 128 × 2 B = 131,072 B, × 4,096 = 536,870,912 B;
        // the budget is 24 GiB − 1 GiB = 24,696,061,952 B. Host: no swap space, so the serving
        // phase is the runtime alone; 10 GiB of KV offloading adds 10,737,418,240 B.
        let mut p = plan();
        let m = super::super::estimate::judge(
            &p,
            Some(24 * GIB),
            None,
            &crate::advisor::overhead::Overheads::TYPICAL,
        )
        .unwrap();
        assert_eq!(m.gpu_peak_bytes_per_gpu, 16_000_000_000 + 536_870_912);
        assert_eq!(m.gpu_reserved_bytes_per_gpu, Some(24_696_061_952));
        assert_eq!(m.swap_space_bytes, 0);
        assert_eq!(m.gpu.fits, Some(true));
        let serving = m.phases[1].cpu_bytes_per_node;
        assert_eq!(serving, m.runtime_bytes_per_node);
        p.kv_offloading_gib = 10.0;
        let m = super::super::estimate::judge(
            &p,
            Some(24 * GIB),
            None,
            &crate::advisor::overhead::Overheads::TYPICAL,
        )
        .unwrap();
        assert_eq!(m.phases[1].cpu_bytes_per_node, serving + 10_737_418_240);
        // A 16 GiB card: 16,536,870,912 B of need against 15 GiB = 16,106,127,360 B.
        let m = super::super::estimate::judge(
            &plan(),
            Some(16 * GIB),
            None,
            &crate::advisor::overhead::Overheads::TYPICAL,
        )
        .unwrap();
        assert_eq!(m.gpu_reserved_bytes_per_gpu, Some(16_106_127_360));
        assert_eq!(m.gpu.fits, Some(false));
    }

    #[test]
    fn releases_before_0_34_check_free_memory_at_start() {
        // vLLM 0.33.0: `request_memory` raises when free < ceil(total × utilization), and an
        // unset utilization is 0.92; 0.34 skips it with the extensible KV cache on.
        let mut p = plan();
        assert!(!checks_free_memory_at_start(&p));
        p.vllm_version = VllmRelease::try_from("0.33.1".to_string()).unwrap();
        assert_eq!(p.vllm_version, VllmRelease(33));
        assert!(checks_free_memory_at_start(&p));
        assert_eq!(p.vllm_version.default_utilization(), 0.92);
        assert_eq!(VllmRelease::CURRENT.default_utilization(), 1.0);
        // 0.34 with kv_cache_memory_bytes: the extensible KV cache is off, the check runs.
        let mut p = plan();
        p.kv_cache_memory_bytes = Some(4 * GIB);
        assert!(checks_free_memory_at_start(&p));
        // A GB10's 121.69 GiB at 0.87: ceil(130,662,014,894 × 0.87) = 113,675,952,958 B,
        // 105.87 GiB (the thread's "Desired GPU memory utilization is (0.87, 105.87 GiB)").
        p.gpu_memory_utilization = 0.87;
        assert_eq!(requested_bytes(&p, 130_662_014_894), 113_675_952_958);
        assert!(VllmRelease::try_from("1.2".to_string()).is_err());
        assert_eq!(String::from(VllmRelease(9)), "0.9");
    }

    #[test]
    fn kv_offloading_takes_its_gib_of_host_ram() {
        // --kv-offloading-size 10: cpu_bytes_to_use = 10 × 2^30 = 10,737,418,240 (the figure in
        // vllm/v1/kv_offload/tiering/spec.py's example).
        let mut p = plan();
        p.kv_offloading_gib = 10.0;
        assert_eq!(kv_offload_host_bytes(&p), 10_737_418_240);
    }
}
