//! Detection with fake GPU scenarios: the NVML conversion path without an NVIDIA driver.

use ramvram::advisor::{FindingId, Verdict, assess};
use ramvram::i18n::Lang;
use ramvram::probe::detect_with;
use ramvram::probe::gpu::fake::{A6000_VRAM_BYTES, FakeScenario, H100_VRAM_BYTES};
use ramvram::profile::{FieldStatus, GpuVendor, NoteId};

#[test]
fn eight_h100() {
    let p = detect_with(&FakeScenario::EightH100);
    assert_eq!(p.gpus.len(), 8);
    assert!(
        p.gpus
            .iter()
            .all(|g| g.vendor == GpuVendor::Nvidia && g.vram_total_bytes == Some(H100_VRAM_BYTES))
    );
    assert_eq!(
        p.gpus.iter().map(|g| g.index).collect::<Vec<_>>(),
        (0..8).collect::<Vec<_>>()
    );
    assert_eq!(p.gpus[0].pcie.unwrap().width_max, Some(16));
    assert!(p.notes.is_empty(), "{:?}", p.notes);
    // NVML reports 8 × 81,559 MiB; the catalogue knows "NVIDIA H100 80GB HBM3" as 80 GiB, and
    // the ratio divides by that nominal 8 × 80 GiB = 640 GiB.
    let a = assess(&p, &ramvram::advisor::Scenario::NONE);
    assert_eq!(a.vram.total_discrete_bytes, Some(8 * H100_VRAM_BYTES));
    assert_eq!(a.vram.nominal_total_bytes, Some(640 << 30));
    assert_eq!(a.vram.catalogue_gpus, 8);
    let expected = a.memory.sizing_bytes.unwrap() as f64 / (640u64 << 30) as f64;
    assert!((a.ratio.ram_to_vram_total.unwrap() - expected).abs() < 1e-12);
}

#[test]
fn nvml_missing_still_gives_a_profile_with_the_reason() {
    let p = detect_with(&FakeScenario::NvmlMissing);
    assert!(p.gpus.is_empty());
    assert!(p.memory.total_bytes.is_some(), "RAM is still detected");
    let note = p
        .notes
        .iter()
        .find(|n| n.id == NoteId::NvmlUnavailable)
        .expect("note");
    assert!(note.detail.as_deref().unwrap().contains("libnvidia-ml.so"));
    assert_eq!(
        assess(&p, &ramvram::advisor::Scenario::NONE).verdict,
        Verdict::NoGpu
    );
}

#[test]
fn one_gpu_erroring_keeps_the_other() {
    let p = detect_with(&FakeScenario::OneGpuErroring);
    assert_eq!(p.gpus.len(), 1);
    assert_eq!(p.gpus[0].index, 0);
    let note = p
        .notes
        .iter()
        .find(|n| n.id == NoteId::GpuQueryFailed)
        .expect("note");
    assert!(note.detail.as_deref().unwrap().starts_with("GPU 1"));
    // The surviving GPU idles at Gen1 of Gen4 with 0 % load: power saving, not a fault.
    let a = assess(&p, &ramvram::advisor::Scenario::NONE);
    assert!(a.findings.iter().any(|f| f.id == FindingId::PcieLinkIdle));
    assert!(
        !a.findings
            .iter()
            .any(|f| f.id == FindingId::PcieLinkDegraded)
    );
}

#[test]
fn memory_info_unsupported_on_a_known_unified_part_is_unified_memory() {
    // GB10 (DGX Spark) is unified by name: the positive signal, not the "not supported".
    let p = detect_with(&FakeScenario::MemoryInfoUnsupported);
    assert_eq!(p.gpus.len(), 1);
    assert!(p.gpus[0].unified_memory);
    assert_eq!(p.gpus[0].vram_total_bytes, None);
    assert_eq!(p.gpus[0].status.memory, Some(FieldStatus::Unsupported));
    let a = assess(&p, &ramvram::advisor::Scenario::NONE);
    assert_eq!(a.verdict, Verdict::UnifiedMemory);
    assert!(!a.findings.iter().any(|f| f.id == FindingId::RamBelowVram));
}

