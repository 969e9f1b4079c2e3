//! Every string of a profile, visited in one place: redaction scrubs each one and validation
//! caps each one's length, so a field added to the profile is covered by both once it is listed
//! here (the redaction sweep test plants text in every string the JSON has and fails otherwise).

use super::{FieldStatus, MachineProfile};

/// Writes every string of `p` on one line ([`crate::sanitize::one_line`]): line breaks,
/// control characters and bidirectional overrides shown escaped. Done to every profile
/// ramvram reads or imports (a file, a trace's header, Slurm, Prometheus), so that no view can
/// print a host or GPU name that forges a line of output.
pub fn make_one_line(p: &mut MachineProfile) {
    for_each_string(p, &mut |s, _| {
        if let std::borrow::Cow::Owned(clean) = crate::sanitize::one_line(s) {
            *s = clean;
        }
    });
}

/// Calls `f` on every string in `p`, with a function that gives the field's JSON path
/// (`gpus[1].name`) when it is wanted (building paths for every string would cost more than the
/// visit).
pub fn for_each_string(
    p: &mut MachineProfile,
    f: &mut dyn FnMut(&mut String, &dyn Fn() -> String),
) {
    fn opt(
        f: &mut dyn FnMut(&mut String, &dyn Fn() -> String),
        s: &mut Option<String>,
        path: &dyn Fn() -> String,
    ) {
        if let Some(s) = s {
            f(s, path);
        }
    }
    fn status(
        f: &mut dyn FnMut(&mut String, &dyn Fn() -> String),
        s: &mut Option<FieldStatus>,
        path: &dyn Fn() -> String,
    ) {
        if let Some(FieldStatus::Error(e)) = s {
            f(e, path);
        }
    }
    opt(f, &mut p.generated_by, &|| "generated_by".into());
    opt(f, &mut p.host.hostname, &|| "host.hostname".into());
    opt(f, &mut p.host.os, &|| "host.os".into());
    opt(f, &mut p.host.kernel, &|| "host.kernel".into());
    opt(f, &mut p.host.arch, &|| "host.arch".into());
    opt(f, &mut p.cpu.model, &|| "cpu.model".into());
    opt(f, &mut p.memory.memory_type, &|| {
        "memory.memory_type".into()
    });
    for (i, d) in p.memory.dimms.iter_mut().enumerate() {
        let at = |field: &str| format!("memory.dimms[{i}].{field}");
        opt(f, &mut d.locator, &|| at("locator"));
        opt(f, &mut d.bank_locator, &|| at("bank_locator"));
        opt(f, &mut d.memory_type, &|| at("memory_type"));
        opt(f, &mut d.form_factor, &|| at("form_factor"));
        opt(f, &mut d.part_number, &|| at("part_number"));
    }
    for (i, g) in p.gpus.iter_mut().enumerate() {
        let at = |field: &str| format!("gpus[{i}].{field}");
        opt(f, &mut g.name, &|| at("name"));
        opt(f, &mut g.driver_version, &|| at("driver_version"));
        opt(f, &mut g.pci_bus_id, &|| at("pci_bus_id"));
        opt(f, &mut g.uuid, &|| at("uuid"));
        status(f, &mut g.status.memory, &|| at("status.memory.error"));
        status(f, &mut g.status.pcie, &|| at("status.pcie.error"));
        status(f, &mut g.status.utilization, &|| {
            at("status.utilization.error")
        });
        status(f, &mut g.status.uuid, &|| at("status.uuid.error"));
        for (j, proc) in g.processes.iter_mut().flatten().enumerate() {
            opt(f, &mut proc.name, &|| at(&format!("processes[{j}].name")));
        }
    }
    for (i, d) in p.disks.iter_mut().enumerate() {
        let at = |field: &str| format!("disks[{i}].{field}");
        f(&mut d.mount_point, &|| at("mount_point"));
        opt(f, &mut d.file_system, &|| at("file_system"));
        opt(f, &mut d.device, &|| at("device"));
    }
    for (i, n) in p.notes.iter_mut().enumerate() {
        opt(f, &mut n.detail, &|| format!("notes[{i}].detail"));
    }
    if let Some(m) = &mut p.measurements.memory_bandwidth {
        opt(f, &mut m.tool, &|| {
            "measurements.memory_bandwidth.tool".into()
        });
    }
    for (i, s) in p.measurements.storage.iter_mut().enumerate() {
        let at = |field: &str| format!("measurements.storage[{i}].{field}");
        f(&mut s.path, &|| at("path"));
        opt(f, &mut s.tool, &|| at("tool"));
    }
    if let Some(m) = &mut p.macos {
        opt(f, &mut m.model_identifier, &|| {
            "macos.model_identifier".into()
        });
        for (i, l) in m.core_levels.iter_mut().enumerate() {
            opt(f, &mut l.name, &|| format!("macos.core_levels[{i}].name"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_of_a_full_profile_is_visited_with_its_path() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/profiles/lab-a6000-nfs-measured.json");
        let mut p = super::super::load_profile(&path).unwrap().profile;
        let mut seen = Vec::new();
        for_each_string(&mut p, &mut |s, path| seen.push((path(), s.clone())));
        assert!(seen.contains(&(
            "measurements.storage[0].path".into(),
            "/mnt/datasets/imagenet".into()
        )));
        assert!(seen.iter().any(|(p, _)| p == "host.hostname"));
        // The visit can change every string.
        for_each_string(&mut p, &mut |s, _| *s = "x".into());
        let mut after = Vec::new();
        for_each_string(&mut p, &mut |s, _| after.push(s.clone()));
        assert_eq!(after.len(), seen.len());
        assert!(after.iter().all(|s| s == "x"));
    }
}
