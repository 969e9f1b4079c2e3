//! WSL2: the RAM Linux sees is WSL's cap, by default half of Windows' memory, so the first
//! advice is raising `memory=` in `.wslconfig`, not buying RAM. Pure, on `memory.wsl`.

use super::capacity::{RamSizes, VramTotals, estimate_installed};
use super::findings::{AdviceId, Finding, FindingId, Quantity, Severity};
use crate::profile::{MachineProfile, Provenance, WslConfigState};

/// Share of Windows' memory WSL2 gives its VM when `.wslconfig` sets no `memory=`: "50% of
/// total memory on Windows" (Microsoft, "Advanced settings configuration in WSL", `memory`
/// default; builds before 20175 gave 80 %).
pub const WSL_DEFAULT_SHARE: f64 = 0.5;

/// RAM left to Windows itself when raising `memory=`: 4 GiB, Windows 11's minimum RAM
/// ("4 gigabytes (GB) or greater", Microsoft's Windows 11 specifications). Assumption: with less,
/// Windows (which also hosts the GPU driver WSL uses) can't run; more is kinder to a desktop in
/// use.
pub const WINDOWS_RESERVE_BYTES: u64 = 4 << 30;

/// Windows' RAM and where the figure comes from; `None` when it can't be told (a `memory=` is
/// set and nobody entered Windows' RAM, the `.wslconfig` couldn't be read, or this isn't WSL2).
/// The provenance is [`Provenance::Entered`] for `memory.wsl.windows_ram_bytes`, and
/// [`Provenance::Estimated`] for twice the cap Linux sees (WSL's default share being half),
/// rounded to a common installed size ([`estimate_installed`]): only when no `memory=`
/// overrides the default.
pub fn windows_ram(profile: &MachineProfile) -> Option<(u64, Provenance)> {
    let w = profile.memory.wsl.as_ref().filter(|w| w.is_wsl2())?;
    if let Some(entered) = w.windows_ram_bytes {
        return Some((entered, Provenance::Entered));
    }
    // The default applies when no memory= is in effect: no file, or a file without memory=, or
    // one WSL ignores as malformed.
    let default_applies = w.wslconfig_memory_bytes.is_none()
        && matches!(
            w.wslconfig,
            Some(WslConfigState::Absent | WslConfigState::Read | WslConfigState::Malformed)
        );
    if !default_applies {
        return None;
    }
    let cap = w.memory_cap_bytes.or(profile.memory.total_bytes)?;
    let doubled = crate::units::saturating_bytes(cap as f64 / WSL_DEFAULT_SHARE);
    estimate_installed(doubled).map(|e| (e, Provenance::Estimated))
}

/// The most `memory=` can give: Windows' RAM less [`WINDOWS_RESERVE_BYTES`]; `None` when
/// Windows' RAM is unknown (see [`windows_ram`]) or not above the reserve.
pub fn wsl_cap_after(profile: &MachineProfile) -> Option<u64> {
    let (windows, _) = windows_ram(profile)?;
    windows
        .checked_sub(WINDOWS_RESERVE_BYTES)
        .filter(|b| *b > 0)
}

/// True when the kernel release is WSL2's (`…-microsoft-standard-WSL2`, Microsoft's kernel
/// naming for WSL2; WSL1 reports `…-Microsoft`).
pub fn kernel_is_wsl2(kernel: &str) -> bool {
    kernel
        .to_ascii_lowercase()
        .contains("microsoft-standard-wsl2")
}

/// `profile` with WSL2 recognised from its kernel release alone when the profile says nothing
/// of WSL (a profile written by hand, or by a tool that only records `uname -r`): the cap is the
/// RAM Linux sees; `.wslconfig` was not read, so Windows' RAM stays unknown. `None` when nothing
/// changes.
pub fn recognised(profile: &MachineProfile) -> Option<MachineProfile> {
    if profile.memory.wsl.is_some() || !profile.host.kernel.as_deref().is_some_and(kernel_is_wsl2) {
        return None;
    }
    let mut p = profile.clone();
    p.memory.wsl = Some(crate::profile::Wsl {
        version: Some(2),
        memory_cap_bytes: profile.memory.total_bytes,
        ..Default::default()
    });
    Some(p)
}

