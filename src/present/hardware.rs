//! The hardware section in words: one label/value row per part of the machine, shared by the
//! window, the terminal and reports. A value that wasn't detected reads as a whole phrase
//! ("cores: unknown", "swap: unknown"), never as "unknown" dropped into a template ("unknown
//! cores", "unknown used of unknown").

use super::memory_words::{memtotal, swap};
use super::names::{aside, labelled};
use super::{bandwidth, disk_kind, field_status, purchase};
use crate::advisor::Assessment;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::{Cpu, Disk, Gpu, MachineProfile, ThpMode};

/// THP mode as the kernel writes it (`always`, `madvise`, `never`) — a setting's value, shown
/// untranslated as code — or "unknown".
pub fn thp(lang: Lang, t: Option<ThpMode>) -> String {
    match t {
        Some(ThpMode::Always) => "`always`".into(),
        Some(ThpMode::Madvise) => "`madvise`".into(),
        Some(ThpMode::Never) => "`never`".into(),
        None => format::unknown(lang),
    }
}

/// The memory modules in one line: "4 × 32.0 GiB DDR4, 3200 MT/s; channels: 4 (estimated from
/// slot names)"; `None` when no module is known.
pub fn modules_summary(lang: Lang, a: &Assessment) -> Option<String> {
    let m = &a.profile.memory;
    if m.dimms.is_empty() {
        return None;
    }
    let sizes: Vec<String> = m
        .dimms
        .iter()
        .map(|d| format::gib_or_unknown(lang, d.size_bytes))
        .collect();
    let mut modules = if sizes.iter().all(|s| *s == sizes[0]) {
        format!("{} × {}", sizes.len(), sizes[0])
    } else {
        sizes.join(" + ")
    };
    let b = a.bandwidth.as_ref().map(|b| &b.memory);
    if let Some(kind) = b.and_then(|b| b.memory_type.clone()) {
        modules.push(' ');
        modules.push_str(&kind);
    }
    let speed = match b.and_then(|b| b.speed_mts) {
        Some(s) => trf(lang, Msg::HwSpeed, &[("speed", &s.to_string())]),
        None => tr(lang, Msg::HwSpeedUnknown).to_string(),
    };
    let channels = bandwidth::with_source(
        lang,
        format::count_or_unknown(lang, m.channels_populated),
        m.channels_source,
        true,
    );
    Some(trf(
        lang,
        Msg::HwModulesValue,
        &[
            ("modules", &modules),
            ("speed", &speed),
            ("channels", &channels),
        ],
    ))
}

/// Installed RAM with where the figure comes from: "64.0 GiB (estimated: the common size
/// MemTotal comes from)".
pub fn installed(lang: Lang, a: &Assessment) -> String {
    use crate::advisor::capacity::InstalledBasis as S;
    let windows = crate::profile::is_windows(&a.profile);
    match (a.memory.installed_bytes, a.memory.installed_basis) {
        (Some(size), Some(source)) => trf(
            lang,
            Msg::RamInstalledValue,
            &[
                ("size", &format::gib(size)),
                (
                    "source",
                    tr(
                        lang,
                        match source {
                            S::Modules => Msg::RamFromModules,
                            S::Profile => Msg::RamFromEntered,
                            S::Published => Msg::RamFromPublished,
                            S::Firmware => Msg::WindowsRamFromFirmware,
                            S::MemTotalRoundedUp if windows => Msg::WindowsRamFromEstimate,
                            S::MemTotalRoundedUp => Msg::RamFromEstimate,
                        },
                    ),
                ),
            ],
        ),
        _ if windows => tr(lang, Msg::WindowsRamInstalledUnknown).to_string(),
        _ => tr(lang, Msg::RamInstalledUnknown).to_string(),
    }
}

