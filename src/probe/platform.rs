//! What kind of machine this is: a cloud instance (and which), a virtual machine, a desktop,
//! workstation, server or laptop, or a Mac. On Linux from the DMI strings in
//! `/sys/class/dmi/id` (world-readable, no root needed), on macOS from the operating system.
//!
//! [`classify`] is pure and tested on captured strings; [`read_dmi_dir`] only reads files, each
//! with a small size cap. What can't be told stays `None`: an unreadable DMI folder is unknown,
//! not "desktop".

use std::io::Read;
use std::path::Path;

use crate::profile::{CloudProvider, MAX_INSTANCE_TYPE_CHARS, Platform, PlatformKind};

/// Longest DMI string read, bytes. SMBIOS strings are short (the kernel exports them one per
/// file); anything longer is cut, then ignored if not valid text.
const DMI_FILE_CAP: u64 = 256;

/// Azure's chassis asset tag, the same on every Azure VM (cloud-init
/// `cloudinit/sources/azure/identity.py`, `ChassisAssetTag.AZURE_CLOUD`); a Hyper-V VM outside
/// Azure has another tag.
pub const AZURE_ASSET_TAG: &str = "7783-7084-3265-9085-8269-3286-77";

/// The DMI strings classification uses, trimmed; placeholders ("Not Specified", "To Be Filled By
/// O.E.M.", …) are `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DmiIds {
    /// `sys_vendor` (SMBIOS type 1 Manufacturer), e.g. "Amazon EC2", "Dell Inc.".
    pub sys_vendor: Option<String>,
    /// `product_name` (type 1 Product Name): the instance type on AWS Nitro.
    pub product_name: Option<String>,
    /// `product_version` (type 1 Version): "Hyper-V …" on some Hyper-V VMs.
    pub product_version: Option<String>,
    /// `chassis_type` (type 3 Type, DSP0134 Table 17), a number.
    pub chassis_type: Option<u32>,
    /// `chassis_asset_tag` (type 3 Asset Tag).
    pub chassis_asset_tag: Option<String>,
    /// `board_vendor` (type 2 Manufacturer).
    pub board_vendor: Option<String>,
    /// `bios_vendor` (type 0 Vendor).
    pub bios_vendor: Option<String>,
    /// `bios_version` (type 0 BIOS Version): "4.11.amazon" on Xen-based EC2 instances.
    pub bios_version: Option<String>,
}

/// Hypervisor names that start a DMI vendor or product string on a virtual machine: systemd's
/// `dmi_vendor_table` (`src/basic/virt.c`), without "Amazon EC2" and "Google Compute Engine"
/// (clouds, told apart first).
const VM_VENDOR_PREFIXES: [&str; 13] = [
    "KVM",
    "OpenStack",
    "KubeVirt",
    "QEMU",
    "VMware",
    "VMW",
    "innotek GmbH",
    "VirtualBox",
    "Oracle Corporation",
    "Xen",
    "Bochs",
    "Parallels",
    "BHYVE",
];

/// SMBIOS chassis types (DSP0134 §7.4.1, Table 17) of desktops: Desktop (3), Low Profile
/// Desktop (4), Pizza Box (5), Mini Tower (6), Tower (7), All in One (13), Space-saving (15),
/// Lunch Box (16), Sealed-case PC (24), Mini PC (35), Stick PC (36).
pub const DESKTOP_CHASSIS: [u32; 11] = [3, 4, 5, 6, 7, 13, 15, 16, 24, 35, 36];

/// Chassis types of portables: Portable (8), Laptop (9), Notebook (10), Sub Notebook (14),
/// Tablet (30), Convertible (31), Detachable (32).
pub const LAPTOP_CHASSIS: [u32; 7] = [8, 9, 10, 14, 30, 31, 32];

/// Chassis types of servers: Main Server Chassis (17), Rack Mount Chassis (23), Multi-system
/// chassis (25), Blade (28), Blade Enclosure (29).
pub const SERVER_CHASSIS: [u32; 5] = [17, 23, 25, 28, 29];

/// Processor names that make a desktop chassis a workstation: Intel Xeon, AMD Threadripper and
/// EPYC are sold for workstation and server boards (registered memory, more channels).
/// Assumption: a tower with one of these is a workstation, not a consumer desktop.
const WORKSTATION_CPUS: [&str; 3] = ["Xeon", "Threadripper", "EPYC"];

