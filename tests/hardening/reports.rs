//! Hostile strings in reports: control characters, Markdown injection, the redaction sweep.

use super::*;

fn profile_named(host: &str) -> MachineProfile {
    let mut p = common::fixture("dgx-a100");
    p.host.hostname = Some(host.to_string());
    p
}

fn fleet_of(hosts: &[&str]) -> Vec<fleet::FleetMachine> {
    fleet::assess_fleet(
        hosts
            .iter()
            .map(|h| {
                (
                    h.to_string(),
                    fleet::Origin::File(format!("{h}.json")),
                    profile_named(h),
                    Vec::new(),
                )
            })
            .collect(),
    )
}

#[test]
fn control_characters_in_a_host_name_do_not_break_the_fleet_pdf() {
    let hostile = "node\u{1b}]0;owned\u{7}\u{0}-\u{fffe}01\u{202e}";
    let machines = fleet_of(&[hostile, "node-02"]);
    let pdf = report::render_fleet(&machines, &[], &options(Format::Pdf, false)).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let text = pdf_extract::extract_text_from_mem(&pdf).unwrap();
    assert!(text.contains("node]0;owned-01"), "{text}");
    for format in [Format::Markdown, Format::Json] {
        let bytes = report::render_fleet(&machines, &[], &options(format, false)).unwrap();
        let out = String::from_utf8(bytes).unwrap();
        for c in ['\u{1b}', '\u{7}', '\u{0}', '\u{fffe}', '\u{202e}'] {
            assert!(!out.contains(c), "{format:?} carries {c:?}");
        }
    }
    // The terminal view too.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.json");
    ramvram::profile::save_profile(&profile_named(hostile), &file).unwrap();
    let out = common::ramvram()
        .args(["advise", "--profile"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains('\u{1b}') && !out.contains('\u{202e}'));
}

#[test]
fn a_host_name_cannot_inject_markdown() {
    let hostile = "evil\n# Owned <img src=x onerror=alert(1)> [click](https://x) | cell";
    let a = assess(&profile_named(hostile), &ramvram::advisor::Scenario::NONE);
    let md =
        String::from_utf8(report::render(&a, &options(Format::Markdown, false)).unwrap()).unwrap();
    let title = md.lines().next().unwrap();
    assert_eq!(
        title,
        r"# RAM·VRAM report: evil # Owned \<img src=x onerror=alert(1)\> \[click\](https://x) \| cell"
    );
    assert!(!md.lines().any(|l| l.starts_with("# Owned")));
    let unescaped_html = |md: &str| md.replace("\\<", "").contains('<');
    assert!(!unescaped_html(&md), "{md}");
    let machines = fleet_of(&[hostile]);
    let md = String::from_utf8(
        report::render_fleet(&machines, &[], &options(Format::Markdown, false)).unwrap(),
    )
    .unwrap();
    assert!(!unescaped_html(&md) && !md.lines().any(|l| l.starts_with("# Owned")));
    // The fleet table keeps its 7 columns: the `|` in the name is escaped.
    let row = md.lines().find(|l| l.starts_with("| evil")).unwrap();
    let unescaped = row
        .match_indices('|')
        .filter(|(i, _)| !row[..*i].ends_with('\\'));
    assert_eq!(unescaped.count(), 8, "{row}");
}

/// Identifiers planted in every string of a profile; none may reach a redacted report.
const PLANTED: [&str; 8] = [
    "zzhost7",
    "zzuser",
    "zzlabel",
    "zzserver",
    "6f1c0b2e",
    "0c:42:a1",
    "zzserial42",
    "zzvg",
];

fn plant(text: &str) -> String {
    format!(
        "{text} zzhost7 /home/zzuser/d /run/media/zzuser/ZZLABEL/x zzserver:/export/zz \
         GPU-6f1c0b2e-3a4d-4e5f-8a9b-0c1d2e3f4a5b 0c:42:a1:9e:00:01 \
         /dev/disk/by-id/nvme-ZZSERIAL42 /dev/mapper/zzvg-home"
    )
}

/// A profile with every optional string filled, then the plant put into every string (and
/// every null that can hold a string) of its JSON: found by trying each one, so a field added
/// later is planted without this test knowing its name.
fn planted_profile() -> MachineProfile {
    let mut p = common::fixture("lab-a6000-nfs-measured");
    p.memory.memory_type = Some("DDR4".into());
    p.memory.dimms.push(Dimm::default());
    p.notes.push(Note {
        id: NoteId::MountTimedOut,
        detail: Some("x".into()),
    });
    let g = &mut p.gpus[0];
    g.uuid = Some("GPU-x".into());
    g.pci_bus_id = Some("00000000:17:00.0".into());
    g.status.memory = Some(FieldStatus::Error("x".into()));
    g.status.pcie = Some(FieldStatus::Error("x".into()));
    g.status.utilization = Some(FieldStatus::Error("x".into()));
    g.status.uuid = Some(FieldStatus::Error("x".into()));
    let mut doc = serde_json::to_value(&p).unwrap();
    let mut paths = Vec::new();
    collect_leaves(&doc, &mut Vec::new(), &mut paths);
    let mut planted = 0;
    for path in paths {
        let slot = leaf(&mut doc, &path);
        let old = slot.clone();
        *slot = serde_json::Value::String(plant(old.as_str().unwrap_or("")));
        if serde_json::from_value::<MachineProfile>(doc.clone()).is_ok() {
            planted += 1;
        } else {
            *leaf(&mut doc, &path) = old;
        }
    }
    assert!(planted >= 30, "{planted} strings planted");
    let mut p: MachineProfile = serde_json::from_value(doc).unwrap();
    p.host.hostname = Some("zzhost7.lab.example".into());
    p
}

fn collect_leaves(v: &serde_json::Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                at.push(k.clone());
                collect_leaves(x, at, out);
                at.pop();
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                collect_leaves(x, at, out);
                at.pop();
            }
        }
        serde_json::Value::String(_) | serde_json::Value::Null => out.push(at.clone()),
        _ => {}
    }
}

