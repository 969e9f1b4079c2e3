//! The machine as memory pools ([`Pool`]): each pool's hard size, the soft limits in front of it
//! ([`PoolLimit`]) and the consumers a plan charges to it ([`Consumer`]), with the verdict of
//! every limit. Types only; [`super::pools`] builds and judges them (docs/model.md § "Memory
//! pools and their limits").

use serde::{Deserialize, Serialize};

use crate::advisor::check::CapacityCheck;
use crate::advisor::recommend::{AdviceId, Subject};
use crate::profile::Provenance;

/// What kind of memory a pool is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PoolKind {
    /// Host RAM beside discrete GPUs (or with no GPU).
    HostRam,
    /// One discrete GPU's VRAM.
    Vram,
    /// One pool shared by the CPU and the GPU (Apple Silicon, GB10/GH200-class, Jetson, AMD
    /// APUs): every consumer of either side is charged to it.
    Unified,
}

/// Which limit stands in front of a pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitId {
    /// The pool's hard size: `MemTotal` (host or unified), a GPU's VRAM as the driver reports it.
    Physical,
    /// A cgroup memory limit (a container's `--memory`, a Slurm job's `--mem`):
    /// `memory.limit_bytes`.
    JobLimit,
    /// A NUMA binding (`numactl -m NODE`): the bound node's `MemTotal`.
    NumaBinding,
    /// Windows' commit limit: RAM plus every page file's size. Checked against each process's
    /// commit charge, not its resident memory.
    CommitLimit,
    /// Apple's GPU working-set limit (`recommendedMaxWorkingSetSize`, `iogpu.wired_limit_mb`):
    /// what the GPU side may wire.
    GpuWorkingSet,
    /// An AMD APU's GPU-visible memory: the BIOS carve-out plus the GTT (`mem_info_vram_total` +
    /// `mem_info_gtt_total`).
    Gtt,
    /// A serving engine's share of the pool: vLLM's `gpu_memory_utilization` × the pool, which
    /// the GPU side must fit and which vLLM claims whole.
    EngineShare,
    /// The memory free when vLLM starts, which must hold its whole share before 0.34
    /// (`request_memory`; [`crate::advisor::inference::vllm::checks_free_memory_at_start`]):
    /// `MemAvailable` on a unified pool, the GPU's total less its memory in use on a discrete
    /// one. Counts vLLM's request, `ceil(size × gpu_memory_utilization)`.
    StartupFree,
}

/// Which consumers a limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Every consumer's resident bytes.
    All,
    /// The GPU side's bytes only.
    Gpu,
    /// Every consumer's commit charge (Windows).
    Commit,
}

/// One limit in front of a pool, with the check of what the pool's consumers charge to it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolLimit {
    /// Which limit.
    pub id: LimitId,
    /// Bytes.
    pub bytes: u64,
    /// Where the figure comes from.
    pub source: Provenance,
    /// Which consumers it counts.
    pub scope: Scope,
    /// True for a limit that can be changed without new hardware (a setting, a job option).
    pub soft: bool,
    /// The change that moves it, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lever: Option<AdviceId>,
    /// Host bytes of a one-time loading peak that may leave RAM (Windows' page file under its
    /// commit limit, or swap the plan found absorbing it): the physical limit counts the rest.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub loading_only: u64,
    /// What the consumers in its scope charge, against it, with the margin of
    /// [`crate::advisor::headroom`].
    pub check: CapacityCheck,
}

/// What a consumer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConsumerId {
    /// A plan's host memory at its worst phase (the OS and its processes included).
    Host,
    /// A plan's GPU memory at its worst phase, on one GPU or all of them on a unified pool.
    Gpu,
    /// vLLM's claim: `gpu_memory_utilization` × the pool, taken whole at start.
    EngineClaim,
    /// The DataLoader workers' processes (Windows: each re-imports torch and its CUDA
    /// libraries, whose commit it reserves).
    Workers,
}

/// Which side of a unified pool a consumer is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The CPU's processes.
    Cpu,
    /// The GPU's buffers.
    Gpu,
}

/// One consumer charged to a pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Consumer {
    /// Whose: the training plan, the served model, the data loading.
    pub subject: Subject,
    /// What.
    pub id: ConsumerId,
    /// Its side.
    pub side: Side,
    /// Resident bytes.
    pub bytes: u64,
    /// Its commit charge on Windows, bytes (`None` elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit_bytes: Option<u64>,
    /// Processes it counts (a commit figure per process was added for each).
    #[serde(default)]
    pub processes: u32,
}

/// One memory pool: its kind, its consumers, its limits, and whether all fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pool {
    /// `ram`, `unified`, or `gpu<index>`.
    pub name: String,
    /// Its kind.
    pub kind: PoolKind,
    /// Its hard size, bytes, when known.
    pub size_bytes: Option<u64>,
    /// Every consumer charged to it.
    pub consumers: Vec<Consumer>,
    /// Every limit in front of it, the hard size first.
    pub limits: Vec<PoolLimit>,
    /// Every limit holds with its margin (`None`: one can't be told and none fails; also when
    /// nothing is charged).
    pub fits: Option<bool>,
    /// The limit with the least headroom that fails, or else the one with the least headroom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<LimitId>,
}

impl Pool {
    /// The limit `id`, when the pool has it.
    pub fn limit(&self, id: LimitId) -> Option<&PoolLimit> {
        self.limits.iter().find(|l| l.id == id)
    }

    /// The limit a pool that doesn't fit is reported by: vLLM's start-up check when it fails
    /// (the error the user sees), else the first failing limit (the hard size before the soft
    /// ones). `None` when every limit holds or can't be told.
    pub fn overflowing(&self) -> Option<&PoolLimit> {
        let failing = |l: &&PoolLimit| l.check.fits == Some(false);
        self.limits
            .iter()
            .filter(failing)
            .find(|l| l.id == LimitId::StartupFree)
            .or_else(|| self.limits.iter().find(failing))
    }

    /// True when `subject` charges something to this pool.
    pub fn charged_by(&self, subject: Subject) -> bool {
        self.consumers.iter().any(|c| c.subject == subject)
    }

    /// What the consumers in `scope` charge, bytes.
    pub fn charged(&self, scope: Scope) -> u64 {
        self.consumers
            .iter()
            .filter(|c| scope != Scope::Gpu || c.side == Side::Gpu)
            .map(|c| match scope {
                Scope::Commit => c.commit_bytes.unwrap_or(c.bytes),
                _ => c.bytes,
            })
            .fold(0, u64::saturating_add)
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