/// What kind of machine the DMI strings describe, `None` when they don't say. `cpu_model` (the
/// processor's name) tells a workstation from a desktop in the same chassis.
pub fn classify(d: &DmiIds, cpu_model: Option<&str>) -> Option<Platform> {
    let eq = |v: &Option<String>, s: &str| v.as_deref().is_some_and(|x| x == s);
    let cloud = |provider, instance_type| Platform {
        kind: Some(PlatformKind::Cloud),
        provider: Some(provider),
        instance_type,
    };
    let amazon = [&d.sys_vendor, &d.board_vendor, &d.bios_vendor]
        .iter()
        .any(|v| eq(v, "Amazon EC2"));
    if amazon {
        let itype = d.product_name.as_deref().and_then(aws_instance_type);
        return Some(cloud(CloudProvider::Aws, itype));
    }
    let xen = d
        .sys_vendor
        .as_deref()
        .is_some_and(|v| v.starts_with("Xen"));
    let amazon_bios = d
        .bios_version
        .as_deref()
        .is_some_and(|v| v.to_ascii_lowercase().contains("amazon"));
    if xen && amazon_bios {
        return Some(cloud(CloudProvider::Aws, None));
    }
    if eq(&d.product_name, "Google Compute Engine") {
        return Some(cloud(CloudProvider::Gcp, None));
    }
    if eq(&d.chassis_asset_tag, AZURE_ASSET_TAG) {
        return Some(cloud(CloudProvider::Azure, None));
    }
    if eq(&d.sys_vendor, "Alibaba Cloud") {
        return Some(cloud(CloudProvider::Alibaba, None));
    }
    if eq(&d.chassis_asset_tag, "OracleCloud.com") {
        return Some(cloud(CloudProvider::Oracle, None));
    }
    let vm_prefix = [
        &d.product_name,
        &d.sys_vendor,
        &d.board_vendor,
        &d.bios_vendor,
    ]
    .iter()
    .any(|v| {
        v.as_deref()
            .is_some_and(|s| VM_VENDOR_PREFIXES.iter().any(|p| s.starts_with(p)))
    });
    let hyper_v = (eq(&d.sys_vendor, "Microsoft Corporation")
        && eq(&d.product_name, "Virtual Machine"))
        || d.product_version
            .as_deref()
            .is_some_and(|v| v.starts_with("Hyper-V"));
    let apple_vm = d
        .product_name
        .as_deref()
        .is_some_and(|v| v.starts_with("Apple Virtualization"));
    if vm_prefix || hyper_v || apple_vm {
        return Some(kind(PlatformKind::VirtualMachine));
    }
    if eq(&d.sys_vendor, "Apple Inc.") {
        return Some(kind(PlatformKind::Apple));
    }
    let chassis = d.chassis_type?;
    if DESKTOP_CHASSIS.contains(&chassis) {
        let workstation = cpu_model.is_some_and(|m| WORKSTATION_CPUS.iter().any(|w| m.contains(w)));
        Some(kind(if workstation {
            PlatformKind::Workstation
        } else {
            PlatformKind::Desktop
        }))
    } else if LAPTOP_CHASSIS.contains(&chassis) {
        Some(kind(PlatformKind::Laptop))
    } else if SERVER_CHASSIS.contains(&chassis) {
        Some(kind(PlatformKind::Server))
    } else {
        None
    }
}

fn kind(k: PlatformKind) -> Platform {
    Platform {
        kind: Some(k),
        provider: None,
        instance_type: None,
    }
}

/// An EC2 instance type as Nitro instances put it in `product_name` ("g5.xlarge",
/// "p4d.24xlarge", "u-6tb1.metal"): family, a dot, size; lower-case letters, digits and dashes.
/// Anything else (a bare-metal board's own name) is not taken for one.
pub fn aws_instance_type(product_name: &str) -> Option<String> {
    let s = product_name.trim();
    let (family, size) = s.split_once('.')?;
    let ok = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    (ok(family) && ok(size) && s.len() <= MAX_INSTANCE_TYPE_CHARS).then(|| s.to_string())
}

