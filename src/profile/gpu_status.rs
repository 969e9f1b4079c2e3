//! How each of a GPU's driver readings went: a value, "not supported", or an error. Kept in the
//! profile so that "unknown because the driver doesn't support it" and "unknown because the
//! query failed" are told apart wherever the GPU is shown.

use serde::{Deserialize, Serialize};

/// The outcome of one reading. JSON: `"value"`, `"unsupported"`, or `{"error": "text"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldStatus {
    /// The value was read (it is in the profile's field).
    Value,
    /// The driver says this GPU does not support the query (`NVML_ERROR_NOT_SUPPORTED`), or the
    /// driver is too old to have it.
    Unsupported,
    /// The query failed; the driver's error text.
    Error(String),
}

/// Per-field status of one GPU's readings; every field is `None` for GPUs not read through a
/// driver (sysfs, the catalogue, a hand-written profile), and the whole object is left out of
/// the JSON then.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuStatus {
    /// Memory size and use (`vram_total_bytes`, `vram_used_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<FieldStatus>,
    /// The PCIe link (`pcie`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcie: Option<FieldStatus>,
    /// Utilisation (`utilization_percent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub utilization: Option<FieldStatus>,
    /// The UUID (`uuid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<FieldStatus>,
}

impl GpuStatus {
    /// True when nothing is recorded (then the profile leaves `status` out).
    pub fn is_empty(&self) -> bool {
        *self == GpuStatus::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_the_profile_format_says() {
        let s = GpuStatus {
            memory: Some(FieldStatus::Unsupported),
            pcie: Some(FieldStatus::Value),
            utilization: Some(FieldStatus::Error("GPU is lost".into())),
            uuid: None,
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(
            json,
            r#"{"memory":"unsupported","pcie":"value","utilization":{"error":"GPU is lost"}}"#
        );
        assert_eq!(serde_json::from_str::<GpuStatus>(&json).unwrap(), s);
        assert!(GpuStatus::default().is_empty());
    }
}
