//! Windows' rows and words: usable RAM, page files and the commit limit in place of
//! `MemTotal`, cgroup, swap, swappiness, THP and `/dev/shm`; each NVIDIA GPU's driver model;
//! DXGI's adapters with their shared GPU memory; the CUDA sysmem fallback policy. Chosen by the
//! profile's OS ([`crate::profile::is_windows`]), so a Windows profile read anywhere reads so.

use std::collections::BTreeMap;

use crate::advisor::Assessment;
use crate::advisor::findings::Quantity;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::{
    DriverModel, GpuVendor, GraphicsAdapter, MachineProfile, PageFile, PageFileSizing,
    SysmemFallback,
};

/// The memory rows of a Windows machine, in the place Linux's `MemTotal` … `/dev/shm` rows
/// take: RAM usable by Windows, the RAM the rules use (`sizing`), the page files, the commit
/// limit.
pub fn memory_rows(lang: Lang, a: &Assessment, sizing: String) -> Vec<(String, String)> {
    let p = &a.profile;
    let m = &p.memory;
    let usable = super::memory_words::memtotal(lang, p);
    let mut rows = vec![
        (tr(lang, Msg::WindowsHwRam).to_string(), usable),
        (tr(lang, Msg::HwEffective).to_string(), sizing),
    ];
    let label = tr(lang, Msg::WindowsHwPageFile).to_string();
    let w = p.windows.as_ref();
    match w.and_then(|w| w.page_files.as_ref()) {
        Some(files) if files.is_empty() => {
            rows.push((label, tr(lang, Msg::WindowsHwPageFileNone).to_string()));
        }
        Some(files) => rows.extend(files.iter().map(|f| (label.clone(), page_file(lang, f)))),
        // No list (a hand-written profile): the totals, as swap's row says them.
        None => rows.push((label, totals(lang, m.swap_total_bytes, m.swap_used_bytes))),
    }
    let commit = match (
        w.and_then(|w| w.commit_limit_bytes),
        w.and_then(|w| w.commit_used_bytes),
    ) {
        (Some(limit), Some(used)) => trf(
            lang,
            Msg::WindowsHwCommitValue,
            &[("limit", &format::gib(limit)), ("used", &format::gib(used))],
        ),
        (Some(limit), None) => trf(
            lang,
            Msg::WindowsHwCommitLimitOnly,
            &[("limit", &format::gib(limit))],
        ),
        _ => format::unknown(lang),
    };
    rows.push((tr(lang, Msg::WindowsHwCommit).to_string(), commit));
    rows
}

fn totals(lang: Lang, total: Option<u64>, used: Option<u64>) -> String {
    let words = super::memory_words::UsedWords {
        none: Msg::WindowsHwPageFileNone,
        both: Msg::WindowsHwPageFileUsed,
        size_only: Msg::WindowsHwPageFileUseUnknown,
        unknown: Some(Msg::WindowsHwPageFileUnknown),
    };
    super::memory_words::used_of(lang, total, used, &words)
}

/// "C:\pagefile.sys — system managed, 4.0 GiB, 1.0 GiB in use".
fn page_file(lang: Lang, f: &PageFile) -> String {
    let sizing = match (f.sizing, f.initial_bytes, f.maximum_bytes) {
        (Some(PageFileSizing::SystemManaged), _, _) => {
            tr(lang, Msg::WindowsHwPageFileManaged).to_string()
        }
        (Some(PageFileSizing::Fixed), Some(i), Some(m)) => trf(
            lang,
            Msg::WindowsHwPageFileFixed,
            &[("initial", &format::gib(i)), ("maximum", &format::gib(m))],
        ),
        _ => tr(lang, Msg::WindowsHwPageFileSizingUnknown).to_string(),
    };
    let size = match f.size_bytes {
        Some(_) => totals(lang, f.size_bytes, f.used_bytes),
        None => tr(lang, Msg::WindowsHwPageFileSizeUnknown).to_string(),
    };
    trf(
        lang,
        Msg::WindowsHwPageFileLine,
        &[("path", &f.path), ("sizing", &sizing), ("size", &size)],
    )
}

/// What to append to GPU `index`'s line: " · driver model WDDM", or nothing.
pub fn gpu_suffix(lang: Lang, p: &MachineProfile, index: u32) -> String {
    let Some(model) = p.windows.as_ref().and_then(|w| w.driver_model(index)) else {
        return String::new();
    };
    let name = match model {
        DriverModel::Wddm => "WDDM",
        DriverModel::Tcc => "TCC",
    };
    format!(
        " · {}",
        trf(lang, Msg::WindowsHwDriverModel, &[("model", name)])
    )
}

/// The rows after the GPUs: every DXGI adapter with its dedicated and shared memory, and the
/// CUDA sysmem fallback policy when there is an NVIDIA GPU.
pub fn adapter_rows(lang: Lang, p: &MachineProfile) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    let Some(w) = &p.windows else { return rows };
    let label = tr(lang, Msg::WindowsHwAdapters).to_string();
    for a in &w.adapters {
        rows.push((label.clone(), adapter(lang, a)));
    }
    if p.gpus.iter().any(|g| g.vendor == GpuVendor::Nvidia) {
        let driver = p.gpus.iter().find_map(|g| g.driver_version.clone());
        rows.push((
            tr(lang, Msg::WindowsHwSysmem).to_string(),
            sysmem(lang, w.sysmem_fallback, driver.as_deref()),
        ));
    }
    rows
}