/// The text of one DMI file: trimmed, `None` when empty, not UTF-8, or an SMBIOS placeholder.
pub fn dmi_text(raw: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(raw).ok()?.trim();
    let placeholders = [
        "",
        "Not Specified",
        "Not Applicable",
        "None",
        "Default string",
        "To Be Filled By O.E.M.",
        "To be filled by O.E.M.",
        "System Product Name",
        "System manufacturer",
        "Unknown",
        "Other",
    ];
    (!placeholders.iter().any(|p| s.eq_ignore_ascii_case(p)) && !s.contains('\0'))
        .then(|| s.to_string())
}

/// Reads the DMI strings from `dir` (`/sys/class/dmi/id`); a missing or unreadable file is
/// `None`.
pub fn read_dmi_dir(dir: &Path) -> DmiIds {
    let read = |name: &str| -> Option<String> {
        let mut buf = Vec::new();
        std::fs::File::open(dir.join(name))
            .ok()?
            .take(DMI_FILE_CAP)
            .read_to_end(&mut buf)
            .ok()?;
        dmi_text(&buf)
    };
    DmiIds {
        sys_vendor: read("sys_vendor"),
        product_name: read("product_name"),
        product_version: read("product_version"),
        chassis_type: read("chassis_type").and_then(|s| s.parse().ok()),
        chassis_asset_tag: read("chassis_asset_tag"),
        board_vendor: read("board_vendor"),
        bios_vendor: read("bios_vendor"),
        bios_version: read("bios_version"),
    }
}

/// True when a device-tree `compatible` list (NUL-separated, `/proc/device-tree/compatible`)
/// names an Apple machine ("apple,j314s", …): Apple Silicon running Linux.
pub fn apple_device_tree(compatible: &[u8]) -> bool {
    compatible
        .split(|b| *b == 0)
        .any(|entry| entry.starts_with(b"apple,"))
}

