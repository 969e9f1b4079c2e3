//! Purchase wording in both languages, on the fixtures of issue 11's cases.
use super::*;
use crate::advisor::buying::purchase::purchase_to_reach;
use crate::advisor::{assess, capacity::ram_sizes};
use crate::i18n::Lang;
use crate::profile::MachineProfile;
use crate::profile::WslConfigState;

const GIB: u64 = 1 << 30;

fn fixture(name: &str) -> MachineProfile {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/profiles")
        .join(format!("{name}.json"));
    crate::profile::load_profile(&path).unwrap().profile
}

/// The purchase lines as a reader sees them in the terminal: code spans without backticks, no-break
/// spaces as spaces.
fn say(lang: Lang, p: &MachineProfile, need: u64) -> String {
    let text = lines(lang, &purchase_to_reach(p, &ram_sizes(p), need), need).join("\n");
    crate::codespan::plain(&text).replace('\u{a0}', " ")
}

#[test]
fn the_desktop_adds_one_module_and_says_dual_channel() {
    let p = fixture("desktop-3090-1x32-ddr4-4slot");
    assert_eq!(
        say(Lang::En, &p, 48 * GIB),
        "Add 1 × 32 GB DDR4-3200 to the free slots and keep the 1 installed: 64.0 GiB in 2 of \
         4 slots, dual channel."
    );
    let zh = say(Lang::Zh, &p, 48 * GIB);
    assert!(
        zh.contains("1 × 32 GB DDR4-3200") && zh.contains("双通道"),
        "{zh}"
    );
}

#[test]
fn the_g5_names_an_instance_and_no_modules() {
    let p = fixture("aws-g5.xlarge");
    let en = say(Lang::En, &p, 48 * GIB);
    assert!(
        en.starts_with("Move to g5.4xlarge: 64.0 GiB of RAM, 16 vCPUs"),
        "{en}"
    );
    assert!(!en.contains("DDR") && !en.contains("channel"), "{en}");
    let zh = say(Lang::Zh, &p, 48 * GIB);
    assert!(zh.starts_with("换成 g5.4xlarge"), "{zh}");
    let mut odd = p.clone();
    odd.host.platform.as_mut().unwrap().instance_type = Some("g9.superhuge".into());
    assert!(
        say(Lang::En, &odd, 48 * GIB)
            .starts_with("The instance catalogue has no entry for g9.superhuge: keep this machine"),
    );
}

#[test]
fn soldered_wsl_and_generic_read_right() {
    let laptop = fixture("laptop-4090m-lpddr5-soldered");
    let en = say(Lang::En, &laptop, 32 * GIB);
    assert!(
        en.contains("(LPDDR5) is soldered to the board: it can't be upgraded"),
        "{en}"
    );
    assert!(
        en.contains("· 2-channel desktop, DDR5 UDIMM: 2 × 16 GB = 32.0 GiB"),
        "{en}"
    );
    assert!(
        en.contains("· 12-channel workstation or server, DDR5 RDIMM: 12 × 16 GB = 192 GiB"),
        "{en}"
    );
    let wsl = fixture("wsl2-4090-32g");
    let en = say(Lang::En, &wsl, 20 * GIB);
    assert!(
        en.contains("memory=20GB") && en.contains("up to about 28.0 GiB"),
        "{en}"
    );
    let zh = say(Lang::Zh, &wsl, 48 * GIB);
    assert!(
        zh.contains("64.0 GiB") && zh.contains("memory=48GB"),
        "{zh}"
    );
    // Windows' RAM entered (memory= already set): no "about".
    let mut entered = wsl.clone();
    let w = entered.memory.wsl.as_mut().unwrap();
    w.windows_ram_bytes = Some(64 * GIB);
    w.wslconfig = Some(WslConfigState::Read);
    w.wslconfig_memory_bytes = Some(16 * GIB);
    assert_eq!(
        say(Lang::En, &entered, 48 * GIB),
        "First raise WSL's cap, which costs nothing: memory=48GB (and swap= for loading peaks) \
         in the [wsl2] section of .wslconfig, then wsl --shutdown. Windows has 64.0 GiB, so \
         memory= can go up to 60.0 GiB."
    );
    // 64 GiB less 4 = 60 GiB can't reach 100: Windows needs 104 GiB, sold as 128.
    let en = say(Lang::En, &entered, 100 * GIB);
    assert!(
        en.starts_with("Raising memory= in .wslconfig gives at most 60.0 GiB (Windows' 64.0 GiB")
            && en.contains("at least 128 GiB installed"),
        "{en}"
    );
}

