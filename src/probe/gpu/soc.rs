//! GPUs that share the system's memory, found from Linux sysfs and the device tree: AMD APUs
//! (amdgpu's carve-out and GTT) and NVIDIA Jetson modules (Tegra SoCs, which NVML does not
//! see). Pure: callers read the files, these functions judge the text.

use crate::profile::{Gpu, GpuVendor, MAX_RAM_BYTES};

/// PCI device ids (vendor `1002`) of AMD APUs' integrated GPUs: a positive signal that the GPU
/// shares system RAM. Source: the PCI ID Repository (pci-ids.ucw.cz, `pci.ids`), whose vendor
/// 1002 entries name them: `1586` Strix Halo [Radeon 8050S / 8060S] (Ryzen AI Max),
/// `150e` Strix [Radeon 880M / 890M], `1114` Krackan [Radeon 840M / 860M], `15bf` Phoenix1
/// [Radeon 760M / 780M], `1681` Rembrandt [Radeon 680M], `1638` Cezanne [Radeon Vega],
/// `164e` Raphael (the Ryzen 7000 desktop iGPU). Any other AMD GPU is discrete unless a
/// profile says otherwise.
pub const AMD_APU_DEVICE_IDS: &[u32] = &[0x1586, 0x150e, 0x1114, 0x15bf, 0x1681, 0x1638, 0x164e];

/// True for an AMD APU's GPU, by its PCI device id ([`AMD_APU_DEVICE_IDS`]).
pub fn amd_apu(device_id: u32) -> bool {
    AMD_APU_DEVICE_IDS.contains(&device_id)
}

/// What amdgpu's memory files say about one AMD GPU, bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AmdMemory {
    /// VRAM of a discrete card (`mem_info_vram_total`); `None` on an APU.
    pub vram_total: Option<u64>,
    /// An APU's BIOS carve-out (`mem_info_vram_total` there): RAM set aside for the GPU.
    pub carveout: Option<u64>,
    /// An APU's GTT: system RAM the GPU may map, `mem_info_gtt_total`, capped by
    /// `ttm.pages_limit` × 4 KiB when that is smaller.
    pub gtt: Option<u64>,
}

/// Pages of `ttm.pages_limit` are the kernel's `PAGE_SIZE`, 4 KiB on x86-64
/// (`drivers/gpu/drm/ttm/ttm_tt.c`, `ttm_tt_pages_limit`), where every AMD APU runs.
const TTM_PAGE_BYTES: u64 = 4096;

/// Sorts amdgpu's `mem_info_vram_total` and `mem_info_gtt_total` (bytes, as read) and the
/// `ttm` module's `pages_limit` text into VRAM, carve-out and GTT. On an APU the "VRAM" is a
/// carve-out of RAM (the BIOS's UMA frame buffer size), not memory of its own. Sizes of 0 or
/// above [`MAX_RAM_BYTES`] are unknown (a broken or hostile file).
pub fn amd_memory(
    apu: bool,
    vram_total: Option<u64>,
    gtt_total: Option<u64>,
    ttm_pages_limit: Option<&str>,
) -> AmdMemory {
    let sane = |v: Option<u64>| v.filter(|v| *v > 0 && *v <= MAX_RAM_BYTES);
    if !apu {
        return AmdMemory {
            vram_total: sane(vram_total),
            ..AmdMemory::default()
        };
    }
    let ttm = ttm_pages_limit
        .and_then(|t| t.trim().parse::<u64>().ok())
        .and_then(|p| p.checked_mul(TTM_PAGE_BYTES));
    let gtt = match (sane(gtt_total), sane(ttm)) {
        (Some(g), Some(t)) => Some(g.min(t)),
        (g, _) => g,
    };
    AmdMemory {
        vram_total: None,
        carveout: sane(vram_total),
        gtt,
    }
}

