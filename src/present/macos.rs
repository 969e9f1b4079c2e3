//! A Mac's memory rows in macOS's own words: RAM as `hw.memsize`, swap as macOS's dynamic swap
//! files, memory pressure, the kinds of cores and the GPU's wired-memory limit, in place of
//! Linux's `MemTotal`, cgroup, `vm.swappiness`, THP and `/dev/shm` rows.

use crate::advisor::Assessment;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::profile::MemoryPressure;

/// The memory rows of a profile detected on macOS (one with [`crate::profile::MacOs`]);
/// `None` for every other profile, which keeps the Linux rows.
pub fn memory_rows(lang: Lang, a: &Assessment) -> Option<Vec<(String, String)>> {
    let p = &a.profile;
    let mac = p.macos.as_ref()?;
    let mut rows = Vec::new();
    if let Some(model) = &mac.model_identifier {
        rows.push((tr(lang, Msg::MacosRowModel).to_string(), model.clone()));
    }
    if !mac.core_levels.is_empty() {
        rows.push((
            tr(lang, Msg::MacosRowCores).to_string(),
            core_levels(lang, mac),
        ));
    }
    let ram = match (p.memory.total_bytes, p.memory.available_bytes) {
        (Some(total), Some(available)) => trf(
            lang,
            Msg::MacosRowRamValue,
            &[
                ("total", &format::gib(total)),
                ("available", &format::gib(available)),
            ],
        ),
        (total, _) => format::gib_or_unknown(lang, total),
    };
    rows.push((tr(lang, Msg::MacosRowRam).to_string(), ram));
    rows.push((
        tr(lang, Msg::MacosRowSwap).to_string(),
        super::memory_words::swap(lang, p),
    ));
    let pressure = match mac.memory_pressure {
        Some(MemoryPressure::Normal) => tr(lang, Msg::MacosPressureNormal).to_string(),
        Some(MemoryPressure::Warning) => tr(lang, Msg::MacosPressureWarning).to_string(),
        Some(MemoryPressure::Critical) => tr(lang, Msg::MacosPressureCritical).to_string(),
        None => format::unknown(lang),
    };
    rows.push((tr(lang, Msg::MacosRowPressure).to_string(), pressure));
    if let Some(ws) = crate::advisor::unified::apple_gpu_working_set(p) {
        let limit = format::gib(ws.bytes);
        let ram = format::gib_or_unknown(lang, a.memory.sizing_bytes);
        let value = if ws.is_default_share() {
            trf(
                lang,
                Msg::MacosGpuLimitDefault,
                &[("limit", &limit), ("ram", &ram)],
            )
        } else {
            trf(lang, Msg::MacosGpuLimitOverride, &[("limit", &limit)])
        };
        rows.push((tr(lang, Msg::MacosRowGpuLimit).to_string(), value));
    }
    Some(rows)
}

/// "4 performance + 4 efficiency" where macOS names its levels (`hw.perflevelN.name`; a
/// level named otherwise, "Super" on M5, keeps its name), else the counts alone, fastest first.
fn core_levels(lang: Lang, mac: &crate::profile::MacOs) -> String {
    let levels = &mac.core_levels;
    if levels.iter().any(|l| l.name.is_none()) {
        let counts: Vec<String> = levels
            .iter()
            .map(|l| l.physical_cores.to_string())
            .collect();
        return trf(
            lang,
            Msg::MacosCoreLevelsUnnamed,
            &[("levels", &counts.join(" + "))],
        );
    }
    let named: Vec<String> = levels
        .iter()
        .map(|l| {
            let name = match l.name.as_deref().unwrap_or_default() {
                "Performance" => tr(lang, Msg::MacosCorePerformance).to_string(),
                "Efficiency" => tr(lang, Msg::MacosCoreEfficiency).to_string(),
                other => crate::sanitize::clean_line(other).into_owned(),
            };
            trf(
                lang,
                Msg::MacosCoreLevel,
                &[("count", &l.physical_cores.to_string()), ("name", &name)],
            )
        })
        .collect();
    named.join(" + ")
}