/// This machine's platform: DMI on Linux (or the device tree on Apple Silicon), macOS itself;
/// `None` when nothing tells.
pub fn detect(cpu_model: Option<&str>) -> Option<Platform> {
    if cfg!(target_os = "macos") {
        return Some(kind(PlatformKind::Apple));
    }
    if cfg!(target_os = "linux") {
        let dmi = read_dmi_dir(Path::new("/sys/class/dmi/id"));
        if let Some(p) = classify(&dmi, cpu_model) {
            return Some(p);
        }
        let mut buf = Vec::new();
        let tree = std::fs::File::open("/proc/device-tree/compatible")
            .and_then(|f| f.take(4096).read_to_end(&mut buf));
        if tree.is_ok() && apple_device_tree(&buf) {
            return Some(kind(PlatformKind::Apple));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(vendor: &str, product: &str, chassis: Option<u32>) -> DmiIds {
        DmiIds {
            sys_vendor: dmi_text(vendor.as_bytes()),
            product_name: dmi_text(product.as_bytes()),
            chassis_type: chassis,
            ..DmiIds::default()
        }
    }

    #[test]
    fn aws_nitro_names_the_instance_type() {
        // `dmidecode -t system` on EC2: "Manufacturer: Amazon EC2 / Product Name: g5.xlarge";
        // sysfs prints the same strings with a newline.
        let p = classify(&ids("Amazon EC2\n", "g5.xlarge\n", Some(1)), None).unwrap();
        assert_eq!(p.kind, Some(PlatformKind::Cloud));
        assert_eq!(p.provider, Some(CloudProvider::Aws));
        assert_eq!(p.instance_type.as_deref(), Some("g5.xlarge"));
        // A product name that isn't an instance type is not taken for one.
        let odd = classify(&ids("Amazon EC2", "Bare Metal Board 3", None), None).unwrap();
        assert_eq!(odd.instance_type, None);
        // Xen-based EC2: "Xen" / "HVM domU" with an Amazon BIOS version.
        let mut xen = ids("Xen", "HVM domU", Some(1));
        xen.bios_version = Some("4.11.amazon".into());
        assert_eq!(
            classify(&xen, None).unwrap().provider,
            Some(CloudProvider::Aws)
        );
    }

    #[test]
    fn gcp_azure_and_plain_hyper_v() {
        let gce = classify(&ids("Google", "Google Compute Engine", Some(1)), None).unwrap();
        assert_eq!(gce.provider, Some(CloudProvider::Gcp));
        assert_eq!(gce.instance_type, None, "GCE's DMI has no machine type");
        let mut azure = ids("Microsoft Corporation", "Virtual Machine", Some(3));
        azure.chassis_asset_tag = Some(AZURE_ASSET_TAG.into());
        assert_eq!(
            classify(&azure, None).unwrap().provider,
            Some(CloudProvider::Azure)
        );
        // The same strings without Azure's tag: a Hyper-V VM, not a desktop (its chassis type
        // says 3, Desktop).
        let hyperv = ids("Microsoft Corporation", "Virtual Machine", Some(3));
        assert_eq!(
            classify(&hyperv, None).unwrap().kind,
            Some(PlatformKind::VirtualMachine)
        );
    }

    #[test]
    fn hypervisors_are_virtual_machines() {
        for (vendor, product) in [
            ("QEMU", "Standard PC (Q35 + ICH9, 2009)"),
            ("VMware, Inc.", "VMware Virtual Platform"),
            ("innotek GmbH", "VirtualBox"),
            ("Red Hat", "KVM"),
        ] {
            let p = classify(&ids(vendor, product, Some(1)), None).unwrap();
            assert_eq!(p.kind, Some(PlatformKind::VirtualMachine), "{vendor}");
            assert_eq!(p.provider, None);
        }
    }

    #[test]
    fn chassis_types_per_dsp0134() {
        let k = |c, cpu| classify(&ids("Dell Inc.", "Precision 7920", Some(c)), cpu).unwrap();
        assert_eq!(k(3, None).kind, Some(PlatformKind::Desktop));
        assert_eq!(
            k(7, Some("AMD Ryzen 9 7950X")).kind,
            Some(PlatformKind::Desktop)
        );
        assert_eq!(
            k(7, Some("Intel(R) Xeon(R) w5-2455X")).kind,
            Some(PlatformKind::Workstation)
        );
        assert_eq!(k(9, None).kind, Some(PlatformKind::Laptop));
        assert_eq!(k(10, None).kind, Some(PlatformKind::Laptop));
        assert_eq!(k(14, None).kind, Some(PlatformKind::Laptop));
        assert_eq!(k(17, None).kind, Some(PlatformKind::Server));
        assert_eq!(k(23, None).kind, Some(PlatformKind::Server));
        // Other (1), Unknown (2), Docking Station (12): unknown, not guessed.
        for c in [1, 2, 12] {
            assert_eq!(classify(&ids("Dell Inc.", "X", Some(c)), None), None);
        }
        // Nothing readable: unknown.
        assert_eq!(classify(&DmiIds::default(), None), None);
        assert_eq!(
            classify(&ids("Apple Inc.", "MacBookPro11,5", Some(9)), None)
                .unwrap()
                .kind,
            Some(PlatformKind::Apple)
        );
    }

    #[test]
    fn placeholders_and_bad_bytes_are_unknown() {
        assert_eq!(dmi_text(b"To Be Filled By O.E.M.\n"), None);
        assert_eq!(dmi_text(b"Default string"), None);
        assert_eq!(dmi_text(&[0xff, 0xfe]), None);
        assert_eq!(
            dmi_text(b"ASUSTeK COMPUTER INC.\n").as_deref(),
            Some("ASUSTeK COMPUTER INC.")
        );
        assert!(apple_device_tree(
            b"apple,j314s\0apple,t6000\0apple,arm-platform\0"
        ));
        assert!(!apple_device_tree(b"raspberrypi,4-model-b\0brcm,bcm2711\0"));
    }

    #[test]
    fn a_dmi_folder_is_read_with_caps() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("sys_vendor"), "Amazon EC2\n").unwrap();
        std::fs::write(dir.path().join("product_name"), "p4d.24xlarge\n").unwrap();
        std::fs::write(dir.path().join("chassis_type"), "1\n").unwrap();
        // A huge file is read only up to the cap.
        std::fs::write(dir.path().join("board_vendor"), "x".repeat(10_000)).unwrap();
        let d = read_dmi_dir(dir.path());
        assert_eq!(d.chassis_type, Some(1));
        assert_eq!(d.board_vendor.as_ref().map(String::len), Some(256));
        let p = classify(&d, None).unwrap();
        assert_eq!(p.instance_type.as_deref(), Some("p4d.24xlarge"));
        assert_eq!(read_dmi_dir(&dir.path().join("missing")), DmiIds::default());
    }
}
