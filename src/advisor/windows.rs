//! Windows' memory findings, in place of Linux's swap, swappiness, `/dev/shm` and cgroup ones:
//! the page file and the commit limit, and WDDM's shared GPU memory with NVIDIA's CUDA sysmem
//! fallback. Pure, on the profile's `windows` section and its GPUs.

use super::findings::{AdviceId, Finding, FindingId, Quantity, Severity};
use crate::profile::{DriverModel, GpuVendor, MachineProfile, SysmemFallback};

/// Page-file use worth a warning on Windows: 2 GiB. Assumption: Windows writes idle pages of
/// background programs out early, so a few hundred MiB to about a GiB in the page file is
/// normal on a desktop; more means RAM ran short (Linux's threshold, 256 MiB, would fire on
/// almost every Windows machine).
pub const PAGE_FILE_IN_USE_WARN_BYTES: u64 = 2 << 30;

/// The first NVIDIA driver with "CUDA - Sysmem Fallback Policy" in the NVIDIA Control Panel:
/// 536.40 (NVIDIA, "System Memory Fallback for Stable Diffusion", support article 5490, and the
/// 536.40 release notes).
pub const SYSMEM_POLICY_DRIVER: (u32, u32) = (536, 40);

/// The PCI vendor id of NVIDIA, as DXGI reports it.
const NVIDIA_VENDOR_ID: u32 = 0x10DE;

/// True when driver `version` ("537.13", or Linux's "550.54.15") is 536.40 or later; `None`
/// when it doesn't parse.
pub fn driver_has_sysmem_policy(version: &str) -> Option<bool> {
    let mut parts = version.trim().split('.');
    let major: u32 = parts.next()?.parse().ok()?;
    let minor: u32 = parts.next().map_or(Some(0), |m| m.parse().ok())?;
    Some((major, minor) >= SYSMEM_POLICY_DRIVER)
}

/// The page-file findings: none configured (`page-file-absent`), or much of it in use
/// (`page-file-in-use`, above [`PAGE_FILE_IN_USE_WARN_BYTES`]). Sizes from
/// `memory.swap_total_bytes` / `swap_used_bytes`, which Windows detection fills with the
/// page files' totals.
pub fn page_file_findings(p: &MachineProfile, out: &mut Vec<Finding>) {
    let m = &p.memory;
    match (m.swap_total_bytes, m.swap_used_bytes) {
        (Some(0), _) => out.push(Finding::new(
            FindingId::PageFileAbsent,
            Severity::Info,
            &[AdviceId::GrowPageFile],
        )),
        (Some(total), Some(used)) if used >= PAGE_FILE_IN_USE_WARN_BYTES => out.push(
            Finding::new(FindingId::PageFileInUse, Severity::Warning, &[])
                .with("used", Quantity::Bytes(used))
                .with("total", Quantity::Bytes(total)),
        ),
        _ => {}
    }
}