/// `wsl-memory-capped`, under WSL2 with a known cap and room to raise it (or room unknown):
/// a warning when the cap leaves RAM below the GPUs' memory, info otherwise. Values: `cap`,
/// and `windows_ram` (with `windows_ram_provenance`: `entered` or `estimated`) and `cap_after`
/// when known. Its first recommendation raises `memory=` ([`AdviceId::WslRaiseMemory`]).
pub fn findings(profile: &MachineProfile, ram: &RamSizes, vram: &VramTotals) -> Vec<Finding> {
    let Some(w) = profile.memory.wsl.as_ref().filter(|w| w.is_wsl2()) else {
        return Vec::new();
    };
    let Some(cap) = w.memory_cap_bytes.or(ram.mem_total_bytes) else {
        return Vec::new();
    };
    let windows = windows_ram(profile);
    let after = wsl_cap_after(profile);
    if after.is_some_and(|a| a <= cap) {
        return Vec::new();
    }
    let below_vram = vram.nominal_total_bytes.is_some_and(|v| cap < v);
    let mut f = Finding::new(
        FindingId::WslMemoryCapped,
        if below_vram {
            Severity::Warning
        } else {
            Severity::Info
        },
        &[AdviceId::WslRaiseMemory],
    )
    .with("cap", Quantity::Bytes(cap));
    if let (Some((win, provenance)), Some(a)) = (windows, after) {
        // Entered or estimated: the advice's wording says which (`present::advice_text`).
        let provenance = match provenance {
            Provenance::Estimated => "estimated",
            _ => "entered",
        };
        f = f
            .with("windows_ram", Quantity::Bytes(win))
            .with("windows_ram_provenance", Quantity::Text(provenance.into()))
            .with("cap_after", Quantity::Bytes(a));
    }
    vec![f]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Wsl;

    const GIB: u64 = 1 << 30;

    /// WSL2 on a Windows machine with 32 GiB: by default WSL gives its VM 16 GiB, and Linux's
    /// `MemTotal` shows a little less (15.6 GiB: the VM's firmware and kernel keep some).
    fn wsl2(config: Option<WslConfigState>, memory: Option<u64>) -> MachineProfile {
        let mut p = MachineProfile::unknown();
        p.memory.total_bytes = Some(16_363_380 * 1024); // MemTotal: 16363380 kB
        p.memory.wsl = Some(Wsl {
            version: Some(2),
            memory_cap_bytes: p.memory.total_bytes,
            wslconfig: config,
            wslconfig_memory_bytes: memory,
            ..Wsl::default()
        });
        p
    }

    #[test]
    fn windows_ram_is_twice_the_default_cap() {
        // 2 × 15.6 GiB = 31.2 GiB, 97.5 % of 32 GiB: Windows has 32 GiB; memory= can give
        // 32 − 4 = 28 GiB.
        let p = wsl2(Some(WslConfigState::Absent), None);
        assert_eq!(windows_ram(&p), Some((32 * GIB, Provenance::Estimated)));
        assert_eq!(wsl_cap_after(&p), Some(28 * GIB));
        // A malformed file is ignored by WSL: the default still applies.
        let m = wsl2(Some(WslConfigState::Malformed), None);
        assert_eq!(wsl_cap_after(&m), Some(28 * GIB));
    }

    #[test]
    fn a_memory_setting_hides_windows_ram_unless_entered() {
        let mut p = wsl2(Some(WslConfigState::Read), Some(16 * GIB));
        assert_eq!(windows_ram(&p), None);
        assert_eq!(wsl_cap_after(&p), None);
        // Unreadable or ambiguous: whether memory= is set is unknown.
        assert_eq!(
            windows_ram(&wsl2(Some(WslConfigState::Unreadable), None)),
            None
        );
        assert_eq!(windows_ram(&wsl2(None, None)), None);
        // Entered by the user: 64 GiB − 4 = 60 GiB.
        p.memory.wsl.as_mut().unwrap().windows_ram_bytes = Some(64 * GIB);
        assert_eq!(wsl_cap_after(&p), Some(60 * GIB));
        // WSL1 has no cap; not WSL at all has none either.
        let mut v1 = wsl2(Some(WslConfigState::Absent), None);
        v1.memory.wsl.as_mut().unwrap().version = Some(1);
        assert_eq!(wsl_cap_after(&v1), None);
        assert_eq!(wsl_cap_after(&MachineProfile::unknown()), None);
    }

    #[test]
    fn the_finding_puts_wslconfig_first() {
        let p = wsl2(Some(WslConfigState::Absent), None);
        let ram = super::super::capacity::ram_sizes(&p);
        let vram = VramTotals {
            discrete_gpus: 1,
            unified_gpus: 0,
            unknown_vram_gpus: 0,
            total_discrete_bytes: Some(24 * GIB),
            largest_discrete_bytes: Some(24 * GIB),
            nominal_total_bytes: Some(24 * GIB),
            nominal_largest_bytes: Some(24 * GIB),
            catalogue_gpus: 1,
        };
        let f = findings(&p, &ram, &vram);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id, FindingId::WslMemoryCapped);
        // 15.6 GiB < 24 GiB of VRAM: a warning.
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].recommendations, [AdviceId::WslRaiseMemory]);
        assert_eq!(f[0].values["cap_after"], Quantity::Bytes(28 * GIB));
        // Windows' RAM estimated from WSL's default cap (twice what Linux sees): the advice is
        // worded as an estimate.
        assert_eq!(
            f[0].values["windows_ram_provenance"],
            Quantity::Text("estimated".into())
        );
        // memory= already at Windows' RAM less the reserve: nothing left to raise.
        let mut full = wsl2(Some(WslConfigState::Read), Some(28 * GIB));
        let w = full.memory.wsl.as_mut().unwrap();
        w.windows_ram_bytes = Some(32 * GIB);
        w.memory_cap_bytes = Some(28 * GIB);
        assert!(findings(&full, &ram, &vram).is_empty());
    }
}
