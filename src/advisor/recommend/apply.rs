//! The command-line arguments that apply a change: the difference between the plan as given and
//! the plan a recommendation re-ran, written as `advise` flags. Added to the same command, they
//! give the changed plan (the command line lets a later flag override an earlier one), so a user
//! can copy them and a test can re-run them. Pure: flag names are the command line's vocabulary
//! (`docs/cli.md`), checked by the tests that re-run every first recommendation. Each plan's
//! own flags are written beside the plan (`training::apply`, `inference::apply`,
//! `workload::apply`); this file holds what they share and the machine's flags.

/// Arguments in order, each flag followed by its value.
#[derive(Default)]
pub(crate) struct Args(pub(crate) Vec<String>);

impl Args {
    /// Adds `--name value`.
    pub(crate) fn flag(&mut self, name: &str, value: impl ToString) {
        self.0.push(format!("--{name}"));
        self.0.push(value.to_string());
    }
    /// Adds `--name`.
    pub(crate) fn switch(&mut self, name: &str) {
        self.0.push(format!("--{name}"));
    }
}

/// A byte count as the size parser reads it, exactly: whole GiB or MiB (`64MiB`, memory), whole
/// GB or MB (`2GB`, files and datasets), else bytes.
pub fn size_arg(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;
    if bytes == 0 {
        "0".to_string()
    } else if bytes % GIB == 0 {
        format!("{}GiB", bytes / GIB)
    } else if bytes % 1_000_000_000 == 0 {
        format!("{}GB", bytes / 1_000_000_000)
    } else if bytes % MIB == 0 {
        format!("{}MiB", bytes / MIB)
    } else if bytes % 1_000_000 == 0 {
        format!("{}MB", bytes / 1_000_000)
    } else {
        bytes.to_string()
    }
}

/// A float as a flag value: at most two decimals, no trailing zeros.
pub(crate) fn decimal(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The flags that re-assess the same plan on the machine with `c` applied
/// ([`crate::advisor::whatif`]).
pub fn machine(c: &crate::advisor::whatif::MachineChange) -> Vec<String> {
    let mut a = Args::default();
    if let Some(b) = c.shm_bytes {
        a.flag("shm-size", size_arg(b));
    }
    if let Some(b) = c.wsl_memory_bytes {
        a.flag("wsl-memory", size_arg(b));
    }
    if let Some(b) = c.ram_bytes {
        a.flag("ram", size_arg(b));
    }
    a.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_written_as_the_size_parser_reads_them() {
        assert_eq!(size_arg(64 << 20), "64MiB");
        assert_eq!(size_arg(1 << 30), "1GiB");
        assert_eq!(size_arg(128 << 30), "128GiB");
        assert_eq!(size_arg(2_000_000_000), "2GB");
        assert_eq!(size_arg(586_806_000_000), "586806MB");
        assert_eq!(size_arg(1000), "1000");
    }
}
