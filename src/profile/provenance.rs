//! Where a figure came from: the one vocabulary every figure in the app carries (DESIGN.md,
//! "Every figure carries one `Provenance`"). Profiles store it (`channels_source`,
//! `theoretical_bandwidth_source`), the advisor attaches it to what it derives (the installed
//! RAM, the pipeline's stages, the decode rate, Windows' RAM under WSL2), and `present::provenance`
//! words it once for every view.

use serde::{Deserialize, Serialize};

/// Where a figure came from. Serialised in kebab-case (`"measured"`, `"from-file"`, …);
/// profiles written by older builds, whose only values were `"detected"`, `"entered"` and
/// `"estimated"`, read back unchanged.
///
/// What a figure *is* besides where it came from (a theoretical peak, the sum of the modules,
/// whose formula) is said by a field of its own next to it, not by a variant here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    /// Measured on the machine by a benchmark (`ramvram bench …`, the window's Measure
    /// buttons).
    Measured,
    /// Read from the machine by detection (`/proc`, `/sys`, SMBIOS through udev or
    /// `dmidecode`, NVML, the OS's APIs), or computed from such figures alone.
    Detected,
    /// Read from a file the user gave (a model's `config.json`, a dataset's headers, an
    /// imported inventory) rather than from the machine or typed.
    FromFile,
    /// Given by the user: typed in the window or a hand-written profile, a command-line flag, a
    /// scenario file's value.
    Entered,
    /// Inferred from other figures: plausible, not certain (channel counts from slot names, an
    /// installed size from `MemTotal`).
    Estimated,
    /// A typical figure for the kind of thing (an NVMe drive's read speed): an assumption.
    Typical,
    /// A stated default (the JPEG decode rate per core): an assumption.
    Default,
    /// Not known.
    #[default]
    Unknown,
}

impl Provenance {
    /// Every provenance, in the order above (for exhaustive tests and pickers).
    pub const ALL: [Provenance; 8] = [
        Provenance::Measured,
        Provenance::Detected,
        Provenance::FromFile,
        Provenance::Entered,
        Provenance::Estimated,
        Provenance::Typical,
        Provenance::Default,
        Provenance::Unknown,
    ];

    /// True for the figures that rest on an assumption rather than on this machine or the
    /// user: typical and default figures.
    pub fn is_assumption(self) -> bool {
        matches!(self, Provenance::Typical | Provenance::Default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_names_are_kebab_case_and_old_values_still_read() {
        // The JSON names, written out by hand: the profile and assessment formats document them.
        let names = [
            "measured",
            "detected",
            "from-file",
            "entered",
            "estimated",
            "typical",
            "default",
            "unknown",
        ];
        for (p, name) in Provenance::ALL.iter().zip(names) {
            assert_eq!(serde_json::to_string(p).unwrap(), format!("\"{name}\""));
            let back: Provenance = serde_json::from_str(&format!("\"{name}\"")).unwrap();
            assert_eq!(back, *p);
        }
        // `Provenance` of older builds wrote exactly these three.
        for (old, p) in [
            ("detected", Provenance::Detected),
            ("entered", Provenance::Entered),
            ("estimated", Provenance::Estimated),
        ] {
            assert_eq!(
                serde_json::from_str::<Provenance>(&format!("\"{old}\"")).unwrap(),
                p
            );
        }
        assert!(serde_json::from_str::<Provenance>("\"guessed\"").is_err());
    }
}
