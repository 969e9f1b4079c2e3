//! Cloud instance types with their GPUs and RAM (`assets/catalog/instances.csv`, every row with
//! its source): what a larger instance of the same family gives.

use serde::Deserialize;

use crate::profile::CloudProvider;

/// The unit a provider quotes RAM in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum RamUnit {
    /// GiB (2^30 bytes): AWS and Azure write "GiB".
    #[serde(rename = "GiB")]
    Gib,
    /// Google's "GB", which Compute Engine defines as JEDEC binary gigabytes, 2^30 bytes
    /// ("disk size, machine type memory, and network usage are calculated in JEDEC binary
    /// gigabytes (GB), or IEC gibibytes (GiB), where 1 GiB is 2^30 bytes",
    /// cloud.google.com/compute/vm-instance-pricing).
    #[serde(rename = "GB")]
    GoogleGb,
}

impl RamUnit {
    /// Bytes per unit.
    pub fn bytes(self) -> u64 {
        match self {
            RamUnit::Gib | RamUnit::GoogleGb => 1 << 30,
        }
    }
}

/// One instance type.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct InstanceType {
    /// The cloud.
    pub provider: CloudProvider,
    /// The family the provider sells sizes of (`g5`, `a2`, `NC_A100_v4`).
    pub family: String,
    /// The name as the provider writes it (`g5.xlarge`, `a2-highgpu-1g`,
    /// `Standard_NC24ads_A100_v4`).
    pub instance_type: String,
    /// GPU model, as named in `gpus.csv`.
    pub gpu_model: String,
    /// GPUs.
    pub gpu_count: u32,
    /// vCPUs.
    pub vcpus: u32,
    /// RAM in the provider's unit.
    pub ram: u64,
    /// That unit.
    pub ram_unit: RamUnit,
    /// Where the figures come from.
    pub source: String,
}

impl InstanceType {
    /// RAM in bytes.
    pub fn ram_bytes(&self) -> u64 {
        self.ram.saturating_mul(self.ram_unit.bytes())
    }
}

/// An instance type name compared loosely: lower case, Azure's `Standard_` prefix dropped
/// (`Standard_NC4as_T4_v3` and `nc4as_t4_v3` are the same size).
pub fn normalise_instance_type(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase();
    lower
        .strip_prefix("standard_")
        .map_or(lower.clone(), str::to_string)
}

/// The instance type `name`, if the catalogue has it.
pub fn find<'a>(instances: &'a [InstanceType], name: &str) -> Option<&'a InstanceType> {
    let n = normalise_instance_type(name);
    if n.is_empty() {
        return None;
    }
    instances
        .iter()
        .find(|i| normalise_instance_type(&i.instance_type) == n)
}

/// The smallest instance of `current`'s family with the same GPU model and count whose RAM
/// reaches `needed` bytes (fewest vCPUs breaks a tie), or `None` when none does.
pub fn smallest_reaching<'a>(
    instances: &'a [InstanceType],
    current: &InstanceType,
    needed: u64,
) -> Option<&'a InstanceType> {
    same_shape(instances, current)
        .filter(|i| i.ram_bytes() >= needed)
        .min_by_key(|i| (i.ram_bytes(), i.vcpus))
}

/// The largest instance of `current`'s family with the same GPU model and count.
pub fn largest<'a>(
    instances: &'a [InstanceType],
    current: &InstanceType,
) -> Option<&'a InstanceType> {
    same_shape(instances, current).max_by_key(|i| (i.ram_bytes(), i.vcpus))
}

fn same_shape<'a, 'b>(
    instances: &'a [InstanceType],
    current: &'b InstanceType,
) -> impl Iterator<Item = &'a InstanceType> + use<'a, 'b> {
    instances.iter().filter(move |i| {
        i.provider == current.provider
            && i.family == current.family
            && i.gpu_model == current.gpu_model
            && i.gpu_count == current.gpu_count
    })
}
