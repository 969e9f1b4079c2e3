//! Detection with fake GPU scenarios: the NVML conversion path without an NVIDIA driver.

use ramvram::advisor::{FindingId, Verdict, assess};
use ramvram::probe::detect_with;
use ramvram::probe::gpu::fake::{FakeScenario, H100_VRAM_BYTES};
use ramvram::profile::{GpuVendor, NoteId};

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
    let a = assess(&p);
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
    assert_eq!(assess(&p).verdict, Verdict::NoGpu);
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
    let a = assess(&p);
    assert!(a.findings.iter().any(|f| f.id == FindingId::PcieLinkIdle));
    assert!(
        !a.findings
            .iter()
            .any(|f| f.id == FindingId::PcieLinkDegraded)
    );
}

#[test]
fn memory_info_unsupported_means_unified_memory() {
    let p = detect_with(&FakeScenario::MemoryInfoUnsupported);
    assert_eq!(p.gpus.len(), 1);
    assert!(p.gpus[0].unified_memory);
    assert_eq!(p.gpus[0].vram_total_bytes, None);
    assert!(p.notes.iter().any(|n| n.id == NoteId::GpuMemoryUnsupported));
    let a = assess(&p);
    assert_eq!(a.verdict, Verdict::UnifiedMemory);
    assert!(!a.findings.iter().any(|f| f.id == FindingId::RamBelowVram));
}