/// One `wddm-sysmem-fallback` finding per NVIDIA GPU that NVML says runs under WDDM, unless
/// the policy is known to be "Prefer No Sysmem Fallback" or the driver predates the setting.
/// Its values: the GPU, its VRAM, the shared GPU memory DXGI reports for it (the NVIDIA adapter
/// of the same name, else the only NVIDIA adapter), and the policy as an id
/// (`driver-default`, `prefer-sysmem-fallback`, `unknown`).
pub fn sysmem_fallback_findings(p: &MachineProfile, out: &mut Vec<Finding>) {
    let Some(w) = &p.windows else { return };
    if w.sysmem_fallback == Some(SysmemFallback::PreferNoSysmemFallback) {
        return;
    }
    let nvidia_adapters: Vec<_> = w
        .adapters
        .iter()
        .filter(|a| a.vendor_id == Some(NVIDIA_VENDOR_ID))
        .collect();
    for g in p.gpus.iter().filter(|g| g.vendor == GpuVendor::Nvidia) {
        if w.driver_model(g.index) != Some(DriverModel::Wddm) {
            continue;
        }
        let old = g
            .driver_version
            .as_deref()
            .and_then(driver_has_sysmem_policy)
            == Some(false);
        if old {
            continue;
        }
        let adapter = nvidia_adapters
            .iter()
            .find(|a| a.name.is_some() && a.name == g.name)
            .or_else(|| (nvidia_adapters.len() == 1).then(|| &nvidia_adapters[0]));
        let policy = match w.sysmem_fallback {
            Some(SysmemFallback::DriverDefault) => "driver-default",
            Some(SysmemFallback::PreferSysmemFallback) => "prefer-sysmem-fallback",
            _ => "unknown",
        };
        let mut f = Finding::new(
            FindingId::WddmSysmemFallback,
            Severity::Info,
            &[AdviceId::PreferNoSysmemFallback],
        )
        .with("gpu", Quantity::Count(u64::from(g.index)))
        .with("policy", Quantity::Text(policy.into()));
        if let Some(v) = g.vram_total_bytes {
            f = f.with("vram", Quantity::Bytes(v));
        }
        if let Some(s) = adapter.and_then(|a| a.shared_system_bytes) {
            f = f.with("shared", Quantity::Bytes(s));
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{GpuDriverModel, GraphicsAdapter, WindowsMemory};

    fn windows_4070() -> MachineProfile {
        let mut p = MachineProfile::unknown();
        p.host.os = Some("Windows 11 Pro".into());
        use crate::probe::gpu::GpuSource as _;
        p.gpus = crate::probe::gpu::fake::FakeScenario::EightH100
            .probe()
            .gpus;
        p.gpus.truncate(1);
        p.gpus[0].name = Some("NVIDIA GeForce RTX 4070".into());
        p.gpus[0].driver_version = Some("546.33".into());
        p.windows = Some(WindowsMemory {
            adapters: vec![GraphicsAdapter {
                name: Some("NVIDIA GeForce RTX 4070".into()),
                vendor_id: Some(0x10DE),
                shared_system_bytes: Some(16 << 30),
                ..GraphicsAdapter::default()
            }],
            driver_models: vec![GpuDriverModel {
                gpu: 0,
                model: DriverModel::Wddm,
            }],
            ..WindowsMemory::default()
        });
        p
    }

    #[test]
    fn driver_versions() {
        assert_eq!(driver_has_sysmem_policy("536.40"), Some(true));
        assert_eq!(driver_has_sysmem_policy("536.23"), Some(false));
        assert_eq!(driver_has_sysmem_policy("531.79"), Some(false));
        assert_eq!(driver_has_sysmem_policy("551.86"), Some(true));
        assert_eq!(driver_has_sysmem_policy("550.54.15"), Some(true));
        assert_eq!(driver_has_sysmem_policy("garbage"), None);
    }

    #[test]
    fn wddm_gpus_get_the_fallback_finding_unless_it_is_off() {
        let mut p = windows_4070();
        let mut out = Vec::new();
        sysmem_fallback_findings(&p, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].values["shared"], Quantity::Bytes(16 << 30));
        assert_eq!(out[0].values["policy"], Quantity::Text("unknown".into()));
        // Turned off in the control panel: nothing to say.
        p.windows.as_mut().unwrap().sysmem_fallback = Some(SysmemFallback::PreferNoSysmemFallback);
        out.clear();
        sysmem_fallback_findings(&p, &mut out);
        assert!(out.is_empty());
        // TCC: no WDDM, no shared memory.
        let mut p = windows_4070();
        p.windows.as_mut().unwrap().driver_models[0].model = DriverModel::Tcc;
        sysmem_fallback_findings(&p, &mut out);
        assert!(out.is_empty());
        // A driver model NVML didn't give: not concluded.
        let mut p = windows_4070();
        p.windows.as_mut().unwrap().driver_models.clear();
        sysmem_fallback_findings(&p, &mut out);
        assert!(out.is_empty());
        // A driver from before the setting.
        let mut p = windows_4070();
        p.gpus[0].driver_version = Some("531.79".into());
        sysmem_fallback_findings(&p, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn page_file_findings_use_windows_thresholds() {
        let mut p = windows_4070();
        let mut out = Vec::new();
        p.memory.swap_total_bytes = Some(0);
        page_file_findings(&p, &mut out);
        assert_eq!(out[0].id, FindingId::PageFileAbsent);
        out.clear();
        // 1 GiB of a 5 GiB page file: normal on Windows.
        p.memory.swap_total_bytes = Some(5 << 30);
        p.memory.swap_used_bytes = Some(1 << 30);
        page_file_findings(&p, &mut out);
        assert!(out.is_empty());
        p.memory.swap_used_bytes = Some(3 << 30);
        page_file_findings(&p, &mut out);
        assert_eq!(out[0].id, FindingId::PageFileInUse);
    }
}
