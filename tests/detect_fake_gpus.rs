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

/// A 24 GiB card on which another user's `python` holds 6 GiB
/// ([`FakeScenario::HeldByAnotherProcess`]: an RTX 4090, 24,564 MiB as nvidia-smi reports it),
/// and a transformers plan needing 20 GiB on it: bf16 weights of 10,468,982,784 parameters
/// (2 bytes each: 19.5 GiB) plus the KV cache of 4,096 tokens at 2 × 32 layers × 8 KV heads ×
/// 128 × 2 bytes = 131,072 bytes a token (0.5 GiB).
///
/// - On the machine itself the plan is judged against what is free: 24,564 − 6,144 = 18,420 MiB,
///   less than the 20,480 MiB needed: it doesn't fit.
/// - From the same profile saved to a file, against the card's 24,564 MiB: 20,480 MiB plus the
///   margin (5 % of 24,564 MiB = 1,228.2 MiB, above the 512 MiB floor) is 21,708.2 MiB ≤
///   24,564 MiB: it fits.
#[test]
fn memory_held_by_another_process_counts_on_the_machine_itself_only() {
    use ramvram::advisor::inference::{Engine, InferencePlan, WeightFormat};
    use ramvram::advisor::training::presets::TransformerShape;
    use ramvram::probe::gpu::fake::{HELD_BYTES, RTX4090_VRAM_BYTES};
    use ramvram::profile::MachineProfile;
    const MIB: u64 = 1 << 20;

    let detected = detect_with(&FakeScenario::HeldByAnotherProcess);
    let g = &detected.gpus[0];
    assert_eq!(g.vram_total_bytes, Some(24_564 * MIB));
    assert_eq!(g.vram_used_bytes, Some(6_144 * MIB));
    // Largest holder first; the one NVML couldn't name kept, name and size unknown.
    let held = g.processes.as_ref().expect("the list was read");
    assert_eq!(
        held.iter()
            .map(|p| (p.pid, p.name.as_deref(), p.used_bytes))
            .collect::<Vec<_>>(),
        vec![(1234, Some("python"), Some(6 << 30)), (4321, None, None)]
    );

    let shape = TransformerShape {
        hidden: 4096,
        layers: 32,
        heads: Some(32),
        kv_heads: Some(8),
        head_dim: Some(128),
        kv_latent: None,
    };
    let plan = InferencePlan::new(
        Engine::Transformers,
        10_468_982_784,
        shape,
        WeightFormat::Bf16,
    );
    let scenario = ramvram::advisor::Scenario {
        inference: Some(plan),
        ..ramvram::advisor::Scenario::NONE
    };

    let live = MachineProfile {
        live: true,
        ..detected.clone()
    };
    let now = assess(&live, &scenario);
    let m = now.inference_memory.as_ref().expect("judged");
    assert_eq!(m.gpu.needed_bytes, 20 << 30);
    assert_eq!(m.gpu.available_bytes, Some(RTX4090_VRAM_BYTES - HELD_BYTES));
    assert_eq!(m.gpu.available_bytes, Some(18_420 * MIB));
    assert_eq!(m.gpu.fits, Some(false));
    // The terminal, the reports and the window name the holder, in both languages.
    let en = ramvram::present::inference::gpu_now_lines(Lang::En, &now.profile);
    assert!(
        en[0].contains("18.0\u{a0}GiB free of 24.0\u{a0}GiB"),
        "{en:?}"
    );
    assert_eq!(en[1], "6.0\u{a0}GiB held by python (pid 1234)");
    assert!(en[2].contains("(pid 4321)"), "{en:?}");
    let zh = ramvram::present::inference::gpu_now_lines(Lang::Zh, &now.profile);
    assert_eq!(zh[1], "python（pid 1234）占用 6.0\u{a0}GiB");
    // The JSON says the machine was live and lists the holders.
    let json = serde_json::to_value(&now).unwrap();
    assert_eq!(json["profile"]["live"], true);
    assert_eq!(json["profile"]["gpus"][0]["processes"][0]["name"], "python");
    assert_eq!(
        json["profile"]["gpus"][0]["processes"][0]["used_bytes"],
        6u64 << 30
    );

    // Saved and read back (as `advise --profile FILE` does): nominal totals, no live lines.
    let saved = serde_json::to_string(&live).unwrap();
    assert!(saved.contains("\"live\":true"));
    let file: MachineProfile = serde_json::from_str(&saved).unwrap();
    assert!(!file.live, "a file never claims to be the machine itself");
    assert_eq!(file.gpus[0].processes, detected.gpus[0].processes);
    let then = assess(&file, &scenario);
    let m = then.inference_memory.as_ref().expect("judged");
    assert_eq!(m.gpu.available_bytes, Some(24_564 * MIB));
    assert_eq!(
        m.gpu.margin_bytes,
        (24_564.0 * MIB as f64 * 0.05).round() as u64
    );
    assert_eq!(m.gpu.fits, Some(true));
    assert!(ramvram::present::inference::gpu_now_lines(Lang::En, &then.profile).is_empty());
}

/// A profile file's process lists are checked like its other fields: at most 64 per GPU, no
/// size past 8 TiB, names on one line; and a file's `"live": true` is not believed.
#[test]
fn a_profile_files_process_lists_are_validated() {
    use ramvram::profile::{MachineProfile, ProfileError, parse_profile};
    let mut p = detect_with(&FakeScenario::HeldByAnotherProcess);
    p.live = true;
    let path = std::path::Path::new("held.json");
    let field_of =
        |p: &MachineProfile| match parse_profile(&serde_json::to_string(p).unwrap(), path) {
            Err(ProfileError::Invalid { field, .. }) => field,
            other => panic!("{:?}", other.map(|l| l.profile.gpus[0].processes.clone())),
        };
    let loaded = parse_profile(&serde_json::to_string(&p).unwrap(), path).unwrap();
    assert!(!loaded.profile.live);
    assert_eq!(loaded.ignored_fields, vec!["live".to_string()]);

    let mut many = p.clone();
    let one = many.gpus[0].processes.as_ref().unwrap()[0].clone();
    many.gpus[0].processes = Some(vec![one.clone(); 65]);
    assert_eq!(field_of(&many), "gpus[0].processes");

    let mut huge = p.clone();
    huge.gpus[0].processes.as_mut().unwrap()[1].used_bytes = Some((8 << 40) + 1);
    assert_eq!(field_of(&huge), "gpus[0].processes[1].used_bytes");

    let mut forged = p.clone();
    forged.gpus[0].processes.as_mut().unwrap()[0].name = Some("python\n6 GiB free".into());
    let loaded = parse_profile(&serde_json::to_string(&forged).unwrap(), path).unwrap();
    assert_eq!(
        loaded.profile.gpus[0].processes.as_ref().unwrap()[0]
            .name
            .as_deref(),
        Some("python\\n6 GiB free")
    );

    // A redacted report doesn't name the user whose home the program runs from.
    let mut home = p.clone();
    home.gpus[0].processes.as_mut().unwrap()[0].name = Some("/home/alice/venv/bin/python".into());
    let redacted = home.redacted();
    let name = redacted.gpus[0].processes.as_ref().unwrap()[0].name.clone();
    assert!(!name.as_deref().unwrap().contains("alice"), "{name:?}");
}
