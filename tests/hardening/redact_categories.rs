//! Issue 25: `--redact` by category. Each kind of identifier is generated (user names under
//! every path root a cluster uses and after `~`, a mount point named after a host, IPv4 and
//! IPv6 addresses, a MAC address in each notation, the DNS domain standing alone), planted in a
//! profile, and must be in the report without `--redact` (so the test sees where it goes) and in
//! no redacted Markdown, JSON or PDF text.

use proptest::prelude::*;

use super::*;

/// Everything generated for one case: the text planted, and the identifiers in it.
#[derive(Debug, Clone)]
struct Plant {
    text: String,
    domain_text: String,
    hostname: String,
    secrets: Vec<String>,
}

fn mac_text(b: [u8; 6], notation: usize) -> String {
    let hex: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
    match notation {
        0 => hex.join(":"),
        1 => hex.join("-"),
        2 => format!(
            "{}{}.{}{}.{}{}",
            hex[0], hex[1], hex[2], hex[3], hex[4], hex[5]
        ),
        _ => hex.concat(),
    }
}

fn plant() -> impl Strategy<Value = Plant> {
    let roots = prop::sample::select(vec![
        "/scratch", "/home2", "/lustre", "/users", "/work", "/data", "/home",
    ]);
    (
        roots,
        "[a-z]{3,6}",
        "[a-z]{3,6}",
        10u8..100,
        prop::array::uniform4(1u8..=254),
        prop::array::uniform8(any::<u16>()),
        prop::array::uniform6(any::<u8>()),
        0usize..4,
        "[a-z]{3,6}",
    )
        .prop_map(|(root, user, user2, nas, v4, v6, mut mac, notation, dom)| {
            // A first byte of 0xa0 or more: the bare notation has a hex letter, as a MAC
            // written without separators must to be told from a 12-digit number.
            mac[0] |= 0xa0;
            let user = format!("zq{user}");
            let user2 = format!("zq{user2}x");
            let mount = format!("zqnas{nas}");
            let ipv4 = v4.map(|x| x.to_string()).join(".");
            let ipv6 = v6.map(|x| format!("{x:x}")).join(":");
            let mac = mac_text(mac, notation);
            let domain = format!("zq{dom}.example");
            Plant {
                text: format!(
                    "{root}/{user}/run1 ~{user2}/ckpt /mnt/{mount}/imagenet {ipv4} [{ipv6}]:9100 {mac}"
                ),
                domain_text: format!("see {domain} docs"),
                hostname: format!("zqnode7.{domain}"),
                secrets: vec![user, user2, mount, ipv4, ipv6, mac, domain],
            }
        })
}

fn planted(p: &Plant) -> MachineProfile {
    let mut m = common::fixture("lab-a6000-nfs-measured");
    m.host.hostname = Some(p.hostname.clone());
    m.disks[1].mount_point = p.text.clone();
    m.cpu.model = Some(format!("{} {}", p.text, p.domain_text));
    m
}

fn text_of(format: Format, bytes: Vec<u8>) -> String {
    let text = match format {
        Format::Pdf => pdf_extract::extract_text_from_mem(&bytes).unwrap(),
        _ => String::from_utf8(bytes).unwrap(),
    };
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn no_identifier_of_any_category_survives_redaction(p in plant()) {
        let a = assess(&planted(&p), &ramvram::advisor::Scenario::NONE);
        let open = text_of(Format::Markdown, report::render(&a, &options(Format::Markdown, false)).unwrap());
        for s in &p.secrets {
            prop_assert!(open.contains(s.as_str()), "{s} not shown even without --redact");
        }
        let redacted = ramvram::advisor::redacted::redacted(&a);
        for format in [Format::Markdown, Format::Json, Format::Pdf] {
            let text = text_of(format, report::render(&redacted, &options(format, true)).unwrap());
            for s in &p.secrets {
                prop_assert!(!text.contains(s.as_str()), "{format:?} still shows {s}");
            }
        }
    }
}
