//! ZeRO memory formulas, written once with the per-parameter byte counts as inputs.
//!
//! With [`ADAM_MIXED`] these are exactly DeepSpeed's estimators, from microsoft/DeepSpeed
//! `deepspeed/runtime/zero/stage_1_and_2.py::estimate_zero2_model_states_mem_needs` (current
//! form since PR #5099, 2024-06) and `deepspeed/runtime/zero/stage3.py::
//! estimate_zero3_model_states_mem_needs`, including Python's `int()` truncation and
//! `additional_buffer_factor`. Results are bytes (DeepSpeed prints them as "GB" but divides by
//! 2^30). With other byte counts (fp32 training, SGD, 8-bit Adam) they are ramvram's estimate.

/// DeepSpeed's default `additional_buffer_factor`.
pub const ADDITIONAL_BUFFER_FACTOR: f64 = 1.5;

/// Bytes per parameter of each model state, as the ZeRO formulas group them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StateBytes {
    /// Working weights on the GPU (2 for fp16/bf16, 4 for fp32).
    pub weights: f64,
    /// ZeRO-2's partitioned states on the GPU without offload: 16-bit and 32-bit gradients,
    /// master weights and optimizer states. DeepSpeed: 2 + 4 + 4 + 8 = 18.
    pub zero2_partitioned: f64,
    /// What moves to the CPU with optimizer offload: 32-bit gradients, master weights and
    /// optimizer states. DeepSpeed: 4 + 4 + 8 = 16.
    pub offloaded_optimizer: f64,
    /// ZeRO-3's partitioned states: weights plus [`Self::offloaded_optimizer`]. DeepSpeed: 18.
    pub zero3_partitioned: f64,
}

/// Mixed-precision Adam as DeepSpeed counts it (the comments in stage_1_and_2.py:
/// "2 = params_16bit, 18 = 2_grads_16bit + 4_grads_32bit + 4_params_32bit +
/// 8_optimizer_states_32bit").
pub const ADAM_MIXED: StateBytes = StateBytes {
    weights: 2.0,
    zero2_partitioned: 18.0,
    offloaded_optimizer: 16.0,
    zero3_partitioned: 18.0,
};

/// Sizes of a ZeRO run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// Total parameters P.
    pub params: u64,
    /// Parameters of the largest layer L.
    pub largest_layer: u64,
    /// GPUs per node G.
    pub gpus_per_node: u64,
    /// Nodes N.
    pub nodes: u64,
    /// DeepSpeed's `additional_buffer_factor`.
    pub buffer: f64,
}

impl Run {
    fn total_gpus(&self) -> f64 {
        (self.gpus_per_node * self.nodes) as f64
    }
}

/// (CPU bytes per node, GPU bytes per GPU) for ZeRO-2.
///
/// - CPU offload: GPU = w·P; CPU = P · max(4·T, offloaded) · buffer.
/// - no offload: GPU = w·P + int(zero2_partitioned·P / T); CPU = 4·P · G · buffer
///   (each rank loads an fp32 copy before partitioning).
pub fn zero2(run: &Run, bytes: &StateBytes, cpu_offload: bool) -> (u64, u64) {
    let p = run.params as f64;
    if cpu_offload {
        let cpu = p * (4.0 * run.total_gpus()).max(bytes.offloaded_optimizer) * run.buffer;
        (cpu as u64, (bytes.weights * p) as u64)
    } else {
        let gpu = bytes.weights * p + (bytes.zero2_partitioned * p / run.total_gpus()).trunc();
        let cpu = p * 4.0 * run.gpus_per_node as f64 * run.buffer;
        (cpu as u64, gpu as u64)
    }
}