/// The GPU of an NVIDIA Jetson module from the device tree: `compatible`
/// (`/proc/device-tree/compatible`, NUL-separated) names a Tegra SoC (`nvidia,tegra210` on a
/// Jetson Nano, `nvidia,tegra194` on Xavier, `nvidia,tegra234` on Orin; the Linux kernel's
/// `Documentation/devicetree/bindings/arm/tegra.yaml`), and `model`
/// (`/proc/device-tree/model`) gives its name, e.g. "NVIDIA Jetson Orin Nano Developer Kit".
/// The GPU shares the module's LPDDR with the CPU ("unified memory", NVIDIA's Jetson Orin
/// technical brief), so it has no VRAM. `None` when the device tree names no Tegra.
pub fn tegra_gpu(compatible: &[u8], model: &[u8]) -> Option<Gpu> {
    let tegra = compatible
        .split(|b| *b == 0)
        .any(|entry| entry.starts_with(b"nvidia,tegra"));
    if !tegra {
        return None;
    }
    let name = std::str::from_utf8(model)
        .ok()
        .map(|m| m.trim_matches(|c: char| c == '\0' || c.is_whitespace()))
        .filter(|m| !m.is_empty() && m.len() <= 256 && !m.chars().any(char::is_control))
        .map(String::from)
        .or_else(|| Some("NVIDIA Tegra".to_string()));
    Some(Gpu::integrated(GpuVendor::Nvidia, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strix_halo_carveout_and_gtt() {
        // A Ryzen AI Max+ 395 with a 64 GiB BIOS carve-out and the GTT raised by
        // `ttm.pages_limit=27648000` (27,648,000 × 4096 = 113,246,208,000 B ≈ 105.5 GiB),
        // below amdgpu's 120 GiB GTT total: the smaller one holds.
        let m = amd_memory(
            amd_apu(0x1586),
            Some(64 << 30),
            Some(120 << 30),
            Some("27648000\n"),
        );
        assert_eq!(m.vram_total, None);
        assert_eq!(m.carveout, Some(64 << 30));
        assert_eq!(m.gtt, Some(27_648_000 * 4096));
        // Without a readable ttm limit the GTT total stands.
        let m = amd_memory(true, Some(512 << 20), Some(15 << 30), Some("lots"));
        assert_eq!((m.carveout, m.gtt), (Some(512 << 20), Some(15 << 30)));
    }

    #[test]
    fn discrete_cards_keep_their_vram() {
        // A Radeon RX 7900 XTX (Navi 31, 1002:744c) is not an APU.
        assert!(!amd_apu(0x744c));
        let m = amd_memory(false, Some(24 << 30), Some(31 << 30), None);
        assert_eq!(m.vram_total, Some(24 << 30));
        assert_eq!((m.carveout, m.gtt), (None, None));
    }

    #[test]
    fn hostile_sizes_are_unknown() {
        let m = amd_memory(true, Some(0), Some(u64::MAX), Some("18446744073709551615"));
        assert_eq!(m, AmdMemory::default());
    }

    #[test]
    fn jetson_from_the_device_tree() {
        let g = tegra_gpu(
            b"nvidia,p3768-0000+p3767-0005\0nvidia,p3767-0005\0nvidia,tegra234\0",
            b"NVIDIA Jetson Orin Nano Developer Kit\0",
        )
        .expect("a Jetson");
        assert!(g.unified_memory);
        assert_eq!(g.vendor, GpuVendor::Nvidia);
        assert_eq!(
            g.name.as_deref(),
            Some("NVIDIA Jetson Orin Nano Developer Kit")
        );
        assert_eq!(g.vram_total_bytes, None);
        // A model full of control characters is not believed; the SoC still counts.
        let g = tegra_gpu(b"nvidia,tegra210\0", b"\x1b[2J").expect("a Nano");
        assert_eq!(g.name.as_deref(), Some("NVIDIA Tegra"));
        // A Raspberry Pi and an Apple machine are not Jetsons.
        assert!(tegra_gpu(b"raspberrypi,4-model-b\0brcm,bcm2711\0", b"Raspberry Pi 4").is_none());
        assert!(tegra_gpu(b"apple,j314s\0apple,t6000\0", b"").is_none());
    }
}