/// The RAM the ratio and the rules use, and why that one: installed, a cgroup limit, or
/// `MemTotal` when the installed size is unknown.
pub fn sizing(lang: Lang, a: &Assessment) -> String {
    let m = &a.memory;
    let Some(size) = m.sizing_bytes else {
        return format::unknown(lang);
    };
    let msg = if m.limited_by_cgroup {
        Msg::RamSizingLimit
    } else if m.installed_bytes.is_some() {
        Msg::RamSizingInstalled
    } else if crate::profile::is_windows(&a.profile) {
        Msg::WindowsRamSizingUsable
    } else {
        Msg::RamSizingMemtotal
    };
    trf(lang, msg, &[("size", &format::gib(size))])
}

/// The known parts of `parts` joined by " · ", or "unknown" when none is known.
fn known_parts(lang: Lang, parts: &[Option<&str>]) -> String {
    let known: Vec<&str> = parts.iter().flatten().copied().collect();
    if known.is_empty() {
        format::unknown(lang)
    } else {
        known.join(" · ")
    }
}

/// "AMD Ryzen 9 5900X · 12 cores, 24 threads"; a part not detected is said as a whole
/// ("model unknown", "4 threads (cores: unknown)").
fn cpu(lang: Lang, c: &Cpu) -> String {
    let model = c.model.as_deref().map_or_else(
        || tr(lang, Msg::HwCpuModelUnknown).to_string(),
        |m| super::names::platform_name(lang, m),
    );
    let (physical, logical) = (c.physical_cores, c.logical_cpus);
    let counts = match (physical, logical) {
        (Some(p), Some(l)) => trf(
            lang,
            Msg::HwCores,
            &[("physical", &p.to_string()), ("logical", &l.to_string())],
        ),
        (None, Some(l)) => trf(
            lang,
            Msg::HwCoresLogicalOnly,
            &[("logical", &l.to_string())],
        ),
        (Some(p), None) => trf(
            lang,
            Msg::HwCoresPhysicalOnly,
            &[("physical", &p.to_string())],
        ),
        (None, None) => tr(lang, Msg::HwCoresUnknown).to_string(),
    };
    if c.model.is_none() && physical.is_none() && logical.is_none() {
        return format::unknown(lang);
    }
    format!("{model} · {counts}")
}

/// A GPU's line: index, name, memory, PCIe link and driver.
fn gpu(lang: Lang, g: &Gpu) -> String {
    let unknown = || format::unknown(lang);
    let memory = if g.unified_memory {
        tr(lang, Msg::HwUnified).to_string()
    } else if g.vram_total_bytes.is_none() {
        labelled(
            lang,
            tr(lang, Msg::HwGpuMemory),
            &field_status(lang, g.status.memory.as_ref()).unwrap_or_else(unknown),
        )
    } else {
        let reported = format::gib_or_unknown(lang, g.vram_total_bytes);
        match crate::advisor::capacity::nominal_vram(g) {
            (Some(n), true) if format::gib(n) != reported => trf(
                lang,
                Msg::RamGpuNominal,
                &[("vram", &reported), ("nominal", &format::gib(n))],
            ),
            _ => reported,
        }
    };
    let name = g
        .name
        .clone()
        .unwrap_or_else(|| tr(lang, Msg::HwGpuNameUnknown).to_string());
    let mut line = trf(
        lang,
        Msg::HwGpuLine,
        &[
            ("index", &g.index.to_string()),
            ("name", &name),
            ("vram", &memory),
        ],
    );
    if let Some(link) = g.pcie {
        line.push_str(" · ");
        line.push_str(&match (link.gen_current, link.width_current) {
            (Some(generation), Some(width)) => {
                let now = trf(
                    lang,
                    Msg::HwPcieNow,
                    &[
                        ("gen", &generation.to_string()),
                        ("width", &width.to_string()),
                    ],
                );
                match (link.gen_gpu_max.or(link.gen_max), link.width_max) {
                    (Some(gen_max), Some(width_max)) => trf(
                        lang,
                        Msg::HwPcie,
                        &[
                            ("gen", &generation.to_string()),
                            ("width", &width.to_string()),
                            ("gen_max", &gen_max.to_string()),
                            ("width_max", &width_max.to_string()),
                        ],
                    ),
                    _ => now,
                }
            }
            _ => tr(lang, Msg::HwPcieUnknown).to_string(),
        });
    }
    if g.pcie.is_none() {
        if let Some(status) = field_status(lang, g.status.pcie.as_ref()) {
            line.push_str(" · ");
            line.push_str(&trf(lang, Msg::GpuPcieStatus, &[("status", &status)]));
        }
    }
    if let Some(d) = &g.driver_version {
        line.push_str(" · ");
        line.push_str(&trf(lang, Msg::HwDriver, &[("version", d)]));
    }
    line
}