/// (CPU bytes per node, GPU bytes per GPU) for ZeRO-3, with `largest_layer_memory = 4·L`:
///
/// | optimizer offload | param offload | GPU | CPU with zero_init | CPU without |
/// |---|---|---|---|---|
/// | yes | yes | 4L | zero3_partitioned·P/N·buf | P·max(4G, zero3_partitioned/N)·buf |
/// | yes | no | 4L + int(w·P/T) | offloaded·P/N·buf | P·max(4G, offloaded/N)·buf |
/// | no | (ignored) | 4L + int(zero3_partitioned·P/T) | 4L·G·buf | 4P·G·buf |
pub fn zero3(
    run: &Run,
    bytes: &StateBytes,
    offload_optimizer: bool,
    offload_params: bool,
    zero_init: bool,
) -> (u64, u64) {
    let p = run.params as f64;
    let g = run.gpus_per_node as f64;
    let per_node = 1.0 / run.nodes as f64; // DeepSpeed's gpus_factor
    let largest_layer_memory = 4.0 * run.largest_layer as f64;
    let on_cpu = |per_param: f64| {
        if zero_init {
            p * per_param * per_node * run.buffer
        } else {
            p * (4.0 * g).max(per_param * per_node) * run.buffer
        }
    };
    let (cpu, gpu) = match (offload_optimizer, offload_params) {
        (true, true) => (on_cpu(bytes.zero3_partitioned), largest_layer_memory),
        (true, false) => (
            on_cpu(bytes.offloaded_optimizer),
            largest_layer_memory + (bytes.weights * p / run.total_gpus()).trunc(),
        ),
        (false, _) => {
            let cpu = if zero_init {
                largest_layer_memory * g * run.buffer
            } else {
                4.0 * p * g * run.buffer
            };
            (
                cpu,
                largest_layer_memory + (bytes.zero3_partitioned * p / run.total_gpus()).trunc(),
            )
        }
    };
    (cpu as u64, gpu as u64)
}

/// DeepSpeed's CPU figure split into what each term stands for: the copy every rank loads
/// before partitioning (`4·P` per rank, fp32, × the buffer factor) and the model states kept in
/// CPU RAM while training (the offloaded states × the buffer factor). DeepSpeed's CPU figure is
/// the larger of the two ([`zero2`], [`zero3`]); `None` when the formula has no such term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpuTerms {
    /// The loading copy, bytes per node.
    pub loading: Option<f64>,
    /// The states held while training, bytes per node.
    pub states: Option<f64>,
}

/// [`CpuTerms`] of [`zero2`]: with CPU offload `P·4·T·buf` (DeepSpeed multiplies by all GPUs)
/// and `P·offloaded·buf`; without offload only the loading copy `P·4·G·buf`.
pub fn zero2_terms(run: &Run, bytes: &StateBytes, cpu_offload: bool) -> CpuTerms {
    let p = run.params as f64;
    if cpu_offload {
        CpuTerms {
            loading: Some(p * (4.0 * run.total_gpus()) * run.buffer),
            states: Some(p * bytes.offloaded_optimizer * run.buffer),
        }
    } else {
        CpuTerms {
            loading: Some(p * 4.0 * run.gpus_per_node as f64 * run.buffer),
            states: None,
        }
    }
}

