//! What each plan charges to the machine's pools ([`Consumer`]s): a plan's host memory and its GPU
//! memory at the worst phase, the data loader's working set, and on Windows each process's
//! commit charge. Figures come from the plans' own estimates (training, inference, workload);
//! this file only adds them up per pool.

use crate::advisor::inference::{Engine, InferenceMemory};
use crate::advisor::recommend::Subject;
use crate::advisor::training::{Phase, PhaseId, TrainingMemory};
use crate::advisor::workload::{BudgetItemId, WorkloadResult};
use crate::units::GIB;

use super::types::{Consumer, ConsumerId, Side};

/// Commit charge that one process importing PyTorch with CUDA reserves on Windows beyond its
/// resident memory: 2 GiB. Source: the CUDA DLLs' large data sections (`.nv_fatb`) are mapped
/// copy-on-write, and Windows, which never overcommits, charges their full size to the commit
/// of every process that loads them — "in the range of hundreds of megabytes to a couple
/// gigabytes, per process" (cobryan05 in ultralytics/yolov3#1643, who measured it and wrote
/// `fixNvPe.py`); assumption: the upper end, 2 GiB.
pub const CUDA_LIBRARY_COMMIT_BYTES: u64 = 2 * GIB;

/// One plan's memory as the pools see it: per phase, host bytes per node and GPU bytes per GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanMemory<'a> {
    /// Whose.
    pub subject: Subject,
    /// Its phases (loading, steps or serving).
    pub phases: &'a [Phase],
    /// GPUs per node.
    pub gpus: u32,
    /// Processes that import PyTorch with CUDA (one per GPU for training and vLLM, one for
    /// llama.cpp's and transformers' single process).
    pub processes: u32,
    /// vLLM's `gpu_memory_utilization`, when the engine is vLLM.
    pub engine_share: Option<f64>,
    /// vLLM claims its share whole and checks at start that the free memory holds it
    /// (before 0.34, or with the extensible KV cache off); otherwise the extensible KV cache
    /// takes only what is free after warmup.
    pub startup_check: bool,
    /// True for llama.cpp, which imports no PyTorch (no CUDA-library commit for Python).
    pub native_engine: bool,
    /// The margin the engine itself leaves free on each GPU, when it keeps one of its own
    /// (llama.cpp's fit: 1 GiB per device); `None`: the VRAM margin of
    /// [`crate::advisor::headroom`].
    pub gpu_margin: Option<u64>,
}

impl<'a> PlanMemory<'a> {
    /// The training plan's memory.
    pub fn training(t: &'a TrainingMemory) -> Self {
        PlanMemory {
            subject: Subject::Training,
            phases: &t.estimate.phases,
            gpus: t.plan.gpus_per_node.max(1),
            processes: t.plan.gpus_per_node.max(1),
            engine_share: None,
            startup_check: false,
            native_engine: false,
            gpu_margin: None,
        }
    }

    /// The served model's memory.
    pub fn inference(m: &'a InferenceMemory) -> Self {
        let vllm = m.plan.engine == Engine::Vllm;
        PlanMemory {
            subject: Subject::Inference,
            phases: &m.phases,
            gpus: m.plan.gpus.max(1),
            processes: if vllm { m.plan.gpus.max(1) } else { 1 },
            engine_share: vllm.then_some(m.plan.gpu_memory_utilization),
            startup_check: vllm
                && crate::advisor::inference::vllm::checks_free_memory_at_start(&m.plan),
            native_engine: m.plan.engine == Engine::LlamaCpp,
            gpu_margin: m.llama_cpp.as_ref().map(|f| f.margin_bytes),
        }
    }

    /// The phase whose host bytes are largest, and those bytes.
    pub fn host_peak(&self) -> u64 {
        crate::advisor::training::peak_cpu(self.phases)
    }