/// A disk's line: "/data — NVMe SSD, ext4, 931 GiB free of 3726 GiB"; sizes not read are left
/// out as a whole.
fn disk(lang: Lang, d: &Disk) -> String {
    let fs = d
        .file_system
        .clone()
        .unwrap_or_else(|| tr(lang, Msg::HwFsUnknown).to_string());
    let what = trf(
        lang,
        Msg::HwDiskWhat,
        &[
            ("mount", &d.mount_point),
            ("kind", disk_kind(lang, d.kind)),
            ("fs", &fs),
        ],
    );
    match (d.available_bytes, d.total_bytes) {
        (Some(available), Some(total)) => trf(
            lang,
            Msg::HwDiskLine,
            &[
                ("what", &what),
                ("available", &format::gib(available)),
                ("total", &format::gib(total)),
            ],
        ),
        (None, Some(total)) => aside(lang, &what, &format::gib(total)),
        _ => what,
    }
}

/// Label/value rows describing the hardware, shared by the terminal, the window and reports;
/// a label that repeats the row above (every GPU after the first) is blank
/// ([`super::names::labels_once`]).
pub fn hardware_rows(lang: Lang, a: &Assessment) -> Vec<(String, String)> {
    super::names::labels_once(rows(lang, a))
}

fn rows(lang: Lang, a: &Assessment) -> Vec<(String, String)> {
    let p: &MachineProfile = &a.profile;
    let h = &p.host;
    let mut rows = vec![
        (
            tr(lang, Msg::HwHost).to_string(),
            format::text_or_unknown(lang, h.hostname.as_deref()),
        ),
        (
            tr(lang, Msg::HwOs).to_string(),
            known_parts(
                lang,
                &[h.os.as_deref(), h.kernel.as_deref(), h.arch.as_deref()],
            ),
        ),
        (tr(lang, Msg::HwCpu).to_string(), cpu(lang, &p.cpu)),
    ];
    // Memory in each system's own words: macOS's (no MemTotal, cgroup, swappiness, THP or
    // /dev/shm), Windows' (page file and commit limit), else Linux's.
    let windows = crate::profile::is_windows(p);
    if let Some(mac) = super::macos::memory_rows(lang, a) {
        rows.extend(mac);
    } else {
        rows.push((tr(lang, Msg::RamInstalled).to_string(), installed(lang, a)));
        if windows {
            rows.extend(super::windows::memory_rows(lang, a, sizing(lang, a)));
        } else {
            rows.extend(linux_memory_rows(lang, a));
        }
    }
    if let Some(modules) = modules_summary(lang, a) {
        rows.insert(5, (tr(lang, Msg::HwModules).to_string(), modules));
    }
    // The kind of machine, its slots and WSL, after the processor.
    for (i, row) in purchase::platform_rows(lang, a).into_iter().enumerate() {
        rows.insert(3 + i, row);
    }
    let gpus_label = tr(lang, Msg::HwGpus).to_string();
    if p.gpus.is_empty() {
        rows.push((gpus_label.clone(), tr(lang, Msg::HwNoGpus).to_string()));
    }
    for g in &p.gpus {
        let mut line = gpu(lang, g);
        if windows {
            line.push_str(&super::windows::gpu_suffix(lang, p, g.index));
        }
        rows.push((gpus_label.clone(), line));
    }
    rows.extend(super::windows::adapter_rows(lang, p));
    let disks_label = tr(lang, Msg::HwDisks).to_string();
    for d in &p.disks {
        rows.push((disks_label.clone(), disk(lang, d)));
    }
    rows
}

