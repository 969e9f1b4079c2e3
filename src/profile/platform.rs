//! What kind of machine a profile describes (`host.platform`) and what WSL2 does to its memory
//! (`memory.wsl`): additive parts of the profile format (`docs/profile.md`). Every field has a
//! serde default, so profiles written before they existed still load; a value not detected is
//! `None` (`null`), never guessed.

use serde::{Deserialize, Serialize};

/// Longest instance type name a profile may carry, in characters. AWS, GCP and Azure names are
/// under 40 (`Standard_NC80adis_H100_v5`); longer text is a typo or hostile.
pub const MAX_INSTANCE_TYPE_CHARS: usize = 64;

/// The kind of machine, from DMI (`/sys/class/dmi/id`) or the operating system.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Platform {
    /// Desktop, laptop, server, cloud instance, …; `None` when DMI could not tell.
    #[serde(default)]
    pub kind: Option<PlatformKind>,
    /// The cloud, for a cloud instance.
    #[serde(default)]
    pub provider: Option<CloudProvider>,
    /// The instance type as the provider names it (`g5.xlarge`, `a2-highgpu-1g`,
    /// `Standard_NC24ads_A100_v4`): AWS Nitro instances carry it in DMI `product_name`; for the
    /// other clouds it is entered by hand.
    #[serde(default)]
    pub instance_type: Option<String>,
}

/// Kinds of machine. DMI chassis types follow DMTF DSP0134 §7.4.1 (Table 17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlatformKind {
    /// A cloud instance: more RAM means a larger instance, never modules.
    Cloud,
    /// A virtual machine outside a known cloud (QEMU/KVM, VMware, Hyper-V, VirtualBox, Xen):
    /// its memory is a setting of the host.
    VirtualMachine,
    /// A desktop chassis (DSP0134 chassis types 3–7, 13, 15, 16, 24, 35, 36).
    Desktop,
    /// A desktop chassis with a workstation-class processor (Xeon, Threadripper, EPYC).
    Workstation,
    /// A server chassis (main server, rack mount, multi-system, blade: types 17, 23, 25, 28,
    /// 29).
    Server,
    /// A portable (types 8–10, 14, 30–32).
    Laptop,
    /// An Apple Mac (macOS, or Apple hardware under Linux).
    Apple,
    /// A hosted notebook runtime (Google Colab, Kaggle): its RAM comes with the runtime chosen;
    /// no modules, no swap file of one's own.
    HostedNotebook,
}

/// True when the environment is a hosted notebook's: Google Colab sets `COLAB_RELEASE_TAG`
/// (and `COLAB_GPU` on GPU runtimes) in every kernel, Kaggle sets `KAGGLE_KERNEL_RUN_TYPE`.
/// `var` reads one environment variable.
pub fn hosted_notebook(var: impl Fn(&str) -> Option<String>) -> bool {
    ["COLAB_RELEASE_TAG", "COLAB_GPU", "KAGGLE_KERNEL_RUN_TYPE"]
        .iter()
        .any(|name| var(name).is_some_and(|v| !v.is_empty()))
}

/// Cloud providers recognised from DMI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CloudProvider {
    /// Amazon EC2 (`sys_vendor` "Amazon EC2", or Xen with an Amazon BIOS version).
    Aws,
    /// Google Compute Engine (`product_name` "Google Compute Engine").
    Gcp,
    /// Microsoft Azure (Hyper-V with Azure's chassis asset tag).
    Azure,
    /// Alibaba Cloud ECS (`sys_vendor` "Alibaba Cloud").
    Alibaba,
    /// Oracle Cloud (`chassis_asset_tag` "OracleCloud.com").
    Oracle,
}

/// Windows Subsystem for Linux: the Linux side runs in a VM whose memory WSL caps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wsl {
    /// 1 or 2 (from the kernel release: WSL1 reports `…-Microsoft`, WSL2
    /// `…-microsoft-standard-WSL2`); `None` when only `WSL_DISTRO_NAME` said it is WSL.
    #[serde(default)]
    pub version: Option<u32>,
    /// The memory Linux sees under WSL2 (`MemTotal`): WSL's cap, not Windows' RAM. `None` under
    /// WSL1, which has no cap of its own.
    #[serde(default)]
    pub memory_cap_bytes: Option<u64>,
    /// What was found of `%UserProfile%\.wslconfig` (read from `/mnt/c/Users/*/.wslconfig`).
    #[serde(default)]
    pub wslconfig: Option<WslConfigState>,
    /// `memory=` in the file's `[wsl2]` section, bytes; `None` when not set (then WSL's default,
    /// half of Windows' memory, applies).
    #[serde(default)]
    pub wslconfig_memory_bytes: Option<u64>,
    /// `swap=` in the file's `[wsl2]` section, bytes (`0`: no swap file).
    #[serde(default)]
    pub wslconfig_swap_bytes: Option<u64>,
    /// Windows' RAM when the user enters it: it can't be read from inside WSL.
    #[serde(default)]
    pub windows_ram_bytes: Option<u64>,
}

