//! The cases issue 11 names, each with the right answer worked out here from the vendors'
//! figures, not from this module's output.

use super::*;
use crate::advisor::capacity::ram_sizes;
use crate::advisor::recommend::RecKind;
use crate::profile::{CloudProvider, Platform, Wsl, WslConfigState};

const GIB: u64 = 1 << 30;

fn fixture(name: &str) -> MachineProfile {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/profiles")
        .join(format!("{name}.json"));
    crate::profile::load_profile(&path).unwrap().profile
}

fn buy(p: &MachineProfile, needed: u64) -> Purchase {
    purchase_to_reach(p, &ram_sizes(p), needed)
}

#[test]
fn g5_xlarge_moves_to_the_smallest_g5_with_enough_ram_never_dimms() {
    // AWS g5 sizes with one A10G (AWS's table, GiB): xlarge 16, 2xlarge 32, 4xlarge 64,
    // 8xlarge 128, 16xlarge 256. A 24 GB GPU asks 2 × 24 = 48 GiB (the seed's 2× tier): the first
    // size at or above 48 is g5.4xlarge with 64 GiB. (12xlarge/24xlarge/48xlarge carry 4 or 8
    // GPUs: another shape.)
    let sizes = [
        ("g5.xlarge", 16),
        ("g5.2xlarge", 32),
        ("g5.4xlarge", 64),
        ("g5.8xlarge", 128),
        ("g5.16xlarge", 256),
    ];
    let need = 2 * 24 * GIB;
    let expected = sizes.iter().find(|(_, g)| g * GIB >= need).unwrap();
    assert_eq!(*expected, ("g5.4xlarge", 64));
    for name in ["aws-g5.xlarge", "live-g5-xlarge"] {
        let p = fixture(name);
        let Purchase::LargerInstance { current, target } = buy(&p, need) else {
            panic!("{name}: {:?}", buy(&p, need));
        };
        assert_eq!(current.instance_type, "g5.xlarge");
        assert_eq!(current.ram_bytes, 16 * GIB);
        assert_eq!(target.instance_type, expected.0);
        assert_eq!(target.ram_bytes, expected.1 * GIB);
        assert_eq!(
            (target.gpu_count, target.gpu_model.as_str()),
            (1, "A10G 24GB")
        );
        // The whole assessment: the procurement section names the instance (no DIMMs).
        let a = crate::advisor::assess(&p, &crate::advisor::Scenario::NONE);
        assert_eq!(a.procurement.recommended_ram_bytes, Some(need));
        assert!(matches!(
            a.procurement.purchase,
            Some(Purchase::LargerInstance { .. })
        ));
        // The RAM finding says "larger instance", not "add RAM".
        let f = a
            .findings
            .iter()
            .find(|f| f.id == crate::advisor::FindingId::RamBelowVram)
            .unwrap();
        assert!(f.recommendations.contains(&AdviceId::LargerInstance));
        assert!(!f.recommendations.contains(&AdviceId::AddRam));
    }
    let p = fixture("aws-g5.xlarge");
    let r = hardware_recommendation(&p, &ram_sizes(&p), need, Outcome::default()).unwrap();
    assert_eq!((r.id, r.kind), (AdviceId::LargerInstance, RecKind::Cloud));
    assert_eq!(
        r.changes["instance_type"],
        Quantity::Text("g5.4xlarge".into())
    );
    assert_eq!(r.changes["ram"], Quantity::Bytes(64 * GIB));
}