/// [`CpuTerms`] of [`zero3`]: without `zero_init` the loading copy `P·4·G·buf`; with it none
/// (each rank builds only its partition). The states term is what [`zero3`]'s `zero_init`
/// column keeps on the CPU (`P·per_param/N·buf`, or `4L·G·buf` without offload).
pub fn zero3_terms(
    run: &Run,
    bytes: &StateBytes,
    offload_optimizer: bool,
    offload_params: bool,
    zero_init: bool,
) -> CpuTerms {
    let p = run.params as f64;
    let g = run.gpus_per_node as f64;
    let per_node = 1.0 / run.nodes as f64;
    let loading = (!zero_init).then_some(p * (4.0 * g) * run.buffer);
    let states = match (offload_optimizer, offload_params) {
        (true, true) => Some(p * (bytes.zero3_partitioned * per_node) * run.buffer),
        (true, false) => Some(p * (bytes.offloaded_optimizer * per_node) * run.buffer),
        (false, _) if zero_init => Some(4.0 * run.largest_layer as f64 * g * run.buffer),
        (false, _) => None,
    };
    CpuTerms { loading, states }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: f64 = (1u64 << 30) as f64;

    /// `shared/reference/deepspeed-t5-3b.md`: DeepSpeed's documented t5-3b example,
    /// P = 2851M, L = 32M, 1 node × 8 GPUs, additional_buffer_factor 1.5. GiB, 2 decimals.
    #[test]
    fn reproduces_deepspeeds_t5_3b_table() {
        let run = Run {
            params: 2_851_000_000,
            largest_layer: 32_000_000,
            gpus_per_node: 8,
            nodes: 1,
            buffer: 1.5,
        };
        let gib = |(cpu, gpu): (u64, u64)| (cpu as f64 / GIB, gpu as f64 / GIB);
        let rows: [(&str, (u64, u64), f64, f64); 7] = [
            (
                "zero2 offload cpu",
                zero2(&run, &ADAM_MIXED, true),
                127.45,
                5.31,
            ),
            (
                "zero3 cpu/cpu init",
                zero3(&run, &ADAM_MIXED, true, true, true),
                71.69,
                0.12,
            ),
            (
                "zero3 cpu/cpu",
                zero3(&run, &ADAM_MIXED, true, true, false),
                127.45,
                0.12,
            ),
            (
                "zero3 opt cpu init",
                zero3(&run, &ADAM_MIXED, true, false, true),
                63.72,
                0.78,
            ),
            (
                "zero3 opt cpu",
                zero3(&run, &ADAM_MIXED, true, false, false),
                127.45,
                0.78,
            ),
            (
                "zero3 none init",
                zero3(&run, &ADAM_MIXED, false, false, true),
                1.43,
                6.09,
            ),
            (
                "zero3 none",
                zero3(&run, &ADAM_MIXED, false, false, false),
                127.45,
                6.09,
            ),
        ];
        for (name, result, cpu, gpu) in rows {
            let (c, g) = gib(result);
            assert!(
                (c - cpu).abs() <= 0.005 + 1e-9,
                "{name}: CPU {c:.4} vs {cpu}"
            );
            assert!(
                (g - gpu).abs() <= 0.005 + 1e-9,
                "{name}: GPU {g:.4} vs {gpu}"
            );
        }
    }

    /// DeepSpeed's CPU figure is the larger of its two terms, to the byte, for every row above.
    #[test]
    fn the_terms_recombine_into_deepspeeds_cpu_figure() {
        let run = Run {
            params: 2_851_000_000,
            largest_layer: 32_000_000,
            gpus_per_node: 8,
            nodes: 1,
            buffer: 1.5,
        };
        let max = |t: CpuTerms| t.loading.unwrap_or(0.0).max(t.states.unwrap_or(0.0)) as u64;
        for offload in [true, false] {
            let (cpu, _) = zero2(&run, &ADAM_MIXED, offload);
            assert_eq!(max(zero2_terms(&run, &ADAM_MIXED, offload)), cpu);
        }
        for (opt, param) in [(true, true), (true, false), (false, false)] {
            for init in [true, false] {
                let (cpu, _) = zero3(&run, &ADAM_MIXED, opt, param, init);
                assert_eq!(
                    max(zero3_terms(&run, &ADAM_MIXED, opt, param, init)),
                    cpu,
                    "{opt} {param} {init}"
                );
            }
        }
    }

    #[test]
    fn zero2_without_offload_uses_the_current_formula() {
        // 2P + 18P/T (PR #5099); the documentation page still shows the older 4P + 16P/T,
        // 15.93 GiB for this example.
        let run = Run {
            params: 2_851_000_000,
            largest_layer: 32_000_000,
            gpus_per_node: 8,
            nodes: 1,
            buffer: 1.5,
        };
        let (_, gpu) = zero2(&run, &ADAM_MIXED, false);
        assert_eq!(gpu, 2 * 2_851_000_000 + 18 * 2_851_000_000 / 8);
        let old = 4.0 * 2.851e9 + 16.0 * 2.851e9 / 8.0;
        assert!((old / GIB - 15.93).abs() < 0.005);
        assert_ne!(gpu as f64, old);
    }
}