#[test]
fn a_set_with_two_modules_per_channel_says_so_in_both_languages() {
    // 192 GiB on an unknown machine: a desktop takes 4 × 48 GB UDIMMs (no 96 GB UDIMM).
    let unknown = MachineProfile::unknown();
    let en = say(Lang::En, &unknown, 192 * GIB);
    assert!(
        en.contains("· 2-channel desktop, DDR5 UDIMM: 4 × 48 GB, two per channel = 192 GiB"),
        "{en}"
    );
    assert!(!en.contains("96 GB"), "{en}");
    let zh = say(Lang::Zh, &unknown, 192 * GIB);
    assert!(
        zh.contains("· 2 通道台式机，DDR5 UDIMM：4 × 48 GB，每通道两根 = 192 GiB"),
        "{zh}"
    );
    // Beyond every platform: none, with the largest (24 × 256 GB on one 12-channel socket).
    let en = say(Lang::En, &unknown, 8192 * GIB);
    assert!(en.contains("at most 24 × 256 GB = 6144 GiB"), "{en}");
}

#[test]
fn every_purchase_fills_every_placeholder_in_both_languages() {
    let cases = [
        ("aws-g5.xlarge", 48),
        ("aws-g5.xlarge", 1024),
        ("aws-g5.xlarge", 8),
        ("desktop-3090-1x32-ddr4-4slot", 48),
        ("desktop-3090-1x32-ddr4-4slot", 128),
        ("desktop-3090-1x32-ddr4-4slot", 512),
        ("laptop-4090m-lpddr5-soldered", 32),
        ("macbook-pro-m4max-128g", 256),
        ("wsl2-4090-32g", 20),
        ("wsl2-4090-32g", 48),
        ("student-4090-ddr4-single-channel", 64),
        ("hf-spaces-t4-small", 64),
    ];
    for (name, gib) in cases {
        let p = fixture(name);
        for lang in [Lang::En, Lang::Zh] {
            let text = say(lang, &p, gib * GIB);
            // A placeholder left unfilled shows as "{name}".
            assert!(!text.contains('{'), "{name} {gib}: {text}");
        }
    }
}

#[test]
fn hardware_rows_name_the_machine_slots_and_wsl() {
    let rows = platform_rows(
        Lang::En,
        &assess(
            &fixture("desktop-3090-1x32-ddr4-4slot"),
            &crate::advisor::Scenario::NONE,
        ),
    );
    assert_eq!(rows[0], ("Machine".into(), "desktop".into()));
    assert_eq!(
        rows[1].1,
        "1 of 4 used, over 2 channels (estimated from slot names)"
    );
    let wsl = platform_rows(
        Lang::En,
        &assess(&fixture("wsl2-4090-32g"), &crate::advisor::Scenario::NONE),
    );
    assert_eq!(wsl[0].1, "unknown");
    assert_eq!(
        wsl[1].1,
        "WSL2: Linux sees 15.6\u{a0}GiB; .wslconfig: none found (WSL's defaults)"
    );
    let g5 = platform_rows(
        Lang::Zh,
        &assess(&fixture("aws-g5.xlarge"), &crate::advisor::Scenario::NONE),
    );
    assert_eq!(g5[0].1, "云实例 · AWS · g5.xlarge");
}