#[test]
fn one_32_gb_ddr4_module_in_four_slots_gets_a_second() {
    // One 32 GB DDR4-3200 in a 4-slot, 2-channel board, a 24 GB RTX 3090: 2 × 24 = 48 GiB
    // needed; 32 + 32 = 64 ≥ 48 with one more identical module, and two modules fill both
    // channels (dual channel).
    let p = fixture("desktop-3090-1x32-ddr4-4slot");
    let need = 2 * 24 * GIB;
    assert_eq!(
        crate::advisor::assess(&p, &crate::advisor::Scenario::NONE)
            .procurement
            .recommended_ram_bytes,
        Some(need)
    );
    let Purchase::AddModules(plan) = buy(&p, need) else {
        panic!("{:?}", buy(&p, need));
    };
    assert_eq!(
        (
            plan.buy,
            plan.module.size_bytes,
            plan.module.memory_type.as_str()
        ),
        (1, 32 * GIB, "DDR4")
    );
    assert_eq!(plan.module.speed_mts, Some(3200));
    assert_eq!((plan.keep, plan.remove), (1, 0));
    assert_eq!(plan.installed_after_bytes, 64 * GIB);
    assert_eq!(
        (plan.slots_total, plan.modules_after, plan.channels_after),
        (4, 2, Some(2))
    );
    assert_eq!(plan.balanced, Some(true));
    let r = hardware_recommendation(&p, &ram_sizes(&p), need, Outcome::default()).unwrap();
    assert_eq!((r.id, r.kind), (AdviceId::AddRam, RecKind::Hardware));
    assert_eq!(
        r.changes["modules"],
        Quantity::Modules {
            count: 1,
            size_bytes: 32 * GIB,
            memory_type: "DDR4".into(),
            speed_mts: Some(3200),
            form_factor: plan.module.form_factor,
        }
    );
    assert_eq!(r.changes["ram_bytes"], Quantity::Bytes(64 * GIB));
}

#[test]
fn soldered_lpddr5_cant_be_upgraded() {
    // 16 GiB LPDDR5 soldered; a 16 GB RTX 4090 Laptop GPU (NVML: 16,376 MiB) asks twice that.
    let p = fixture("laptop-4090m-lpddr5-soldered");
    let need = 2 * 16_376 * (1 << 20);
    let Purchase::Soldered {
        reason,
        memory_type,
        alternative,
        largest_set,
        ..
    } = buy(&p, need)
    else {
        panic!("{:?}", buy(&p, need));
    };
    assert_eq!(reason, SolderedReason::Soldered);
    assert_eq!(memory_type.as_deref(), Some("LPDDR5"));
    // The planned-machine alternative: the same channel-filling sets as the generic advice.
    assert_eq!(alternative, dimm_sets(need, None));
    assert_eq!(largest_set, None);
    // The ranked list's item: a new machine with the smallest common size ≥ 32 752 MiB: 32 GiB.
    let r = hardware_recommendation(&p, &ram_sizes(&p), need, Outcome::default()).unwrap();
    assert_eq!((r.id, r.kind), (AdviceId::NewMachine, RecKind::Hardware));
    assert_eq!(r.changes["ram_bytes"], Quantity::Bytes(32 * GIB));
    assert!(!r.changes.contains_key("modules"));
    assert_eq!(add_ram_rec(&p), AdviceId::NewMachine);
    // A Mac: memory in the processor package.
    let mac = fixture("macbook-pro-m4max-128g");
    assert!(matches!(
        buy(&mac, 256 * GIB),
        Purchase::Soldered {
            reason: SolderedReason::Apple,
            ..
        }
    ));
}

#[test]
fn an_unknown_instance_type_keeps_the_machine() {
    let mut p = fixture("aws-g5.xlarge");
    let platform = p.host.platform.as_mut().unwrap();
    platform.instance_type = Some("g9.superhuge".into());
    assert_eq!(
        buy(&p, 48 * GIB),
        Purchase::InstanceNotInCatalogue {
            provider: Some(CloudProvider::Aws),
            instance_type: Some("g9.superhuge".into()),
        }
    );
    p.host.platform.as_mut().unwrap().instance_type = None;
    assert!(matches!(
        buy(&p, 48 * GIB),
        Purchase::InstanceNotInCatalogue {
            instance_type: None,
            ..
        }
    ));
    // …and when it already has enough, nothing is needed.
    assert_eq!(
        buy(&p, 8 * GIB),
        Purchase::NotNeeded {
            installed_bytes: 16 * GIB
        }
    );
    // No instance to name: the ranked list says what to look for, 48 GiB with the same GPUs.
    let r = hardware_recommendation(&p, &ram_sizes(&p), 48 * GIB, Outcome::default()).unwrap();
    assert_eq!((r.id, r.kind), (AdviceId::OtherInstance, RecKind::Cloud));
    assert_eq!(r.changes["ram_bytes"], Quantity::Bytes(48 * GIB));
    // Already enough installed: nothing to buy.
    assert!(hardware_recommendation(&p, &ram_sizes(&p), 8 * GIB, Outcome::default()).is_none());
    // The largest one-GPU g5 is g5.16xlarge with 256 GiB: 1 TiB is out of the family's reach.
    let g5 = fixture("aws-g5.xlarge");
    let Purchase::NoLargerInstance { largest, .. } = buy(&g5, 1 << 40) else {
        panic!()
    };
    assert_eq!(
        (largest.instance_type.as_str(), largest.ram_bytes),
        ("g5.16xlarge", 256 * GIB)
    );
}