fn adapter(lang: Lang, a: &GraphicsAdapter) -> String {
    let name = a
        .name
        .clone()
        .unwrap_or_else(|| tr(lang, Msg::WindowsHwAdapterUnnamed).to_string());
    trf(
        lang,
        Msg::WindowsHwAdapterLine,
        &[
            ("name", &name),
            (
                "dedicated",
                &format::gib_or_unknown(lang, a.dedicated_video_bytes),
            ),
            (
                "shared",
                &format::gib_or_unknown(lang, a.shared_system_bytes),
            ),
        ],
    )
}

/// The fallback policy in words; unknown says why, with the driver when it has the setting.
pub fn sysmem(lang: Lang, policy: Option<SysmemFallback>, driver: Option<&str>) -> String {
    match policy {
        Some(SysmemFallback::DriverDefault) => tr(lang, Msg::WindowsHwSysmemDriverDefault).into(),
        Some(SysmemFallback::PreferSysmemFallback) => tr(lang, Msg::WindowsHwSysmemPrefer).into(),
        Some(SysmemFallback::PreferNoSysmemFallback) => {
            tr(lang, Msg::WindowsHwSysmemPreferNo).into()
        }
        None => match driver.map(|d| (d, crate::advisor::windows::driver_has_sysmem_policy(d))) {
            Some((d, Some(true))) => {
                trf(lang, Msg::WindowsHwSysmemUnknownDriver, &[("version", d)])
            }
            Some((d, Some(false))) => trf(lang, Msg::WindowsHwSysmemOldDriver, &[("version", d)]),
            _ => tr(lang, Msg::WindowsHwSysmemUnknown).into(),
        },
    }
}

/// Fills the `wddm-sysmem-fallback` finding: its `policy` id (`driver-default`, …) in words.
pub fn fill_sysmem_finding(lang: Lang, msg: Msg, values: &BTreeMap<String, Quantity>) -> String {
    let mut values = values.clone();
    let policy = match values.get("policy") {
        Some(Quantity::Text(id)) if id == "driver-default" => Some(SysmemFallback::DriverDefault),
        Some(Quantity::Text(id)) if id == "prefer-sysmem-fallback" => {
            Some(SysmemFallback::PreferSysmemFallback)
        }
        _ => None,
    };
    values.insert("policy".into(), Quantity::Text(sysmem(lang, policy, None)));
    super::fill_values(lang, msg, &values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::assess;
    use crate::profile::WindowsMemory;

    fn windows() -> MachineProfile {
        let mut p = MachineProfile::unknown();
        p.host.os = Some("Windows 11 Pro".into());
        p.memory.total_bytes = Some(16 << 30);
        p.windows = Some(WindowsMemory::default());
        p
    }

    fn rows(p: &MachineProfile, lang: Lang) -> Vec<(String, String)> {
        super::super::hardware::hardware_rows(lang, &assess(p, &crate::advisor::Scenario::NONE))
    }

    #[test]
    fn page_files_unknown_none_or_listed() {
        let mut p = windows();
        let r = rows(&p, Lang::En);
        let value = |r: &[(String, String)], l: &str| {
            r.iter().find(|(k, _)| k == l).map(|(_, v)| v.clone())
        };
        assert_eq!(value(&r, "Page file").as_deref(), Some("unknown"));
        assert_eq!(value(&r, "Commit limit").as_deref(), Some("unknown"));
        assert!(r.iter().all(|(k, _)| k != "Swap" && k != "/dev/shm"));
        p.windows.as_mut().unwrap().page_files = Some(Vec::new());
        assert_eq!(
            value(&rows(&p, Lang::Zh), "页面文件").as_deref(),
            Some("无（Windows 在没有页面文件的情况下运行）")
        );
        p.windows.as_mut().unwrap().page_files = Some(vec![PageFile {
            path: r"D:\pagefile.sys".into(),
            sizing: Some(PageFileSizing::Fixed),
            initial_bytes: Some(4 << 30),
            maximum_bytes: Some(8 << 30),
            ..PageFile::default()
        }]);
        let v = value(&rows(&p, Lang::En), "Page file").unwrap();
        assert_eq!(
            v.replace('\u{a0}', " "),
            r"D:\pagefile.sys — custom size 4.0 GiB–8.0 GiB, size now unknown"
        );
    }

    #[test]
    fn the_fallback_policy_in_words() {
        assert_eq!(
            sysmem(Lang::En, None, Some("531.79")),
            "not in driver 531.79 (the setting came with 536.40)"
        );
        assert_eq!(
            sysmem(Lang::En, None, Some("551.86")),
            "unknown (NVML can't read it; driver 551.86 has the setting)"
        );
        assert_eq!(sysmem(Lang::En, None, None), "unknown (NVML can't read it)");
        assert!(
            sysmem(Lang::Zh, Some(SysmemFallback::PreferNoSysmemFallback), None)
                .starts_with("首选无系统内存回退")
        );
    }
}
