//! macOS detection: `sysctlbyname` for RAM, the processor, swap, the GPU's wired-memory limit
//! and memory pressure (validated by the pure [`super::sysctl::interpret`]), sysinfo for
//! available memory and volumes.

use super::sysctl::{PerfLevel, SwapUsage, SysctlValues, apply_mac, interpret, mac_disk};
use crate::profile::MachineProfile;

/// Fills memory, swap, the processor, the Mac's own fields and disks.
pub fn detect_macos(profile: &mut MachineProfile) {
    let mut values = SysctlValues {
        memsize: integer("hw.memsize"),
        model: string("hw.model"),
        brand: string("machdep.cpu.brand_string"),
        physical_cpus: integer("hw.physicalcpu").and_then(|v| i64::try_from(v).ok()),
        logical_cpus: integer("hw.logicalcpu").and_then(|v| i64::try_from(v).ok()),
        perf_levels: Vec::new(),
        swap: swap_usage(),
        wired_limit_mb: integer("iogpu.wired_limit_mb").and_then(|v| i64::try_from(v).ok()),
        pressure_level: integer("kern.memorystatus_vm_pressure_level")
            .and_then(|v| i64::try_from(v).ok()),
    };
    let levels = integer("hw.nperflevels").unwrap_or(0).clamp(0, 8);
    for level in 0..levels {
        values.perf_levels.push(PerfLevel {
            name: string(&format!("hw.perflevel{level}.name")),
            physical_cpus: integer(&format!("hw.perflevel{level}.physicalcpu"))
                .and_then(|v| i64::try_from(v).ok()),
        });
    }
    apply_mac(profile, interpret(&values));
    super::sysctl::apply_working_set(profile, metal_working_set());
    if let Ok(s) = sysinfo::System::new_with_specifics(
        sysinfo::RefreshKind::nothing().with_memory(sysinfo::MemoryRefreshKind::everything()),
    ) {
        profile.memory.available_bytes = Some(s.available_memory()).filter(|v| *v > 0);
    }
    if let Ok(disks) = sysinfo::Disks::new_with_refreshed_list() {
        profile.disks = disks
            .iter()
            .filter_map(|d| {
                let solid = match d.kind() {
                    sysinfo::DiskKind::SSD => Some(true),
                    sysinfo::DiskKind::HDD => Some(false),
                    sysinfo::DiskKind::Unknown(_) => None,
                };
                mac_disk(
                    d.mount_point().to_str()?,
                    d.file_system().to_str()?,
                    solid,
                    d.total_space(),
                    d.available_space(),
                )
            })
            .collect();
    }
}

/// Metal's `MTLDevice.recommendedMaxWorkingSetSize` of the system's default GPU, bytes: "an
/// approximation of how much memory, in bytes, this GPU device can allocate without affecting
/// its runtime performance" (Apple's Metal documentation). `None` on Intel Macs (asking would
/// switch a dual-GPU Mac to its discrete GPU) and when Metal gives no device.
fn metal_working_set() -> Option<u64> {
    use objc2_metal::MTLDevice;
    if std::env::consts::ARCH != "aarch64" {
        return None;
    }
    let device = objc2_metal::MTLCreateSystemDefaultDevice()?;
    Some(device.recommendedMaxWorkingSetSize())
}

/// `sysctlbyname` into `buf`; the number of bytes written, `None` on failure.
fn raw(name: &str, buf: &mut [u8]) -> Option<usize> {
    let name = std::ffi::CString::new(name).ok()?;
    let mut len = buf.len();
    // SAFETY: `name` is NUL-terminated; `buf` and `len` describe a writable buffer that
    // outlives the call; no new value is set (null, 0).
    let rc = unsafe {
        libc::sysctlbyname(
            name.as_ptr(),
            buf.as_mut_ptr().cast(),
            &mut len,
            std::ptr::null_mut(),
            0,
        )
    };
    (rc == 0 && len <= buf.len()).then_some(len)
}

/// An integer sysctl of 4 or 8 bytes (`int`, `int64_t`, `uint64_t` as the kernel declares
/// it), little-endian as on every Mac; `None` for another size or on failure.
fn integer(name: &str) -> Option<i128> {
    let mut buf = [0u8; 8];
    match raw(name, &mut buf)? {
        4 => Some(i128::from(i32::from_le_bytes(buf[..4].try_into().ok()?))),
        8 => Some(i128::from(u64::from_le_bytes(buf))),
        _ => None,
    }
}

/// A string sysctl, read within 256 bytes up to its NUL.
fn string(name: &str) -> Option<String> {
    let mut buf = [0u8; 257];
    let len = raw(name, &mut buf[..256])?;
    let text = &buf[..len];
    let end = text.iter().position(|b| *b == 0).unwrap_or(text.len());
    String::from_utf8(text[..end].to_vec()).ok()
}

/// `vm.swapusage` as `struct xsw_usage`.
fn swap_usage() -> Option<SwapUsage> {
    let mut usage = std::mem::MaybeUninit::<libc::xsw_usage>::zeroed();
    let size = std::mem::size_of::<libc::xsw_usage>();
    // SAFETY: `xsw_usage` is plain integers, valid when zeroed; the slice covers exactly it.
    let buf = unsafe { std::slice::from_raw_parts_mut(usage.as_mut_ptr().cast::<u8>(), size) };
    if raw("vm.swapusage", buf)? != size {
        return None;
    }
    // SAFETY: zero-initialised, then filled by the kernel.
    let usage = unsafe { usage.assume_init() };
    Some(SwapUsage {
        total: usage.xsu_total,
        used: usage.xsu_used,
        encrypted: usage.xsu_encrypted != 0,
    })
}