fn cloud(provider: CloudProvider, itype: &str) -> MachineProfile {
    let mut p = MachineProfile::unknown();
    p.host.platform = Some(Platform {
        kind: Some(PlatformKind::Cloud),
        provider: Some(provider),
        instance_type: Some(itype.into()),
    });
    p
}

#[test]
fn google_gb_are_binary_and_gpu_count_stays_the_same() {
    // g2-standard sizes with one L4 (Google's table, "GB" = 2^30 bytes per its pricing page):
    // 4 → 16, 8 → 32, 12 → 48, 16 → 64, 32 → 128. 48 GiB needed: g2-standard-12's 48 GB is
    // exactly 48 GiB and suffices (were Google's GB decimal, 48 GB = 44.7 GiB would not, and
    // the answer would be g2-standard-16).
    let Purchase::LargerInstance { target, .. } =
        buy(&cloud(CloudProvider::Gcp, "g2-standard-4"), 48 * GIB)
    else {
        panic!()
    };
    assert_eq!(target.instance_type, "g2-standard-12");
    // a2-highgpu-1g is the only A2 with one A100 40GB: 100 GiB is out of reach at one GPU
    // (a2-highgpu-2g has 170 GB but two GPUs).
    assert!(matches!(
        buy(&cloud(CloudProvider::Gcp, "a2-highgpu-1g"), 100 * GIB),
        Purchase::NoLargerInstance { .. }
    ));
    // Azure NCasT4_v3 with one T4: 4as 28 GiB, 8as 56, 16as 110. 32 GiB → NC8as_T4_v3.
    let Purchase::LargerInstance { target, .. } = buy(
        &cloud(CloudProvider::Azure, "Standard_NC4as_T4_v3"),
        32 * GIB,
    ) else {
        panic!()
    };
    assert_eq!(target.instance_type, "Standard_NC8as_T4_v3");
}

#[test]
fn wsl2_raises_memory_first() {
    // Windows has 32 GiB (twice the 15.6 GiB Linux sees); memory= can give 32 − 4 = 28 GiB.
    let p = fixture("wsl2-4090-32g");
    let Purchase::Wsl(w) = buy(&p, 20 * GIB) else {
        panic!()
    };
    assert_eq!(w.windows_ram_bytes, Some(32 * GIB));
    assert!(w.windows_ram_estimated);
    assert_eq!(w.cap_after_bytes, Some(28 * GIB));
    assert_eq!((w.set_memory_bytes, w.enough), (20 * GIB, Some(true)));
    // 48 GiB (2 × the 4090's 24) is beyond 28: Windows needs 48 + 4 = 52 GiB, i.e. the next
    // size machines are sold with, 64 GiB.
    let Purchase::Wsl(w) = buy(&p, 48 * GIB) else {
        panic!()
    };
    assert_eq!((w.enough, w.windows_needed_bytes), (Some(false), 64 * GIB));
    // A need under the cap: nothing to do.
    assert!(matches!(buy(&p, 8 * GIB), Purchase::NotNeeded { .. }));
    // The assessment's RAM finding puts .wslconfig before buying.
    let a = crate::advisor::assess(&p, &crate::advisor::Scenario::NONE);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == crate::advisor::FindingId::RamBelowVram)
        .unwrap();
    assert_eq!(f.recommendations[0], AdviceId::WslRaiseMemory);
    // Windows' RAM estimated (not entered): the values that pick the estimate's wording
    // travel with the RAM finding.
    assert_eq!(
        f.values["windows_ram_provenance"],
        Quantity::Text("estimated".into())
    );
    assert!(
        a.findings
            .iter()
            .any(|f| f.id == crate::advisor::FindingId::WslMemoryCapped)
    );
    // memory= set and Windows' RAM not entered: unknown, still .wslconfig first.
    let mut q = p.clone();
    *q.memory.wsl.as_mut().unwrap() = Wsl {
        version: Some(2),
        memory_cap_bytes: Some(16 * GIB),
        wslconfig: Some(WslConfigState::Read),
        wslconfig_memory_bytes: Some(16 * GIB),
        ..Wsl::default()
    };
    let Purchase::Wsl(w) = buy(&q, 48 * GIB) else {
        panic!()
    };
    assert_eq!((w.windows_ram_bytes, w.enough), (None, None));
}

