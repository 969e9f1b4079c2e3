//! The memory a machine's runtime takes before a plan's own data: the OS (with its desktop,
//! when it has one) and each Python/PyTorch/CUDA process. One function ([`overheads`]) gives
//! both for a profile, from what detection measured where it can, otherwise scaled to the
//! machine's size so that a small board is never charged more than it has. Pure.

use crate::profile::{GpuVendor, MachineProfile, Provenance};
use crate::units::{GIB, MIB};

/// RAM the OS and a desktop session use on a workstation-sized machine: 2 GiB. Assumption: a
/// Linux desktop after login uses 1.5–2.5 GiB; the ceiling of [`overheads`]'s OS figure.
pub const OS_BYTES: u64 = 2 * GIB;

/// The training process without data on a workstation-sized machine: Python, PyTorch and the
/// CUDA context's host memory, 3 GiB. Assumption: a small PyTorch program that runs one
/// convolution on the GPU peaks at 1,904,088 KiB (1.82 GiB) resident (pytorch/pytorch#12873,
/// GNU time); a training process with its model code, optimizer and allocator caches, 2.5–3.5
/// GiB. The ceiling of [`overheads`]'s process figure.
pub const MAIN_PROCESS_BYTES: u64 = 3 * GIB;

/// The OS's share of a small machine's RAM: 3/8. Source: a Jetson Nano (4 GB) runs its
/// desktop in "about 1.5GB" (microsoft/onnxruntime#4259), 1.5 of 4 = 3/8; the same report
/// gives ~300–500 MB without the desktop, so on a headless box this errs high.
const OS_SHARE: (u64, u64) = (3, 8);

/// A process's share of a small machine's RAM: 1/4 (1 GiB of 4 GiB). Assumption: PyTorch and
/// the CUDA runtime shrink with lazy loading and no desktop, but not below about 1 GiB: the
/// CUDA runtime on a 4 GB Jetson Nano takes "about 2GB" under onnxruntime with TensorRT
/// (microsoft/onnxruntime#4259), plain PyTorch less.
const PROCESS_SHARE: (u64, u64) = (1, 4);

/// The smallest OS figure believed from a measurement: 128 MiB (a minimal Linux userland).
const MIN_OS_BYTES: u64 = 128 * MIB;

/// One overhead and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overhead {
    /// Bytes.
    pub bytes: u64,
    /// [`Provenance::Detected`] when measured on the machine (`MemTotal − MemAvailable`);
    /// [`Provenance::Estimated`] when scaled to the machine's RAM; [`Provenance::Default`]
    /// for the workstation figure with the RAM unknown.
    pub source: Provenance,
}

/// The runtime's overheads on one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overheads {
    /// The OS and desktop, once per node.
    pub os: Overhead,
    /// One Python process with PyTorch and the CUDA context, per process.
    pub process: Overhead,
}

impl Overheads {
    /// The workstation figures ([`OS_BYTES`], [`MAIN_PROCESS_BYTES`]), for plans judged
    /// without a machine (a scenario file's check, a planned machine of unknown size).
    pub const TYPICAL: Overheads = Overheads {
        os: Overhead {
            bytes: OS_BYTES,
            source: Provenance::Default,
        },
        process: Overhead {
            bytes: MAIN_PROCESS_BYTES,
            source: Provenance::Default,
        },
    };

    /// The OS plus `processes` processes, bytes.
    pub fn runtime(&self, processes: u64) -> u64 {
        self.os
            .bytes
            .saturating_add(self.process.bytes.saturating_mul(processes))
    }
}

fn share(ram: u64, (num, den): (u64, u64)) -> u64 {
    (u128::from(ram) * u128::from(num) / u128::from(den)) as u64
}

/// The overheads of `profile`'s machine. RAM is `MemTotal` (else the installed size).
///
/// - The OS: at most `min(2 GiB, 3/8 of RAM)` ([`OS_BYTES`], `OS_SHARE`). When detection read
///   `MemTotal` and `MemAvailable`, what the machine used then (`MemTotal − MemAvailable`) is
///   taken, measured, if it is within that bound (a machine at rest); above it something else
///   was running at detection, and the bound is taken. On a unified pool outside Apple
///   ([`measured_whole`]: GB10, GH200-class, Jetson, an AMD APU) the measured figure is taken
///   whole: there `MemAvailable` is the GPU's free memory too (vLLM's `device_memory_info`,
///   `vllm/utils/mem_utils.py`, reads `psutil.virtual_memory().available` on an integrated
///   GPU), and what the driver and firmware hold at rest (19.7 GiB of a DGX Spark's 121.69 GiB,
///   headless with caches dropped, MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks#47) is memory no
///   plan can have.
/// - Each process: `min(3 GiB, RAM / 4)` ([`MAIN_PROCESS_BYTES`], `PROCESS_SHARE`).
///
/// With the RAM unknown, [`Overheads::TYPICAL`].
pub fn overheads(profile: &MachineProfile) -> Overheads {
    let m = &profile.memory;
    let Some(ram) = m.total_bytes.or(m.installed_bytes).filter(|r| *r > 0) else {
        return Overheads::TYPICAL;
    };
    let os_cap = OS_BYTES.min(share(ram, OS_SHARE));
    let ceiling = if measured_whole(profile) {
        ram.saturating_sub(1)
    } else {
        os_cap
    };
    let measured = m
        .total_bytes
        .zip(m.available_bytes)
        .map(|(t, a)| t.saturating_sub(a))
        .filter(|u| (MIN_OS_BYTES..=ceiling).contains(u));
    let os = match measured {
        Some(bytes) => Overhead {
            bytes,
            source: Provenance::Detected,
        },
        None => Overhead {
            bytes: os_cap,
            source: Provenance::Estimated,
        },
    };
    let process = MAIN_PROCESS_BYTES.min(share(ram, PROCESS_SHARE));
    Overheads {
        os,
        process: Overhead {
            bytes: process,
            source: if process == MAIN_PROCESS_BYTES {
                Provenance::Default
            } else {
                Provenance::Estimated
            },
        },
    }
}