    /// Host bytes outside the one-time phases (what must stay resident): the largest of the
    /// steady phases (training, serving, the evaluation pause that recurs every epoch); a
    /// load, a checkpoint save and a resume each pass once, as the training planner's swap
    /// file reads them (`training::swap_lever::swap_to_finish`).
    pub fn host_steady(&self) -> u64 {
        self.phases
            .iter()
            .filter(|p| {
                !matches!(
                    p.phase,
                    PhaseId::Loading | PhaseId::CheckpointSave | PhaseId::Resume
                )
            })
            .map(|p| p.cpu_bytes_per_node)
            .max()
            .unwrap_or(0)
    }

    /// GPU bytes per GPU at the worst phase.
    pub fn gpu_peak(&self) -> u64 {
        crate::advisor::training::peak_gpu(self.phases)
    }

    /// The phase with the largest host + GPU sum on a unified pool, as (host, GPU for all GPUs).
    pub fn unified_peak(&self) -> (u64, u64) {
        let n = u64::from(self.gpus);
        self.phases
            .iter()
            .map(|p| (p.cpu_bytes_per_node, p.gpu_bytes_per_gpu.saturating_mul(n)))
            .max_by_key(|(h, g)| h.saturating_add(*g))
            .unwrap_or((0, 0))
    }

    /// Commit added to the host figure on Windows: each Python process's CUDA libraries.
    fn commit_extra(&self) -> u64 {
        if self.native_engine {
            0
        } else {
            CUDA_LIBRARY_COMMIT_BYTES.saturating_mul(u64::from(self.processes))
        }
    }

    /// The host consumer: the worst phase's bytes, its commit on Windows.
    pub fn host_consumer(&self, host: u64, windows: bool) -> Consumer {
        Consumer {
            subject: self.subject,
            id: ConsumerId::Host,
            side: Side::Cpu,
            bytes: host,
            commit_bytes: windows.then(|| host.saturating_add(self.commit_extra())),
            processes: self.processes,
        }
    }

    /// The GPU consumer of `bytes` (one GPU, or all of a unified pool's GPU side).
    pub fn gpu_consumer(&self, bytes: u64) -> Consumer {
        Consumer {
            subject: self.subject,
            id: ConsumerId::Gpu,
            side: Side::Gpu,
            bytes,
            commit_bytes: None,
            processes: 0,
        }
    }
}

/// The data loader's consumers of host memory: its working set (without the OS and the main
/// process when a plan already counts them, `with_plan`), and on Windows the commit of each
/// spawned worker re-importing PyTorch and its CUDA libraries
/// ([`CUDA_LIBRARY_COMMIT_BYTES`] each) and of the main process.
pub fn workload_consumers(w: &WorkloadResult, with_plan: bool, windows: bool) -> Vec<Consumer> {
    let b = &w.memory_budget;
    let counted_by_plan: u64 = if with_plan {
        b.items
            .iter()
            .filter(|i| matches!(i.id, BudgetItemId::Os | BudgetItemId::MainProcess))
            .map(|i| i.bytes)
            .fold(0, u64::saturating_add)
    } else {
        0
    };
    let workers = u64::from(w.workload.num_workers);
    let worker_bytes: u64 = b
        .items
        .iter()
        .filter(|i| {
            matches!(
                i.id,
                BudgetItemId::Workers | BudgetItemId::WorkerIndexCopies
            )
        })
        .map(|i| i.bytes)
        .fold(0, u64::saturating_add);
    let rest = b
        .working_set_bytes
        .saturating_sub(counted_by_plan)
        .saturating_sub(worker_bytes);
    let main_commit = if with_plan {
        0
    } else {
        CUDA_LIBRARY_COMMIT_BYTES
    };
    let mut out = vec![Consumer {
        subject: Subject::Workload,
        id: ConsumerId::Host,
        side: Side::Cpu,
        bytes: rest,
        commit_bytes: windows.then(|| rest.saturating_add(main_commit)),
        processes: u32::from(!with_plan),
    }];
    if workers > 0 {
        out.push(Consumer {
            subject: Subject::Workload,
            id: ConsumerId::Workers,
            side: Side::Cpu,
            bytes: worker_bytes,
            commit_bytes: windows.then(|| {
                worker_bytes.saturating_add(CUDA_LIBRARY_COMMIT_BYTES.saturating_mul(workers))
            }),
            processes: w.workload.num_workers,
        });
    }
    out
}