#[test]
fn other_machines() {
    // A virtual machine: its host sets the memory.
    let mut vm = MachineProfile::unknown();
    vm.host.platform = Some(Platform {
        kind: Some(PlatformKind::VirtualMachine),
        ..Platform::default()
    });
    assert_eq!(buy(&vm, 64 * GIB), Purchase::VirtualMachine);
    assert_eq!(add_ram_rec(&vm), AdviceId::RaiseVmMemory);
    // Nothing known: the generic sets, exactly procurement's.
    let unknown = MachineProfile::unknown();
    assert_eq!(
        buy(&unknown, 64 * GIB),
        Purchase::Generic {
            reason: GenericReason::PlatformUnknown,
            dimm_sets: dimm_sets(64 * GIB, None),
            largest_set: None,
            cpu_platform: None,
        }
    );
    // Modules unknown, but the CPU places the machine: a Threadripper PRO 5955WX takes 8
    // channels of DDR4 RDIMMs, one per channel on WRX80 boards. 168 GiB needs 8 × 32 GB (8 ×
    // 16 GB is 128 GiB); no DDR5 and no desktop UDIMMs offered.
    let tr = fixture("live-4x4080-64g");
    let Purchase::Generic {
        dimm_sets: sets,
        cpu_platform: Some(c),
        ..
    } = buy(&tr, 168 * GIB)
    else {
        panic!("generic with the CPU's platform: {:?}", buy(&tr, 168 * GIB));
    };
    assert_eq!(c.platform, "Threadripper PRO 3000/5000 WX (WRX80)");
    assert_eq!(sets.len(), 1);
    let s = &sets[0];
    assert_eq!(
        (
            s.channels,
            s.dimms_per_channel,
            s.memory_type.as_str(),
            s.dimm_bytes,
            s.total_bytes
        ),
        (8, 1, "DDR4", 32 * GIB, 256 * GIB)
    );
    // Modules known, slots not (a hand-written profile): generic, with the reason.
    let old = fixture("student-4090-ddr4-single-channel");
    assert!(matches!(
        buy(&old, 64 * GIB),
        Purchase::Generic {
            reason: GenericReason::SlotsUnknown,
            ..
        }
    ));
    assert_eq!(add_ram_rec(&old), AdviceId::AddRam);
    // The ranked list's items name the size to reach, rounded up to a common one: 100 GiB
    // needed → 128 GiB (96 is too small).
    let item = |p: &MachineProfile| {
        hardware_recommendation(p, &ram_sizes(p), 100 * GIB, Outcome::default()).unwrap()
    };
    let r = item(&vm);
    assert_eq!((r.id, r.kind), (AdviceId::RaiseVmMemory, RecKind::Os));
    assert_eq!(r.changes["ram_bytes"], Quantity::Bytes(128 * GIB));
    let r = item(&old);
    assert_eq!((r.id, r.kind), (AdviceId::AddRam, RecKind::Hardware));
    assert_eq!(r.changes["ram_bytes"], Quantity::Bytes(128 * GIB));
    assert!(!r.changes.contains_key("modules"));
}

