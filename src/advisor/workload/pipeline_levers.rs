//! Levers on the data pipeline when the GPUs wait for it: where the dataset is read from
//! (a local NVMe copy), how it is laid out (shards instead of many small files), how large the
//! stored images are (pre-resized) and where they are decoded (the GPU). Each is the workload
//! re-simulated with that change, kept only when the GPUs are fed better.

use super::lever_base::{Base, improves, outcome};
use super::{DataFormat, DecodeOn, MachineRates, StageId, StoredFormat, Workload, WorkloadResult};
use crate::advisor::findings::Quantity;
use crate::advisor::recommend::{AdviceId as R, Recommendation};
use crate::profile::DiskKind;

/// The stored short side a pre-resize keeps: 8 ÷ 7 of the training crop (256 pixels for a
/// 224 crop: torchvision's ImageNet recipe resizes to 256 and crops 224), so random crops and
/// scale augmentation still have their margin. Assumption.
pub const PRE_RESIZE_OVER_CROP: f64 = 8.0 / 7.0;

/// The samples per second the pipeline delivers in `r`: utilisation × demand.
fn delivered(r: &WorkloadResult) -> Option<f64> {
    let u = r.pipeline.predicted_gpu_utilization?;
    Some(u * r.workload.gpu_demand_samples_per_s)
}

/// The pipeline levers of `r` (the workload as given in `base`) on machine `m`; `rates_on` gives
/// the machine's rates with the dataset on another kind of storage (`None`: the machine has
/// none of that kind).
pub(super) fn recommendations(
    r: &WorkloadResult,
    base: &Base<'_>,
    m: &MachineRates,
    rates_on: &dyn Fn(DiskKind) -> Option<MachineRates>,
) -> Vec<Recommendation> {
    let mut out = Vec::new();
    let w = &r.workload;
    let Some(narrowest) = r.pipeline.narrowest.filter(|_| r.pipeline.data_bound()) else {
        return out;
    };
    let before = outcome(r, base.shm);
    let mut keep = |id, after: WorkloadResult, changes: Vec<(&str, Quantity)>| {
        if improves(&before, &outcome(&after, base.shm)) {
            let mut rec = base.rec(id, &after);
            for (k, q) in changes {
                rec = rec.with(k, q);
            }
            if let Some(rate) = delivered(&after) {
                rec = rec.with("samples_per_s", Quantity::Rate(rate));
            }
            out.push(rec);
        }
    };
    if narrowest == StageId::StorageRead {
        if m.storage_kind != DiskKind::Nvme {
            if let Some(nvme) = rates_on(DiskKind::Nvme) {
                let moved = Workload {
                    storage: Some(DiskKind::Nvme),
                    ..w.clone()
                };
                let after = super::simulate_only(&moved, &nvme);
                keep(R::CopyToLocalNvme, after, vec![]);
            }
        }
        if w.format == DataFormat::Files {
            let packed = Workload {
                format: DataFormat::Shards,
                ..w.clone()
            };
            keep(R::PackShards, super::simulate_only(&packed, m), vec![]);
        }
    }
    if matches!(narrowest, StageId::Decode | StageId::StorageRead) && w.width > 0 {
        if let Some(smaller) = pre_resized(w) {
            let size = Quantity::Pixels {
                width: smaller.width,
                height: smaller.height,
            };
            keep(
                R::PreResize,
                super::simulate_only(&smaller, m),
                vec![("image_size", size)],
            );
        }
    }
    if narrowest == StageId::Decode
        && w.decode_on == DecodeOn::Cpu
        && w.width > 0
        && w.stored == StoredFormat::Jpeg
        && m.gpus > 0
    {
        let on_gpu = Workload {
            decode_on: DecodeOn::Gpu,
            ..w.clone()
        };
        keep(R::GpuDecode, super::simulate_only(&on_gpu, m), vec![]);
    }
    out
}

/// `w` with its images stored at [`PRE_RESIZE_OVER_CROP`] × the crop on the short side (same
/// aspect ratio), the dataset's bytes scaled by the pixels kept; `None` when the stored images
/// are already that small.
fn pre_resized(w: &Workload) -> Option<Workload> {
    let short = w.width.min(w.height);
    let target = (f64::from(w.crop.max(1)) * PRE_RESIZE_OVER_CROP).round();
    if short == 0 || f64::from(short) <= target * 1.05 {
        return None;
    }
    let scale = target / f64::from(short);
    let (nw, nh) = (
        (f64::from(w.width) * scale).round() as u32,
        (f64::from(w.height) * scale).round() as u32,
    );
    let pixels = |a: u32, b: u32| f64::from(a) * f64::from(b);
    let share = pixels(nw, nh) / pixels(w.width, w.height);
    Some(Workload {
        width: nw,
        height: nh,
        // Whole MB: the size a user types (`--dataset-size 586806MB`).
        dataset_bytes: crate::units::saturating_bytes(w.dataset_bytes as f64 * share / 1e6)
            * 1_000_000,
        ..w.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pre_resizing_keeps_eight_sevenths_of_the_crop_and_scales_the_bytes() {
        let w = Workload {
            width: 3840,
            height: 2160,
            crop: 224,
            dataset_bytes: 1_000_000_000,
            ..super::super::presets::preset("seed-4k-medical").unwrap()
        };
        let r = pre_resized(&w).unwrap();
        // Short side 256 (224 × 8 / 7), long side 3840 × 256 / 2160 = 455.1 → 455.
        assert_eq!((r.width, r.height), (455, 256));
        let share: f64 = 455.0 * 256.0 / (3840.0 * 2160.0);
        assert_eq!(
            r.dataset_bytes,
            (1e9 * share / 1e6).round() as u64 * 1_000_000
        );
        // Already near the crop: nothing to do.
        assert!(
            pre_resized(&Workload {
                width: 256,
                height: 256,
                ..w
            })
            .is_none()
        );
    }
}
