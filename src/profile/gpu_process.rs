//! A process holding memory on a GPU, as the driver lists it (NVML's compute processes, what
//! `nvidia-smi --query-compute-apps=pid,process_name,used_memory` prints).

use serde::{Deserialize, Serialize};

/// Most processes kept per GPU: 64. Assumption: a GPU shared by more compute processes than
/// that (MPS allows 48 clients per device on Volta and later, NVIDIA's MPS guide) is listed by
/// its largest holders; a longer list from a driver or a file is cut (detection) or refused
/// (a profile file).
pub const MAX_GPU_PROCESSES: usize = 64;

/// One process with a compute context on a GPU.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuProcess {
    /// Process id (`nvmlProcessInfo_t.pid`).
    pub pid: u32,
    /// Process name (`nvmlSystemGetProcessName`), untrusted text; `None` when it could not be
    /// read (another user's process, a process that has exited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// GPU memory the process holds, bytes (`nvmlProcessInfo_t.usedGpuMemory`); `None` where
    /// the driver can't say (`NVML_VALUE_NOT_AVAILABLE`: Windows WDDM, some vGPU setups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_bytes: Option<u64>,
}