#[test]
fn no_platform_in_the_catalogue_holds_more_than_six_tebibytes() {
    // 12 channels × 2 per channel × 256 GB = 6144 GiB is the largest set of one socket.
    let largest = crate::advisor::buying::dimm_sets::largest_dimm_set(None).unwrap();
    assert_eq!((largest.channels, largest.total_bytes), (12, 6144 * GIB));
    assert!(dimm_sets(6145 * GIB, None).is_empty());
    assert_eq!(dimm_sets(6144 * GIB, None).len(), 1);
}

#[test]
fn a_mac_gets_the_unified_sizes_apple_sells_never_modules() {
    // A 128 GiB M4 Max asked for 150 GiB: the Macs that reach it are 192, 256 and 512 GB
    // (Apple's configurations; 128 is short). No DIMM sets for a Mac.
    let p = fixture("macbook-pro-m4max-128g");
    let Purchase::Soldered {
        reason,
        alternative,
        unified_sizes,
        ..
    } = buy(&p, 150 * GIB)
    else {
        panic!("{:?}", buy(&p, 150 * GIB));
    };
    assert_eq!(reason, SolderedReason::Apple);
    assert!(alternative.is_empty());
    assert_eq!(unified_sizes, vec![192 * GIB, 256 * GIB, 512 * GIB]);
    // Past 512 GB no Mac holds it.
    assert!(apple_sizes_reaching(600 * GIB).is_empty());
}

#[test]
fn a_jetson_gets_a_machine_with_more_unified_memory() {
    // A Jetson Orin Nano 8 GB (MemTotal 7.4 GiB; its GPU found from the device tree) asked for
    // 12 GiB: a machine with at least that much unified memory, no modules, no DIMM sets.
    let mut p = MachineProfile::unknown();
    p.memory.total_bytes = Some(7_945_859_072);
    p.gpus = crate::probe::gpu::soc::tegra_gpu(
        b"nvidia,p3768-0000+p3767-0005\0nvidia,tegra234\0",
        b"NVIDIA Jetson Orin Nano Developer Kit",
    )
    .into_iter()
    .collect();
    let Purchase::Soldered {
        reason,
        alternative,
        unified_sizes,
        ..
    } = buy(&p, 12 * GIB)
    else {
        panic!("{:?}", buy(&p, 12 * GIB));
    };
    assert_eq!(reason, SolderedReason::Unified);
    assert!(alternative.is_empty() && unified_sizes.is_empty());
    // What add-ram offers there is a new machine, never modules.
    let r = hardware_recommendation(&p, &ram_sizes(&p), 12 * GIB, Outcome::default())
        .expect("a recommendation");
    assert_eq!(r.id, AdviceId::NewMachine);
}

#[test]
fn a_job_limit_below_the_node_is_raised_never_bought_for() {
    // A Slurm job with --mem=16G on a node whose MemTotal is 503 GiB (a 512 GB node), needing
    // 40 GiB: raise the limit; the node holds it.
    let mut p = MachineProfile::unknown();
    p.memory.total_bytes = Some(503 * GIB);
    p.memory.limit_bytes = Some(16 * GIB);
    let Purchase::RaiseLimit {
        limit_bytes,
        node_bytes,
        node_reaches,
    } = buy(&p, 40 * GIB)
    else {
        panic!("{:?}", buy(&p, 40 * GIB));
    };
    assert_eq!(
        (limit_bytes, node_bytes, node_reaches),
        (16 * GIB, Some(503 * GIB), true)
    );
    // No module, no "nothing to buy": the limit is its own lever.
    assert!(hardware_recommendation(&p, &ram_sizes(&p), 40 * GIB, Outcome::default()).is_none());
    // Needing 600 GiB: the node itself falls short.
    let Purchase::RaiseLimit { node_reaches, .. } = buy(&p, 600 * GIB) else {
        panic!("{:?}", buy(&p, 600 * GIB));
    };
    assert!(!node_reaches);
}