/// True when the memory in use at rest is charged whole ([`overheads`]): a unified pool whose
/// GPU isn't Apple's. On a machine with discrete GPUs the bound stays: host RAM in use at
/// detection beyond an idle desktop is most often another program that will have ended (a
/// browser, an earlier job), and the plan's host side is small beside its GPU side. On a Mac
/// the bound stays too: macOS's "available" memory leaves out the compressed and inactive
/// pages it would give back, and Metal's working-set limit already keeps the OS its share.
pub fn measured_whole(profile: &MachineProfile) -> bool {
    !profile.gpus.is_empty()
        && profile
            .gpus
            .iter()
            .all(|g| g.unified_memory && g.vendor != GpuVendor::Apple)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(total: u64, available: Option<u64>) -> MachineProfile {
        let mut p = MachineProfile::unknown();
        p.memory.total_bytes = Some(total);
        p.memory.available_bytes = available;
        p
    }

    #[test]
    fn a_workstation_keeps_the_typical_figures() {
        // 64 GiB with 40 GiB available (24 GiB in use: something is running): the bounds.
        let o = overheads(&machine(64 * GIB, Some(40 * GIB)));
        assert_eq!((o.os.bytes, o.process.bytes), (2 * GIB, 3 * GIB));
        assert_eq!(o.os.source, Provenance::Estimated);
        // At rest, 1.2 GiB in use: measured.
        let o = overheads(&machine(64 * GIB, Some(64 * GIB - 1229 * MIB)));
        assert_eq!(
            (o.os.bytes, o.os.source),
            (1229 * MIB, Provenance::Detected)
        );
        assert_eq!(overheads(&MachineProfile::unknown()), Overheads::TYPICAL);
    }

    #[test]
    fn a_jetson_nano_is_charged_what_its_desktop_uses() {
        // 4 GiB: OS 3/8 × 4 GiB = 1.5 GiB (the "about 1.5GB" of microsoft/onnxruntime#4259),
        // a process 4/4 = 1 GiB; together 2.5 GiB, not the 2 + 3 = 5 GiB more than the board.
        let o = overheads(&machine(4 * GIB, None));
        assert_eq!(o.os.bytes, 1536 * MIB);
        assert_eq!(o.process.bytes, GIB);
        assert_eq!(o.runtime(1), 2560 * MIB);
        assert!(o.runtime(1) < 4 * GIB);
        // Measured at rest headless over ssh, "~500-300MB": 400 MiB taken as measured.
        let o = overheads(&machine(4 * GIB, Some(4 * GIB - 400 * MIB)));
        assert_eq!((o.os.bytes, o.os.source), (400 * MIB, Provenance::Detected));
    }

    #[test]
    fn a_unified_pool_is_charged_what_it_uses_at_rest() {
        // A DGX Spark: 121.69 GiB of MemTotal, 102 GiB available at boot, headless
        // (MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks#47): 19.69 GiB in use, taken whole.
        let total = 130_662_014_894u64; // 121.69 GiB
        let available = 102 * GIB;
        let mut p = machine(total, Some(available));
        let gb10 = crate::profile::Gpu::integrated(GpuVendor::Nvidia, Some("NVIDIA GB10".into()));
        p.gpus.push(gb10);
        let o = overheads(&p);
        assert_eq!(
            (o.os.bytes, o.os.source),
            (total - available, Provenance::Detected)
        );
        assert!(o.os.bytes > 19 * GIB);
        // The same use beside a discrete GPU keeps the 2 GiB bound.
        p.gpus[0].unified_memory = false;
        assert_eq!(overheads(&p).os.bytes, 2 * GIB);
        // And on a Mac.
        p.gpus[0].unified_memory = true;
        p.gpus[0].vendor = GpuVendor::Apple;
        assert_eq!(overheads(&p).os.bytes, 2 * GIB);
    }

    #[test]
    fn free_colab_and_a_small_vm() {
        // Free Colab: MemTotal 12.7 GiB. OS min(2 GiB, 4.76 GiB) = 2 GiB; a process
        // min(3 GiB, 3.175 GiB) = 3 GiB: the workstation figures, 5 GiB, leaving 7.7 GiB.
        let colab = (127 * GIB) / 10;
        let o = overheads(&machine(colab, None));
        assert_eq!(o.runtime(1), 5 * GIB);
        // A 4 GiB VM serving a 0.5B model: 1.5 + 1 GiB, leaving 1.5 GiB for the model's
        // 0.99 GB of bf16 weights (494 M parameters × 2 B) once vLLM's 4 GiB swap space is 0.
        let o = overheads(&machine(4 * GIB, None));
        let left = 4 * GIB - o.runtime(1);
        assert_eq!(left, 1536 * MIB);
        assert!(494_000_000 * 2 < left);
    }
}