/// What happened when looking for `.wslconfig`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WslConfigState {
    /// One file was found and read.
    Read,
    /// No user folder holds one: WSL's defaults apply.
    Absent,
    /// The file is not valid (WSL, too, starts without its settings); a note names it.
    Malformed,
    /// Several Windows users have one; which applies can't be told.
    Ambiguous,
    /// `/mnt/c/Users` (or the file) could not be read: whether one exists is unknown.
    Unreadable,
}

impl Wsl {
    /// True under WSL2 (the VM with a memory cap).
    pub fn is_wsl2(&self) -> bool {
        self.version == Some(2)
    }
}

#[cfg(test)]
mod notebook_tests {
    use super::hosted_notebook;

    #[test]
    fn colab_and_kaggle_are_told_by_their_environment() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(hosted_notebook(env(&[(
            "COLAB_RELEASE_TAG",
            "release-colab_20240920-060127_RC00"
        )])));
        assert!(hosted_notebook(env(&[(
            "KAGGLE_KERNEL_RUN_TYPE",
            "Interactive"
        )])));
        assert!(!hosted_notebook(env(&[("COLAB_RELEASE_TAG", "")])));
        assert!(!hosted_notebook(env(&[("HOME", "/root")])));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::validate::platform as validate;
    use crate::profile::{MachineProfile, Problem};

    #[test]
    fn old_profiles_load_and_new_fields_round_trip() {
        // A profile written before these fields existed.
        let old = r#"{"schema_version":1,"host":{"hostname":"h","os":null,"kernel":null,"arch":null},
            "cpu":{"model":null,"physical_cores":null,"logical_cpus":null},
            "memory":{"total_bytes":17179869184,"available_bytes":null,"swap_total_bytes":null,
            "swap_used_bytes":null,"limit_bytes":null,"swappiness":null,"transparent_hugepages":null,
            "shm_bytes":null}}"#;
        let loaded = crate::profile::parse_profile(old, std::path::Path::new("old.json")).unwrap();
        assert!(loaded.ignored_fields.is_empty());
        let p = loaded.profile;
        assert_eq!(p.host.platform, None);
        assert_eq!((p.memory.slots_total, p.memory.wsl.clone()), (None, None));
        // A hand-written cloud instance: only the instance type and provider.
        let typed = old.replace(
            r#""arch":null}"#,
            r#""arch":null,"platform":{"provider":"azure","instance_type":"NC4as_T4_v3"}}"#,
        );
        let p = crate::profile::parse_profile(&typed, std::path::Path::new("t.json"))
            .unwrap()
            .profile;
        let platform = p.host.platform.clone().unwrap();
        assert_eq!(platform.kind, None);
        assert_eq!(platform.provider, Some(CloudProvider::Azure));
        let json = serde_json::to_string(&p).unwrap();
        let back: MachineProfile = serde_json::from_str(&json).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn impossible_values_name_the_field() {
        let mut p = MachineProfile::unknown();
        assert_eq!(validate(&p), Ok(()));
        p.host.platform = Some(Platform {
            instance_type: Some("g5.xlarge\u{1b}[31m".into()),
            ..Platform::default()
        });
        assert_eq!(validate(&p).unwrap_err().0, "host.platform.instance_type");
        p.host.platform = Some(Platform {
            instance_type: Some("x".repeat(65)),
            ..Platform::default()
        });
        assert_eq!(validate(&p).unwrap_err().1, Problem::TooLong { max: 64 });
        p.host.platform = None;
        p.memory.slots_total = Some(4);
        p.memory.slots_populated = Some(5);
        assert_eq!(validate(&p).unwrap_err().0, "memory.slots_populated");
        p.memory.slots_populated = Some(1);
        p.memory.channels_total = Some(0);
        assert_eq!(validate(&p).unwrap_err().0, "memory.channels_total");
        p.memory.channels_total = Some(2);
        p.memory.wsl = Some(Wsl {
            version: Some(3),
            ..Wsl::default()
        });
        assert_eq!(validate(&p).unwrap_err().0, "memory.wsl.version");
        p.memory.wsl = Some(Wsl {
            version: Some(2),
            wslconfig_swap_bytes: Some(0),
            windows_ram_bytes: Some(0),
            ..Wsl::default()
        });
        assert_eq!(
            validate(&p).unwrap_err(),
            ("memory.wsl.windows_ram_bytes".into(), Problem::Zero)
        );
    }
}