#[test]
fn memory_info_unsupported_is_unknown_not_unified() {
    let p = detect_with(&FakeScenario::MemoryUnsupportedUnknownPart);
    let g = &p.gpus[0];
    assert!(!g.unified_memory, "no conclusion from missing data");
    assert_eq!(g.vram_total_bytes, None);
    assert_eq!(g.status.memory, Some(FieldStatus::Unsupported));
    assert_eq!(g.status.pcie, Some(FieldStatus::Unsupported));
    assert_eq!(
        g.status.utilization,
        Some(FieldStatus::Error("Unknown Error".into()))
    );
    assert_eq!(g.status.uuid, Some(FieldStatus::Value));
    assert!(p.notes.iter().any(|n| n.id == NoteId::GpuMemoryUnsupported));
    let a = assess(&p, &ramvram::advisor::Scenario::NONE);
    assert_ne!(a.verdict, Verdict::UnifiedMemory);
    assert_eq!(a.vram.unified_gpus, 0);
    assert!(a.findings.iter().any(|f| f.id == FindingId::VramUnknown));
    // Shown as such: "not supported by the driver", not "unknown" and not "unified memory".
    let rows = ramvram::present::hardware_rows(Lang::En, &a);
    let gpu = rows
        .iter()
        .find(|(_, v)| v.starts_with("GPU 0"))
        .map(|(_, v)| v.clone())
        .unwrap();
    assert_eq!(
        gpu,
        "GPU 0: GRID A100D-4C, memory: not supported by the driver · PCIe: not supported by the driver · driver 550.54.15"
    );
    let rows = ramvram::present::hardware_rows(Lang::Zh, &a);
    assert!(
        rows.iter().any(|(_, v)| v.contains("驱动不支持")),
        "{rows:?}"
    );
}

#[test]
fn an_old_driver_without_memory_info_v2_falls_back_to_v1() {
    let p = detect_with(&FakeScenario::OldDriverV1Only);
    assert_eq!(p.gpus.len(), 1);
    assert_eq!(p.gpus[0].vram_total_bytes, Some(A6000_VRAM_BYTES));
    assert_eq!(p.gpus[0].vram_used_bytes, Some(1 << 30));
    assert_eq!(p.gpus[0].status.memory, Some(FieldStatus::Value));
    assert!(!p.gpus[0].unified_memory);
    // The sleeping second GPU was not opened: a note names it.
    let note = p
        .notes
        .iter()
        .find(|n| n.id == NoteId::GpuSuspended)
        .expect("note");
    assert_eq!(note.detail.as_deref(), Some("0000:65:00.0"));
    assert!(!p.notes.iter().any(|n| n.id == NoteId::GpuMemoryUnsupported));
    assert_eq!(
        assess(&p, &ramvram::advisor::Scenario::NONE)
            .vram
            .total_discrete_bytes,
        Some(49_140 * 1024 * 1024)
    );
}

#[test]
fn both_memory_calls_missing_is_unsupported_and_the_v1_call_is_made_only_when_needed() {
    use ramvram::probe::gpu::nvidia::{Reading, memory_v2_then_v1};
    let v2 = Reading::Value((8u64 << 30, 0u64));
    let called = std::cell::Cell::new(false);
    let r = memory_v2_then_v1(v2.clone(), || {
        called.set(true);
        Reading::Missing
    });
    assert_eq!(r, v2);
    assert!(!called.get(), "v1 is not asked when v2 answers");
    let r = memory_v2_then_v1(Reading::Missing, || Reading::Missing);
    assert_eq!(r, Reading::Missing);
    assert_eq!(r.status(), FieldStatus::Unsupported);
    // "Not supported" from v2 asks v1 (drivers that implement only v1 answer so; issue 23).
    let r = memory_v2_then_v1(Reading::NotSupported, || Reading::Value((1, 0)));
    assert_eq!(r, Reading::Value((1, 0)));
    let r = memory_v2_then_v1(Reading::NotSupported, || Reading::NotSupported);
    assert_eq!(r.status(), FieldStatus::Unsupported);
}