/// Linux's memory rows: `MemTotal`, the cgroup limit, the RAM the rules use, swap, swappiness,
/// THP and `/dev/shm`.
fn linux_memory_rows(lang: Lang, a: &Assessment) -> Vec<(String, String)> {
    let p: &MachineProfile = &a.profile;
    vec![
        (tr(lang, Msg::HwRam).to_string(), memtotal(lang, p)),
        (
            tr(lang, Msg::HwLimit).to_string(),
            p.memory
                .limit_bytes
                .map_or_else(|| tr(lang, Msg::HwNoLimit).to_string(), format::gib),
        ),
        (tr(lang, Msg::HwEffective).to_string(), sizing(lang, a)),
        (tr(lang, Msg::HwSwap).to_string(), swap(lang, p)),
        (
            "vm.swappiness".to_string(),
            format::count_or_unknown(lang, p.memory.swappiness),
        ),
        (
            tr(lang, Msg::HwThp).to_string(),
            thp(lang, p.memory.transparent_hugepages),
        ),
        (
            "/dev/shm".to_string(),
            format::gib_or_unknown(lang, p.memory.shm_bytes),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::assess;

    /// A profile with nothing detected but four logical CPUs, like a small cloud VM seen from
    /// a container.
    fn bare() -> MachineProfile {
        let mut p = MachineProfile::unknown();
        p.cpu.logical_cpus = Some(4);
        p.host.arch = Some("x86_64".into());
        p
    }

    fn value(rows: &[(String, String)], label: &str) -> String {
        rows.iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("no row {label}: {rows:?}"))
            .1
            .clone()
    }

    #[test]
    fn unknown_values_are_whole_phrases() {
        let a = assess(&bare(), &crate::advisor::Scenario::NONE);
        let zh = hardware_rows(Lang::Zh, &a);
        assert_eq!(value(&zh, "CPU"), "型号未知 · 4 线程（物理核数未知）");
        assert_eq!(value(&zh, "交换空间（swap）"), "未知");
        assert_eq!(value(&zh, "系统"), "x86_64");
        assert_eq!(value(&zh, "透明大页（THP）"), "未知");
        let en = hardware_rows(Lang::En, &a);
        assert_eq!(
            value(&en, "CPU"),
            "model unknown · 4 threads (cores: unknown)"
        );
        assert_eq!(value(&en, "Swap"), "unknown");
        for (_, v) in zh.iter().chain(&en) {
            for bad in [
                "未知 核",
                "已用 未知",
                "unknown used",
                "unknown cores",
                "未知 /",
            ] {
                assert!(!v.contains(bad), "{v}");
            }
        }
    }

    #[test]
    fn known_values_read_in_full_with_plurals() {
        let mut p = bare();
        p.cpu.physical_cores = Some(1);
        p.cpu.logical_cpus = Some(2);
        p.cpu.model = Some("Desktop (AM5 / LGA1700 / LGA1851)".into());
        p.memory.swap_total_bytes = Some(8 << 30);
        let a = assess(&p, &crate::advisor::Scenario::NONE);
        let en = hardware_rows(Lang::En, &a);
        assert_eq!(
            value(&en, "CPU"),
            "Desktop (AM5 / LGA1700 / LGA1851) · 1 core, 2 threads"
        );
        assert_eq!(
            value(&en, "Swap"),
            "8.0\u{a0}GiB (how much is in use: unknown)"
        );
        let zh = hardware_rows(Lang::Zh, &a);
        assert_eq!(
            value(&zh, "CPU"),
            "台式机（AM5 / LGA1700 / LGA1851） · 1 核 2 线程"
        );
    }
}