fn leaf<'a>(v: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
    path.iter().fold(v, |v, k| match v {
        serde_json::Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
        other => &mut other[k.as_str()],
    })
}

fn assert_no_plant(what: &str, text: &str) {
    let squashed: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    for p in PLANTED {
        if let Some(at) = squashed.find(p) {
            let from = squashed[..at]
                .char_indices()
                .rev()
                .nth(200)
                .map_or(0, |(i, _)| i);
            panic!(
                "{what} still carries {p}: …{}",
                &squashed[from..at + p.len()]
            );
        }
    }
}

#[test]
fn redaction_sweep_leaves_no_planted_identifier_in_any_format() {
    let profile = planted_profile();
    let unredacted = serde_json::to_string(&profile).unwrap().to_lowercase();
    assert!(
        PLANTED.iter().all(|p| unredacted.contains(p)),
        "the plant is there"
    );
    let a = ramvram::advisor::redacted::redacted_assessment(
        &profile,
        &ramvram::advisor::Scenario::NONE,
    );
    for format in [Format::Json, Format::Markdown, Format::Pdf] {
        let bytes = report::render(&a, &options(format, true)).unwrap();
        let text = match format {
            Format::Pdf => pdf_extract::extract_text_from_mem(&bytes).unwrap(),
            _ => String::from_utf8(bytes).unwrap(),
        };
        assert_no_plant(&format!("{format:?} report"), &text);
        // What identifies nothing stays: the GPU model and the measured folder's mount.
        let marker = text.contains("[redacted]") || text.contains(r"\[redacted\]");
        assert!(text.contains("RTX A6000") && marker, "{format:?}");
    }
    // A fleet: the same profile beside one whose mounts name the first host.
    let mut other = common::fixture("dgx-a100");
    other.disks.push(ramvram::profile::Disk {
        mount_point: "/mnt/zzhost7-scratch".into(),
        file_system: Some("nfs4".into()),
        kind: ramvram::profile::DiskKind::Network,
        device: Some("zzhost7:/scratch".into()),
        total_bytes: None,
        available_bytes: None,
    });
    let machines = fleet::assess_fleet(vec![
        (
            "zzhost7".into(),
            fleet::Origin::File("/home/zzuser/zzhost7.json".into()),
            profile,
            Vec::new(),
        ),
        (
            "dgx".into(),
            fleet::Origin::Slurm("/home/zzuser/nodes.json".into()),
            other,
            Vec::new(),
        ),
    ]);
    // A skip reason naming the planted host and user in its path.
    let skipped = vec![(
        "/home/zzuser/zzhost7-old.json".to_string(),
        ramvram::profile::dir::Skip::Error(ramvram::profile::ProfileError::Read {
            path: "/home/zzuser/zzhost7-old.json".into(),
            error: ramvram::fsutil::IoProblem::Other("zzhost7".to_string()),
        }),
    )];
    let redacted = fleet::redacted_fleet(&machines);
    for format in [Format::Json, Format::Markdown, Format::Pdf] {
        let bytes = report::render_fleet(&redacted, &skipped, &options(format, true)).unwrap();
        let text = match format {
            Format::Pdf => pdf_extract::extract_text_from_mem(&bytes).unwrap(),
            _ => String::from_utf8(bytes).unwrap(),
        };
        assert_no_plant(&format!("{format:?} fleet report"), &text);
    }
    // And from the command line.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("planted.json");
    ramvram::profile::save_profile(&planted_profile(), &file).unwrap();
    let out = dir.path().join("r.json");
    common::ramvram()
        .args(["report", "--redact", "--format", "json", "--out"])
        .arg(&out)
        .arg("--profile")
        .arg(&file)
        .assert()
        .success();
    assert_no_plant("report --redact", &std::fs::read_to_string(&out).unwrap());
}

/// Issue 25: a newline, carriage return or bidirectional override in a host name, a GPU name or
/// a file name can't start a line of `advise` output (forging a finding, splitting the lab
/// table): each is shown escaped, on its line.
#[test]
fn hostile_names_are_shown_escaped_on_one_line_in_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = profile_named("evil\nFORGED HOST\r\u{202e}X");
    p.gpus[0].name = Some("A100\nFORGED GPU".into());
    let file = dir.path().join("evil.json");
    ramvram::profile::save_profile(&p, &file).unwrap();
    std::fs::copy(common::fixture_path("dgx-a100"), dir.path().join("ok.json")).unwrap();
    std::fs::write(dir.path().join("bad\nFORGED FILE.json"), b"{").unwrap();
    for args in [
        vec!["advise", "--profile", file.to_str().unwrap()],
        vec!["advise", "--profile-dir", dir.path().to_str().unwrap()],
    ] {
        let out = common::ramvram().args(&args).output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for line in text.lines() {
            assert!(!line.trim_start().starts_with("FORGED"), "{args:?}: {text}");
        }
        assert!(!text.contains('\r') && !text.contains('\u{202e}'), "{text}");
        // What was there is still visible, escaped.
        assert!(
            text.contains(r"evil\nFORGED HOST\r\u{202e}X"),
            "{args:?}: {text}"
        );
        if args[1] == "--profile-dir" {
            assert!(text.contains(r"bad\nFORGED FILE.json"), "{text}");
        } else {
            assert!(text.contains(r"A100\nFORGED GPU"), "{text}");
        }
    }
}
